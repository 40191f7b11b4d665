"""Runtime tests of the head-following HUD.

They check that
- after start-up the HUD rests 0.6 m ahead of the eyes (horizontal heading, within 3 cm) and
  about 0.15 m below them (5-25 cm), within comfortable reach, facing the user;
- after a quarter turn of the head the HUD lags behind (it eases, it is not glued to the head),
  then within 1 s it is back at its resting place in the new direction and faces the user again,
  on both sides;
- after the user walks to another spot, the HUD has followed and faces the user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import (
    assert_facing_user,
    assert_no_errors,
    assert_within_reach,
)

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "hud"
AHEAD, BELOW = 0.6, 0.15
TOL = 0.03  # metres around the resting place, horizontally
MIN_LAG = 0.06  # metres behind the resting place right after a quarter turn (2 frames of head motion)


def _rotate(q, v):
    """`v` rotated by the unit quaternion `q` = (x, y, z, w)."""
    x, y, z, w = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return (v[0] + w * tx + y * tz - z * ty, v[1] + w * ty + z * tx - x * tz, v[2] + w * tz + x * ty - y * tx)


def resting_place(xr):
    """0.6 m ahead of the eyes along the horizontal heading, 0.15 m below them."""
    pose = xr.head.pose
    fx, _, fz = pose.forward or (0.0, 0.0, -1.0)
    n = math.hypot(fx, fz) or 1.0
    x, y, z = pose.position
    return (x + AHEAD * fx / n, y - BELOW, z + AHEAD * fz / n)


def assert_resting_in_front(xr, when: str) -> None:
    """At its resting place: within 3 cm horizontally, 5-25 cm below the eyes, facing the user."""
    __tracebackhide__ = True
    x, y, z = xr.find(TAG).point
    rx, _, rz = resting_place(xr)
    eyes = xr.head.position[1]
    off = math.hypot(x - rx, z - rz)
    assert off <= TOL, (
        f"{when}: expected the HUD 0.6 m ahead of the eyes at ({rx:.3f}, {rz:.3f}) in x, z (tol {TOL} m); "
        f"observed ({x:.3f}, {z:.3f}), {off:.3f} m away"
    )
    assert eyes - 0.25 <= y <= eyes - 0.05, (
        f"{when}: expected the HUD about 0.15 m below the eyes; observed {y - eyes:+.3f} m"
    )
    # Facing: turned towards the head within 10 deg horizontally (upright or tilted up to it).
    node = xr.find(TAG).node
    front = _rotate(node.quaternion, (0.0, 0.0, 1.0))
    head = xr.head.position
    to_head = (head[0] - node.position[0], head[2] - node.position[2])
    yaw = math.degrees(
        abs(math.atan2(front[0] * to_head[1] - front[2] * to_head[0], front[0] * to_head[0] + front[2] * to_head[1]))
    )
    assert math.hypot(front[0], front[2]) > 0.5 and yaw <= 10, (
        f"{when}: expected the HUD's front (+Z) turned towards the head; observed front "
        f"{tuple(round(v, 3) for v in front)}, {yaw:.0f} deg to the side of the direction to the head"
    )
    try:
        assert_facing_user(xr, TAG, max_angle=30)
    except AssertionError as e:
        raise AssertionError(f"{when}: {e}") from None


def test_the_hud_rests_ahead_and_below_the_eyes_facing_the_user(xr):
    xr.step(1)
    xr.wait(1000)
    assert_resting_in_front(xr, "1 s after start-up")
    assert_within_reach(xr, TAG)
    assert_no_errors(xr)


@pytest.mark.parametrize("yaw", [90, -90], ids=["turn-left", "turn-right"])
def test_the_hud_eases_after_a_head_turn_and_settles_in_front(xr, yaw):
    xr.step(1)
    xr.wait(1000)
    xr.head.rotate(yaw=yaw)  # 3 degrees a frame
    (x, _, z), (rx, _, rz) = xr.find(TAG).point, resting_place(xr)
    lag = math.hypot(x - rx, z - rz)
    assert lag > MIN_LAG, (
        f"right after the head turned {yaw} deg the HUD was already {lag:.3f} m from its resting place: "
        f"it jumps with the head instead of following lazily (expected a lag over {MIN_LAG} m)"
    )
    xr.wait(1000)
    assert_resting_in_front(xr, f"1 s after turning the head {yaw} deg")
    assert_no_errors(xr)


def test_the_hud_follows_the_user_walking_elsewhere(xr):
    xr.step(1)
    xr.wait(500)
    xr.head.walk([(0.8, 1.5, -1.0)], speed=1.0)  # turns towards the spot, then walks there
    xr.wait(1000)
    assert_resting_in_front(xr, "1 s after walking to (0.8, 1.5, -1.0)")
    assert_within_reach(xr, TAG)
    assert_no_errors(xr)
