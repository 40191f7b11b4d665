"""Run by tests/xrtest/test_plugin.py in a pytest subprocess against examples/tap_to_light.

Named suite_*.py so that the repository's own test run never collects it.
"""

import pytest


@pytest.mark.xr_scenes("empty", "kitchen")
def test_lamp_starts_off(xr):
    xr.step(2)
    assert xr.find_by_tag("lamp").state == {"on": False, "toggles": 0}
    assert xr.scene is not None and xr.variant.scene == xr.scene.name
    assert xr.dominant_hand == xr.variant.hand


@pytest.mark.xr_hands("right")
def test_lamp_is_on(xr):
    xr.step(1)
    xr.keyframe("before-check")
    assert xr.find_by_tag("lamp").state["on"], "the lamp is off"


@pytest.mark.xr_hands("left")
@pytest.mark.xr_timeout(2)
def test_hangs_in_the_page(xr):
    xr.evaluate("() => { while (true) {} }")
