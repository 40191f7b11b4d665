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
from scipy import sparse

from xrbench.context.catalog import Catalog
from xrbench.context.dataset import FACTORS, Scenario
from xrbench.context.methods.base import Context

SOFT = ("task", "environment")


class _Rows:
    """Rows of a sparse matrix, combined without scipy's per-call overhead (a query combines a few
    rows, tens of thousands of times per evaluation)."""

    def __init__(self, m: sparse.csr_matrix):
        self.indptr, self.indices, self.data = m.indptr, m.indices, m.data
        self.width = m.shape[1]

    def combine(self, rows: Sequence[int], weights: np.ndarray) -> np.ndarray:
        """sum_i weights[i] * row(rows[i]), dense."""
        rows = np.asarray(rows, dtype=np.int64)
        starts, lengths = self.indptr[rows], self.indptr[rows + 1] - self.indptr[rows]
        # The positions of every chosen row's entries, without a Python loop over rows.
        take = np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(lengths.sum())
        w = np.repeat(weights, lengths)
        return np.bincount(self.indices[take], weights=self.data[take] * w, minlength=self.width)


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
        n_f, n = len(self.facet_ids), len(train)
        # Scenario x facet incidence, sparse: a real log has ~1,000 facets and ~8 per scenario.
        cols = [[index[f] for f in dict.fromkeys(s.facets)] for s in train]
        indices = np.fromiter((i for c in cols for i in c), dtype=np.int64)
        indptr = np.cumsum([0, *map(len, cols)])
        x = sparse.csr_matrix((np.ones(len(indices)), indices, indptr), shape=(n, n_f))
        self.index = index
        soft = set(SOFT) if self.soft_transfer else set()
        extra = sorted({k for s in train for k in s.extra})
        keys: list[tuple[str, ...]] = [(f,) for f in (*FACTORS, *extra)] + list(PAIRS)
        # Per key, the values are grouped by their exactly-matched part, so a query only looks at the
        # values that share it (e.g. its own user's pairs): per-query cost does not grow with the data.
        # group: exact tuple -> (soft tuples, P(f | key = value) as sparse rows).
        self.tables: list[tuple[tuple[str, ...], tuple[str, ...], dict]] = []
        for key in keys:
            exact = tuple(k for k in key if k not in soft)
            softs = tuple(k for k in key if k in soft)
            value_of: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}
            row_value = np.empty(n, dtype=np.int64)
            for r, s in enumerate(train):
                v = (tuple(s.factor(k) for k in exact), tuple(s.factor(k) for k in softs))
                row_value[r] = value_of.setdefault(v, len(value_of))
            counts = np.bincount(row_value, minlength=len(value_of)).astype(np.float64)
            # P(f | value) for every value at once: (value x scenario averaging matrix) @ incidence.
            mean = sparse.csr_matrix((1.0 / counts[row_value], (row_value, np.arange(n))), shape=(len(value_of), n))
            probs = (mean @ x).tocsr()
            rows = _Rows(probs)
            groups: dict[tuple[str, ...], tuple[list[tuple[str, ...]], list[int]]] = {}
            for (e, v), i in value_of.items():
                values, ids = groups.setdefault(e, ([], []))
                values.append(v)
                ids.append(i)
            self.tables.append((exact, softs, (groups, rows)))
        self.popularity = np.asarray(x.mean(axis=0)).ravel() if n else np.zeros(n_f)
        counts_f = np.asarray(x.sum(axis=0)).ravel()
        self.cooc = _Rows((sparse.diags(1.0 / np.maximum(counts_f, 1.0)) @ (x.T @ x)).tocsr())  # row g: n(f, g) / n(g)
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
        for exact, softs, (groups, rows) in self.tables:
            group = groups.get(tuple(context.factor(k) for k in exact))
            if group is None:
                continue
            values, ids = group
            if softs:
                tables = [self._label_weights(f, context.factor(f)) for f in softs]
                w = np.ones(len(values))
                for j, t in enumerate(tables):
                    w *= np.fromiter((t.get(v[j], 0.0) for v in values), dtype=np.float64, count=len(values))
                z = w.sum()
                if z <= 0:
                    continue
                total = total + self.weight * rows.combine(ids, w / z)
            else:
                total = total + self.weight * rows.combine(ids[:1], np.ones(1))
        if history:
            placed = [self.index[g] for g in history if g in self.index]
            if placed:
                total = total + self.cooccurrence_weight * self.cooc.combine(
                    placed, np.full(len(placed), 1 / len(placed))
                )
        return total

    def suggest(self, context: Context, history: Sequence[str], k: int) -> list[str]:
        score = self.scores(context, history)
        for g in history:
            if g in self.index:
                score[self.index[g]] = -np.inf
        # Stable sort on -score keeps catalog order among ties.
        ranked = np.argsort(-score, kind="stable")
        return [self.facet_ids[i] for i in ranked[:k] if np.isfinite(score[i])]
