"""Runtime tests of the pinch metronome.

Every click comes from the harness's own log of the sounds the page starts (`xr.audio()`: the frame
an oscillator started, its frequency, any scheduled start delay and how long it plays); the frame
each pinch began, and by which hand, from the harness's event record (XR Blocks' `select_start`).
The tests step every frame themselves, with frame lengths they choose, so they know the virtual time
of every frame (`Timeline`): beat n of a run is due n x 0.5 s after the frame of its starting pinch,
and its click must start in the first frame at or after that moment (1 ms of slack for rounding) or
in the frame after, never earlier; a scheduled start (a `start(when)` in the future) does not count
as starting.

They check that
- moving the hands without pinching, and waiting, plays nothing; a pinch starts the metronome, the
  first click (1760 Hz) in the pinch's frame or the next, then a click on every beat, 1760 Hz on
  beats 0, 4, 8, ... and 880 Hz on the others (within 1 %), each 0.03-0.1 s long; the next pinch
  stops it;
- over 50 beats with frames of uneven lengths (11 to 33 ms, changing every few frames) every beat
  still clicks in its frame or the next: no drift, no frame counting, no extra or missing click;
- a stopping pinch that falls in the very frame of a beat silences that beat and everything after;
  the next start (by the other hand) begins a new bar with the high click at once, also after a
  stop in the middle of a bar;
- a pinch held three seconds toggles once (the metronome keeps running), its release does nothing;
  the other hand's pinch while it is held stops it; and the other way round, one hand holding its
  pinch while the other starts and stops the metronome.
Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

DT = 1000.0 / 60.0  # ms: the harness's default frame
BEAT_MS = 500.0  # "120 beats per minute": beat n is n x 0.5 s after the starting pinch
SLACK_MS = 1.0  # rounding slack for "at or after the beat's moment"
ACCENT_HZ, BEAT_HZ = 1760.0, 880.0
PITCH_TOL = 0.01  # "each within 1 %"
START_DELAY = 0.005  # s: "not scheduled for later" (the audio clock moves on between two reads)
SHORTEST, LONGEST = 0.03, 0.1  # s: "stops no sooner than 0.03 s and no later than 0.1 s after it starts"


# --- time ---------------------------------------------------------------------------------------


class Timeline:
    """The virtual time (ms, from the test's first frame) of every frame the test has stepped."""

    def __init__(self, xr) -> None:
        self.xr = xr
        xr.step(1)
        self.t = {xr.frame: 0.0}
        self.last = xr.frame

    def step(self, frames: int, dt: float = DT) -> int:
        before = self.sync()
        if frames > 0:
            self.xr.step(frames, dt)
        now = self.xr.frame
        assert now == before + frames, f"stepped {frames} frame(s) from frame {before}, the app ran {now - before}"
        for f in range(before + 1, now + 1):
            self.t[f] = self.t[f - 1] + dt
        self.last = now
        return now

    def sync(self) -> int:
        """Frames a hand action stepped by itself ran at the default frame length."""
        now = self.xr.frame
        for f in range(self.last + 1, now + 1):
            self.t[f] = self.t[f - 1] + DT
        self.last = now
        return now

    def first_at_or_after(self, ms: float) -> int | None:
        """The first stepped frame whose time is at or after `ms` (less the rounding slack)."""
        for f in range(min(self.t), self.last + 1):
            if self.t[f] >= ms - SLACK_MS:
                return f
        return None

    def frame_before(self, ms: float) -> int:
        """How many default frames to step so that the next frame is the first at or after `ms`."""
        n = 0
        while self.t[self.last] + (n + 1) * DT < ms - SLACK_MS:
            n += 1
        return n


# --- reading ------------------------------------------------------------------------------------


def pinch(xr, tl: Timeline, role: str, release: bool = False) -> int:
    """Pinch (or release) with `role`'s hand in the next frame; the frame XR Blocks reported the pinch."""
    hand, h = xr.hand(role), xr.handedness(role)
    before = tl.sync()
    if release:
        hand.end_select(0)
        tl.step(1)
        return before + 1
    hand.start_select(0)
    tl.step(1)
    frames = [e.frame for e in xr.events("select_start") if e.hand == h and e.frame > before]
    assert len(frames) == 1, f"expected one pinch of the {h} hand after frame {before}; observed frames {frames}"
    return frames[0]


def length(tl: Timeline, e: dict) -> float | None:
    """How long a logged sound plays (s); None while nothing has stopped it."""
    ends = []
    if e["duration"] is not None:
        ends.append(e["duration"])
    if e["stop_frame"] is not None:
        ends.append((tl.t[e["stop_frame"]] - tl.t[e["frame"]]) / 1000 + (e["stop_delay"] or 0.0))
    return min(ends) if ends else None


def describe(tl: Timeline, found: list[dict]) -> str:
    out = []
    for e in found[:12]:
        hz = f"{e['frequency']:.0f} Hz" if e["frequency"] else f"a {e['kind']} sound of unknown pitch"
        n = length(tl, e)
        at = tl.t.get(e["frame"])
        out.append(
            f"{hz} in frame {e['frame']}"
            + (f" (t={at:.1f} ms)" if at is not None else "")
            + (f", scheduled {e['start_delay']:.3f} s later" if (e["start_delay"] or 0) > START_DELAY else "")
            + (", still playing" if n is None else f", {n:.3f} s long")
        )
    more = f" and {len(found) - 12} more" if len(found) > 12 else ""
    return "; ".join(out) + more if out else "nothing"


def pitch_of(beat: int) -> float:
    return ACCENT_HZ if beat % 4 == 0 else BEAT_HZ


def assert_silent(xr, tl: Timeline, since: int, when: str) -> None:
    __tracebackhide__ = True
    found = xr.audio()[since:]
    assert not found, f"{when}: expected silence; observed {describe(tl, found)}"


def assert_run(xr, tl: Timeline, since: int, start: int, stop: int | None, when: str) -> None:
    """The sounds since log index `since` are exactly the clicks of a run started by the pinch in frame
    `start` and stopped by the pinch in frame `stop` (None: still running): one per beat due, in the
    first frame at or after its moment or the next, at its pitch, started at once."""
    __tracebackhide__ = True
    found = xr.audio()[since:]
    t0 = tl.t[start]
    end = tl.last if stop is None else stop - 1  # the last frame a click may start in
    want: list[tuple[int, int, int]] = []  # (beat, earliest frame, latest frame)
    n = 0
    while True:
        first = tl.first_at_or_after(t0 + n * BEAT_MS)
        if first is None or first > end:
            break
        want.append((n, first, first + 1))
        n += 1
    for e in found:
        delay = e["start_delay"] or 0.0
        assert delay <= START_DELAY, (
            f"{when}: expected every click to start at once, in the frame it is played; observed one scheduled "
            f"{delay:.3f} s after its start() call: {describe(tl, [e])}"
        )
        if stop is not None:
            assert e["frame"] < stop, (
                f"{when}: expected no click from the stopping pinch (frame {stop}, t={tl.t[stop]:.1f} ms) on; "
                f"observed {describe(tl, [e])}"
            )
    left = list(found)
    for beat, lo, hi in want:
        # The last beat's window may reach past what the test has stepped: it may still come.
        pending = hi > end
        due = f"beat {beat} (due t={t0 + beat * BEAT_MS:.1f} ms, in frame {lo} or {hi})"
        match = [e for e in left if lo <= e["frame"] <= hi]
        if not match and pending:
            continue
        assert match, (
            f"{when}: the run started by the pinch in frame {start} (t={t0:.1f} ms) expected a click on {due}; "
            f"observed {describe(tl, found)}"
        )
        assert len(match) == 1, f"{when}: expected one click on {due}; observed {describe(tl, match)}"
        e = match[0]
        hz = e["frequency"]
        assert hz and abs(hz - pitch_of(beat)) <= PITCH_TOL * pitch_of(beat), (
            f"{when}: expected {pitch_of(beat):.0f} Hz on beat {beat} of the run started in frame {start} "
            f"(1760 Hz on beats 0, 4, 8, ..., 880 Hz on the others); observed {describe(tl, [e])}"
        )
        left.remove(e)
    assert not left, (
        f"{when}: the run started by the pinch in frame {start} (t={t0:.1f} ms) expected clicks only on its beats "
        f"{[(b, lo, hi) for b, lo, hi in want[:12]]} (beat, first frame, last frame); these clicks are extra: "
        f"{describe(tl, left)}"
    )


def assert_lengths(xr, tl: Timeline, since: int, when: str) -> None:
    __tracebackhide__ = True
    found = xr.audio()[since:]
    for e in found:
        n = length(tl, e)
        if n is None and tl.last - e["frame"] < 12:
            continue  # still sounding for less than 0.2 s: judged later
        assert n is not None and SHORTEST <= n <= LONGEST, (
            f"{when}: expected every click to last 0.05 s (stopping {SHORTEST}-{LONGEST} s after it starts); "
            f"observed {describe(tl, [e])}"
        )


# --- tests --------------------------------------------------------------------------------------


def test_silent_until_a_pinch_then_clicks_from_that_moment(xr):
    tl = Timeline(xr)
    since = len(xr.audio())
    # Hands moving about, open and pointing, without pinching; then a wait: silence.
    for role in ("dominant", "non_dominant"):
        side = 1.0 if xr.handedness(role) == "right" else -1.0
        hand = xr.hand(role)
        hand.move_hand((0.2 * side, 1.3, -0.4))
        hand.set_pose("pointing")
        hand.move_hand((0.1 * side, 1.4, -0.3))
        hand.set_pose("relaxed")
    tl.sync()
    tl.step(60)
    assert_silent(xr, tl, since, "before any pinch (hands moving without pinching, then one second)")
    # A pinch of the dominant hand starts it: the first click at once.
    start = pinch(xr, tl, "dominant")
    assert_run(xr, tl, since, start, None, "the frame of the starting pinch")
    tl.step(1)
    found = xr.audio()[since:]
    assert found, f"expected the first click in the frame of the starting pinch ({start}) or the next; observed none"
    assert_run(xr, tl, since, start, None, "the frame after the starting pinch")
    tl.step(15)
    pinch(xr, tl, "dominant", release=True)
    # 4.5 s of beats, checked every quarter of a second.
    for _ in range(18):
        tl.step(15)
        assert_run(xr, tl, since, start, None, "a run of the metronome at 60 frames per second")
        assert_lengths(xr, tl, since, "a run of the metronome")
    # The next pinch stops it, between two beats.
    tl.step(7)
    stop = pinch(xr, tl, "dominant")
    pinch(xr, tl, "dominant", release=True)
    tl.step(120)
    assert_run(xr, tl, since, start, stop, "stopped by the dominant hand's second pinch, then two seconds")
    assert_lengths(xr, tl, since, "a run of the metronome, stopped")
    assert_no_errors(xr)


def test_a_steady_tempo_without_drift_at_any_frame_rate(xr):
    tl = Timeline(xr)
    tl.step(10)
    since = len(xr.audio())
    start = pinch(xr, tl, "non_dominant")
    tl.step(2)
    pinch(xr, tl, "non_dominant", release=True)
    # Frames of uneven lengths, changing every few frames, for 25 s (50 beats).
    pattern = [(7, 25.0), (5, 19.0), (9, 31.0), (4, 22.0), (6, 16.0), (8, 28.0), (5, 33.0), (11, 11.1), (3, 23.5)]
    k = 0
    while tl.t[tl.last] - tl.t[start] < 50 * BEAT_MS + 100:
        frames, dt = pattern[k % len(pattern)]
        tl.step(frames, dt)
        k += 1
        if k % 9 == 0:
            assert_run(xr, tl, since, start, None, "a run with frames of uneven lengths (11-33 ms)")
    assert_run(xr, tl, since, start, None, "50 beats with frames of uneven lengths (11-33 ms)")
    assert_lengths(xr, tl, since, "50 beats with frames of uneven lengths")
    clicks = len(xr.audio()) - since
    assert clicks >= 51, f"expected at least 51 clicks (beats 0-50) in 25 s of running; observed {clicks}"
    assert_no_errors(xr)


def test_the_stopping_pinch_silences_at_once_and_a_restart_begins_a_new_bar(xr):
    tl = Timeline(xr)
    tl.step(5)
    me, other = "dominant", "non_dominant"
    for k, (starter, stopper, beat) in enumerate(((me, me, 6), (other, me, 4), (me, other, 3))):
        since = len(xr.audio())
        start = pinch(xr, tl, starter)
        tl.step(3)
        pinch(xr, tl, starter, release=True)
        # Step up to the frame before beat `beat` falls due, then pinch in the very frame of that beat.
        due = tl.t[start] + beat * BEAT_MS
        tl.step(tl.frame_before(due))
        stop = pinch(xr, tl, stopper)
        assert stop == tl.first_at_or_after(due), f"the stopping pinch missed the frame of beat {beat}"
        when = (
            f"run {k + 1}: started by the {starter} hand, stopped by the {stopper} hand in the frame of beat {beat} "
            f"(frame {stop})"
        )
        assert_run(xr, tl, since, start, stop, when)
        tl.step(3)
        pinch(xr, tl, stopper, release=True)
        tl.step(150)
        assert_run(xr, tl, since, start, stop, f"{when}, then 2.5 s")
        assert_lengths(xr, tl, since, when)
    assert_no_errors(xr)


def test_a_held_pinch_toggles_once_and_the_other_hand_toggles_while_it_is_held(xr):
    tl = Timeline(xr)
    tl.step(5)
    for holder, other in (("dominant", "non_dominant"), ("non_dominant", "dominant")):
        h, o = xr.handedness(holder), xr.handedness(other)
        # The holding hand pinches and holds three seconds: the metronome starts and keeps running.
        since = len(xr.audio())
        start = pinch(xr, tl, holder)
        for _ in range(6):
            tl.step(30)
            assert_run(xr, tl, since, start, None, f"the {h} hand's pinch, held (a held pinch toggles once)")
        # The other hand pinches while it is held: that stops it.
        tl.step(11)
        stop = pinch(xr, tl, other)
        tl.step(60)
        assert_run(xr, tl, since, start, stop, f"the {h} hand holding its pinch, the {o} hand pinching")
        # Releasing both does nothing.
        pinch(xr, tl, other, release=True)
        tl.step(20)
        pinch(xr, tl, holder, release=True)
        tl.step(90)
        assert_run(xr, tl, since, start, stop, f"after the {o} hand stopped it, both hands released")
        assert_lengths(xr, tl, since, f"the {h} hand holding its pinch")
        # Held again (a start), and the other hand stops and starts it twice while it is held.
        since = len(xr.audio())
        start = pinch(xr, tl, holder)
        tl.step(45)
        assert_run(xr, tl, since, start, None, f"the {h} hand's second pinch (a start), held 0.75 s")
        for k in range(2):
            stop = pinch(xr, tl, other)
            tl.step(20)
            pinch(xr, tl, other, release=True)
            tl.step(40)
            assert_run(
                xr, tl, since, start, stop, f"the {o} hand's pinch {2 * k + 1} (a stop) while the {h} hand holds"
            )
            since = len(xr.audio())
            start = pinch(xr, tl, other)
            tl.step(50)
            pinch(xr, tl, other, release=True)
            tl.step(40)
            assert_run(
                xr, tl, since, start, None, f"the {o} hand's pinch {2 * k + 2} (a start) while the {h} hand holds"
            )
        stop = pinch(xr, tl, other)
        pinch(xr, tl, other, release=True)
        pinch(xr, tl, holder, release=True)
        tl.step(60)
        assert_run(xr, tl, since, start, stop, f"the {o} hand's fifth pinch (a stop), then both hands released")
    assert_no_errors(xr)
