"""Retrieval metrics for one suggestion record (fixed protocol; see README)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def normalize_suggestions(suggestions: Sequence[str], k: int, exclude: Sequence[str] = ()) -> list[str]:
    """De-duplicate in order, drop excluded ids (the history, for next-facet), truncate to k."""
    skip = set(exclude)
    out: list[str] = []
    for s in suggestions:
        if s not in skip and s not in out:
            out.append(s)
            if len(out) == k:
                break
    return out


def retrieval_metrics(suggestions: Sequence[str], targets: Sequence[str], k: int) -> dict[str, float]:
    """hits, recall, precision (hits / K), F1, hit and NDCG@K with binary relevance."""
    target_set = set(targets)
    hits = sum(1 for s in suggestions if s in target_set)
    recall = hits / len(target_set) if target_set else 0.0
    precision = hits / k if k else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    dcg = sum(1.0 / math.log2(i + 2) for i, s in enumerate(suggestions[:k]) if s in target_set)
    idcg = sum(1.0 / math.log2(i + 2) for i in range(min(len(target_set), k)))
    return {
        "hits": hits,
        "recall": recall,
        "precision": precision,
        "f1": f1,
        "hit": 1.0 if hits > 0 else 0.0,
        "ndcg": dcg / idcg if idcg > 0 else 0.0,
    }
