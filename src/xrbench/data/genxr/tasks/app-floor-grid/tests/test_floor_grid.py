"""Runtime tests of the floor tiles lined up with the room's longest wall.

The expected tiles are computed here from what plane detection reported (the harness's own record
of each plane: its pose and its polygon in world coordinates), never from the app: the reference
wall is the longest detected wall (where several are equally long, a tile set from any of them is
accepted); its direction is the horizontal direction perpendicular to its normal, its length and
middle come from its polygon's extent along that direction, the grid's lines run along the wall's
foot and through its middle and every 0.5 m from them; a cell gets a tile when the cell, shrunk
by 1 mm on every side, lies inside the floor's polygon (its corners inside, no edge of the
polygon crossing its sides). The rooms are chosen so that no cell sticks out of the floor by
between 0.1 mm and 12 mm: the 1 mm allowance decides nothing but exact contacts.

They check that
- in the living room and the kitchen (planes detected before the first frame), within half a
  second of the start the tiles shown are exactly the expected ones (144 and 100): one tagged
  mesh per tile, each a flat square 0.48 m on a side (its drawn vertices, projected on the wall's
  direction and its normal, span 0.48 m within 1 cm each way, centred on the cell within 1 cm),
  between 2 mm and 1 cm above the floor, blue; nothing else drawn; the grid's state counts them; the
  tiles stay where they are while the user turns, walks and crouches;
- in both rooms, a pinch of the dominant hand on one tile and of the non-dominant hand on
  another each toggle their tile within 0.1 s (blue to amber), not earlier; pointing without
  pinching, a pinch held for a second and its release, and a pinch pointing at no tile change
  nothing; two pinches starting in the same frame on a marked and an unmarked tile toggle both;
  the grid's state counts the marked tiles; marks and tiles stay while the user walks;
- with the planes withheld at start-up and delivered later (living room: the furniture, then the
  walls, then the floor; kitchen: the floor alone, then the furniture, then the walls), no tile is
  shown on any frame until both the floor and a wall are known, and then the expected tiles
  within 0.1 s of that delivery, nothing else drawn;
- in a five-walled room turned 25 degrees with its floor 4 cm up (planes the test describes,
  added one group at a time): the floor alone gives no tile; a 1.7 m wall cut across one corner
  plus a 2.0 m double door gives the grid of that wall (not the door's); a 3.6 m wall relays the
  tiles for its grid (every frame shows tiles of one grid only, the old or the new, and all the
  new ones unmarked); a 2.4 m wall and a table change nothing, marks included; the 4.9 m wall
  relays them again; the 3.7 m wall changes nothing; tiles and marks stay while the user walks;
- in an L-shaped room turned -32 degrees (six walls, a table, a couch and a door detected at
  once, the longest wall neither first nor last), exactly the cells wholly inside the L get tiles
  (not those whose centre or some corner is inside), and two pinches in the same frame, one per
  hand, mark two tiles near the inner corner; tiles and marks stay while the user walks.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.rooms import floor_plane, room_planes, turned, wall_plane
from xrbench.xrtest.session import rotate

TILE_TAG, GRID_TAG = "floor-tile", "floor-grid"
BLUE, AMBER = "#3b82f6", "#f59e0b"
CELL = 0.5  # metres: the grid's cells
TILE = 0.48  # metres: a tile's side
SIZE_TOL = 0.01  # metres: a tile's side and centre, within 1 cm
LIFT_MIN, LIFT_MAX = 0.002, 0.01  # metres: tiles lie between 2 mm and 1 cm above the floor
HEIGHT_TOL = 0.001  # metres of rounding allowed on that band
INSIDE_TOL = 0.001  # metres: the floor's boundary counts as inside, within 1 mm
SAME_LENGTH = 0.01  # metres: walls this close in length are equally long
STILL_TOL = 0.003  # metres a tile may move ("stays exactly where it is")
SOON = 6  # frames: 0.1 s at 60 Hz
STARTUP = 30  # frames: half a second at 60 Hz
HOLD = 12  # frames a pinch is held

Vec = tuple[float, float, float]
XZ = tuple[float, float]

# The world-space vertices of every shown mesh tagged 'floor-tile' (positions within the draw range).
_TILE_VERTICES_JS = """
(h) => {
  const T = h.THREE, out = [];
  h.core.scene.updateMatrixWorld(true);
  h.core.scene.traverseVisible((o) => {
    const tag = o.userData && o.userData.xrblocksDevtools && o.userData.xrblocksDevtools.tag;
    if (tag !== 'floor-tile') return;
    const g = o.geometry, p = g && g.attributes && g.attributes.position;
    const verts = [];
    if (p) {
      const start = g.drawRange ? g.drawRange.start : 0;
      const limit = g.drawRange && Number.isFinite(g.drawRange.count) ? g.drawRange.count : p.count;
      const count = Math.min(p.count - start, limit);
      const idx = g.index ? Array.from(g.index.array).slice(start, start + count) : null;
      const ids = idx ? Array.from(new Set(idx)) : Array.from({length: Math.max(0, count)}, (_, i) => start + i);
      for (const i of ids) verts.push(new T.Vector3().fromBufferAttribute(p, i).applyMatrix4(o.matrixWorld).toArray());
    }
    out.push({uuid: o.uuid, type: o.type, instanced: !!o.isInstancedMesh, verts});
  });
  return out;
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


# --- the expected tiles, from the detected planes ------------------------------------------------


class Grid:
    """The tiles the rules give for one reference wall and the floor."""

    def __init__(self, u: XZ, n: XZ, origin: XZ, floor_y: float, centres: list[XZ], wall_length: float):
        self.u, self.n, self.origin, self.floor_y = u, n, origin, floor_y
        self.centres = centres
        self.wall_length = wall_length

    def __repr__(self) -> str:
        return (
            f"a grid along the {self.wall_length:.2f} m wall (direction ({self.u[0]:.3f}, {self.u[1]:.3f}), "
            f"origin {_fmt(self.origin)}) with {len(self.centres)} tiles"
        )


def wall_frame(plane) -> tuple[XZ, XZ, float, XZ]:
    """A detected wall's horizontal direction u, normal n, length and the point (x, z) on its foot
    below its middle."""
    nx, _, nz = rotate(plane.quaternion, (0.0, 1.0, 0.0))
    k = math.hypot(nx, nz)
    assert k > 0.5, f"test set-up: the wall at {_fmt(plane.position)} is not vertical"
    n = (nx / k, nz / k)
    u = (-n[1], n[0])
    pts = plane.polygon
    assert len(pts) >= 3, "test set-up: a detected wall reports no polygon"
    along = [p[0] * u[0] + p[2] * u[1] for p in pts]
    foot = sum(p[0] * n[0] + p[2] * n[1] for p in pts) / len(pts)
    lo, hi = min(along), max(along)
    mid = (lo + hi) / 2
    return u, n, hi - lo, (u[0] * mid + n[0] * foot, u[1] * mid + n[1] * foot)


def _cross(o: XZ, a: XZ, b: XZ) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _segments_cross(p1: XZ, p2: XZ, q1: XZ, q2: XZ) -> bool:
    d1, d2 = _cross(q1, q2, p1), _cross(q1, q2, p2)
    d3, d4 = _cross(p1, p2, q1), _cross(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def _point_in(pt: XZ, poly: list[XZ]) -> bool:
    x, z = pt
    inside = False
    for (x0, z0), (x1, z1) in zip(poly, [*poly[1:], poly[0]], strict=True):
        if (z0 > z) != (z1 > z) and x0 + (z - z0) * (x1 - x0) / (z1 - z0) > x:
            inside = not inside
    return inside


def cell_inside(corners: list[XZ], poly: list[XZ], tol: float) -> bool:
    """Whether the square (corners in order), shrunk by `tol` on every side, lies inside `poly`."""
    cx = sum(c[0] for c in corners) / 4
    cz = sum(c[1] for c in corners) / 4
    k = (CELL / 2 - tol) / (CELL / 2)
    sq = [(cx + (x - cx) * k, cz + (z - cz) * k) for x, z in corners]
    if not all(_point_in(c, poly) for c in sq):
        return False
    edges = list(zip(poly, [*poly[1:], poly[0]], strict=True))
    return not any(_segments_cross(a, b, p, q) for a, b in zip(sq, [*sq[1:], sq[0]], strict=True) for p, q in edges)


def grid_for(wall, floor) -> Grid:
    u, n, length, origin = wall_frame(wall)
    poly = [(p[0], p[2]) for p in floor.polygon]
    assert len(poly) >= 3, "test set-up: the detected floor reports no polygon"
    floor_y = sum(p[1] for p in floor.polygon) / len(floor.polygon)
    rel = [
        ((x - origin[0]) * u[0] + (z - origin[1]) * u[1], (x - origin[0]) * n[0] + (z - origin[1]) * n[1])
        for x, z in poly
    ]

    def at(a: float, b: float) -> XZ:
        return (origin[0] + a * u[0] + b * n[0], origin[1] + a * u[1] + b * n[1])

    centres = []
    for i in range(math.floor(min(a for a, _ in rel) / CELL) - 1, math.ceil(max(a for a, _ in rel) / CELL) + 1):
        for j in range(math.floor(min(b for _, b in rel) / CELL) - 1, math.ceil(max(b for _, b in rel) / CELL) + 1):
            corners = [at(i * CELL, j * CELL), at((i + 1) * CELL, j * CELL)]
            corners += [at((i + 1) * CELL, (j + 1) * CELL), at(i * CELL, (j + 1) * CELL)]
            inside = cell_inside(corners, poly, INSIDE_TOL)
            # The rooms avoid cells that stick out of the floor by a hair: 0.1 to 12 mm.
            assert cell_inside(corners, poly, 0.0001) == cell_inside(corners, poly, 0.012), (
                "test set-up: a cell sticks out of the floor by between 0.1 and 12 mm"
            )
            if inside:
                centres.append(at((i + 0.5) * CELL, (j + 0.5) * CELL))
    return Grid(u, n, origin, floor_y, centres, length)


def expected_grids(xr) -> list[Grid]:
    """The grids the rules allow for the planes detected now (one per equally long longest wall)."""
    floors, walls = xr.planes("floor"), xr.planes("wall")
    assert len(floors) == 1 and walls, "test set-up: a floor and a wall are detected"
    frames = [(wall_frame(w)[2], w) for w in walls]
    longest = max(length for length, _ in frames)
    return [grid_for(w, floors[0]) for length, w in frames if length >= longest - SAME_LENGTH]


# --- what the app shows ---------------------------------------------------------------------


def shown_tiles(xr) -> list:
    return [n for n in xr.tagged(TILE_TAG) if n.root == "scene" and n.visible]


def centre_xz(node) -> XZ:
    if node.bbox is None:
        return (node.position[0], node.position[2])
    lo, hi = node.bbox
    return ((lo[0] + hi[0]) / 2, (lo[2] + hi[2]) / 2)


def match(nodes: list, centres: list[XZ]) -> dict[int, Any] | None:
    """Each expected centre's tile (one within 1 cm), or None when the tiles are not exactly those."""
    if len(nodes) != len(centres):
        return None
    by_cell: dict[int, Any] = {}
    for node in nodes:
        c = centre_xz(node)
        hits = [i for i, e in enumerate(centres) if math.dist(c, e) <= SIZE_TOL]
        if len(hits) != 1 or hits[0] in by_cell:
            return None
        by_cell[hits[0]] = node
    return by_cell


def describe_mismatch(nodes: list, grids: list[Grid]) -> str:
    grid = grids[0]
    seen = [centre_xz(n) for n in nodes]
    missing = [e for e in grid.centres if not any(math.dist(e, s) <= SIZE_TOL for s in seen)]
    extra = [s for s in seen if not any(math.dist(e, s) <= SIZE_TOL for e in grid.centres)]
    return (
        f"expected {len(grid.centres)} tiles ({grid}); observed {len(nodes)} shown; "
        f"{len(missing)} expected tile centre(s) without a tile, "
        f"e.g. {', '.join(_fmt(p) for p in missing[:4]) or '-'}; "
        f"{len(extra)} tile(s) where none should be, e.g. {', '.join(_fmt(p) for p in extra[:4]) or '-'}"
    )


class Tiles:
    """The tiles shown, matched to the expected cells of one grid."""

    def __init__(self, grid: Grid, by_cell: dict[int, Any]):
        self.grid = grid
        self.by_cell = by_cell

    def colour(self, i: int) -> str:
        return (self.by_cell[i].color or "").lower()

    def marked(self) -> set[int]:
        return {i for i in self.by_cell if self.colour(i) == AMBER}

    def nearest(self, point: XZ, exclude: Sequence[int] = ()) -> int:
        return min(
            (i for i in range(len(self.grid.centres)) if i not in exclude),
            key=lambda i: math.dist(self.grid.centres[i], point),
        )

    def aim(self, i: int) -> Vec:
        x, z = self.grid.centres[i]
        return (x, self.grid.floor_y, z)


def read_tiles(xr, grids: list[Grid], when: str) -> Tiles:
    """The shown tiles, exactly those of one of `grids` (else fail)."""
    __tracebackhide__ = True
    nodes = shown_tiles(xr)
    for grid in grids:
        by_cell = match(nodes, grid.centres)
        if by_cell is not None:
            return Tiles(grid, by_cell)
    raise AssertionError(f"{when}: {describe_mismatch(nodes, grids)}")


def assert_tile_shapes(xr, tiles: Tiles, when: str) -> None:
    """Each tile a flat square mesh, 0.48 m a side, its edges along the grid, on the floor."""
    __tracebackhide__ = True
    g = tiles.grid
    found = {d["uuid"]: d for d in xr.probe(_TILE_VERTICES_JS)}
    for i, node in tiles.by_cell.items():
        d = found.get(node.uuid)
        assert d is not None and d["verts"] and not d["instanced"], (
            f"{when}: expected each tile drawn by a mesh of its own; the tile at {_fmt(g.centres[i])} is a "
            f"{node.type} without vertices of its own"
        )
        ys = [v[1] for v in d["verts"]]
        assert g.floor_y + LIFT_MIN - HEIGHT_TOL <= min(ys) and max(ys) <= g.floor_y + LIFT_MAX + HEIGHT_TOL, (
            f"{when}: expected the tile at {_fmt(g.centres[i])} flat, between {LIFT_MIN} and {LIFT_MAX} m above "
            f"the floor "
            f"(y = {g.floor_y:.3f}); its vertices span y {min(ys):.4f} to {max(ys):.4f}"
        )
        for axis, name in ((g.u, "along the reference wall"), (g.n, "across the reference wall")):
            s = [v[0] * axis[0] + v[2] * axis[1] for v in d["verts"]]
            c = g.centres[i][0] * axis[0] + g.centres[i][1] * axis[1]
            extent, mid = max(s) - min(s), (max(s) + min(s)) / 2
            assert abs(extent - TILE) <= SIZE_TOL and abs(mid - c) <= SIZE_TOL, (
                f"{when}: expected the tile at {_fmt(g.centres[i])} a square {TILE} m on a side with its edges "
                f"parallel to the cell's, centred on the cell (within {SIZE_TOL} m); {name} it spans "
                f"{extent:.3f} m, centred {mid - c:+.3f} m from the cell's centre"
            )


def assert_nothing_else(xr, tiles: Tiles | None, when: str) -> None:
    __tracebackhide__ = True
    uuids = {n.uuid for n in tiles.by_cell.values()} if tiles else set()
    drawn = xr.drawn()
    others = [d for d in drawn if d.uuid not in uuids]
    assert not others, (
        f"{when}: expected nothing drawn but the tiles; also observed "
        f"{[(d.type, d.geometry, d.tags) for d in others][:6]} ({len(others)} in all)"
    )
    kinds = {d.uuid: d.kind for d in drawn}
    flat = [u for u in uuids if kinds.get(u) != "mesh"]
    assert not flat, f"{when}: expected every tile drawn as a mesh; {len(flat)} are not drawn as meshes"


def assert_state(xr, tiles: int, marked: int, when: str) -> None:
    __tracebackhide__ = True
    grids = [n for n in xr.tagged(GRID_TAG) if n.root == "scene"]
    assert len(grids) == 1, f"{when}: expected one object tagged {GRID_TAG!r}; observed {len(grids)}"
    state = grids[0].state if isinstance(grids[0].state, dict) else {}
    seen = (state.get("tiles"), state.get("marked"))
    assert seen == (tiles, marked), (
        f"{when}: expected the {GRID_TAG!r} state tiles={tiles}, marked={marked} (what is shown); "
        f"observed tiles={seen[0]}, marked={seen[1]}"
    )


def assert_colours(tiles: Tiles, marked: set[int], when: str) -> None:
    __tracebackhide__ = True
    for i in tiles.by_cell:
        want = AMBER if i in marked else BLUE
        assert tiles.colour(i) == want, (
            f"{when}: expected the tile at {_fmt(tiles.grid.centres[i])} {'marked' if i in marked else 'unmarked'} "
            f"({want}); observed {tiles.colour(i)}"
        )


def full_check(xr, grids: list[Grid], marked: set[int], when: str) -> Tiles:
    """The tiles are exactly those of a grid the rules allow, in shape, coloured as `marked` says, and
    nothing else is drawn."""
    __tracebackhide__ = True
    tiles = read_tiles(xr, grids, when)
    assert_tile_shapes(xr, tiles, when)
    assert_colours(tiles, marked, when)
    assert_nothing_else(xr, tiles, when)
    return tiles


def wait_for_tiles(xr, grids: list[Grid], since: int, limit: int, what: str) -> Tiles:
    """Step (at most `limit` frames after `since`) until the tiles are those of one of `grids`."""
    __tracebackhide__ = True
    while True:
        nodes = shown_tiles(xr)
        if any(match(nodes, g.centres) is not None for g in grids):
            return read_tiles(xr, grids, what)
        assert xr.frame - since < limit, (
            f"{what}, {xr.frame - since} frames later (allowed {limit}): {describe_mismatch(nodes, grids)}"
        )
        xr.step(1)


def assert_no_tiles(xr, frames: int, what: str) -> None:
    __tracebackhide__ = True
    for _ in range(frames):
        nodes = shown_tiles(xr)
        assert not nodes, (
            f"expected no tile {what} (frame {xr.frame}); observed {len(nodes)}, e.g. at "
            f"{', '.join(_fmt(centre_xz(n)) for n in nodes[:3])}"
        )
        assert_nothing_else(xr, None, f"{what} (frame {xr.frame})")
        xr.step(1)


def assert_unchanged(xr, tiles: Tiles, marked: set[int], frames: int, what: str, every: int = 1) -> None:
    """For `frames` frames every tile stays where it is, with its colour (read every `every` frames)."""
    __tracebackhide__ = True
    where = {i: centre_xz(n) for i, n in tiles.by_cell.items()}
    for k in range(0, frames + 1, every):
        now = read_tiles(xr, [tiles.grid], f"{what} (frame {xr.frame})")
        for i, n in now.by_cell.items():
            moved = math.dist(centre_xz(n), where[i])
            assert moved <= STILL_TOL, (
                f"{what} (frame {xr.frame}): expected every tile to stay where it was; the tile at "
                f"{_fmt(where[i])} moved {moved:.4f} m"
            )
        assert_colours(now, marked, f"{what} (frame {xr.frame})")
        if k < frames:
            xr.step(min(every, frames - k))


def pinch_toggles(xr, hands: Sequence, cells: Sequence[int], tiles: Tiles, marked: set[int], what: str) -> Tiles:
    """Point each hand at its cell, hover, then start every pinch in the same frame: each cell's tile
    must toggle within 0.1 s and not earlier; then hold and release (nothing more changes)."""
    __tracebackhide__ = True
    for hand, i in zip(hands, cells, strict=True):
        hand.point_to(tiles.aim(i))
    assert_unchanged(xr, tiles, marked, 20, f"pointing at the tile(s) without pinching, before {what}", every=10)
    for hand in hands[1:]:
        hand.start_select(0)
    hands[0].start_select(1)
    since = xr.frame - 1
    want = set(marked) ^ set(cells)
    while True:
        now = read_tiles(xr, [tiles.grid], f"{what} ({xr.frame - since} frames after the pinch began)")
        if now.marked() == want:
            break
        changed = now.marked() ^ set(marked)
        assert changed <= set(cells), (
            f"{what}: only the pinched tile(s) may change; the tile(s) at "
            f"{', '.join(_fmt(tiles.grid.centres[i]) for i in changed - set(cells))} changed too"
        )
        assert xr.frame - since < SOON, (
            f"{what}: expected the pinched tile(s) at {', '.join(_fmt(tiles.grid.centres[i]) for i in cells)} to "
            f"toggle within 0.1 s ({SOON} frames) of the pinch; {xr.frame - since} frames later the marked tiles "
            f"are {sorted(now.marked())}, expected {sorted(want)}"
        )
        xr.step(1)
    marked.clear()
    marked.update(want)
    xr.step(SOON)
    assert_unchanged(xr, tiles, marked, 60, f"while the pinch of {what} is held", every=30)
    for hand in hands:
        hand.end_select(0)
    xr.step(1)
    assert_unchanged(xr, tiles, marked, 30, f"after the pinch of {what} was released", every=15)
    return tiles


def assert_stay_through_a_walk(xr, tiles: Tiles, marked: set[int], what: str) -> None:
    __tracebackhide__ = True
    where = {i: centre_xz(n) for i, n in tiles.by_cell.items()}
    xr.head.rotate(yaw=-90)
    xr.head.walk([(0.6, 1.5, -0.4)], speed=1.0)
    xr.head.move((0.0, -0.5, 0.0), speed=0.5)
    xr.head.rotate(yaw=150, pitch=-30)
    xr.wait(300)
    now = full_check(xr, [tiles.grid], marked, f"after the user turned, walked and crouched ({what})")
    for i, n in now.by_cell.items():
        moved = math.dist(centre_xz(n), where[i])
        assert moved <= STILL_TOL, (
            f"after the user turned, walked and crouched ({what}): expected every tile to stay where it was; "
            f"the tile at {_fmt(where[i])} moved {moved:.4f} m"
        )


# --- tests -----------------------------------------------------------------------------------


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_a_furnished_room_s_floor_is_tiled_and_the_tiles_stay(xr):
    assert xr.planes(), "plane detection reports no plane: the app did not enable plane detection"
    grids = expected_grids(xr)
    count = {"living_room": 144, "kitchen": 100}[xr.scene.name]
    assert all(len(g.centres) == count for g in grids), "test set-up: the scene's tiles"
    tiles = wait_for_tiles(xr, grids, 0, STARTUP, "within half a second of the start")
    tiles = full_check(xr, grids, set(), "within half a second of the start")
    xr.step(SOON)
    assert_state(xr, count, 0, "once the floor was tiled")
    assert_stay_through_a_walk(xr, tiles, set(), xr.scene.name)
    assert_state(xr, count, 0, "after the user walked")
    assert_no_errors(xr)


def wall_point(xr) -> Vec:
    """A point high on the wall ahead (no tile there)."""
    z = min(p.position[2] for p in xr.planes("wall"))
    return (0.0, 2.2, z)


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_either_hand_toggles_the_tile_it_points_at(xr):
    grids = expected_grids(xr)
    tiles = wait_for_tiles(xr, grids, 0, STARTUP, "within half a second of the start")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    side = 1.0 if dom.handedness == "right" else -1.0
    marked: set[int] = set()
    a = tiles.nearest((1.25 * side, -0.75))
    b = tiles.nearest((-0.75 * side, -1.25))
    c = tiles.nearest((0.25 * side, -0.25))
    pinch_toggles(xr, [dom], [a], tiles, marked, "the dominant hand on a tile")
    assert_state(xr, len(tiles.grid.centres), 1, "after one tile was marked")
    pinch_toggles(xr, [non], [b], tiles, marked, "the non-dominant hand on another tile")
    assert_state(xr, len(tiles.grid.centres), 2, "after two tiles were marked")
    pinch_toggles(xr, [dom, non], [c, b], tiles, marked, "both hands at once, on an unmarked and a marked tile")
    assert marked == {a, c}
    assert_state(xr, len(tiles.grid.centres), 2, "after both hands toggled a tile at once")
    for hand in (dom, non):  # a pinch pointing at no tile
        hand.point_to(wall_point(xr))
        hand.start_select(HOLD)
        hand.end_select(HOLD)
        assert_unchanged(xr, tiles, marked, 10, f"after a pinch of the {hand.role} hand pointing at the wall", every=5)
    assert_stay_through_a_walk(xr, tiles, marked, "two tiles marked")
    assert_state(xr, len(tiles.grid.centres), 2, "after the user walked")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_tiles_wait_for_the_floor_and_a_wall_then_come_within_a_tenth_of_a_second(xr):
    kitchen = xr.scene.name == "kitchen"
    xr.plane_detection.withhold()
    assert_no_tiles(xr, 20, "before any plane was detected")
    if kitchen:
        assert [p["label"] for p in xr.plane_detection.deliver("floor")] == ["floor"], "test set-up: the floor"
        assert_no_tiles(xr, 30, "while only the floor was detected")
        xr.plane_detection.deliver("table")
        assert_no_tiles(xr, 30, "while only the floor and the furniture were detected")
        xr.plane_detection.deliver("wall")
        what = "once the walls were detected after the floor"
    else:
        xr.plane_detection.deliver("table", "couch")
        assert_no_tiles(xr, 30, "while only furniture was detected")
        xr.plane_detection.deliver("wall")
        assert_no_tiles(xr, 45, "while the walls and the furniture but no floor were detected")
        xr.plane_detection.deliver("floor")
        what = "once the floor was detected after the walls"
    since = xr.frame
    grids = expected_grids(xr)
    xr.step(1)
    tiles = wait_for_tiles(xr, grids, since, SOON, what)
    full_check(xr, grids, set(), what)
    assert_unchanged(xr, tiles, set(), 30, f"half a second later ({what})", every=5)
    assert_no_errors(xr)


PENTAGON = [(-2.3, -3.2), (2.6, -3.2), (2.6, 0.4), (-1.1, 0.4), (-2.3, -0.8)]  # walls 4.9, 3.6, 3.7, 1.7, 2.4 m
PENT_TURN, PENT_PIVOT, PENT_FLOOR = 25.0, (0.0, -1.4), 0.04


def test_in_a_turned_room_the_grid_follows_the_longest_wall_as_walls_arrive(xr):
    xr.plane_detection.withhold()
    outline = turned(PENTAGON, PENT_TURN, about=PENT_PIVOT)
    floor, north, east, south, cut, west = room_planes(outline, height=2.4, floor_y=PENT_FLOOR)
    a, b = turned([(2.59, -2.2), (2.59, -0.2)], PENT_TURN, about=PENT_PIVOT)  # a 2 m double door, east wall
    door = wall_plane(a, b, inside=PENT_PIVOT, height=2.1, floor_y=PENT_FLOOR, label="door")
    table = floor_plane(turned([(-0.8, -2.6), (0.6, -2.6), (0.6, -1.9), (-0.8, -1.9)], PENT_TURN, PENT_PIVOT), 0.78)
    table["label"] = "table"
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    side = 1.0 if dom.handedness == "right" else -1.0
    assert_no_tiles(xr, 10, "before any plane was detected")
    xr.plane_detection.add(floor)
    assert_no_tiles(xr, 30, "while only the floor was detected")

    def arrive(planes: list, what: str, old: Tiles | None) -> Tiles:
        xr.plane_detection.add(*planes)
        since = xr.frame
        grids = expected_grids(xr)
        assert len(grids) == 1, "test set-up: one longest wall"
        new = grids[0].centres
        while True:  # every frame: the old grid's tiles or the new grid's, never both or a mix
            xr.step(1)
            nodes = shown_tiles(xr)
            if match(nodes, new) is not None:
                break
            seen = [centre_xz(n) for n in nodes]
            of_new = all(any(math.dist(s, e) <= SIZE_TOL for e in new) for s in seen)
            of_old = old is not None and all(any(math.dist(s, e) <= SIZE_TOL for e in old.grid.centres) for s in seen)
            assert of_new or of_old, (
                f"{what}, {xr.frame - since} frames later: expected the tiles of the old grid or of the new one, never "
                f"both or a mix; {describe_mismatch(nodes, grids)}"
            )
            assert xr.frame - since < SOON, (
                f"{what}, {xr.frame - since} frames later: {describe_mismatch(nodes, grids)}"
            )
        tiles = full_check(xr, grids, set(), f"{what} (every tile unmarked)")
        xr.step(SOON)
        assert_state(xr, len(new), 0, what)
        return tiles

    tiles = arrive([door, cut], "once a 1.7 m wall and a 2 m door were detected", None)
    marked: set[int] = set()
    pinch_toggles(xr, [dom], [tiles.nearest((0.3 * side, -1.0))], tiles, marked, "the dominant hand")
    assert_state(xr, len(tiles.grid.centres), 1, "after a tile was marked")
    tiles = arrive([east], "once a longer (3.6 m) wall was detected", tiles)
    marked = set()
    pinch_toggles(xr, [non], [tiles.nearest((-0.6 * side, -1.2))], tiles, marked, "the non-dominant hand")
    pinch_toggles(xr, [dom], [tiles.nearest((0.6 * side, -0.6))], tiles, marked, "the dominant hand")
    assert_state(xr, len(tiles.grid.centres), 2, "after two tiles were marked")
    xr.plane_detection.add(table, west)
    assert_unchanged(xr, tiles, marked, 30, "after a shorter (2.4 m) wall and a table were detected", every=3)
    assert_nothing_else(xr, tiles, "after a shorter (2.4 m) wall and a table were detected")
    assert_state(xr, len(tiles.grid.centres), 2, "after a shorter wall and a table were detected")
    tiles = arrive([north], "once the longest (4.9 m) wall was detected", tiles)
    marked = set()
    xr.plane_detection.add(south)
    assert_unchanged(xr, tiles, marked, 30, "after a shorter (3.7 m) wall was detected", every=3)
    pinch_toggles(xr, [dom], [tiles.nearest((-0.4 * side, -0.9))], tiles, marked, "the dominant hand")
    assert_state(xr, len(tiles.grid.centres), 1, "after a tile was marked on the final grid")
    assert_stay_through_a_walk(xr, tiles, marked, "the turned room")
    assert_no_errors(xr)


L_ROOM = [(-2.6, -3.3), (2.7, -3.3), (2.7, -1.05), (0.35, -1.05), (0.35, 0.7), (-2.6, 0.7)]
L_TURN = -32.0


def test_in_an_l_shaped_turned_room_only_cells_wholly_inside_get_tiles(xr):
    xr.plane_detection.withhold()
    outline = turned(L_ROOM, L_TURN)
    floor, *walls = room_planes(outline, height=2.5)
    table = floor_plane(turned([(-2.0, -2.8), (-0.6, -2.8), (-0.6, -2.0), (-2.0, -2.0)], L_TURN), 0.72)
    table["label"] = "table"
    couch = floor_plane(turned([(1.0, -3.2), (2.6, -3.2), (2.6, -2.4), (1.0, -2.4)], L_TURN), 0.45)
    couch["label"] = "couch"
    a, b = turned([(-2.59, -0.6), (-2.59, 0.3)], L_TURN)
    door = wall_plane(a, b, inside=(0.0, -1.0), height=2.0, label="door")
    xr.step(5)
    xr.plane_detection.add(table, walls[3], walls[1], walls[0], door, walls[5], couch, walls[2], walls[4], floor)
    since = xr.frame
    grids = expected_grids(xr)
    assert len(grids) == 1 and len(grids[0].centres) == 60, "test set-up: the L-shaped room's tiles"
    xr.step(1)
    wait_for_tiles(xr, grids, since, SOON, "once an L-shaped room turned -32 degrees was detected")
    tiles = full_check(xr, grids, set(), "once an L-shaped room turned -32 degrees was detected")
    xr.step(SOON)
    assert_state(xr, 60, 0, "once the L-shaped room was tiled")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    inner = turned([(0.35, -1.05)], L_TURN)[0]
    first = tiles.nearest(inner)
    second = tiles.nearest(inner, exclude=[first])
    if (tiles.grid.centres[first][0] - tiles.grid.centres[second][0]) * (1 if dom.handedness == "right" else -1) < 0:
        first, second = second, first  # each hand takes the tile on its own side
    marked: set[int] = set()
    pinch_toggles(xr, [dom, non], [first, second], tiles, marked, "both hands at once near the inner corner")
    assert_state(xr, 60, 2, "after both hands marked a tile")
    assert_stay_through_a_walk(xr, tiles, marked, "the L-shaped room")
    assert_no_errors(xr)
