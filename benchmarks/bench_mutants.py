"""What a mutant costs to validate, against a full verification of it.

For the representative mutants of each task given (`validate.representative_candidates`: a fixed
sample), interleaved, `--repeats` times:

- full: `genxr verify` of the mutant as a real candidate meets it (every test, failed tests
  recorded);
- fast, recorded: validation's run of the mutant before `--xr-no-recording` (stop at the first
  failure, the broken requirement's tests first, the failed test's video and end frame kept);
- fast: validation's run of the mutant now (`validate.run_candidate`: the same, recording nothing,
  since validation deletes its recordings).

Reports wall and CPU seconds (every process the run starts, the browser included; see
bench_verify.py's `CpuMeter`) per mutant, medians per mode, and the ratios full / fast. Usage:
    python benchmarks/bench_mutants.py [--tasks app-grab-box,...] [--mutants 2] [--repeats 1] [--json out.json]
Not part of the test suite (timings on a shared machine are noisy: compare medians and ratios).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from bench_verify import CpuMeter

from xrbench.genxr.grading import default_pytest_args, verify
from xrbench.genxr.task import DEFAULT_TASKS_DIR, load_task
from xrbench.genxr.validate import materialize, representative_candidates, run_candidate

DEFAULT_TASKS = ("app-grab-box", "app-counter-panel", "sdk-repair-followhead-parent")
MODES = ("full", "fast_recorded", "fast")


def run_mode(mode: str, cand, work: Path) -> tuple[str, float]:
    """Verify the mutant one way; returns its outcome ('fail' expected) and seconds."""
    t0 = time.perf_counter()
    if mode == "fast":
        record = run_candidate(cand, [*default_pytest_args(), "-x"])
        return record["outcome"], time.perf_counter() - t0
    args = default_pytest_args()
    if mode == "fast_recorded":
        req = next(r for r in cand.task.spec.requirements if r.id == cand.solution.requirement)
        args = [*args, "-x", *(a for ref in req.tests for a in ("--genxr-first", ref))]
    ws = materialize(cand, work / "ws")
    verdict = verify(cand.task, ws, work / "out", pytest_args=args)
    outcome = "infra" if verdict.infra_error else "pass" if verdict.passed else "fail"
    return outcome, time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", default=",".join(DEFAULT_TASKS))
    parser.add_argument("--mutants", type=int, default=2, help="Representative mutants per task")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    meter = CpuMeter()
    runs: dict[str, list[dict]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="xrbench-bench-mutants-") as tmp:
        for task_id in (t.strip() for t in args.tasks.split(",") if t.strip()):
            task = load_task(DEFAULT_TASKS_DIR / task_id)
            mutants = [c for c in representative_candidates(task, args.mutants) if c.kind == "mutant"]
            for repeat in range(args.repeats):
                for cand in mutants:
                    for mode in MODES:  # interleaved: each mode sees the same machine state
                        work = Path(tempfile.mkdtemp(dir=tmp))
                        cpu0 = meter.seconds()
                        outcome, wall = run_mode(mode, cand, work)
                        cpu = meter.seconds() - cpu0
                        if outcome != "fail":
                            raise SystemExit(f"{task_id} {cand.label} ({mode}): expected to fail, got {outcome}")
                        runs[mode].append({"task": task_id, "mutant": cand.label, "wall": wall, "cpu": cpu})
                        print(
                            f"  {repeat + 1} {task_id} {cand.label} {mode}: {wall:.1f} s, cpu {cpu:.1f} s",
                            file=sys.stderr,
                        )
    meter.close()
    med = statistics.median
    summary = {m: {k: round(med(r[k] for r in rs), 2) for k in ("wall", "cpu")} for m, rs in runs.items()}
    ratios = {
        f"full/{m}": {k: round(summary["full"][k] / summary[m][k], 2) for k in ("wall", "cpu")}
        for m in ("fast_recorded", "fast")
    }
    result = {"medians": summary, "ratios": ratios, "runs": runs}
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    for m, row in summary.items():
        print(f"{m:>14}: wall {row['wall']:7.1f} s   cpu {row['cpu']:7.1f} s   ({len(runs[m])} runs)")
    for name, row in ratios.items():
        print(f"{name:>19}: wall {row['wall']:.2f}x   cpu {row['cpu']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
