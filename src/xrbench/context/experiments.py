"""`context run`: all three ContextXR experiments, paper-shaped tables and figures.

Each (task, method) result is written as its own JSON under `<out>/<task>/<method>.json` as soon
as it finishes; a rerun with the same inputs reuses finished results (resume).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from xrbench.context.cost import CostModel
from xrbench.context.dataset import FACTORS, Dataset
from xrbench.context.evaluate import EvalConfig, evaluate
from xrbench.context.figures import example_figure, example_scenario, lift_figure, reduction_figure
from xrbench.context.lift import lift_analysis
from xrbench.context.methods.registry import create_method, display_name
from xrbench.store.atomic import atomic_write_json, atomic_write_text

TASK_TITLES = {
    "initial": "Table 1: Initial facet suggestion",
    "next": "Table 2: Next facet suggestion",
}


@dataclass
class RunResult:
    out: Path
    tables: dict[str, str]
    skipped: dict[str, str]
    files: list[Path]


def run_experiments(
    dataset: Dataset,
    methods: Sequence[str],
    out: Path,
    cost_model: CostModel,
    config: EvalConfig = EvalConfig(),
    llm=None,
    skip_reason: str | None = None,
    progress: Callable[[str, int], Callable[[int], None]] | None = None,
    example: str | None = None,
) -> RunResult:
    """Run lift analysis, then every method on the initial and next tasks; write tables and figures.

    `progress(label, total)` returns a callback advanced once per finished record.
    """
    out.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    factors = (*FACTORS, *dataset.extra_columns)
    lift = lift_analysis(dataset.scenarios, factors)
    atomic_write_json(out / "lift.json", lift)
    files.append(out / "lift.json")
    suffix = " (synthetic data)" if dataset.synthetic else ""
    files.append(lift_figure(lift, dataset.catalog, out / "figures" / "lift_distribution.png", suffix))

    skipped: dict[str, str] = {}
    results: dict[str, dict[str, dict]] = {"initial": {}, "next": {}}
    for task in ("initial", "next"):
        cfg = EvalConfig(task, config.k, config.folds, config.seed, config.next_target)
        for name in methods:
            method = create_method(name)
            if getattr(method, "needs_provider", False):
                if llm is None:
                    skipped[name] = skip_reason or "no provider configured"
                    continue
                method.llm = llm
            path = out / task / f"{name}.json"
            cached = _reusable(path, dataset, cfg)
            if cached is not None:
                results[task][name] = cached
                continue
            total = sum(max(len(s.facets) - 1, 0) if task == "next" else 1 for s in dataset.scenarios)
            tick = progress(f"{task:7s} {name}", total) if progress else None
            result = evaluate(dataset, method, name, cost_model, cfg, on_progress=tick)
            atomic_write_json(path, result)
            results[task][name] = result
        tables = _write_tables(task, results[task], out, dataset, skipped, cfg, methods)
        files.extend(tables)
        rows = [{"method": m, "label": display_name(m), "aggregate": r["aggregate"]} for m, r in results[task].items()]
        files.append(reduction_figure(rows, out / "figures" / f"reduction_{task}.png", TASK_TITLES[task] + suffix))

    if results["initial"]:
        files.append(_example(dataset, results["initial"], out, example))
    tables_md = {task: (out / f"table_{task}.md").read_text() for task in ("initial", "next")}
    summary = {
        "dataset": {"name": dataset.name, "synthetic": dataset.synthetic, "checksum": dataset.checksum()},
        "config": {
            "k": config.k,
            "folds": config.folds,
            "seed": config.seed,
            "next_target": config.next_target,
        },
        "lift_distribution": lift["distribution"],
        "lift_distribution_plain": lift["distribution_plain"],
        "aggregates": {t: {m: r["aggregate"] for m, r in res.items()} for t, res in results.items()},
        "skipped": skipped,
    }
    atomic_write_json(out / "summary.json", summary)
    files.append(out / "summary.json")
    return RunResult(out, tables_md, skipped, files)


def _reusable(path: Path, dataset: Dataset, cfg: EvalConfig) -> dict | None:
    if not path.exists():
        return None
    try:
        old = json.loads(path.read_text())
    except (json.JSONDecodeError, OSError):
        return None
    same = (
        old.get("k") == cfg.k
        and old.get("dataset", {}).get("checksum") == dataset.checksum()
        and old.get("config", {}).get("folds") == cfg.folds
        and old.get("config", {}).get("seed") == cfg.seed
        and old.get("config", {}).get("next_target") == (cfg.next_target if cfg.task == "next" else None)
    )
    return old if same else None


def table_rows(
    results: dict[str, dict], n_scenarios: int, skipped: dict[str, str] | None = None, order: Sequence[str] = ()
) -> list[list[str]]:
    """Rows shaped like the paper's Tables 1 and 2, in `order` (default: results, then skipped); a
    skipped method keeps its row, saying why, so a table always has the same conditions."""
    skipped = skipped or {}
    rows = []
    for name in dict.fromkeys([*order, *results, *skipped]):
        if name not in results:
            if name in skipped:
                reason = skipped[name].split(":")[0]  # "no provider configured", without the how-to
                rows.append([display_name(name), f"skipped: {reason}", "–", "–", "–", "–"])
            continue
        r = results[name]
        a = r["aggregate"]
        label = display_name(name)
        if a["scenarios"] != n_scenarios:
            label += f" ({a['scenarios']})"
        if name == "manual":
            rows.append([label, f"{a['manual_cost']:.2f}", "–", "–", "–", "–"])
            continue
        rows.append(
            [
                label,
                f"{a['cost']:.2f} ({a['reduction_pct']:+.1f}%)",
                f"{a['recall']:.3f}",
                f"{a['f1']:.3f}",
                f"{a['hit']:.3f}",
                f"{a['ndcg']:.3f}",
            ]
        )
    return rows


HEADER = ["Condition", "Cost", "Recall@K", "F1@K", "Hit@K", "NDCG@K"]


def _write_tables(
    task: str,
    results: dict[str, dict],
    out: Path,
    dataset: Dataset,
    skipped: dict[str, str],
    cfg: EvalConfig,
    order: Sequence[str],
) -> list[Path]:
    k = next(iter(results.values()))["k"] if results else cfg.k
    header = [h.replace("@K", f"@{k}") for h in HEADER]
    rows = table_rows(results, len(dataset.scenarios), skipped, order)
    note = (
        "Parentheses give the number of evaluated scenarios where it differs from the total. "
        "Cost reductions are relative to manual access on the same scenarios."
    )
    if task == "next":
        note += " Scenarios are weighted equally after averaging over their timelines."
        note += {
            "all": " Targets: the scenario's whole facet set (the paper's protocol); facets already placed cost"
            " nothing and recall counts the ones not yet placed, so suggesting nothing already costs less"
            " than the manual row"
            + (f" ({results['manual']['aggregate']['cost']:.2f})." if "manual" in results else "."),
            "remaining": " Targets: the facets still to come (manual cost too).",
            "next": " Target: the one facet placed next.",
        }[cfg.next_target]
    if dataset.synthetic:
        note += " Data: synthetic (generated by `xrbench context simulate`), not real user data."
    md = [f"### {TASK_TITLES[task]} ({dataset.name}, {len(dataset.scenarios)} scenarios)", ""]
    md.append("| " + " | ".join(header) + " |")
    md.append("|" + "|".join("---" for _ in header) + "|")
    md.extend("| " + " | ".join(r) + " |" for r in rows)
    md.extend(["", note, ""])
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(
        [
            "method",
            "scenarios",
            "records",
            "cost",
            "manual_cost",
            "reduction_pct",
            "recall",
            "precision",
            "f1",
            "hit",
            "ndcg",
            "failed",
        ]
    )
    for name, r in results.items():
        a = r["aggregate"]
        writer.writerow(
            [name, a["scenarios"], a["records"]]
            + [
                f"{a[x]:.6f}"
                for x in ("cost", "manual_cost", "reduction_pct", "recall", "precision", "f1", "hit", "ndcg")
            ]
            + [a.get("failed", 0)]
        )
    atomic_write_text(out / f"table_{task}.md", "\n".join(md))
    atomic_write_text(out / f"table_{task}.csv", buf.getvalue())
    return [out / f"table_{task}.md", out / f"table_{task}.csv"]


def _example(dataset: Dataset, results: dict[str, dict], out: Path, example: str | None) -> Path:
    by_id = dataset.by_id()
    if example is None:
        example = example_scenario(dataset.scenarios, dataset.catalog).id
    scenario = by_id[example]
    suggestions = {}
    for name, r in results.items():
        if name == "manual":
            continue
        for rec in r["records"]:
            if rec["scenario_id"] == example:
                suggestions[display_name(name)] = rec["suggestions"]
    note = "synthetic data" if dataset.synthetic else ""
    return example_figure(scenario, dataset.catalog, suggestions, out / "figures" / f"example_{example}.png", note)
