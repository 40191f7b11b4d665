"""A UISlider's value follows the ray along the track (held-out tests).

The app (the task's own `workspace/`) has a `volume-slider` (0..1, step 0.01, starting at 0.3;
state: value, inputs, changes, lastChange) filling a 0.44 m wide card centred at (0, 1.4, -0.8),
and a `mute-button` (state: clicks) on a card centred at (0, 1.25, -0.8) that sets it to 0.
The UI has no public bounding boxes, so points on the track come from the app's fixed layout:
the track spans x = -0.196 .. 0.196 m (the card minus its 24 mm padding) at y = 1.4, z = -0.8.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_no_errors

TRACK_LEFT, TRACK_RIGHT, TRACK_Y, TRACK_Z = -0.196, 0.196, 1.4, -0.8
MUTE = (0.0, 1.25, -0.8)


def on_track(fraction: float, dy: float = 0.0) -> tuple[float, float, float]:
    return (TRACK_LEFT + fraction * (TRACK_RIGHT - TRACK_LEFT), TRACK_Y + dy, TRACK_Z)


def slider(app) -> dict:
    return app.find_by_tag("volume-slider").state


@pytest.fixture
def app(xr):
    """The app once its UI is laid out and hit-testable (UIKit loads and lays out asynchronously)."""
    xr.step(1)
    hand = xr.hand("dominant")
    hand.point_to(on_track(0.5, dy=0.015))
    for _ in range(120):
        if xr.events("hover_enter", hand="dominant", target="UISlider"):
            break
        xr.step(5)
    else:
        pytest.fail("the slider never became hoverable by the dominant hand's ray")
    return xr


@pytest.mark.fail_to_pass
def test_a_click_sets_the_value_under_the_ray(app):
    hand = app.hand("dominant")
    for fraction, dy in [(0.25, 0.0), (0.5, 0.012), (0.8, -0.01), (0.1, 0.0)]:
        hand.click(on_track(fraction, dy))
        state = slider(app)
        assert state["value"] == pytest.approx(fraction, abs=0.02), (fraction, state)
        assert state["lastChange"] == pytest.approx(fraction, abs=0.02), (fraction, state)
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_dragging_moves_the_value_with_the_ray_and_clamps_past_the_end(app):
    hand = app.hand("dominant")
    hand.point_to(on_track(0.2))
    hand.start_select(frames=6)
    assert slider(app)["value"] == pytest.approx(0.2, abs=0.02)
    hand.point_to(on_track(0.6, dy=0.01))
    state = slider(app)
    assert state["value"] == pytest.approx(0.6, abs=0.02), state
    assert state["changes"] == 0, state  # still dragging
    hand.point_to((TRACK_RIGHT + 0.15, TRACK_Y + 0.05, TRACK_Z))  # past the right end, off the card
    assert slider(app)["value"] == pytest.approx(1.0, abs=1e-6)
    hand.point_to(on_track(0.4))
    assert slider(app)["value"] == pytest.approx(0.4, abs=0.02)
    hand.end_select(frames=6)
    state = slider(app)
    assert state["changes"] == 1 and state["lastChange"] == pytest.approx(0.4, abs=0.02), state
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_the_mute_button_and_the_middle_of_the_track_work(app):
    hand = app.hand("dominant")
    assert slider(app)["value"] == pytest.approx(0.3)
    hand.click(on_track(0.5))
    state = slider(app)
    assert state["value"] == pytest.approx(0.5, abs=0.02) and state["changes"] == 1, state
    hand.click(MUTE)
    assert app.find_by_tag("mute-button").state["clicks"] == 1
    assert slider(app)["value"] == pytest.approx(0.0)
    hand.click((TRACK_LEFT - 0.012, TRACK_Y, TRACK_Z))  # on the card's padding, left of the track
    assert slider(app)["value"] == pytest.approx(0.0), "a click beside the slider must not change it"
    hand.click(on_track(0.5))
    state = slider(app)
    assert state["value"] == pytest.approx(0.5, abs=0.02) and state["changes"] == 2, state
    assert_no_errors(app)
