"""Tasks 2 and 3: initial and next facet suggestion (fixed protocol; see README).

Every record carries its context, history, targets, suggestions, cost, manual cost and metrics,
so any record can be recomputed by hand from its own fields.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, is_dataclass
from statistics import fmean
from typing import Literal

from xrbench.context.cost import CostModel
from xrbench.context.dataset import Dataset, Scenario
from xrbench.context.methods.base import Context, SuggestionFailed
from xrbench.context.metrics import normalize_suggestions, retrieval_metrics

Task = Literal["initial", "next"]
METRIC_KEYS = ("recall", "precision", "f1", "hit", "ndcg")


@dataclass(frozen=True)
class EvalConfig:
    task: Task = "initial"
    k: int = 10
    folds: int = 5
    seed: int = 0
    # Next-facet targets: "all" (the paper's: the whole set; placed facets are there at no cost,
    # manual cost is the whole set's, recall counts what is not yet placed), "remaining" (the
    # facets still to come, also for manual cost) or "next" (only the one placed next).
    next_target: Literal["all", "remaining", "next"] = "all"


def assign_folds(scenarios: Sequence[Scenario], folds: int, seed: int) -> dict[str, int]:
    """Seeded scenario-level fold assignment (a scenario's rows never train its own fold)."""
    ids = [s.id for s in scenarios]
    random.Random(seed).shuffle(ids)
    return {sid: i % folds for i, sid in enumerate(ids)}


def queries(s: Scenario, config: EvalConfig) -> list[tuple[int | None, list[str], list[str]]]:
    """(step, history, targets) for each record of a scenario."""
    if config.task == "initial":
        return [(None, [], list(s.facets))]
    out = []
    for t in range(1, len(s.facets)):
        targets = {"next": [s.facets[t]], "remaining": list(s.facets[t:]), "all": list(s.facets)}[config.next_target]
        out.append((t, list(s.facets[:t]), targets))
    return out


def _training_plan(method: object, dataset: Dataset, config: EvalConfig):
    """Yield (train scenarios, test scenarios) pairs according to the method's training mode."""
    scenarios = dataset.scenarios
    mode = getattr(method, "training", "folds")
    if mode == "none":
        yield [], scenarios
    elif mode == "all":
        yield scenarios, scenarios
    elif mode == "others":
        for s in scenarios:
            yield [o for o in scenarios if o.id != s.id], [s]
    elif mode == "folds":
        fold_of = assign_folds(scenarios, config.folds, config.seed)
        for fold in range(config.folds):
            test = [s for s in scenarios if fold_of[s.id] == fold]
            if test:
                yield [s for s in scenarios if fold_of[s.id] != fold], test
    else:
        raise ValueError(f"unknown training mode {mode!r}")


def evaluate(
    dataset: Dataset,
    method: object,
    method_name: str,
    cost_model: CostModel,
    config: EvalConfig = EvalConfig(),
    on_progress: Callable[[int], None] | None = None,
    workers: int | None = None,
) -> dict:
    """Run one method on one task; returns the `context evaluate` JSON document."""
    order = {s.id: i for i, s in enumerate(dataset.scenarios)}
    eligible_check = getattr(method, "eligible", None)
    pool_size = workers or getattr(method, "concurrency", 1)
    records: list[dict] = []
    left_out: list[str] = []
    for train, test in _training_plan(method, dataset, config):
        method.fit(train, dataset.catalog)
        jobs = []
        for s in test:
            ctx = Context.of(s)
            if eligible_check is not None and not eligible_check(ctx, train):
                left_out.append(s.id)
                on_progress and on_progress(len(queries(s, config)))
                continue
            jobs.extend((s, ctx, step, hist, tgt) for step, hist, tgt in queries(s, config))

        def run(job):
            s, ctx, step, history, targets = job
            rec = _record(method, cost_model, config, s, ctx, step, history, targets)
            on_progress and on_progress(1)
            return rec

        if pool_size > 1 and len(jobs) > 1:
            with ThreadPoolExecutor(pool_size) as pool:
                records.extend(pool.map(run, jobs))
        else:
            records.extend(run(j) for j in jobs)
    records.sort(key=lambda r: (order[r["scenario_id"]], r["step"] or 0))
    return {
        "task": config.task,
        "method": method_name,
        "k": config.k,
        "aggregate": aggregate(records),
        "config": {
            "folds": config.folds,
            "seed": config.seed,
            "next_target": config.next_target if config.task == "next" else None,
            "training": getattr(method, "training", "folds"),
            "cost_model": getattr(cost_model, "name", type(cost_model).__name__),
            "cost_params": asdict(p) if is_dataclass(p := getattr(cost_model, "params", None)) else {},
            "menu_order": getattr(cost_model, "menu_order", None),
            # Model and generation settings of provider-backed methods, so a result names what produced it.
            "provider": llm.describe() if (llm := getattr(method, "llm", None)) is not None else None,
            "generation": method.settings.to_dict() if llm is not None and hasattr(method, "settings") else None,
        },
        "dataset": {
            "name": dataset.name,
            "synthetic": dataset.synthetic,
            "scenarios": len(dataset.scenarios),
            "checksum": dataset.checksum(),
        },
        "left_out": sorted(left_out, key=order.__getitem__),
        "records": records,
    }


def _record(method, cost_model, config, s, ctx, step, history, targets) -> dict:
    error = None
    info: dict = {}
    try:
        raw = method.suggest(ctx, list(history), config.k)
        info = dict(getattr(raw, "info", {}) or {})
    except SuggestionFailed as e:
        raw, error, info = [], str(e), dict(e.details)
    suggestions = normalize_suggestions(list(raw), config.k, exclude=history)
    # Under "all" the placed facets are targets already reached: free, and not counted for recall.
    placed = set(history) if config.task == "next" and config.next_target == "all" else set()
    open_targets = [f for f in targets if f not in placed]
    rec = {
        "scenario_id": s.id,
        "user": s.user,
        "task": s.task,
        "environment": s.environment,
        "step": step,
        "history": list(history),
        "targets": list(targets),
        "suggestions": suggestions,
        "cost": cost_model.assisted(open_targets, suggestions),
        "manual_cost": cost_model.manual(targets),
    }
    rec.update(retrieval_metrics(suggestions, open_targets, config.k))
    if s.extra:
        rec["context"] = dict(s.extra)
    if info:
        rec["info"] = info
    if error is not None:
        rec["error"] = error
    return rec


def aggregate(records: Sequence[dict]) -> dict:
    """Scenario-level means (a scenario's value is the mean over its steps), then over scenarios."""
    by_scenario: dict[str, list[dict]] = {}
    for r in records:
        by_scenario.setdefault(r["scenario_id"], []).append(r)
    keys = ("cost", "manual_cost", *METRIC_KEYS)
    per = [{k: fmean(r[k] for r in rs) for k in keys} for rs in by_scenario.values()]
    agg: dict = {"records": len(records), "scenarios": len(per)}
    for k in keys:
        agg[k] = fmean(p[k] for p in per) if per else 0.0
    agg["reduction_pct"] = (
        100.0 * (agg["cost"] - agg["manual_cost"]) / agg["manual_cost"] if agg["manual_cost"] else 0.0
    )
    agg["failed"] = sum(1 for r in records if "error" in r)
    return agg


def per_scenario(result: dict) -> dict[str, dict]:
    """Scenario id -> mean cost / manual cost / metrics over that scenario's records."""
    by: dict[str, list[dict]] = {}
    for r in result["records"]:
        by.setdefault(r["scenario_id"], []).append(r)
    return {sid: {k: fmean(r[k] for r in rs) for k in ("cost", "manual_cost", *METRIC_KEYS)} for sid, rs in by.items()}
