"""Runtime tests of the fist-gesture menu.

They check that
- the menu starts hidden; a fist of the dominant hand opens it in front of the user within
  comfortable reach (0.3-0.75 m from the shoulder, within 35 degrees of the heading, below eye
  height), upright and facing the user, with both buttons on it; a fist of the non-dominant hand
  closes it again (menu and buttons hidden);
- after the user turns and walks elsewhere, the menu opens (is shown) in front of them there,
  closes (is hidden) again and opens again;
- touching button "A" with the dominant fingertip and "B" with the non-dominant one sets
  `state.choice` to 'A', then 'B', and the menu stays open (shown); then "B" with the dominant
  fingertip keeps 'B' and "A" with the non-dominant one sets 'A'. The choice has no visible
  effect, so it is checked against which button each fingertip really touched: the sequence
  A, B, B, A with crossed hands fails an app whose choice follows the hand that touches, or
  alternates with each touch, rather than the button touched.

`state.open` is always checked together with the menu's visibility.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import (
    assert_appears,
    assert_disappears,
    assert_facing_user,
    assert_near,
    assert_no_errors,
    assert_not_visible,
    assert_state,
    assert_visible,
    assert_within_reach,
)

pytestmark = pytest.mark.xr_scenes("empty")

MENU, BUTTON_A, BUTTON_B = "gesture-menu", "menu-button-a", "menu-button-b"


def _rotate(q, v):
    """`v` rotated by the unit quaternion `q` = (x, y, z, w)."""
    x, y, z, w = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return (v[0] + w * tx + y * tz - z * ty, v[1] + w * ty + z * tx - x * tz, v[2] + w * tz + x * ty - y * tx)


def assert_faces_the_user(xr) -> None:
    """The menu's front (+Z) turns towards the head: within 20 degrees horizontally, and within 45
    degrees in all (an upright menu below the eyes, or one tilted up towards them)."""
    __tracebackhide__ = True
    node = xr.find(MENU).node
    head = xr.head.position
    front = _rotate(node.quaternion, (0.0, 0.0, 1.0))
    to_head = [head[i] - node.position[i] for i in range(3)]
    yaw = math.degrees(
        abs(math.atan2(front[0] * to_head[2] - front[2] * to_head[0], front[0] * to_head[0] + front[2] * to_head[2]))
    )
    assert math.hypot(front[0], front[2]) > 0.5 and yaw <= 20, (
        f"the menu does not face the user: its front {tuple(round(v, 3) for v in front)} is {yaw:.0f} deg to the "
        f"side of the direction to the head (at most 20)"
    )
    assert_facing_user(xr, MENU, max_angle=45)


def assert_in_front_within_reach(xr, when: str) -> None:
    __tracebackhide__ = True
    pose = xr.head.pose
    x, y, z = xr.find(MENU).point
    fx, _, fz = pose.forward or (0.0, 0.0, -1.0)
    dx, dz = x - pose.position[0], z - pose.position[2]
    angle = math.degrees(math.atan2(fx * dz - fz * dx, fx * dx + fz * dz))
    try:
        assert_within_reach(xr, MENU)
        assert abs(angle) <= 35, f"the menu opened {abs(angle):.0f} deg away from the user's heading (at most 35)"
        assert pose.position[1] - 0.4 <= y <= pose.position[1] + 0.05, (
            f"the menu's centre is {y - pose.position[1]:+.2f} m from eye height (expected about -0.2 m)"
        )
        assert_faces_the_user(xr)
    except AssertionError as e:
        raise AssertionError(f"{when}: {e}") from None


def test_a_fist_opens_the_menu_within_reach_and_another_closes_it(xr):
    xr.step(1)
    assert_not_visible(xr, MENU)
    with assert_appears(xr, MENU):
        xr.gesture("dominant", "fist")
    assert_state(xr, MENU, open=True)
    assert_in_front_within_reach(xr, "after a fist of the dominant hand")
    for button in (BUTTON_A, BUTTON_B):
        assert_visible(xr, button)
        assert_near(xr, button, MENU, within=0.03)
    with assert_disappears(xr, MENU):
        xr.gesture("non_dominant", "fist")
    assert_state(xr, MENU, open=False)
    assert_not_visible(xr, BUTTON_A)
    assert_not_visible(xr, BUTTON_B)
    assert_no_errors(xr)


def test_the_menu_opens_in_front_of_the_user_wherever_they_face(xr):
    xr.step(1)
    xr.head.walk([(0.8, 1.5, 0.5)], speed=1.0)  # turns to the right and back, then walks there
    xr.gesture("non_dominant", "fist")
    assert_state(xr, MENU, open=True)
    assert_visible(xr, MENU)
    assert_in_front_within_reach(xr, "after walking to (0.8, 1.5, 0.5)")
    xr.gesture("non_dominant", "fist")
    assert_state(xr, MENU, open=False)
    assert_not_visible(xr, MENU)
    xr.head.rotate(yaw=90)
    xr.gesture("dominant", "fist")
    assert_state(xr, MENU, open=True)
    assert_visible(xr, MENU)
    assert_in_front_within_reach(xr, "after turning 90 deg to the left")
    assert_no_errors(xr)


def test_touching_the_buttons_sets_the_choice(xr):
    xr.step(1)
    xr.gesture("dominant", "fist")
    assert_state(xr, MENU, open=True, choice=None)
    assert_visible(xr, MENU)
    hand = xr.hand("dominant")
    hand.reach_to(BUTTON_A)
    assert_state(xr, MENU, choice="A")
    hand.rest()
    other = xr.hand("non_dominant")
    other.reach_to(BUTTON_B)
    assert_state(xr, MENU, open=True, choice="B")
    other.rest()
    assert_visible(xr, MENU)
    hand.reach_to(BUTTON_B)
    assert_state(xr, MENU, open=True, choice="B")
    hand.rest()
    other.reach_to(BUTTON_A)
    assert_state(xr, MENU, open=True, choice="A")
    other.rest()
    assert_visible(xr, MENU)
    assert_no_errors(xr)
