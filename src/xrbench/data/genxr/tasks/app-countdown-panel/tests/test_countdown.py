"""Runtime tests of the countdown panel.

Every tone comes from the harness's own log of the sounds the page starts (`xr.audio()`: the frame
an oscillator started, its frequency, any scheduled start delay, how long it plays); the frame of
each pinch from the harness's event record (XR Blocks' `select_start`). The tests step every frame
themselves with frame lengths they choose, so they know the virtual time of every frame: a sound due
t seconds after the pinch must start in the first frame at or after that moment (1 ms of slack) or
the frame after it, never earlier. The bar is read every frame from its world bounding box.

They check that
- the app starts with no cylinder; the two meshes tagged 'countdown-button' (state.seconds 3 and 5)
  are at least 6 x 4 cm (checked to 5 x 3.5 cm), side by side, not overlapping, their panel's centre
  0.4-1.0 m ahead, at most 0.3 m to the side and 0.1-0.5 m below the eyes (within 2 cm); the bar
  (tagged 'countdown-bar') is hidden and nothing plays for two seconds, while the hands point at the
  buttons without pinching, and after a pinch aimed away from them;
- a pinch on the 3 s button starts a countdown: the bar is shown, at least 2 cm high (checked to
  1.5 cm), its width 20 cm x the time left / 3 s on every frame (within 1 cm) and its left end where
  it started (within 1 cm); a 1000 Hz tick (within 1 %, 0.03-0.1 s long) at 1 s and 2 s, a 660 Hz
  alarm (0.4-0.6 s long) at 3 s, the bar hidden by the frame after that, then silence; the 5 s
  button the same with ticks at 1-4 s, at 30 frames per second, with the other hand;
- the other button pressed in the middle of a countdown restarts it with its length from that
  pinch (the old countdown's ticks and alarm never come); the running countdown's button cancels
  it: the bar hidden by the next frame, and nothing plays afterwards.

Each test runs for a right- and a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

BUTTON, BAR = "countdown-button", "countdown-bar"
TICK_HZ, ALARM_HZ = 1000.0, 660.0
TICK_LEN, ALARM_LEN = (0.03, 0.1), (0.4, 0.6)
FULL = 0.2
WIDTH_TOL = 0.01
AHEAD, SIDE_MAX, BELOW, SLACK = (0.4, 1.0), 0.3, (0.1, 0.5), 0.02
DT = 1000.0 / 60.0
SLACK_MS = 1.0
START_DELAY = 0.005  # seconds: a start scheduled later than this does not count as starting

Vec = tuple[float, float, float]


def _fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def centre(box) -> Vec:
    return tuple((box[0][i] + box[1][i]) / 2 for i in range(3))  # type: ignore[return-value]


class Clock:
    """The virtual time (ms) of every frame the test steps."""

    def __init__(self, xr):
        self.xr = xr
        self.t = {xr.frame: 0.0}
        self.last = xr.frame

    def sync(self) -> int:
        """Frames a hand action stepped by itself ran at the default frame length."""
        now = self.xr.frame
        for f in range(self.last + 1, now + 1):
            self.t[f] = self.t[f - 1] + DT
        self.last = now
        return now

    def step(self, dt: float = DT) -> int:
        self.sync()
        self.xr.step(1, dt)
        self.t[self.xr.frame] = self.t[self.last] + dt
        self.last = self.xr.frame
        return self.last


def buttons(xr) -> dict[int, object]:
    found = {}
    for node in xr.find_all_by_tag(BUTTON):
        state = node.state if isinstance(node.state, dict) else {}
        found[state.get("seconds")] = node
    assert 3 in found and 5 in found, (
        f"expected two objects tagged {BUTTON!r} with state.seconds 3 and 5; observed {sorted(map(str, found))}"
    )
    return found


def aim(xr, clock: Clock, role: str, seconds: int | None) -> None:
    """Point `role`'s hand at the button of `seconds` (a spot off its centre), or away (None)."""
    hand = xr.hand(role)
    if seconds is None:
        p = hand.position
        hand.point_to((p[0] * 3, 0.0, p[2] + 0.5))
    else:
        lo, hi = buttons(xr)[seconds].bbox
        c = centre((lo, hi))
        hand.point_to((c[0] + 0.25 * (hi[0] - lo[0]) / 2, c[1] - 0.2 * (hi[1] - lo[1]) / 2, c[2]))
    clock.sync()


def pinch(xr, clock: Clock, role: str, dt: float = DT) -> int:
    """Pinch with `role`'s hand in the next frame; the frame XR Blocks reported it."""
    before = clock.sync()
    xr.hand(role).start_select(0)
    clock.step(dt)
    h = xr.handedness(role)
    frames = [e.frame for e in xr.events("select_start") if e.hand == h and e.frame > before]
    assert len(frames) == 1, f"expected one pinch of the {h} hand after frame {before}; observed frames {frames}"
    return frames[0]


def release(xr, clock: Clock, role: str, dt: float = DT) -> None:
    xr.hand(role).end_select(0)
    clock.step(dt)


def length(clock: Clock, e: dict) -> float | None:
    ends = []
    if e["duration"] is not None:
        ends.append(e["duration"])
    if e["stop_frame"] is not None and e["stop_frame"] in clock.t:
        ends.append((clock.t[e["stop_frame"]] - clock.t[e["frame"]]) / 1000 + (e["stop_delay"] or 0.0))
    return min(ends) if ends else None


def sounds(xr, since: int) -> list[dict]:
    """Sounds started (not merely scheduled for later) since the log had `since` entries."""
    return [e for e in xr.audio()[since:] if (e["start_delay"] or 0.0) <= START_DELAY]


def describe(clock: Clock, found: list[dict], start: int) -> str:
    out = []
    for e in found[:10]:
        hz = f"{e['frequency']:.0f} Hz" if e["frequency"] else f"a {e['kind']} sound"
        at = clock.t.get(e["frame"])
        out.append(hz + (f" at {(at - clock.t[start]) / 1000:.3f} s" if at is not None else f" in frame {e['frame']}"))
    return "; ".join(out) if out else "nothing"


def bar(xr):
    return xr.find_by_tag(BAR)


def assert_bar_hidden(xr, what: str) -> None:
    __tracebackhide__ = True
    node = bar(xr)
    assert not node.visible or node.bbox is None, f"expected the bar hidden {what}; it is shown ({node.bbox})"


def run_countdown(xr, clock: Clock, role: str, seconds: int, dt: float, *, until: float | None = None) -> tuple:
    """Pinch the button of `seconds` and step frames of `dt` ms, checking the bar every frame, until
    `until` seconds after the pinch (default: 1.5 s past the end); (pinch frame, audio log index)."""
    since = len(xr.audio())
    start = pinch(xr, clock, role, dt)
    stop_at = seconds + 1.5 if until is None else until
    left0 = None
    released = False
    while (clock.t[clock.last] - clock.t[start]) / 1000 < stop_at:
        f = clock.last
        elapsed = (clock.t[f] - clock.t[start]) / 1000
        if not released and f >= start + 3:
            xr.hand(role).end_select(0)
            released = True
        node = bar(xr)
        end_ms = clock.t[start] + seconds * 1000
        if elapsed * 1000 < seconds * 1000 - SLACK_MS - dt:
            assert node.visible and node.bbox is not None, (
                f"expected the bar shown while the {seconds} s countdown runs; it is hidden {elapsed:.3f} s after the "
                "pinch"
            )
            lo, hi = node.bbox
            width, height = hi[0] - lo[0], hi[1] - lo[1]
            want = FULL * max(0.0, 1 - elapsed / seconds)
            if left0 is None:
                left0 = lo[0]
            assert abs(width - want) <= WIDTH_TOL, (
                f"expected the bar {want:.3f} m wide {elapsed:.3f} s into the {seconds} s countdown (20 cm x the "
                f"time left / {seconds} s); observed {width:.3f} m"
            )
            assert height >= 0.015, f"expected the bar at least 2 cm high; observed {height:.3f} m"
            assert abs(lo[0] - left0) <= WIDTH_TOL, (
                f"expected the bar's left end to stay put as it shrinks; it moved {lo[0] - left0:+.3f} m "
                f"{elapsed:.3f} s into the countdown"
            )
        elif clock.t[f] >= end_ms + dt - SLACK_MS and (f - 1) in clock.t and clock.t[f - 1] >= end_ms - SLACK_MS:
            assert_bar_hidden(xr, f"{elapsed:.3f} s after the pinch of a {seconds} s countdown (it is over)")
        clock.step(dt)
    return start, since


def due_frames(clock: Clock, start: int, at: float) -> tuple[int, int]:
    """The first frame at or after `at` s after frame `start`, and the one after it."""
    t0 = clock.t[start] + at * 1000 - SLACK_MS
    first = min(f for f in clock.t if f >= start and clock.t[f] >= t0)
    return first, first + 1


def assert_sounds(xr, clock: Clock, start: int, since: int, due: list[tuple[float, float, tuple]], what: str) -> None:
    """The sounds since `since` are exactly `due`: (seconds after the pinch, Hz, length range)."""
    __tracebackhide__ = True
    found = sounds(xr, since)
    heard = describe(clock, found, start)
    assert len(found) == len(due), (
        f"expected {len(due)} tones {what} ({', '.join(f'{hz:.0f} Hz at {at} s' for at, hz, _ in due)}); "
        f"observed {len(found)}: {heard}"
    )
    for e, (at, hz, span) in zip(found, due, strict=True):
        first, second = due_frames(clock, start, at)
        assert e["frame"] in (first, second), (
            f"expected the {hz:.0f} Hz tone {at} s after the pinch {what}, in frame {first} or {second}; heard: {heard}"
        )
        assert e["frequency"] and abs(e["frequency"] - hz) <= 0.01 * hz, (
            f"expected a {hz:.0f} Hz tone {at} s after the pinch {what}; heard: {heard}"
        )
        n = length(clock, e)
        assert n is not None and span[0] <= n <= span[1], (
            f"expected the {hz:.0f} Hz tone at {at} s to last {span[0]}-{span[1]} s {what}; it lasts "
            f"{'until stopped' if n is None else f'{n:.3f} s'}"
        )


def ticks(seconds: int) -> list[tuple[float, float, tuple]]:
    return [(float(k), TICK_HZ, TICK_LEN) for k in range(1, seconds)] + [(float(seconds), ALARM_HZ, ALARM_LEN)]


def test_the_panel_is_in_front_and_idle_until_a_button_is_pinched(xr):
    xr.settle()
    clock = Clock(xr)
    cylinders = [d for d in xr.drawn() if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the cylinder removed; observed {cylinders}"
    found = buttons(xr)
    head = xr.head.pose.position
    boxes = {}
    for seconds, node in found.items():
        assert node.is_mesh and node.visible, f"expected the {seconds} s button a visible mesh"
        lo, hi = node.bbox
        width, height = hi[0] - lo[0], math.hypot(hi[1] - lo[1], hi[2] - lo[2])
        assert width >= 0.05 and height >= 0.035, (
            f"expected the {seconds} s button at least 0.06 m wide and 0.04 m high; observed {width:.3f} x {height:.3f}"
        )
        boxes[seconds] = (lo, hi)
    (alo, ahi), (blo, bhi) = boxes[3], boxes[5]
    ox = min(ahi[0], bhi[0]) - max(alo[0], blo[0])
    oy = min(ahi[1], bhi[1]) - max(alo[1], blo[1])
    assert ox <= 0.003 or oy <= 0.003, f"expected the buttons not to overlap; they overlap by {ox:.3f} x {oy:.3f} m"
    ca, cb = centre(boxes[3]), centre(boxes[5])
    assert abs(ca[0] - cb[0]) > abs(ca[1] - cb[1]), "expected the two buttons side by side"
    c = tuple((ca[i] + cb[i]) / 2 for i in range(3))
    ahead, across, below = head[2] - c[2], c[0] - head[0], head[1] - c[1]
    assert AHEAD[0] - SLACK <= ahead <= AHEAD[1] + SLACK, f"expected the panel 0.4-1.0 m ahead; observed {ahead:.3f}"
    assert abs(across) <= SIDE_MAX + SLACK, f"expected the panel at most 0.3 m to the side; observed {across:+.3f} m"
    assert BELOW[0] - SLACK <= below <= BELOW[1] + SLACK, (
        f"expected the panel 0.1-0.5 m below eye height; observed {below:.3f} m (buttons' centre {_fmt(c)})"
    )
    assert_bar_hidden(xr, "at the start")
    since = len(xr.audio())
    aim(xr, clock, "dominant", 3)
    aim(xr, clock, "non_dominant", 5)
    xr.wait(1000)
    aim(xr, clock, "dominant", None)
    pinch(xr, clock, "dominant")
    for _ in range(60):
        clock.step()
    release(xr, clock, "dominant")
    xr.wait(1000)
    clock.sync()
    assert_bar_hidden(xr, "after pointing at the buttons without pinching and a pinch aimed away from them")
    found = sounds(xr, since)
    assert not found, f"expected silence until a button is pinched; heard {describe(clock, found, clock.last)}"
    assert_no_errors(xr)


def test_a_three_second_countdown_ticks_shrinks_and_rings(xr):
    xr.settle()
    clock = Clock(xr)
    aim(xr, clock, "dominant", 3)
    start, since = run_countdown(xr, clock, "dominant", 3, DT)
    assert_sounds(xr, clock, start, since, ticks(3), "of a 3 s countdown")
    assert_bar_hidden(xr, "1.5 s after a 3 s countdown ended")
    assert_no_errors(xr)


def test_a_five_second_countdown_at_thirty_frames_per_second_with_the_other_hand(xr):
    xr.settle()
    clock = Clock(xr)
    aim(xr, clock, "non_dominant", 5)
    start, since = run_countdown(xr, clock, "non_dominant", 5, 1000.0 / 30.0)
    assert_sounds(xr, clock, start, since, ticks(5), "of a 5 s countdown at 30 frames per second")
    assert_bar_hidden(xr, "1.5 s after a 5 s countdown ended")
    assert_no_errors(xr)


def test_the_other_button_restarts_and_the_same_button_cancels(xr):
    xr.settle()
    clock = Clock(xr)
    aim(xr, clock, "dominant", 5)
    aim(xr, clock, "non_dominant", 3)
    first, since = run_countdown(xr, clock, "dominant", 5, DT, until=1.5)
    assert_sounds(xr, clock, first, since, [(1.0, TICK_HZ, TICK_LEN)], "in the first 1.5 s of a 5 s countdown")
    start, since = run_countdown(xr, clock, "non_dominant", 3, DT, until=4.2)
    assert_sounds(
        xr, clock, start, since, ticks(3), "after the 3 s button restarted a 5 s countdown 1.5 s in (from that pinch)"
    )
    for _ in range(10):
        clock.step()
    again, since = run_countdown(xr, clock, "dominant", 5, DT, until=2.5)
    before = len(xr.audio())
    cancel = pinch(xr, clock, "dominant")
    clock.step()
    assert_bar_hidden(xr, "the frame after the running countdown's own button was pinched again (cancelled)")
    release(xr, clock, "dominant")
    for _ in range(240):
        clock.step()
    assert_bar_hidden(xr, "4 s after a countdown was cancelled")
    late = [e for e in sounds(xr, before) if e["frame"] > cancel]
    assert not late, f"expected nothing to play after a countdown was cancelled; heard {describe(clock, late, cancel)}"
    assert_sounds(xr, clock, again, since, [(1.0, TICK_HZ, TICK_LEN), (2.0, TICK_HZ, TICK_LEN)], "before the cancel")
    assert_no_errors(xr)
