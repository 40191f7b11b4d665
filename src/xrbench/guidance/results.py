"""Reading result cells back: models, arms, judge cells, finite scores, pairs, baseline identities.

Summaries and charts read `results/<model>/<mode>/<task>.json` and
`results/<model>/judge/<task>-<mode>.json`, including historic cells without `run` metadata. An
unreadable cell is skipped with a warning (it is a gap, never a zero). A score is *finite* when it
is a real number (not a bool, not NaN or infinite); anything else is missing.
"""

from __future__ import annotations

import json
import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xrbench.guidance.arms import MODES
from xrbench.guidance.task import style_of

Cells = dict[str, dict[str, Any]]  # task id -> cell


@dataclass
class ModelResults:
    """Every cell of one model directory."""

    name: str
    modes: dict[str, Cells] = field(default_factory=dict)
    judges: dict[str, Cells] = field(default_factory=dict)  # mode -> task -> judge cell

    @property
    def tasks(self) -> list[str]:
        return sorted({t for cells in self.modes.values() for t in cells})

    def skill(self, task: str) -> str:
        for cells in self.modes.values():
            s = cells.get(task, {}).get("skill")
            if isinstance(s, str) and s:
                return s
        return "?"

    def style(self, task: str) -> str:
        for cells in self.modes.values():
            s = cells.get(task, {}).get("style")
            if s in ("engineer", "casual"):
                return s
        return style_of(task)


def _load_dir(directory: Path) -> Cells:
    out: Cells = {}
    if not directory.is_dir():
        return out
    for path in sorted(directory.glob("*.json")):
        try:
            value = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeError, json.JSONDecodeError) as e:
            warnings.warn(f"ignoring unreadable result {path}: {e}", stacklevel=2)
            continue
        if not isinstance(value, dict):
            warnings.warn(f"ignoring non-object result {path}", stacklevel=2)
            continue
        out[path.stem] = value
    return out


def _split_judge(stem: str, modes: tuple[str, ...] = MODES) -> tuple[str, str] | None:
    for mode in modes:
        if stem.endswith("-" + mode):
            return stem[: -len(mode) - 1], mode
    return None


def discover_models(results: Path) -> list[Path]:
    """Model directories under `results` (those holding at least one arm directory)."""
    if not results.is_dir():
        return []
    return sorted(p for p in results.iterdir() if p.is_dir() and any((p / m).is_dir() for m in MODES))


def load_model(model_dir: Path) -> ModelResults:
    """Read one model directory."""
    res = ModelResults(model_dir.name)
    for mode in MODES:
        cells = _load_dir(model_dir / mode)
        if cells:
            res.modes[mode] = cells
    for stem, cell in _load_dir(model_dir / "judge").items():
        split = _split_judge(stem)
        if split:
            task, mode = split
            res.judges.setdefault(mode, {})[task] = cell
    return res


def load_results(results: Path) -> list[ModelResults]:
    """Every model under a results directory that has at least one cell."""
    models = [load_model(d) for d in discover_models(results)]
    return [m for m in models if m.tasks]


def finite(value: Any) -> float | None:
    """`value` as a float when it is a finite real number (bools excluded), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def finite_score(cell: dict[str, Any] | None, metric: str = "composite") -> float | None:
    return finite((cell or {}).get(metric))


def paired_scores(left: Cells, right: Cells, metric: str = "composite") -> list[tuple[str, float, float]]:
    """`(task, left, right)` for the tasks with a finite score in both arms, sorted by task."""
    pairs = []
    for task in sorted(left.keys() & right.keys()):
        a, b = finite_score(left[task], metric), finite_score(right[task], metric)
        if a is not None and b is not None:
            pairs.append((task, a, b))
    return pairs


def baseline_identity(cell: dict[str, Any]) -> tuple[str, str] | None:
    """`(protocol, original_sha256)` of a baseline cell, or None for unknown provenance."""
    run = cell.get("run")
    base = run.get("baseline") if isinstance(run, dict) else None
    if not isinstance(base, dict):
        return None
    protocol, digest = base.get("protocol"), base.get("original_sha256")
    if not isinstance(protocol, str) or not protocol or not isinstance(digest, str) or not digest:
        return None
    return protocol, digest


def baseline_identities(model: ModelResults) -> dict[tuple[str, str] | None, int]:
    """How many baseline cells carry each identity (None: unknown provenance)."""
    counts: dict[tuple[str, str] | None, int] = {}
    for cell in model.modes.get("with-baseline", {}).values():
        ident = baseline_identity(cell)
        counts[ident] = counts.get(ident, 0) + 1
    return counts


def incompatible_baselines(model: ModelResults) -> bool:
    """More than one baseline identity (unknown provenance counts as one of its own)."""
    return len(baseline_identities(model)) > 1
