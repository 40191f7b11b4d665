"""Runtime tests of the block-stacking app, in a living room (a 0.75 m table) and a kitchen (a 0.94 m
island near the start, reported first, and a long counter along the far wall).

They check that
- the three blocks tagged 'block' stay hidden while plane detection has found no table (the
  harness withholds the planes at start-up and delivers them later, as a headset finds them), and
  are then, within half a second and already in place the frame they are first shown, 0.08 m cubes
  in a row along x on the nearest table: B at its centre, A 0.15 m to -x and C 0.15 m to +x, each
  resting on the top (bottom within 5 mm) with state.restingOn 'table'; the cylinder is gone;
- the table is the one whose centre is nearest the head when a table is known, not the first
  reported nor the one looked at, and a nearer table detected later or the user walking to another
  table moves nothing;
- a touch with the index fingertip and a pinch picks a block up, with either hand, stepped frame by
  frame: state.held turns true while the fingers close, the block does not move before and does
  not jump when the pick-up starts, and it keeps the offset it had to the hand (the hand point
  that explains its motion best: a joint, the pinch point or the controller) while carried, while
  the other blocks stay still; both hands hold a block each at the same time and move them apart;
- a pinch whose fingertip stays 2 cm from a block (above it or in front of it), a hand pinching
  beside the blocks, and a touch by an open or relaxed hand pick up nothing;
- on release state.held turns false, and the block falls straight down (x and z fixed within
  3 mm, never rising) with state.restingOn null while in the air, and comes to rest within one
  second on the top of what is below it, then stays there: on the table when released over a free
  spot (also 1.5 cm beside a block), on a block whose footprint it overlaps, even by a corner; a
  tower of three is built, with each block's state correct at every step.

Each test runs for a right- and for a left-dominant user; the user steps up to the table first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.scenes import get_scene
from xrbench.xrtest.session import rotate

BLOCK = "block"
IDS = ("A", "B", "C")
SIZE = 0.08
SIZE_TOL = 0.01  # a stated size, checked to within 12.5 %
SPACING = 0.15
SPACING_TOL = 0.015
CENTRE_TOL = 0.02  # B at the table's centre (x, z); the row at one z within 1 cm
REST_TOL = 0.005  # "its bottom is on the top of what it rests on (within 5 mm)"
STILL_TOL = 0.003  # metres a block nobody moves may move
FOLLOW_TOL = 0.015  # metres a held block may stray from its offset to the hand
FALL_XZ_TOL = 0.003  # "falls straight down"
SOON = 30  # frames: half a second at 60 Hz
REST_WITHIN = 60  # frames: one second
CLOSE_FRAMES = 40  # the simulated fingers close over these frames
OPEN_FRAMES = 30
TOUCH_DEPTH = 0.015  # the fingertip 1.5 cm inside the block

Vec = tuple[float, float, float]

pytestmark = pytest.mark.xr_scenes("living_room", "kitchen")

# One frame's reading in one call: every object tagged 'block' (world box, effective visibility,
# state) and, for each hand asked for, the world positions and orientations of its 25 joints and
# of its controller.
_SAMPLE_JS = """
(h, arg) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const blocks = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== 'block') return;
    let shown = true;
    for (let p = o; p; p = p.parent) if (!p.visible) shown = false;
    const box = new THREE.Box3().setFromObject(o);
    const state = d.state && typeof d.state === 'object' ? JSON.parse(JSON.stringify(d.state)) : null;
    blocks.push({lo: box.isEmpty() ? null : box.min.toArray(), hi: box.isEmpty() ? null : box.max.toArray(),
                 shown, state});
  });
  const hands = {};
  for (const side of arg.hands) {
    const index = side === 'left' ? 0 : 1;
    const space = h.core.input.hands[index];
    const controller = h.core.input.controllers[index];
    const points = {}, turns = {};
    const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
    for (const name of h.xb.HAND_JOINT_NAMES) {
      const joint = space && space.joints && space.joints[name];
      if (!joint) continue;
      h.guard(joint, name);
      joint.updateWorldMatrix(true, false);
      joint.matrixWorld.decompose(p, q, s);
      points[name] = p.toArray();
      turns[name] = q.toArray();
    }
    if (controller) {
      h.guard(controller, 'the controller').updateWorldMatrix(true, false);
      controller.matrixWorld.decompose(p, q, s);
      points.controller = p.toArray();
      turns.controller = q.toArray();
    }
    hands[side] = {points, turns};
  }
  return {blocks, hands};
}
"""


def _sub(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _add(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _conj(q: Sequence[float]) -> tuple[float, float, float, float]:
    return (-q[0], -q[1], -q[2], q[3])


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


# --- the room's tables --------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A table top of a scene's planes file: its centre and its x/z extent."""

    name: str
    centre: Vec
    lo: tuple[float, float]  # (x, z)
    hi: tuple[float, float]

    @property
    def top(self) -> float:
        return self.centre[1]


def table_of(plane: dict[str, Any], name: str) -> Table:
    p = plane["position"]
    xs = [q["x"] for q in plane["polygon"]]
    zs = [q["y"] for q in plane["polygon"]]  # a horizontal plane's polygon (x, y) lies along world x, z
    return Table(
        name, (p["x"], p["y"], p["z"]), (p["x"] + min(xs), p["z"] + min(zs)), (p["x"] + max(xs), p["z"] + max(zs))
    )


def scene_tables(scene: str) -> tuple[list[dict[str, Any]], list[Table]]:
    """The scene's planes in their reported order and its tables (the kitchen: island, then counter)."""
    planes = get_scene(scene).planes()
    tables = [p for p in planes if p["label"] == "table"]
    if scene == "kitchen":
        assert len(tables) == 2 and tables[0]["position"]["z"] > tables[1]["position"]["z"]
        return planes, [table_of(tables[0], "the kitchen island"), table_of(tables[1], "the kitchen counter")]
    assert len(tables) == 1
    return planes, [table_of(tables[0], f"the {scene.replace('_', ' ')} table")]


def plane_of(planes: list[dict[str, Any]], table: Table) -> dict[str, Any]:
    return next(p for p in planes if (p["position"]["x"], p["position"]["y"], p["position"]["z"]) == table.centre)


def assert_nearest(xr, tables: list[Table], expected: Table) -> None:
    """A check of the test itself: `expected` is the table whose centre is closest to the head."""
    head = xr.head.position
    nearest = min(tables, key=lambda t: math.dist(t.centre, head))
    assert nearest is expected, f"test set-up: {expected.name} is not the nearest table from {_fmt(head)}"


# --- reading the blocks -------------------------------------------------------------------------


@dataclass
class Block:
    id: str
    lo: Vec
    hi: Vec
    shown: bool
    state: dict[str, Any]

    @property
    def centre(self) -> Vec:
        return tuple((self.lo[i] + self.hi[i]) / 2 for i in range(3))

    @property
    def size(self) -> Vec:
        return tuple(self.hi[i] - self.lo[i] for i in range(3))

    @property
    def bottom(self) -> float:
        return self.lo[1]

    @property
    def top(self) -> float:
        return self.hi[1]


@dataclass
class Frame:
    blocks: dict[str, Block]
    hands: dict[str, tuple[dict[str, Vec], dict[str, tuple[float, float, float, float]]]]


def sample(xr, *hands: str, placed: bool = True) -> Frame:
    """The blocks (by state.id) and the joints of `hands` ('left'/'right') now.

    With `placed`, every block must exist, have geometry and a unique state.id.
    """
    __tracebackhide__ = True
    got = xr.probe(_SAMPLE_JS, {"hands": list(hands)})
    blocks: dict[str, Block] = {}
    for b in got["blocks"]:
        state = b["state"] if isinstance(b["state"], dict) else {}
        bid = state.get("id")
        if placed:
            assert bid in IDS, (
                f"expected each object tagged {BLOCK!r} to have state.id 'A', 'B' or 'C'; observed {state}"
            )
            assert bid not in blocks, f"expected one block with state.id {bid!r}; observed more than one"
            assert b["lo"] is not None, f"expected block {bid} to have geometry; it has none"
        if bid in IDS and b["lo"] is not None:
            blocks[bid] = Block(bid, tuple(b["lo"]), tuple(b["hi"]), bool(b["shown"]), state)
    if placed:
        assert len(blocks) == 3, f"expected three blocks tagged {BLOCK!r} (A, B, C); observed {sorted(blocks)}"
    out = {}
    for side, h in got["hands"].items():
        points = {name: tuple(p) for name, p in h["points"].items()}
        assert "index-finger-tip" in points and "controller" in points, f"the {side} hand is not tracked"
        tip, thumb = points["index-finger-tip"], points["thumb-tip"]
        points["pinch point"] = tuple((tip[i] + thumb[i]) / 2 for i in range(3))
        out[side] = (points, {name: tuple(q) for name, q in h["turns"].items()})
    return Frame(blocks, out)


def blocks(xr) -> dict[str, Block]:
    return sample(xr).blocks


def assert_state(b: Block, when: str, **want: Any) -> None:
    __tracebackhide__ = True
    wrong = {k: b.state.get(k, "<missing>") for k, v in want.items() if b.state.get(k, "<missing>") != v}
    assert not wrong, f"expected block {b.id}'s state to include {want} ({when}); observed {b.state}"


def assert_unmoved(before: dict[str, Block], after: dict[str, Block], ids: Sequence[str], when: str) -> None:
    __tracebackhide__ = True
    for i in ids:
        moved = math.dist(before[i].centre, after[i].centre)
        assert moved <= STILL_TOL, (
            f"expected block {i} to stay where it was, at {_fmt(before[i].centre)} ({when}); observed it at "
            f"{_fmt(after[i].centre)}, {moved:.3f} m away"
        )


def overlaps(a: Block, b: Block) -> bool:
    return all(a.lo[k] < b.hi[k] and b.lo[k] < a.hi[k] for k in (0, 2))


def assert_on_table(b: Block, table: Table, when: str) -> None:
    __tracebackhide__ = True
    assert b.shown, f"expected block {b.id} shown ({when}); it is hidden"
    gap = b.bottom - table.top
    assert abs(gap) <= REST_TOL, (
        f"expected block {b.id} resting on {table.name}'s top at y = {table.top:.3f} (its bottom within {REST_TOL} "
        f"m; {when}); observed its bottom at y = {b.bottom:.3f}: it "
        + ("floats above" if gap > 0 else "is sunk into")
        + f" the table by {abs(gap):.3f} m"
    )
    x, _, z = b.centre
    assert table.lo[0] < x < table.hi[0] and table.lo[1] < z < table.hi[1], (
        f"expected block {b.id} over {table.name} ({when}); observed its centre at {_fmt(b.centre)}"
    )
    assert_state(b, when, restingOn="table", held=False)


def assert_on_block(b: Block, below: Block, when: str) -> None:
    __tracebackhide__ = True
    assert overlaps(b, below), (
        f"expected block {b.id} over block {below.id} ({when}); observed their footprints apart: {b.id} at "
        f"{_fmt(b.centre)}, {below.id} at {_fmt(below.centre)}"
    )
    gap = b.bottom - below.top
    assert abs(gap) <= REST_TOL, (
        f"expected block {b.id} resting on top of block {below.id} (its bottom on {below.id}'s top at y = "
        f"{below.top:.3f}, within {REST_TOL} m; {when}); observed its bottom at y = {b.bottom:.3f}: it "
        + ("floats above" if gap > 0 else "is sunk into")
        + f" {below.id} by {abs(gap):.3f} m"
    )
    assert_state(b, when, restingOn=below.id, held=False)


# --- placement ----------------------------------------------------------------------------------


def assert_row(got: dict[str, Block], table: Table, when: str) -> None:
    """A, B, C: 0.08 m cubes resting on `table`, in a row along x 0.15 m apart, B at its centre."""
    __tracebackhide__ = True
    for b in got.values():
        assert all(abs(s - SIZE) <= SIZE_TOL for s in b.size), (
            f"expected block {b.id} to be a cube {SIZE} m on each side, edges along x, y and z (within {SIZE_TOL} m;"
            f" {when}); observed a world box of {_fmt(b.size)}"
        )
        assert_on_table(b, table, when)
    a, b, c = (got[i].centre for i in IDS)
    assert abs(b[0] - table.centre[0]) <= CENTRE_TOL and abs(b[2] - table.centre[2]) <= CENTRE_TOL, (
        f"expected block B at the centre of {table.name}, ({table.centre[0]:.2f}, {table.centre[2]:.2f}) in x, z "
        f"(within {CENTRE_TOL} m; {when}); observed it at {_fmt(b)}"
    )
    dab, dbc = b[0] - a[0], c[0] - b[0]
    assert abs(dab - SPACING) <= SPACING_TOL and abs(dbc - SPACING) <= SPACING_TOL, (
        f"expected A {SPACING} m to the left (-x) of B and C {SPACING} m to its right (+x) (within {SPACING_TOL} m;"
        f" {when}); observed x = {a[0]:.3f}, {b[0]:.3f}, {c[0]:.3f}"
    )
    for i, p in (("A", a), ("C", c)):
        assert abs(p[2] - b[2]) <= 0.01, (
            f"expected the row along x: block {i} at B's z = {b[2]:.3f} ({when}); observed z = {p[2]:.3f}"
        )


def assert_hidden(xr, when: str) -> None:
    __tracebackhide__ = True
    for b in sample(xr, placed=False).blocks.values():
        assert not b.shown, f"expected block {b.id} hidden {when}; observed it shown at {_fmt(b.centre)}"
        assert b.state.get("restingOn") is None, (
            f"expected block {b.id}'s state.restingOn null {when}; observed {b.state}"
        )


def wait_for_placement(xr, table: Table, since: int, what: str) -> dict[str, Block]:
    """Step frame by frame until a block is shown (at most half a second after `since`); that frame
    every block must already stand in its place on `table`."""
    __tracebackhide__ = True
    while True:
        got = sample(xr, placed=False).blocks
        if any(b.shown for b in got.values()):
            when = f"the frame the blocks are first shown, {what}"
            assert len(got) == 3 and all(b.shown for b in got.values()), (
                f"expected all three blocks shown, each in its place ({when}); observed "
                + ", ".join(f"{b.id} {'shown' if b.shown else 'hidden'}" for b in got.values())
            )
            assert_row(got, table, when)
            return got
        assert xr.frame - since < SOON, (
            f"expected the blocks on {table.name} within half a second ({SOON} frames) of the table being detected, "
            f"{what}; none shown {xr.frame - since} frames later"
        )
        xr.step(1)


def start_at_the_table(xr, scene: str) -> Table:
    """Half a second in (the table is detected, the blocks placed), the user standing at the table."""
    _, tables = scene_tables(scene)
    table = tables[0]
    xr.wait(500)
    xr.head.teleport_to(table.centre, distance=0.7)
    xr.head.look_at((table.centre[0], table.top, table.centre[2] + 0.1))
    return table


# --- picking up, carrying, releasing ------------------------------------------------------------


@dataclass
class Hold:
    """One pick-up: the block's centre before it, and the frames from its start on."""

    xr: Any
    role: str
    side: str
    block: str
    start: Vec
    frames: list[Frame] = field(default_factory=list)

    @property
    def hand(self):
        return self.xr.hand(self.role)

    def drift(self) -> tuple[float, str, int]:
        """The worst drift of the block from its offset to the hand point that keeps it best.

        The offset is the one at the frame the pick-up started: the block where it was before the
        pinch, the hand point where it was at that frame. A point either carries the offset as it
        is (the block translates with it) or turns it with itself (a block attached to a joint or
        to the controller). Returns (metres, point, frame index).
        """
        points0, turns0 = self.frames[0].hands[self.side]
        candidates = {
            name: (lambda f, name=name, p0=p0: _add(self.start, _sub(f.hands[self.side][0][name], p0)))
            for name, p0 in points0.items()
        }
        for name, q0 in turns0.items():
            local = rotate(_conj(q0), _sub(self.start, points0[name]))
            candidates[f"{name}, turning with it"] = lambda f, name=name, local=local: _add(
                f.hands[self.side][0][name], rotate(f.hands[self.side][1][name], local)
            )
        best: tuple[float, str, int] | None = None
        for name, predict in candidates.items():
            worst, at = 0.0, 0
            for i, f in enumerate(self.frames):
                d = math.dist(f.blocks[self.block].centre, predict(f))
                if d > worst:
                    worst, at = d, i
            if best is None or worst < best[0]:
                best = (worst, name, at)
        assert best is not None
        return best

    def assert_keeps_offset(self, during: str) -> None:
        __tracebackhide__ = True
        worst, name, at = self.drift()
        f = self.frames[at]
        assert worst <= FOLLOW_TOL, (
            f"expected block {self.block} to keep the offset it had to the {self.role} hand when the pick-up started "
            f"(within {FOLLOW_TOL} m, {during}); observed it {worst:.3f} m off that offset {at} frames after the "
            f"pick-up started, even for the hand point that explains it best ({name}): block at "
            f"{_fmt(f.blocks[self.block].centre)}, it was at {_fmt(self.start)} before"
        )


def pick_up(xr, role: str, block_id: str, *, approach: Vec = (0.0, 1.0, 0.0), others: Sequence[str] = ()) -> Hold:
    """Touch the block with `role`'s index fingertip, coming from `approach` (a direction), and
    pinch, one frame at a time. `others`: hands already holding blocks, sampled too."""
    __tracebackhide__ = True
    hand = xr.hand(role)
    side = hand.handedness
    b = blocks(xr)[block_id]
    c = b.centre
    n = math.sqrt(sum(v * v for v in approach))
    outside = tuple(c[k] + approach[k] / n * (SIZE / 2 + 0.05) for k in range(3))
    hand.move_hand(outside, anchor="fingertip")
    inside = tuple(c[k] + approach[k] / n * (SIZE / 2 - TOUCH_DEPTH) for k in range(3))
    hand.move_hand(inside, anchor="fingertip")
    before = sample(xr, side)
    xr.step(10)
    touching = sample(xr, side)
    assert_unmoved(before.blocks, touching.blocks, IDS, f"while the {role} fingertip only touches block {block_id}")
    assert_state(touching.blocks[block_id], f"while the {role} fingertip only touches it", held=False)
    seen: list[Frame] = []
    for i in range(CLOSE_FRAMES):
        if i == 0:
            hand.start_select(1)
        else:
            xr.step(1)
        seen.append(sample(xr, side))
    first = next((i for i, f in enumerate(seen) if f.blocks[block_id].state.get("held") is True), None)
    assert first is not None, (
        f"expected block {block_id}'s state.held true once the {role} hand pinched while touching it; observed "
        f"{seen[-1].blocks[block_id].state} {CLOSE_FRAMES} frames after the pinch began"
    )
    for i, f in enumerate(seen[:first]):
        assert_unmoved(touching.blocks, f.blocks, IDS, f"frame {i} of the pinch, before the pick-up")
    for i in range(first, len(seen)):
        assert_state(
            seen[i].blocks[block_id], f"frame {i} of the pinch, the fingers closing", held=True, restingOn=None
        )
        assert_unmoved(touching.blocks, seen[i].blocks, [o for o in IDS if o != block_id], "while one is picked up")
    hold = Hold(xr, role, side, block_id, touching.blocks[block_id].centre, seen[first:])
    hold.assert_keeps_offset("while the fingers closed: the block must not jump when picked up")
    return hold


def carry(xr, hold: Hold, path: Sequence[Vec], *, still: Sequence[str] = ()) -> None:
    """Move the holding hand through `path` (controller positions), sampling every frame; the blocks
    in `still` must not move."""
    __tracebackhide__ = True
    base = hold.frames[-1]
    for point in path:
        hold.hand.move_hand(point)
    # move_hand steps several frames: sample once more; the per-frame check is in carry_frames.
    after = sample(xr, hold.side)
    hold.frames.append(after)
    assert_state(after.blocks[hold.block], "while it is carried", held=True, restingOn=None)
    assert_unmoved(base.blocks, after.blocks, still, f"while block {hold.block} was carried")
    hold.assert_keeps_offset("while the hand carried it")


def carry_over(xr, hold: Hold, over: tuple[float, float], height: float) -> None:
    """Carry the held block up, then along until its centre is over (x, z), `height` above its start."""
    __tracebackhide__ = True
    now = sample(xr, hold.side)
    c = now.blocks[hold.block].centre
    ctrl = now.hands[hold.side][0]["controller"]
    up = _add(ctrl, (0.0, hold.start[1] + height - c[1], 0.0))
    along = _add(up, (over[0] - c[0], 0.0, over[1] - c[2]))
    carry(xr, hold, [up, along])
    fin = blocks(xr)[hold.block].centre
    assert math.dist((fin[0], fin[2]), over) <= 0.004, (
        f"test set-up: block {hold.block} was carried to {_fmt(fin)}, not over {over}"
    )


def let_go(xr, hold: Hold) -> Block:
    """Open the pinch frame by frame until state.held turns false; returns the block at that frame."""
    __tracebackhide__ = True
    held_at = sample(xr, hold.side).blocks[hold.block].centre
    for i in range(OPEN_FRAMES):
        if i == 0:
            hold.hand.end_select(1)
        else:
            xr.step(1)
        b = blocks(xr)[hold.block]
        if b.state.get("held") is False:
            jump = math.dist(b.centre, held_at)
            assert jump <= FOLLOW_TOL, (
                f"expected block {hold.block} let go where the hand held it, at {_fmt(held_at)}; observed it at "
                f"{_fmt(b.centre)} ({jump:.3f} m away) when the pinch opened"
            )
            return b
    raise AssertionError(
        f"expected block {hold.block}'s state.held false once the {hold.role} hand released the pinch; observed "
        f"{b.state} {OPEN_FRAMES} frames later"
    )


def watch_fall(xr, released: Block, rest_top: float, on: str, *, others: Sequence[str] = ()) -> Block:
    """Follow a released block frame by frame: straight down, never up, restingOn null while in the
    air; at rest on `rest_top` within one second of the release; then still for half a second."""
    __tracebackhide__ = True
    bid = released.id
    x0, _, z0 = released.centre
    last_y = released.centre[1]
    start = {i: b for i, b in blocks(xr).items()}
    for i in range(1, REST_WITHIN + 1):
        xr.step(1)
        now = blocks(xr)
        b = now[bid]
        x, y, z = b.centre
        assert math.hypot(x - x0, z - z0) <= FALL_XZ_TOL, (
            f"expected block {bid} to fall straight down from where it was let go (x = {x0:.3f}, z = {z0:.3f}); "
            f"observed it at x = {x:.3f}, z = {z:.3f} {i} frames after the release"
        )
        assert y <= last_y + 0.001, f"expected block {bid} to fall, never rise; it rose {y - last_y:.3f} m at frame {i}"
        last_y = y
        assert_state(b, f"{i} frames after the release", held=False)
        if b.bottom - rest_top > REST_TOL:
            assert b.state.get("restingOn") is None, (
                f"expected block {bid}'s state.restingOn null while it is in the air, its bottom "
                f"{b.bottom - rest_top:.3f} m above {on} ({i} frames after the release); observed {b.state}"
            )
        assert_unmoved(start, now, others, f"while block {bid} fell")
    b = blocks(xr)[bid]
    assert b.bottom - rest_top <= REST_TOL, (
        f"expected block {bid} at rest on {on} within one second of the release; observed its bottom "
        f"{b.bottom - rest_top:.3f} m above {on}'s top a second later"
    )
    settled = blocks(xr)
    xr.step(30)
    assert_unmoved(settled, blocks(xr), IDS, "half a second after the block came to rest")
    return blocks(xr)[bid]


def side_of(xr, role: str) -> float:
    return 1.0 if xr.handedness(role) == "right" else -1.0


def mine(xr, role: str) -> str:
    """The end block on `role`'s side of the row: C for a right hand, A for a left hand."""
    return "C" if xr.handedness(role) == "right" else "A"


def theirs(xr, role: str) -> str:
    return "A" if mine(xr, role) == "C" else "C"


# --- tests ---------------------------------------------------------------------------------------


def test_the_blocks_are_hidden_until_the_table_is_found_then_set_in_a_row_on_it(xr):
    _, tables = scene_tables(xr.scene.name)
    table = tables[0]
    xr.plane_detection.withhold()
    for _ in range(40):
        assert_hidden(xr, "before plane detection has found any plane")
        xr.step(1)
    assert_nearest(xr, tables, table)
    xr.plane_detection.deliver()
    since = xr.frame
    xr.step(1)
    wait_for_placement(xr, table, since, f"once the planes of the {xr.scene.name} were detected")
    cylinders = [m for m in xr.drawn(("mesh",)) if "Cylinder" in m.geometry]
    assert not cylinders, f"expected the cylinder replaced by the blocks; observed visible cylinders {cylinders}"
    xr.wait(1000)
    placed = blocks(xr)
    assert_row(placed, table, "a second after they were placed")
    xr.head.teleport_to(table.centre, distance=0.7)  # the user steps up to the table, crouches and looks down
    xr.head.move((0.0, -0.3, 0.0), speed=0.5)
    xr.head.look_at(table.centre)
    xr.wait(500)
    assert_unmoved(placed, blocks(xr), IDS, "after the user stepped up to the table and looked down at them")
    assert_row(blocks(xr), table, "after the user stepped up to the table")
    assert_no_errors(xr)


def test_building_a_tower_of_three(xr):
    table = start_at_the_table(xr, xr.scene.name)
    first, second = "dominant", "non_dominant"
    lower, upper = theirs(xr, first), mine(xr, first)  # the dominant hand reaches across for the far end block
    b = blocks(xr)["B"].centre
    hold = pick_up(xr, first, lower)
    carry_over(xr, hold, (b[0] + 0.02, b[2] - 0.015), 0.2)
    rested = watch_fall(xr, let_go(xr, hold), blocks(xr)["B"].top, "block B", others=["B", upper])
    now = blocks(xr)
    assert_on_block(rested, now["B"], f"block {lower} let go over block B")
    assert_on_table(now["B"], table, f"with block {lower} on it")
    assert_on_table(now[upper], table, "not moved yet")
    hold.hand.rest()
    # The third block, with the other hand, slightly offset the other way: its footprint overlaps
    # both blocks of the tower; it comes to rest on the top one.
    hold = pick_up(xr, second, upper)
    for i in ("B", lower):
        assert_state(blocks(xr)[i], "while the third block is held", held=False)
    carry_over(xr, hold, (b[0] - 0.015, b[2] + 0.02), 0.3)
    rested = watch_fall(xr, let_go(xr, hold), blocks(xr)[lower].top, f"block {lower}", others=["B", lower])
    now = blocks(xr)
    assert_on_block(rested, now[lower], f"the third block let go over the tower of B and {lower}")
    assert_on_block(now[lower], now["B"], "under the third block")
    assert_on_table(now["B"], table, "at the bottom of the tower")
    hold.hand.rest()
    xr.wait(1000)
    final = blocks(xr)
    assert_unmoved(now, final, IDS, "a second after the tower was built")
    assert abs(final[upper].bottom - (table.top + 2 * SIZE)) <= 2 * REST_TOL, (
        f"expected the tower three blocks high: block {upper}'s bottom two blocks above the table; observed it at "
        f"y = {final[upper].bottom:.3f}, the table top at {table.top:.3f}"
    )
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_the_blocks_go_on_the_nearest_table_not_the_first_reported_nor_the_one_looked_at(xr):
    _, (island, counter) = scene_tables("kitchen")
    xr.plane_detection.withhold()
    # The user stands between the island and the counter, nearer the counter, and looks at the
    # island (reported first, and the table in view).
    xr.head.teleport_to((-0.4, 1.5, -2.5))
    xr.head.look_at(island.centre)
    for _ in range(10):
        assert_hidden(xr, "before plane detection has found any plane")
        xr.step(1)
    assert_nearest(xr, [island, counter], counter)
    xr.plane_detection.deliver()
    since = xr.frame
    xr.step(1)
    placed = wait_for_placement(xr, counter, since, "once the kitchen's planes were detected, nearest the counter")
    xr.head.walk([(0.3, 1.5, -0.6)], speed=1.0)  # the user walks over to the island, now the nearest table
    assert_nearest(xr, [island, counter], island)
    xr.wait(500)
    assert_unmoved(placed, blocks(xr), IDS, "after the user walked over to the island")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_a_table_detected_later_moves_nothing(xr):
    planes, (island, counter) = scene_tables("kitchen")
    others = [p for p in planes if p["label"] != "table"]
    xr.plane_detection.withhold()
    xr.step(20)
    xr.plane_detection.add(*others)  # the floor and the walls, but no table yet
    for _ in range(40):
        assert_hidden(xr, "while the only detected planes are the floor and the walls")
        xr.step(1)
    xr.plane_detection.add(plane_of(planes, counter))  # the far counter: the only table known
    since = xr.frame
    xr.step(1)
    placed = wait_for_placement(xr, counter, since, "once the counter, the only table known, was detected")
    assert_nearest(xr, [island, counter], island)
    xr.plane_detection.add(plane_of(planes, island))  # the island, nearer the user, is detected later
    for i in range(40):
        xr.step(1)
        assert_unmoved(placed, blocks(xr), IDS, f"{i + 1} frames after the nearer island was detected")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room")
def test_touch_and_pinch_picks_a_block_up_and_it_follows_the_hand(xr):
    start_at_the_table(xr, xr.scene.name)
    role = "dominant"
    s = side_of(xr, role)
    bid = mine(xr, role)
    hold = pick_up(xr, role, bid)
    x, y, z = hold.frames[-1].hands[hold.side][0]["controller"]
    path = [(x, y + 0.15, z), (x - 0.06 * s, y + 0.1, z + 0.08), (x + 0.1 * s, y + 0.2, z - 0.05)]
    carry(xr, hold, path, still=[i for i in IDS if i != bid])
    xr.step(30)  # the hand holds still for half a second: the block stays with it
    hold.frames.append(sample(xr, hold.side))
    hold.assert_keeps_offset("while the hand held still")
    xr.head.move((0.0, -0.15, 0.0), speed=0.5)  # the user crouches: the hand goes down with the head
    hold.frames.append(sample(xr, hold.side))
    hold.assert_keeps_offset("while the user crouched")
    assert_state(hold.frames[-1].blocks[bid], "while it is held", held=True, restingOn=None)
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_a_pinch_that_does_not_touch_a_block_or_a_touch_without_a_pinch_picks_up_nothing(xr):
    start_at_the_table(xr, xr.scene.name)
    role = "dominant"
    hand = xr.hand(role)
    start = blocks(xr)

    def unchanged(what: str) -> None:
        now = blocks(xr)
        assert_unmoved(start, now, IDS, what)
        for b in now.values():
            assert_state(b, what, held=False, restingOn="table")

    box = (start["B"].lo, start["B"].hi)

    def outside_b(p: Sequence[float]) -> float:
        """How far the point is from block B's box."""
        d = [max(box[0][k] - p[k], 0.0, p[k] - box[1][k]) for k in range(3)]
        return math.sqrt(sum(v * v for v in d))

    def pinch_and_pull(what: str, delta: Vec, *, away: float = 0.0) -> list[Vec]:
        """Pinch, checking every frame; returns the fingertip's offsets from the controller just
        before and while the fingers closed (the open finger reaches further: a fingertip that
        touched the block the frame before the pinch is a touch and a pinch)."""

        def offset(tip: Vec) -> Vec:
            gap = outside_b(tip)
            assert gap >= away, f"test set-up: the fingertip came within {gap:.3f} m of block B ({what})"
            return _sub(tip, hand.position)

        offsets = [offset(hand.fingertip)]
        hand.start_select(1)
        for _ in range(CLOSE_FRAMES):
            xr.step(1)
            offsets.append(offset(hand.fingertip))
            unchanged(f"while the hand pinches {what}")
        hand.move_by(delta)
        unchanged(f"after the hand pinched {what} and moved")
        hand.end_select(OPEN_FRAMES)
        unchanged(f"after a pinch {what}")
        return offsets

    def beside(offsets: list[Vec], axis: int, face: float) -> Vec:
        """The controller position that keeps the fingertip, before and while the fingers close, 2 cm
        beyond B's face `face` along `axis` (+y: the top, +z: the front), ending it over B's centre."""
        c = start["B"].centre
        closed = offsets[-1]
        goal = [c[k] - closed[k] for k in range(3)]
        goal[axis] = face + 0.02 - min(o[axis] for o in offsets)
        return tuple(goal)

    offsets = pinch_and_pull("at rest beside the table", (0.0, 0.1, -0.08))
    # The hand placed so that its fingertip stays 2 cm or more above B's top while the fingers
    # close, then 2 cm or more in front of B's front face.
    above = beside(offsets, 1, start["B"].top)
    hand.move_hand(_add(above, (0.0, 0.04, 0.0)))
    hand.move_hand(above)
    pinch_and_pull("with its fingertip 2 cm above block B", (0.0, 0.12, 0.0), away=0.0195)
    front = beside(offsets, 2, start["B"].hi[2])
    hand.move_hand(_add(front, (0.0, 0.0, 0.04)))
    hand.move_hand(front)
    pinch_and_pull("with its fingertip 2 cm in front of block B", (0.0, 0.12, 0.05), away=0.0195)
    c = start["B"].centre
    for pose in ("relaxed", "neutral"):  # a partly curled hand, then an open one
        hand.set_pose(pose)
        hand.move_hand((c[0], start["B"].top + 0.05, c[2]), anchor="fingertip")
        hand.move_hand((c[0], c[1] + 0.01, c[2]), anchor="fingertip")  # deep in B
        xr.step(30)
        unchanged(f"while a {pose} hand's fingertip is in block B")
        hand.move_by((0.0, 0.12, 0.0))
        unchanged(f"after a {pose} hand touched block B and drew back")
    hand.set_pose("relaxed")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room")
def test_both_hands_hold_a_block_each_at_the_same_time(xr):
    table = start_at_the_table(xr, xr.scene.name)
    first = pick_up(xr, "dominant", mine(xr, "dominant"))
    second = pick_up(xr, "non_dominant", mine(xr, "non_dominant"))
    assert_state(blocks(xr)[first.block], "while the other hand picked up a block", held=True)
    s = side_of(xr, "dominant")
    a = first.hand.position
    b = second.hand.position
    # Both hands move at once, apart: the dominant one up and out, the other towards the user.
    for k in range(1, 13):
        t = k / 12
        first.hand.move_hand(_add(a, (0.08 * s * t, 0.15 * t, 0.0)), speed=2.0)
        second.hand.move_hand(_add(b, (0.0, 0.1 * t, 0.1 * t)), speed=2.0)
        now = sample(xr, first.side, second.side)
        first.frames.append(now)
        second.frames.append(now)
        assert_state(now.blocks[first.block], "while both hands hold a block", held=True, restingOn=None)
        assert_state(now.blocks[second.block], "while both hands hold a block", held=True, restingOn=None)
    first.assert_keeps_offset("while both hands moved at once")
    second.assert_keeps_offset("while both hands moved at once")
    assert_unmoved(first.frames[0].blocks, blocks(xr), ["B"], "while the other two were carried")
    released = let_go(xr, first)  # the dominant hand lets go: its block falls, the other stays held
    watch_fall(xr, released, table.top, table.name)
    now = sample(xr, second.side)
    second.frames.append(now)
    assert_state(now.blocks[second.block], "after the other hand let go of its block", held=True)
    second.assert_keeps_offset("after the other hand let go of its block")
    released = let_go(xr, second)
    rested = watch_fall(xr, released, table.top, table.name)
    assert_on_table(rested, table, "after the second hand let go")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_a_released_block_falls_straight_down_onto_the_table_within_a_second(xr):
    table = start_at_the_table(xr, xr.scene.name)
    xr.head.move((0.0, -0.2, 0.0), speed=0.5)  # the user crouches a little and looks down
    xr.head.rotate(pitch=-20)
    role = "non_dominant"
    bid = mine(xr, role)
    hold = pick_up(xr, role, bid, approach=(0.0, 1.0, 0.6))
    c = hold.start
    carry_over(xr, hold, (c[0] + 0.05 * side_of(xr, role), c[2] + 0.18), 0.25)  # nearer the user, free
    released = let_go(xr, hold)
    rested = watch_fall(xr, released, table.top, table.name, others=[i for i in IDS if i != bid])
    assert_on_table(rested, table, "a second after it was let go over a free spot of the table")
    hold.hand.rest()
    xr.wait(500)
    assert_on_table(blocks(xr)[bid], table, "after the hand drew back")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_a_block_stacks_on_a_block_whose_footprint_it_overlaps_even_by_a_corner_else_drops_beside_it(xr):
    table = start_at_the_table(xr, xr.scene.name)
    role = "dominant"
    s = side_of(xr, role)
    bid = mine(xr, role)
    b = blocks(xr)["B"].centre
    # Released with only a 1.5 cm square corner over B: it rests on B.
    hold = pick_up(xr, role, bid)
    carry_over(xr, hold, (b[0] + 0.065 * s, b[2] + 0.065), 0.2)
    rested = watch_fall(xr, let_go(xr, hold), blocks(xr)["B"].top, "block B")
    assert_on_block(rested, blocks(xr)["B"], "let go with a corner of its footprint over B's")
    assert_on_table(blocks(xr)["B"], table, "with a block resting on it")
    hold.hand.rest()
    # Taken off B again and released 1.5 cm beside it: it drops onto the table, not onto B.
    hold = pick_up(xr, role, bid, approach=(0.0, 1.0, 0.5))
    carry_over(xr, hold, (b[0] + (SIZE + 0.015) * s, b[2] - 0.01), 0.2)
    rested = watch_fall(xr, let_go(xr, hold), table.top, table.name)
    assert_on_table(rested, table, "let go 1.5 cm beside block B")
    gap = (rested.lo[0] - blocks(xr)["B"].hi[0]) * s if s > 0 else blocks(xr)["B"].lo[0] - rested.hi[0]
    assert gap > 0.005, f"expected block {bid} beside block B, not in it; observed a gap of {gap:.3f} m"
    assert_no_errors(xr)
