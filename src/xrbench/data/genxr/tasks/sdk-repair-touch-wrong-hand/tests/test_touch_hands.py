"""Direct touch and touch-grab belong to the hand whose fingertip is in contact (held-out tests).

The app (the task's own `workspace/`) has a button tagged `poke-button` whose state records the
hand of the last press (from the touch event's `handIndex`, or the ray source's handedness) and a
cube tagged `grab-cube` that follows the hand which grabbed it.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_color, assert_follows_hand, assert_no_errors, assert_state

COLORS = {"left": "#3399ff", "right": "#ff8800"}


@pytest.fixture
def app(xr):
    xr.step(1)  # hands placed
    return xr


@pytest.mark.fail_to_pass
def test_a_poke_is_reported_for_the_poking_hand(app):
    me, other = app.handedness("dominant"), app.handedness("non_dominant")
    hand = app.hand("dominant")
    hand.reach_to("poke-button")
    assert_state(app, "poke-button", presses=1, lastHand=me, via="touch")
    assert_color(app, "poke-button", COLORS[me])
    hand.rest()
    app.hand("non_dominant").reach_to("poke-button")
    assert_state(app, "poke-button", presses=2, lastHand=other, via="touch")
    assert_color(app, "poke-button", COLORS[other])
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_pinching_with_the_touching_hand_grabs_and_carries_the_cube(app):
    me = app.handedness("dominant")
    hand = app.hand("dominant")
    hand.reach_to("grab-cube", depth=0.04)
    hand.pinch()
    assert_state(app, "grab-cube", grabbed=True, grabs=1, hand=me)
    x, y, z = hand.position
    assert_follows_hand(app, "grab-cube", hand, [(x, y + 0.12, z), (x - 0.08, y + 0.15, z + 0.06)], max_deviation=0.01)
    hand.release()
    assert_state(app, "grab-cube", grabbed=False, grabs=1)
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_a_ray_click_is_reported_for_the_clicking_hand(app):
    me = app.handedness("dominant")
    app.hand("dominant").click("poke-button")
    assert_state(app, "poke-button", presses=1, lastHand=me, via="ray")
    assert_color(app, "poke-button", COLORS[me])
    assert_state(app, "grab-cube", grabbed=False, grabs=0)
    assert_no_errors(app)
