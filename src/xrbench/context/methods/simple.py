"""Reference methods: manual access (no suggestions), global popularity, and the oracle bound."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from xrbench.context.catalog import Catalog
from xrbench.context.dataset import Scenario
from xrbench.context.methods.base import Context


class ManualAccess:
    """Unassisted reference: surfaces nothing, so the cost is the manual cost."""

    training = "none"

    def fit(self, train: Sequence[Scenario], catalog: Catalog) -> None:
        pass

    def suggest(self, context: Context, history: Sequence[str], k: int) -> list[str]:
        return []


class GlobalPopularity:
    """Context-agnostic prior: facets ranked by how many training scenarios contain them."""

    def fit(self, train: Sequence[Scenario], catalog: Catalog) -> None:
        counts = Counter(f for s in train for f in set(s.facets))
        # Ties broken by catalog order so the ranking is deterministic.
        order = {f: i for i, f in enumerate(catalog.facets)}
        self.ranking = sorted(counts, key=lambda f: (-counts[f], order[f]))

    def suggest(self, context: Context, history: Sequence[str], k: int) -> list[str]:
        seen = set(history)
        return [f for f in self.ranking if f not in seen][:k]


class Oracle:
    """Upper bound: suggests the scenario's own remaining facets (it is allowed to peek)."""

    training = "all"

    def fit(self, train: Sequence[Scenario], catalog: Catalog) -> None:
        self.truth = {s.id: s.facets for s in train}

    def suggest(self, context: Context, history: Sequence[str], k: int) -> list[str]:
        seen = set(history)
        return [f for f in self.truth.get(context.scenario_id, ()) if f not in seen][:k]
