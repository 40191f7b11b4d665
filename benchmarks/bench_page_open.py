"""What opening an app page costs, by Chromium process, with and without Chromium's browser UI.

Every test variant opens the app in a new page of a reused browser context (`XRSession` with a
`ContextPool`, as the pytest plugin does). This opens `--opens` sessions one after another in one
harness browser and reports, per open, the wall time and the CPU seconds (user + system) each kind
of process spent (browser, renderer, GPU process, utility, the Playwright driver), as medians over
the opens after the first (which also starts the renderer). Arms, interleaved, each a fresh process
and browser:

- `harness`: the harness's own launch flags;
- `browser-ui`: the same with `BROWSER_UI_FEATURES_OFF` emptied, so that Chromium builds each
  window's omnibox popup as a WebUI page, as it does by default.

Usage: python benchmarks/bench_page_open.py [--app DIR] [--opens 7] [--repeats 3] [--json FILE].
Not part of the test suite (compare medians and ratios: these machines are noisy).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "tap_to_light"
ARMS = ("harness", "browser-ui")


def _cpu_by_kind() -> dict[int, tuple[str, float]]:
    """pid -> (process kind, CPU seconds so far) for every process this one started."""
    out = {}
    for proc in psutil.Process().children(recursive=True):
        try:
            argv, times = proc.cmdline(), proc.cpu_times()
        except psutil.Error:
            continue
        kind = next((a.split("=", 1)[1] for a in argv if a.startswith("--type=")), None)
        if kind is None:
            kind = "browser" if "--remote-debugging-pipe" in argv else "driver"
        out[proc.pid] = (kind, times.user + times.system)
    return out


def measure(app: Path, opens: int, arm: str) -> list[dict[str, float]]:
    """One arm in this process: `opens` sessions of `app`, each opened, stepped 10 frames, closed."""
    from xrbench.xrtest import browser
    from xrbench.xrtest.contexts import ContextPool
    from xrbench.xrtest.session import XRSession

    if arm == "browser-ui":
        browser.BROWSER_UI_FEATURES_OFF = ()
    pool = ContextPool()
    rows = []
    for _ in range(opens):
        before, t0 = _cpu_by_kind(), time.perf_counter()
        session = XRSession(app, contexts=pool).open()
        wall, after = time.perf_counter() - t0, _cpu_by_kind()
        session.step(10)
        session.close()
        row = {"open_s": wall}
        for pid, (kind, cpu) in after.items():
            row[kind] = row.get(kind, 0.0) + cpu - before.get(pid, (kind, 0.0))[1]
        row["cpu_s"] = sum(v for k, v in row.items() if k != "open_s")
        rows.append(row)
    browser.close_shared_browser()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--app", type=Path, default=EXAMPLE)
    parser.add_argument("--opens", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--arm", choices=ARMS, default=None, help=argparse.SUPPRESS)  # one arm, in a child
    args = parser.parse_args()
    if args.arm:
        print(json.dumps(measure(args.app.resolve(), args.opens, args.arm)))
        return 0
    runs: dict[str, list[dict[str, float]]] = {arm: [] for arm in ARMS}
    for _ in range(args.repeats):
        for arm in ARMS:  # interleaved, each arm in a fresh process with its own browser
            cmd = [sys.executable, __file__, "--arm", arm, "--app", str(args.app), "--opens", str(args.opens)]
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            runs[arm].extend(json.loads(out.strip().splitlines()[-1])[1:])  # the first open starts the renderer
    keys = sorted({k for rows in runs.values() for row in rows for k in row})
    result = {
        arm: {k: round(statistics.median(r.get(k, 0.0) for r in rows), 3) for k in keys} for arm, rows in runs.items()
    }
    print(f"{'per open (median)':<18}" + "".join(f"{arm:>12}" for arm in ARMS) + f"{'ratio':>8}")
    for k in keys:
        a, b = result["harness"][k], result["browser-ui"][k]
        print(f"{k:<18}{a:>12.3f}{b:>12.3f}{(b / a if a else float('nan')):>8.2f}")
    if args.json:
        args.json.write_text(json.dumps({"opens": args.opens, "repeats": args.repeats, "medians": result}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
