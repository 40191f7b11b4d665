"""Runtime tests of the two-handed tape measure.

While both hands pinch (XR Blocks' select on each tracked hand), a tape (a `THREE.Line` tagged
'tape') is stretched between the two index fingertips, with a label (a panel tagged 'tape-label')
at its midpoint showing its length in whole centimetres ('37 cm'). Releasing either pinch freezes
it; at most three frozen tapes are kept.

Nothing the app reports is taken on trust for where things are: a tape's ends are its line's first
and last vertices in world coordinates, compared with the index-fingertip joints of the simulated
hands (read in the same frame; the previous frame's are accepted too, XR Blocks reports a select
before that frame's joints move); the label's centre, size and facing come from its mesh. The text
a label shows is read from its `state.text` and checked against its picture: a label's front must
show text, and two labels (or one label at two moments) with different texts must look different.

Every frame of every flow is read: a pinch of one hand alone (nothing appears or changes), the
frame the second pinch starts (the tape appears), the fingers closing, both hands moving apart,
together, up and down, the user walking, turning and crouching (the tape follows, its label shows
the length), the frame either hand's release is reported (the tape freezes with the ends of the
last frame both pinched), everything moving afterwards (frozen tapes stay), a new tape while one
hand kept pinching, and a fourth frozen tape (the oldest goes). Each test runs for a right- and a
left-dominant user.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.session import rotate

pytestmark = [pytest.mark.xr_scenes("living_room"), pytest.mark.xr_timeout(600)]

TAPE, LABEL = "tape", "tape-label"
END_TOL = 0.01  # metres: a tape's ends against the pinch points
MID_TOL = 0.01  # metres: the label's centre against the tape's midpoint
STILL = 0.002  # metres a frozen tape's ends or label may move
FACING = 30.0  # degrees: the label's front against the direction to the eyes
LABEL_W, LABEL_H = 0.08, 0.03
SIZE_TOL = 0.25  # relative: the label panel's width and height
ROUND_SLACK = 0.02  # centimetres of slack either side of a rounding boundary
CLOSE_FRAMES = 24  # frames for the simulated fingers to close or open
FAST = 100.0  # m/s for hands and head: a move done in one frame
FAST_TURN = 100000.0  # deg/s: a turn done in one frame

Vec = tuple[float, float, float]

# One frame's reading: every shown tape (its line's first and last vertices in the world, its
# state), every shown label (world centre, axes, world size of its geometry, state), both index
# fingertips and the eyes.
_LOOK_JS = """
(h, arg) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const shown = (o) => {
    for (let x = o; x; x = x.parent) { if (!x.visible) return false; if (x === scene) return true; }
    return false;
  };
  const copy = (s) => (s && typeof s === 'object' ? JSON.parse(JSON.stringify(s)) : null);
  const tapes = [], labels = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d) return;
    const tag = String(d.tag);
    if (tag !== arg.tape && tag !== arg.label) return;
    if (!shown(o)) return;
    if (tag === arg.tape) {
      const pos = o.geometry && o.geometry.attributes && o.geometry.attributes.position;
      const item = {uuid: o.uuid, type: o.type, isLine: !!o.isLine, state: copy(d.state), count: pos ? pos.count : 0};
      if (pos && pos.count >= 2) {
        let n = pos.count;
        if (o.geometry.drawRange && Number.isFinite(o.geometry.drawRange.count)) {
          n = Math.max(2, Math.min(n, o.geometry.drawRange.start + o.geometry.drawRange.count));
        }
        item.a = new THREE.Vector3().fromBufferAttribute(pos, o.geometry.drawRange ? o.geometry.drawRange.start : 0)
          .applyMatrix4(o.matrixWorld).toArray();
        item.b = new THREE.Vector3().fromBufferAttribute(pos, n - 1).applyMatrix4(o.matrixWorld).toArray();
      }
      tapes.push(item);
    } else {
      const item = {uuid: o.uuid, type: o.type, state: copy(d.state)};
      const q = o.getWorldQuaternion(new THREE.Quaternion());
      const s = o.getWorldScale(new THREE.Vector3());
      item.right = new THREE.Vector3(1, 0, 0).applyQuaternion(q).toArray();
      item.up = new THREE.Vector3(0, 1, 0).applyQuaternion(q).toArray();
      item.normal = new THREE.Vector3(0, 0, 1).applyQuaternion(q).toArray();
      if (o.geometry) {
        if (!o.geometry.boundingBox) o.geometry.computeBoundingBox();
        const bb = o.geometry.boundingBox;
        const c = bb.getCenter(new THREE.Vector3()).applyMatrix4(o.matrixWorld);
        item.centre = c.toArray();
        item.size = [(bb.max.x - bb.min.x) * Math.abs(s.x), (bb.max.y - bb.min.y) * Math.abs(s.y)];
      } else {
        item.centre = new THREE.Vector3().setFromMatrixPosition(o.matrixWorld).toArray();
        item.size = [0, 0];
      }
      labels.push(item);
    }
  });
  const tips = {};
  for (const [i, name] of [[0, 'left'], [1, 'right']]) {
    const space = h.core.input.hands[i];
    const joint = space && space.joints && space.joints['index-finger-tip'];
    if (!joint) continue;
    h.guard(joint, name + ' index fingertip').updateWorldMatrix(true, false);
    tips[name] = new THREE.Vector3().setFromMatrixPosition(joint.matrixWorld).toArray();
  }
  const cam = h.core.camera;
  cam.updateMatrixWorld(true);
  return {tapes, labels, tips, eye: cam.getWorldPosition(new THREE.Vector3()).toArray()};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def mid(a, b) -> Vec:
    return tuple((x + y) / 2 for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def sub(a, b) -> Vec:
    return tuple(x - y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def norm(v) -> float:
    return math.sqrt(sum(c * c for c in v))


def angle(u, v) -> float:
    nu, nv = norm(u), norm(v)
    if nu < 1e-9 or nv < 1e-9:
        return 180.0
    c = sum(a * b for a, b in zip(u, v, strict=True)) / (nu * nv)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


@dataclass
class Tape:
    uuid: str
    a: Vec
    b: Vec
    state: Any

    @property
    def length(self) -> float:
        return math.dist(self.a, self.b)

    @property
    def midpoint(self) -> Vec:
        return mid(self.a, self.b)

    def frozen(self) -> Any:
        return self.state.get("frozen") if isinstance(self.state, dict) else None


@dataclass
class Label:
    uuid: str
    centre: Vec
    right: Vec
    up: Vec
    normal: Vec
    size: tuple[float, float]
    state: Any

    def text(self) -> Any:
        return self.state.get("text") if isinstance(self.state, dict) else None


@dataclass
class Obs:
    tapes: list[Tape]
    labels: list[Label]
    tips: dict[str, Vec]
    eye: Vec

    def label_of(self, tape: Tape, skip: set[str] | frozenset[str] = frozenset()) -> Label | None:
        """The label nearest the tape's midpoint, leaving out the labels `skip` (of other tapes)."""
        cands = [lb for lb in self.labels if lb.uuid not in skip]
        return min(cands, key=lambda lb: math.dist(lb.centre, tape.midpoint), default=None)

    def tape(self, uuid: str) -> Tape | None:
        return next((t for t in self.tapes if t.uuid == uuid), None)

    def label(self, uuid: str) -> Label | None:
        return next((lb for lb in self.labels if lb.uuid == uuid), None)


def look(xr) -> Obs:
    r = xr.probe(_LOOK_JS, {"tape": TAPE, "label": LABEL})
    tapes = []
    for t in r["tapes"]:
        assert t["isLine"], f"expected each object tagged {TAPE!r} to be a THREE.Line; observed a {t['type']}"
        assert "a" in t, f"expected the tape's line to have at least two vertices; observed {t['count']}"
        tapes.append(Tape(t["uuid"], tuple(t["a"]), tuple(t["b"]), t["state"]))
    labels = [
        Label(
            lb["uuid"],
            tuple(lb["centre"]),
            tuple(lb["right"]),
            tuple(lb["up"]),
            tuple(lb["normal"]),
            tuple(lb["size"]),
            lb["state"],
        )
        for lb in r["labels"]
    ]
    return Obs(tapes, labels, {k: tuple(v) for k, v in r["tips"].items()}, tuple(r["eye"]))


def side(xr, role: str) -> float:
    return 1.0 if xr.handedness(role) == "right" else -1.0


def head_local(xr, offset: Vec) -> Vec:
    """The world point at `offset` in the head's frame (x right, y up, -z ahead)."""
    pose = xr.camera_pose()
    off = rotate(pose.quaternion, offset)
    return tuple(p + o for p, o in zip(pose.position, off, strict=True))  # type: ignore[return-value]


def cm_value(text: Any) -> int | None:
    m = re.fullmatch(r"\s*(-?\d+)\s*cm\s*", text) if isinstance(text, str) else None
    return int(m.group(1)) if m else None


def rounding_ok(value: int | None, length: float) -> bool:
    if value is None:
        return False
    cm = length * 100.0
    return abs(value - cm) <= 0.5 + ROUND_SLACK


def ends_match(tape: Tape, tip_sets: list[dict[str, Vec]]) -> tuple[bool, float]:
    """Whether the tape's ends are the two pinch points of one of the frames (either order)."""
    best = math.inf
    for tips in tip_sets:
        if "left" not in tips or "right" not in tips:
            continue
        left, right = tips["left"], tips["right"]
        err = min(
            max(math.dist(tape.a, left), math.dist(tape.b, right)),
            max(math.dist(tape.a, right), math.dist(tape.b, left)),
        )
        best = min(best, err)
    return best <= END_TOL, best


def end_gap(tape: Tape, a: Vec, b: Vec) -> float:
    """How far the tape's ends are from `a` and `b` (either order)."""
    return min(max(math.dist(tape.a, a), math.dist(tape.b, b)), max(math.dist(tape.a, b), math.dist(tape.b, a)))


def label_picture(xr, lb: Label) -> np.ndarray:
    return xr.picture(lb.centre, lb.right, lb.up, (LABEL_W, LABEL_H), (96, 36), distance=0.3).astype(int)


def differing(a: np.ndarray, b: np.ndarray) -> int:
    return int((np.abs(a - b).max(axis=2) > 48).sum())


def assert_shows_text(pic: np.ndarray, what: str) -> None:
    __tracebackhide__ = True
    flat = pic.reshape(-1, 3)
    colours, counts = np.unique(flat // 16, axis=0, return_counts=True)
    main = colours[np.argmax(counts)] * 16 + 8
    marked = int((np.abs(flat - main).max(axis=1) > 64).sum())
    assert marked >= 30, (
        f"expected {what}'s front to show its length as text; it is one flat colour ({marked} of "
        f"{len(flat)} pixels differ clearly from its main colour)"
    )


# --- the tracker: every frame's checks ----------------------------------------------------------


@dataclass
class Frozen:
    tape: Tape
    label: Label


@dataclass
class Meter:
    """What must be in the scene: the frozen tapes (oldest first) and whether a tape is stretched."""

    xr: Any
    prev: Obs
    frozen: list[Frozen] = field(default_factory=list)
    live: str | None = None  # uuid of the tape being stretched
    pinching: set[str] = field(default_factory=set)
    frozen_labels: set[str] = field(default_factory=set)  # uuids of the frozen tapes' labels, this frame

    def both(self) -> bool:
        return len(self.pinching) == 2

    def split(self, obs: Obs, when: str) -> list[Tape]:
        """Check the frozen tapes (each still where it froze, with its label); the other tapes."""
        used: set[str] = set()
        self.frozen_labels = set()
        for f in self.frozen:
            cands = [t for t in obs.tapes if t.uuid not in used]
            t = min(cands, key=lambda t: end_gap(t, f.tape.a, f.tape.b), default=None)
            gap = end_gap(t, f.tape.a, f.tape.b) if t is not None else math.inf
            assert t is not None and gap <= STILL, (
                f"{when}: expected the frozen tape measured {f.label.text()!r} to stay where it froze, ends "
                f"{fmt(f.tape.a)}, {fmt(f.tape.b)} (within {STILL * 1000:.0f} mm); "
                + ("no tape is left" if t is None else f"the nearest tape's ends are {fmt(t.a)}, {fmt(t.b)}")
            )
            used.add(t.uuid)
            free = [x for x in obs.labels if x.uuid not in self.frozen_labels]
            lb = min(free, key=lambda x: math.dist(x.centre, f.label.centre), default=None)
            assert lb is not None and math.dist(lb.centre, f.label.centre) <= STILL, (
                f"{when}: expected the frozen tape's label {f.label.text()!r} to stay at {fmt(f.label.centre)} (within "
                f"{STILL * 1000:.0f} mm); "
                + ("no label is left" if lb is None else f"the nearest is at {fmt(lb.centre)}")
            )
            assert lb.text() == f.label.text(), (
                f"{when}: expected a frozen tape's label to keep showing {f.label.text()!r}; observed {lb.state!r}"
            )
            assert t.frozen() is True, f"{when}: expected a frozen tape's state.frozen true; observed {t.state!r}"
            self.frozen_labels.add(lb.uuid)
        return [t for t in obs.tapes if t.uuid not in used]

    def check(self, when: str) -> Obs:
        """Read this frame and check every tape and label in it."""
        obs = look(self.xr)
        others = self.split(obs, when)
        if self.both():
            assert len(others) == 1, (
                f"{when}: expected one tape stretched between the hands while both pinch, besides "
                f"{len(self.frozen)} frozen; observed {len(others)} other tapes ({len(obs.tapes)} in all)"
            )
            tape = others[0]
            self.live = tape.uuid
            self.check_live(obs, tape, when)
        else:
            assert not others, (
                f"{when}: expected no tape besides the {len(self.frozen)} frozen ones while "
                f"{'one hand' if self.pinching else 'no hand'} pinches; observed {len(others)} more "
                f"({[fmt(t.a) + '-' + fmt(t.b) for t in others]})"
            )
        assert len(obs.labels) == len(obs.tapes), (
            f"{when}: expected one label per tape ({len(obs.tapes)} tapes); observed {len(obs.labels)} labels"
        )
        self.prev = obs
        return obs

    def check_live(self, obs: Obs, tape: Tape, when: str) -> None:
        __tracebackhide__ = True
        ok, err = ends_match(tape, [obs.tips, self.prev.tips])
        assert ok, (
            f"{when}: expected the tape's ends at the two index fingertips {fmt(obs.tips['left'])}, "
            f"{fmt(obs.tips['right'])} (or the frame before's {fmt(self.prev.tips['left'])}, "
            f"{fmt(self.prev.tips['right'])}) within {END_TOL * 100:.0f} cm; observed {fmt(tape.a)}, {fmt(tape.b)} "
            f"({err * 100:.1f} cm off)"
        )
        assert tape.frozen() is False, (
            f"{when}: expected the stretched tape's state.frozen false; observed {tape.state!r}"
        )
        self.check_label(obs, tape, when, facing=True)

    def check_label(self, obs: Obs, tape: Tape, when: str, facing: bool) -> Label:
        __tracebackhide__ = True
        lb = obs.label_of(tape, self.frozen_labels)
        assert lb is not None, f"{when}: expected a label for the tape; observed none"
        off = math.dist(lb.centre, tape.midpoint)
        assert off <= MID_TOL, (
            f"{when}: expected the label's centre at the tape's midpoint {fmt(tape.midpoint)} (within "
            f"{MID_TOL * 100:.0f} cm); observed {fmt(lb.centre)} ({off * 100:.1f} cm off)"
        )
        value = cm_value(lb.text())
        assert rounding_ok(value, tape.length), (
            f"{when}: expected the label to show the tape's length {tape.length * 100:.2f} cm rounded to whole "
            f"centimetres ('{round(tape.length * 100)} cm'); observed state {lb.state!r}"
        )
        w, hgt = lb.size
        assert abs(w - LABEL_W) <= SIZE_TOL * LABEL_W and abs(hgt - LABEL_H) <= SIZE_TOL * LABEL_H, (
            f"{when}: expected the label panel {LABEL_W * 100:.0f} cm wide and {LABEL_H * 100:.0f} cm high; "
            f"observed {w * 100:.1f} x {hgt * 100:.1f} cm"
        )
        if facing:
            a = angle(lb.normal, sub(obs.eye, lb.centre))
            assert a <= FACING, (
                f"{when}: expected the label's front to face the eyes (within {FACING:.0f} degrees); observed "
                f"{a:.0f} degrees off"
            )
        return lb

    # --- actions, each followed by its frame's checks ---

    def pinch(self, role: str, when: str) -> Obs:
        """`role` starts a pinch; the frame it is reported and every frame of the fingers closing."""
        hand = self.xr.hand(role)
        self.pinching.add(role)
        hand.start_select(1)
        obs = self.check(f"in the frame the {role} hand's pinch started {when}")
        for i in range(CLOSE_FRAMES - 1):
            self.xr.step(1)
            obs = self.check(f"{i + 1} frames after the {role} hand's pinch started {when}")
        return obs

    def release(self, role: str, when: str) -> Obs:
        """`role` ends its pinch; the frame it is reported (the live tape freezes) and the fingers opening."""
        hand = self.xr.hand(role)
        last_both = self.prev
        was_live = self.both()
        self.pinching.discard(role)
        hand.end_select(1)
        what = f"in the frame the {role} hand's release was reported {when}"
        if was_live:
            obs = look(self.xr)
            oldest = self.frozen.pop(0) if len(self.frozen) >= 3 else None  # goes in this frame
            others = self.split(obs, what)
            assert len(others) == 1, (
                f"{what}: expected the tape that was stretched to stay, frozen, besides {len(self.frozen)} frozen "
                f"before; observed {len(others)} other tapes"
            )
            tape = others[0]
            ok, err = ends_match(tape, [last_both.tips])
            assert ok, (
                f"{what}: expected the tape frozen with its ends at the pinch points of the last frame both hands "
                f"pinched, {fmt(last_both.tips['left'])}, {fmt(last_both.tips['right'])} (within "
                f"{END_TOL * 100:.0f} cm); observed {fmt(tape.a)}, {fmt(tape.b)} ({err * 100:.1f} cm off)"
            )
            lb = self.check_label(obs, tape, what, facing=False)
            self.frozen.append(Frozen(tape, lb))
            self.live = None
            if oldest is not None:
                left = [t for t in obs.tapes if end_gap(t, oldest.tape.a, oldest.tape.b) <= 0.01]
                labels_left = [x for x in obs.labels if math.dist(x.centre, oldest.label.centre) <= 0.01]
                assert not left and not labels_left, (
                    f"{what}: expected the oldest frozen tape ({oldest.label.text()!r}) and its label removed when a "
                    f"fourth tape froze; observed {len(left)} tape(s) and {len(labels_left)} label(s) still there"
                )
        obs = self.check(what)
        for i in range(CLOSE_FRAMES - 1):
            self.xr.step(1)
            obs = self.check(f"{i + 1} frames after the {role} hand's release {when}")
        return obs

    def move(self, moves: dict[str, Vec], steps: int, when: str) -> Obs:
        """Move hands by world deltas, one increment per frame, checking each frame."""
        obs = self.prev
        for i in range(steps):
            for role, d in moves.items():
                hand = self.xr.hand(role)
                goal = tuple(p + c / steps for p, c in zip(hand.position, d, strict=True))
                hand.move_hand(goal, speed=FAST)
            obs = self.check(f"{when} (step {i + 1} of {steps})")
        return obs

    def walk(self, delta: Vec, steps: int, when: str) -> Obs:
        obs = self.prev
        for i in range(steps):
            self.xr.head.move(tuple(c / steps for c in delta), speed=FAST)
            obs = self.check(f"{when} (step {i + 1} of {steps})")
        return obs

    def turn(self, yaw: float, steps: int, when: str, pitch: float = 0.0) -> Obs:
        obs = self.prev
        for i in range(steps):
            self.xr.head.rotate(yaw / steps, pitch / steps, speed=FAST_TURN)
            obs = self.check(f"{when} (step {i + 1} of {steps})")
        return obs

    def hold(self, frames: int, when: str) -> Obs:
        obs = self.prev
        for i in range(frames):
            self.xr.step(1)
            obs = self.check(f"{when} (frame {i + 1})")
        return obs


def start(xr, spread: float = 0.12) -> Meter:
    """Both hands raised in front of the user, index fingertips `spread` m either side of the middle."""
    xr.step(2)
    for role in ("dominant", "non_dominant"):
        xr.hand(role).move_hand(head_local(xr, (side(xr, role) * spread, -0.2, -0.45)), anchor="fingertip")
    xr.step(2)
    return Meter(xr, look(xr))


def apart(xr, each: float) -> dict[str, Vec]:
    return {role: (side(xr, role) * each, 0.0, 0.0) for role in ("dominant", "non_dominant")}


def the_live(m: Meter) -> tuple[Tape, Label]:
    obs = m.prev
    tape = obs.tape(m.live or "")
    assert tape is not None
    lb = obs.label_of(tape, m.frozen_labels)
    assert lb is not None
    return tape, lb


# --- tests ------------------------------------------------------------------------------------


def test_one_hand_alone_does_nothing_and_the_tape_starts_with_the_second_pinch(xr):
    m = start(xr)
    baseline = sorted((d.type, d.geometry, d.tags) for d in xr.drawn())
    assert not m.prev.tapes and not m.prev.labels, (
        f"expected no tape or label before any pinch; observed {len(m.prev.tapes)} tapes, {len(m.prev.labels)} labels"
    )
    cylinders = [d for d in xr.drawn(("mesh",)) if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed {cylinders}"
    # The non-dominant hand pinches alone and moves about: nothing appears or changes.
    m.pinch("non_dominant", "(alone)")
    m.move({"non_dominant": (side(xr, "non_dominant") * 0.1, 0.05, 0.0)}, 5, "while only the non-dominant hand pinched")
    m.move({"non_dominant": (0.0, -0.08, -0.1)}, 5, "while only the non-dominant hand pinched")
    now = sorted((d.type, d.geometry, d.tags) for d in xr.drawn())
    assert now == baseline, (
        f"expected nothing to appear or change in the scene while one hand pinches alone; drawn before {baseline}, "
        f"now {now}"
    )
    m.release("non_dominant", "(it pinched alone)")
    # Then the dominant hand alone.
    m.pinch("dominant", "(alone)")
    m.move({"dominant": (0.0, 0.06, 0.05)}, 4, "while only the dominant hand pinched")
    assert sorted((d.type, d.geometry, d.tags) for d in xr.drawn()) == baseline, (
        "expected nothing to appear while the dominant hand pinches alone"
    )
    # The non-dominant hand joins: the tape appears in that frame and follows the closing fingers.
    m.pinch("non_dominant", "(second, while the dominant hand pinched)")
    _, lb = the_live(m)
    pic_a = label_picture(xr, lb)
    assert_shows_text(pic_a, "the stretched tape's label")
    text_a = lb.text()
    m.move(apart(xr, 0.06), 6, "while both hands pinched and moved apart 6 cm each")
    _, lb = the_live(m)
    assert lb.text() != text_a, f"expected the label to change as the tape grew; it stayed {lb.state!r}"
    pic_b = label_picture(xr, lb)
    assert_shows_text(pic_b, "the stretched tape's label")
    n = differing(pic_a, pic_b)
    assert n >= 30, (
        f"expected the label to look different when it shows {lb.text()!r} instead of {text_a!r}; "
        f"{n} of {pic_a.shape[0] * pic_a.shape[1]} pixels differ"
    )
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_the_tape_follows_both_hands_while_the_user_walks_turns_and_crouches(xr):
    m = start(xr, spread=0.1)
    m.pinch("dominant", "(first)")
    m.pinch("non_dominant", "(second)")
    m.move(apart(xr, 0.08), 8, "while both hands moved apart")
    m.move({"dominant": (0.0, 0.12, 0.0), "non_dominant": (0.0, -0.08, 0.0)}, 8, "while one hand went up, one down")
    m.move(apart(xr, -0.12), 8, "while both hands moved together")
    m.move({"dominant": (0.0, 0.0, -0.1)}, 5, "while the dominant hand alone moved away from the user")
    m.walk((0.3, 0.0, -0.2), 10, "while the user walked with both hands pinching")
    m.turn(40.0, 10, "while the user turned left with both hands pinching")
    m.move(apart(xr, 0.05), 5, "after the turn, both hands apart")
    m.walk((0.0, -0.35, 0.0), 7, "while the user crouched with both hands pinching")
    m.turn(-70.0, 10, "while the crouched user turned right", pitch=-10.0)
    m.move({"non_dominant": (0.0, 0.1, 0.05)}, 5, "while the crouched user raised the non-dominant hand")
    m.hold(3, "with both hands still")
    assert_no_errors(xr)


@pytest.mark.parametrize("first_out", ["dominant", "non_dominant"])
def test_releasing_either_hand_freezes_the_tape_where_it_is(xr, first_out):
    other = "non_dominant" if first_out == "dominant" else "dominant"
    m = start(xr)
    m.pinch(other, "(first)")
    m.pinch(first_out, "(second)")
    m.move(apart(xr, 0.07), 7, "while both hands moved apart")
    m.move({first_out: (0.0, 0.05, -0.03)}, 3, f"while the {first_out} hand moved")
    m.release(first_out, f"(the {first_out} hand let go first)")
    # Everything moves: the tape stays.
    m.move({other: (side(xr, other) * 0.1, 0.06, 0.0)}, 5, f"after the freeze, the still-pinching {other} hand moved")
    m.move({first_out: (0.0, -0.1, 0.05)}, 5, f"after the freeze, the released {first_out} hand moved")
    m.walk((-0.3, 0.0, 0.2), 6, "after the freeze, the user walked")
    m.turn(30.0, 6, "after the freeze, the user turned")
    # The released hand pinches again while the other kept pinching: a new tape; the first stays.
    m.pinch(first_out, "(again, while the other hand kept pinching)")
    m.move(apart(xr, -0.04), 4, "while both hands pinched for the second tape and moved together")
    m.release(other, f"(the {other} hand let go this time)")
    m.move({first_out: (0.0, 0.08, 0.0)}, 4, f"after the second freeze, the still-pinching {first_out} hand moved")
    m.release(first_out, "(the last hand let go)")
    assert len(m.frozen) == 2
    assert_no_errors(xr)


def test_only_the_last_three_frozen_tapes_are_kept(xr):
    m = start(xr, spread=0.06)
    pictures = []
    for k in range(4):
        if k:  # the hands, open, go to a new place for the next tape: higher and wider each time
            for role in ("dominant", "non_dominant"):
                xr.hand(role).move_hand(
                    head_local(xr, (side(xr, role) * (0.06 + 0.02 * k), -0.3 + 0.07 * k, -0.4)), anchor="fingertip"
                )
            m.check(f"once the open hands moved to the place of tape {k + 1}")
        first, second = ("dominant", "non_dominant") if k % 2 == 0 else ("non_dominant", "dominant")
        m.pinch(first, f"(first, tape {k + 1})")
        m.pinch(second, f"(second, tape {k + 1})")
        if k == 3:
            m.check("with the fourth tape stretched beside three frozen ones")
            assert len(m.prev.tapes) == 4, f"expected four tapes shown; observed {len(m.prev.tapes)}"
        m.move(apart(xr, 0.03), 3, f"while tape {k + 1} was stretched 3 cm more each side")
        m.move({"dominant": (0.0, 0.0, -0.04)}, 2, f"while tape {k + 1} was stretched")
        m.release(second, f"(tape {k + 1})")
        _, lb = m.frozen[-1].tape, m.frozen[-1].label
        pictures.append((lb.text(), label_picture(xr, lb)))
        m.release(first, f"(tape {k + 1})")
    assert len(m.frozen) == 3
    assert len(m.prev.tapes) == 3, f"expected three frozen tapes kept; observed {len(m.prev.tapes)} tapes"
    for text, pic in pictures:
        assert_shows_text(pic, f"the label {text!r}")
    for i in range(len(pictures)):
        for j in range(i + 1, len(pictures)):
            (ta, pa), (tb, pb) = pictures[i], pictures[j]
            if ta == tb:
                continue
            n = differing(pa, pb)
            assert n >= 30, (
                f"expected the labels showing {ta!r} and {tb!r} to look different; {n} of "
                f"{pa.shape[0] * pa.shape[1]} pixels differ"
            )
    assert_no_errors(xr)
