"""Runtime tests of the poster hung on the wall in front of the user.

Both run in the living room and in the office, whose front walls are at different distances.
They check that
- the poster (0.6 x 0.8 m) is shown on the wall the user faces at start-up, centred where the
  line of sight meets that wall and at eye height, with `state.placed` true;
- it hangs flat against that wall (front along the wall's inward normal, upright, every corner
  between the wall surface and 3 cm in front of it) and stays there when the user walks away.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors, assert_position, assert_state, assert_visible

pytestmark = pytest.mark.xr_scenes("living_room", "office")

TAG = "poster"


def _dot(a, b) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def _angle(a, b) -> float:
    c = _dot(a, b) / (math.sqrt(_dot(a, a)) * math.sqrt(_dot(b, b)))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def _rotate(q, v):
    """`v` rotated by the unit quaternion `q` = (x, y, z, w)."""
    x, y, z, w = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return (v[0] + w * tx + y * tz - z * ty, v[1] + w * ty + z * tx - x * tz, v[2] + w * tz + x * ty - y * tx)


def placed_poster(xr):
    """Start the app, let plane detection run; (the eyes, the wall hit and normal, the poster)."""
    xr.step(1)
    pose = xr.head.pose
    xr.wait(500)
    assert_visible(xr, TAG)
    assert_state(xr, TAG, placed=True)
    fx, _, fz = pose.forward or (0.0, 0.0, -1.0)
    n = math.hypot(fx, fz)
    heading = (fx / n, 0.0, fz / n)
    best = None
    for wall in xr.planes("wall"):
        normal = _rotate(wall.quaternion, (0.0, 1.0, 0.0))  # a plane's normal is its local +Y
        denom = _dot(heading, normal)
        if denom >= -1e-6:
            continue
        t = _dot([wall.position[i] - pose.position[i] for i in range(3)], normal) / denom
        if t > 0 and (best is None or t < best[0]):
            best = (t, tuple(pose.position[i] + t * heading[i] for i in range(3)), normal)
    assert best is not None, "no detected wall in front of the user (did the app enable plane detection?)"
    return pose.position, best[1], best[2], xr.find(TAG)


def test_the_poster_hangs_on_the_wall_in_front_at_eye_height(xr):
    eyes, hit, _, poster = placed_poster(xr)
    x, y, z = poster.point
    off_centre = math.hypot(x - hit[0], z - hit[2])
    assert off_centre <= 0.15, (
        f"expected the poster centred where the line of sight meets the wall, ({hit[0]:.2f}, {hit[2]:.2f}) in x, z; "
        f"observed its centre at ({x:.3f}, {z:.3f}), {off_centre:.2f} m away"
    )
    assert abs(y - eyes[1]) <= 0.15, f"expected the poster at eye height ({eyes[1]:.2f} m); observed y = {y:.3f}"
    size = poster.node.size
    assert size is not None and 0.6 <= size[1] + 1e-6 <= 1.0, (
        f"expected a 0.6 x 0.8 m upright poster; observed size {size}"
    )
    assert_no_errors(xr)


def test_the_poster_lies_flat_against_the_wall_facing_into_the_room(xr):
    _, hit, normal, poster = placed_poster(xr)
    front = _rotate(poster.node.quaternion, (0.0, 0.0, 1.0))
    up = _rotate(poster.node.quaternion, (0.0, 1.0, 0.0))
    assert _angle(front, normal) <= 5, (
        f"expected the poster's front (+Z) facing into the room along the wall's normal {normal}; "
        f"observed front {tuple(round(v, 3) for v in front)}, {_angle(front, normal):.0f} deg off"
    )
    assert _angle(up, (0.0, 1.0, 0.0)) <= 5, f"the poster is not upright: its up axis is {up}"
    # Flat against the wall: every corner of its box between the surface and 3 cm in front of it.
    lo, hi = poster.bbox
    corners = [(a, b, c) for a in (lo[0], hi[0]) for b in (lo[1], hi[1]) for c in (lo[2], hi[2])]
    depth = [_dot([p[i] - hit[i] for i in range(3)], normal) for p in corners]
    assert min(depth) >= -0.005, f"the poster sticks {-min(depth):.3f} m into the wall"
    assert max(depth) <= 0.03, f"the poster stands off the wall: parts of it {max(depth):.3f} m in front of it"

    where = poster.point
    xr.head.walk([(0.5, 1.5, -0.5)], speed=1.0)
    xr.wait(200)
    assert_position(xr, TAG, where, tol=0.005)
    assert_no_errors(xr)
