"""Task 1: context factor analysis by lift (fixed protocol; see README).

For a facet f present in c_f >= 2 of the N scenarios and a factor X: for each scenario s that
contains f, rate_s is the share of the *other* scenarios with the same X value as s that contain
f (s is skipped when there are none). lift_X(f) = mean(rate_s) / ((c_f - 1) / (N - 1)), null when
no s qualified. The dominant factor takes nulls as 0 and m = the largest lift: "none" if m <= 1
(or c_f < 2); otherwise the factors with lift > 1 and >= 0.8 * m: one -> that factor, several ->
"mixed".

`plain` is the paper's ratio beside it, P(f | X = x_s) / P(f) = (n(x_s, f) / n(x_s)) / (c_f / N),
averaged over the scenarios s that contain f, with its own dominant factor by the same rule. It
counts s itself in both shares, so a facet used once, or by one user only, looks strongly tied to
whatever that scenario's values are (a facet in 1 of 100 scenarios gets a user lift of up to 100
from that one use); leaving s out, as `lift` does, asks whether *other* scenarios with the same
value also use f, which is what a suggestion for a new scenario can rely on.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from xrbench.context.dataset import FACTORS, Scenario

CATEGORIES = ("user", "task", "environment", "mixed", "none")


def facet_lift(scenarios: list[Scenario], factors: tuple[str, ...] = FACTORS) -> list[dict]:
    """Per-facet lift profiles, in order of first appearance.

    Linear in the number of placements: with n(x) scenarios having value x and n(x, f) of them
    containing f, a scenario s with value x_s that contains f has rate_s = (n(x_s, f) - 1) / (n(x_s) - 1).
    """
    n = len(scenarios)
    containing: dict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(scenarios):
        for f in dict.fromkeys(s.facets):
            containing[f].append(i)
    n_value = {x: Counter(s.factor(x) for s in scenarios) for x in factors}
    n_value_facet = {x: Counter() for x in factors}
    for f, idx in containing.items():
        for x in factors:
            for i in idx:
                n_value_facet[x][scenarios[i].factor(x), f] += 1
    out = []
    for f, idx in containing.items():
        c = len(idx)
        lift: dict[str, float | None] = {}
        for x in factors:
            if c < 2 or n < 2:
                lift[x] = None
                continue
            rates = []
            for i in idx:
                v = scenarios[i].factor(x)
                peers = n_value[x][v] - 1
                if peers > 0:
                    rates.append((n_value_facet[x][v, f] - 1) / peers)
            base = (c - 1) / (n - 1)
            lift[x] = (sum(rates) / len(rates)) / base if rates else None
        plain: dict[str, float | None] = {}
        for x in factors:
            ratios = [n_value_facet[x][v, f] / n_value[x][v] for v in (scenarios[i].factor(x) for i in idx)]
            plain[x] = (sum(ratios) / len(ratios)) / (c / n) if n else None
        out.append(
            {
                "facet_id": f,
                "count": c,
                "lift": lift,
                "dominant": dominant(lift, c),
                "plain": plain,
                "dominant_plain": dominant(plain, count=2),  # the ratio has no minimum count
            }
        )
    return out


def dominant(lift: dict[str, float | None], count: int) -> str:
    values = {x: (v if v is not None else 0.0) for x, v in lift.items()}
    m = max(values.values(), default=0.0)
    if count < 2 or m <= 1:
        return "none"
    top = [x for x, v in values.items() if v > 1 and v >= 0.8 * m]
    return top[0] if len(top) == 1 else "mixed"


def lift_analysis(scenarios: list[Scenario], factors: tuple[str, ...] = FACTORS) -> dict:
    """The `context lift` output: per-facet profiles and the dominant-factor distribution."""
    facets = facet_lift(scenarios, factors)
    counts = Counter(p["dominant"] for p in facets)
    plain = Counter(p["dominant_plain"] for p in facets)
    cats = (*factors, "mixed", "none")
    return {
        "factors": list(factors),
        "scenarios": len(scenarios),
        "facets": facets,
        "distribution": {c: counts.get(c, 0) for c in cats},
        "distribution_plain": {c: plain.get(c, 0) for c in cats},
    }
