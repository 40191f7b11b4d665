"""Relational retrieval: context-conditioned facet statistics with soft label transfer.

Scoring (documented in the README). For a query q = (u, t, e [, extra factors]) and history H:

    score(f) = sum_c  lambda_c * P~_c(f | q)  +  lambda_pop * P(f)  +  lambda_co * CO(f | H)

- c ranges over the single factors (user, task, environment and any extra columns) and the pairs
  (user, task), (user, environment), (task, environment).
- P(f | c = v) is the share of training scenarios with value v for c that contain f.
- P~_c(f | q) = sum_v w_c(q, v) P(f | c = v) / sum_v w_c(q, v), where w_c is the product over the
  factors x in c of s_x(q_x, v_x): users and extra factors match exactly (1 or 0); task and
  environment labels transfer softly, s = max(0, cos)^gamma, with cos the cosine similarity of
  their all-MiniLM-L6-v2 embeddings (so an exact label has weight 1 and an unseen label borrows
  from similar ones). P~ is 0 when no value has weight.
- P(f) is global popularity; CO(f | H) = mean over g in H of n(f, g) / n(g) (co-occurrence with
  the facets already placed; next-facet only).
Defaults: every lambda_c = 1, lambda_pop = 0.1, lambda_co = 2, gamma = 4. Ties break by catalog
order.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from xrbench.context.catalog import Catalog
from xrbench.context.dataset import FACTORS, Scenario
from xrbench.context.methods.base import Context

SOFT = ("task", "environment")
PAIRS = (("user", "task"), ("user", "environment"), ("task", "environment"))


class RelationalRetrieval:
    """Context-conditioned statistics P(f|u), P(f|t), P(f|e) and pairs, with soft transfer."""

    def __init__(
        self,
        soft_transfer: bool = True,
        gamma: float = 4.0,
        weight: float = 1.0,
        popularity_weight: float = 0.1,
        cooccurrence_weight: float = 2.0,
    ):
        self.soft_transfer = soft_transfer
        self.gamma = gamma
        self.weight = weight
        self.popularity_weight = popularity_weight
        self.cooccurrence_weight = cooccurrence_weight

    def fit(self, train: Sequence[Scenario], catalog: Catalog) -> None:
        self.facet_ids = list(catalog.facets)
        index = {f: i for i, f in enumerate(self.facet_ids)}
        n_f = len(self.facet_ids)
        x = np.zeros((len(train), n_f), dtype=np.float64)
        for r, s in enumerate(train):
            for f in set(s.facets):
                x[r, index[f]] = 1.0
        self.index = index
        soft = set(SOFT) if self.soft_transfer else set()
        extra = sorted({k for s in train for k in s.extra})
        keys: list[tuple[str, ...]] = [(f,) for f in (*FACTORS, *extra)] + list(PAIRS)
        # Per key, the values are grouped by their exactly-matched part, so a query only looks at the
        # values that share it (e.g. its own user's pairs): per-query cost does not grow with the data.
        # group: exact tuple -> (soft tuples, P(f | key = value) matrix).
        self.tables: list[tuple[tuple[str, ...], tuple[str, ...], dict]] = []
        for key in keys:
            exact = tuple(k for k in key if k not in soft)
            softs = tuple(k for k in key if k in soft)
            rows_by: dict[tuple[str, ...], dict[tuple[str, ...], list[int]]] = {}
            for r, s in enumerate(train):
                e = tuple(s.factor(k) for k in exact)
                v = tuple(s.factor(k) for k in softs)
                rows_by.setdefault(e, {}).setdefault(v, []).append(r)
            groups = {
                e: (list(values), np.stack([x[rows].mean(axis=0) for rows in values.values()]))
                for e, values in rows_by.items()
            }
            self.tables.append((exact, softs, groups))
        self.popularity = x.mean(axis=0) if len(train) else np.zeros(n_f)
        counts = x.sum(axis=0)
        self.cooc = (x.T @ x) / np.maximum(counts, 1.0)[:, None]  # row g: n(f, g) / n(g)
        if self.soft_transfer:
            from xrbench.context.embeddings import embed

            self._embed = embed
            self._labels = {f: sorted({s.factor(f) for s in train}) for f in SOFT}
            self._vectors = {f: embed(labels) for f, labels in self._labels.items()}
            self._weights_cache: dict[tuple[str, str], dict[str, float]] = {}

    def _label_weights(self, factor: str, query: str) -> dict[str, float]:
        """s_x(query, v) for every training value v of a soft factor (cached per label)."""
        key = (factor, query)
        if key not in self._weights_cache:
            labels = self._labels[factor]
            sims = self._vectors[factor] @ self._embed([query])[0] if labels else np.zeros(0)
            weights = dict(zip(labels, (np.clip(sims, 0.0, None) ** self.gamma).tolist(), strict=True))
            if query in weights:
                weights[query] = 1.0
            self._weights_cache[key] = weights
        return self._weights_cache[key]

    def scores(self, context: Context, history: Sequence[str]) -> np.ndarray:
        """The relational score of every catalog facet (see module docstring)."""
        total = self.popularity_weight * self.popularity
        for exact, softs, groups in self.tables:
            group = groups.get(tuple(context.factor(k) for k in exact))
            if group is None:
                continue
            values, probs = group
            if softs:
                tables = [self._label_weights(f, context.factor(f)) for f in softs]
                w = np.array([np.prod([t.get(v[j], 0.0) for j, t in enumerate(tables)]) for v in values])
                z = w.sum()
                if z <= 0:
                    continue
                total = total + self.weight * (w @ probs) / z
            else:
                total = total + self.weight * probs[0]
        if history:
            rows = [self.index[g] for g in history if g in self.index]
            if rows:
                total = total + self.cooccurrence_weight * self.cooc[rows].mean(axis=0)
        return total

    def suggest(self, context: Context, history: Sequence[str], k: int) -> list[str]:
        score = self.scores(context, history)
        for g in history:
            if g in self.index:
                score[self.index[g]] = -np.inf
        # Stable sort on -score keeps catalog order among ties.
        ranked = np.argsort(-score, kind="stable")
        return [self.facet_ids[i] for i in ranked[:k] if np.isfinite(score[i])]
