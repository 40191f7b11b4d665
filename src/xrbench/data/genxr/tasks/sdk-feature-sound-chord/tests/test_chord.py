"""playChord: every note of a chord starts together, at once, for the given length (held-out tests).

The app (the task's own `workspace/`, held out: only the candidate's `sdk/src` is used) has two pads
at y 1.35 m, 80 cm in front of the user: `warm-pad` (x -0.12) plays
`playChord([261.63, 329.63, 392], 0.4, 0.4, 'triangle')` and `open-pad` (x +0.12)
`playChord([220, 329.63], 0.25, 0.4, 'triangle')`, on `onObjectSelectStart` (a ray pinch of either
hand).

Tones come from the harness's own sound log (`xr.audio()`: the frame an oscillator started, its
frequency and how long it plays); press frames and hands from the harness's event record. Each test
runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_no_errors, assert_state

pytestmark = pytest.mark.xr_scenes("empty")

CHORDS = {
    "warm-pad": ([261.63, 329.63, 392.0], 0.4),
    "open-pad": ([220.0, 329.63], 0.25),
}
# The log's length is read from the audio clock, which runs on in wall-clock time between two reads:
# it reads the stated length or a little more, never less.
DURATION_UNDER = 0.03  # s (the clock also moves on between a read of `currentTime` and `start`)
DURATION_OVER = 0.1  # s
SETTLE = 40  # frames: every note has ended (0.4 s = 24 frames)


@pytest.fixture
def app(xr):
    xr.step(1)
    return xr


def press_frame(xr, hand, tag, after):
    frames = [
        e.frame
        for e in xr.events()
        if e.type == "object_select_start" and e.hand == hand.handedness and e.tag == tag and e.frame > after
    ]
    assert len(frames) == 1, (
        f"expected one press of {tag!r} by the {hand.handedness} hand after frame {after}; got {frames}"
    )
    return frames[0]


def want(notes, duration, frame, what):
    return [{"freq": f, "frame": frame, "dur": duration, "what": f"{what}: {f} Hz"} for f in notes]


def check_tones(xr, since, wants, context):
    """The sounds started since log index `since` are exactly `wants`, each matched once."""
    got = xr.audio()[since:]
    shown = [
        (g["kind"], g["frequency"] and round(g["frequency"], 2), g["frame"], g["duration"] and round(g["duration"], 3))
        for g in got
    ]
    used = [False] * len(got)
    missing = []
    for w in wants:
        for i, g in enumerate(got):
            if used[i] or g["kind"] != "oscillator" or g["frequency"] is None:
                continue
            if abs(g["frequency"] - w["freq"]) > 0.5 or g["frame"] != w["frame"] or (g.get("start_delay") or 0) > 0.005:
                continue
            if g["duration"] is None or not (w["dur"] - DURATION_UNDER <= g["duration"] <= w["dur"] + DURATION_OVER):
                continue
            if g.get("stop_frame") is not None:
                # stopped later (by a `stop()` after the start frame): it ends at most then
                cut = (g["stop_frame"] - g["frame"]) / 60.0 + (g.get("stop_delay") or 0.0)
                if cut < w["dur"] - DURATION_UNDER:
                    continue
            used[i] = True
            break
        else:
            missing.append(f"{w['what']} for {w['dur']} s starting on frame {w['frame']}")
    extra = [shown[i] for i in range(len(got)) if not used[i]]
    assert not missing and not extra, (
        f"{context}: missing {missing}; unexpected sounds {extra}; observed (kind, Hz, frame, s) {shown}"
    )


@pytest.mark.fail_to_pass
def test_each_pad_plays_its_whole_chord_on_the_press_frame(app):
    xr = app
    me, other = xr.hand("dominant"), xr.hand("non_dominant")
    presses = {"warm-pad": 0, "open-pad": 0}
    for tag in ("warm-pad", "open-pad", "warm-pad"):
        notes, dur = CHORDS[tag]
        for hand in (me, other):
            hand.point_to(tag)
            n, before = len(xr.audio()), xr.frame
            hand.start_select(1)
            f = press_frame(xr, hand, tag, before)
            xr.step(SETTLE)  # a held pinch plays nothing more
            hand.end_select(5)
            presses[tag] += 1
            check_tones(
                xr,
                n,
                want(notes, dur, f, f"{tag} pressed by the {hand.handedness} hand"),
                f"{hand.handedness} hand pinched {tag} once on frame {f} and held the pinch {SETTLE} frames",
            )
    for tag, count in presses.items():
        assert_state(xr, tag, presses=count)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_both_hands_press_both_pads_on_one_frame(app):
    xr = app
    me, other = xr.hand("dominant"), xr.hand("non_dominant")
    me.point_to("warm-pad")
    other.point_to("open-pad")
    n, before = len(xr.audio()), xr.frame
    me.start_select(0)
    other.start_select(1)
    fa = press_frame(xr, me, "warm-pad", before)
    fb = press_frame(xr, other, "open-pad", before)
    assert fa == fb, f"expected both presses on one frame; observed frames {fa} and {fb}"
    xr.step(SETTLE)
    me.end_select(0)
    other.end_select(5)
    check_tones(
        xr,
        n,
        want(*CHORDS["warm-pad"], fa, f"warm-pad ({me.handedness} hand)")
        + want(*CHORDS["open-pad"], fb, f"open-pad ({other.handedness} hand)"),
        "both pads pressed on one frame by the two hands",
    )

    # Pressed again, one frame apart (the other hand first): each chord again, at its own frame.
    n, before = len(xr.audio()), xr.frame
    other.start_select(1)
    me.start_select(1)
    fb = press_frame(xr, other, "open-pad", before)
    fa = press_frame(xr, me, "warm-pad", before)
    assert fa == fb + 1, f"expected the warm pad one frame after the open pad; observed {fb} and {fa}"
    xr.step(SETTLE)
    me.end_select(0)
    other.end_select(5)
    check_tones(
        xr,
        n,
        want(*CHORDS["warm-pad"], fa, f"warm-pad ({me.handedness} hand)")
        + want(*CHORDS["open-pad"], fb, f"open-pad ({other.handedness} hand)"),
        "the open pad, then one frame later the warm pad",
    )
    assert_no_errors(xr)
