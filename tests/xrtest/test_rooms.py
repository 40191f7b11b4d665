"""Rooms described as planes: the walls stand on the outline's edges and face into the room."""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.rooms import floor_plane, room_planes, turned, wall_plane, yaw
from xrbench.xrtest.session import rotate

L_SHAPE = [(-2.5, -2.0), (2.5, -2.0), (2.5, 0.5), (0.5, 0.5), (0.5, 2.0), (-2.5, 2.0)]


def flat(points):
    return [v for p in points for v in p]


def world_corners(plane):
    p = plane["position"]
    return [
        tuple((p["x"], p["y"], p["z"])[k] + rotate(plane["quaternion"], (q["x"], 0.0, q["y"]))[k] for k in range(3))
        for q in plane["polygon"]
    ]


def test_yaw_and_turned_agree():
    assert rotate(yaw(90), (0.0, 0.0, 1.0)) == pytest.approx((1.0, 0.0, 0.0), abs=1e-12)
    ((x, z),) = turned([(0.0, 1.0)], 90)
    assert (x, z) == pytest.approx((1.0, 0.0), abs=1e-12)
    assert flat(turned([(2.0, 1.0)], 180, about=(1.0, 1.0))) == pytest.approx([0.0, 1.0])


@pytest.mark.parametrize("outline", [L_SHAPE, L_SHAPE[::-1], turned(L_SHAPE, 25, about=(0.3, -1.0))])
def test_a_rooms_walls_stand_on_its_edges_and_face_into_it(outline):
    floor, *walls = room_planes(outline, height=2.4, floor_y=0.1)
    assert floor["label"] == "floor" and len(walls) == len(outline) == 6
    floor_corners = world_corners(floor)
    assert [c[1] for c in floor_corners] == pytest.approx([0.1] * 6)
    assert flat((c[0], c[2]) for c in floor_corners) == pytest.approx(flat(outline))
    for wall, a, b in zip(walls, outline, [*outline[1:], outline[0]], strict=True):
        corners = world_corners(wall)
        bottom = sorted((c for c in corners if abs(c[1] - 0.1) < 1e-9), key=lambda c: math.dist((c[0], c[2]), a))
        top = [c for c in corners if abs(c[1] - 2.5) < 1e-9]
        assert len(bottom) == len(top) == 2
        assert flat((c[0], c[2]) for c in bottom) == pytest.approx([*a, *b])
        normal = rotate(wall["quaternion"], (0.0, 1.0, 0.0))
        assert normal[1] == pytest.approx(0.0, abs=1e-12)
        # Just in front of the wall's middle is inside the room (the L's notch included).
        mx, mz = (a[0] + b[0]) / 2 + 0.05 * normal[0], (a[1] + b[1]) / 2 + 0.05 * normal[2]
        assert _inside(outline, (mx, mz))


def _inside(poly, p) -> bool:
    """Even-odd rule."""
    x, z = p
    inside = False
    for (x0, z0), (x1, z1) in zip(poly, [*poly[1:], poly[0]], strict=True):
        if (z0 > z) != (z1 > z) and x < x0 + (z - z0) * (x1 - x0) / (z1 - z0):
            inside = not inside
    return inside


def test_a_wall_short_at_both_ends_and_bad_rooms():
    wall = wall_plane((0.0, 0.0), (4.0, 0.0), inside=(2.0, 1.0), height=2.0, short=0.5)
    xs = sorted(c[0] for c in world_corners(wall))
    assert xs == pytest.approx([0.5, 0.5, 3.5, 3.5])
    assert wall["area"] == pytest.approx(6.0)
    assert floor_plane([(0, 0), (2, 0), (2, 1)])["area"] == pytest.approx(1.0)
    with pytest.raises(ValueError, match=r"cannot be 1\.0 m short"):
        wall_plane((0.0, 0.0), (1.0, 0.0), inside=(0.5, 1.0), height=2.0, short=1.0)
    with pytest.raises(ValueError, match="at least 3 points"):
        room_planes([(0.0, 0.0), (1.0, 0.0)])
