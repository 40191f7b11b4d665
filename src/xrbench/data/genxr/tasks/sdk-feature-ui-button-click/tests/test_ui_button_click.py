"""UIButton.onClick: a select that starts and ends on the button clicks it once, on release.

The app (held out, in the task's workspace/) shows a UICard with a count ('tally-card', state
{count, adds, undos, resets}) and three UIButtons: 'add-button', 'undo-button' and 'reset-button'
(disabled until the count reaches 3). Each button's tag state has `clicks` and `center`, the
rendered centre of the button in world coordinates (UI layout is not in the object transforms).
A plain sphere 'ping' counts its own selects.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors, assert_state

pytestmark = pytest.mark.xr_scenes("empty")


def ready(xr):
    # Scripts finish their (async) initialisation between steps, and the UI renderer loads
    # asynchronously: step until the buttons are laid out (their centres apart).
    xr.step(1)
    xr.step(1)
    for _ in range(600):
        a, b = center(xr, "add-button"), center(xr, "undo-button")
        if a and b and math.dist(a, b) > 0.1:
            break
        xr.step(1)
    else:
        pytest.fail("the UI was never laid out (the buttons' centres never separated)")
    xr.wait(200)


def center(xr, tag):
    c = xr.find_by_tag(tag).state.get("center")
    return tuple(c) if c else None


@pytest.mark.fail_to_pass
def test_a_click_with_either_hand_calls_on_click_once_on_release(xr):
    ready(xr)
    hand = xr.hand("dominant")
    hand.point_to(center(xr, "add-button"))
    hand.start_select(frames=8)
    assert_state(xr, "tally-card", count=0, adds=0)  # pressed, not yet released
    hand.end_select(frames=8)
    assert_state(xr, "tally-card", count=1, adds=1)
    hand.click()  # again, still aiming at Add
    assert_state(xr, "tally-card", count=2, adds=2)
    xr.hand("non_dominant").click(center(xr, "undo-button"))
    assert_state(xr, "tally-card", count=1, adds=2, undos=1)
    assert_state(xr, "add-button", clicks=2)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_only_a_press_and_release_on_the_same_button_clicks(xr):
    ready(xr)
    hand = xr.hand("dominant")
    # Pressed on Add, released after the ray has moved off to the sphere: no click.
    hand.point_to(center(xr, "add-button"))
    hand.start_select(frames=6)
    hand.point_to("ping")
    hand.end_select(frames=6)
    assert_state(xr, "tally-card", count=0, adds=0)
    # Pressed above the card, released over Add: no click either.
    x, y, z = center(xr, "add-button")
    hand.point_to((x, y + 0.6, z))
    hand.start_select(frames=6)
    hand.point_to((x, y, z))
    hand.end_select(frames=6)
    assert_state(xr, "tally-card", count=0, adds=0)
    # A real click still works.
    hand.click()
    assert_state(xr, "tally-card", count=1, adds=1)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_a_disabled_button_ignores_clicks_until_it_is_enabled(xr):
    ready(xr)
    hand = xr.hand("dominant")
    hand.click(center(xr, "add-button"))
    assert_state(xr, "tally-card", count=1)
    hand.click(center(xr, "reset-button"))  # disabled below 3
    assert_state(xr, "tally-card", count=1, resets=0)
    assert_state(xr, "reset-button", clicks=0)
    for _ in range(2):
        hand.click(center(xr, "add-button"))
    assert_state(xr, "tally-card", count=3)
    assert_state(xr, "reset-button", disabled=False)
    xr.hand("non_dominant").click(center(xr, "reset-button"))
    assert_state(xr, "tally-card", count=0, resets=1)
    assert_state(xr, "reset-button", disabled=True)
    xr.hand("non_dominant").click()  # disabled again
    assert_state(xr, "tally-card", count=0, resets=1)
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
def test_plain_objects_still_get_their_selects(xr):
    ready(xr)
    xr.hand("dominant").click("ping")
    assert_state(xr, "ping", selects=1)
    xr.hand("non_dominant").click("ping")
    assert_state(xr, "ping", selects=2)
    assert_no_errors(xr)
