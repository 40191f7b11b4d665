"""Run by test_plugin.py with --xr-full-frames: every stepped frame is drawn once, in full, and no call draws again."""

import pytest

RENDERS = "(h) => h.core.renderer.info.render.frame"


@pytest.mark.xr_hands("right")
def test_every_frame_is_drawn_once(xr):
    assert xr.full_frames
    xr.step(1)
    f0 = xr.probe(RENDERS)
    xr.step(1)
    one = xr.probe(RENDERS) - f0
    xr.step(5)
    assert one > 0 and xr.probe(RENDERS) - f0 - one == 5 * one
