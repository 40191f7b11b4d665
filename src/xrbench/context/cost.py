"""Navigation & search cost models.

The default `MenuCostModel` is the paper's simulated user (Section 3.4.1), made exact:

- nav(f): shortest path length in the facet graph from f's app entry to f.
- Manual cost C_manual(Y) = open_menu + sum_f (app_scan + nav_step * nav(f)), 0 for empty Y.
- Assisted cost with suggestions S: targets in S are free (H); a target whose app has a facet
  in S (A) costs min over those same-app suggestions g of
  min(nav_step * dist(g, f), back + nav_step * nav(f)); every other target (M) costs
  app_scan + nav_step * nav(f), plus open_menu once if M is non-empty; plus scan_item * |S|.

Cost models are pluggable: any object with `manual(targets)` and `assisted(targets, suggestions)`.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Protocol, runtime_checkable

import yaml

from xrbench.context.catalog import Catalog
from xrbench.errors import Problem, ValidationError


@runtime_checkable
class CostModel(Protocol):
    """Cost of reaching a target facet set, unassisted and with suggestions."""

    def manual(self, targets: Sequence[str]) -> float: ...

    def assisted(self, targets: Sequence[str], suggestions: Sequence[str]) -> float: ...


@dataclass(frozen=True)
class MenuCostParams:
    open_menu: float = 1.0
    app_scan: float = 1.0
    nav_step: float = 1.0
    back: float = 1.0
    scan_item: float = 0.1


class MenuCostModel:
    """The paper's menu model: open the app menu, scan for the app, navigate its facet graph."""

    name = "menu"

    def __init__(self, catalog: Catalog, params: MenuCostParams | None = None):
        self.catalog = catalog
        self.params = params or MenuCostParams()

    def _manual_one(self, f: str) -> float:
        p = self.params
        return p.app_scan + p.nav_step * self.catalog.nav(f)

    def manual(self, targets: Sequence[str]) -> float:
        targets = list(dict.fromkeys(targets))
        if not targets:
            return 0.0
        return self.params.open_menu + sum(self._manual_one(f) for f in targets)

    def breakdown(self, targets: Sequence[str], suggestions: Sequence[str]) -> dict[str, list[str]]:
        """Partition targets into hits (H), same-app adjustments (A) and misses (M)."""
        cat = self.catalog
        shown = set(suggestions)
        apps_shown = {cat.app_of[g] for g in suggestions}
        parts: dict[str, list[str]] = {"H": [], "A": [], "M": []}
        for f in dict.fromkeys(targets):
            key = "H" if f in shown else ("A" if cat.app_of[f] in apps_shown else "M")
            parts[key].append(f)
        return parts

    def assisted(self, targets: Sequence[str], suggestions: Sequence[str]) -> float:
        p, cat = self.params, self.catalog
        suggestions = list(dict.fromkeys(suggestions))
        parts = self.breakdown(targets, suggestions)
        cost = p.scan_item * len(suggestions)
        for f in parts["A"]:
            app = cat.app_of[f]
            via_back = p.back + p.nav_step * cat.nav(f)
            cost += min(min(p.nav_step * cat.dist(g, f), via_back) for g in suggestions if cat.app_of[g] == app)
        if parts["M"]:
            cost += p.open_menu + sum(self._manual_one(f) for f in parts["M"])
        return cost


def load_cost_params(path: str | Path | None) -> MenuCostParams:
    """Read menu-model parameters from a TOML or YAML file (flat keys, or under a `[menu]` table)."""
    if path is None:
        return MenuCostParams()
    path = Path(path)
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValidationError([Problem(name, "", "", "file not found")]) from None
    try:
        data = tomllib.loads(text) if path.suffix.lower() == ".toml" else (yaml.safe_load(text) or {})
    except (tomllib.TOMLDecodeError, yaml.YAMLError) as e:
        raise ValidationError([Problem(name, "", "", f"cannot parse: {e}".splitlines()[0])]) from None
    if not isinstance(data, dict):
        raise ValidationError([Problem(name, "", "", "expected a table of cost parameters")])
    if isinstance(data.get("menu"), dict):
        data = data["menu"]
    known = {f.name for f in fields(MenuCostParams)}
    problems = []
    values = {}
    for key, value in data.items():
        if key not in known:
            problems.append(Problem(name, "", key, f"unknown cost parameter (known: {', '.join(sorted(known))})"))
        elif isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            problems.append(Problem(name, "", key, f"must be a non-negative number, got {value!r}"))
        else:
            values[key] = float(value)
    if problems:
        raise ValidationError(problems)
    return MenuCostParams(**values)


def params_dict(params: MenuCostParams) -> dict[str, float]:
    return asdict(params)
