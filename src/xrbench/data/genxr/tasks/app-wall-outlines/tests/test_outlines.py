"""Runtime tests of the outlines drawn around the room's detected walls and floor.

They check that
- in the living room (four walls, a floor, a table and a couch) and in the kitchen (four walls, a
  floor, an island and a counter), within half a second of the start every detected wall has
  exactly one outline and the floor exactly one: a line object (no filled surface) whose box
  matches its plane's box within 3 cm, walls' outlines cyan (#00ffff), the floor's orange
  (#ff8000); nothing else is drawn (no outline for the table, couch or counter); the outlines stay
  exactly where they are, and no more appear, while the user walks, turns and crouches;
- when plane detection reports its planes late (the harness withholds them at start-up and
  delivers them later, as a headset's detection does), nothing is drawn while no plane is known;
  detected furniture adds nothing; each plane gets its outline within half a second of being
  detected, in either order: in the living room the furniture, then the walls, then the floor
  (which has no outline until then); in the kitchen the floor alone first, then the furniture,
  then the walls; earlier outlines stay where they are, and a second later there is still
  exactly one outline per plane;
- in an L-shaped room turned 25 degrees about y (planes the test describes: six walls, a floor
  with six corners, a table and a door plane standing against a wall), each outline runs along
  its plane's polygon (not the plane's box, which a turned or L-shaped plane does not fill) and
  the table and the door get none.

Each test runs for a right- and for a left-dominant user (the hands play no part).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.rooms import floor_plane, room_planes, turned, wall_plane

WALL_TAG, FLOOR_TAG = "wall-outline", "floor-outline"
WALL_COLOUR, FLOOR_COLOUR = "#00ffff", "#ff8000"
BOX_TOL = 0.03  # metres: the outline traces the plane's boundary within 3 cm
STILL_TOL = 0.003  # metres an outline may move ("stays exactly where it is")
SOON = 30  # frames: half a second at 60 Hz
EDGE_SAMPLES = 24  # points checked along each edge of a plane

# The world-space segments a line object draws (Line, LineLoop, LineSegments, and the fat
# Line2/LineSegments2 of three's addons), within its geometry's draw range.
_SEGMENTS_JS = """
(h, uuid) => {
  const T = h.THREE;
  const o = h.core.scene.getObjectByProperty('uuid', uuid);
  if (!o || !o.geometry) return null;
  o.updateWorldMatrix(true, false);
  const g = o.geometry, m = o.matrixWorld;
  const w = (a, i) => new T.Vector3().fromBufferAttribute(a, i).applyMatrix4(m).toArray();
  const segs = [];
  const s = g.attributes.instanceStart, e = g.attributes.instanceEnd;
  if (s && e) {
    const n = Math.min(s.count, Number.isFinite(g.instanceCount) ? g.instanceCount : s.count);
    for (let i = 0; i < n; i++) segs.push([w(s, i), w(e, i)]);
    return segs;
  }
  const p = g.attributes.position;
  if (!p) return segs;
  let idx = g.index ? Array.from(g.index.array) : Array.from({length: p.count}, (_, i) => i);
  const start = g.drawRange.start, count = Math.min(g.drawRange.count, idx.length - start);
  idx = idx.slice(start, start + count);
  if (o.isLineSegments) {
    for (let i = 0; i + 1 < idx.length; i += 2) segs.push([w(p, idx[i]), w(p, idx[i + 1])]);
  } else {
    for (let i = 0; i + 1 < idx.length; i++) segs.push([w(p, idx[i]), w(p, idx[i + 1])]);
    if (o.isLineLoop && idx.length > 2) segs.push([w(p, idx[idx.length - 1]), w(p, idx[0])]);
  }
  return segs;
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _box_gap(a, b) -> float:
    """The largest difference between the corners of two boxes (min, max)."""
    return max(abs(a[i][k] - b[i][k]) for i in range(2) for k in range(3))


def _point_segment(p, a, b) -> float:
    ab = [b[k] - a[k] for k in range(3)]
    ap = [p[k] - a[k] for k in range(3)]
    n = sum(v * v for v in ab)
    t = 0.0 if n < 1e-12 else max(0.0, min(1.0, sum(ab[k] * ap[k] for k in range(3)) / n))
    return math.dist(p, [a[k] + t * ab[k] for k in range(3)])


def polygon_edges(plane):
    """The edges of a plane's boundary, as detection reported it (world coordinates)."""
    pts = plane.polygon
    assert len(pts) >= 3, f"test set-up: the detected {plane.label} reports no boundary polygon"
    return [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]


def assert_traces_boundary(xr, node, plane, what: str, when: str) -> None:
    """Every drawn point of the line lies on the plane's boundary, and the line covers all of it."""
    __tracebackhide__ = True
    segs = xr.probe(_SEGMENTS_JS, node.uuid)
    assert segs, f"{when}, the {what}'s outline draws no line segment"
    edges = polygon_edges(plane)
    for a, b in segs:
        for p in (a, b, [(a[k] + b[k]) / 2 for k in range(3)]):
            off = min(_point_segment(p, *e) for e in edges)
            assert off <= BOX_TOL, (
                f"{when}, expected the {what}'s outline to run along the plane's edges (within {BOX_TOL} m); "
                f"the point {_fmt(p)} of it is {off:.3f} m from them"
            )
    for e0, e1 in edges:
        for i in range(EDGE_SAMPLES + 1):
            q = [e0[k] + (e1[k] - e0[k]) * i / EDGE_SAMPLES for k in range(3)]
            gap = min(_point_segment(q, a, b) for a, b in segs)
            assert gap <= BOX_TOL, (
                f"{when}, expected the {what}'s outline to trace the whole boundary; the edge point {_fmt(q)} "
                f"is {gap:.3f} m from the line"
            )


def outlines(xr, tag: str):
    """The shown objects of the app's scene tagged `tag`."""
    return [n for n in xr.tagged(tag) if n.root == "scene" and n.visible]


def assert_nothing_drawn(xr, when: str) -> None:
    __tracebackhide__ = True
    drawn = xr.drawn()
    assert not drawn, f"{when}, expected nothing drawn; observed {[(d.type, d.tags) for d in drawn]}"


def assert_outlines(xr, walls, floors, when: str) -> dict[str, tuple]:
    """One outline per plane of `walls` and `floors`, each tracing its plane, in its colour;
    nothing else drawn. Returns the outlines' boxes by uuid."""
    __tracebackhide__ = True
    drawn = xr.drawn()
    by_uuid = {d.uuid: d for d in drawn}
    boxes = {}
    for tag, planes, colour, what in (
        (WALL_TAG, walls, WALL_COLOUR, "wall"),
        (FLOOR_TAG, floors, FLOOR_COLOUR, "floor"),
    ):
        nodes = outlines(xr, tag)
        assert len(nodes) == len(planes), (
            f"{when}, expected {len(planes)} object(s) tagged {tag!r} (one per detected {what}); observed {len(nodes)}"
        )
        unmatched = list(planes)
        for node in nodes:
            d = by_uuid.get(node.uuid)
            assert d is not None and d.kind == "line", (
                f"{when}, expected each {tag!r} object to be drawn as a line; observed "
                f"{(d.type, d.kind) if d else node.type + ' (not drawn itself)'}"
            )
            assert node.bbox is not None, f"{when}, the {tag!r} line has no extent"
            best = min(unmatched, key=lambda p: _box_gap(node.bbox, p.bbox), default=None)
            assert best is not None and _box_gap(node.bbox, best.bbox) <= BOX_TOL, (
                f"{when}, expected the {tag!r} line to trace a detected {what}'s boundary (its box within "
                f"{BOX_TOL} m of the plane's); observed box {_fmt(node.bbox[0])}-{_fmt(node.bbox[1])}, "
                f"detected {what}s not yet outlined: "
                + "; ".join(f"{_fmt(p.bbox[0])}-{_fmt(p.bbox[1])}" for p in unmatched)
            )
            unmatched.remove(best)
            assert_traces_boundary(xr, node, best, what, when)
            assert (node.color or "").lower() == colour, (
                f"{when}, expected the {what}'s outline coloured {colour}; observed {node.color}"
            )
            boxes[node.uuid] = node.bbox
    others = [d for d in drawn if d.uuid not in boxes]
    assert not others, (
        f"{when}, expected nothing drawn but the outlines of the walls and the floor; also observed "
        f"{[(d.type, d.geometry, d.tags) for d in others]}"
    )
    return boxes


def wait_for_outlines(xr, walls, floors, since: int, when: str) -> dict[str, tuple]:
    """Steps until the outlines are all there, at most half a second after frame `since`."""
    __tracebackhide__ = True
    while xr.frame < since + SOON:
        if len(outlines(xr, WALL_TAG)) >= len(walls) and len(outlines(xr, FLOOR_TAG)) >= len(floors):
            break
        xr.step(1)
    return assert_outlines(xr, walls, floors, f"{when} (frame {xr.frame}, {xr.frame - since} frames later)")


def assert_stay(xr, boxes: dict[str, tuple], walls, floors, when: str) -> None:
    __tracebackhide__ = True
    now = assert_outlines(xr, walls, floors, when)
    for uuid, box in boxes.items():
        assert uuid in now, f"{when}, an outline was replaced by another"
        assert _box_gap(now[uuid], box) <= STILL_TOL, (
            f"{when}, expected the outlines to stay where they were; one moved from "
            f"{_fmt(box[0])}-{_fmt(box[1])} to {_fmt(now[uuid][0])}-{_fmt(now[uuid][1])}"
        )


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_every_wall_and_the_floor_are_outlined_in_their_colours_and_stay(xr):
    walls, floors = xr.planes("wall"), xr.planes("floor")
    furniture = [p for p in xr.planes() if p.label not in ("wall", "floor")]
    assert xr.planes(), "plane detection reports no plane: the app did not enable plane detection"
    assert len(walls) == 4 and len(floors) == 1 and furniture, "test set-up: the scene's planes"
    boxes = wait_for_outlines(xr, walls, floors, 0, "after the app started")
    xr.wait(500)
    assert_stay(xr, boxes, walls, floors, "half a second later")
    xr.head.rotate(yaw=-90)  # the user turns to another wall ...
    xr.head.walk([(1.0, 1.5, -0.5)], speed=1.0)  # ... walks ...
    xr.head.move((0.0, -0.5, 0.0), speed=0.5)  # ... crouches ...
    xr.head.rotate(yaw=150, pitch=-30)  # ... and looks down at the far corner
    xr.wait(500)
    assert_stay(xr, boxes, walls, floors, "after the user turned, walked and crouched")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_planes_that_arrive_later_are_outlined_as_they_come(xr):
    kitchen = xr.scene.name == "kitchen"
    xr.plane_detection.withhold()  # no plane has been detected yet
    for _ in range(30):
        assert_nothing_drawn(xr, f"before any plane was detected (frame {xr.frame})")
        xr.step(1)
    floors = []
    if kitchen:  # in the kitchen the floor is found first, alone
        assert [p["label"] for p in xr.plane_detection.deliver("floor")] == ["floor"], "test set-up: the floor"
        since = xr.frame
        floors = xr.planes("floor")
        xr.step(1)
        boxes = wait_for_outlines(xr, [], floors, since, "once the floor was detected, before anything else")
    else:
        boxes = {}
    labels = ["table", "couch"] if not kitchen else ["table"]
    xr.plane_detection.deliver(*labels)  # then the furniture
    for _ in range(45):
        xr.step(1)
        assert_stay(xr, boxes, [], floors, f"while only furniture ({', '.join(labels)}) and no wall was detected")
    assert not xr.planes("wall"), "test set-up: no wall delivered yet"
    xr.plane_detection.deliver("wall")  # then the walls
    since = xr.frame
    walls = xr.planes("wall")
    assert len(walls) == 4, "test set-up: the walls delivered"
    xr.step(1)
    boxes.update(wait_for_outlines(xr, walls, floors, since, "once the walls were detected"))
    for _ in range(30):
        xr.step(1)
    assert_stay(xr, boxes, walls, floors, "half a second after the walls were outlined")
    if not kitchen:  # in the living room the floor comes last
        xr.plane_detection.deliver("floor")
        since = xr.frame
        floors = xr.planes("floor")
        xr.step(1)
        boxes.update(wait_for_outlines(xr, walls, floors, since, "once the floor was detected, after the walls"))
    xr.wait(1000)
    assert_stay(xr, boxes, walls, floors, "a second after every wall and the floor were outlined")
    assert_no_errors(xr)


L_ROOM = [(-2.5, -3.4), (2.5, -3.4), (2.5, -0.9), (0.5, -0.9), (0.5, 0.6), (-2.5, 0.6)]
TURN, PIVOT = 25.0, (0.0, -1.4)


def test_in_an_l_shaped_room_turned_at_an_angle_the_outlines_follow_each_plane_s_polygon(xr):
    xr.plane_detection.withhold()
    floor, *walls = room_planes(turned(L_ROOM, TURN, about=PIVOT), height=2.4)
    table = floor_plane(turned([(-1.6, -2.4), (-0.4, -2.4), (-0.4, -1.6), (-1.6, -1.6)], TURN, about=PIVOT), 0.75)
    table["label"] = "table"
    a, b = turned([(-1.0, -3.39), (0.0, -3.39)], TURN, about=PIVOT)  # a door 1 cm in front of the north wall
    door = wall_plane(a, b, inside=PIVOT, height=2.0, label="door")
    xr.step(5)
    assert_nothing_drawn(xr, "before any plane was detected")
    xr.plane_detection.add(table, door, *walls, floor)
    since = xr.frame
    walls, floors = xr.planes("wall"), xr.planes("floor")
    assert len(walls) == 6 and len(floors) == 1, "test set-up: the L-shaped room's planes"
    xr.step(1)
    boxes = wait_for_outlines(xr, walls, floors, since, "once an L-shaped room turned 25 degrees was detected")
    xr.head.walk([(-1.0, 1.5, -1.5)], speed=1.0)
    xr.head.rotate(yaw=110, pitch=-25)
    xr.wait(500)
    assert_stay(xr, boxes, walls, floors, "after the user walked into the room and looked round")
    assert_no_errors(xr)
