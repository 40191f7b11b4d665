"""Runtime tests of the two-handed scaling app.

They check that grabbing the cube tagged 'scalable-cube' with both hands (touch + pinch) and
changing the distance between the hands resizes it in proportion to the distance between the
grabbing fingertips (growing and shrinking, about its centre), that it keeps its new size when
the hands let go, and that one hand alone does not resize it. Sizes are read from the cube's
world bounding box, distances from the simulated hands' world joints.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors, assert_position, assert_state

CUBE = "scalable-cube"
CENTRE = (0.0, 1.3, -0.5)
SIZE = 0.2

pytestmark = pytest.mark.xr_scenes("empty")


def cube_size(xr) -> float:
    """Mean edge of the cube's world bounding box."""
    size = xr.find_by_tag(CUBE).size
    assert size is not None, "the cube has no geometry"
    return sum(size) / 3


def tip_distance(xr) -> float:
    """Distance between the two index fingertips (world frame)."""
    return math.dist(xr.hand("left").fingertip, xr.hand("right").fingertip)


def grab_with_both_hands(xr) -> None:
    """The dominant hand grabs the cube first, then the other hand."""
    for role in ("dominant", "non_dominant"):
        hand = xr.hand(role)
        hand.reach_to(CUBE, depth=0.03)
        hand.pinch()
    assert_state(xr, CUBE, hands=2)


def spread(xr, dx: float, steps: int = 5) -> None:
    """Move both hands apart along x by `dx` each (negative: together), in alternating small steps."""
    for _ in range(steps):
        for role in ("dominant", "non_dominant"):
            side = 1.0 if xr.handedness(role) == "right" else -1.0
            xr.hand(role).move_by((side * dx / steps, 0.0, 0.0), speed=0.3)


def assert_scaled_with_hands(xr, size0: float, dist0: float, tol: float = 0.08) -> float:
    """The cube's size changed by the ratio of the fingertip distances (within `tol`, relative)."""
    want = dist0 and tip_distance(xr) / dist0
    got = cube_size(xr) / size0
    assert abs(got - want) <= tol * want, (
        f"expected the cube to scale with the distance between the hands: the fingertips went from "
        f"{dist0:.3f} m to {tip_distance(xr):.3f} m apart (x{want:.2f}), so its size should go from "
        f"{size0:.3f} m to {size0 * want:.3f} m (+-{tol:.0%}); observed {cube_size(xr):.3f} m (x{got:.2f})"
    )
    return got


def test_pulling_the_hands_apart_and_together_scales_the_cube_in_proportion(xr):
    xr.step(1)
    assert_position(xr, CUBE, CENTRE, tol=0.02)
    assert abs(cube_size(xr) - SIZE) < 0.01, f"expected a {SIZE} m cube; observed {cube_size(xr):.3f} m"
    grab_with_both_hands(xr)
    size0, dist0 = cube_size(xr), tip_distance(xr)
    spread(xr, 0.08)  # about twice as far apart
    assert_scaled_with_hands(xr, size0, dist0)
    assert_position(xr, CUBE, CENTRE, tol=0.03)  # it grows about its centre
    spread(xr, -0.1)  # closer together than at the start
    assert_scaled_with_hands(xr, size0, dist0)
    assert cube_size(xr) < size0, "bringing the hands together should shrink the cube below its start size"
    assert_no_errors(xr)


def test_the_cube_keeps_its_new_size_when_the_hands_let_go(xr):
    xr.step(1)
    grab_with_both_hands(xr)
    size0, dist0 = cube_size(xr), tip_distance(xr)
    spread(xr, 0.06)
    grown = assert_scaled_with_hands(xr, size0, dist0) * size0
    xr.hand("non_dominant").release()
    xr.hand("dominant").release()
    assert_state(xr, CUBE, hands=0)
    for role in ("dominant", "non_dominant"):
        xr.hand(role).rest()
    assert abs(cube_size(xr) - grown) < 0.01, (
        f"expected the cube to keep its size of {grown:.3f} m after the hands let go; observed {cube_size(xr):.3f} m"
    )
    state = xr.find_by_tag(CUBE).state
    assert abs(state["scale"] - grown / SIZE) < 0.08, f"expected state.scale ~{grown / SIZE:.2f}; observed {state}"
    assert_no_errors(xr)


def test_one_hand_alone_does_not_resize_the_cube(xr):
    xr.step(1)
    hand = xr.hand("non_dominant")
    hand.reach_to(CUBE, depth=0.03)
    hand.pinch()
    assert_state(xr, CUBE, hands=1)
    side = 1.0 if xr.handedness("non_dominant") == "right" else -1.0
    hand.move_by((side * 0.08, 0.0, 0.0), speed=0.3)
    assert abs(cube_size(xr) - SIZE) < 0.005, (
        f"expected one hand not to resize the {SIZE} m cube; observed {cube_size(xr):.3f} m"
    )
    assert_no_errors(xr)
