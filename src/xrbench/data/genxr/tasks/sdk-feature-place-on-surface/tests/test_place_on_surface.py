"""world.placeOnSurface: a select drops a pin where the selecting hand's ray meets a detected plane.

The app (held out, in the task's workspace/) enables plane detection and, on every select, calls
`xb.world.placeOnSurface(pin, event.source.controller)` with a new pin that waits, tilted, at a
parking spot above the room (PARKED_AT, PARKED_EULER). A pin the call placed (it returned true) is
tagged 'pin' and put in an unmoved group; one it did not place is tagged 'missed-pin' and kept,
hidden, where the call left it. Pins' origin is the centre of their base, their front is +Z;
'placement-log' counts attempts, placements and misses.

The living room's detected planes (all of them one-sided, their front faces pointing out of the
room: down for the floor and the table, outwards for the walls): the floor (y = 0), a 1.2 x 0.8 m
table top at y = 0.75 centred on (0, 0.75, -1.5), a couch seat and four walls 2.6 m high at
z = -4, z = 2, x = -3 and x = 3; nothing above. The simulator reports them before the first frame,
floor first, then the table; `xr.plane_detection` withholds and delivers them when a test says so.
The office (one test) has a 1.4 x 0.7 m desk top at y = 0.75 centred on (0, 0.75, -1.6) and walls at
z = -3.5, z = 1.5, x = -2.5 and x = 2.5.
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
PARKED_AT = (0.4, 2.2, -2.0)  # where the app's new pins wait before the call
PARKED_EULER = (0.3, 0.8, 0.2)  # and how they are turned (radians, XYZ)

POSITION_TOL = 0.02  # the exact hit point, to within 2 cm
ANGLE_TOL = 3.0  # degrees


def ready(xr):
    # Scripts finish their (async) initialisation between steps; planes load in the first frames.
    xr.step(1)
    xr.step(1)
    xr.wait(300)


# --- vector helpers ----------------------------------------------------------------------------


def _rotate(q, v):
    x, y, z, w = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return (
        v[0] + w * tx + (y * tz - z * ty),
        v[1] + w * ty + (z * tx - x * tz),
        v[2] + w * tz + (x * ty - y * tx),
    )


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _angle(a, b):
    na, nb = math.sqrt(_dot(a, a)), math.sqrt(_dot(b, b))
    if na < 1e-9 or nb < 1e-9:
        return 180.0
    return math.degrees(math.acos(max(-1.0, min(1.0, _dot(a, b) / (na * nb)))))


def _quat_from_euler_xyz(ex, ey, ez):
    c1, c2, c3 = math.cos(ex / 2), math.cos(ey / 2), math.cos(ez / 2)
    s1, s2, s3 = math.sin(ex / 2), math.sin(ey / 2), math.sin(ez / 2)
    return (
        s1 * c2 * c3 + c1 * s2 * s3,
        c1 * s2 * c3 - s1 * c2 * s3,
        c1 * c2 * s3 + s1 * s2 * c3,
        c1 * c2 * c3 - s1 * s2 * s3,
    )


PARKED_QUAT = _quat_from_euler_xyz(*PARKED_EULER)


def _r(v):
    return tuple(round(c, 3) for c in v)


# --- reading pins ------------------------------------------------------------------------------


def pins(xr, tag="pin"):
    return sorted((n for n in xr.find_all_by_tag(tag) if n.root == "scene"), key=lambda n: n.state.get("index", 0))


def last_pin(xr):
    placed = pins(xr)
    assert placed, "expected a pin to be placed (placeOnSurface returning true); none was"
    return placed[-1]


def assert_placed_at(pin, where, what):
    __tracebackhide__ = True
    d = math.dist(pin.position, where)
    assert d <= POSITION_TOL, (
        f"expected the pin placed {what} at the ray's hit point {_r(where)} (within {POSITION_TOL} m); "
        f"observed its origin at {_r(pin.position)}, {d:.3f} m away"
    )


def assert_oriented(xr, pin, normal, what):
    """+Y along `normal` (the surface normal on the ray's side), +Z towards the head along the surface."""
    __tracebackhide__ = True
    up = _rotate(pin.quaternion, (0.0, 1.0, 0.0))
    a = _angle(up, normal)
    assert a <= ANGLE_TOL, (
        f"expected the pin {what} to have its +Y along the surface normal on the ray's side {_r(normal)} "
        f"(within {ANGLE_TOL} deg); observed +Y {_r(up)}, {a:.1f} deg off"
    )
    n = normal
    to_head = _sub(xr.head.position, pin.position)
    k = _dot(to_head, n) / _dot(n, n)
    along = (to_head[0] - k * n[0], to_head[1] - k * n[1], to_head[2] - k * n[2])
    front = _rotate(pin.quaternion, (0.0, 0.0, 1.0))
    a = _angle(front, along)
    assert a <= ANGLE_TOL, (
        f"expected the pin {what} to turn its front (+Z) towards the user (the head at {_r(xr.head.position)}) "
        f"along the surface, {_r(along)} (within {ANGLE_TOL} deg); observed +Z {_r(front)}, {a:.1f} deg off"
    )


def assert_untouched(pin, what):
    """A pin the call did not place is where the app parked it, turned as the app turned it."""
    __tracebackhide__ = True
    d = math.dist(pin.position, PARKED_AT)
    assert d <= 1e-3, f"expected the pin {what} left untouched at {PARKED_AT}; observed it moved to {_r(pin.position)}"
    q = pin.quaternion
    dot = abs(sum(a * b for a, b in zip(q, PARKED_QUAT, strict=True)))
    a = math.degrees(2 * math.acos(min(1.0, dot)))
    assert a <= 0.5, (
        f"expected the pin {what} left untouched, turned as it was {_r(PARKED_QUAT)}; observed {_r(q)}, "
        f"turned {a:.1f} deg"
    )


UP, DOWN = (0.0, 1.0, 0.0), (0.0, -1.0, 0.0)


# --- tests -------------------------------------------------------------------------------------


@pytest.mark.fail_to_pass
def test_a_pin_lands_where_the_hand_points_on_the_table(xr):
    ready(xr)
    hand = xr.hand("dominant")
    hand.click(TABLE_SPOT)  # the ray meets the back of the table plane, then the floor under it
    assert_count(xr, "pin", 1)
    pin = last_pin(xr)
    assert pin.state.get("hand") == xr.handedness("dominant")
    assert_placed_at(pin, TABLE_SPOT, "on the table (nearer than the floor under it)")
    assert_resting_on(xr, pin, "table", tol=0.01)
    assert_oriented(xr, pin, UP, "on the table")
    assert_state(xr, "placement-log", attempts=1, placed=1, misses=0)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_the_hands_ray_decides_not_the_head_and_the_table_ends_at_its_edge(xr):
    ready(xr)
    xr.head.rotate(yaw=-35)  # the user looks to the right, away from where the hand points
    hand = xr.hand("non_dominant")
    hand.click(FLOOR_SPOT)  # past the table's left edge: the ray reaches the floor
    assert_count(xr, "pin", 1)
    pin = last_pin(xr)
    assert pin.state.get("hand") == xr.handedness("non_dominant")
    assert_placed_at(pin, FLOOR_SPOT, "on the floor past the table's edge")
    assert_resting_on(xr, pin, "floor", tol=0.01)
    assert_oriented(xr, pin, UP, "on the floor")
    # The dominant hand then points at the table from the same place.
    dominant = xr.hand("dominant")
    dominant.click(TABLE_SPOT)
    assert_count(xr, "pin", 2)
    pin = last_pin(xr)
    assert_placed_at(pin, TABLE_SPOT, "on the table")
    assert_oriented(xr, pin, UP, "on the table")
    # Then at the floor beyond the table, the ray passing 6 cm right of the table's right edge.
    h = dominant.position
    past_edge = (0.66, 0.75, -1.5)
    k = h[1] / (h[1] - past_edge[1])
    floor = (h[0] + (past_edge[0] - h[0]) * k, 0.0, h[2] + (past_edge[2] - h[2]) * k)
    dominant.click(floor)
    assert_count(xr, "pin", 3)
    pin = last_pin(xr)
    assert_placed_at(pin, floor, "on the floor, the ray passing just beside the table")
    assert_oriented(xr, pin, UP, "on the floor")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_pins_on_the_walls_stick_out_into_the_room_and_face_the_user(xr):
    ready(xr)
    # The user stands off the room's centre line and looks down to the left, not at the walls.
    xr.head.teleport_to((0.5, 1.5, -0.4))
    xr.head.rotate(yaw=30, pitch=-25)
    far_wall = (1.1, 1.0, -4.0)  # below eye height, to the right, over the table and the couch
    xr.hand("dominant").click(far_wall)
    pin = last_pin(xr)
    assert_placed_at(pin, far_wall, "on the far wall")
    assert_oriented(xr, pin, (0.0, 0.0, 1.0), "on the far wall")
    side_wall = (-3.0, 1.9, -1.2)  # above eye height, on the left wall
    xr.hand("non_dominant").click(side_wall)
    assert_count(xr, "pin", 2)
    pin = last_pin(xr)
    assert_placed_at(pin, side_wall, "on the left wall")
    assert_oriented(xr, pin, (1.0, 0.0, 0.0), "on the left wall")
    assert_state(xr, "placement-log", attempts=2, placed=2, misses=0)
    assert_no_errors(xr)


@pytest.mark.xr_scenes("office")
@pytest.mark.fail_to_pass
def test_in_the_office_pins_land_on_the_desk_and_the_right_wall_where_the_hands_point(xr):
    ready(xr)
    xr.head.teleport_to((-0.6, 1.5, -0.2))
    desk = (-0.35, 0.75, -1.75)
    xr.hand("dominant").click(desk)
    assert_count(xr, "pin", 1)
    pin = last_pin(xr)
    assert_placed_at(pin, desk, "on the office desk")
    assert_resting_on(xr, pin, "table", tol=0.01)
    assert_oriented(xr, pin, UP, "on the office desk")
    wall = (2.5, 1.2, -2.2)  # the right wall, ahead and to the right
    xr.hand("non_dominant").click(wall)
    assert_count(xr, "pin", 2)
    pin = last_pin(xr)
    assert_placed_at(pin, wall, "on the office's right wall")
    assert_oriented(xr, pin, (-1.0, 0.0, 0.0), "on the office's right wall")
    assert_state(xr, "placement-log", attempts=2, placed=2, misses=0)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_from_below_the_table_a_pin_hangs_from_its_underside(xr):
    ready(xr)
    # The user crouches beside the table, looks under it and points up at its underside: the ray
    # meets the front face of the table plane (it faces down), and nothing above it.
    xr.head.teleport_to((1.0, 1.0, -0.9))
    xr.head.look_at((0.2, 0.6, -1.5))
    hand = xr.hand("dominant")
    hand.move_hand((0.45, 0.5, -1.2))
    underside = (0.2, 0.75, -1.45)
    hand.click(underside)
    assert_count(xr, "pin", 1)
    pin = last_pin(xr)
    assert_placed_at(pin, underside, "under the table")
    assert_oriented(xr, pin, DOWN, "under the table")
    # The other hand points at the table top from above, from the same crouch: the pin stands on it.
    top = (-0.3, 0.75, -1.7)
    xr.hand("non_dominant").click(top)
    assert_count(xr, "pin", 2)
    pin = last_pin(xr)
    assert_placed_at(pin, top, "on the table top")
    assert_oriented(xr, pin, UP, "on the table top")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_both_hands_place_at_once_each_where_it_points(xr):
    ready(xr)
    xr.head.teleport_to((-0.9, 1.5, 0.2))  # the user stands to the left, away from the room's origin
    xr.head.look_at((0.0, 0.75, -1.5))
    dominant, other = xr.hand("dominant"), xr.hand("non_dominant")
    spot_d, spot_o = (0.45, 0.75, -1.25), (-0.4, 0.75, -1.8)
    dominant.point_to(spot_d)
    other.point_to(spot_o)
    other.start_select(0)
    dominant.start_select(1)  # both selects begin on the same frame
    other.end_select(0)
    dominant.end_select(12)
    assert_count(xr, "pin", 2)
    by_hand = {p.state.get("hand"): p for p in pins(xr)}
    for role, spot in (("dominant", spot_d), ("non_dominant", spot_o)):
        pin = by_hand.get(xr.handedness(role))
        assert pin is not None, f"expected a pin placed by the {role} hand; observed pins of {sorted(by_hand)}"
        assert_placed_at(pin, spot, f"by the {role} hand, both hands selecting on the same frame")
        assert_oriented(xr, pin, UP, f"by the {role} hand")
    # A controller's trigger places the same way (its target-ray space).
    xr.controller("dominant").select(FLOOR_SPOT)
    assert_count(xr, "pin", 3)
    pin = last_pin(xr)
    assert_placed_at(pin, FLOOR_SPOT, "by the controller, on the floor")
    assert_oriented(xr, pin, UP, "by the controller")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_a_ray_that_meets_no_plane_leaves_the_pin_untouched(xr):
    ready(xr)
    xr.head.look_at(TABLE_SPOT)  # the user looks down at the table...
    hand = xr.hand("dominant")
    here = hand.position
    hand.click((here[0], here[1] + 2.0, here[2] - 0.2))  # ...and points up, over the walls
    assert_count(xr, "pin", 0)
    missed = pins(xr, "missed-pin")
    assert len(missed) == 1, f"expected one attempt the app saw fail; observed {len(missed)}"
    assert_untouched(missed[0], "when the ray meets no plane")
    assert_state(xr, "placement-log", attempts=1, placed=0, misses=1)
    # Placing still works afterwards.
    hand.click(TABLE_SPOT)
    assert_count(xr, "pin", 1)
    assert_placed_at(last_pin(xr), TABLE_SPOT, "after a miss")
    assert_state(xr, "placement-log", attempts=2, placed=1, misses=1)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_planes_detected_later_count_and_no_known_plane_is_a_miss(xr):
    xr.plane_detection.withhold()  # no plane has been detected yet
    ready(xr)
    hand = xr.hand("dominant")
    hand.click(TABLE_SPOT)
    assert_count(xr, "pin", 0)
    assert_state(xr, "placement-log", attempts=1, placed=0, misses=1)
    assert_untouched(pins(xr, "missed-pin")[-1], "while no plane is known")
    xr.plane_detection.deliver("table")  # the table is found first
    xr.step(1)
    hand.click(FLOOR_SPOT)  # past the table: the floor is not known yet
    assert_count(xr, "pin", 0)
    assert_state(xr, "placement-log", attempts=2, placed=0, misses=2)
    assert_untouched(pins(xr, "missed-pin")[-1], "when the ray misses the only known plane")
    xr.plane_detection.deliver("floor")  # then the floor
    xr.step(1)
    hand.click(TABLE_SPOT)  # meets the table, then the floor: the table (found first) is nearer
    assert_count(xr, "pin", 1)
    assert_placed_at(last_pin(xr), TABLE_SPOT, "on the table, nearer than the floor found after it")
    xr.hand("non_dominant").click(FLOOR_SPOT)  # the floor, found while the app runs, counts
    assert_count(xr, "pin", 2)
    pin = last_pin(xr)
    assert_placed_at(pin, FLOOR_SPOT, "on the floor once it is detected")
    assert_oriented(xr, pin, UP, "on the floor")
    hand.click((0.9, 1.9, -4.0))  # up at the far wall, which is still not detected: a miss
    assert_count(xr, "pin", 2)
    assert_state(xr, "placement-log", attempts=5, placed=2, misses=3)
    assert_untouched(pins(xr, "missed-pin")[-1], "when the ray meets no detected plane")
    assert_no_errors(xr)


# placeOnSurface on a World whose plane detection was never enabled (the app's options leave it
# off), with the dominant hand's target-ray space pointing at the table.
_NOT_ENABLED_JS = """
(h, arg) => {
  const T = h.THREE;
  const world = new h.xb.World();
  world.init({options: new h.xb.WorldOptions(), camera: h.core.camera});
  const controller = h.core.input.controllers[arg.hand];
  const object = new T.Object3D();
  object.position.fromArray(arg.at);
  object.rotation.set(arg.euler[0], arg.euler[1], arg.euler[2]);
  object.updateMatrixWorld(true);
  let result, error = null;
  try {
    result = world.placeOnSurface(object, controller);
  } catch (e) {
    error = String(e && e.stack || e);
  }
  return {
    planes: world.planes === undefined ? null : 'present',
    result: result === undefined ? 'undefined' : result,
    error,
    position: object.position.toArray(),
    quaternion: object.quaternion.toArray(),
  };
}
"""


@pytest.mark.fail_to_pass
def test_without_plane_detection_nothing_is_placed_and_nothing_throws(xr):
    ready(xr)
    hand = xr.hand("dominant")
    hand.point_to(TABLE_SPOT)
    index = 0 if xr.handedness("dominant") == "left" else 1
    r = xr.probe(_NOT_ENABLED_JS, {"hand": index, "at": list(PARKED_AT), "euler": list(PARKED_EULER)})
    assert r["planes"] is None, "expected a World without plane detection to have no plane detector"
    assert r["error"] is None, f"expected placeOnSurface without plane detection not to throw; it threw {r['error']}"
    assert r["result"] is False, (
        f"expected placeOnSurface without plane detection to return false; observed {r['result']!r}"
    )
    d = math.dist(r["position"], PARKED_AT)
    assert d <= 1e-6, f"expected the object left untouched at {PARKED_AT}; observed it moved to {_r(r['position'])}"
    dot = abs(sum(a * b for a, b in zip(r["quaternion"], PARKED_QUAT, strict=True)))
    assert dot >= 1 - 1e-6, (
        f"expected the object left turned as it was {_r(PARKED_QUAT)}; observed {_r(r['quaternion'])}"
    )
    # The app's own World, which has plane detection, still places.
    hand.click(TABLE_SPOT)
    assert_count(xr, "pin", 1)
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
