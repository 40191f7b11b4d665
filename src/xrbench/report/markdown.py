"""Markdown summaries of the report (for a terminal, a pull request or a README)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xrbench.report.render import fmt_ci, fmt_num


def md_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    """A Markdown table (pipes in cells escaped)."""

    def esc(v: Any) -> str:
        return (v if isinstance(v, str) else fmt_num(v)).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    return lines


def table3_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Rows shaped like the seed's Table 3 (agent, model, Pass@1 with CI, per task type, design score)."""
    return md_table(
        ["agent", "model", "trials", "Pass@1", "95% CI", "app", "sdk-feature", "sdk-repair", "infra errors", "design"],
        [
            [
                r["agent"],
                r["model"] or "–",
                r["trials"],
                r["pass_at_1"],
                fmt_ci(r["ci"]),
                *(r["by_type"][t] for t in ("app", "sdk-feature", "sdk-repair")),
                r["infra_errors"],
                fmt_num(r["design"], 2),
            ]
            for r in rows
        ],
    )


def job_markdown(job: dict[str, Any]) -> str:
    """summary.md of a job report (see `genxr_job.load_job` for `job`)."""
    t3 = job["table3"]
    head = f"# GenXR-Bench job {job['name']}: {t3['agent']}" + (f" ({t3['model']})" if t3["model"] else "")
    expected = f" of {t3['expected']}" if t3["expected"] is not None else ""
    lines = [head, "", f"{fmt_num(t3['trials'])}{expected} trials; infrastructure errors: {t3['infra_errors']}.", ""]
    lines += table3_lines([t3])
    if job["pass_k"]:
        lines += [
            "",
            *md_table(
                ["k", "pass@k", "95% CI", "pass^k", "95% CI"],
                [[r["k"], r["at"], fmt_ci(r["at_ci"]), r["hat"], fmt_ci(r["hat_ci"])] for r in job["pass_k"]],
            ),
        ]
    for title, rows in job["breakdowns"]:
        if rows:
            lines += ["", f"## By {title.lower()}", ""]
            lines += md_table(
                [title.lower(), "trials", "Pass@1", "95% CI"],
                [[r["name"], r["trials"], r["pass_at_1"], fmt_ci(r["ci"])] for r in rows],
            )
    if job["tools"]:
        lines += ["", "## Tool usage", ""]
        lines += md_table(
            ["action", "total", "per trial"], [[r["action"], r["total"], r["per_trial"]] for r in job["tools"]]
        )
    if job["failure_categories"]:
        lines += ["", "## Failure categories", ""]
        lines += md_table(["category", "failed trials"], list(job["failure_categories"].items()))
    design = job["design"]
    lines += ["", "## Design score (app tasks)", ""]
    if design is None:
        lines.append("not computed (no design_summary.json; see `xrbench.genxr.design_score`)")
    else:
        lines.append(
            f"{fmt_num(design.get('design_score'), 2)} over {design.get('trials_scored', 0)} of "
            f"{design.get('trials_app', 0)} app trial(s); status: {design.get('status', '–')}"
        )
    lines += ["", "## Trials", ""]
    lines += md_table(
        ["trial", "outcome", "agent", "tests passed", "time (s)", "failed tests"],
        [
            [
                r["name"],
                r["status"],
                r["agent_status"] or "–",
                r["tests"],
                fmt_num(r["seconds"], 1),
                ", ".join(r["failed_tests"]) or "–",
            ]
            for r in job["rows"]
        ],
    )
    if job["notes"]:
        lines += ["", *(f"- note: {n}" for n in job["notes"])]
    return "\n".join(lines) + "\n"


def site_markdown(site: dict[str, Any]) -> str:
    """summary.md of a run report (see `site.load_site` for `site`)."""
    lines = [f"# xrbench run {site['name']}", ""]
    for card in site["cards"]:
        lines += [f"## {card['title']}", ""]
        if card["status"]:
            lines.append(card["status"])
        lines += [f"- {k}: {v}" for k, v in card["facts"]]
        lines.append("")
    if site["jobs"]:
        lines += ["## GenXR-Bench jobs", "", *table3_lines([j["table3"] for j in site["jobs"]]), ""]
    if site["skipped"]:
        lines += ["## Skipped", "", *(f"- {s['part']}: {s['reason']}" for s in site["skipped"]), ""]
    return "\n".join(lines)
