"""Runtime tests of the three poke buttons.

Every poke brings the index fingertip 12 cm in front of a button, pushes it straight in (2 cm
into the button), holds it there for 10 frames and pulls it back out. The tests check that
- poking the middle button with the dominant hand switches its light on exactly once
  (`state.on`, `state.toggles`, a non-black emissive colour) while the neighbouring lights,
  1 cm away, stay off and untouched;
- pokes with either hand toggle the left and right buttons' lights, a second poke switches a
  light off again, and the middle light is never affected.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_no_errors, assert_state

pytestmark = pytest.mark.xr_scenes("empty")

BLACK = "#000000"
HOLD = 10  # frames the fingertip stays inside the button


def button(k: int) -> str:
    return f"touch-button-{k}"


def light(k: int) -> str:
    return f"button-light-{k}"


def poke(xr, role: str, k: int) -> None:
    """Push the fingertip straight into button `k` from 12 cm in front of it, hold, pull back."""
    hand = xr.hand(role)
    x, y, z = xr.find(button(k)).point
    front = (x, y, z + 0.12)
    hand.move_hand(front, anchor="fingertip")
    hand.reach_to(button(k))
    xr.step(HOLD)
    hand.move_hand(front, anchor="fingertip")


def assert_light(xr, k: int, *, on: bool, toggles: int, when: str) -> None:
    __tracebackhide__ = True
    try:
        assert_state(xr, light(k), on=on, toggles=toggles)
    except AssertionError as e:
        raise AssertionError(f"{when}: light {k}: {e}") from None
    emissive = xr.find_by_tag(light(k)).emissive
    if on:
        assert emissive not in (None, BLACK), f"{when}: light {k} is on but does not glow (emissive {emissive})"
    else:
        assert emissive in (None, BLACK), f"{when}: light {k} is off but glows (emissive {emissive})"


def test_a_poke_toggles_only_the_touched_buttons_light_once(xr):
    xr.step(1)
    for k in (1, 2, 3):
        assert_light(xr, k, on=False, toggles=0, when="at start-up")
    poke(xr, "dominant", 2)
    assert_light(xr, 2, on=True, toggles=1, when="after one poke of the middle button")
    assert_light(xr, 1, on=False, toggles=0, when="after a poke of its neighbour (the middle button)")
    assert_light(xr, 3, on=False, toggles=0, when="after a poke of its neighbour (the middle button)")
    assert_no_errors(xr)


def test_either_hand_toggles_the_outer_buttons_on_and_off(xr):
    xr.step(1)
    poke(xr, "non_dominant", 1)
    assert_light(xr, 1, on=True, toggles=1, when="after the non-dominant hand poked the left button")
    poke(xr, "dominant", 3)
    assert_light(xr, 3, on=True, toggles=1, when="after the dominant hand poked the right button")
    poke(xr, "non_dominant", 1)
    assert_light(xr, 1, on=False, toggles=2, when="after a second poke of the left button")
    assert_light(xr, 3, on=True, toggles=1, when="after the left button was poked again")
    assert_light(xr, 2, on=False, toggles=0, when="after pokes of the outer buttons")
    assert_no_errors(xr)
