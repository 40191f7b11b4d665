"""Runtime tests of the grab-a-box app.

They check that the box tagged 'grab-box' is where the instruction puts it; that a touch and a
pinch by either hand grabs it (state.grabbed), that it then follows that hand keeping its offset,
and that on release it stays where it was let go (no snapping back); and that a pinch which does
not touch the box leaves it alone.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import (
    assert_distance,
    assert_follows_hand,
    assert_no_errors,
    assert_position,
    assert_state,
)

BOX = "grab-box"
HOME = (0.0, 1.3, -0.55)

pytestmark = pytest.mark.xr_scenes("empty")


def grab_move_release(xr, role: str) -> tuple[float, float, float]:
    """Grab the box with `role`'s hand, carry it up and sideways, release it; returns where it was let go."""
    hand = xr.hand(role)
    hand.reach_to(BOX, depth=0.03)
    hand.pinch()
    assert_state(xr, BOX, grabbed=True)
    x, y, z = hand.position
    path = [(x, y + 0.12, z), (x + 0.12, y + 0.18, z + 0.06)]
    assert_follows_hand(xr, BOX, hand, path, max_deviation=0.01)
    where = xr.find(BOX).point
    hand.release()
    assert_state(xr, BOX, grabbed=False)
    return where


def test_the_box_follows_the_grabbing_hand_and_stays_where_released(xr):
    xr.step(1)
    assert_position(xr, BOX, HOME, tol=0.02)
    where = grab_move_release(xr, "dominant")
    xr.hand("dominant").rest()
    xr.wait(300)
    assert_position(xr, BOX, where, tol=0.005)  # released: it stays, it does not snap back or fall
    assert_distance(xr, BOX, HOME, at_least=0.12)
    assert_no_errors(xr)


def test_the_other_hand_can_grab_the_box_too(xr):
    xr.step(1)
    where = grab_move_release(xr, "non_dominant")
    xr.hand("non_dominant").rest()
    assert_position(xr, BOX, where, tol=0.005)
    assert_distance(xr, BOX, HOME, at_least=0.12)
    assert_no_errors(xr)


def test_a_pinch_that_does_not_touch_the_box_does_not_move_it(xr):
    xr.step(1)
    hand = xr.hand("dominant")
    start = xr.find(BOX).point
    hand.pinch()  # at rest, 0.25 m beside the box, its ray pointing past it
    hand.move_by((0.0, 0.12, -0.08))
    hand.release()
    assert_state(xr, BOX, grabbed=False)
    assert_position(xr, BOX, start, tol=0.002)
    assert_no_errors(xr)
