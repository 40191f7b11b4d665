"""Facet catalog: apps, their functional facets, capabilities and facet graphs.

`catalog.json` is the interchange format (see README, "ContextXR data format"). A capability
`open_<facet_key>` in a facet of app `a` is a navigation edge to facet `a.<facet_key>`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from xrbench.errors import Problem, ValidationError
from xrbench.store.read import read_json

NAV_PREFIX = "open_"
INF = float("inf")


class FacetModel(BaseModel):
    """One functional facet: an intent (verb + noun) and the capabilities that serve it."""

    model_config = ConfigDict(extra="allow")
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    entry: bool = False
    description: str = ""
    capabilities: list[str] = Field(default_factory=list)


class AppModel(BaseModel):
    """An application and its facets; exactly one facet is the entry ("Open Section")."""

    model_config = ConfigDict(extra="allow")
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    category: str = ""
    facets: list[FacetModel]


class CatalogModel(BaseModel):
    """Schema of `catalog.json`."""

    model_config = ConfigDict(extra="allow")
    apps: list[AppModel]


def _pydantic_problems(file: str, exc: PydanticValidationError) -> list[Problem]:
    problems = []
    for err in exc.errors():
        loc = [str(p) for p in err["loc"]]
        # Turn ("apps", 3, "facets", 1, "id") into where="apps[3].facets[1]", field="id".
        path = ""
        for part in loc[:-1]:
            path += f"[{part}]" if part.isdigit() else (f".{part}" if path else part)
        problems.append(Problem(file, path, loc[-1] if loc else "", err["msg"]))
    return problems


@dataclass
class Catalog:
    """A validated facet catalog with its facet graphs and shortest-path tables."""

    apps: list[AppModel]
    source: str = "catalog.json"
    facets: dict[str, FacetModel] = field(init=False)
    app_of: dict[str, str] = field(init=False)
    entry_of: dict[str, str] = field(init=False)
    edges: dict[str, list[str]] = field(init=False)

    def __post_init__(self) -> None:
        self.facets = {}
        self.app_of = {}
        self.entry_of = {}
        self.edges = {}
        problems = self._index()
        if problems:
            raise ValidationError(problems)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> Catalog:
        """Load and validate `catalog.json` (or a dataset directory containing one)."""
        path = Path(path)
        if path.is_dir():
            path = path / "catalog.json"
        raw = read_json(path)
        return cls.from_dict(raw, source=str(path))

    @classmethod
    def from_dict(cls, raw: object, source: str = "catalog.json") -> Catalog:
        try:
            model = CatalogModel.model_validate(raw)
        except PydanticValidationError as e:
            raise ValidationError(_pydantic_problems(source, e)) from None
        return cls(model.apps, source=source)

    def to_dict(self) -> dict:
        return {"apps": [a.model_dump(exclude_defaults=True) for a in self.apps]}

    def _index(self) -> list[Problem]:
        problems: list[Problem] = []
        src = self.source
        app_ids: set[str] = set()
        for ai, app in enumerate(self.apps):
            where_app = f"apps[{ai}]"
            if app.id in app_ids:
                problems.append(Problem(src, where_app, "id", f"duplicate app id {app.id!r}"))
            app_ids.add(app.id)
            entries = []
            for fi, facet in enumerate(app.facets):
                where = f"{where_app}.facets[{fi}]"
                prefix = app.id + "."
                if not facet.id.startswith(prefix) or len(facet.id) == len(prefix):
                    problems.append(Problem(src, where, "id", f"facet id {facet.id!r} must be '{app.id}.<facet_key>'"))
                if facet.id in self.facets:
                    problems.append(Problem(src, where, "id", f"duplicate facet id {facet.id!r}"))
                    continue
                self.facets[facet.id] = facet
                self.app_of[facet.id] = app.id
                if facet.entry:
                    entries.append(facet.id)
            if not app.facets:
                problems.append(Problem(src, where_app, "facets", f"app {app.id!r} has no facets"))
            elif len(entries) != 1:
                what = "no entry facet" if not entries else f"{len(entries)} entry facets ({', '.join(entries)})"
                problems.append(Problem(src, where_app, "facets", f"app {app.id!r} has {what}; need exactly one"))
            else:
                self.entry_of[app.id] = entries[0]
        # Navigation edges, then reachability from each app's entry.
        for ai, app in enumerate(self.apps):
            for fi, facet in enumerate(app.facets):
                if self.facets.get(facet.id) is not facet:
                    continue
                targets = []
                for ci, cap in enumerate(facet.capabilities):
                    if cap.startswith(NAV_PREFIX):
                        target = f"{app.id}.{cap[len(NAV_PREFIX) :]}"
                        if target not in self.facets or self.app_of[target] != app.id:
                            problems.append(
                                Problem(
                                    src,
                                    f"apps[{ai}].facets[{fi}]",
                                    f"capabilities[{ci}]",
                                    f"{cap!r} opens missing facet {target!r}",
                                )
                            )
                        elif target != facet.id and target not in targets:
                            targets.append(target)
                self.edges[facet.id] = targets
        for ai, app in enumerate(self.apps):
            entry = self.entry_of.get(app.id)
            if entry is None:
                continue
            reach = self._bfs(entry)
            for fi, facet in enumerate(app.facets):
                if facet.id not in reach and self.facets.get(facet.id) is facet:
                    problems.append(
                        Problem(
                            src,
                            f"apps[{ai}].facets[{fi}]",
                            "id",
                            f"facet {facet.id!r} is not reachable from entry facet {entry!r}",
                        )
                    )
        return problems

    # -- graph queries ------------------------------------------------------------------
    def _bfs(self, start: str) -> dict[str, int]:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            u = queue.popleft()
            for v in self.edges.get(u, ()):
                if v not in dist:
                    dist[v] = dist[u] + 1
                    queue.append(v)
        return dist

    @cached_property
    def _dist_from(self) -> dict[str, dict[str, int]]:
        return {f: self._bfs(f) for f in self.facets}

    def dist(self, src: str, dst: str) -> float:
        """Directed shortest path length in the facet graph (inf when unreachable)."""
        return self._dist_from[src].get(dst, INF)

    def nav(self, facet_id: str) -> int:
        """Shortest path length from the facet's app entry to the facet."""
        return int(self.dist(self.entry_of[self.app_of[facet_id]], facet_id))

    def app_facets(self, app_id: str) -> list[str]:
        return [f.id for a in self.apps if a.id == app_id for f in a.facets]

    @cached_property
    def app_by_id(self) -> dict[str, AppModel]:
        return {a.id: a for a in self.apps}

    def label(self, facet_id: str) -> str:
        """Human label "App: Facet Name"."""
        return f"{self.app_by_id[self.app_of[facet_id]].name}: {self.facets[facet_id].name}"

    @property
    def n_capabilities(self) -> int:
        return sum(len(f.capabilities) for f in self.facets.values())
