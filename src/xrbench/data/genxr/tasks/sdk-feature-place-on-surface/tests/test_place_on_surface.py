"""world.placeOnSurface: a select drops a pin where the selecting hand's ray meets a detected plane.

The app (held out, in the task's workspace/) enables plane detection and, on every select, calls
`xb.world.placeOnSurface(pin, event.source.controller)`; placed pins are tagged 'pin' (their origin
is the centre of their base, their front is +Z) and 'placement-log' counts attempts, placements
and misses. The living room has a 1.2 x 0.8 m table top at y = 0.75 centred on (0, 0.75, -1.5).
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import (
    assert_count,
    assert_no_errors,
    assert_resting_on,
    assert_state,
)

pytestmark = pytest.mark.xr_scenes("living_room")

TABLE_SPOT = (0.3, 0.75, -1.3)  # on the table top, off its centre
FLOOR_SPOT = (-0.9, 0.0, -0.7)  # on the floor, left of the table


def ready(xr):
    # Scripts finish their (async) initialisation between steps; planes load in the first frames.
    xr.step(1)
    xr.step(1)
    xr.wait(300)


def _rotate(q, v):
    x, y, z, w = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return (
        v[0] + w * tx + (y * tz - z * ty),
        v[1] + w * ty + (z * tx - x * tz),
        v[2] + w * tz + (x * ty - y * tx),
    )


def last_pin(xr):
    pins = sorted(xr.find_all_by_tag("pin"), key=lambda n: n.state.get("index", 0))
    assert pins, "expected a pin to be placed; none was"
    return pins[-1]


def assert_upright_and_facing_user(xr, pin, max_angle=3.0):
    up = _rotate(pin.quaternion, (0.0, 1.0, 0.0))
    assert up[1] > math.cos(math.radians(max_angle)), f"expected the pin upright on the surface; its up axis is {up}"
    front = _rotate(pin.quaternion, (0.0, 0.0, 1.0))
    head = xr.head.position
    to_head = (head[0] - pin.position[0], head[2] - pin.position[2])
    dot = front[0] * to_head[0] + front[2] * to_head[1]
    norm = math.hypot(front[0], front[2]) * math.hypot(*to_head) or 1.0
    angle = math.degrees(math.acos(max(-1.0, min(1.0, dot / norm))))
    assert angle <= max_angle, (
        f"expected the pin's front (+Z) to point towards the user along the surface within {max_angle} deg; "
        f"observed {angle:.1f} deg (front {tuple(round(v, 3) for v in front)})"
    )


@pytest.mark.fail_to_pass
def test_a_pin_lands_where_the_hand_points_on_the_table(xr):
    ready(xr)
    hand = xr.hand("dominant")
    hand.click(TABLE_SPOT)
    assert_count(xr, "pin", 1)
    pin = last_pin(xr)
    assert pin.state.get("hand") == xr.handedness("dominant")
    assert math.dist(pin.position, TABLE_SPOT) < 0.02, f"pin origin {pin.position} is not at {TABLE_SPOT}"
    assert_resting_on(xr, pin, "table", tol=0.01)
    assert_upright_and_facing_user(xr, pin)
    assert_state(xr, "placement-log", placed=1, misses=0)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_the_hands_ray_decides_not_the_head_and_the_table_ends_at_its_edge(xr):
    ready(xr)
    xr.head.rotate(yaw=-35)  # the user looks to the right, away from where the hand points
    hand = xr.hand("non_dominant")
    hand.click(FLOOR_SPOT)  # past the table's left edge: the ray reaches the floor
    assert_count(xr, "pin", 1)
    pin = last_pin(xr)
    assert math.dist(pin.position, FLOOR_SPOT) < 0.02, f"pin origin {pin.position} is not at {FLOOR_SPOT}"
    assert_resting_on(xr, pin, "floor", tol=0.01)
    assert_upright_and_facing_user(xr, pin)
    # The dominant hand then points at the table from the same place.
    xr.hand("dominant").click(TABLE_SPOT)
    assert_count(xr, "pin", 2)
    pin = last_pin(xr)
    assert math.dist(pin.position, TABLE_SPOT) < 0.02, f"pin origin {pin.position} is not at {TABLE_SPOT}"
    assert_upright_and_facing_user(xr, pin)
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
def test_the_room_planes_are_detected_and_selecting_is_safe(xr):
    ready(xr)
    tables = xr.planes("table")
    assert len(tables) == 1 and tables[0].top == pytest.approx(0.75, abs=1e-3)
    assert xr.planes("floor"), "expected the floor plane"
    assert xr.find_by_tag("placement-log").state["planes"] >= 3
    xr.hand("dominant").click(TABLE_SPOT)
    assert_state(xr, "placement-log", attempts=1)
    assert_no_errors(xr)
