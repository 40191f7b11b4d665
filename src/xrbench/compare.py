"""`xrbench compare RUN_A RUN_B`: what changed between two run folders.

Compares what each run recorded: its configuration, the versions and bundled-data checksums of
`lock.json`, and the headline numbers of every part (`parts.json`), ContextXR's per-method
aggregates, GenXR's validation summary and agent Pass@1. Values are flattened to dotted keys;
the result lists keys whose values differ, and keys present in one run only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xrbench.errors import UserError
from xrbench.store.read import read_json

# Per-run bookkeeping that differs between any two runs and says nothing about the results.
IGNORED_PARTS = ("seconds",)


@dataclass
class Comparison:
    """Differences between run A and run B, as dotted keys."""

    changed: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    only_a: dict[str, Any] = field(default_factory=dict)
    only_b: dict[str, Any] = field(default_factory=dict)

    @property
    def same(self) -> bool:
        return not (self.changed or self.only_a or self.only_b)


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """{"a": {"b": 1}} -> {"a.b": 1}; lists of scalars stay values, other lists are indexed."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    if isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        out = {}
        for i, v in enumerate(value):
            out.update(flatten(v, f"{prefix}[{i}]"))
        return out
    return {prefix: value}


def _optional(path: Path) -> Any:
    return read_json(path) if path.is_file() else None


def run_record(run: str | Path) -> dict[str, Any]:
    """The comparable content of one run folder."""
    run = Path(run)
    if not (run / "config.json").is_file():
        raise UserError(f"{run}: not a run folder (no config.json; made by `xrbench run`)")
    parts = _optional(run / "parts.json") or []
    record: dict[str, Any] = {
        "config": _optional(run / "config.json"),
        "lock": _optional(run / "lock.json"),
        "parts": {p["name"]: {k: v for k, v in p.items() if k not in ("name", *IGNORED_PARTS)} for p in parts},
    }
    context = _optional(run / "context" / "summary.json")
    if context:
        record["context"] = {"dataset": context.get("dataset"), "aggregates": context.get("aggregates")}
    validate = _optional(run / "genxr" / "validate.json")
    if validate:
        record["genxr_validate"] = validate.get("summary")
    for summary in sorted((run / "genxr" / "jobs").glob("*/summary.json")):
        s = read_json(summary)
        record.setdefault("genxr_jobs", {})[s["agent"]] = {"pass_at_1": s["pass_at_1"], "rewards": s["rewards"]}
    return record


def compare_runs(a: str | Path, b: str | Path) -> Comparison:
    """Compare two run folders (see the module docstring)."""
    fa, fb = flatten(run_record(a)), flatten(run_record(b))
    result = Comparison()
    for key in sorted(fa.keys() | fb.keys()):
        if key not in fb:
            result.only_a[key] = fa[key]
        elif key not in fa:
            result.only_b[key] = fb[key]
        elif fa[key] != fb[key]:
            result.changed[key] = (fa[key], fb[key])
    return result
