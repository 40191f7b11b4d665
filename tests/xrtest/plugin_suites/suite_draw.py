"""Run by test_plugin.py with --xr-defer-drawing: a harness call draws once, however many frames it steps."""

import pytest

DRAWS = "(h) => h.core.renderer.info.render.frame"


@pytest.mark.xr_hands("right")
def test_a_call_draws_once(xr):
    assert xr.defer_drawing
    xr.step(1)
    f0 = xr.probe(DRAWS)
    xr.step(1)
    one = xr.probe(DRAWS) - f0
    xr.step(5)
    assert one > 0 and xr.probe(DRAWS) - f0 - one == one
