"""Navigation & search cost models.

The default `MenuCostModel` is the paper's simulated user (Section 3.4.1), made exact:

- nav(f): shortest path length in the facet graph from f's app entry to f.
- app_scan(f) = app_scan + app_scan_step * (position of f's app in the menu): the paper's
  facet-dependent c_app_scan(f_i). The menu lists apps as `menu_order` gives (by default the
  catalog's order; `menu_order_by_use` orders them by how many scenarios use each, as a launcher
  sorted by use would); app_scan_step = 0 is the constant special case.
- Manual cost C_manual(Y) = open_menu + sum_f (app_scan(f) + nav_step * nav(f)), 0 for empty Y.
- Assisted cost with suggestions S: targets in S are free (H); a target whose app has a facet
  in S (A) costs min over those same-app suggestions g of
  min(nav_step * dist(g, f), back + nav_step * nav(f)); every other target (M) costs
  app_scan(f) + nav_step * nav(f), plus open_menu once if M is non-empty; plus scan_item * |S|.
  Going back to the app's entry from a suggestion already open is cheaper than finding the app in
  the menu (default back 0.5 < app_scan 1.0), so a same-app adjustment always costs less than the
  manual path it replaces ("smaller than full manual access but still non-zero").

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

    def adjustment(self, f: str, suggestions: Sequence[str]) -> float:
        """Reaching f from a suggestion of its app: onwards through its graph, or back to its entry."""
        p, cat = self.params, self.catalog
        via_back = p.back + p.nav_step * cat.nav(f)
        same_app = [g for g in suggestions if cat.app_of[g] == cat.app_of[f]]
        return min(min(p.nav_step * cat.dist(g, f), via_back) for g in same_app)

    def assisted(self, targets: Sequence[str], suggestions: Sequence[str]) -> float: ...


@dataclass(frozen=True)
class MenuCostParams:
    open_menu: float = 1.0
    app_scan: float = 1.0
    app_scan_step: float = 0.1  # per app listed above f's in the menu
    nav_step: float = 1.0
    back: float = 0.5
    scan_item: float = 0.1


def menu_order_by_use(scenarios: Sequence, catalog: Catalog) -> list[str]:
    """App ids by the number of scenarios using any of their facets, most used first (ties: catalog order)."""
    uses = {a.id: 0 for a in catalog.apps}
    for s in scenarios:
        for app in {catalog.app_of[f] for f in s.facets}:
            uses[app] += 1
    position = {a.id: i for i, a in enumerate(catalog.apps)}
    return sorted(uses, key=lambda a: (-uses[a], position[a]))


class MenuCostModel:
    """The paper's menu model: open the app menu, scan for the app, navigate its facet graph."""

    name = "menu"

    def __init__(self, catalog: Catalog, params: MenuCostParams | None = None, menu_order: Sequence[str] = ()):
        self.catalog = catalog
        self.params = params or MenuCostParams()
        order = [a for a in dict.fromkeys(menu_order) if any(x.id == a for x in catalog.apps)]
        order += [a.id for a in catalog.apps if a.id not in order]
        self.menu_order = order
        self._position = {a: i for i, a in enumerate(order)}

    def app_scan(self, f: str) -> float:
        """Finding f's app in the menu: the further down the list, the longer the scan."""
        p = self.params
        return p.app_scan + p.app_scan_step * self._position[self.catalog.app_of[f]]

    def _manual_one(self, f: str) -> float:
        return self.app_scan(f) + self.params.nav_step * self.catalog.nav(f)

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

    def adjustment(self, f: str, suggestions: Sequence[str]) -> float:
        """Reaching f from a suggestion of its app: onwards through its graph, or back to its entry."""
        p, cat = self.params, self.catalog
        via_back = p.back + p.nav_step * cat.nav(f)
        same_app = [g for g in suggestions if cat.app_of[g] == cat.app_of[f]]
        return min(min(p.nav_step * cat.dist(g, f), via_back) for g in same_app)

    def assisted(self, targets: Sequence[str], suggestions: Sequence[str]) -> float:
        p = self.params
        suggestions = list(dict.fromkeys(suggestions))
        parts = self.breakdown(targets, suggestions)
        cost = p.scan_item * len(suggestions) + sum(self.adjustment(f, suggestions) for f in parts["A"])
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
