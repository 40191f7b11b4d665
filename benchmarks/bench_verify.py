"""Verifier throughput: wall time of `genxr verify` on fixed candidates, and where it goes.

Runs the valid solution (or, `--candidate untouched`, the starting workspace) of each task given
(default: the three the throughput issue measured) through the same `verify()` a real candidate
meets, `--repeats` times interleaved, with a timing plugin in the verifier's pytest
(benchmarks/verify_timing.py). Breakdown per candidate run (a failing candidate's includes the
rerun that records its failed tests):

- startup: from calling verify() to the plugin loading (workspace copy, Python, pytest imports);
- collection: session start to collected;
- browser: the `xr_browser` fixture (launching Chromium, once per pytest process);
- session open: the `xr` fixture's set-up (page load, module graph, XR Blocks ready), all tests;
- test bodies: the tests' call phase, all tests;
- teardown: the tests' teardown phase (closing sessions, keeping recordings), all tests;
- after: session end to verify() returning (pytest exit, JUnit parsing, grading);
- cpu: CPU seconds (user + system) of every process the run started (pytest, the Playwright
  driver, the browser), which varies much less than wall time when other work shares the machine.
  Counted with a cgroup-v1 `cpuacct` group of this process (as root); without one, not reported.

Reports medians per task and over all runs, as JSON (`--json`) and a table. Usage:
    python benchmarks/bench_verify.py [--tasks app-grab-box,...] [--repeats 3] [--json out.json] [--arm NAME=ARGS ...]
        [--candidate valid|untouched]
Not part of the test suite (timings on a shared machine are noisy: compare medians and ratios).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from xrbench.genxr.grading import default_pytest_args, verify
from xrbench.genxr.task import DEFAULT_TASKS_DIR, load_task
from xrbench.genxr.workspace import materialize_solution, prepare_workspace

HERE = Path(__file__).resolve().parent
DEFAULT_TASKS = ("app-grab-box", "app-air-drawing", "sdk-repair-touch-wrong-hand")
PARTS = ("startup", "collection", "browser", "session_open", "test_bodies", "teardown", "after")


def breakdown(lines: list[dict], t_start: float, t_end: float) -> dict[str, float]:
    """Seconds per part (see the module docstring) from the plugin's records of one run."""
    first = {r["event"]: r["t"] for r in reversed(lines)}
    fixtures: dict[str, float] = defaultdict(float)
    phases: dict[str, float] = defaultdict(float)
    for r in lines:
        if r["event"] == "fixture":
            fixtures[r["name"]] += r["seconds"]
        elif r["event"] == "phase":
            phases[r["when"]] += r["seconds"]
    session_open = fixtures.get("xr", 0.0)
    browser = fixtures.get("xr_browser", 0.0)
    return {
        "startup": first["plugin_loaded"] - t_start,
        "collection": first["collected"] - first["session_start"],
        "browser": browser,
        # The setup phase holds the fixtures: what is not the browser or a session is the rest.
        "session_open": session_open,
        "setup_other": max(0.0, phases["setup"] - session_open - browser),
        "test_bodies": phases["call"],
        "teardown": phases["teardown"],
        "after": t_end - first["session_finish"],
        "tests": sum(1 for r in lines if r["event"] == "phase" and r["when"] == "call"),
        "total": t_end - t_start,
    }


class CpuMeter:
    """CPU time of this process and all it starts, from a cpuacct cgroup of its own.

    Resource usage of children (`getrusage`) misses the browser: its processes are not waited for
    by the verifier's pytest, so only a cgroup, which every descendant joins, sees them.
    """

    ROOT = Path("/sys/fs/cgroup/cpuacct")

    def __init__(self) -> None:
        self.group: Path | None = None
        group = self.ROOT / f"xrbench-bench-{os.getpid()}"
        try:
            group.mkdir()
            (group / "cgroup.procs").write_text(str(os.getpid()))
            self.group = group
        except OSError:
            with contextlib.suppress(OSError):
                group.rmdir()

    def seconds(self) -> float:
        if self.group is None:
            return float("nan")
        return int((self.group / "cpuacct.usage").read_text()) / 1e9

    def close(self) -> None:
        if self.group is not None:
            with contextlib.suppress(OSError):
                (self.ROOT / "cgroup.procs").write_text(str(os.getpid()))
                self.group.rmdir()


def run_once(task_id: str, root: Path, cpu_meter: CpuMeter, extra: list[str], candidate: str) -> dict[str, float]:
    task = load_task(DEFAULT_TASKS_DIR / task_id)
    work = Path(tempfile.mkdtemp(prefix=f"bench-{task_id}-", dir=root))
    timing = work / "timing.jsonl"
    os.environ["XRBENCH_VERIFY_TIMING"] = str(timing)
    t0 = time.time()
    cpu0 = cpu_meter.seconds()
    if candidate == "untouched":
        ws = work / "ws"
        prepare_workspace(task, ws)
    else:
        ws = materialize_solution(task, task.valid_solutions[0], work / "ws")
    verdict = verify(task, ws, work / "out", pytest_args=[*default_pytest_args(), "-p", "verify_timing", *extra])
    t1 = time.time()
    cpu = cpu_meter.seconds() - cpu0
    if verdict.infra_error or verdict.passed != (candidate == "valid"):
        raise SystemExit(f"{task_id}: the {candidate} candidate got {verdict.infra_error or verdict.passed}")
    lines = [json.loads(line) for line in timing.read_text().splitlines()]
    return {**breakdown(lines, t0, t1), "cpu": cpu}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", default=",".join(DEFAULT_TASKS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--arm",
        action="append",
        default=[],
        metavar="NAME=ARGS",
        help="an A/B arm: extra verifier pytest arguments (e.g. 'full=--xr-full-frames'), "
        "interleaved with the other arms; default: one arm without extra arguments",
    )
    parser.add_argument(
        "--candidate",
        choices=("valid", "untouched"),
        default="valid",
        help="what to verify: each task's first valid solution (passes) or its starting workspace (fails)",
    )
    args = parser.parse_args()
    arms = {name: extra.split() for name, _, extra in (a.partition("=") for a in args.arm)} or {"": []}
    # The verifier's pytest finds the timing plugin through PYTHONPATH.
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")]))
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    cpu_meter = CpuMeter()
    runs: dict[str, list[dict[str, float]]] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="xrbench-bench-verify-") as tmp:
        for i in range(args.repeats):
            for task_id in tasks:  # interleaved: every task and arm sees the same machine state
                for arm, extra in arms.items():
                    key = f"{task_id} [{arm}]" if arm else task_id
                    runs[key].append(run_once(task_id, Path(tmp), cpu_meter, extra, args.candidate))
                    row = runs[key][-1]
                    print(
                        f"  repeat {i + 1}/{args.repeats} {key}: {row['total']:.1f} s, cpu {row['cpu']:.1f} s",
                        file=sys.stderr,
                    )
    med = statistics.median
    keys = [*PARTS, "setup_other", "total", "cpu", "tests"]
    per_task = {t: {k: round(med(r[k] for r in rs), 3) for k in keys} for t, rs in runs.items()}
    every = [r for rs in runs.values() for r in rs]
    overall = {k: round(med(r[k] for r in every), 3) for k in keys}
    per_arm = {
        arm: {k: round(med(r[k] for key, rs in runs.items() if key.endswith(f"[{arm}]") for r in rs), 3) for k in keys}
        for arm in arms
        if arm
    }
    per_test = round(med(r["total"] / r["tests"] for r in every), 3)
    result = {
        "repeats": args.repeats,
        "candidate": args.candidate,
        "tasks": per_task,
        "overall": overall,
        "seconds_per_test": per_test,
    }
    if per_arm:
        result["arms"] = per_arm
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"genxr verify, {args.candidate} candidates, {args.repeats} repeats; medians (s):")
    print(f"  {'task':32} " + " ".join(f"{k[:11]:>11}" for k in keys))
    for name, row in [*per_task.items(), *((f"arm {a}", r) for a, r in per_arm.items()), ("all runs", overall)]:
        print(f"  {name:32} " + " ".join(f"{row[k]:11.2f}" for k in keys))
    print(f"  per test (variant): {per_test:.2f} s")
    cpu_meter.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
