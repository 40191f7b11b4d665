"""Markdown side-by-side tables per model (`results/_summary.md`).

For each model: one row per task with the composite of every arm present, the skill-vs-nothing
delta, and the judge's `accomplishes/idiomatic/hallucination` per arm; then pairwise comparisons
(with skill vs without, with skill vs baseline, baseline vs without), each computed only on the
tasks with a finite composite in *both* arms and showing that denominator (`n` of the tasks either
arm has), a per-style breakdown (engineer vs casual voice), judge means on the same pairing rule,
and smoke / runtime columns when cells carry them. A missing or non-finite cell is shown as `–`,
never as 0. Baseline provenance is listed; when baseline cells have different identities (protocol
and original SHA-256, unknown provenance included) baseline means are suppressed, not pooled.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from xrbench.guidance.arms import MODE_LABELS, WITH_BASELINE, WITH_SKILL, WITHOUT_SKILL
from xrbench.guidance.results import (
    ModelResults,
    baseline_identities,
    baseline_identity,
    finite,
    finite_score,
    incompatible_baselines,
    load_results,
    paired_scores,
)
from xrbench.store.atomic import atomic_write_text

GAP = "–"
PAIRS = ((WITH_SKILL, WITHOUT_SKILL), (WITH_SKILL, WITH_BASELINE), (WITH_BASELINE, WITHOUT_SKILL))
SHORT = {WITH_SKILL: "w/", WITHOUT_SKILL: "w/o", WITH_BASELINE: "baseline"}


def fmt(value: float | None, digits: int = 2) -> str:
    return GAP if value is None else f"{value:.{digits}f}"


def no_code(cell: dict[str, Any] | None) -> bool:
    """Whether a result cell is a reply without code (every repeat, when repeated)."""
    return bool(cell and cell.get("no_code"))


def fmt_judge(cell: dict[str, Any] | None) -> str:
    """`accomplishes/idiomatic/hallucination`; `unparseable` or `judge error` without a verdict; `–` when missing."""
    if not cell:
        return GAP
    if "error" in cell and finite(cell.get("accomplishes_task")) is None:
        return "judge error" if str(cell["error"]).startswith("judge call failed") else "unparseable"
    a, i = finite(cell.get("accomplishes_task")), finite(cell.get("idiomatic_xrblocks"))
    sev = cell.get("hallucination_severity")
    return "/".join([fmt(a, 1).removesuffix(".0"), fmt(i, 1).removesuffix(".0"), str(sev) if sev else GAP])


def pairwise(model: ModelResults, metric: str = "composite", tasks: set[str] | None = None) -> list[dict[str, Any]]:
    """Each comparison's paired means on its own finite-score intersection."""
    rows = []
    suppressed_baseline = incompatible_baselines(model)
    for left, right in PAIRS:
        if left not in model.modes or right not in model.modes:
            continue
        pairs = paired_scores(model.modes[left], model.modes[right], metric)
        universe = model.modes[left].keys() | model.modes[right].keys()
        if tasks is not None:
            pairs = [p for p in pairs if p[0] in tasks]
            universe = universe & tasks
        n = len(pairs)
        suppressed = suppressed_baseline and WITH_BASELINE in (left, right)
        rows.append(
            {
                "left": left,
                "right": right,
                "n": n,
                "of": len(universe),
                "suppressed": suppressed,
                "left_mean": sum(a for _, a, _ in pairs) / n if n and not suppressed else None,
                "right_mean": sum(b for _, _, b in pairs) / n if n and not suppressed else None,
                "wins": sum(1 for _, a, b in pairs if a > b),
                "ties": sum(1 for _, a, b in pairs if a == b),
                "losses": sum(1 for _, a, b in pairs if a < b),
            }
        )
    return rows


STYLES = ("engineer", "casual")


def style_comparisons(model: ModelResults) -> list[tuple[str, dict[str, Any]]]:
    """`pairwise` within each prompt style: the summary's style table and the style chart."""
    return [
        (style, c)
        for style in STYLES
        for c in pairwise(model, tasks={t for t in model.tasks if model.style(t) == style})
    ]


def _judge_pairs(model: ModelResults, left: str, right: str, key: str) -> list[tuple[float, float]]:
    lj, rj = model.judges.get(left, {}), model.judges.get(right, {})
    out = []
    for task in sorted(lj.keys() & rj.keys()):
        a, b = finite(lj[task].get(key)), finite(rj[task].get(key))
        if a is not None and b is not None:
            out.append((a, b))
    return out


def _baseline_notes(model: ModelResults) -> list[str]:
    cells = model.modes.get(WITH_BASELINE, {})
    if not cells:
        return []
    lines = []
    for ident, n in sorted(baseline_identities(model).items(), key=lambda kv: (kv[0] is None, str(kv[0]))):
        if ident is None:
            lines.append(f"- Output-adapted baseline, unknown provenance (n={n})")
            continue
        protocol, digest = ident
        example = next(c for c in cells.values() if baseline_identity(c) == ident)
        src = example["run"]["baseline"].get("source_url", "?")
        lines.append(f"- Output-adapted baseline (n={n}): protocol={protocol}; original_sha256={digest}; source={src}")
    if incompatible_baselines(model):
        lines.append(
            "- **Warning**: the baseline cells have different identities (protocol / original source hash, "
            "unknown provenance included); baseline means are suppressed, not pooled."
        )
    return lines


def render_model(model: ModelResults) -> list[str]:
    """The Markdown section of one model."""
    modes = [m for m in (WITH_SKILL, WITHOUT_SKILL, WITH_BASELINE) if m in model.modes]
    tasks = model.tasks
    styles = {t: model.style(t) for t in tasks}
    repeats = sorted(
        {int(c.get("repeats", 1)) for cells in model.modes.values() for c in cells.values() if finite(c.get("repeats"))}
    )
    lines = [f"## {model.name}", ""]
    lines.append(
        f"tasks: {len(tasks)} ({sum(1 for s in styles.values() if s == 'engineer')} engineer, "
        f"{sum(1 for s in styles.values() if s == 'casual')} casual); arms: {', '.join(MODE_LABELS[m] for m in modes)}"
        + (
            f"; repeats per cell: {', '.join(map(str, repeats))} (cells hold medians)"
            if repeats and repeats != [1]
            else ""
        )
    )
    lines.append("")
    notes = _baseline_notes(model)
    if notes:
        lines += [*notes, ""]

    has_judge = any(model.judges.get(m) for m in modes)
    headers = ["task", "style", "skill"] + [f"composite {SHORT[m]}" for m in modes]
    both = WITH_SKILL in modes and WITHOUT_SKILL in modes
    if both:
        headers.append("Δ w/ − w/o")
    if has_judge:
        headers += [f"judge {SHORT[m]}" for m in modes]
    lines.append("| " + " | ".join(headers) + " |")
    lines.append("|" + "|".join("---" for _ in headers) + "|")
    for t in tasks:
        row = [t, styles[t], model.skill(t)]
        scores = {m: finite_score(model.modes[m].get(t)) for m in modes}
        row += [fmt(scores[m]) + (" (no code)" if no_code(model.modes[m].get(t)) else "") for m in modes]
        if both:
            a, b = scores[WITH_SKILL], scores[WITHOUT_SKILL]
            row.append(GAP if a is None or b is None else f"{a - b:+.2f}")
        if has_judge:
            row += [fmt_judge(model.judges.get(m, {}).get(t)) for m in modes]
        lines.append("| " + " | ".join(row) + " |")

    without_code = {m: sum(1 for c in model.modes[m].values() if no_code(c)) for m in modes}
    if any(without_code.values()):
        lines += [
            "",
            "Replies without code (scored 0 on every dimension, included in the means above and below): "
            + ", ".join(f"{MODE_LABELS[m]} {without_code[m]} of {len(model.modes[m])}" for m in modes),
        ]

    comparisons = pairwise(model)
    if comparisons:
        lines += [
            "",
            "Pairwise composite means, each on its own tasks with a finite score in both arms (n of the tasks "
            "either arm has):",
            "",
            "| comparison | n | of | left mean | right mean | Δ | left better | tie | right better |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for c in comparisons:
            a, b = c["left_mean"], c["right_mean"]
            label = f"{MODE_LABELS[c['left']]} vs {MODE_LABELS[c['right']]}"
            if c["suppressed"]:
                label += " (suppressed: incompatible baseline identities)"
            delta = GAP if a is None or b is None else f"{a - b:+.2f}"
            lines.append(
                f"| {label} | {c['n']} | {c['of']} | {fmt(a)} | {fmt(b)} | {delta} | "
                f"{c['wins']} | {c['ties']} | {c['losses']} |"
            )

        lines += [
            "",
            "By prompt style (same pairing rule):",
            "",
            "| style | comparison | n | left mean | right mean | Δ |",
        ]
        lines.append("|---|---|---|---|---|---|")
        for style, c in style_comparisons(model):
            a, b = c["left_mean"], c["right_mean"]
            delta = GAP if a is None or b is None else f"{a - b:+.2f}"
            lines.append(
                f"| {style} | {MODE_LABELS[c['left']]} vs {MODE_LABELS[c['right']]} | {c['n']} | "
                f"{fmt(a)} | {fmt(b)} | {delta} |"
            )

    if has_judge:
        lines += [
            "",
            "Judge means (1-5), on the tasks both arms have a valid verdict for:",
            "",
            "| comparison | n | accomplishes left | accomplishes right | idiomatic left | idiomatic right |",
            "|---|---|---|---|---|---|",
        ]
        for left, right in PAIRS:
            if left not in model.judges or right not in model.judges:
                continue
            acc = _judge_pairs(model, left, right, "accomplishes_task")
            idi = _judge_pairs(model, left, right, "idiomatic_xrblocks")
            suppressed = WITH_BASELINE in (left, right) and incompatible_baselines(model)

            def mean(xs: list[float], suppressed: bool = suppressed) -> str:
                return GAP if not xs or suppressed else f"{sum(xs) / len(xs):.2f}"

            lines.append(
                f"| {MODE_LABELS[left]} vs {MODE_LABELS[right]} | {len(acc)} | {mean([a for a, _ in acc])} | "
                f"{mean([b for _, b in acc])} | {mean([a for a, _ in idi])} | {mean([b for _, b in idi])} |"
            )

    extra = [
        k for k in ("smoke_ok", "runtime_pass") if any(k in c for cells in model.modes.values() for c in cells.values())
    ]
    if extra:
        headers = ["task"] + [f"{k} {SHORT[m]}" for k in extra for m in modes]
        lines += ["", "Runtime checks (1.0 pass, 0.0 fail, – not run or not judgeable):", ""]
        lines.append("| " + " | ".join(headers) + " |")
        lines.append("|" + "|".join("---" for _ in headers) + "|")
        for t in tasks:
            row = [t] + [fmt(finite_score(model.modes[m].get(t), k), 1) for k in extra for m in modes]
            lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    return lines


def summarize(results: Path, out_file: Path | None = None) -> tuple[str, Path]:
    """Write the summary of every model under `results` (default `results/_summary.md`).

    Raises `UserError` when there is no result cell at all.
    """
    from xrbench.errors import UserError

    models = load_results(results)
    if not models:
        raise UserError(f"{results}: no result cells found (expected <model>/<mode>/<task>.json)")
    lines = [
        "# Guidance evaluation summary",
        "",
        f"Results: `{results}`. `composite` is the mean of api_match, parse_ok and forbidden_clean, plus "
        f"import_match when a task expects imports. {GAP} marks a missing or non-finite cell (a gap, not a zero). "
        "Judge cells read accomplishes/idiomatic/hallucination.",
        "",
    ]
    for m in models:
        lines += render_model(m)
    text = "\n".join(lines)
    out_file = out_file or results / "_summary.md"
    atomic_write_text(out_file, text + "\n")
    return text, out_file
