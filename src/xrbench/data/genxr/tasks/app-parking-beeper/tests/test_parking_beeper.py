"""Runtime tests of the walking parking sensor, in two furnished rooms.

Every frame of every test is logged: the depth at the centre of the view as the harness reads it
after that frame (inside its kernel, from the depth image of the XR Blocks core: the pixel
`getDepth(0.5, 0.5)` reads) and the sounds the page started (the harness's own log of Web Audio
sources, `xr.audio()`). A depth read back from the GPU lands between two frames, so the app's
distance in a frame is the harness's reading after the frame before or after that frame; every
check accepts either. The log is then checked against the instruction, frame by frame:
- no beep starts in a frame where both possible distances are unknown, 0 or 1.2 m or more;
- when the distance comes under 1.2 m, a beep starts in that frame or the next;
- each beep is an oscillator of 880 Hz (1760 Hz under 0.4 m), within 1 %, lasting 0.03-0.1 s,
  started at once (not scheduled ahead on the audio clock);
- between two beeps with the distance under 1.2 m all the while, the gap is never shorter than the
  interval of the band in force (0.6 s from 0.7 m, 0.3 s from 0.4 m, 0.15 s below; half a frame
  of slack), and the next beep comes at the latest in the frame after the first frame where the
  interval for the distance (either reading) has passed.

Before the first depth data arrives (the harness sees none yet) no sound may start at all.

Poses: standing 2 m from a wall (silent), walking up to it 1 cm a frame into each band and
holding there (several beeps per band), a one-frame step from the slow band into the fast one
just after a beep (the next beep comes 0.3 s after the last one), stepping back out, turning away
and back, looking down at the floor standing (silent) and crouched (beeping). The hands are hidden
so that they stay out of the depth image; they play no part, so each test runs for one
(right-dominant) user. Frames are 1/60 s of virtual time.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = [
    pytest.mark.xr_scenes("living_room", "kitchen"),
    pytest.mark.xr_hands("right"),  # the hands play no part: one variant is enough
    pytest.mark.xr_timeout(300),
]

DT = 1.0 / 60.0
ZONE = 1.2
BANDS = ((0.7, 0.6, 880.0), (0.4, 0.3, 880.0), (0.0, 0.15, 1760.0))  # (from, interval s, Hz)
PITCH_TOL = 0.01
BEEP_LEN = (0.03, 0.1)
START_DELAY = 0.005  # s: "started the moment it should sound" (the audio clock moves on between two reads)
ARRIVAL_FRAMES = 40
FAST = 100000.0  # degrees a second: a turn in one frame

Vec = tuple[float, float, float]

READ = r"""
(h, since) => {
  const THREE = h.THREE, d = h.core.depth, cam = h.guard(h.core.camera, 'the camera');
  cam.updateMatrixWorld(true);
  const eye = cam.getWorldPosition(new THREE.Vector3());
  const fwd = new THREE.Vector3(0, 0, -1).transformDirection(cam.matrixWorld);
  const arr = d && d.depthArray && d.depthArray[0];
  let centre = null;
  if (arr && arr.length) {
    const w = d.width, hh = d.height;
    const x = Math.round(Math.min(Math.max(0.5 * w, 0), w - 1));
    const y = Math.round(Math.min(Math.max(0.5 * hh, 0), hh - 1));
    centre = arr[y * w + x] * (d.rawValueToMeters || 1);
  }
  return {enabled: !!(d && d.enabled), available: !!(arr && arr.length), centre,
          eye: eye.toArray(), fwd: fwd.toArray(), sounds: h.audio.slice(since)};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def in_zone(d: float | None) -> bool:
    return d is not None and 0.0 < d < ZONE


def band(d: float) -> tuple[float, float, float]:
    return next(b for b in BANDS if d >= b[0])


def said(ds) -> str:
    return " or ".join("unknown" if d is None else f"{d:.3f} m" for d in ds)


class Log:
    """Per-frame log of the harness's centre-depth reading and the sounds started."""

    def __init__(self, xr):
        self.xr = xr
        self.depth: dict[int, float | None] = {}
        self.sounds_seen = 0  # every sound since the page opened
        self.beeps: list[dict] = []
        self.read()

    def read(self) -> dict:
        """The reading after the current frame; collects the sounds started since the last read."""
        r = self.xr.probe(READ, self.sounds_seen)
        self.depth[self.xr.frame] = r["centre"]
        self.sounds_seen += len(r["sounds"])
        self.beeps.extend(r["sounds"])
        return r

    def frame(self, delta: Vec | None = None) -> dict:
        """One frame (moving the head by `delta` within it); returns the reading after it."""
        before = self.xr.frame
        if delta is None:
            self.xr.step(1)
        else:
            dist = math.sqrt(sum(c * c for c in delta))
            self.xr.head.move(delta, speed=dist / DT * 1.001)
        assert self.xr.frame == before + 1, f"expected one frame to pass; {self.xr.frame - before} did"
        return self.read()

    def hold(self, frames: int) -> None:
        for _ in range(frames):
            self.frame()

    def possible(self, f: int) -> list[float | None]:
        """The distances the app may have used in frame `f`."""
        return [self.depth[g] for g in (f - 1, f) if g in self.depth]

    def check(self, what: str) -> None:
        """Checks the whole log against the instruction (see the module docstring)."""
        __tracebackhide__ = True
        beeps = sorted(self.beeps, key=lambda b: b["frame"])
        frames = sorted(self.depth)
        by_frame: dict[int, list[dict]] = {}
        for b in beeps:
            by_frame.setdefault(b["frame"], []).append(b)
        for f, bs in by_frame.items():
            if f not in self.depth or f - 1 not in self.depth:
                continue  # a frame the test did not log
            ds = self.possible(f)
            assert any(in_zone(d) for d in ds), (
                f"{what}: a beep started in frame {f}, where the distance ahead is {said(ds)}: expected silence "
                "(unknown, 0 or 1.2 m or more)"
            )
            assert len(bs) == 1, f"{what}: {len(bs)} sounds started in frame {f}; expected at most one beep a frame"
            b = bs[0]
            assert b.get("kind") == "oscillator", (
                f"{what}: the beep in frame {f} is a {b.get('kind')}, not an oscillator"
            )
            pitches = {band(d)[2] for d in ds if in_zone(d)}
            freq = b.get("frequency") or 0.0
            assert any(abs(freq - p) <= PITCH_TOL * p for p in pitches), (
                f"{what}: the beep in frame {f} (distance {said(ds)}) is {freq:.0f} Hz; expected "
                f"{' or '.join(f'{p:.0f} Hz' for p in sorted(pitches))}"
            )
            assert (b.get("start_delay") or 0.0) <= START_DELAY, (
                f"{what}: the beep started in frame {f} is scheduled {b.get('start_delay'):.3f} s ahead on the audio "
                "clock; expected it to start the moment it should sound"
            )
            length = b.get("duration")
            if length is None and b.get("stop_frame") is not None:
                length = (b["stop_frame"] - f) * DT + (b.get("stop_delay") or 0.0)
            assert length is not None and BEEP_LEN[0] <= length <= BEEP_LEN[1] + 0.02, (
                f"{what}: the beep in frame {f} lasts {length} s; expected 0.05 s (0.03-0.1 s)"
            )
        last: int | None = None  # frame of the last beep while in the zone without a break
        for f in range(frames[0] + 1, frames[-1] + 1):
            if f not in self.depth or f - 1 not in self.depth:
                # A frame the test did not log (a walk, a turn): nothing to judge; a beep in it counts.
                last = f if f in by_frame else None
                continue
            ds = self.possible(f)
            if not any(in_zone(d) for d in ds):
                last = None
                continue
            entered = not in_zone(self.depth[f - 1]) and in_zone(self.depth[f])
            if entered and last is None and f not in by_frame and (f + 1) in self.depth:
                assert (f + 1) in by_frame, (
                    f"{what}: the distance came under 1.2 m in frame {f} ({said(ds)}) but no beep started in that "
                    f"frame or the next"
                )
            if f in by_frame:
                if last is not None:
                    gap = (f - last) * DT
                    shortest = min(band(d)[1] for d in ds if in_zone(d))
                    assert gap >= shortest - DT / 2, (
                        f"{what}: beeps in frames {last} and {f}, {gap:.3f} s apart, with the distance {said(ds)}: "
                        f"expected at least {shortest} s between them"
                    )
                last = f
                continue
            if last is not None and all(in_zone(d) for d in ds):
                due = max(band(d)[1] for d in ds)
                if (f - last) * DT >= due + 1e-9 and (f + 1) in self.depth:
                    assert (f + 1) in by_frame, (
                        f"{what}: the last beep was in frame {last}; with the distance {said(ds)} the next was due "
                        f"{due} s later, by frame {f}, but none started in frame {f} or {f + 1}"
                    )


def wait_for_depth(xr) -> Log:
    for hand in ("left", "right"):
        xr.hand(hand).hide()
    log = Log(xr)
    for _ in range(ARRIVAL_FRAMES):
        if log.read()["available"]:
            break
        log.frame()
    r = log.read()
    assert r["enabled"], "expected XR Blocks' depth sensing to be on (options.enableDepth() before xb.init)"
    assert r["available"], f"expected depth data within {ARRIVAL_FRAMES} frames of the start; none arrived"
    arrived = min(f for f, d in log.depth.items() if d is not None)
    early = sorted(b["frame"] for b in log.beeps if b["frame"] < arrived)
    assert not early, f"expected silence until depth data arrives (frame {arrived}); sounds started in frames {early}"
    return log


def wall_and_normal(xr) -> tuple[Vec, Vec]:
    """The manifest's wall point and the wall's normal into the room (snapped to an axis)."""
    wall = xr.locations()["wall"]
    dx, dz = -wall[0], -wall[2]
    n = (math.copysign(1.0, dx), 0.0, 0.0) if abs(dx) > abs(dz) else (0.0, 0.0, math.copysign(1.0, dz))
    return wall, n


def yaw_of(v) -> float:
    return math.degrees(math.atan2(-v[0], -v[2]))


def face(xr, direction: Vec, pitch: float = 0.0) -> None:
    """Turn the head (within a frame or two) to look along `direction`, `pitch` degrees up."""
    f = xr.camera_pose().forward
    turn = (yaw_of(direction) - yaw_of(f) + 180.0) % 360.0 - 180.0
    now_pitch = math.degrees(math.asin(max(-1.0, min(1.0, f[1]))))
    xr.head.rotate(yaw=turn, pitch=pitch - now_pitch, speed=FAST)


def go_to_wall(xr, log: Log) -> tuple[Vec, Vec]:
    """Stand 2 m out from the wall, eyes at 1.5 m, facing it; returns (wall, normal)."""
    wall, n = wall_and_normal(xr)
    goal = (wall[0] + 2.0 * n[0], 1.5, wall[2] + 2.0 * n[2])
    xr.head.walk([goal], speed=1.5)
    face(xr, (-n[0], 0.0, -n[2]))
    log.read()
    log.hold(3)
    return wall, n


def approach(log: Log, n: Vec, target: float, what: str) -> None:
    """Walk towards the wall (against `n`) until the distance ahead is <= target: 2 cm a frame, the
    last 15 cm 1 cm a frame."""
    __tracebackhide__ = True
    for _ in range(400):
        d = log.depth[log.xr.frame]
        if d is not None and 0.0 < d <= target:
            return
        step = 0.02 if d is not None and d > target + 0.15 else 0.01
        log.frame((-n[0] * step, 0.0, -n[2] * step))
    pytest.fail(f"{what}: the distance ahead never came down to {target} m (it is {log.depth[log.xr.frame]})")


def back_off(log: Log, n: Vec, target: float, what: str, step: float = 0.02) -> None:
    __tracebackhide__ = True
    for _ in range(400):
        d = log.depth[log.xr.frame]
        if d is not None and d >= target:
            return
        log.frame((n[0] * step, 0.0, n[2] * step))
    pytest.fail(f"{what}: the distance ahead never grew to {target} m")


def beeps_between(log: Log, start: int, end: int) -> list[int]:
    return sorted(b["frame"] for b in log.beeps if start < b["frame"] <= end)


def test_silent_far_away_then_faster_beeps_as_the_wall_comes_closer(xr):
    log = wait_for_depth(xr)
    _, n = go_to_wall(xr, log)
    start = xr.frame
    log.hold(45)
    assert not beeps_between(log, start, xr.frame), (
        f"expected silence 2 m from the wall (distance ahead {log.depth[xr.frame]}); beeps started"
    )
    approach(log, n, 1.4, "walking up to 1.4 m")
    start = xr.frame
    log.hold(40)
    assert not beeps_between(log, start, xr.frame), (
        f"expected silence at {log.depth[xr.frame]:.2f} m (1.2 m or more); beeps started"
    )
    holds = ((1.05, 100), (0.78, 75), (0.62, 40), (0.46, 40), (0.34, 25), (0.25, 25))
    for target, hold in holds:
        what = f"holding {target} m away"
        approach(log, n, target, f"walking up to {target} m")
        start = xr.frame
        log.hold(hold)
        got = beeps_between(log, start, xr.frame)
        interval = band(target)[1]
        want = int(hold * DT / interval)
        assert len(got) >= want - 1, (
            f"{what}: expected a beep every {interval} s, about {want} in {hold * DT:.1f} s; observed {len(got)}"
        )
        log.check(what)
    back_off(log, n, 1.45, "stepping back to 1.45 m")
    start = xr.frame
    log.hold(40)
    assert not beeps_between(log, start + 1, xr.frame), "expected silence again after stepping back past 1.2 m"
    log.check("stepping back out")
    assert_no_errors(xr)


def test_a_step_into_a_faster_band_brings_the_next_beep_sooner(xr):
    log = wait_for_depth(xr)
    _, n = go_to_wall(xr, log)
    approach(log, n, 1.0, "walking up to 1.0 m")
    log.hold(50)
    first = beeps_between(log, 0, xr.frame)
    assert first, "expected beeps 1.0 m from the wall"
    # Wait for a beep, let 0.15 s pass, then step 0.45 m closer within one frame (into the 0.3 s band).
    start = xr.frame
    for _ in range(60):
        log.frame()
        if beeps_between(log, start, xr.frame):
            break
    beep = beeps_between(log, start, xr.frame)[-1]
    log.hold(8)
    log.frame((-n[0] * 0.45, 0.0, -n[2] * 0.45))
    log.frame()  # the depth image of the new place is read back after the next frame
    assert 0.4 <= (log.depth[xr.frame] or 0.0) < 0.7, f"expected the step to land 0.4-0.7 m away: {log.depth[xr.frame]}"
    log.hold(29)
    after = beeps_between(log, beep, xr.frame)
    assert after, "expected a beep within 0.5 s of stepping closer"
    gap = (after[0] - beep) * DT
    assert 0.3 - DT / 2 <= gap <= 0.3 + 2 * DT, (
        f"expected the next beep 0.3 s after the last one once the user stepped into the 0.3 s band; it came "
        f"{gap:.3f} s after it"
    )
    log.check("stepping into a faster band")
    assert_no_errors(xr)


def test_turning_away_stops_it_and_turning_back_starts_it_again(xr):
    log = wait_for_depth(xr)
    _, n = go_to_wall(xr, log)
    approach(log, n, 0.9, "walking up to 0.9 m")
    log.hold(40)
    for i in range(2):
        face(xr, n)  # the wall behind, the room ahead
        log.read()
        log.hold(60)
        face(xr, (-n[0], 0.0, -n[2]))
        log.read()
        log.hold(45)
        log.check(f"turning away and back ({i + 1})")
    # Looking down at the floor standing (well over 1.2 m along the view), then crouched (under 0.7 m).
    back_off(log, n, 1.5, "stepping back to 1.5 m")
    face(xr, (-n[0], 0.0, -n[2]), pitch=-65.0)
    log.read()
    start = xr.frame
    log.hold(60)
    assert not beeps_between(log, start + 1, xr.frame), (
        f"expected silence looking down at the floor standing ({log.depth[xr.frame]} m along the view)"
    )
    while xr.camera_pose().position[1] > 0.5:
        log.frame((0.0, -0.02, 0.0))
    start = xr.frame
    log.hold(60)
    got = beeps_between(log, start, xr.frame)
    assert len(got) >= 2, (
        f"expected beeps crouched and looking at the floor {log.depth[xr.frame]} m ahead; observed {len(got)}"
    )
    log.check("looking down at the floor, standing and crouched")
    assert_no_errors(xr)
