"""Guidance static score: batch scoring (one Node process) vs one `node` process per file.

Builds N workspaces from the bundled tasks' reference answers, a fifth of them broken (a syntax
error after the imports, the Node 20 `node --check` pitfall, or a truncated file), scores them
both ways, checks that the results are identical, and reports medians over repeats.
Usage: python benchmarks/bench_guidance_score.py [--files 200] [--repeats 3] [--json FILE].
Not part of the test suite; `make bench` can run it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from xrbench.guidance.score import score_many, score_workspace
from xrbench.guidance.task import TASKS_DIR, resolve_tasks


def build(root: Path, n: int) -> list[tuple[Path, Path]]:
    """`n` (task_dir, workspace) pairs; every fifth answer is broken in one of three ways."""
    tasks = resolve_tasks(TASKS_DIR)
    pairs = []
    for i in range(n):
        task = tasks[i % len(tasks)]
        assert task.reference_solution is not None
        src = task.reference_solution.read_text(encoding="utf-8")
        if i % 5 == 4:
            kind = (i // 5) % 3
            if kind == 0:
                src = src.replace("init() {", "init() {\n    const broken = ;", 1)
            elif kind == 1:
                src = src[: len(src) // 2]
            else:
                src = src.replace("class ", "class class ", 1)
        ws = root / f"ws{i:04d}"
        ws.mkdir()
        (ws / task.spec.edit_file).write_text(src, encoding="utf-8")
        pairs.append((task.dir, ws))
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pairs = build(Path(tmp), args.files)
        single_times, batch_times = [], []
        single = batch = None
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            single = [score_workspace(task, ws) for task, ws in pairs]
            single_times.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            batch = score_many(pairs)
            batch_times.append(time.perf_counter() - t0)
        assert single is not None and batch is not None
        identical = single == batch
        broken = sum(1 for r in single if r["parse_ok"] == 0.0)
    s, b = statistics.median(single_times), statistics.median(batch_times)
    result = {
        "files": args.files,
        "broken": broken,
        "repeats": args.repeats,
        "one_process_per_file_s": round(s, 3),
        "batch_s": round(b, 3),
        "per_file_ms": {
            "one_process_per_file": round(1000 * s / args.files, 2),
            "batch": round(1000 * b / args.files, 2),
        },
        "speedup": round(s / b, 1),
        "identical": identical,
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
