"""Runtime tests of the crate that is dragged by a hand's ray and snaps to a 25 cm floor grid.

The floor, its height and its outline come from what plane detection reported (the harness's own
record of the plane, in world coordinates), never from the app; the crate and the grid are read
from the live scene graph (the crate's world box from its vertices, the grid's lines from their
vertices in the world frame).

They check that
- in the living room and the kitchen (planes detected before the first frame), within half a
  second of the start the grid is drawn: lines along world x and z, each on a multiple of 0.25 m,
  between 0 and 1 cm above the floor, together covering the whole floor; and the crate, a box
  0.2 x 0.3 x 0.2 m, upright with its sides along the grid, rests on the floor (bottom within
  5 mm) centred on the cell that holds x = -0.6, z = -0.7;
- in both rooms, pointing at the crate without pinching, and a pinch whose ray points at the floor
  beside it (then swept across the floor), move nothing; a pinch of the dominant hand on the crate
  lets the ray carry it (centre above the ray's floor point within 3 cm, bottom 10 cm above the
  floor within 1 cm, 0.1 s after the ray stops) to two points, and on release it rests within 0.1 s
  on the cell under it and stays there while the hand points elsewhere; then the non-dominant hand
  does the same from that cell;
- in both rooms, a crate released while the ray points up at a wall goes back to the cell it was
  on; while one hand holds the crate, a pinch of the other hand on it changes nothing (the crate
  keeps following the first hand, also after the other hand lets go); a crate released while the
  ray meets the floor's plane beyond its outline goes back to the cell it was last put on;
- with the planes withheld at start-up, nothing is drawn of the grid or the crate until the floor
  is detected (furniture and walls come first); then, in a room turned 20 degrees whose floor is
  0.25 m up, the grid and the crate on it come within 0.1 s; the crate snaps to cells at that
  height, and a release over a point of the floor's plane that is inside the outline's bounding
  rectangle but outside the outline sends it back.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.rooms import floor_plane, room_planes, turned

CELL = 0.25  # metres: the grid's cells
SIZE = (0.2, 0.3, 0.2)  # the crate: width (x), height (y), depth (z)
SIZE_TOL = 0.007  # metres each way: a box turned by 2 degrees spans 7 mm more
REST_TOL = 0.005  # "its bottom on the floor (within 5 mm)"
CENTRE_TOL = 0.01  # "centred on the cell (within 1 cm)"
CARRY = 0.1  # the held crate's bottom above the floor
CARRY_TOL = 0.01
FOLLOW_TOL = 0.03  # the held crate's centre above the ray's floor point, within 3 cm
STILL_TOL = 0.003  # metres a crate nobody moves may move
LINE_TOL = 0.003  # metres: a grid line on a multiple of 0.25 m, straight along x or z
LINE_LIFT = 0.01  # grid lines between 0 and 1 cm above the floor
SOON = 6  # frames: 0.1 s at 60 Hz
STARTUP = 30  # frames: half a second at 60 Hz

Vec = tuple[float, float, float]
XZ = tuple[float, float]
START = (-0.6, -0.7)

# The crate(s): every object tagged 'crate', its world box from its vertices (and its children's)
# and whether it is shown (it and every parent visible).
_CRATE_JS = """
(h) => {
  const T = h.THREE, out = [];
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  scene.traverse((o) => {
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== 'crate') return;
    let shown = true;
    for (let p = o; p; p = p.parent) if (!p.visible) shown = false;
    const box = new T.Box3().setFromObject(o, true);
    out.push({shown, lo: box.isEmpty() ? null : box.min.toArray(), hi: box.isEmpty() ? null : box.max.toArray()});
  });
  return out;
}
"""

# The grid: the world-space segments of every shown line object tagged 'floor-grid' or inside one.
_GRID_JS = """
(h) => {
  const T = h.THREE, segs = [];
  let meshes = 0;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const roots = [];
  scene.traverseVisible((o) => {
    const d = o.userData && o.userData.xrblocksDevtools;
    if (d && String(d.tag) === 'floor-grid') roots.push(o);
  });
  let shownRoot = false;
  for (const r of roots) {
    let shown = true;
    for (let p = r; p; p = p.parent) if (!p.visible) shown = false;
    if (!shown) continue;
    shownRoot = true;
    r.traverseVisible((o) => {
      if (!o.isLine) return;
      const g = o.geometry, p = g && g.attributes && g.attributes.position;
      if (!p) return;
      const start = g.drawRange ? g.drawRange.start : 0;
      const limit = g.drawRange && Number.isFinite(g.drawRange.count) ? g.drawRange.count : Infinity;
      const idx = g.index ? Array.from(g.index.array) : null;
      const total = idx ? idx.length : p.count;
      const end = Math.min(total, start + limit);
      const at = (k) => new T.Vector3().fromBufferAttribute(p, idx ? idx[k] : k).applyMatrix4(o.matrixWorld).toArray();
      if (o.isLineSegments) {
        for (let k = start; k + 1 < end; k += 2) segs.push([at(k), at(k + 1)]);
      } else {
        for (let k = start; k + 1 < end; k++) segs.push([at(k), at(k + 1)]);
        if (o.isLineLoop && end - start > 2) segs.push([at(end - 1), at(start)]);
      }
    });
  }
  return {roots: roots.length, shown: shownRoot, segs};
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def cell_of(x: float, z: float) -> XZ:
    return ((math.floor(x / CELL) + 0.5) * CELL, (math.floor(z / CELL) + 0.5) * CELL)


class Floor:
    """The detected floor: its height and outline (x, z), as detection reported them."""

    def __init__(self, xr):
        floors = xr.planes("floor")
        assert len(floors) == 1, f"test set-up: one floor detected; observed {len(floors)}"
        poly = floors[0].polygon
        assert len(poly) >= 3, "test set-up: the detected floor reports no polygon"
        self.y = sum(p[1] for p in poly) / len(poly)
        self.poly: list[XZ] = [(p[0], p[2]) for p in poly]

    def at(self, x: float, z: float) -> Vec:
        return (x, self.y, z)

    def crossings(self, axis: int, value: float) -> list[tuple[float, float]]:
        """The stretches of the line {axis = value} (axis 0: x, 1: z) inside the outline."""
        other = 1 - axis
        hits = []
        for a, b in zip(self.poly, [*self.poly[1:], self.poly[0]], strict=True):
            if (a[axis] > value) != (b[axis] > value):
                t = (value - a[axis]) / (b[axis] - a[axis])
                hits.append(a[other] + t * (b[other] - a[other]))
        hits.sort()
        return list(zip(hits[0::2], hits[1::2], strict=False))

    def inside(self, x: float, z: float) -> bool:
        return any(lo < z < hi for lo, hi in self.crossings(0, x))


# --- the crate -----------------------------------------------------------------------------------


def read_crate(xr) -> dict | None:
    """The crate, when one is shown (None when none is); fails on several."""
    __tracebackhide__ = True
    crates = xr.probe(_CRATE_JS)
    shown = [c for c in crates if c["shown"]]
    assert len(shown) <= 1, f"expected one object tagged 'crate'; observed {len(shown)} shown"
    if not shown:
        return None
    assert shown[0]["lo"] is not None, "expected the crate to be a box mesh; the object tagged 'crate' has no vertices"
    return shown[0]


def crate_centre(c: dict) -> Vec:
    return tuple((a + b) / 2 for a, b in zip(c["lo"], c["hi"], strict=True))  # type: ignore[return-value]


def resting_problem(xr, floor: Floor, cell: XZ) -> str | None:
    """Why the crate does not rest upright on `cell` (None when it does)."""
    c = read_crate(xr)
    if c is None:
        return "no crate is shown"
    size = [h - lo for lo, h in zip(c["lo"], c["hi"], strict=True)]
    centre = crate_centre(c)
    problems = []
    if any(not (want - 0.003 <= got <= want + SIZE_TOL) for got, want in zip(size, SIZE, strict=True)):
        problems.append(
            f"its world box measures {_fmt(size)} (x, y, z), expected {_fmt(SIZE)}: a 0.2 x 0.3 x 0.2 m box, "
            "upright, its sides along the grid"
        )
    if abs(c["lo"][1] - floor.y) > REST_TOL:
        problems.append(f"its bottom is at y = {c['lo'][1]:.3f}, the floor at y = {floor.y:.3f}")
    off = math.dist((centre[0], centre[2]), cell)
    if off > CENTRE_TOL:
        problems.append(f"its centre is at x, z = {centre[0]:.3f}, {centre[2]:.3f}, {off:.3f} m from the cell's")
    if not problems:
        return None
    return f"crate centred {_fmt(centre)}: " + "; ".join(problems)


def wait_rests(xr, floor: Floor, cell: XZ, limit: int, what: str) -> None:
    """Step (at most `limit` frames) until the crate rests on `cell`."""
    __tracebackhide__ = True
    since = xr.frame
    while True:
        problem = resting_problem(xr, floor, cell)
        if problem is None:
            return
        assert xr.frame - since < limit, (
            f"{what}: expected the crate to rest on the floor, upright, centred on the cell at x, z = "
            f"{cell[0]:.3f}, {cell[1]:.3f} within {limit} frames; {xr.frame - since} frames later {problem}"
        )
        xr.step(1)


def assert_stays(xr, floor: Floor, cell: XZ, frames: int, what: str, every: int = 5) -> None:
    __tracebackhide__ = True
    for k in range(0, frames + 1, every):
        problem = resting_problem(xr, floor, cell)
        assert problem is None, (
            f"{what} (frame {xr.frame}): expected the crate to stay resting on the cell at x, z = "
            f"{cell[0]:.3f}, {cell[1]:.3f}; {problem}"
        )
        if k < frames:
            xr.step(min(every, frames - k))


def assert_carried(xr, floor: Floor, point: XZ, what: str) -> None:
    """0.1 s after the ray stopped: the crate hangs over the ray's floor point, 10 cm up."""
    __tracebackhide__ = True
    xr.step(SOON)
    c = read_crate(xr)
    assert c is not None, f"{what}: expected the crate to be shown while it is carried; none is"
    centre = crate_centre(c)
    off = math.dist((centre[0], centre[2]), point)
    lift = c["lo"][1] - floor.y
    assert off <= FOLLOW_TOL and abs(lift - CARRY) <= CARRY_TOL, (
        f"{what}: expected the held crate's centre straight above the point where the ray meets the floor, "
        f"x, z = {point[0]:.3f}, {point[1]:.3f} (within {FOLLOW_TOL} m), its bottom {CARRY} m above the floor; "
        f"0.1 s after the ray stopped its centre is {off:.3f} m from there, at {_fmt(centre)}, its bottom "
        f"{lift:.3f} m above the floor"
    )


def aim_at_crate(xr, hand) -> None:
    c = read_crate(xr)
    assert c is not None, "expected the crate to be shown"
    hand.point_to(crate_centre(c))


def grab(xr, hand) -> None:
    aim_at_crate(xr, hand)
    hand.start_select(2)


def drag(xr, floor: Floor, hand, point: XZ, what: str) -> None:
    assert floor.inside(*point), "test set-up: the point is on the floor"
    hand.point_to(floor.at(*point))
    assert_carried(xr, floor, point, what)


def release_on(xr, floor: Floor, hand, cell: XZ, what: str) -> None:
    hand.end_select(1)
    wait_rests(xr, floor, cell, SOON, what)
    assert_stays(xr, floor, cell, 30, f"half a second {what}", every=10)


# --- the grid ------------------------------------------------------------------------------------


def _covered(stretches: list[tuple[float, float]], lo: float, hi: float) -> float | None:
    """The first point of [lo, hi] that `stretches` leave uncovered (gaps under 5 mm forgiven)."""
    at = lo
    for a, b in sorted(stretches):
        if a > at + 0.005:
            break
        at = max(at, b)
        if at >= hi:
            return None
    return at if at < hi else None


def assert_grid(xr, floor: Floor, what: str) -> None:
    """The grid: lines along x and z on multiples of 0.25 m, on the floor, covering all of it."""
    __tracebackhide__ = True
    g = xr.probe(_GRID_JS)
    assert g["roots"] and g["shown"], f"{what}: expected the grid shown (an object tagged 'floor-grid'); none is"
    segs = g["segs"]
    assert segs, f"{what}: expected the grid drawn with lines; the object(s) tagged 'floor-grid' hold no line"
    along: dict[int, dict[int, list[tuple[float, float]]]] = {0: {}, 1: {}}  # axis held -> multiple -> stretches
    for a, b in segs:
        for p in (a, b):
            assert floor.y - 0.001 <= p[1] <= floor.y + LINE_LIFT + 0.001, (
                f"{what}: expected every grid line between 0 and 1 cm above the floor (y = {floor.y:.3f}); a line "
                f"runs from {_fmt(a)} to {_fmt(b)}"
            )
        dx, dz = abs(a[0] - b[0]), abs(a[2] - b[2])
        if dx < 1e-4 and dz < 1e-4:
            continue
        if dx <= LINE_TOL:
            axis, value, span = 0, (a[0] + b[0]) / 2, (min(a[2], b[2]), max(a[2], b[2]))
        elif dz <= LINE_TOL:
            axis, value, span = 1, (a[2] + b[2]) / 2, (min(a[0], b[0]), max(a[0], b[0]))
        else:
            raise AssertionError(
                f"{what}: expected every grid line along world x or z; a line runs from {_fmt(a)} to {_fmt(b)}"
            )
        k = round(value / CELL)
        assert abs(value - k * CELL) <= LINE_TOL, (
            f"{what}: expected every grid line on a multiple of {CELL} m; a line along "
            f"{'z' if axis == 0 else 'x'} lies at {'x' if axis == 0 else 'z'} = {value:.4f}"
        )
        along[axis].setdefault(k, []).append(span)
    xs = [p[0] for p in floor.poly]
    zs = [p[1] for p in floor.poly]
    for axis, (lo, hi) in ((0, (min(xs), max(xs))), (1, (min(zs), max(zs)))):
        name, other = ("x", "z") if axis == 0 else ("z", "x")
        for k in range(math.ceil((lo + 0.01) / CELL), math.floor((hi - 0.01) / CELL) + 1):
            for a, b in floor.crossings(axis, k * CELL):
                if b - a < 0.03:
                    continue
                gap = _covered(along[axis].get(k, []), a + 0.01, b - 0.01)
                assert gap is None, (
                    f"{what}: expected grid lines covering the whole floor; the line {name} = {k * CELL:.2f} "
                    f"crosses the floor from {other} = {a:.3f} to {b:.3f}, but no grid line covers it at "
                    f"{other} = {gap:.3f}"
                )


def assert_nothing_shown(xr, frames: int, what: str) -> None:
    __tracebackhide__ = True
    for _ in range(frames):
        assert read_crate(xr) is None, f"expected no crate shown {what} (frame {xr.frame}); one is"
        g = xr.probe(_GRID_JS)
        assert not g["segs"], f"expected no grid drawn {what} (frame {xr.frame}); {len(g['segs'])} lines are"
        xr.step(1)


def start_up(xr) -> Floor:
    floor = Floor(xr)
    wait_rests(xr, floor, cell_of(*START), STARTUP, "within half a second of the start")
    assert_grid(xr, floor, "within half a second of the start")
    return floor


# --- tests ---------------------------------------------------------------------------------------


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_the_grid_covers_the_floor_and_the_crate_rests_on_its_start_cell(xr):
    assert xr.planes(), "plane detection reports no plane: the app did not enable plane detection"
    floor = start_up(xr)
    assert_stays(xr, floor, cell_of(*START), 30, "after the start", every=10)
    assert_grid(xr, floor, "half a second later")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_either_hand_drags_the_crate_by_its_ray_and_it_snaps_to_the_cell_under_it(xr):
    floor = start_up(xr)
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    side = 1.0 if dom.handedness == "right" else -1.0
    home = cell_of(*START)
    aim_at_crate(xr, dom)
    assert_stays(xr, floor, home, 20, "while the dominant hand points at the crate without pinching")
    dom.point_to(floor.at(0.1 * side, -0.9))
    dom.start_select(2)
    dom.point_to(floor.at(0.6 * side, -1.3))
    assert_stays(xr, floor, home, 10, "after a pinch whose ray pointed at the floor beside the crate, swept across")
    dom.end_select(1)
    assert_stays(xr, floor, home, 10, "after that pinch was released")

    grab(xr, dom)
    p1, p2 = (0.33 * side, -0.92), (0.9 * side, -1.35)
    drag(xr, floor, dom, p1, "the dominant hand's ray carrying the crate")
    drag(xr, floor, dom, p2, "the dominant hand's ray carrying the crate further")
    cell = cell_of(*p2)
    release_on(xr, floor, dom, cell, "after the dominant hand let go over the floor")
    dom.point_to(floor.at(-0.4 * side, -1.1))
    assert_stays(xr, floor, cell, 20, "while the dominant hand points elsewhere after letting go")

    grab(xr, non)
    p3 = (-0.17 * side, -1.6)
    drag(xr, floor, non, p3, "the non-dominant hand's ray carrying the crate")
    release_on(xr, floor, non, cell_of(*p3), "after the non-dominant hand let go over the floor")
    non.point_to(floor.at(0.6 * side, -0.8))
    assert_stays(xr, floor, cell_of(*p3), 20, "while the non-dominant hand points elsewhere after letting go")
    assert_no_errors(xr)


def wall_point(xr) -> Vec:
    """A point high on the far wall: a ray to it meets no floor."""
    z = min(p.position[2] for p in xr.planes("wall"))
    return (0.0, 2.3, z)


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_released_off_the_floor_the_crate_goes_back_and_only_the_holding_hand_moves_it(xr):
    floor = start_up(xr)
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    side = 1.0 if dom.handedness == "right" else -1.0
    home = cell_of(*START)
    grab(xr, dom)
    drag(xr, floor, dom, (0.35 * side, -1.15), "the dominant hand's ray carrying the crate")
    dom.point_to(wall_point(xr))
    dom.end_select(1)
    wait_rests(xr, floor, home, SOON, "after the dominant hand let go while pointing up at a wall")
    assert_stays(xr, floor, home, 20, "after the crate went back")

    grab(xr, non)
    drag(xr, floor, non, (-0.15 * side, -1.1), "the non-dominant hand's ray carrying the crate")
    aim_at_crate(xr, dom)
    dom.start_select(2)
    drag(xr, floor, non, (0.4 * side, -1.6), "the non-dominant hand carrying it while the other hand pinched on it")
    dom.point_to(floor.at(-0.9 * side, -0.6))
    assert_carried(xr, floor, (0.4 * side, -1.6), "while the other hand, still pinching, pointed elsewhere")
    dom.end_select(1)
    assert_carried(xr, floor, (0.4 * side, -1.6), "after the other hand let go")
    drag(xr, floor, non, (0.65 * side, -1.85), "the non-dominant hand carrying it after the other hand let go")
    cell = cell_of(0.65 * side, -1.85)
    release_on(xr, floor, non, cell, "after the non-dominant hand let go over the floor")

    grab(xr, dom)
    drag(xr, floor, dom, (0.1 * side, -0.85), "the dominant hand's ray carrying the crate again")
    beyond = (0.6 * side, min(p[1] for p in floor.poly) - 0.5)
    assert not floor.inside(*beyond), "test set-up: the point lies beyond the floor"
    dom.point_to(floor.at(*beyond))
    dom.end_select(1)
    wait_rests(xr, floor, cell, SOON, "after the dominant hand let go while its ray met the floor's plane beyond it")
    assert_stays(xr, floor, cell, 20, "after the crate went back")
    assert_no_errors(xr)


STAGE = [(-1.6, -2.8), (1.9, -2.8), (1.9, 0.9), (-1.6, 0.9)]
STAGE_TURN, STAGE_PIVOT, STAGE_Y = 20.0, (0.0, -1.0), 0.25


@pytest.mark.xr_scenes("living_room")
def test_on_a_raised_turned_floor_detected_late_the_grid_and_crate_follow_the_floor(xr):
    xr.plane_detection.withhold()
    outline = turned(STAGE, STAGE_TURN, about=STAGE_PIVOT)
    floor_spec, *walls = room_planes(outline, height=2.4, floor_y=STAGE_Y)
    table = floor_plane(turned([(-0.7, -2.0), (0.7, -2.0), (0.7, -1.3), (-0.7, -1.3)], STAGE_TURN, STAGE_PIVOT), 0.95)
    table["label"] = "table"
    assert_nothing_shown(xr, 20, "before any plane was detected")
    xr.plane_detection.add(table, *walls)
    assert_nothing_shown(xr, 30, "while only walls and a table were detected")
    xr.plane_detection.add(floor_spec)
    floor = Floor(xr)
    assert abs(floor.y - STAGE_Y) < 1e-6, "test set-up: the raised floor"
    xr.step(1)
    home = cell_of(*START)
    wait_rests(xr, floor, home, SOON, "once the raised floor was detected")
    assert_grid(xr, floor, "once the raised floor was detected")

    dom = xr.hand("dominant")
    side = 1.0 if dom.handedness == "right" else -1.0
    grab(xr, dom)
    p = (0.6 * side, -1.6)
    drag(xr, floor, dom, p, "the dominant hand's ray carrying the crate over the raised floor")
    release_on(xr, floor, dom, cell_of(*p), "after the dominant hand let go over the raised floor")

    grab(xr, dom)
    drag(xr, floor, dom, (0.1 * side, -0.9), "the dominant hand's ray carrying the crate again")
    # A corner of the outline's bounding rectangle that the turned floor does not cover.
    xs, zs = [q[0] for q in floor.poly], [q[1] for q in floor.poly]
    corner = (max(xs) - 0.15, min(zs) + 0.15) if side > 0 else (min(xs) + 0.15, min(zs) + 0.15)
    assert not floor.inside(*corner), "test set-up: the corner point lies outside the floor"
    dom.point_to(floor.at(*corner))
    dom.end_select(1)
    wait_rests(xr, floor, cell_of(*p), SOON, "after the dominant hand let go over a point beside the turned floor")
    assert_stays(xr, floor, cell_of(*p), 20, "after the crate went back")
    assert_no_errors(xr)
