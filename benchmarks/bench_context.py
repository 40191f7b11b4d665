"""ContextXR performance: relational-retrieval query latency and whole `context run` time.

Reports medians over repeats (these machines are noisy) and the scaling ratio between the bundled
dataset and a simulated one 100x larger. Usage: python benchmarks/bench_context.py [--repeats N]
[--scale 100] [--json FILE]. Not part of the test suite; `make bench` runs it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from xrbench.context.cost import MenuCostModel
from xrbench.context.dataset import Dataset
from xrbench.context.evaluate import EvalConfig
from xrbench.context.experiments import run_experiments
from xrbench.context.methods.base import Context
from xrbench.context.methods.registry import DEFAULT_METHODS, create_method
from xrbench.context.simulate import DATA_DIR, SimConfig, simulate


def query_latency(ds: Dataset, n: int = 2000) -> float:
    """Median seconds per relational-retrieval query (initial and next mixed), after fitting."""
    method = create_method("relational")
    method.fit(ds.scenarios, ds.catalog)
    samples = []
    scenarios = ds.scenarios
    for i in range(n):
        s = scenarios[i % len(scenarios)]
        history = list(s.facets[: i % max(len(s.facets), 1)])
        t0 = time.perf_counter()
        method.suggest(Context.of(s), history, 10)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def run_time(ds: Dataset, repeats: int) -> tuple[float, int]:
    """Median wall time of the non-LLM `context run` (lift + every default method on both tasks)."""
    times = []
    records = 0
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            run_experiments(ds, DEFAULT_METHODS, Path(tmp), MenuCostModel(ds.catalog), EvalConfig())
            times.append(time.perf_counter() - t0)
            summary = json.loads((Path(tmp) / "summary.json").read_text())
            records = summary["aggregates"]["next"]["relational"]["records"]
    return statistics.median(times), records


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scale", type=int, default=100)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    bundled = Dataset.load(DATA_DIR)
    big = simulate(replace(SimConfig(), users=31 * args.scale, scenarios=109 * args.scale))
    results = {}
    for label, ds, repeats in (("bundled", bundled, args.repeats), (f"x{args.scale}", big, 1)):
        latency = query_latency(ds)
        seconds, next_records = run_time(ds, repeats)
        results[label] = {
            "scenarios": len(ds.scenarios),
            "placements": ds.n_events,
            "relational_query_ms_median": round(latency * 1000, 3),
            "context_run_s_median": round(seconds, 2),
            "next_records_per_method": next_records,
        }
        print(f"{label:8s} {json.dumps(results[label])}", flush=True)
    small, large = results["bundled"], results[f"x{args.scale}"]
    ratio = large["context_run_s_median"] / small["context_run_s_median"]
    data_ratio = large["scenarios"] / small["scenarios"]
    results["scaling"] = {"data_ratio": round(data_ratio, 1), "time_ratio": round(ratio, 1)}
    print(f"scaling: {data_ratio:.0f}x the scenarios took {ratio:.1f}x the time", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
