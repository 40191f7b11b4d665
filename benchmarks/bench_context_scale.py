"""ContextXR at the scale of real context-usage logs: one relational evaluation per task.

The real dataset this is shaped after (Frappe: mobile app usage with time of day, home/work and
weather; research-only licence, so it cannot ship) has about 5,000 scenarios, 40,000 placements
and 1,000 items. `frappe_shaped()` simulates that shape: ~950 users, 7 times of day, 3 places,
5 weathers, Zipf-popular items (each user with favourites), imported the way `import-csv` would
(a flat catalog: items without a `.` all belong to one app). Each task's evaluation runs in a
child process so its peak memory (max RSS) is its own.

Usage: python benchmarks/bench_context_scale.py [--repeats N] [--json FILE]. Targets (issue):
one relational evaluation of each task within 60 s and 500 MB on the 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import time

SHAPE = {"users": 950, "scenarios": 5000, "placements": 40000, "items": 1000}


def frappe_shaped(seed: int = 0):
    """A dataset of the real logs' shape (see the module docstring); deterministic in `seed`."""
    from xrbench.context.dataset import Dataset, Scenario
    from xrbench.context.importers import flat_catalog, flat_facet_id

    rng = random.Random(seed)
    items = [f"app{i:04d}" for i in range(SHAPE["items"])]
    weights = [1.0 / (i + 1) ** 1.1 for i in range(len(items))]  # Zipf popularity
    times = ["morning", "afternoon", "evening", "night", "sunrise", "noon", "sunset"]
    places = ["home", "work", "unknown"]
    weathers = ["sunny", "cloudy", "rainy", "foggy", "snowy"]
    favourites = {u: rng.choices(items, weights, k=12) for u in range(SHAPE["users"])}
    per_scenario = SHAPE["placements"] / SHAPE["scenarios"]
    seen: set[tuple] = set()
    scenarios = []
    while len(scenarios) < SHAPE["scenarios"]:
        u = rng.randrange(SHAPE["users"])
        ctx = (f"u{u}", rng.choice(times), rng.choice(places), rng.choice(weathers))
        if ctx in seen:
            continue
        seen.add(ctx)
        n = max(1, round(rng.expovariate(1 / per_scenario)))
        facets: list[str] = []
        while len(facets) < min(n, 60):
            pool = favourites[u] if rng.random() < 0.6 else rng.choices(items, weights, k=1)
            f = rng.choice(pool)
            if f not in facets:
                facets.append(f)
        scenarios.append(Scenario(f"s{len(scenarios)}", ctx[0], ctx[1], ctx[2], tuple(facets), {"weather": ctx[3]}))
    # As import-csv does: items without an `app.` prefix become facets of one app, `items`.
    scenarios = [
        Scenario(s.id, s.user, s.task, s.environment, tuple(flat_facet_id(f) for f in s.facets), s.extra)
        for s in scenarios
    ]
    catalog = flat_catalog(f for s in scenarios for f in s.facets)
    return Dataset(catalog, scenarios, meta={"name": "frappe-shaped", "synthetic": True}, extra_columns=("weather",))


def one(task: str) -> dict:
    """Evaluate relational retrieval on `task` in this process; seconds and peak memory."""
    from xrbench.cli.context_cmd import _cost_model
    from xrbench.context.evaluate import EvalConfig, evaluate
    from xrbench.context.methods.registry import create_method

    ds = frappe_shaped()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    result = evaluate(ds, create_method("relational"), "relational", _cost_model(ds, None), EvalConfig(task))
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return {
        "task": task,
        "scenarios": len(ds.scenarios),
        "placements": ds.n_events,
        "facets": len(ds.catalog.facets),
        "records": result["aggregate"]["records"],
        "seconds": round(seconds, 2),
        "peak_rss_mb": round(peak / 1024, 1),
        "rss_before_mb": round(before / 1024, 1),
        "reduction_pct": round(result["aggregate"]["reduction_pct"], 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json")
    parser.add_argument("--one", choices=["initial", "next"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one)))
        return 0
    report = {}
    for task in ("initial", "next"):
        runs = []
        for _ in range(args.repeats):
            out = subprocess.run(
                [sys.executable, __file__, "--one", task], capture_output=True, text=True, check=True
            ).stdout
            runs.append(json.loads(out.strip().splitlines()[-1]))
        report[task] = {
            **{k: runs[0][k] for k in ("scenarios", "placements", "facets", "records", "reduction_pct")},
            "seconds_median": statistics.median(r["seconds"] for r in runs),
            "peak_rss_mb_median": statistics.median(r["peak_rss_mb"] for r in runs),
            "runs": runs,
        }
        print(task, json.dumps({k: v for k, v in report[task].items() if k != "runs"}), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
