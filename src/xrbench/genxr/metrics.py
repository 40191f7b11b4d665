"""Job metrics: Pass@1, unbiased pass@k, pass^k, bootstrap intervals, breakdowns.

For a task with `n` exchangeable attempts of which `c` passed:

- pass@k = 1 - C(n-c, k) / C(n, k): at least one of k attempts drawn without replacement passes
  (the HumanEval / Codex estimator);
- pass^k = C(c, k) / C(n, k): all k pass (reliability; Inspect's `pass_k`).

Suite scores average over tasks and need n >= k for every task. Pass@1 is the mean reward over
all trials. Intervals are percentile bootstraps over tasks (tasks are the unit of sampling),
seeded so that a summary is reproducible. Trials that ended in an infrastructure error count as
0 (the denominator never shrinks) and are also counted apart.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

BOOTSTRAP_SAMPLES = 2000
BOOTSTRAP_SEED = 0


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one task."""
    if not 0 <= c <= n or k < 1 or k > n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """pass^k for one task: the chance that k attempts drawn without replacement all pass."""
    if not 0 <= c <= n or k < 1 or k > n:
        raise ValueError(f"need 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    return math.comb(c, k) / math.comb(n, k)


def bootstrap_ci(
    per_task: Sequence[float], *, samples: int = BOOTSTRAP_SAMPLES, seed: int = BOOTSTRAP_SEED, level: float = 0.95
) -> tuple[float, float] | None:
    """Percentile interval of the mean of `per_task` values, resampling tasks; None when empty."""
    if not per_task:
        return None
    rng = random.Random(seed)
    n = len(per_task)
    means = sorted(sum(rng.choices(per_task, k=n)) / n for _ in range(samples))
    lo = means[int((1 - level) / 2 * (samples - 1))]
    hi = means[int((1 + level) / 2 * (samples - 1))]
    return (round(lo, 6), round(hi, 6))


def _estimate(counts: Mapping[str, tuple[int, int]], k: int, fn: Callable[[int, int, int], float]) -> dict[str, Any]:
    values = [fn(n, c, k) for n, c in counts.values()]
    return {"value": round(sum(values) / len(values), 6), "ci95": bootstrap_ci(values)}


def score(results: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Pass@1 (mean reward, with a CI over tasks), pass@k and pass^k for k = 1..min attempts."""
    by_task: dict[str, list[int]] = defaultdict(list)
    infra = 0
    for r in results:
        by_task[r["task"]].append(int(r.get("reward", 0)))
        infra += bool(r.get("infra_error"))
    trials = sum(len(v) for v in by_task.values())
    if not trials:
        return {"trials": 0, "tasks": 0, "pass_at_1": None, "pass_at_1_ci95": None, "infra_errors": 0}
    counts = {t: (len(v), sum(v)) for t, v in by_task.items()}
    per_task_rate = [c / n for n, c in counts.values()]
    k_max = min(n for n, _ in counts.values())
    out: dict[str, Any] = {
        "trials": trials,
        "tasks": len(by_task),
        "pass_at_1": round(sum(sum(v) for v in by_task.values()) / trials, 6),
        "pass_at_1_ci95": bootstrap_ci(per_task_rate),
        "infra_errors": infra,
    }
    out["pass_at_k"] = {str(k): _estimate(counts, k, pass_at_k) for k in range(1, k_max + 1)}
    out["pass_hat_k"] = {str(k): _estimate(counts, k, pass_hat_k) for k in range(1, k_max + 1)}
    return out


def breakdown(results: Sequence[Mapping[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    """`score` per value of `key` ('task_type', 'difficulty'; 'capabilities' is a list per trial)."""
    groups: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in results:
        values = r.get(key)
        for v in values if isinstance(values, list) else [values]:
            groups[str(v)].append(r)
    return {g: score(rs) for g, rs in sorted(groups.items())}
