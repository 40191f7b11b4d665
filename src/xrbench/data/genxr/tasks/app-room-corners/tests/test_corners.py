"""Runtime tests of the spheres marking the room's corners.

They check that
- in the living room (walls 6 m apart, planes detected before the first frame) exactly four
  objects tagged 'room-corner' are shown within half a second of the start, one centred on each
  corner where two walls meet the floor (within 2 cm), each a sphere 0.05 m in radius (its
  extent 0.1 m along every axis, within 25 %, drawn with a sphere geometry), and that they stay
  exactly where they are for two seconds while the user walks about;
- in the kitchen, with the planes withheld at start-up and delivered by the test one after the
  other (the floor, the north wall, the opposite south wall, then the east and west walls): no
  sphere while there is no wall pair, none for the two parallel walls, then within half a second
  of each wall the corners it completes (two for the east wall, two more for the west wall),
  earlier spheres staying exactly where they were and no duplicates;
- in the living room, with the four walls delivered before any floor: no sphere for a second,
  then, once a floor is detected at y = 0.08 m (a raised floor, so that the height comes from the
  detected floor and not from a fixed 0 or the walls' bottom edges), the four spheres within half
  a second, centred at that height;
- in a room turned 25 degrees about y whose walls stop 0.4 m short of each other, one of them
  detected as two pieces in one plane, with a door plane standing obliquely across one corner
  (planes the test describes): four spheres where the walls' planes cross (not at the walls' ends,
  none for the door, one per corner although both pieces meet each side wall there), staying
  while the user walks.
- in a five-walled room with one wall at 45 degrees and its floor 3 cm up (planes the test
  describes): a sphere for every pair of walls that are not parallel, at right angles or not,
  including the three pairs that cross outside the room (the walls taken as unbounded planes).

Each test runs for a right- and for a left-dominant user (the hands play no part).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.rooms import room_planes, turned, wall_plane
from xrbench.xrtest.scenes import get_scene

TAG = "room-corner"
RADIUS = 0.05
SIZE_TOL = 0.25  # the stated radius, within 25 %
CENTRE_TOL = 0.02  # the centre on the corner line at the floor's height, within 2 cm
STILL_TOL = 0.003  # metres a shown sphere may move ("stays exactly where it is")
SOON = 30  # frames: half a second at 60 Hz

Vec = tuple[float, float, float]


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def wall_by_side(planes: list[dict[str, Any]], side: str) -> dict[str, Any]:
    """The wall of a rectangular scene on `side` ('north' is -z, 'south' +z, 'east' +x, 'west' -x)."""
    walls = [p for p in planes if p["label"] == "wall"]
    key = {
        "north": lambda p: p["position"]["z"],
        "south": lambda p: -p["position"]["z"],
        "west": lambda p: p["position"]["x"],
        "east": lambda p: -p["position"]["x"],
    }[side]
    return min(walls, key=key)


def floor_of(planes: list[dict[str, Any]]) -> dict[str, Any]:
    return next(p for p in planes if p["label"] == "floor")


def corner(xwall: dict[str, Any], zwall: dict[str, Any], floor_y: float) -> Vec:
    """Where an east/west wall (constant x) and a north/south wall (constant z) meet the floor."""
    return (xwall["position"]["x"], floor_y, zwall["position"]["z"])


def turned_room() -> tuple[list[dict[str, Any]], list[Vec]]:
    """A 5 x 4 m room turned 25 degrees about y, its walls stopping 0.4 m short of each other (as
    detection leaves a wall's ends out behind furniture), its north wall detected as two pieces in
    one plane with a gap between them (a cupboard in front of its middle), and a door plane standing
    obliquely across one corner; returns its planes (a planes file's format) and its four floor
    corners. Each piece of the north wall meets both side walls, on the same two corner lines."""
    outline = turned([(-2.5, -3.4), (2.5, -3.4), (2.5, 0.6), (-2.5, 0.6)], 25.0, about=(0.6, -1.4))
    pieces = [
        wall_plane(*turned([a, b], 25.0, about=(0.6, -1.4)), inside=(0.6, -1.4), height=2.4)
        for a, b in (((-2.1, -3.4), (-0.3, -3.4)), ((0.3, -3.4), (2.1, -3.4)))
    ]
    ne = turned([(2.0, -2.9)], 25.0, about=(0.6, -1.4))[0]  # half a metre in from the north-east corner
    door = wall_plane(
        (ne[0] - 0.45 * 0.7071, ne[1] - 0.45 * 0.7071),
        (ne[0] + 0.45 * 0.7071, ne[1] + 0.45 * 0.7071),
        inside=(0.6, -1.4),
        height=2.0,
        label="door",
    )
    floor, _north, *walls = room_planes(outline, height=2.4, short=0.4)
    return [floor, door, *pieces, *walls], [(x, 0.0, z) for x, z in outline]


def slanted_room() -> tuple[list[dict[str, Any]], list[Vec]]:
    """A five-walled room, 5 x 4 m with its south-west corner cut off by a wall at 45 degrees, its
    floor 3 cm up; returns its planes and every floor corner: where each pair of its walls that are
    not parallel cross, taking the walls as unbounded planes (eight, three of them outside the room)."""
    outline = [(-2.5, -3.4), (2.5, -3.4), (2.5, 0.6), (-1.3, 0.6), (-2.5, -0.6)]
    floor_y = 0.03
    planes = room_planes(outline, height=2.4, floor_y=floor_y, short=0.3)
    edges = list(zip(outline, [*outline[1:], outline[0]], strict=True))
    corners: list[Vec] = []
    for i, ((ax, az), (bx, bz)) in enumerate(edges):
        for (cx, cz), (dx, dz) in edges[i + 1 :]:
            ux, uz, vx, vz = bx - ax, bz - az, dx - cx, dz - cz
            det = ux * vz - uz * vx
            if abs(det) < 1e-9:
                continue  # parallel walls never meet
            t = ((cx - ax) * vz - (cz - az) * vx) / det
            corners.append((ax + t * ux, floor_y, az + t * uz))
    return planes, corners


def shown_spheres(xr) -> list:
    """The shown objects tagged 'room-corner' in the app's scene."""
    return [n for n in xr.tagged(TAG) if n.root == "scene" and n.visible]


def centre_of(node) -> Vec:
    if node.bbox is None:
        return tuple(node.position)
    lo, hi = node.bbox
    return tuple((lo[i] + hi[i]) / 2 for i in range(3))


def assert_spheres_at(xr, corners: list[Vec], when: str) -> dict[Vec, Vec]:
    """Exactly one shown sphere centred on each of `corners` and none elsewhere; each the stated size.

    Returns each corner's sphere position (to check later that it stays)."""
    __tracebackhide__ = True
    nodes = shown_spheres(xr)
    centres = [centre_of(n) for n in nodes]
    assert len(nodes) == len(corners), (
        f"expected exactly {len(corners)} shown spheres tagged {TAG!r} ({when}), one per corner at "
        f"{', '.join(_fmt(c) for c in corners) or 'none'}; observed {len(nodes)} at "
        f"{', '.join(_fmt(c) for c in centres) or 'none'}"
    )
    where: dict[Vec, Vec] = {}
    for c in corners:
        near = [i for i, p in enumerate(centres) if math.dist(p, c) <= CENTRE_TOL]
        assert len(near) == 1, (
            f"expected one sphere centred on the corner {_fmt(c)} (within {CENTRE_TOL} m, {when}); observed "
            f"{len(near)} there; sphere centres: {', '.join(_fmt(p) for p in centres)}"
        )
        node = nodes[near[0]]
        assert node.size is not None, f"the sphere at {_fmt(c)} has no geometry"
        for axis, extent in zip("xyz", node.size, strict=True):
            assert abs(extent - 2 * RADIUS) <= SIZE_TOL * 2 * RADIUS, (
                f"expected a sphere {RADIUS} m in radius ({2 * RADIUS} m across, within {SIZE_TOL:.0%}) at "
                f"{_fmt(c)} ({when}); observed {extent:.3f} m along {axis} (size {_fmt(node.size)})"
            )
        where[c] = tuple(node.position)
    return where


def assert_drawn_as_spheres(xr) -> None:
    __tracebackhide__ = True
    drawn = [d for d in xr.drawn(["mesh"]) if d.tags and d.tags[0] == TAG]
    assert drawn, f"expected the {TAG!r} spheres drawn as meshes; none drawn"
    for d in drawn:
        assert (
            d.geometry in ("SphereGeometry", "IcosahedronGeometry", "OctahedronGeometry") or "Sphere" in d.geometry
        ), f"expected each corner marker drawn as a sphere; observed a {d.type} with {d.geometry or 'no geometry'}"


def assert_none_shown(xr, when: str) -> None:
    __tracebackhide__ = True
    nodes = shown_spheres(xr)
    assert not nodes, (
        f"expected no corner sphere shown {when}; observed {len(nodes)} at "
        f"{', '.join(_fmt(centre_of(n)) for n in nodes)}"
    )


def wait_for_spheres(xr, corners: list[Vec], since: int, what: str) -> dict[Vec, Vec]:
    """Step until there are as many shown spheres as `corners` (at most half a second after `since`),
    then check them."""
    __tracebackhide__ = True
    while len(shown_spheres(xr)) < len(corners):
        assert xr.frame - since < SOON, (
            f"expected {len(corners)} corner spheres within half a second ({SOON} frames), {what}; observed "
            f"{len(shown_spheres(xr))} {xr.frame - since} frames later"
        )
        xr.step(1)
    return assert_spheres_at(xr, corners, what)


def assert_stay(xr, where: dict[Vec, Vec], corners: list[Vec], when: str) -> None:
    __tracebackhide__ = True
    now = assert_spheres_at(xr, corners, when)
    for c, p in where.items():
        moved = math.dist(now[c], p)
        assert moved <= STILL_TOL, (
            f"expected the sphere on the corner {_fmt(c)} to stay where it was shown, {_fmt(p)} ({when}); observed "
            f"it at {_fmt(now[c])}, {moved:.3f} m away"
        )


@pytest.mark.xr_scenes("living_room")
def test_the_living_room_has_a_sphere_on_each_of_its_four_corners_and_they_stay(xr):
    planes = get_scene("living_room").planes()
    n, s, e, w = (wall_by_side(planes, side) for side in ("north", "south", "east", "west"))
    y = floor_of(planes)["position"]["y"]
    corners = [corner(e, n, y), corner(w, n, y), corner(e, s, y), corner(w, s, y)]
    where = wait_for_spheres(xr, corners, 0, "after the app started in the living room")
    assert_drawn_as_spheres(xr)
    xr.wait(1000)
    assert_stay(xr, where, corners, "a second after they were shown")
    xr.head.walk([(1.5, 1.5, -2.5), (-1.5, 1.5, 0.5)], speed=1.0)
    xr.head.rotate(yaw=120, pitch=-20)
    xr.wait(500)
    assert_stay(xr, where, corners, "after the user walked about and looked round")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_in_the_kitchen_corners_appear_as_their_walls_are_detected_one_by_one(xr):
    planes = get_scene("kitchen").planes()
    n, s, e, w = (wall_by_side(planes, side) for side in ("north", "south", "east", "west"))
    floor = floor_of(planes)
    y = floor["position"]["y"]
    xr.plane_detection.withhold()
    for _ in range(30):
        assert_none_shown(xr, "before plane detection has found any plane")
        xr.step(1)
    xr.plane_detection.add(floor, n)
    for _ in range(40):
        xr.step(1)
        assert_none_shown(xr, "with the floor and a single wall detected")
    xr.plane_detection.add(s)
    for _ in range(40):
        xr.step(1)
        assert_none_shown(xr, "with the floor and two opposite, parallel walls detected")
    xr.plane_detection.add(e)
    first = [corner(e, n, y), corner(e, s, y)]
    where = wait_for_spheres(xr, first, xr.frame, "once the east wall was detected (joining the north and south walls)")
    for i in range(40):
        xr.step(1)
        assert_stay(xr, where, first, f"{i + 1} frames after the east wall was detected")
    xr.plane_detection.add(w)
    all4 = [*first, corner(w, n, y), corner(w, s, y)]
    wait_for_spheres(xr, all4, xr.frame, "once the west wall was detected as well")
    xr.wait(1000)
    assert_stay(xr, where, all4, "a second after the west wall was detected")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room")
def test_walls_detected_before_the_floor_get_spheres_at_the_floor_s_height_once_it_is_detected(xr):
    planes = get_scene("living_room").planes()
    n, s, e, w = (wall_by_side(planes, side) for side in ("north", "south", "east", "west"))
    xr.plane_detection.withhold()
    xr.step(10)
    xr.plane_detection.add(w, n, e, s)
    for _ in range(60):
        xr.step(1)
        assert_none_shown(xr, "while walls but no floor have been detected")
    floor = copy.deepcopy(floor_of(planes))
    floor["position"]["y"] = 0.08  # a raised floor: the height must come from the detected floor plane
    xr.plane_detection.add(floor)
    y = floor["position"]["y"]
    corners = [corner(e, n, y), corner(w, n, y), corner(e, s, y), corner(w, s, y)]
    wait_for_spheres(xr, corners, xr.frame, "once a floor at y = 0.08 m was detected after the walls")
    xr.wait(500)
    assert_spheres_at(xr, corners, "half a second after the floor was detected")
    assert_no_errors(xr)


def test_in_a_room_turned_at_an_angle_corners_are_where_the_walls_planes_cross_not_where_they_end(xr):
    planes, corners = turned_room()
    xr.plane_detection.withhold()
    xr.step(10)
    xr.plane_detection.add(*planes)
    where = wait_for_spheres(xr, corners, xr.frame, "once a room turned 25 degrees, with a door plane, was detected")
    assert_drawn_as_spheres(xr)
    xr.head.walk([(1.0, 1.5, -1.0)], speed=1.0)
    xr.head.rotate(yaw=-70, pitch=-25)
    xr.wait(500)
    assert_stay(xr, where, corners, "after the user walked into the turned room and looked round")
    assert_no_errors(xr)


def test_walls_meeting_at_other_angles_than_right_angles_make_corners_too(xr):
    planes, corners = slanted_room()
    assert len(corners) == 8
    xr.plane_detection.withhold()
    xr.step(10)
    xr.plane_detection.add(*planes)
    where = wait_for_spheres(xr, corners, xr.frame, "once a five-walled room with a wall at 45 degrees was detected")
    xr.head.walk([(0.5, 1.5, -1.5)], speed=1.0)
    xr.head.rotate(yaw=150, pitch=-20)
    xr.wait(500)
    assert_stay(xr, where, corners, "after the user walked into the room and looked round")
    assert_no_errors(xr)
