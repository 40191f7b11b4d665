"""One XR test in one variant: run by test_plugin.py / test_xr_cli.py with different apps and browsers."""

import pytest


@pytest.mark.xr_hands("right")
def test_lamp_exists(xr):
    xr.step(1)
    assert xr.find_by_tag("lamp").state["on"] is False
