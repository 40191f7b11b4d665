"""What one GenXR trial folder holds, gathered for its report page (see `genxr/trial.py` for the layout).

Every part is optional: a trial without a verdict, recordings, trajectory or design score still
gets a page that says what is missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from xrbench.genxr.agents import trajectory
from xrbench.report.render import compact_json, href, read_json, read_text_tail

MAX_ACTION_CHARS = 4_000
MAX_MESSAGE_CHARS = 6_000
OUTCOME_CLASS = {"passed": "pass", "failed": "fail", "error": "fail", "missing": "fail", "xfailed": "fail"}


def artifact_dir_name(test_id: str) -> str:
    """The recorder's folder name for a test id (imported lazily: it pulls in Playwright)."""
    from xrbench.xrtest.recording import artifact_dir_name as name

    return name(test_id)


def trial_status(result: dict[str, Any] | None) -> tuple[str, str]:
    """(label, css class) of a trial's outcome: PASS, FAIL, INFRA ERROR or UNFINISHED."""
    if result is None:
        return "UNFINISHED", "skip"
    if result.get("infra_error"):
        return "INFRA ERROR", "infra"
    return ("PASS", "pass") if result.get("reward") == 1 else ("FAIL", "fail")


def _recording(folder: Path, page_dir: Path) -> dict[str, Any]:
    """One recorded test's artifacts (videos, key frames, trace, log) with links from `page_dir`."""
    log, _ = read_json(folder / "log.json")
    log = log if isinstance(log, dict) else {}
    problems = {k: len(log.get(k) or []) for k in ("page_errors", "console_errors", "failed_requests")}
    return {
        "name": folder.name,
        "videos": [href(p, page_dir) for p in sorted(folder.glob("video*.webm"))],
        "frames": [{"src": href(p, page_dir), "name": p.stem} for p in sorted(folder.glob("*.png"))],
        "trace": href(folder / "trace.zip", page_dir) if (folder / "trace.zip").is_file() else None,
        "log": href(folder / "log.json", page_dir) if (folder / "log.json").is_file() else None,
        "log_problems": {k: v for k, v in problems.items() if v},
        "notes": [str(n) for n in log.get("notes") or []],
    }


def _tests(trial: Path, page_dir: Path, notes: list[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The verdict's tests, each with its recording; then recordings that match no test."""
    verdict, why = read_json(trial / "verifier" / "verdict.json")
    details, _ = read_json(trial / "verifier" / "details.json")
    if verdict is None:
        notes.append(f"verifier/{why}")
    kinds = {t.get("id"): t.get("kind") for t in (details or {}).get("tests", []) if isinstance(t, dict)}
    art_root = trial / "artifacts"
    folders = {p.name: p for p in sorted(art_root.iterdir()) if p.is_dir()} if art_root.is_dir() else {}
    tests = []
    for t in (verdict or {}).get("tests", []):
        if not isinstance(t, dict):
            continue
        test_id = str(t.get("id", "?"))
        outcome = str(t.get("outcome", "?"))
        folder = folders.pop(artifact_dir_name(test_id), None)
        tests.append(
            {
                "id": test_id,
                "outcome": outcome,
                "css": OUTCOME_CLASS.get(outcome, "skip"),
                "message": str(t.get("message") or ""),
                "kind": kinds.get(test_id),
                "recording": _recording(folder, page_dir) if folder else None,
            }
        )
    return tests, [_recording(p, page_dir) for p in folders.values()]


def _trajectory(trial: Path, result: dict[str, Any] | None, page_dir: Path) -> dict[str, Any] | None:
    """The agent's trajectory (mini-swe-agent's format; other JSON shown as it is), or None."""
    rel = ((result or {}).get("agent_result") or {}).get("trajectory") or "agent/trajectory.json"
    path = trial / rel
    if not path.is_file():
        return None
    data, why = read_json(path)
    out: dict[str, Any] = {"href": href(path, page_dir), "error": why, "steps": [], "messages": [], "raw": None}
    if not isinstance(data, dict):
        out["raw"] = None if data is None else compact_json(data, 20_000)
        return out
    for i, step in enumerate(trajectory.steps(data), 1):
        action = step["action"]
        out["steps"].append(
            {
                "n": i,
                "kind": step["kind"],
                "action": _cut(action, MAX_ACTION_CHARS) if action is not None else "",
                "returncode": step["returncode"],
                "seconds": step["seconds"],
            }
        )
    for m in data.get("messages") or []:
        if isinstance(m, dict):
            out["messages"].append(
                {"role": str(m.get("role", "?")), "content": _cut(trajectory.text(m.get("content")), MAX_MESSAGE_CHARS)}
            )
    if not out["steps"] and not out["messages"]:
        out["raw"] = compact_json(data, 20_000)
    return out


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n… ({len(text) - limit} more characters)"


def design_view(trial: Path, page_dir: Path) -> dict[str, Any] | None:
    """The trial's design score (`design/design.json`), with links to its frames, prompt and replies."""
    folder = trial / "design"
    data, why = read_json(folder / "design.json")
    if data is None:
        return {"status": why, "score": None, "ratings": [], "frames": [], "files": []} if folder.is_dir() else None
    names = data.get("heuristics") if isinstance(data.get("heuristics"), dict) else {}
    ratings = []
    for key, r in (data.get("ratings") or {}).items():
        r = r if isinstance(r, dict) else {"score": r}
        ratings.append(
            {"key": key, "name": names.get(key, key), "score": r.get("score"), "reason": r.get("reason") or ""}
        )
    frames = [trial / f for f in data.get("frames") or [] if isinstance(f, str)]
    files = [folder / n for n in ("prompt.json", "responses.json")]
    return {
        "status": str(data.get("status") or ""),
        "score": data.get("design_score"),
        "model": data.get("model"),
        "source": data.get("source"),
        "summary": data.get("summary") or "",
        "ratings": ratings,
        "frames": [href(f, page_dir) for f in frames if f.is_file()],
        "files": [{"name": f.name, "href": href(f, page_dir)} for f in files if f.is_file()],
    }


def load_trial(trial: Path, page_dir: Path) -> dict[str, Any]:
    """Everything the trial page shows; links are relative to `page_dir`."""
    result, why = read_json(trial / "result.json")
    result = result if isinstance(result, dict) else None
    notes: list[str] = [] if result is not None else [f"result.json: {why} (the trial did not finish)"]
    tests, other = _tests(trial, page_dir, notes)
    status, css = trial_status(result)
    agent = (result or {}).get("agent_result") or {}
    details, _ = read_json(trial / "verifier" / "details.json")
    details = details if isinstance(details, dict) else {}
    agent_dir = trial / "agent"
    files = []
    for name in ("instruction.md", "agent-output.txt", "error.txt"):
        if (agent_dir / name).is_file():
            files.append({"name": f"agent/{name}", "href": href(agent_dir / name, page_dir)})
    for name in ("verdict.json", "details.json", "junit.xml", "pytest-output.txt"):
        if (trial / "verifier" / name).is_file():
            files.append({"name": f"verifier/{name}", "href": href(trial / "verifier" / name, page_dir)})
    regrades = []
    for folder in sorted(trial.glob("verifier-regrade-*")):
        v, _ = read_json(folder / "verdict.json")
        if isinstance(v, dict):
            regrades.append({"name": folder.name, "passed": bool(v.get("passed")), "infra_error": v.get("infra_error")})
    return {
        "name": trial.name,
        "result": result or {},
        "status": status,
        "css": css,
        "task": (result or {}).get("task") or trial.name.split("__")[0],
        "agent": agent,
        "usage": agent.get("usage") or {},
        "timings": (result or {}).get("timings") or {},
        "tests": tests,
        "tests_passed": sum(t["outcome"] == "passed" for t in tests),
        "other_recordings": other,
        "trajectory": _trajectory(trial, result, page_dir),
        "agent_error": read_text_tail(agent_dir / "error.txt", 8_000),
        "agent_output": read_text_tail(agent_dir / "agent-output.txt", 8_000),
        "verifier": {
            "infra_class": details.get("infra_class"),
            "exit_code": details.get("exit_code"),
            "timed_out": details.get("timed_out"),
            "build_error": details.get("build_error"),
            "duration_sec": details.get("duration_sec"),
            "output_tail": details.get("output_tail") or "",
        },
        "regrades": regrades,
        "design": design_view(trial, page_dir),
        "files": files,
        "notes": notes,
    }
