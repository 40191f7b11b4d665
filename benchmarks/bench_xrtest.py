"""XR runtime harness performance: first frame, per-session overhead, stepping speed, memory.

Measures, with medians over repeats (these machines are noisy):
- cold start: launching Chromium through the first stepped frame of the example app;
- per-session overhead with browser reuse: open (workspace, server, context, xbReady) + close;
- wall time to simulate one second of app time: 60 `step`s of 16.67 ms;
- peak memory of the browser process tree during a session (PSS; RSS when PSS is unavailable).

Usage: python benchmarks/bench_xrtest.py [--repeats N] [--scene NAME] [--app DIR] [--json FILE].
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

from xrbench.xrtest import XRSession, launch_browser

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "tap_to_light"


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    return children


def _descendants(pid: int) -> list[int]:
    children = _children_map()
    out, stack = [], [pid]
    while stack:
        for c in children.get(stack.pop(), []):
            out.append(c)
            stack.append(c)
    return out


def _process_memory(pid: int) -> tuple[int, str]:
    """(bytes, 'PSS' or 'RSS') of one process."""
    try:
        import psutil  # type: ignore[import-not-found]

        info = psutil.Process(pid).memory_full_info()
        return int(info.pss), "PSS"
    except ImportError:
        pass
    except Exception:
        return 0, "PSS"
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024, "PSS"
    except OSError:
        pass
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024, "RSS"
    except OSError:
        pass
    return 0, "PSS"  # the process exited (or is a zombie) between listing and reading


class MemorySampler:
    """Samples the memory of this process's descendants (Playwright driver + Chromium) in a thread."""

    def __init__(self, interval_s: float = 0.1):
        self.interval_s = interval_s
        self.peak = 0
        self.kind = "PSS"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self) -> int:
        total = 0
        for pid in _descendants(os.getpid()):
            size, kind = _process_memory(pid)
            total += size
            if kind == "RSS":
                self.kind = "RSS"
        return total

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.sample())
            self._stop.wait(self.interval_s)

    def __enter__(self) -> MemorySampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def cold_start(app: Path, scene: str | None) -> float:
    """Seconds from launching Chromium to the first stepped frame."""
    t0 = time.perf_counter()
    handle = launch_browser()
    try:
        with XRSession(app, browser=handle.browser, scene=scene) as s:
            s.step(1)
            return time.perf_counter() - t0
    finally:
        handle.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--scene", default="living_room", help="bundled scene, or 'none' for the app's own")
    parser.add_argument("--app", type=Path, default=EXAMPLE)
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args()
    scene = None if args.scene == "none" else args.scene
    n = max(1, args.repeats)

    cold = [cold_start(args.app, scene) for _ in range(n)]

    handle = launch_browser()
    try:
        # One warm-up session so disk caches and the driver are in a steady state.
        with XRSession(args.app, browser=handle.browser, scene=scene):
            pass
        session_s, open_s, close_s, second_s, step_ms, own_env_s = [], [], [], [], [], []
        for _ in range(n):
            if scene is not None:
                # Interleaved with the scene's sessions (same machine state): the app's own environment.
                t0 = time.perf_counter()
                XRSession(args.app, browser=handle.browser).open().close()
                own_env_s.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            s = XRSession(args.app, browser=handle.browser, scene=scene).open()
            t1 = time.perf_counter()
            s.step(1)
            t2 = time.perf_counter()
            s.step(60, 1000 / 60)
            t3 = time.perf_counter()
            s.close()
            t4 = time.perf_counter()
            open_s.append(t1 - t0)
            close_s.append(t4 - t3)
            session_s.append((t1 - t0) + (t4 - t3))
            second_s.append(t3 - t2)
            step_ms.append((t3 - t2) / 60 * 1000)
        # Memory separately: sampling /proc competes for the same two cores as the timings.
        with MemorySampler() as memory, XRSession(args.app, browser=handle.browser, scene=scene) as s:
            s.step(120)
            s.snapshot()
            memory.peak = max(memory.peak, memory.sample())
        peak, kind = memory.peak, memory.kind
    finally:
        handle.close()

    med = statistics.median
    results = {
        "repeats": n,
        "scene": scene,
        "app": str(args.app),
        "cold_start_to_first_frame_s": med(cold),
        "session_overhead_s": med(session_s),
        "session_open_s": med(open_s),
        "session_close_s": med(close_s),
        "session_overhead_own_environment_s": med(own_env_s) if own_env_s else None,
        "simulate_one_second_wall_s": med(second_s),
        "step_ms": med(step_ms),
        "peak_memory_mb": round(peak / 2**20, 1),
        "memory_kind": kind,
        "samples": {"cold_start_s": cold, "session_overhead_s": session_s, "simulate_one_second_wall_s": second_s},
    }
    print(f"xrtest benchmark ({n} repeats, scene={scene}, app={args.app.name}); medians:")
    print(f"  cold start to first frame     {results['cold_start_to_first_frame_s']:.2f} s")
    print(
        f"  per-session overhead (reuse)  {results['session_overhead_s']:.2f} s "
        f"(open {results['session_open_s']:.2f} s, close {results['session_close_s']:.2f} s)"
    )
    if own_env_s:
        print(f"  per-session overhead, the app's own environment (interleaved)  {med(own_env_s):.2f} s")
    print(
        f"  simulate 1 s (60 x 16.67 ms)  {results['simulate_one_second_wall_s']:.2f} s "
        f"({results['step_ms']:.1f} ms per step)"
    )
    print(f"  peak memory ({kind}, driver + browser)  {results['peak_memory_mb']:.0f} MB")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
