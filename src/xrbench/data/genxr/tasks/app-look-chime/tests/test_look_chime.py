"""Runtime tests of the look chime.

Every sound comes from the harness's own log of the sounds the page starts (`xr.audio()`: the frame
an oscillator started, its frequency, any scheduled start delay and how long it plays); the head is
turned by the harness, and every gaze angle is computed here from the head's own pose.

They check that
- looking away from the ball (to the left), nothing plays;
- turning the head onto the ball (in one frame) plays exactly one 660 Hz tone (within 1 %) within
  3 frames of the head arriving, with no scheduled delay, lasting 0.2-0.45 s; keeping the gaze on
  it two seconds repeats nothing; looking away (to the right, and down) plays nothing; looking back
  chimes again, three times in a row;
- looking 13 degrees off the ball's centre (to its side, above, below) plays nothing, and looking
  7 degrees off it in each of those directions chimes once each time (looking away in between),
  so a check of the sideways angle only, or a wider or narrower cone, fails.
Each test runs for a right- and for a left-dominant user (the hands play no part).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

BALL = (0.0, 1.5, -1.5)
PITCH = 660.0
PITCH_TOL = 0.01  # relative: "within 1 %"
LATE_FRAMES = 3  # "within 1/20 s of the head arriving"
START_DELAY = 0.005  # s: "not scheduled for later"
SHORTEST, LONGEST = 0.2, 0.45  # s
HOLD = 120  # frames the gaze is kept on the ball (two seconds)
FAST = 100000.0  # degrees/s: a head turn in one frame
AWAY_LEFT = (-2.0, 1.5, -0.5)
AWAY_RIGHT = (2.0, 1.5, -0.5)
FLOOR = (0.0, 0.0, -0.6)


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _scale(a, k):
    return (a[0] * k, a[1] * k, a[2] * k)


def _norm(a):
    n = math.sqrt(sum(x * x for x in a))
    return _scale(a, 1.0 / n)


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def gaze_point(head: Sequence[float], off: float, toward: float) -> tuple:
    """A point 2 m from the head, `off` degrees from the ball's centre; `toward`: 0 right, 90 above,
    180 left, 270 below."""
    u = _norm(_sub(BALL, head))
    right = _norm(_cross(u, (0.0, 1.0, 0.0)))
    up = _cross(right, u)
    a, b = math.radians(off), math.radians(toward)
    side = _add(_scale(right, math.cos(b)), _scale(up, math.sin(b)))
    d = _add(_scale(u, math.cos(a)), _scale(side, math.sin(a)))
    return _add(head, _scale(d, 2.0))


def length(xr, e: dict) -> float | None:
    ends = []
    if e["duration"] is not None:
        ends.append(e["duration"])
    if e["stop_frame"] is not None:
        ends.append((e["stop_frame"] - e["frame"]) * xr.dt_ms / 1000 + (e["stop_delay"] or 0.0))
    return min(ends) if ends else None


def describe(xr, found: list[dict]) -> str:
    out = []
    for e in found:
        hz = f"{e['frequency']:.1f} Hz" if e["frequency"] else f"a {e['kind']} sound of unknown pitch"
        n = length(xr, e)
        out.append(
            f"{hz} in frame {e['frame']} (start delay {e['start_delay'] or 0:.3f} s, "
            f"{'still playing' if n is None else f'{n:.3f} s long'})"
        )
    return "; ".join(out) or "nothing"


def look(xr, point) -> int:
    """Turn the head onto `point` in one frame; returns the frame the head arrived."""
    xr.head.look_at(tuple(point), speed=FAST)
    return xr.frame


def expect_silence(xr, since: int, when: str) -> None:
    __tracebackhide__ = True
    found = xr.audio()[since:]
    assert not found, f"{when}: expected no sound; observed {describe(xr, found)}"


def expect_chime(xr, since: int, arrived: int, when: str) -> None:
    """Exactly one sound since log index `since`: 660 Hz, starting by `arrived` + 3, no delay."""
    __tracebackhide__ = True
    found = xr.audio()[since:]
    assert len(found) == 1, (
        f"{when}: expected one 660 Hz chime starting within {LATE_FRAMES} frames of the head arriving in frame "
        f"{arrived}; observed {len(found)}: {describe(xr, found)}"
    )
    e = found[0]
    hz = e["frequency"]
    assert hz and abs(hz - PITCH) <= PITCH_TOL * PITCH, (
        f"{when}: expected a 660 Hz (+-1 %) tone; observed {describe(xr, found)}"
    )
    assert e["frame"] <= arrived + LATE_FRAMES, (
        f"{when}: expected the chime within {LATE_FRAMES} frames of the head arriving in frame {arrived}; "
        f"observed {describe(xr, found)}"
    )
    assert (e["start_delay"] or 0.0) <= START_DELAY, (
        f"{when}: expected the chime not scheduled for later; observed {describe(xr, found)}"
    )


def expect_lengths(xr, since: int, when: str) -> None:
    __tracebackhide__ = True
    found = xr.audio()[since:]
    for e in found:
        n = length(xr, e)
        assert n is not None and SHORTEST <= n <= LONGEST, (
            f"{when}: expected every chime to last 0.3 s (stopping {SHORTEST}-{LONGEST} s after it starts); "
            f"observed {describe(xr, found)}"
        )


def test_looking_at_the_ball_chimes_once_per_look(xr):
    look(xr, AWAY_LEFT)
    xr.step(5)
    start = len(xr.audio())
    xr.step(30)
    expect_silence(xr, start, "looking 60 degrees to the left of the ball")
    for k in range(3):
        since = len(xr.audio())
        arrived = look(xr, BALL)
        xr.step(LATE_FRAMES)
        what = f"look {k + 1} onto the ball"
        expect_chime(xr, since, arrived, what)
        xr.step(HOLD)
        expect_chime(xr, since, arrived, f"{what}, kept on it two seconds (no repeat)")
        expect_lengths(xr, since, what)
        look(xr, AWAY_RIGHT if k % 2 == 0 else FLOOR)
        xr.step(30)
        expect_chime(xr, since, arrived, f"{what}, then looking away (looking away plays nothing)")
    assert_no_errors(xr)


def test_the_chime_needs_the_gaze_within_10_degrees(xr):
    look(xr, AWAY_LEFT)
    xr.step(5)
    for toward, side in ((0, "right of"), (90, "above"), (180, "left of"), (270, "below")):
        head = xr.head.position
        since = len(xr.audio())
        look(xr, gaze_point(head, 13.0, toward))
        xr.step(20)
        expect_silence(xr, since, f"looking 13 degrees {side} the ball's centre")
        look(xr, AWAY_LEFT if toward != 180 else AWAY_RIGHT)
        xr.step(10)
        since = len(xr.audio())
        arrived = look(xr, gaze_point(head, 7.0, toward))
        xr.step(LATE_FRAMES + 20)
        expect_chime(xr, since, arrived, f"looking 7 degrees {side} the ball's centre")
        look(xr, AWAY_LEFT if toward != 180 else AWAY_RIGHT)
        xr.step(10)
        expect_chime(xr, since, arrived, f"looking 7 degrees {side} the ball's centre, then away")
    assert_no_errors(xr)
