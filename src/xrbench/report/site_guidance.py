"""The guidance part of a run report: the dict written by the guidance harness's check, rendered generically.

A list of dicts under "tasks" becomes a table (one row per task, nested values one level deep as
dotted columns); a dict of dicts (such as "templates") becomes a table too; "problems" a list;
every other top-level value a key/value row. Anything else is shown as JSON.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from xrbench.report.render import flatten, href, read_json


def rows_table(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Columns (first-seen order of the flattened keys) and flattened rows."""
    flat = [flatten(r, depth=1) for r in rows]
    columns: dict[str, None] = {}
    for r in flat:
        columns.update(dict.fromkeys(r))
    return {"columns": list(columns), "rows": flat}


def load_guidance(path: Path, page_dir: Path) -> dict[str, Any] | None:
    """The guidance view, or None when the check did not run."""
    if not path.is_file():
        return None
    data, why = read_json(path)
    view: dict[str, Any] = {
        "href": href(path, page_dir),
        "error": why,
        "ok": None,
        "facts": {},
        "tables": [],
        "problems": [],
        "json": None,
    }
    if not isinstance(data, dict):
        view["json"] = json.dumps(data, indent=2, default=str) if data is not None else None
        return view
    tasks = data.get("tasks")
    if not (isinstance(tasks, list) and all(isinstance(t, Mapping) for t in tasks)):
        view["json"] = json.dumps(data, indent=2, default=str)
        view["ok"] = data.get("ok") if isinstance(data.get("ok"), bool) else None
        return view
    view["ok"] = data.get("ok") if isinstance(data.get("ok"), bool) else None
    view["tables"].append({"title": f"Tasks ({len(tasks)})", **rows_table(tasks)})
    for key, value in data.items():
        if key in ("tasks", "ok"):
            continue
        if key == "problems" and isinstance(value, list):
            view["problems"] = [str(p) for p in value]
        elif isinstance(value, Mapping) and value and all(isinstance(v, Mapping) for v in value.values()):
            view["tables"].append(
                {"title": key.capitalize(), **rows_table([{"name": k, **v} for k, v in value.items()])}
            )
        elif isinstance(value, Mapping):
            view["facts"].update(flatten({key: value}, depth=1))
        else:
            view["facts"][key] = value
    return view


def guidance_facts(view: dict[str, Any]) -> tuple[str | None, list[tuple[str, str]]]:
    """(headline, facts) for the overview card."""
    if view["error"] and view["json"] is None and not view["tables"]:
        return None, [("check", view["error"])]
    facts: list[tuple[str, str]] = []
    headline = None
    if view["ok"] is not None:
        headline = "check passed" if view["ok"] else f"check: {len(view['problems'])} problem(s)"
    for key, value in view["facts"].items():
        if key.startswith("counts.") and isinstance(value, int | float):
            facts.append((key.removeprefix("counts."), str(value)))
    return headline, facts
