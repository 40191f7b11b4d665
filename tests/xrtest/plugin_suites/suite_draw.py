"""Run by test_plugin.py with --xr-draw-every-frame: every stepped frame is drawn."""

import pytest

DRAWS = "(h) => h.core.renderer.info.render.frame"


@pytest.mark.xr_hands("right")
def test_every_stepped_frame_is_drawn(xr):
    assert xr.draw_every_frame
    xr.step(1)
    f0 = xr.probe(DRAWS)
    xr.step(1)
    one = xr.probe(DRAWS) - f0
    xr.step(5)
    assert one > 0 and xr.probe(DRAWS) - f0 - one == 5 * one
