"""Runtime tests of the pinch chime.

Every sound comes from the harness's own log of the sounds the page starts (`xr.audio()`: the frame
an oscillator started, its frequency, any scheduled start delay and how long it plays); the frame
each pinch began, and by which hand, from the harness's event record (XR Blocks' `select_start`).

They check that
- moving the hands (open, pointing) without pinching plays nothing;
- a pinch of the dominant hand, then of the non-dominant hand, each plays exactly one tone, in the
  frame of the pinch or the next, with no scheduled delay, at that hand's pitch (left 440 Hz, right
  660 Hz, within 1 %), lasting 0.2-0.4 s; holding the pinch two seconds repeats nothing, releasing it
  plays nothing, and the next pinch plays again;
- both hands pinching in the same frame play two tones, one of each pitch, each its full length;
  while one hand holds its pinch the other hand's pinches each play its own tone, and releasing
  plays nothing;
- quick pinches one right after another (0.1 s apart), of one hand and of alternating hands, each
  play their tone at once and at full length.
Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

PITCH = {"left": 440.0, "right": 660.0}
PITCH_TOL = 0.01  # relative: "within 1 %"
LATE_FRAMES = 1  # "in the frame XR Blocks reports the pinch, or at the latest in the next frame"
START_DELAY = 0.005  # s: "not scheduled for later" (the audio clock moves on between two reads)
SHORTEST, LONGEST = 0.2, 0.4  # s: "stops no sooner than 0.2 s and no later than 0.4 s after it starts"
HOLD = 120  # frames a pinch is held (two seconds)


# --- reading ------------------------------------------------------------------------------------


def sounds(xr, since: int) -> list[dict]:
    """Every sound started since log index `since`."""
    return xr.audio()[since:]


def length(xr, e: dict) -> float | None:
    """How long a logged sound plays (s): fixed when it started and/or cut by a later stop();
    None while nothing has stopped it."""
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


def pinch_frame(xr, handedness: str, after: int) -> int:
    """The frame of the one pinch (select start) of `handedness` after frame `after`."""
    frames = [e.frame for e in xr.events("select_start") if e.hand == handedness and e.frame > after]
    assert len(frames) == 1, (
        f"expected one pinch of the {handedness} hand after frame {after}; observed pinches in frames {frames}"
    )
    return frames[0]


def is_pitch(e: dict, handedness: str) -> bool:
    hz = e["frequency"]
    return bool(hz) and abs(hz - PITCH[handedness]) <= PITCH_TOL * PITCH[handedness]


def assert_tones(xr, since: int, pinches: list[tuple[str, int]], when: str) -> None:
    """The sounds since `since` are exactly one tone per pinch (handedness, frame): at that hand's
    pitch, starting in the pinch's frame or the next with no scheduled delay."""
    __tracebackhide__ = True
    found = sounds(xr, since)
    want = ", ".join(f"{PITCH[h]:.0f} Hz (the {h} hand) in frame {f} or {f + LATE_FRAMES}" for h, f in pinches)
    assert len(found) == len(pinches), (
        f"{when}: expected {len(pinches)} tone(s), {want}; observed {len(found)}: {describe(xr, found)}"
    )
    left = list(found)
    for h, f in pinches:
        match = [e for e in left if is_pitch(e, h) and f <= e["frame"] <= f + LATE_FRAMES]
        assert match, (
            f"{when}: expected a tone of {PITCH[h]:.0f} Hz (+-{PITCH_TOL:.0%}) for the {h} hand's pinch in frame {f}, "
            f"starting in frame {f} or {f + LATE_FRAMES}; observed {describe(xr, found)}"
        )
        e = match[0]
        left.remove(e)
        delay = e["start_delay"] or 0.0
        assert delay <= START_DELAY, (
            f"{when}: expected the {h} hand's tone to start at once (no scheduled delay); observed it scheduled "
            f"{delay:.3f} s after its start() call"
        )


def assert_lengths(xr, since: int, when: str) -> None:
    """Every sound since `since` has stopped, 0.2-0.4 s after it started."""
    __tracebackhide__ = True
    found = sounds(xr, since)
    for e in found:
        n = length(xr, e)
        assert n is not None and SHORTEST <= n <= LONGEST, (
            f"{when}: expected every tone to last 0.25 s (stopping {SHORTEST}-{LONGEST} s after it starts); "
            f"observed {describe(xr, found)}"
        )


# --- tests --------------------------------------------------------------------------------------


def test_a_pinch_of_either_hand_plays_its_tone_once_at_once(xr):
    xr.step(1)
    start = len(xr.audio())
    # Hands moving about, open and pointing, without pinching: silence.
    for role in ("dominant", "non_dominant"):
        side = 1.0 if xr.handedness(role) == "right" else -1.0
        hand = xr.hand(role)
        hand.move_hand((0.2 * side, 1.3, -0.4))
        hand.set_pose("pointing")
        hand.move_hand((0.1 * side, 1.4, -0.3))
        hand.set_pose("relaxed")
    found = sounds(xr, start)
    assert not found, f"expected no sound while the hands moved without pinching; observed {describe(xr, found)}"
    for role in ("dominant", "non_dominant"):
        hand = xr.hand(role)
        h = xr.handedness(role)
        for k in range(2):  # a pinch, held and released, then a second one
            since, before = len(xr.audio()), xr.frame
            hand.start_select(1)
            xr.step(LATE_FRAMES)
            f = pinch_frame(xr, h, before)
            what = f"the {role} ({h}) hand's {'first' if k == 0 else 'second'} pinch"
            assert_tones(xr, since, [(h, f)], what)
            xr.step(HOLD)
            assert_tones(xr, since, [(h, f)], f"{what}, held two seconds (no repeat)")
            assert_lengths(xr, since, what)
            hand.end_select(30)
            assert_tones(xr, since, [(h, f)], f"{what}, released (releasing plays nothing)")
    assert_no_errors(xr)


def test_both_hands_pinching_together_play_both_tones(xr):
    xr.step(1)
    me, other = xr.hand("dominant"), xr.hand("non_dominant")
    mine, theirs = xr.handedness("dominant"), xr.handedness("non_dominant")
    # Both at once, in the same frame.
    since, before = len(xr.audio()), xr.frame
    other.start_select(0)
    me.start_select(1)
    xr.step(LATE_FRAMES)
    f1, f2 = pinch_frame(xr, mine, before), pinch_frame(xr, theirs, before)
    assert f1 == f2, f"the two pinches did not fall in one frame: {f1}, {f2}"
    assert_tones(xr, since, [(mine, f1), (theirs, f2)], "both hands pinching in the same frame")
    xr.step(60)
    assert_lengths(xr, since, "both hands pinching in the same frame")
    other.end_select(0)
    me.end_select(20)
    assert_tones(xr, since, [(mine, f1), (theirs, f2)], "after both hands released (releasing plays nothing)")
    # The non-dominant hand holds its pinch while the dominant hand pinches twice.
    since, before = len(xr.audio()), xr.frame
    other.start_select(1)
    xr.step(LATE_FRAMES)
    pinches = [(theirs, pinch_frame(xr, theirs, before))]
    assert_tones(xr, since, pinches, f"the non-dominant ({theirs}) hand's pinch")
    for k in range(2):
        before = xr.frame
        me.start_select(1)
        xr.step(LATE_FRAMES)
        pinches.append((mine, pinch_frame(xr, mine, before)))
        assert_tones(
            xr, since, pinches, f"the dominant ({mine}) hand's pinch {k + 1} while the {theirs} hand holds its pinch"
        )
        xr.step(30)
        me.end_select(10)
    xr.step(60)
    other.end_select(20)
    assert_tones(xr, since, pinches, f"after the {theirs} hand held its pinch through two pinches of the {mine} hand")
    assert_lengths(xr, since, "one hand pinching while the other holds its pinch")
    assert_no_errors(xr)


def test_quick_pinches_one_after_another_each_play(xr):
    xr.step(1)
    since = len(xr.audio())
    pinches = []
    for k, role in enumerate(("dominant", "dominant", "dominant", "non_dominant", "dominant", "non_dominant")):
        hand, h = xr.hand(role), xr.handedness(role)
        before = xr.frame
        hand.start_select(3)  # 0.05 s closed ...
        pinches.append((h, pinch_frame(xr, h, before)))
        assert_tones(xr, since, pinches, f"quick pinch {k + 1} ({role} hand, {h}), 0.1 s after the last")
        hand.end_select(3)  # ... 0.05 s open
    xr.step(40)
    assert_tones(xr, since, pinches, "after six quick pinches")
    assert_lengths(xr, since, "six quick pinches")
    assert_no_errors(xr)
