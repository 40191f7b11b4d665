"""Runtime tests of the grab-a-box app.

They check that
- the box tagged 'grab-box' is a cube 0.12 m on a side centred at (0, 1.3, -0.55), that the tagged
  object is the box itself, that the cylinder is gone and that `state.grabbed` starts false;
- a touch with the index fingertip and a pinch grabs it, with either hand: the pinch is stepped
  frame by frame, `state.grabbed` turns true while the fingers close and stays true while they
  stay closed, and the box does not move until the grab starts and does not jump when it does;
- while held the box keeps the offset it had to the hand at the frame the grab started, every
  frame, while the fingers close, the hand carries it up, sideways, towards the user and down, the
  hand holds still and the user crouches. "The hand" may be any point of it (a joint, the pinch
  point between thumb and index, the controller), carrying the offset as it is or turning it
  with itself (a box attached to a joint): the check takes the point that explains the box's
  motion best, so a box that follows the fingertip and one that follows the grip both pass, and
  a box that jumps onto the fingertip (at once or over a few frames) or lags behind the hand
  does not. The hand is only translated while it carries the box, so the offset's frame matters
  only while the fingers close;
- on release `state.grabbed` turns false, the box stays exactly where it was let go (no snap
  back, no drift, no fall, over two seconds), and it can be grabbed again from there, by the
  other hand and with the user crouching and looking down;
- a pinch that does not touch the box (at rest beside it, aimed at it with the hand's ray, or
  with the fingertip 2 cm short of it) neither grabs nor moves it, nor does a touch without a
  pinch (open or relaxed hand), and while one hand holds the box a pinch of the other hand away
  from it does not take it over.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.session import rotate

BOX = "grab-box"
HOME = (0.0, 1.3, -0.55)
SIDE = 0.12
SIDE_TOL = 0.015  # a stated size, checked to within 12.5 %
HOME_TOL = 0.02
FOLLOW_TOL = 0.015  # metres the box may stray from its offset to the hand while it is held
STILL_TOL = 0.003  # metres a box nobody holds may move (it must not drift or fall)
CLOSE_FRAMES = 40  # the simulated fingers close over these frames (0.9 ** 40: < 2 % left)
OPEN_FRAMES = 30
TOUCH_DEPTH = 0.015  # the fingertip 1.5 cm inside the box: 4.5 cm from its centre

pytestmark = pytest.mark.xr_scenes("empty")

Vec = tuple[float, float, float]

# One frame's reading in one call: every object tagged `tag` (world position, state.grabbed) and
# the world positions and orientations of one hand's 25 joints and of its controller.
_SAMPLE_JS = """
(h, arg) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const boxes = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== arg.tag) return;
    const state = d.state && typeof d.state === 'object' ? JSON.parse(JSON.stringify(d.state)) : null;
    boxes.push({position: o.getWorldPosition(new THREE.Vector3()).toArray(),
                grabbed: state && 'grabbed' in state ? state.grabbed : null});
  });
  const index = arg.hand === 'left' ? 0 : 1;
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
  return {boxes, points, turns};
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


def box_node(xr):
    nodes = [n for n in xr.tagged(BOX) if n.root == "scene"]
    assert len(nodes) == 1, f"expected exactly one object tagged {BOX!r} in the scene; observed {len(nodes)}"
    return nodes[0]


def grabbed_of(node) -> Any:
    return node.state.get("grabbed") if isinstance(node.state, dict) else None


@dataclass
class Frame:
    box: Vec  # the tagged box's world position
    grabbed: Any  # its state.grabbed (None where not read)
    points: dict[str, Vec]  # the hand's reference points
    turns: dict[str, tuple[float, float, float, float]]  # the joints' and the controller's orientations


def sample(xr, hand) -> Frame:
    """The box and the hand's reference points now: every joint, the controller and the point
    between the thumb and index fingertips."""
    __tracebackhide__ = True
    got = xr.probe(_SAMPLE_JS, {"tag": BOX, "hand": hand.handedness})
    boxes = got["boxes"]
    assert len(boxes) == 1, f"expected exactly one object tagged {BOX!r} in the scene; observed {len(boxes)}"
    points = {name: tuple(p) for name, p in got["points"].items()}
    assert "index-finger-tip" in points and "controller" in points, f"the {hand.handedness} hand is not tracked"
    tip, thumb = points["index-finger-tip"], points["thumb-tip"]
    points["pinch point"] = tuple((tip[i] + thumb[i]) / 2 for i in range(3))
    turns = {name: tuple(q) for name, q in got["turns"].items()}
    return Frame(tuple(boxes[0]["position"]), boxes[0]["grabbed"], points, turns)


@dataclass
class Hold:
    """One grab: the box's position before it, and every frame from the grab's start on."""

    hand: Any
    role: str
    start: Vec
    frames: list[Frame] = field(default_factory=list)

    def drift(self) -> tuple[float, str, int]:
        """The worst drift of the box from its offset to the hand point that keeps it best.

        The offset is the one at the frame the grab started: the box where it was before the
        pinch, the hand point where it was at that frame. A point either carries the offset as
        it is (the box translates with it) or turns it with itself (the box attached to a joint
        or to the controller). Returns (metres, point, frame index).
        """
        f0 = self.frames[0]
        candidates = {
            name: (lambda f, name=name, p0=p0: _add(self.start, _sub(f.points[name], p0)))
            for name, p0 in f0.points.items()
        }
        for name, q0 in f0.turns.items():
            local = rotate(_conj(q0), _sub(self.start, f0.points[name]))
            candidates[f"{name}, turning with it"] = lambda f, name=name, local=local: _add(
                f.points[name], rotate(f.turns[name], local)
            )
        best: tuple[float, str, int] | None = None
        for name, predict in candidates.items():
            worst, at = 0.0, 0
            for i, f in enumerate(self.frames):
                d = math.dist(f.box, predict(f))
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
            f"expected the box to keep the offset it had to the {self.role} hand when the grab started "
            f"(within {FOLLOW_TOL} m, {during}); observed it {worst:.3f} m off that offset {at} frames after "
            f"the grab started, even for the hand point that explains it best ({name}): box at {_fmt(f.box)}, "
            f"it was at {_fmt(self.start)} before the grab"
        )


def grab(xr, role: str, *, depth: float = TOUCH_DEPTH) -> Hold:
    """Touch the box with `role`'s index fingertip and pinch, one frame at a time."""
    __tracebackhide__ = True
    hand = xr.hand(role)
    hand.reach_to(BOX, depth=depth)
    before = sample(xr, hand)
    assert before.grabbed is False, (
        f"expected state.grabbed false while the {role} fingertip only touches the box; observed {before.grabbed!r}"
    )
    seen = []
    for i in range(CLOSE_FRAMES):
        if i == 0:
            hand.start_select(1)
        else:
            xr.step(1)
        seen.append(sample(xr, hand))
    first = next((i for i, f in enumerate(seen) if f.grabbed is True), None)
    assert first is not None, (
        f"expected state.grabbed true once the {role} hand pinched while touching the box; observed "
        f"{seen[-1].grabbed!r} {CLOSE_FRAMES} frames after the pinch began"
    )
    for i, f in enumerate(seen[:first]):
        moved = math.dist(f.box, before.box)
        assert moved <= STILL_TOL, f"the box moved {moved:.3f} m at frame {i} of the pinch, before it was grabbed"
    dropped = [i for i in range(first, len(seen)) if seen[i].grabbed is not True]
    assert not dropped, (
        f"expected state.grabbed to stay true while the {role} hand keeps pinching; observed "
        f"{seen[dropped[0]].grabbed!r} at frame {dropped[0]} of the pinch"
    )
    hold = Hold(hand, role, before.box, seen[first:])
    hold.assert_keeps_offset("while the fingers closed: the box must not jump when grabbed")
    return hold


def carry(xr, hold: Hold, path: Sequence[Vec]) -> None:
    """Move the holding hand through `path` (controller positions), sampling the box every frame."""
    __tracebackhide__ = True
    for point in path:
        last = hold.frames[-1]
        c0 = last.points["controller"]
        r = hold.hand.move_hand(point, track=[BOX])
        for box, ctrl in zip(r["samples"][0], r["anchor"], strict=True):
            assert box is not None, "the box disappeared while it was carried"
            d = _sub(ctrl, c0)
            points = {k: _add(v, d) for k, v in last.points.items()}
            hold.frames.append(Frame(tuple(box), None, points, last.turns))  # the hand only translates
    after = sample(xr, hold.hand)
    hold.frames.append(after)
    assert after.grabbed is True, f"expected state.grabbed true while the box is carried; observed {after.grabbed!r}"
    hold.assert_keeps_offset("while the hand carried it")


def release(xr, hold: Hold) -> Vec:
    """Open the pinch one frame at a time; returns where the box was let go."""
    __tracebackhide__ = True
    hand = hold.hand
    held_at = hold.frames[-1].box
    seen = []
    for i in range(OPEN_FRAMES):
        if i == 0:
            hand.end_select(1)
        else:
            xr.step(1)
        seen.append(sample(xr, hand))
    first = next((i for i, f in enumerate(seen) if f.grabbed is False), None)
    assert first is not None, (
        f"expected state.grabbed false once the {hold.role} hand released the pinch; observed "
        f"{seen[-1].grabbed!r} {OPEN_FRAMES} frames later"
    )
    back = [i for i in range(first, len(seen)) if seen[i].grabbed is not False]
    assert not back, f"expected state.grabbed to stay false after the release; observed {seen[back[0]].grabbed!r}"
    let_go = seen[first].box
    jump = math.dist(let_go, held_at)
    assert jump <= FOLLOW_TOL, (
        f"expected the box to stay where it was let go, at {_fmt(held_at)}; observed it at {_fmt(let_go)} "
        f"({jump:.3f} m away) when the pinch opened"
    )
    for i, f in enumerate(seen[first:], start=first):
        moved = math.dist(f.box, let_go)
        assert moved <= STILL_TOL, (
            f"expected the released box to stay at {_fmt(let_go)}; observed it {moved:.3f} m away {i} frames "
            "after the pinch opened"
        )
    return let_go


def assert_stays(xr, where: Vec, what: str) -> None:
    __tracebackhide__ = True
    now = box_node(xr)
    moved = math.dist(now.position, where)
    assert moved <= STILL_TOL, (
        f"expected the box to stay at {_fmt(where)} ({what}); observed it at {_fmt(now.position)}, {moved:.3f} m away"
    )
    assert grabbed_of(now) is False, f"expected state.grabbed false ({what}); observed {grabbed_of(now)!r}"


def carry_path(hand, side: float) -> list[Vec]:
    """Up, down again, then out to the hand's side, up and towards the user."""
    x, y, z = hand.position
    return [(x, y + 0.15, z), (x - 0.05 * side, y - 0.05, z - 0.03), (x + 0.12 * side, y + 0.1, z + 0.1)]


def side_of(xr, role: str) -> float:
    return 1.0 if xr.handedness(role) == "right" else -1.0


def test_a_box_replaces_the_cylinder(xr):
    xr.step(1)
    node = box_node(xr)
    size = node.size
    assert size is not None and all(abs(s - SIDE) <= SIDE_TOL for s in size), (
        f"expected a cube {SIDE} m on each side (within {SIDE_TOL} m); observed size {size}"
    )
    lo, hi = node.bbox
    centre = tuple((lo[i] + hi[i]) / 2 for i in range(3))
    off = math.dist(centre, HOME)
    assert off <= HOME_TOL, f"expected the box's centre at {HOME} (within {HOME_TOL} m); observed {_fmt(centre)}"
    apart = math.dist(node.position, centre)
    assert apart <= 0.01, (
        f"expected the tagged object to be the box itself (its position the box's centre); observed its position "
        f"{_fmt(node.position)}, {apart:.3f} m from the box's centre {_fmt(centre)}"
    )
    assert grabbed_of(node) is False, f"expected state.grabbed false before any grab; observed {node.state!r}"
    cylinders = [m for m in xr.drawn(("mesh",)) if "Cylinder" in m.geometry]
    assert not cylinders, f"expected the cylinder replaced by the box; observed visible cylinders {cylinders}"
    assert_no_errors(xr)


def test_the_box_follows_the_grabbing_hand_and_stays_where_released(xr):
    xr.step(1)
    role = "dominant"
    hold = grab(xr, role)
    carry(xr, hold, carry_path(hold.hand, side_of(xr, role)))
    xr.step(60)  # the hand holds still for a second: the box stays with it
    hold.frames.append(sample(xr, hold.hand))
    hold.assert_keeps_offset("while the hand held still")
    xr.head.move((0.0, -0.2, 0.0), speed=0.5)  # the user crouches; the hand goes down with the head
    after = sample(xr, hold.hand)
    hold.frames.append(after)
    assert after.grabbed is True, f"expected state.grabbed true while the box is held; observed {after.grabbed!r}"
    hold.assert_keeps_offset("while the user crouched")
    where = release(xr, hold)
    assert math.dist(where, HOME) >= 0.12, f"expected the box carried away from {HOME}; it was let go at {_fmt(where)}"
    hold.hand.rest()
    xr.wait(2000)
    assert_stays(xr, where, "two seconds after it was released: no snapping back, drift or fall")
    assert_no_errors(xr)


def test_the_other_hand_grabs_it_and_it_can_be_grabbed_again_from_where_it_was_left(xr):
    xr.step(1)
    xr.head.move((0.0, -0.15, 0.0), speed=0.5)  # crouching a little ...
    xr.head.rotate(pitch=-25)  # ... and looking down at the box
    first = grab(xr, "non_dominant")
    carry(xr, first, carry_path(first.hand, side_of(xr, "non_dominant")))
    where = release(xr, first)
    assert math.dist(where, HOME) >= 0.12, f"expected the box carried away from {HOME}; it was let go at {_fmt(where)}"
    first.hand.rest()
    xr.head.rotate(pitch=25)
    xr.head.move((0.0, 0.15, 0.0), speed=0.5)
    assert_stays(xr, where, "after it was let go and the user stood up")
    second = grab(xr, "dominant")  # from where it was left, with the other hand
    assert math.dist(second.start, where) <= STILL_TOL
    carry(xr, second, carry_path(second.hand, side_of(xr, "dominant")))
    again = release(xr, second)
    assert math.dist(again, where) >= 0.1, f"expected the box carried on from {_fmt(where)}; let go at {_fmt(again)}"
    second.hand.rest()
    xr.wait(1000)
    assert_stays(xr, again, "a second after the second release")
    assert_no_errors(xr)


def test_a_pinch_that_does_not_touch_the_box_does_not_move_it(xr):
    xr.step(1)
    hand = xr.hand("dominant")
    start = box_node(xr).position

    def pinch_and_pull(what: str, delta: Vec) -> None:
        hand.start_select(1)
        for _ in range(CLOSE_FRAMES):
            xr.step(1)
            assert_stays(xr, start, f"while the hand pinches {what}")
        hand.move_by(delta)
        assert_stays(xr, start, f"after the hand pinched {what} and moved")
        hand.release()
        assert_stays(xr, start, f"after a pinch {what}")

    pinch_and_pull("at rest beside the box, its ray pointing past it", (0.0, 0.12, -0.08))
    hand.rest()
    hand.point_to(BOX)
    pinch_and_pull("with its ray aimed at the box from arm's length", (0.0, 0.1, 0.1))
    hand.point_forward()
    hand.rest()
    near = (HOME[0], HOME[1], HOME[2] + SIDE / 2 + 0.02)  # 2 cm short of the box's near face
    hand.move_hand(near, anchor="fingertip")
    pinch_and_pull("with its fingertip 2 cm short of the box", (0.0, 0.1, 0.1))
    hand.rest()
    xr.wait(500)
    assert_stays(xr, start, "after pinches that did not touch it")
    assert_no_errors(xr)


def test_touching_the_box_without_a_pinch_does_not_grab_it(xr):
    xr.step(1)
    hand = xr.hand("dominant")
    start = box_node(xr).position
    for pose in ("relaxed", "neutral"):  # a partly curled hand, then an open one
        hand.set_pose(pose)
        hand.reach_to(BOX, depth=0.03)
        xr.step(30)
        assert_stays(xr, start, f"while a {pose} hand's fingertip is in the box")
        hand.move_by((0.0, 0.08, 0.12))
        assert_stays(xr, start, f"after a {pose} hand touched it and drew back")
        hand.rest()
    hand.set_pose("relaxed")
    assert_stays(xr, start, "after touches without a pinch")
    assert_no_errors(xr)


def test_a_pinch_of_the_other_hand_does_not_take_the_box_from_the_holding_hand(xr):
    xr.step(1)
    hold = grab(xr, "dominant")
    other = xr.hand("non_dominant")
    other.pinch()  # at rest on its own side, away from the box
    hold.frames.append(sample(xr, hold.hand))
    other.move_by((0.0, 0.1, -0.08))
    hold.frames.append(sample(xr, hold.hand))
    hold.assert_keeps_offset("while the other hand pinched away from it and moved")
    carry(xr, hold, carry_path(hold.hand, side_of(xr, "dominant")))
    other.release()
    other.rest()
    carry(xr, hold, [(0.0, 1.35, -0.3)])
    where = release(xr, hold)
    hold.hand.rest()
    xr.wait(500)
    assert_stays(xr, where, "after the holding hand released it")
    assert_no_errors(xr)
