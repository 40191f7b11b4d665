"""Runtime tests of the wall painter: a palette of four swatches held over one pinching hand, a brush
hand that picks a colour by touching a swatch and paints the wall its ray meets by pinching.

What is read, and from where:
- the swatches are the shown objects tagged 'paint-swatch' (their world boxes: centre and size,
  their material colour); the palette hand's fingertip is the simulator's index-finger-tip joint;
- a wall's paint is a shown mesh tagged 'wall-paint'; its triangles are read from its geometry (in
  the world frame) and compared with the walls' polygons as detection reported them (the harness's
  own record of the planes): every vertex within 1 cm of the wall's plane and of its polygon, every
  point of the polygon (a grid, 1 cm inside its edges) within 1 cm of a triangle, the triangles'
  area the polygon's within 2%; its material transparent with an opacity in [0.3, 0.7];
- which plane a brush ray meets is worked out here from the hand's controller pose (read just
  before the pinch) and the detected polygons, so every target is checked to be what the test
  means (a wall, the floor, a lowered ceiling, a gap between walls).

Scenes and poses: the living room and the kitchen (four walls, a floor, tables and a couch), and a
room the test describes, turned 30 degrees, whose walls are found two at a time, short of the
corners (gaps between them), with a floor detected 15 cm above the walls' lower edges and a
lowered strip of ceiling in front of one wall. The user walks, turns and crouches. Each test runs
for a right- and a left-dominant user: the non-dominant hand opens the palette first, and the
roles are swapped later in the flows.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.rooms import floor_plane, room_planes, turned

SWATCH, PAINT = "paint-swatch", "wall-paint"
RED, GREEN, BLUE, YELLOW = "#f44336", "#4caf50", "#2196f3", "#ffeb3b"
COLOURS = (RED, GREEN, BLUE, YELLOW)
DIAMETER, DIAMETER_TOL = 0.04, 0.005  # a swatch is a sphere 4 cm across, within 5 mm
LIFT, LIFT_TOL = 0.12, 0.02  # swatch centres 12 cm above the palette hand's fingertip
ROW_TOL = 0.02  # the row's middle horizontally within 2 cm of the fingertip
SPACING, SPACING_TOL = 0.07, 0.01  # neighbouring centres 7 cm apart
OVERLAY_TOL = 0.01  # the overlay covers the polygon within 1 cm, in the plane within 1 cm
AREA_TOL = 0.02  # its area the polygon's within 2%
STILL = 0.003  # metres an overlay may move ("stays exactly where it is")
QUIET = 10  # frames waited after a pinch that must paint (or open) nothing
QUICK = 3.0  # m/s (5 cm a frame): hand moves whose path does not matter

Vec = Sequence[float]

_TRIANGLES_JS = """
(h, uuid) => {
  const T = h.THREE;
  const o = h.core.scene.getObjectByProperty('uuid', uuid);
  if (!o || !o.geometry || !o.geometry.attributes || !o.geometry.attributes.position) return null;
  o.updateWorldMatrix(true, false);
  const g = o.geometry, p = g.attributes.position;
  let idx = g.index ? Array.from(g.index.array) : Array.from({length: p.count}, (_, i) => i);
  const start = g.drawRange.start, count = Math.min(g.drawRange.count, idx.length - start);
  idx = idx.slice(start, start + count);
  const w = (i) => new T.Vector3().fromBufferAttribute(p, i).applyMatrix4(o.matrixWorld).toArray();
  const tris = [];
  for (let i = 0; i + 2 < idx.length; i += 3) tris.push([w(idx[i]), w(idx[i + 1]), w(idx[i + 2])]);
  const m = Array.isArray(o.material) ? o.material[0] : o.material;
  return {tris, isMesh: !!o.isMesh, transparent: !!(m && m.transparent), opacity: m ? m.opacity : null};
}
"""


# --- vectors -----------------------------------------------------------------------------------


def _sub(a: Vec, b: Vec) -> list[float]:
    return [a[k] - b[k] for k in range(3)]


def _dot(a: Vec, b: Vec) -> float:
    return sum(a[k] * b[k] for k in range(3))


def _cross(a: Vec, b: Vec) -> list[float]:
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def _norm(a: Vec) -> float:
    return math.sqrt(_dot(a, a))


def _unit(a: Vec) -> list[float]:
    n = _norm(a)
    return [v / n for v in a]


def _fmt(p: Vec) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _centre(node) -> list[float]:
    lo, hi = node.bbox
    return [(lo[k] + hi[k]) / 2 for k in range(3)]


def _seg2(p, a, b) -> float:
    ab = (b[0] - a[0], b[1] - a[1])
    n = ab[0] ** 2 + ab[1] ** 2
    t = 0.0 if n < 1e-12 else max(0.0, min(1.0, ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / n))
    return math.hypot(p[0] - a[0] - t * ab[0], p[1] - a[1] - t * ab[1])


def _inside2(p, poly) -> bool:
    inside = False
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        if (a[1] > p[1]) != (b[1] > p[1]):
            x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if p[0] < x:
                inside = not inside
    return inside


def _outside2(p, poly) -> float:
    """How far a 2-D point lies outside a polygon (0 inside)."""
    if _inside2(p, poly):
        return 0.0
    return min(_seg2(p, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


class Flat:
    """A detected plane's polygon with a 2-D frame in its plane."""

    def __init__(self, plane):
        self.plane = plane
        self.label = plane.label
        pts = [list(p) for p in plane.polygon]
        assert len(pts) >= 3, f"test set-up: the detected {plane.label} reports no polygon"
        n = [0.0, 0.0, 0.0]
        for i in range(len(pts)):  # Newell's normal
            a, b = pts[i], pts[(i + 1) % len(pts)]
            n[0] += (a[1] - b[1]) * (a[2] + b[2])
            n[1] += (a[2] - b[2]) * (a[0] + b[0])
            n[2] += (a[0] - b[0]) * (a[1] + b[1])
        self.normal = _unit(n)
        self.origin = pts[0]
        self.u = _unit(_sub(pts[1], pts[0]))
        self.v = _cross(self.normal, self.u)
        self.poly = [self.to2(p) for p in pts]
        self.area = abs(
            sum(a[0] * b[1] - b[0] * a[1] for a, b in zip(self.poly, [*self.poly[1:], self.poly[0]], strict=True)) / 2
        )
        self.centroid = [sum(p[k] for p in pts) / len(pts) for k in range(3)]

    def to2(self, p: Vec) -> tuple[float, float]:
        d = _sub(p, self.origin)
        return (_dot(d, self.u), _dot(d, self.v))

    def height(self, p: Vec) -> float:
        return _dot(_sub(p, self.origin), self.normal)

    def off(self, p: Vec) -> float:
        """Distance of a point from the polygon's region (in the plane and out of it)."""
        return math.hypot(self.height(p), _outside2(self.to2(p), self.poly))

    def hit(self, origin: Vec, direction: Vec) -> float | None:
        """Distance along a ray to where it meets this polygon, or None."""
        den = _dot(self.normal, direction)
        if abs(den) < 1e-9:
            return None
        t = _dot(self.normal, _sub(self.origin, origin)) / den
        if t <= 0:
            return None
        q = [origin[k] + t * direction[k] for k in range(3)]
        return t if _inside2(self.to2(q), self.poly) else None

    def name(self) -> str:
        return f"the {self.label} around {_fmt(self.centroid)}"


def flats(xr, *labels: str) -> list[Flat]:
    return [Flat(p) for p in xr.planes() if p.label in labels]


def room(xr) -> tuple[list[Flat], list[Flat]]:
    """The detected walls, and the walls with the floors and ceilings (what a brush ray can meet)."""
    walls = flats(xr, "wall")
    return walls, walls + flats(xr, "floor", "ceiling")


# --- readers -----------------------------------------------------------------------------------


def swatches(xr):
    return [n for n in xr.tagged(SWATCH) if n.root == "scene" and n.visible]


def overlays(xr):
    return [n for n in xr.tagged(PAINT) if n.root == "scene" and n.visible]


def assert_drawn_only_ours(xr, when: str) -> None:
    __tracebackhide__ = True
    others = [d for d in xr.drawn() if not d.tags or d.tags[0] not in (SWATCH, PAINT)]
    assert not others, (
        f"{when}, expected nothing drawn but the swatches and the wall paint; also observed "
        f"{[(d.type, d.geometry, d.tags) for d in others]}"
    )


def assert_no_palette(xr, when: str) -> None:
    __tracebackhide__ = True
    shown = swatches(xr)
    assert not shown, f"{when}, expected no swatch shown (the palette closed); observed {len(shown)} shown"


def assert_palette(xr, tip: Vec, when: str) -> dict[str, list[float]]:
    """Four swatches in their colours, 4 cm spheres, in a row 12 cm over `tip`. Returns centres by colour."""
    __tracebackhide__ = True
    shown = swatches(xr)
    assert len(shown) == 4, f"{when}, expected the palette's 4 swatches shown; observed {len(shown)}"
    colours = sorted((n.color or "").lower() for n in shown)
    assert colours == sorted(COLOURS), f"{when}, expected swatches coloured {sorted(COLOURS)}; observed {colours}"
    centres = {}
    for n in shown:
        assert n.bbox is not None, f"{when}, the {n.color} swatch has no extent"
        size = n.size
        assert all(abs(s - DIAMETER) <= DIAMETER_TOL for s in size), (
            f"{when}, expected the {n.color} swatch 4 cm across (within 5 mm) every way; observed size {_fmt(size)}"
        )
        c = _centre(n)
        assert abs(c[1] - tip[1] - LIFT) <= LIFT_TOL, (
            f"{when}, expected the {n.color} swatch's centre {LIFT} m above the palette hand's fingertip "
            f"{_fmt(tip)} (within {LIFT_TOL} m); observed centre {_fmt(c)}, {c[1] - tip[1]:.3f} m above it"
        )
        centres[n.color.lower()] = c
    mid = [sum(c[k] for c in centres.values()) / 4 for k in range(3)]
    gap = math.hypot(mid[0] - tip[0], mid[2] - tip[2])
    assert gap <= ROW_TOL, (
        f"{when}, expected the row's middle horizontally within {ROW_TOL} m of the palette hand's fingertip "
        f"{_fmt(tip)}; observed middle {_fmt(mid)}, {gap:.3f} m off"
    )
    pts = list(centres.values())
    a, b = max(((p, q) for p in pts for q in pts), key=lambda pq: math.dist(pq[0], pq[1]))
    axis = _unit([b[0] - a[0], 0.0, b[2] - a[2]])
    order = sorted(pts, key=lambda p: _dot(_sub(p, a), axis))
    for p, q in itertools.pairwise(order):
        d = math.dist(p, q)
        assert abs(d - SPACING) <= SPACING_TOL, (
            f"{when}, expected neighbouring swatches {SPACING} m apart in a row; observed {_fmt(p)} and {_fmt(q)} "
            f"{d:.3f} m apart"
        )
    return centres


def paint_of(xr, walls: list[Flat], when: str) -> dict[int, tuple[str, tuple]]:
    """Every shown overlay matched to the wall it covers: {wall index: (colour, bbox)}, each overlay checked
    to cover its wall's polygon exactly, translucent."""
    __tracebackhide__ = True
    found: dict[int, tuple[str, tuple]] = {}
    for node in overlays(xr):
        geo = xr.probe(_TRIANGLES_JS, node.uuid)
        assert geo and geo["isMesh"] and geo["tris"], (
            f"{when}, expected each {PAINT!r} object to be a mesh with triangles; observed {node.type}"
        )
        tris = geo["tris"]
        verts = [v for t in tris for v in t]
        errors = [max(w.off(v) for v in verts) for w in walls]
        k = min(range(len(walls)), key=lambda i: errors[i]) if walls else None
        assert k is not None and errors[k] <= OVERLAY_TOL, (
            f"{when}, expected each overlay to lie on a detected wall's polygon (every vertex within "
            f"{OVERLAY_TOL} m of it); the overlay with box {_fmt(node.bbox[0])}-{_fmt(node.bbox[1])} is "
            f"{min(errors, default=float('inf')):.3f} m off the nearest wall's"
        )
        wall = walls[k]
        assert k not in found, f"{when}, expected one overlay per painted wall; {wall.name()} has two"
        area = sum(_norm(_cross(_sub(t[1], t[0]), _sub(t[2], t[0]))) / 2 for t in tris)
        assert abs(area - wall.area) <= AREA_TOL * wall.area, (
            f"{when}, expected the overlay on {wall.name()} to cover its polygon ({wall.area:.3f} m2, within 2%); "
            f"its triangles add up to {area:.3f} m2"
        )
        flat = [[wall.to2(v) for v in t] for t in tris]
        xs, ys = [p[0] for p in wall.poly], [p[1] for p in wall.poly]
        for i in range(13):
            for j in range(13):
                q = (min(xs) + (max(xs) - min(xs)) * i / 12, min(ys) + (max(ys) - min(ys)) * j / 12)
                if not _inside2(q, wall.poly) or min(_seg2(q, a, b) for a, b in _edges(wall.poly)) < OVERLAY_TOL:
                    continue
                gap = min(_outside2(q, t) for t in flat)
                assert gap <= OVERLAY_TOL, (
                    f"{when}, expected the overlay to cover all of {wall.name()}'s polygon; a point of it "
                    f"{gap:.3f} m from the overlay is uncovered"
                )
        assert geo["transparent"] and geo["opacity"] is not None and 0.3 <= geo["opacity"] <= 0.7, (
            f"{when}, expected the overlay translucent (transparent: true, opacity 0.3-0.7); observed "
            f"transparent={geo['transparent']}, opacity={geo['opacity']}"
        )
        found[k] = ((node.color or "").lower(), node.bbox)
    return found


def _edges(poly):
    return [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]


def assert_paint(xr, walls: list[Flat], expected: dict[int, str], when: str, before=None) -> dict:
    """The walls in `expected` painted in their colours, exactly, and no other wall painted;
    overlays of `before` (a result of this function) where they were."""
    __tracebackhide__ = True
    found = paint_of(xr, walls, when)
    observed = {k: c for k, (c, _) in found.items()}
    assert observed == expected, (
        f"{when}, expected paint "
        + (", ".join(f"{walls[k].name()}: {c}" for k, c in sorted(expected.items())) or "on no wall")
        + "; observed "
        + (", ".join(f"{walls[k].name()}: {c}" for k, c in sorted(observed.items())) or "no paint")
    )
    for k, (_, box) in (before or {}).items():
        if k in found:
            moved = max(abs(found[k][1][i][j] - box[i][j]) for i in range(2) for j in range(3))
            assert moved <= STILL, (
                f"{when}, expected the paint on {walls[k].name()} to stay where it was; it moved {moved:.3f} m"
            )
    assert_drawn_only_ours(xr, when)
    return found


# --- acting ------------------------------------------------------------------------------------


def side(hand) -> float:
    return -1.0 if hand.handedness == "left" else 1.0


def hold_palette_hand(xr, hand) -> None:
    """Put the palette hand's fingertip low in front of the user, on its own side."""
    hand.move_hand((0.15 * side(hand), 1.12, -0.45), anchor="fingertip", speed=QUICK)


def brush_ready(xr, hand) -> None:
    hand.move_hand((0.3 * side(hand), 1.05, -0.3), speed=QUICK)


def open_palette(xr, hand, when: str) -> dict[str, list[float]]:
    """Start the palette hand's pinch; the palette must show by the next frame."""
    __tracebackhide__ = True
    hand.start_select(1)
    xr.step(1)
    assert_palette(xr, hand.fingertip, f"{when} (the frame after the {hand.role} hand's pinch started)")
    xr.step(QUIET)
    return assert_palette(xr, hand.fingertip, f"{when}, {QUIET} frames later")


def touch(xr, hand, colour: str, when: str) -> None:
    """Bring the brush fingertip onto the swatch of `colour` from 10 cm above it, then lift it off and
    take it away to its own side, 10 cm above the row (so it passes no other swatch)."""
    target = [s for s in swatches(xr) if (s.color or "").lower() == colour]
    assert len(target) == 1, f"{when}, expected one shown swatch coloured {colour}; observed {len(target)}"
    c = _centre(target[0])
    tip = hand.fingertip
    top = c[1] + 0.10
    hand.move_hand((tip[0], max(tip[1], top), tip[2]), anchor="fingertip", speed=QUICK)
    hand.move_hand((c[0], top, c[2]), anchor="fingertip", speed=QUICK)
    hand.move_hand(c, anchor="fingertip", speed=QUICK)
    xr.step(3)
    hand.move_hand((c[0], top, c[2]), anchor="fingertip", speed=QUICK)
    hand.move_hand(
        (0.35 * side(hand), top, c[2]), anchor="fingertip", speed=QUICK
    )  # away over the row, to its own side


def aim(xr, hand, target: Vec, scene: list[Flat], means: str) -> Flat | None:
    """Point the hand's ray at `target`; returns the plane its ray meets first (checked to be `means`)."""
    hand.point_to(target, speed=100000.0)
    xr.step(1)
    st = hand.state
    hits = [(f.hit(st.position, st.ray_direction), f) for f in scene]
    hits = [(t, f) for t, f in hits if t is not None]
    first = min(hits, key=lambda h: h[0])[1] if hits else None
    got = first.label if first else "nothing"
    assert got == means, f"test set-up: the ray at {_fmt(target)} meets {got} first, not {means}"
    return first


def pinch_paint(xr, hand, when: str) -> None:
    """Start the brush hand's pinch and run that frame and the next."""
    hand.start_select(1)
    xr.step(1)


# --- tests -------------------------------------------------------------------------------------


def wall_points(walls: list[Flat]) -> dict[str, Vec]:
    """Points at mid height on the north (least z), west (least x) and east (most x) walls."""
    north = min(walls, key=lambda w: w.centroid[2])
    west = min(walls, key=lambda w: w.centroid[0])
    east = max(walls, key=lambda w: w.centroid[0])
    return {
        "north": (0.8, 1.6, north.centroid[2]),
        "west": (west.centroid[0], 1.6, -1.2),
        "east": (east.centroid[0], 1.6, -1.2),
    }


@pytest.mark.xr_scenes("living_room")
@pytest.mark.xr_timeout(600)
def test_the_palette_opens_on_the_pinching_hand_follows_it_and_closes_with_its_pinch(xr):
    palm, brush = xr.hand("non_dominant"), xr.hand("dominant")
    xr.step(2)
    assert_no_palette(xr, "at the start")
    assert_drawn_only_ours(xr, "at the start")
    hold_palette_hand(xr, palm)
    brush_ready(xr, brush)
    assert_no_palette(xr, "before any pinch")

    open_palette(xr, palm, "once the non-dominant hand pinched")
    # The palette follows the hand every frame, 1 cm a frame, across and up, then the user turns.
    start = palm.fingertip
    for goal in (
        (start[0] - 0.12 * side(palm), start[1] + 0.06, start[2] + 0.05),
        (start[0], start[1] - 0.08, start[2] - 0.06),
    ):
        here = palm.fingertip
        n = max(1, math.ceil(math.dist(here, goal) / 0.01))
        for i in range(1, n + 1):
            p = [here[k] + (goal[k] - here[k]) * i / n for k in range(3)]
            palm.move_hand(p, anchor="fingertip")
            assert_palette(xr, palm.fingertip, f"while the palette hand moves (frame {xr.frame})")
    xr.head.rotate(yaw=40.0)
    assert_palette(xr, palm.fingertip, "after the user turned 40 degrees left")
    xr.head.rotate(yaw=-40.0)
    hold_palette_hand(xr, palm)
    assert_palette(xr, palm.fingertip, "back in front of the user")

    # The brush hand's pinch opens no second palette and does not take it.
    brush.start_select(1)
    xr.step(QUIET)
    assert_palette(xr, palm.fingertip, "while the brush hand pinches too (palette still on the first hand)")
    brush.end_select(QUIET)
    assert_palette(xr, palm.fingertip, "after the brush hand released")

    # Releasing the palette hand's pinch closes it by the next frame.
    palm.end_select(1)
    xr.step(1)
    assert_no_palette(xr, "the frame after the palette hand's pinch ended")
    xr.step(QUIET)
    assert_no_palette(xr, f"{QUIET} frames after the palette hand's pinch ended")

    # Now the other hand opens it (roles swap); the first hand's pinch meanwhile opens nothing more.
    open_palette(xr, brush, "once the dominant hand pinched with no palette open")
    palm.start_select(1)
    xr.step(QUIET)
    assert_palette(xr, brush.fingertip, "while the other hand pinches too")
    # The palette hand lets go while the other hand still pinches: it closes, and the pinch that was
    # already going on opens nothing.
    brush.end_select(1)
    xr.step(1)
    assert_no_palette(xr, "the frame after the dominant hand's pinch ended (the other hand still pinching)")
    for _ in range(20):
        xr.step(1)
        assert_no_palette(xr, f"while only the pinch that was already going on is held (frame {xr.frame})")
    palm.end_select(QUIET)
    assert_no_palette(xr, "after both hands released")
    open_palette(xr, palm, "once the non-dominant hand pinched again")
    assert_drawn_only_ours(xr, "with the palette open")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room")
@pytest.mark.xr_timeout(600)
def test_a_picked_colour_paints_exactly_the_wall_the_brush_ray_meets(xr):
    palm, brush = xr.hand("non_dominant"), xr.hand("dominant")
    walls, scene = room(xr)
    assert len(walls) == 4, "test set-up: the room's four walls"
    at = wall_points(walls)
    table = next(p for p in xr.planes() if p.label == "table")
    xr.step(2)
    hold_palette_hand(xr, palm)
    brush_ready(xr, brush)
    painted = assert_paint(xr, walls, {}, "at the start")

    open_palette(xr, palm, "once the non-dominant hand pinched")
    north = aim(xr, brush, at["north"], scene, "wall")
    pinch_paint(xr, brush, "with no colour chosen yet")
    xr.step(QUIET)
    painted = assert_paint(xr, walls, {}, "after a brush pinch at the north wall with no colour chosen yet")
    assert_palette(xr, palm.fingertip, "after the brush pinch (the palette stays on its hand)")
    brush.end_select(QUIET)

    touch(xr, brush, RED, "picking red")
    brush_ready(xr, brush)
    north = aim(xr, brush, at["north"], scene, "wall")
    n = walls.index(north)
    pinch_paint(xr, brush, "red at the north wall")
    painted = assert_paint(xr, walls, {n: RED}, "the frame after the brush pinched at the north wall with red chosen")
    xr.step(QUIET)
    painted = assert_paint(xr, walls, {n: RED}, "a moment later", painted)
    # Still pinching, the ray sweeps across the other walls: nothing more is painted.
    for goal in (at["west"], at["east"]):
        brush.point_to(goal, speed=360.0)
        painted = assert_paint(
            xr, walls, {n: RED}, "after sweeping the ray across the room while still pinching", painted
        )
    brush.end_select(QUIET)

    touch(xr, brush, BLUE, "picking blue")
    brush_ready(xr, brush)
    west = aim(xr, brush, at["west"], scene, "wall")
    w = walls.index(west)
    pinch_paint(xr, brush, "blue at the west wall")
    painted = assert_paint(
        xr, walls, {n: RED, w: BLUE}, "the frame after the brush pinched at the west wall with blue chosen", painted
    )
    brush.end_select(QUIET)

    # The floor, and a table (the ray goes on to the floor): nothing is painted.
    on_table = (table.position[0] + 0.3 * side(brush), table.top, table.bbox[1][2] - 0.1)
    for target, what in (((1.6, 0.0, -0.4), "the floor"), (on_table, "a table")):
        aim(xr, brush, target, scene, "floor")
        if what == "a table":
            st = brush.state
            assert Flat(table).hit(st.position, st.ray_direction), "test set-up: the ray crosses the table"
        pinch_paint(xr, brush, f"at {what}")
        xr.step(QUIET)
        painted = assert_paint(xr, walls, {n: RED, w: BLUE}, f"after a brush pinch at {what}", painted)
        brush.end_select(QUIET)

    # Repainting the north wall green changes its colour; no second overlay.
    touch(xr, brush, GREEN, "picking green")
    brush_ready(xr, brush)
    aim(xr, brush, at["north"], scene, "wall")
    pinch_paint(xr, brush, "green at the north wall")
    painted = assert_paint(
        xr, walls, {n: GREEN, w: BLUE}, "the frame after the brush pinched at the north wall again, green chosen"
    )
    brush.end_select(QUIET)
    palm.end_select(QUIET)
    assert_no_palette(xr, "after the palette hand released")

    xr.head.walk([(1.0, 1.5, -1.0)], speed=1.0)
    xr.head.rotate(yaw=120.0, pitch=-20.0)
    xr.head.move((0.0, -0.5, 0.0), speed=0.5)
    xr.wait(300)
    assert_paint(xr, walls, {n: GREEN, w: BLUE}, "after the user walked, turned and crouched", painted)
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
@pytest.mark.xr_timeout(600)
def test_painting_needs_the_open_palette_and_the_roles_can_swap(xr):
    first, second = xr.hand("non_dominant"), xr.hand("dominant")
    walls, scene = room(xr)
    at = wall_points(walls)
    xr.step(2)
    hold_palette_hand(xr, first)
    brush_ready(xr, second)
    open_palette(xr, first, "once the non-dominant hand pinched")
    touch(xr, second, YELLOW, "picking yellow")
    where_red = assert_palette(xr, first.fingertip, "after picking yellow")[RED]
    first.end_select(QUIET)
    assert_no_palette(xr, "after the palette hand released")

    # A touch where the red swatch was, with the palette closed, picks nothing.
    second.move_hand((where_red[0], where_red[1] + 0.10, where_red[2]), anchor="fingertip")
    second.move_hand(where_red, anchor="fingertip")
    xr.step(3)
    second.move_hand((where_red[0], where_red[1] + 0.10, where_red[2]), anchor="fingertip")

    # With no palette open the dominant hand's pinch paints nothing: it opens the palette on that hand.
    brush_ready(xr, second)
    hold_palette_hand(xr, first)
    aim(xr, second, at["north"], scene, "wall")
    second.start_select(1)
    xr.step(1)
    assert_palette(xr, second.fingertip, "the frame after the dominant hand pinched with no palette open")
    xr.step(QUIET)
    assert_paint(xr, walls, {}, "after the pinch that opened the palette (pointing at the north wall)")

    # The non-dominant hand is the brush now: yellow (chosen before the palette closed) paints.
    brush_ready(xr, first)
    west = aim(xr, first, at["west"], scene, "wall")
    w = walls.index(west)
    pinch_paint(xr, first, "yellow at the west wall, roles swapped")
    painted = assert_paint(xr, walls, {w: YELLOW}, "the frame after the non-dominant hand pinched at the west wall")
    assert_palette(xr, second.fingertip, "after the brush pinched (the palette stays on the dominant hand)")
    first.end_select(QUIET)

    touch(xr, first, BLUE, "picking blue on the dominant hand's palette")
    brush_ready(xr, first)
    east = aim(xr, first, at["east"], scene, "wall")
    e = walls.index(east)
    pinch_paint(xr, first, "blue at the east wall")
    painted = assert_paint(
        xr, walls, {w: YELLOW, e: BLUE}, "the frame after the brush pinched at the east wall", painted
    )
    first.end_select(QUIET)
    second.end_select(QUIET)
    assert_no_palette(xr, "after both hands released")

    # With no palette open, a pinch aimed at a wall (blue chosen) opens the palette and paints nothing.
    north = aim(xr, second, at["north"], scene, "wall")
    n = walls.index(north)
    second.start_select(1)
    xr.step(QUIET)
    painted = assert_paint(xr, walls, {w: YELLOW, e: BLUE}, "after a pinch that opened the palette", painted)
    # ... and then the other hand paints blue there.
    brush_ready(xr, first)
    aim(xr, first, at["north"], scene, "wall")
    pinch_paint(xr, first, "blue at the north wall")
    assert_paint(
        xr, walls, {w: YELLOW, e: BLUE, n: BLUE}, "the frame after the brush pinched at the north wall", painted
    )
    assert_no_errors(xr)


ROOM = [(-2.2, -3.6), (2.4, -3.6), (2.4, 1.2), (-2.2, 1.2)]  # x, z before turning; the user at the origin
TURN = 30.0
SHORT = 0.3  # metres of each wall missing at both ends: gaps at the corners


def test_in_a_turned_room_walls_detected_later_are_painted_over_their_polygons(xr):
    palm, brush = xr.hand("non_dominant"), xr.hand("dominant")
    xr.plane_detection.withhold()
    outline = turned(ROOM, TURN)
    # The walls stand from y = 0; the floor was detected 15 cm higher (a raised floor over them).
    walls_all = room_planes(outline, height=2.6, short=SHORT)[1:]
    floor = floor_plane(outline, y=0.15)
    ceiling = floor_plane(outline, y=2.6, label="ceiling")
    # A lowered strip of ceiling, 0.8 m deep, along the first (north) wall at 2.2 m.
    strip = turned([(-2.2, -3.6), (2.4, -3.6), (2.4, -2.8), (-2.2, -2.8)], TURN)
    soffit = floor_plane(strip, y=2.2, label="ceiling")
    xr.step(2)
    xr.plane_detection.add(floor, ceiling, soffit, walls_all[0], walls_all[3])
    xr.step(2)
    hold_palette_hand(xr, palm)
    brush_ready(xr, brush)
    walls, scene = room(xr)
    assert len(walls) == 2, "test set-up: two walls detected first"

    def on_wall(i: int, u: float, y: float) -> tuple[float, float, float]:
        """A point on wall i (of the outline), u along it (0..1), y high."""
        a, b = outline[i], outline[(i + 1) % 4]
        return (a[0] + (b[0] - a[0]) * u, y, a[1] + (b[1] - a[1]) * u)

    open_palette(xr, palm, "once the palette hand pinched")
    touch(xr, brush, RED, "picking red")
    brush_ready(xr, brush)
    north = aim(xr, brush, on_wall(0, 0.6, 1.5), scene, "wall")
    n = walls.index(north)
    pinch_paint(xr, brush, "red at the first wall")
    painted = assert_paint(xr, walls, {n: RED}, "the frame after the brush pinched at the turned room's north wall")
    brush.end_select(QUIET)

    # More walls are detected later; one of them is painted blue.
    xr.plane_detection.add(walls_all[1], walls_all[2])
    xr.step(2)
    walls, scene = room(xr)
    assert len(walls) == 4, "test set-up: four walls detected"
    n = next(i for i, w in enumerate(walls) if w.centroid == north.centroid)
    painted = {n: painted[next(iter(painted))]}
    touch(xr, brush, BLUE, "picking blue")
    brush_ready(xr, brush)
    east = aim(xr, brush, on_wall(1, 0.4, 1.4), scene, "wall")
    e = walls.index(east)
    pinch_paint(xr, brush, "blue at a wall detected later")
    painted = assert_paint(
        xr, walls, {n: RED, e: BLUE}, "the frame after the brush pinched at a wall detected later", painted
    )
    brush.end_select(QUIET)

    touch(xr, brush, GREEN, "picking green")
    # Through the lowered ceiling to the top of the north wall, down at the raised floor in front of a
    # wall's foot, and through the gap at a corner: nothing is painted.
    for target, means, what in (
        (on_wall(0, 0.3, 2.45), "ceiling", "the top of the north wall, behind the lowered ceiling"),
        (on_wall(3, 0.5, 0.05), "floor", "the foot of the west wall, below the raised floor"),
        (on_wall(1, 1.0, 1.3), "nothing", "the gap at the north-east corner"),
    ):
        brush_ready(xr, brush)
        aim(xr, brush, target, scene, means)
        pinch_paint(xr, brush, f"at {what}")
        xr.step(QUIET)
        painted = assert_paint(xr, walls, {n: RED, e: BLUE}, f"after a brush pinch at {what}", painted)
        brush.end_select(QUIET)

    xr.head.walk([(0.5, 1.5, -1.5)], speed=1.0)
    xr.head.rotate(yaw=-100.0, pitch=15.0)
    xr.wait(300)
    assert_paint(xr, walls, {n: RED, e: BLUE}, "after the user walked into the room and turned", painted)
    assert_no_errors(xr)
