"""The GenXR-Bench part of a run report: the suite's validation and the agent jobs.

<run>/genxr/validate.json      the report of `xrbench genxr validate` (see `genxr/validate.py`)
<run>/genxr/jobs/<job>/        job folders (see `genxr/job.py`); each gets its own report under
                               `<run>/report/genxr/<job>/`
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from xrbench.report.genxr_job import is_job_dir, render_job
from xrbench.report.render import fmt_num, href, read_json

OUTCOMES = ("pass", "fail", "infra_error")
KINDS = ("valid", "adversarial", "empty")


def _short_test(test_id: str) -> str:
    """'tests/test_a.py::test_x[left-empty]' -> 'test_x[left-empty]'."""
    return test_id.rsplit("::", 1)[-1]


def _run_css(kind: str, outcome: str) -> str:
    if outcome == "infra_error":
        return "infra"
    correct = outcome == ("pass" if kind == "valid" else "fail")
    return "pass" if correct else "fail"


def load_validation(path: Path, page_dir: Path) -> dict[str, Any] | None:
    """The validation view (summary, confusion matrix, flaky candidates, per-candidate rows), or None."""
    if not path.is_file():
        return None
    data, why = read_json(path)
    if not isinstance(data, dict):
        return {"error": why, "summary": {}, "confusion": [], "rows": [], "flaky": [], "href": href(path, page_dir)}
    summary = data.get("summary") or {}
    confusion = summary.get("confusion") or {}
    rows = []
    for task_id, task in sorted((data.get("tasks") or {}).items()):
        for label, cand in (task.get("candidates") or {}).items():
            kind = cand.get("kind", "?")
            runs = [r for r in cand.get("runs") or [] if isinstance(r, dict)]
            failing = sorted(
                {
                    _short_test(t.get("id", "?"))
                    for r in runs
                    for t in r.get("tests") or []
                    if t.get("outcome") != "passed"
                }
            )
            rows.append(
                {
                    "task": task_id,
                    "type": task.get("type"),
                    "difficulty": task.get("difficulty"),
                    "label": label,
                    "kind": kind,
                    "expected": cand.get("expected"),
                    "runs": [
                        {
                            "outcome": r.get("outcome", "?"),
                            "css": _run_css(kind, r.get("outcome", "?")),
                            "infra_error": r.get("infra_error"),
                        }
                        for r in runs
                    ],
                    "correct": cand.get("correct"),
                    "flaky": cand.get("flaky"),
                    "seconds": sum(r.get("seconds") or 0 for r in runs),
                    "failing": failing,
                    "note": cand.get("note") or "",
                }
            )
    return {
        "error": None,
        "href": href(path, page_dir),
        "summary": summary,
        "repeats": data.get("repeats"),
        "confusion": [
            {"kind": k, "counts": [(confusion.get(k) or {}).get(o, 0) for o in OUTCOMES]}
            for k in KINDS
            if k in confusion
        ],
        "flaky": summary.get("flaky_candidates") or [],
        "rows": rows,
    }


def load_jobs(jobs_root: Path, report_dir: Path, index: Path, notes: list[str]) -> list[dict[str, Any]]:
    """Render every job's report into `report_dir/genxr/<job>/`; returns a Table-3 row and link per job."""
    if not jobs_root.is_dir():
        return []
    jobs = []
    for job_dir in sorted(p for p in jobs_root.iterdir() if p.is_dir()):
        if not is_job_dir(job_dir):
            notes.append(
                f"genxr/jobs/{job_dir.name}: not a job folder (no config.json with an agent, no trial results)"
            )
            continue
        page, job = render_job(job_dir, report_dir / "genxr" / job_dir.name, home=index)
        row = {**job["table3"], "job": job_dir.name, "href": href(page, report_dir)}
        jobs.append({"name": job_dir.name, "table3": row, "href": row["href"], "notes": job["notes"]})
    return jobs


def genxr_facts(
    validation: dict[str, Any] | None, jobs: list[dict[str, Any]]
) -> tuple[str | None, list[tuple[str, str]]]:
    """(headline, facts) for the overview card."""
    facts: list[tuple[str, str]] = []
    headline = None
    if validation and not validation["error"]:
        s = validation["summary"]
        headline = f"verifier accuracy {fmt_num(s.get('accuracy'))}"
        facts.append(
            (
                "suite",
                f"{s.get('tasks', '?')} tasks, {s.get('candidates', '?')} reference candidates, "
                f"{s.get('runs', '?')} runs",
            )
        )
        facts.append(("verifier accuracy", fmt_num(s.get("accuracy"))))
        facts.append(("flaky candidates", str(len(validation["flaky"]))))
    elif validation:
        facts.append(("validation", validation["error"] or "unreadable"))
    for job in jobs:
        t3 = job["table3"]
        facts.append(
            (f"job {t3['agent']}" + (f" ({t3['model']})" if t3["model"] else ""), f"Pass@1 {fmt_num(t3['pass_at_1'])}")
        )
    return headline, facts
