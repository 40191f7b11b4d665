"""The sound log (`xr.audio()`): when each sound starts, its pitch and how long it plays."""

from __future__ import annotations

import pytest

from xrbench.xrtest.errors import TamperingError

pytestmark = pytest.mark.xr

# The audio clock runs in wall-clock time and moves on between two reads in one frame: a length
# fixed by `stop(now + d)` reads as d or a little more, a delay after a later stop as d or less.
JITTER = 0.25


def test_each_sound_is_logged_with_its_frame_pitch_and_length(open_session, test_apps):
    s = open_session(test_apps / "sounds", scene="empty")
    s.step(1)
    first = s.frame
    tone, held, once, loop, part, late, cut = s.audio()
    assert [e["kind"] for e in (tone, held, once, loop, part)] == [
        "oscillator",
        "oscillator",
        "buffer",
        "buffer",
        "buffer",
    ]
    assert all(e["frame"] == first for e in (tone, held, once, loop, part, late, cut))
    assert late["start_delay"] == pytest.approx(1.0, abs=JITTER) and 0.5 - JITTER <= late["duration"] <= 0.5 + JITTER
    assert all(e["start_delay"] <= JITTER for e in (tone, held, once, loop, part, cut))
    assert 3.0 - JITTER <= cut["duration"] <= 3.0 + JITTER and cut["stop_frame"] is None
    assert tone["frequency"] == pytest.approx(440) and held["frequency"] == pytest.approx(330)
    assert 0.5 <= tone["duration"] <= 0.5 + JITTER  # playTone stops it in the frame it starts it
    assert once["duration"] == pytest.approx(0.25, abs=1e-3) and part["duration"] == pytest.approx(0.1, abs=1e-6)
    assert loop["duration"] is None and held["duration"] is None and held["stop_frame"] is None
    s.step(30)
    held, cut = s.audio()[1], s.audio()[6]
    assert held["stop_frame"] == first + 30 and held["duration"] is None
    assert 0.2 - JITTER <= held["stop_delay"] <= 0.2 + 1e-9
    # Stopped again before its 3 s were up: the later stop() is the one that counts.
    assert cut["stop_frame"] == first + 30 and cut["stop_delay"] <= JITTER and cut["duration"] >= 3.0 - JITTER
    assert len(s.audio()) == 7  # stopping is not starting
    # Stopping sounds that have ended already changes nothing (the audio clock runs in wall-clock
    # time, so wait until it is past their ends).
    s.page.wait_for_timeout(600)
    s.step(120)
    assert s.audio()[1] == held and s.audio()[6] == cut


def test_an_app_cannot_hide_a_stop_from_the_log(open_session, test_apps):
    s = open_session(test_apps / "sounds", scene="empty")
    s.step(1)
    s.page.evaluate("() => { AudioScheduledSourceNode.prototype.stop = function () {}; }")
    with pytest.raises(TamperingError, match=r"AudioScheduledSourceNode\.prototype\.stop"):
        s.step(1)
