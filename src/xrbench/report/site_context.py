"""The ContextXR part of a run report: what `xrbench context run` wrote under `<run>/context/`."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from xrbench.report.render import href, read_json

TASKS = {"initial": "Table 1: Initial facet suggestion", "next": "Table 2: Next facet suggestion"}
FIGURE_CAPTIONS = {
    "lift_distribution": "Figure 4: the dominant context factor of each facet (lift analysis).",
    "reduction_initial": "Cost reduction against manual access, initial facet suggestion.",
    "reduction_next": "Cost reduction against manual access, next facet suggestion.",
}
NO_SUGGESTIONS = {"manual"}
UPPER_BOUNDS = {"oracle"}


def display_name(method: str) -> str:
    """The paper's name of a method ('relational' -> 'Relational Retrieval'), else the id itself."""
    try:
        from xrbench.context.methods.registry import display_name as name

        return name(method)
    except Exception:  # an unknown or user method: its id is its name
        return method


def _num(row: dict[str, str], key: str) -> float | None:
    try:
        return float(row[key])
    except (KeyError, TypeError, ValueError):
        return None


def _md_title_and_note(path: Path) -> tuple[str | None, str | None]:
    """The heading and the closing note of a `table_<task>.md`, when the file exists."""
    if not path.is_file():
        return None, None
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    title = next((ln.lstrip("#").strip() for ln in lines if ln.startswith("#")), None)
    prose = [ln for ln in lines if not ln.startswith(("#", "|"))]
    return title, (prose[-1].replace("`", "") if prose else None)


def paper_table(csv_path: Path, k: Any) -> dict[str, Any]:
    """A table shaped like the paper's Tables 1 and 2, from `table_<task>.csv`."""
    with csv_path.open(encoding="utf-8", newline="") as f:
        raw = list(csv.DictReader(f))
    total = max((int(_num(r, "scenarios") or 0) for r in raw), default=0)
    rows = []
    for r in raw:
        method = r.get("method", "?")
        n = int(_num(r, "scenarios") or 0)
        label = display_name(method) + (f" ({n})" if n != total else "")
        if method in NO_SUGGESTIONS:
            rows.append(
                {
                    "label": label,
                    "method": method,
                    "cost": _num(r, "manual_cost"),
                    "reduction": None,
                    "metrics": [None] * 4,
                }
            )
            continue
        rows.append(
            {
                "label": label,
                "method": method,
                "cost": _num(r, "cost"),
                "reduction": _num(r, "reduction_pct"),
                "metrics": [_num(r, m) for m in ("recall", "f1", "hit", "ndcg")],
                "failed": int(_num(r, "failed") or 0),
            }
        )
    return {"header": ["Condition", "Cost", f"Recall@{k}", f"F1@{k}", f"Hit@{k}", f"NDCG@{k}"], "rows": rows}


def best_method(table: dict[str, Any]) -> dict[str, Any] | None:
    """The method with the largest cost reduction, the reference and upper bound left out."""
    rows = [r for r in table["rows"] if r["method"] not in NO_SUGGESTIONS | UPPER_BOUNDS and r["reduction"] is not None]
    return min(rows, key=lambda r: r["reduction"]) if rows else None


def load_context(run_dir: Path, page_dir: Path) -> dict[str, Any] | None:
    """The ContextXR view (tables, figures, lift, skipped methods), or None when it did not run."""
    ctx = run_dir / "context"
    if not ctx.is_dir():
        return None
    notes: list[str] = []
    summary, why = read_json(ctx / "summary.json")
    if not isinstance(summary, dict):
        notes.append(f"context/{why}")
        summary = {}
    k = (summary.get("config") or {}).get("k", "K")
    tables = []
    for task, default_title in TASKS.items():
        path = ctx / f"table_{task}.csv"
        title, note = _md_title_and_note(ctx / f"table_{task}.md")
        entry: dict[str, Any] = {
            "task": task,
            "title": title or default_title,
            "note": note,
            "table": None,
            "results": [],
        }
        if path.is_file():
            try:
                entry["table"] = paper_table(path, k)
            except (OSError, csv.Error, ValueError) as e:
                notes.append(f"context/{path.name} unreadable: {e}")
        else:
            notes.append(f"context/{path.name} missing")
        entry["results"] = [{"name": p.stem, "href": href(p, page_dir)} for p in sorted((ctx / task).glob("*.json"))]
        tables.append(entry)
    figures = [
        {
            "src": href(p, page_dir),
            "caption": FIGURE_CAPTIONS.get(p.stem)
            or (
                f"Figure 5 style: each method's suggestions for scenario {p.stem.removeprefix('example_')}."
                if p.stem.startswith("example_")
                else p.stem
            ),
        }
        for p in sorted((ctx / "figures").glob("*.png"))
    ]
    dataset = summary.get("dataset") or {}
    return {
        "dataset": dataset,
        "config": summary.get("config") or {},
        "lift_distribution": summary.get("lift_distribution") or {},
        "lift_distribution_plain": summary.get("lift_distribution_plain") or {},
        "skipped": summary.get("skipped") or {},
        "tables": tables,
        "figures": figures,
        "files": [
            {"name": n, "href": href(ctx / n, page_dir)} for n in ("summary.json", "lift.json") if (ctx / n).is_file()
        ],
        "notes": notes,
    }


def context_facts(view: dict[str, Any]) -> tuple[str | None, list[tuple[str, str]]]:
    """(headline, facts) for the overview card."""
    ds = view["dataset"]
    facts: list[tuple[str, str]] = []
    if ds:
        facts.append(("dataset", f"{ds.get('name', '?')}" + (" (synthetic)" if ds.get("synthetic") else "")))
    headline = None
    for t in view["tables"]:
        best = best_method(t["table"]) if t["table"] else None
        if best:
            text = f"{best['label']}: cost {best['reduction']:+.1f}% vs manual access"
            facts.append((f"best, {t['task']} facet", text))
            headline = headline or f"{best['reduction']:+.1f}% cost"
    methods = {r["method"] for t in view["tables"] if t["table"] for r in t["table"]["rows"]}
    facts.append(("methods evaluated", str(len(methods))))
    if view["skipped"]:
        facts.append(("methods skipped", f"{len(view['skipped'])} ({', '.join(view['skipped'])})"))
    return headline, facts
