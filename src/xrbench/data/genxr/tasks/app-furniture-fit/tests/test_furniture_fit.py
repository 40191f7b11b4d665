"""Runtime tests of the cabinet the user drags along the floor to see where it fits.

They check that
- the cabinet (a box mesh 0.6 m wide along x, 0.8 m tall, 0.4 m deep along z, within 1 cm) is
  hidden until the floor is detected and is shown within half a second of it, standing on the
  floor (its bottom within 1 cm of the floor plane's height, also on a raised floor) with its
  footprint's centre at x = 1.2, z = -0.7 (within 2 cm), green #2ecc40, `state.held` false;
- a pinch aimed at the cabinet with a hand's ray holds it (`state.held` true until that pinch is
  released) and it does not jump; while held it slides along the floor so that the spot where the
  ray first hit it stays on the ray at that spot's height (the test moves the ray about 2 cm of
  floor per frame and checks every frame that the cabinet stays upright, unturned and on the
  floor, and, once the hand holds still, within 3 cm of where the ray puts it);
- its colour, on every frame (the frame the footprint's status changes, or the one after), is
  green while the footprint (the 0.6 x 0.4 rectangle under it) overlaps no detected table's
  outline and crosses no detected wall's base line, red (#e53935) while it does: footprints whose
  centre is off the table but whose edge overlaps it are red, footprints 5 cm clear of a table or
  a wall are green, also inside the box that bounds a turned table or a slanted wall; frames
  within 5 mm of a change are not judged;
- released on a green spot it stays exactly there (3 mm, a second); released on a red spot it is
  back, within half a second, on the spot where it was the last frame its footprint fitted
  (within 4 cm; green, on the floor, fitting or within 5 mm of fitting: a footprint that only
  touches a table's edge is left open) and stays there;
- a pinch that starts with the ray off the cabinet does not take it, even when the ray then
  sweeps over it; while one hand holds it a pinch of the other hand aimed at it changes nothing,
  and the other hand's release does not let it go;
- it works in the living room and the kitchen (tables where they are in each; the wall test in
  the kitchen), and in
  a room whose planes arrive late: a raised floor, a slanted wall and a table turned by 30
  degrees.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.rooms import qmul, room_planes, yaw

TAG = "cabinet"
WIDTH, HEIGHT, DEPTH = 0.6, 0.8, 0.4
SIZE_TOL = 0.01
START = (1.2, -0.7)  # the footprint's centre (x, z)
START_TOL = 0.02
FLOOR_TOL = 0.01
GREEN, RED = "#2ecc40", "#e53935"
SOON = 30  # frames: half a second at 60 Hz
STILL_TOL = 0.003
JUMP_TOL = 0.01
FOLLOW_TOL = 0.03
BACK_TOL = 0.04
STEP = 0.02  # metres of floor per frame while dragging
EDGE = 0.005  # frames this close to a change of fit are not judged

Vec = tuple[float, float, float]
XZ = tuple[float, float]


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


# --- the room as detected: tables' outlines and walls' base lines on the floor ----------------


@dataclass(frozen=True)
class Room:
    floor_y: float
    tables: list[list[XZ]]
    walls: list[tuple[XZ, XZ]]

    def why_not_fit(self, c: XZ) -> str | None:
        """Why a footprint centred at `c` does not fit (None when it fits)."""
        rect = _rect(c)
        for i, poly in enumerate(self.tables):
            if _polygons_overlap(rect, poly):
                return f"it overlaps table {i + 1}"
        for i, seg in enumerate(self.walls):
            if _segment_meets_polygon(seg, rect):
                return f"it crosses wall {i + 1}"
        return None

    def fits(self, c: XZ) -> bool:
        return self.why_not_fit(c) is None

    def nearly_fits(self, c: XZ) -> bool:
        """Whether the footprint at `c`, or one within EDGE of it, fits (touching is left open)."""
        return any(self.fits((c[0] + dx, c[1] + dz)) for dx in (-EDGE, 0.0, EDGE) for dz in (-EDGE, 0.0, EDGE))

    def clear(self, c: XZ) -> bool:
        """Whether every footprint within EDGE of `c` has the same fit as `c`."""
        f = self.fits(c)
        for dx, dz in ((EDGE, 0), (-EDGE, 0), (0, EDGE), (0, -EDGE), (EDGE, EDGE), (-EDGE, -EDGE), (EDGE, -EDGE)):
            if self.fits((c[0] + dx, c[1] + dz)) != f:
                return False
        return self.fits((c[0] - EDGE, c[1] + EDGE)) == f


def _rect(c: XZ) -> list[XZ]:
    x, z = c
    w, d = WIDTH / 2, DEPTH / 2
    return [(x - w, z - d), (x + w, z - d), (x + w, z + d), (x - w, z + d)]


def _axes(poly: Sequence[XZ]) -> list[XZ]:
    out = []
    for (x0, z0), (x1, z1) in zip(poly, [*poly[1:], poly[0]], strict=True):
        nx, nz = -(z1 - z0), x1 - x0
        n = math.hypot(nx, nz)
        if n > 1e-9:
            out.append((nx / n, nz / n))
    return out


def _polygons_overlap(a: Sequence[XZ], b: Sequence[XZ]) -> bool:
    """Convex polygons overlapping with some area (separating axes)."""
    for ax in [*_axes(a), *_axes(b)]:
        pa = [p[0] * ax[0] + p[1] * ax[1] for p in a]
        pb = [p[0] * ax[0] + p[1] * ax[1] for p in b]
        if max(pa) <= min(pb) or max(pb) <= min(pa):
            return False
    return True


def _segment_meets_polygon(seg: tuple[XZ, XZ], poly: Sequence[XZ]) -> bool:
    a, b = seg
    d = (b[0] - a[0], b[1] - a[1])
    n = math.hypot(*d)
    thin = [a, b, (b[0] + 1e-6 * -d[1] / n, b[1] + 1e-6 * d[0] / n)]  # a sliver: a convex polygon
    return _polygons_overlap(poly, thin)


def read_room(xr) -> Room:
    planes = xr.planes()
    floors = [p for p in planes if p.label == "floor"]
    assert floors, "test set-up: no floor plane detected"
    tables = [[(q[0], q[2]) for q in p.polygon] for p in planes if p.label == "table"]
    walls = []
    for p in planes:
        if p.label != "wall":
            continue
        low = sorted(p.polygon, key=lambda q: q[1])[:2]
        walls.append(((low[0][0], low[0][2]), (low[1][0], low[1][2])))
    return Room(floors[0].position[1], tables, walls)


# --- the cabinet --------------------------------------------------------------------------------


def cabinet(xr, *, required: bool = True):
    __tracebackhide__ = True
    nodes = [n for n in xr.tagged(TAG) if n.root == "scene"]
    if not nodes and not required:
        return None
    assert len(nodes) == 1, f"expected exactly one object tagged {TAG!r} in the scene; observed {len(nodes)}"
    return nodes[0]


def held_of(node) -> Any:
    return node.state.get("held") if isinstance(node.state, dict) else None


def centre_of(node) -> XZ:
    lo, hi = node.bbox
    return ((lo[0] + hi[0]) / 2, (lo[2] + hi[2]) / 2)


def assert_standing(node, room: Room, when: str) -> None:
    """Shown, a box of the stated size with its sides along x and z, its bottom on the floor."""
    __tracebackhide__ = True
    assert node.visible, f"expected the cabinet shown ({when}); it is hidden"
    assert node.bbox is not None, f"expected the cabinet to be a box mesh ({when}); it has no geometry"
    size = node.size
    for what, got, want in (("wide (x)", size[0], WIDTH), ("tall", size[1], HEIGHT), ("deep (z)", size[2], DEPTH)):
        assert abs(got - want) <= SIZE_TOL, (
            f"expected an upright cabinet {want} m {what}, its sides along x and z (within {SIZE_TOL} m, "
            f"{when}); observed a box of {_fmt(size)}"
        )
    bottom = node.bbox[0][1]
    assert abs(bottom - room.floor_y) <= FLOOR_TOL, (
        f"expected the cabinet's bottom on the floor at y = {room.floor_y:.3f} (within {FLOOR_TOL} m, {when}); "
        f"observed it at y = {bottom:.3f}"
    )


def assert_colour(node, fits: bool, when: str) -> None:
    __tracebackhide__ = True
    want = GREEN if fits else RED
    assert node.color == want, (
        f"expected the cabinet {'green' if fits else 'red'} ({want}) {when}; observed colour {node.color}"
    )


def wait_for_cabinet(xr, since: int, what: str):
    """Step until the cabinet is shown (within half a second of `since`); returns it."""
    __tracebackhide__ = True
    while True:
        node = cabinet(xr, required=False)
        if node is not None and node.visible:
            return node
        assert xr.frame - since < SOON, (
            f"expected the cabinet shown within half a second ({SOON} frames) {what}; not shown "
            f"{xr.frame - since} frames later"
        )
        xr.step(1)


def assert_start(xr, room: Room, node, when: str) -> None:
    __tracebackhide__ = True
    assert_standing(node, room, when)
    c = centre_of(node)
    off = math.dist(c, START)
    assert off <= START_TOL, (
        f"expected the cabinet's footprint centred at x = {START[0]}, z = {START[1]} (within {START_TOL} m, "
        f"{when}); observed x = {c[0]:.3f}, z = {c[1]:.3f}"
    )
    assert_colour(node, True, when)
    assert held_of(node) is False, f"expected state.held false ({when}); observed {node.state!r}"


# --- holding with the ray -----------------------------------------------------------------------


def _ray_box(origin: Vec, target: Vec, box: tuple[Vec, Vec]) -> Vec:
    """Where the ray from `origin` through `target` enters `box`."""
    d = [target[i] - origin[i] for i in range(3)]
    t0, t1 = 0.0, math.inf
    for i in range(3):
        if abs(d[i]) < 1e-12:
            assert box[0][i] <= origin[i] <= box[1][i], "test set-up: the ray misses the cabinet"
            continue
        a, b = (box[0][i] - origin[i]) / d[i], (box[1][i] - origin[i]) / d[i]
        t0, t1 = max(t0, min(a, b)), min(t1, max(a, b))
    assert t0 <= t1, "test set-up: the ray misses the cabinet"
    return tuple(origin[i] + t0 * d[i] for i in range(3))  # type: ignore[return-value]


class Hold:
    """A hand's ray holding the cabinet: aims the ray so the cabinet's footprint goes where asked."""

    def __init__(self, xr, room: Room, role: str):
        self.xr, self.room, self.role = xr, room, role
        self.hand = xr.hand(role)
        self.samples: list[tuple[XZ, str | None, bool]] = []  # per frame: centre, colour, visible

    def grab(self, when: str) -> None:
        """Point at the cabinet's middle, pinch, and check that it is held and does not jump."""
        __tracebackhide__ = True
        xr = self.xr
        node = cabinet(xr)
        lo, hi = node.bbox
        middle = ((lo[0] + hi[0]) / 2, lo[1] + 0.6 * (hi[1] - lo[1]), (lo[2] + hi[2]) / 2)
        self.hand.point_to(middle)
        origin = self.hand.position
        spot = _ray_box(origin, middle, node.bbox)
        self.height = spot[1]
        c0 = centre_of(node)
        self.offset = (c0[0] - spot[0], c0[1] - spot[2])
        self.centre = c0
        self.hand.start_select(1)
        for i in range(8):
            xr.step(1)
            now = cabinet(xr)
            moved = math.dist(centre_of(now), c0)
            assert moved <= JUMP_TOL, (
                f"expected the cabinet not to jump when the {self.role} hand's ray pinched it ({when}); observed it "
                f"{moved:.3f} m from {_fmt(c0)} {i + 1} frames after the pinch"
            )
        assert held_of(now) is True, (
            f"expected state.held true while the {self.role} hand's pinch holds the cabinet ({when}); observed "
            f"{now.state!r}"
        )

    def aim(self, c: XZ) -> Vec:
        return (c[0] - self.offset[0], self.height, c[1] - self.offset[1])

    def drag_to(self, goal: XZ, when: str, *, check_colour: bool = True) -> XZ:
        """Move the ray so the footprint's centre goes in a straight line to `goal`, STEP per frame,
        checking every frame; then hold still and check where it is."""
        __tracebackhide__ = True
        xr, room = self.xr, self.room
        a = self.centre
        n = max(1, math.ceil(math.dist(a, goal) / STEP))
        prev_truth: bool | None = None
        for k in range(1, n + 1):
            c = (a[0] + (goal[0] - a[0]) * k / n, a[1] + (goal[1] - a[1]) * k / n)
            self.hand.point_to(self.aim(c), speed=1440)
            node = cabinet(xr)
            at = centre_of(node)
            assert_standing(node, room, f"while it was dragged {when}")
            truth = room.fits(at)
            self.samples.append((at, node.color, truth))
            if check_colour and room.clear(at):
                ok = {truth} if prev_truth is None else {truth, prev_truth}
                want = [GREEN if t else RED for t in ok]
                status = "fits" if truth else f"does not fit: {room.why_not_fit(at)}"
                assert node.color in want, (
                    f"expected the cabinet {' or '.join(want)} while it was dragged {when}, at x = {at[0]:.3f}, "
                    f"z = {at[1]:.3f} where its footprint {status}; observed {node.color}"
                )
            prev_truth = truth
        xr.step(4)
        node = cabinet(xr)
        at = centre_of(node)
        off = math.dist(at, goal)
        assert off <= FOLLOW_TOL, (
            f"expected the cabinet to slide so that the spot the {self.role} hand's ray grabbed stays on the ray "
            f"({when}): footprint centre at {_fmt(goal)} (within {FOLLOW_TOL} m); observed {_fmt(at)}, {off:.3f} m "
            "away"
        )
        assert held_of(node) is True, (
            f"expected state.held true while the cabinet is held ({when}); observed {node.state!r}"
        )
        assert_standing(node, room, when)
        assert_colour(
            node,
            room.fits(at),
            f"held still {when}, where its footprint "
            + ("fits" if room.fits(at) else f"does not fit ({room.why_not_fit(at)})"),
        )
        self.centre = at
        return at

    def last_fit(self) -> XZ:
        for at, _, truth in reversed(self.samples):
            if truth:
                return at
        return self.samples[0][0]

    def release(self, when: str) -> XZ:
        """Open the pinch; returns where the cabinet is half a second later (checked)."""
        __tracebackhide__ = True
        xr, room = self.xr, self.room
        node = cabinet(xr)
        let_go = centre_of(node)
        fitted = room.fits(let_go)
        self.hand.end_select(1)
        xr.step(SOON)
        node = cabinet(xr)
        at = centre_of(node)
        assert held_of(node) is False, (
            f"expected state.held false once the pinch was released ({when}); observed {node.state!r}"
        )
        assert_standing(node, room, f"half a second after it was released {when}")
        if fitted:
            moved = math.dist(at, let_go)
            assert moved <= STILL_TOL, (
                f"expected the cabinet, released where it fits {when}, to stay at {_fmt(let_go)}; observed it at "
                f"{_fmt(at)} half a second later, {moved:.3f} m away"
            )
        else:
            back = self.last_fit()
            off = math.dist(at, back)
            assert off <= BACK_TOL, (
                f"expected the cabinet, released where it does not fit ({room.why_not_fit(let_go)}) {when}, back "
                f"within half a second on the last spot where it fitted, {_fmt(back)} (within {BACK_TOL} m); observed "
                f"it at {_fmt(at)}, {off:.3f} m away (it was let go at {_fmt(let_go)})"
            )
            assert room.nearly_fits(at), (
                f"expected the cabinet back on a spot where it fits {when}; {room.why_not_fit(at)}"
            )
        assert_colour(node, True, f"half a second after it was released {when}")
        for i in range(3):
            xr.step(20)
            now = centre_of(cabinet(xr))
            moved = math.dist(now, at)
            assert moved <= STILL_TOL, (
                f"expected the released cabinet to stay at {_fmt(at)} ({when}); observed it {moved:.3f} m away "
                f"{20 * (i + 1)} frames later"
            )
        self.samples.clear()
        self.centre = at
        self.hand.point_to(_add3(self.hand.position, (0.0, -1.0, -1.0)))
        return at


def _add3(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def start(xr) -> tuple[Room, Any]:
    __tracebackhide__ = True
    room = read_room(xr)
    node = wait_for_cabinet(xr, 0, "after the app started in a room whose planes are known")
    assert_start(xr, room, node, "when it is first shown")
    return room, node


def table_right(room: Room, i: int = 0) -> tuple[float, float, float]:
    """A table's right edge x and its z range (axis-aligned tables of the bundled rooms)."""
    poly = room.tables[i]
    return max(p[0] for p in poly), min(p[1] for p in poly), max(p[1] for p in poly)


def right_wall_x(room: Room) -> float:
    return max(max(a[0], b[0]) for a, b in room.walls if abs(a[0] - b[0]) < 1e-6)


# --- tests --------------------------------------------------------------------------------------


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_the_cabinet_stands_green_on_the_floor_and_slides_where_the_ray_holds_it(xr):
    room, _ = start(xr)
    xr.step(30)
    assert_start(xr, room, cabinet(xr), "half a second after it was shown")
    hand = xr.hand("dominant")
    # A pinch aimed at the floor beside the cabinet, then swept over it, does not take it.
    hand.point_to((0.4, 0.0, -0.5))
    hand.start_select(1)
    for target in ((1.2, 0.3, -0.7), (1.6, 0.3, -0.7), (1.2, 0.5, -1.0)):
        hand.point_to(target, speed=60)
        now = cabinet(xr)
        moved = math.dist(centre_of(now), START)
        assert moved <= STILL_TOL and held_of(now) is False, (
            f"expected a pinch that began with the ray off the cabinet not to take it when the ray swept over it; "
            f"observed the cabinet {moved:.3f} m from its start, state {now.state!r}"
        )
    hand.end_select(1)
    xr.step(10)
    hold = Hold(xr, room, "dominant")
    hold.grab("the first grab")
    hold.drag_to((1.7, -1.4), "back and to the right, where it fits")
    hold.drag_to((1.0, -0.45), "towards the user, where it fits")
    at = hold.release("on a spot where it fits")
    # Grab it again where it was let go and move it once more.
    hold.grab("the second grab, where it was let go")
    hold.drag_to((at[0] + 0.5, at[1] - 0.2), "to the right")
    hold.release("on another spot where it fits")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_released_over_a_table_it_goes_back_to_the_last_spot_where_it_fitted(xr):
    room, _ = start(xr)
    right, zlo, zhi = table_right(room)
    zmid = (zlo + zhi) / 2
    hold = Hold(xr, room, "dominant")
    hold.grab("beside the table")
    hold.drag_to((right + WIDTH / 2 + 0.5, zmid), "to the right of the table, where it fits")
    hold.drag_to((right + WIDTH / 2 + 0.05, zmid), "5 cm clear of the table's edge, where it fits")
    assert room.fits(hold.centre)
    hold.drag_to((right + WIDTH / 2 - 0.1, zmid), "its edge 10 cm over the table, its centre off it")
    assert not room.fits(hold.centre)
    hold.drag_to((right - 0.2, zmid + 0.1), "over the table")
    hold.release("over the table")
    # Over the table's near edge, coming from the front this time.
    hold.grab("again, after it came back")
    hold.drag_to((right + 0.05, zhi + DEPTH / 2 + 0.3), "in front of the table's corner, where it fits")
    hold.drag_to((right - 0.1, zhi + DEPTH / 2 - 0.08), "8 cm over the table's near edge")
    assert not room.fits(hold.centre)
    hold.release("over the table's near edge")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_crossing_a_wall_is_red_and_the_other_hand_cannot_take_it_over(xr):
    room, _ = start(xr)
    wall = right_wall_x(room)
    hold = Hold(xr, room, "non_dominant")
    hold.grab("with the non-dominant hand")
    hold.drag_to((wall - WIDTH / 2 - 0.08, -0.9), "8 cm clear of the right-hand wall, where it fits")
    # The dominant hand aims at the held cabinet and pinches: nothing changes.
    other = xr.hand("dominant")
    node = cabinet(xr)
    lo, hi = node.bbox
    other.point_to(((lo[0] + hi[0]) / 2, lo[1] + 0.5 * (hi[1] - lo[1]), (lo[2] + hi[2]) / 2))
    before = centre_of(cabinet(xr))
    other.start_select(1)
    xr.step(20)
    node = cabinet(xr)
    moved = math.dist(centre_of(node), before)
    assert moved <= STILL_TOL and held_of(node) is True, (
        f"expected a pinch of the other hand at the held cabinet to change nothing; observed it {moved:.3f} m away, "
        f"state {node.state!r}"
    )
    other.point_to(_add3(other.position, (-0.5, -1.0, -1.0)), speed=60)
    node = cabinet(xr)
    moved = math.dist(centre_of(node), before)
    assert moved <= STILL_TOL, f"expected the other hand's ray not to move the cabinet; it moved {moved:.3f} m"
    other.end_select(1)
    xr.step(10)
    node = cabinet(xr)
    assert held_of(node) is True, (
        f"expected the cabinet still held by the non-dominant hand after the other hand's pinch was released; "
        f"observed {node.state!r}"
    )
    hold.drag_to((wall - WIDTH / 2 + 0.1, -1.2), "10 cm through the right-hand wall")
    assert not room.fits(hold.centre)
    hold.release("across the wall")
    assert hold.centre[0] > wall - WIDTH / 2 - 0.2
    assert_no_errors(xr)


# A room found late: a raised floor (a platform 10 cm high), a slanted wall cutting the back
# right corner, and a table turned by 30 degrees.
FLOOR_Y = 0.1
OUTLINE = [(-2.0, 1.5), (2.4, 1.5), (2.4, -1.0), (0.9, -3.4), (-2.0, -3.4)]
TABLE_CENTRE = (-0.1, -1.9)


def _turned_table() -> dict[str, Any]:
    return {
        "type": "horizontal",
        "label": "table",
        "area": 0.72,
        "position": {"x": TABLE_CENTRE[0], "y": FLOOR_Y + 0.72, "z": TABLE_CENTRE[1]},
        "quaternion": list(qmul(yaw(30.0), (0.0, 0.0, 0.0, 1.0))),
        "polygon": [{"x": x, "y": y} for x, y in ((-0.6, -0.3), (0.6, -0.3), (0.6, 0.3), (-0.6, 0.3))],
    }


def _in_box(c: XZ, poly: Sequence[XZ]) -> bool:
    """Whether the footprint at `c` meets the axis-aligned box around `poly`."""
    xs, zs = [p[0] for p in poly], [p[1] for p in poly]
    return (
        c[0] - WIDTH / 2 < max(xs)
        and c[0] + WIDTH / 2 > min(xs)
        and c[1] - DEPTH / 2 < max(zs)
        and (c[1] + DEPTH / 2 > min(zs))
    )


@pytest.mark.xr_scenes("empty")
def test_in_a_room_found_late_with_a_raised_floor_a_slanted_wall_and_a_turned_table(xr):
    xr.plane_detection.withhold()
    planes = room_planes(OUTLINE, floor_y=FLOOR_Y)
    floor, walls = planes[0], planes[1:]
    for _ in range(40):
        node = cabinet(xr, required=False)
        assert node is None or not node.visible, "expected no cabinet shown before the floor was detected"
        xr.step(1)
    xr.plane_detection.add(*walls, _turned_table())
    for _ in range(30):
        xr.step(1)
        node = cabinet(xr, required=False)
        assert node is None or not node.visible, (
            "expected no cabinet shown while the walls and a table, but not the floor, were detected"
        )
    xr.plane_detection.add(floor)
    since = xr.frame
    xr.step(1)
    room = read_room(xr)
    assert abs(room.floor_y - FLOOR_Y) < 1e-6 and len(room.walls) == 5 and len(room.tables) == 1
    node = wait_for_cabinet(xr, since, "after the floor, 10 cm above the room's ground, was detected")
    assert_start(xr, room, node, "when it is first shown on the raised floor")
    hold = Hold(xr, room, "dominant")
    hold.grab("on the raised floor")
    # Beside the slanted wall, inside the box that bounds it: fits.
    near_wall = (1.45, -1.6)
    assert room.fits(near_wall) and _in_box(near_wall, room.walls[2])
    hold.drag_to(near_wall, "beside the slanted wall, inside the box around it but clear of it")
    # Beside the turned table, inside the box that bounds it: fits.
    near_table = (0.47, -1.45)
    assert room.fits(near_table) and _in_box(near_table, room.tables[0])
    hold.drag_to(near_table, "beside the turned table, inside the box around it but clear of it")
    hold.drag_to((0.3, -1.5), "its corner over the turned table's edge")
    assert not room.fits(hold.centre)
    hold.release("over the turned table's edge")
    hold.grab("again beside the turned table")
    hold.drag_to((1.3, -1.5), "out towards the slanted wall")
    hold.drag_to((1.75, -1.75), "across the slanted wall")
    assert not room.fits(hold.centre)
    hold.release("across the slanted wall")
    assert_no_errors(xr)
