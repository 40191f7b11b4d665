"""The report of one GenXR job folder: an overview page, one page per trial, a chart, summary.md.

    <out>/index.html              overview: Table-3-shaped row, pass@k / pass^k, breakdowns, tool
                                  usage, Pass@1 by capability (chart), design score, every trial
    <out>/trials/<trial>.html     one page per trial: outcome, timings, tests with videos and key
                                  frames, the agent's trajectory, the design score
    <out>/pass_by_capability.png
    <out>/summary.md              the same numbers as Markdown
    <out>/style.css

The job's own files are linked where they lie (relative links), never copied: keep the report
next to its job (the default `<job>/report/`) or move both together.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from xrbench.errors import UserError
from xrbench.report.charts import score_bars
from xrbench.report.genxr_trial import load_trial
from xrbench.report.markdown import job_markdown
from xrbench.report.render import href, install_css, read_json, write_page
from xrbench.store.atomic import atomic_write_text

TASK_TYPES = ("app", "sdk-feature", "sdk-repair")
CHART_FILE = "pass_by_capability.png"
DESIGN_SUMMARY_FILE = "design_summary.json"


def is_job_dir(path: Path) -> bool:
    """A GenXR job folder: a config.json naming an agent, or trial folders with result.json."""
    config, _ = read_json(path / "config.json")
    if isinstance(config, dict) and "agent" in config:
        return True
    return any(path.glob("*__*__*/result.json"))


def _trial_dirs(job_dir: Path) -> list[Path]:
    """Trial folders (`<task>__<agent>__<attempt>`), finished or not, in name order."""
    return sorted(
        p
        for p in job_dir.iterdir()
        if p.is_dir() and p.name.count("__") >= 2 and ((p / "result.json").exists() or (p / "agent").is_dir())
    )


def _summary(job_dir: Path, results: list[dict[str, Any]], notes: list[str]) -> dict[str, Any]:
    """summary.json, or one computed from the trial results when it is missing (an interrupted job)."""
    summary, why = read_json(job_dir / "summary.json")
    if isinstance(summary, dict):
        return summary
    notes.append(f"summary.json: {why}; scores computed from the {len(results)} finished trial(s)")
    from xrbench.genxr import metrics

    first = results[0] if results else {}
    return {
        "agent": first.get("agent"),
        "model": first.get("model"),
        "trials_finished": len(results),
        **metrics.score(results),
        "by_type": metrics.breakdown(results, "task_type"),
        "by_difficulty": metrics.breakdown(results, "difficulty"),
        "by_capability": metrics.breakdown(results, "capabilities"),
    }


def _breakdown_rows(block: Any) -> list[dict[str, Any]]:
    rows = []
    for name, s in (block or {}).items() if isinstance(block, dict) else []:
        s = s if isinstance(s, dict) else {}
        rows.append(
            {
                "name": name,
                "trials": s.get("trials"),
                "tasks": s.get("tasks"),
                "pass_at_1": s.get("pass_at_1"),
                "ci": s.get("pass_at_1_ci95"),
                "infra_errors": s.get("infra_errors"),
            }
        )
    return rows


def _pass_k_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    at, hat = summary.get("pass_at_k") or {}, summary.get("pass_hat_k") or {}
    rows = []
    for k in sorted(set(at) | set(hat), key=lambda x: int(x) if str(x).isdigit() else 0):
        a, h = at.get(k) or {}, hat.get(k) or {}
        rows.append(
            {"k": k, "at": a.get("value"), "at_ci": a.get("ci95"), "hat": h.get("value"), "hat_ci": h.get("ci95")}
        )
    return rows


def table3_row(summary: dict[str, Any], design: dict[str, Any] | None = None) -> dict[str, Any]:
    """One row of the seed's Table 3: agent, model, Pass@1 with CI, Pass@1 per task type, design score."""
    by_type = summary.get("by_type") or {}
    return {
        "agent": summary.get("agent") or "?",
        "model": summary.get("model"),
        "trials": summary.get("trials_finished", summary.get("trials")),
        "expected": summary.get("trials_expected"),
        "pass_at_1": summary.get("pass_at_1"),
        "ci": summary.get("pass_at_1_ci95"),
        "by_type": {t: (by_type.get(t) or {}).get("pass_at_1") for t in TASK_TYPES},
        "infra_errors": summary.get("infra_errors", 0),
        "design": (design or {}).get("design_score"),
    }


def load_job(job_dir: Path, out_dir: Path) -> dict[str, Any]:
    """Everything the job's pages show (links relative to `out_dir` and `out_dir/trials`)."""
    notes: list[str] = []
    trials_dir = out_dir / "trials"
    trials = [load_trial(t, trials_dir) for t in _trial_dirs(job_dir)]
    results = [t["result"] for t in trials if t["result"]]
    summary = _summary(job_dir, results, notes)
    config, why = read_json(job_dir / "config.json")
    if config is None:
        notes.append(f"config.json: {why}")
    lock, _ = read_json(job_dir / "lock.json")
    design, _ = read_json(job_dir / DESIGN_SUMMARY_FILE)
    tools = summary.get("tool_usage") or {}
    rows = []
    for t in trials:
        r = t["result"]
        rows.append(
            {
                "name": t["name"],
                "page": f"trials/{t['name']}.html",
                "task": t["task"],
                "type": r.get("task_type"),
                "difficulty": r.get("difficulty"),
                "attempt": (r["attempt"] + 1) if isinstance(r.get("attempt"), int) else None,
                "status": t["status"],
                "css": t["css"],
                "agent_status": t["agent"].get("exit_status"),
                "tests": f"{t['tests_passed']}/{len(t['tests'])}" if t["tests"] else "–",
                "failed_tests": r.get("failed_tests") or [],
                "infra_error": r.get("infra_error"),
                "seconds": (r.get("timings") or {}).get("total_s"),
                "design": (t["design"] or {}).get("score"),
            }
        )
    return {
        "name": job_dir.name,
        "job_dir": job_dir,
        "summary": summary,
        "table3": table3_row(summary, design if isinstance(design, dict) else None),
        "pass_k": _pass_k_rows(summary),
        "breakdowns": [
            ("Task type", _breakdown_rows(summary.get("by_type"))),
            ("Difficulty", _breakdown_rows(summary.get("by_difficulty"))),
            ("Capability", _breakdown_rows(summary.get("by_capability"))),
        ],
        "tools": [
            {"action": k, "total": v, "per_trial": (tools.get("per_trial") or {}).get(k)}
            for k, v in (tools.get("total") or {}).items()
        ],
        "exit_status": summary.get("agent_exit_status") or {},
        "failure_categories": summary.get("failure_categories") or {},
        "design": design if isinstance(design, dict) else None,
        "config": config if isinstance(config, dict) else {},
        "lock": lock if isinstance(lock, dict) else {},
        "trials": trials,
        "rows": rows,
        "notes": notes,
    }


def _chart(job: dict[str, Any], out_dir: Path) -> Path | None:
    rows = [r for _, rs in job["breakdowns"][2:3] for r in rs if r["pass_at_1"] is not None]
    if not rows:
        return None
    return score_bars(
        [r["name"] for r in rows],
        [r["pass_at_1"] for r in rows],
        out_dir / CHART_FILE,
        title=f"Pass@1 by capability: {job['table3']['agent']}",
        intervals=[r["ci"] for r in rows],
        counts=[r["trials"] or 0 for r in rows],
    )


def render_job(job_dir: Path, out_dir: Path, home: Path | None = None) -> tuple[Path, dict[str, Any]]:
    """Write a job's report into `out_dir`; returns (overview page, the job's data)."""
    css = install_css(out_dir)
    job = load_job(job_dir, out_dir)
    chart = _chart(job, out_dir)
    crumbs = [{"label": "run", "href": href(home, out_dir)}] if home else []
    index = write_page(
        out_dir / "index.html",
        "job.html",
        css=css,
        job=job,
        chart=href(chart, out_dir) if chart else None,
        crumbs=crumbs,
    )
    trial_crumbs = [{"label": "run", "href": href(home, out_dir / "trials")}] if home else []
    trial_crumbs.append({"label": job["name"], "href": "../index.html"})
    for trial in job["trials"]:
        write_page(
            out_dir / "trials" / f"{trial['name']}.html", "trial.html", css=css, trial=trial, crumbs=trial_crumbs
        )
    atomic_write_text(out_dir / "summary.md", job_markdown(job))
    return index, job


def render_genxr_job(job_dir: str | Path, out_dir: str | Path | None = None, *, home: str | Path | None = None) -> Path:
    """Write the HTML report and summary.md of a GenXR job folder; returns the overview page's path.

    `out_dir` defaults to `<job>/report/`. `home` is a page to link back to (the run's overview
    when the job is part of an `xrbench run` report).
    """
    job_dir = Path(job_dir)
    if not job_dir.is_dir() or not is_job_dir(job_dir):
        raise UserError(f"{job_dir}: not a GenXR job folder (no config.json with an agent, no trial results)")
    out_dir = Path(out_dir) if out_dir is not None else job_dir / "report"
    return render_job(job_dir, out_dir, Path(home) if home is not None else None)[0]


__all__ = ["is_job_dir", "load_job", "render_genxr_job", "render_job", "table3_row"]
