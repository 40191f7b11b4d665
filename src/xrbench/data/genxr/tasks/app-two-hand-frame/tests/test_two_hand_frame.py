"""Runtime tests of the two-handed framing app.

They check that
- the app starts with nothing drawn (the cylinder is gone), and that one hand pinching alone,
  either hand, moving about, makes no frame and draws nothing;
- when the second hand's pinch starts (within two frames; either hand first) a live frame, an
  object tagged 'air-frame' with `state.live` true and an amber (#ffc107) border, spans between
  the two index fingertips: frame by frame while the fingers close and while the hands move 1 cm
  per frame sideways, up, down, nearer and farther, the world bounding box of its shown meshes is
  the box of the rectangle whose diagonally opposite corners are the fingertips (this frame's or
  the previous one's), each face within 1 cm;
- its shape, read by rays cast along the normal of the upright rectangle through the two
  fingertips: at a quarter, half and three quarters of each side a solid border 1 cm wide
  (7.5 to 12.5 mm) centred on that side (within 3 mm), at most 1 cm deep (12.5 mm) and lying on
  the rectangle's plane, nothing further than 8 mm from the outline and nothing in the middle;
  this with the hands at different depths and heights, so that the rectangle is turned, and in
  a second head pose (turned 90 degrees and crouched);
- releasing either hand, in either order, freezes it at once: from the second frame after the
  release it never changes (within 1 mm) and it is within 1 cm of where it was the frame before,
  while the hand still pinching and the released one move; it turns light blue (#4fc3f7) with
  `state.live` false; the other hand's release changes nothing;
- kept frames stay, unchanged, while the user walks, turns and crouches and for ten seconds;
- pinching with both hands again, in either order, or with one hand keeping its pinch while the
  other pinches again, starts a new live frame and leaves the kept ones as they were;
- a frame narrower or lower than 5 cm (3 cm) is shown while live but leaves the scene within two
  frames of its release; one 8 cm on each side is kept;
- at most 4 kept frames: a fifth live frame is shown beside the 4 kept ones; when it ends the
  oldest one leaves the scene and the other 3 are unchanged; a too-small frame removes nothing;
  the sixth kept frame removes the second.

Each test runs for a right- and for a left-dominant user. Frames are read from the scene graph
(the tagged objects and their shown meshes, world coordinates), fingertips from the simulated
hands' `index-finger-tip` joints, both in one reading per frame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors

TAG = "air-frame"
LIVE_HEX = 0xFFC107
KEPT_HEX = 0x4FC3F7
BORDER = 0.01  # the stated border width
TRACK_TOL = 0.01  # metres: each face of the frame's box against the fingertips' rectangle
FROZEN_TOL = 0.001  # metres: a frozen frame does not change
RELEASE_TOL = 0.01  # metres: the frozen frame against its last live shape
WIDTH_MIN, WIDTH_MAX = 0.0075, 0.0125  # the border's measured width
CENTRE_TOL = 0.003  # the border's centre line against the rectangle's side
DEPTH_MAX = 0.0125
CLOSE_FRAMES = 24
STEP = 0.001  # metres between rays across a side
SCAN = 0.02  # rays from -2 cm to +2 cm across each side
CAP = 4

pytestmark = pytest.mark.xr_scenes("empty")

Vec = tuple[float, float, float]

# One frame's reading: every object tagged `arg.tag` (the world box of its shown meshes, their
# colours, what else it draws, its state) and both index fingertips in the world.
_READ_JS = """
(h, arg) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const shown = (o) => { for (let p = o; p; p = p.parent) if (!p.visible) return false; return true; };
  const frames = [];
  const v = new THREE.Vector3();
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== arg.tag) return;
    const box = new THREE.Box3();
    const colours = new Set();
    let meshes = 0, others = 0;
    o.traverse((m) => {
      if (!shown(m)) return;
      if (m.isMesh) {
        meshes += 1;
        const pos = m.geometry && m.geometry.attributes && m.geometry.attributes.position;
        if (pos) {
          if (m.isInstancedMesh) {
            const im = new THREE.Matrix4(), w = new THREE.Matrix4();
            for (let k = 0; k < m.count; k++) {
              m.getMatrixAt(k, im);
              w.multiplyMatrices(m.matrixWorld, im);
              for (let i = 0; i < pos.count; i++) box.expandByPoint(v.fromBufferAttribute(pos, i).applyMatrix4(w));
            }
          } else {
            for (let i = 0; i < pos.count; i++) {
              box.expandByPoint(v.fromBufferAttribute(pos, i).applyMatrix4(m.matrixWorld));
            }
          }
        }
        for (const mat of (Array.isArray(m.material) ? m.material : [m.material])) {
          colours.add(mat && mat.color && mat.color.isColor ? mat.color.getHex() : -1);
        }
      } else if (m.isLine || m.isPoints || m.isSprite) {
        others += 1;
      }
    });
    const state = d.state && typeof d.state === 'object' ? JSON.parse(JSON.stringify(d.state)) : null;
    frames.push({uuid: o.uuid, state, shown: shown(o), meshes, others, colours: [...colours],
                 min: box.isEmpty() ? null : box.min.toArray(), max: box.isEmpty() ? null : box.max.toArray()});
  });
  const tips = {};
  for (const [i, name] of [[0, 'left'], [1, 'right']]) {
    const space = h.core.input.hands[i];
    const joint = space && space.joints && space.joints['index-finger-tip'];
    if (!joint) continue;
    h.guard(joint, name + ' index fingertip').updateWorldMatrix(true, false);
    tips[name] = new THREE.Vector3().setFromMatrixPosition(joint.matrixWorld).toArray();
  }
  return {frames, tips};
}
"""

# Rays along the normal of the upright rectangle with diagonally opposite corners arg.p, arg.q,
# across each of its sides at a quarter, half and three quarters, and through its middle: which
# offsets hit the frame's shown meshes, and how deep it is where it is hit.
_SHAPE_JS = """
(h, arg) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const shown = (o) => { for (let p = o; p; p = p.parent) if (!p.visible) return false; return true; };
  let root = null;
  scene.traverse((o) => { if (o.uuid === arg.uuid) root = o; });
  if (!root) return null;
  const meshes = [];
  root.traverse((m) => { if (m.isMesh && shown(m)) meshes.push(m); });
  const P = new THREE.Vector3(...arg.p), Q = new THREE.Vector3(...arg.q);
  const d = Q.clone().sub(P);
  const u = new THREE.Vector3(d.x, 0, d.z);
  const W = u.length();
  u.normalize();
  const y = new THREE.Vector3(0, 1, 0);
  const n = new THREE.Vector3().crossVectors(u, y).normalize();
  const H = d.y;
  const R = 0.25;
  const ray = new THREE.Raycaster();
  ray.far = 2 * R;
  const at = (a, b) => P.clone().addScaledVector(u, a).addScaledVector(y, b);
  const cast = (point) => {
    ray.set(point.clone().addScaledVector(n, -R), n);
    const front = ray.intersectObjects(meshes, false);
    ray.set(point.clone().addScaledVector(n, R), n.clone().negate());
    const back = ray.intersectObjects(meshes, false);
    if (!front.length && !back.length) return null;
    // How far in front of the plane the first face met from in front is.
    const f = front.length ? R - front[0].distance : null;
    // How far behind it the first face met from behind is.
    const b = back.length ? R - back[0].distance : null;
    return {f, b};
  };
  const sides = [];
  const offsets = [];
  for (let k = -arg.scan; k <= arg.scan + 1e-9; k += arg.step) offsets.push(k);
  const edges = [['bottom', W, 0, true], ['top', W, H, true],
                 ['first', Math.abs(H), 0, false], ['second', Math.abs(H), W, false]];
  for (const [name, along, fixed, horizontal] of edges) {
    for (const t of [0.25, 0.5, 0.75]) {
      const hits = [];
      for (const k of offsets) {
        const sgn = H < 0 ? -1 : 1;
        const p = horizontal ? at(t * along, fixed + k) : at(fixed + k, sgn * t * along);
        const c = cast(p);
        if (c) hits.push([k, c.f, c.b]);
      }
      sides.push({name, t, hits});
    }
  }
  const middle = cast(at(W / 2, H / 2));
  return {sides, middle: !!middle, width: W, height: Math.abs(H)};
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


@dataclass
class Frame:
    uuid: str
    state: Any
    shown: bool
    meshes: int
    others: int
    colours: list[int]
    min: Vec | None
    max: Vec | None

    @property
    def live(self) -> Any:
        return self.state.get("live") if isinstance(self.state, dict) else None

    def box(self) -> str:
        return f"box {_fmt(self.min)}..{_fmt(self.max)}" if self.min else "no shown mesh"


@dataclass
class Reading:
    frames: list[Frame]
    tips: dict[str, Vec]

    def by_uuid(self) -> dict[str, Frame]:
        return {f.uuid: f for f in self.frames}


def look(xr) -> Reading:
    r = xr.probe(_READ_JS, {"tag": TAG})
    frames = [
        Frame(
            f["uuid"],
            f["state"],
            f["shown"],
            f["meshes"],
            f["others"],
            f["colours"],
            tuple(f["min"]) if f["min"] else None,
            tuple(f["max"]) if f["max"] else None,
        )
        for f in r["frames"]
    ]
    return Reading(frames, {k: tuple(v) for k, v in r["tips"].items()})


def side(xr, role: str) -> float:
    """+1 for the hand on the user's right, -1 for the left one."""
    return 1.0 if xr.handedness(role) == "right" else -1.0


def hand_hex(v: int) -> str:
    return f"#{v:06x}"


def box_error(frame: Frame, p: Vec, q: Vec) -> float:
    """Largest distance between a face of the frame's box and the same face of the rectangle's box."""
    if frame.min is None:
        return math.inf
    lo = [min(p[i], q[i]) for i in range(3)]
    hi = [max(p[i], q[i]) for i in range(3)]
    return max(max(abs(frame.min[i] - lo[i]), abs(frame.max[i] - hi[i])) for i in range(3))


def box_change(a: Frame, b: Frame) -> float:
    if a.min is None or b.min is None:
        return math.inf
    return max(max(abs(a.min[i] - b.min[i]), abs(a.max[i] - b.max[i])) for i in range(3))


def tips(r: Reading) -> tuple[Vec, Vec]:
    return r.tips["left"], r.tips["right"]


def new_frames(r: Reading, known: set[str]) -> list[Frame]:
    return [f for f in r.frames if f.uuid not in known]


def assert_colour(frame: Frame, want: int, when: str) -> None:
    __tracebackhide__ = True
    assert frame.colours and all(_close_hex(c, want) for c in frame.colours), (
        f"expected the frame's border {hand_hex(want)} {when}; observed colours "
        f"{[hand_hex(c) if c >= 0 else 'none' for c in frame.colours]}"
    )


def _close_hex(c: int, want: int) -> bool:
    if c < 0:
        return False
    return all(abs(((c >> s) & 255) - ((want >> s) & 255)) <= 2 for s in (16, 8, 0))


def assert_live(frame: Frame, when: str) -> None:
    __tracebackhide__ = True
    assert frame.shown and frame.meshes >= 1, f"expected the live frame shown, made of meshes, {when}; observed {frame}"
    assert frame.live is True, f"expected state.live true for the live frame {when}; observed state {frame.state!r}"
    assert_colour(frame, LIVE_HEX, when)


def assert_kept(frame: Frame, when: str) -> None:
    __tracebackhide__ = True
    assert frame.shown and frame.meshes >= 1, f"expected the kept frame shown, made of meshes, {when}; observed {frame}"
    assert frame.live is False, f"expected state.live false for a kept frame {when}; observed state {frame.state!r}"
    assert_colour(frame, KEPT_HEX, when)


def assert_spans(frame: Frame, now: Reading, before: Reading | None, when: str) -> None:
    """The frame's box is the fingertips' rectangle's (this frame's or the previous one's)."""
    __tracebackhide__ = True
    errs = [box_error(frame, *tips(now))]
    if before is not None:
        errs.append(box_error(frame, *tips(before)))
    err = min(errs)
    p, q = tips(now)
    assert err <= TRACK_TOL, (
        f"expected the live frame to span between the two pinch points {when}: corners at the index fingertips "
        f"{_fmt(p)} and {_fmt(q)}, so a box {_fmt([min(p[i], q[i]) for i in range(3)])}.."
        f"{_fmt([max(p[i], q[i]) for i in range(3)])} (each face within {TRACK_TOL * 100:.0f} cm, plus the border); "
        f"observed {frame.box()} ({err * 100:.1f} cm off)"
    )


def assert_shape(xr, frame: Frame, p: Vec, q: Vec, when: str) -> None:
    """Rays along the rectangle's normal find a 1 cm border centred on each side and a hollow middle."""
    __tracebackhide__ = True
    r = xr.probe(_SHAPE_JS, {"uuid": frame.uuid, "p": list(p), "q": list(q), "scan": SCAN, "step": STEP})
    assert r is not None, f"expected the frame {frame.uuid} in the scene {when}"
    assert not r["middle"], (
        f"expected the frame hollow {when}: nothing in the middle of the {r['width'] * 100:.0f} x "
        f"{r['height'] * 100:.0f} cm rectangle between the pinch points; observed geometry there"
    )
    for s in r["sides"]:
        where = f"across the {s['name']} side at {s['t']:.0%} of its length {when}"
        hits = s["hits"]
        assert hits, (
            f"expected a solid border on the upright rectangle with corners at the pinch points {_fmt(p)} and "
            f"{_fmt(q)} {where}; observed nothing within {SCAN * 100:.0f} cm of that side along the rectangle's normal"
        )
        ks = [h[0] for h in hits]
        lo, hi = min(ks), max(ks)
        width = hi - lo + STEP
        centre = (lo + hi) / 2
        assert WIDTH_MIN <= width <= WIDTH_MAX and abs(centre) <= CENTRE_TOL, (
            f"expected a border strip {BORDER * 100:.0f} cm wide centred on the rectangle's side {where}; observed "
            f"geometry from {lo * 100:+.1f} to {hi * 100:+.1f} cm of the side"
        )
        for _k, f, b in hits:
            # The face a ray from in front meets is f in front of the plane; the one from behind, b behind it.
            depth = None if f is None or b is None else f + b
            if depth is not None:
                assert depth <= DEPTH_MAX, (
                    f"expected the border at most {BORDER * 100:.0f} cm deep {where}; observed {depth * 100:.1f} cm"
                )
            near = [x for x in (f, b) if x is not None]
            assert all(abs(x) <= DEPTH_MAX for x in near), (
                f"expected the border on the rectangle's plane (through both pinch points, upright) {where}; "
                f"observed its faces {[round(x * 100, 1) for x in near]} cm from that plane"
            )


def assert_drawn_only_frames(xr, when: str) -> None:
    __tracebackhide__ = True
    extra = [d for d in xr.drawn() if TAG not in d.tags]
    assert not extra, f"expected the app to draw nothing but the frames {when}; observed {extra}"


def move_tracked(xr, role: str, delta: Vec, known: set[str], uuid: str, when: str, cm: float = 0.01) -> Reading:
    """Move `role` by `delta` 1 cm per frame; after every frame the live frame spans the fingertips."""
    dist = math.hypot(*delta)
    n = max(1, round(dist / cm))
    before = look(xr)
    for i in range(n):
        xr.hand(role).move_by(tuple(v / n for v in delta), speed=1.0)
        now = look(xr)
        live = [f for f in now.frames if f.uuid == uuid]
        assert live, f"expected the live frame to stay while both hands pinch {when}; it is gone"
        assert_spans(live[0], now, before, f"{when}, {i + 1} of {n} frames")
        before = now
    return before


def start_frame(xr, first: str, second: str, known: set[str], when: str) -> Frame:
    """`first` pinches alone (no new frame), then `second` pinches: a live frame appears within two
    frames and spans the fingertips frame by frame while the fingers close."""
    xr.hand(first).start_select(1)
    for _ in range(CLOSE_FRAMES):
        r = look(xr)
        extra = new_frames(r, known)
        assert not extra, f"expected no frame while only one hand pinched {when}; observed {len(extra)} new frame(s)"
        xr.step(1)
    prev = look(xr)
    xr.hand(second).start_select(1)
    frame = None
    for k in range(3):  # noqa: B007 (k is read after the loop)
        now = look(xr)
        found = new_frames(now, known)
        assert len(found) <= 1, f"expected one live frame {when}; observed {len(found)} new tagged objects"
        if found:
            frame = found[0]
            break
        prev = now
        xr.step(1)
    assert frame is not None, (
        f"expected a live frame to appear when the second hand's pinch started {when}; none within 2 frames"
    )
    assert_live(frame, f"when it appeared {when}")
    assert_spans(frame, now, prev, f"when it appeared {when}")
    for i in range(CLOSE_FRAMES - k):
        xr.step(1)
        nxt = look(xr)
        live = [f for f in nxt.frames if f.uuid == frame.uuid]
        assert live, f"expected the live frame to stay while both hands pinch {when}; it is gone"
        assert_spans(live[0], nxt, now, f"while the second hand's fingers closed {when}, frame {i + 1}")
        now = nxt
    known.add(frame.uuid)
    return frame


def release_frozen(xr, role: str, uuid: str, when: str, movers: Sequence[str] = ()) -> Frame:
    """`role` releases: the frame freezes within a frame of its last live shape, turns kept, and does
    not change while the fingers open and `movers` move."""
    last = look(xr)
    [live] = [f for f in last.frames if f.uuid == uuid]
    xr.hand(role).end_select(1)
    xr.step(1)
    r = look(xr)
    [frozen] = [f for f in r.frames if f.uuid == uuid] or [None]
    assert frozen is not None, f"expected the frame kept after the release {when}; it is gone"
    assert box_change(frozen, live) <= RELEASE_TOL, (
        f"expected the frame to freeze at the release {when}, where it was: {live.box()}; observed {frozen.box()}"
    )
    assert_kept(frozen, f"after the release {when}")
    for i in range(CLOSE_FRAMES):
        xr.step(1)
        [now] = [f for f in look(xr).frames if f.uuid == uuid] or [None]
        assert now is not None and box_change(now, frozen) <= FROZEN_TOL, (
            f"expected the frame frozen while the released hand's fingers opened {when}: {frozen.box()}; "
            f"observed {now.box() if now else 'it gone'} {i + 1} frames later"
        )
    for m in movers:
        for d in ((side(xr, m) * 0.04, 0.0, 0.0), (0.0, 0.04, 0.03), (0.0, -0.06, 0.0)):
            xr.hand(m).move_by(d)
            [now] = [f for f in look(xr).frames if f.uuid == uuid] or [None]
            assert now is not None and box_change(now, frozen) <= FROZEN_TOL, (
                f"expected the frame to stay frozen {when} while the {m} hand moved by {_fmt(d)}: {frozen.box()}; "
                f"observed {now.box() if now else 'it gone'}"
            )
    return frozen


def assert_unchanged(r: Reading, kept: dict[str, Frame], when: str) -> None:
    __tracebackhide__ = True
    found = r.by_uuid()
    for uuid, was in kept.items():
        now = found.get(uuid)
        assert now is not None, f"expected the kept frame ({was.box()}) to stay {when}; it is gone"
        assert box_change(now, was) <= FROZEN_TOL, (
            f"expected the kept frame to stay where it was {when}: {was.box()}; observed {now.box()}"
        )
        assert_kept(now, when)


def place(xr, role: str, at: Vec) -> None:
    xr.hand(role).move_hand(at, anchor="fingertip")


def place_pair(xr, x: float, y0: float, y1: float, z0: float, z1: float, dx: float = 0.0) -> None:
    """The non-dominant fingertip at (-x, y0, z0) on its side, the dominant one at (x, y1, z1) on its side."""
    place(xr, "non_dominant", (side(xr, "non_dominant") * x + dx, y0, z0))
    place(xr, "dominant", (side(xr, "dominant") * x + dx, y1, z1))


def quick_frame(xr, known: set[str], at: tuple[Vec, Vec], release: str = "dominant") -> Frame:
    """Both hands pinch, the fingertips go to `at` (non-dominant, dominant), the `release` hand lets go."""
    xr.hand("non_dominant").pinch()
    xr.hand("dominant").start_select(1)
    r = look(xr)
    found = new_frames(r, known)
    assert len(found) == 1, f"expected one new live frame when both hands pinched; observed {len(found)}"
    uuid = found[0].uuid
    known.add(uuid)
    xr.step(CLOSE_FRAMES)
    place(xr, "non_dominant", at[0])
    place(xr, "dominant", at[1])
    xr.step(2)
    last = look(xr)
    [live] = [f for f in last.frames if f.uuid == uuid]
    assert_spans(live, last, None, f"after the fingertips went to {_fmt(at[0])} and {_fmt(at[1])}")
    xr.hand(release).end_select(1)
    xr.step(1)
    return live


def release_all(xr) -> None:
    for role in ("dominant", "non_dominant"):
        xr.hand(role).release()


# --- tests ------------------------------------------------------------------------------------


def test_nothing_until_both_hands_pinch(xr):
    xr.step(2)
    r = look(xr)
    assert not r.frames, f"expected no frame at the start; observed {len(r.frames)}"
    visible = xr.drawn()
    assert not visible, f"expected nothing drawn at the start (the cylinder removed); observed {visible}"
    place_pair(xr, 0.15, 1.3, 1.45, -0.4, -0.45)
    for role in ("dominant", "non_dominant"):
        hand = xr.hand(role)
        hand.start_select(1)
        for i in range(CLOSE_FRAMES):
            assert not look(xr).frames, f"expected no frame while only the {role} hand pinched ({i + 1} frames)"
            xr.step(1)
        for d in (
            (side(xr, role) * -0.2, 0.0, 0.0),
            (0.0, 0.15, 0.0),
            (0.0, -0.1, 0.1),
            (side(xr, role) * 0.25, 0.0, -0.15),
        ):
            hand.move_by(d, speed=1.0)
            assert not look(xr).frames, f"expected no frame while only the {role} hand pinched and moved by {_fmt(d)}"
        assert_drawn_only_frames(xr, f"while only the {role} hand pinched")
        hand.release()
        assert not look(xr).frames, f"expected no frame after only the {role} hand pinched and released"
    assert not xr.drawn(), f"expected nothing drawn after one hand at a time pinched; observed {xr.drawn()}"
    assert_no_errors(xr)


@pytest.mark.parametrize("first", ["dominant", "non_dominant"])
def test_a_live_frame_spans_the_pinch_points_every_frame(xr, first):
    xr.step(1)
    second = "non_dominant" if first == "dominant" else "dominant"
    # The hands at different heights and depths: the rectangle is turned about the vertical.
    place_pair(xr, 0.14, 1.3, 1.5, -0.36, -0.46)
    known: set[str] = set()
    frame = start_frame(xr, first, second, known, f"(the {first} hand first)")
    r = look(xr)
    assert len(r.frames) == 1, f"expected exactly one frame while both hands pinch; observed {len(r.frames)}"
    assert_live(r.frames[0], "once both hands pinched")
    assert_shape(xr, r.frames[0], *tips(r), "once both hands pinched, one nearer than the other")
    assert_drawn_only_frames(xr, "while both hands pinched")
    s = {role: side(xr, role) for role in ("dominant", "non_dominant")}
    moves = [
        (first, (s[first] * 0.05, 0.0, 0.0), "moved outwards"),
        (second, (0.0, 0.06, 0.0), "moved up"),
        (first, (0.0, -0.08, 0.0), "moved down"),
        (second, (0.0, 0.0, 0.08), "came nearer"),
        (first, (0.0, 0.0, -0.06), "went farther"),
        (second, (-s[second] * 0.06, -0.03, 0.0), "moved inwards and down"),
    ]
    for role, d, what in moves:
        move_tracked(xr, role, d, known, frame.uuid, f"while the {role} hand {what}")
    xr.step(2)
    r = look(xr)
    [live] = r.frames
    assert_live(live, "after the hands moved")
    assert_spans(live, r, None, "after the hands moved and stopped")
    assert_shape(xr, live, *tips(r), "after the hands moved and stopped")
    assert_no_errors(xr)


@pytest.mark.parametrize("first_out", ["dominant", "non_dominant"])
def test_releasing_either_hand_freezes_the_frame(xr, first_out):
    xr.step(1)
    other = "non_dominant" if first_out == "dominant" else "dominant"
    place_pair(xr, 0.12, 1.32, 1.48, -0.42, -0.38)
    known: set[str] = set()
    frame = start_frame(xr, "non_dominant", "dominant", known, "(the non-dominant hand first)")
    move_tracked(xr, first_out, (side(xr, first_out) * 0.04, 0.02, 0.0), known, frame.uuid, "before the release")
    xr.step(2)
    r = look(xr)
    assert_shape(xr, r.frames[0], *tips(r), "just before the release")
    frozen = release_frozen(
        xr, first_out, frame.uuid, f"(the {first_out} hand released first)", movers=[other, first_out]
    )
    r = look(xr)
    assert len(r.frames) == 1, f"expected the one frozen frame and no other after the release; observed {len(r.frames)}"
    xr.hand(other).release()
    xr.step(2)
    r = look(xr)
    assert len(r.frames) == 1, f"expected one frame after the other hand released too; observed {len(r.frames)}"
    assert_unchanged(r, {frozen.uuid: frozen}, "after the other hand released too")
    assert_no_errors(xr)


def test_kept_frames_stay_and_frame_in_another_pose(xr):
    xr.step(1)
    known: set[str] = set()
    place_pair(xr, 0.13, 1.3, 1.46, -0.45, -0.4)
    frame = start_frame(xr, "dominant", "non_dominant", known, "(the dominant hand first)")
    kept = {frame.uuid: release_frozen(xr, "non_dominant", frame.uuid, "(the non-dominant hand released)")}
    xr.hand("dominant").release()
    release_all(xr)
    for role in ("dominant", "non_dominant"):
        xr.hand(role).rest()
    xr.head.walk([(0.5, 1.5, 0.4)])
    assert_unchanged(look(xr), kept, "after the user walked away")
    # The user turns 90 degrees to the left and crouches, then frames a rectangle in front of them.
    xr.head.walk([(0.0, 1.5, 0.0)])
    xr.head.look_at((-1.0, 1.5, 0.0))
    xr.head.move((0.0, -0.3, 0.0), speed=0.5)
    pose = xr.camera_pose()
    assert pose.position[1] <= 1.25 and pose.forward[0] < -0.9, f"the head did not turn and crouch: {pose}"
    assert_unchanged(look(xr), kept, "after the user turned and crouched")

    # In front of the turned user (looking along -x): their right is -z, their left +z.
    def ahead(role: str, right: float, up: float, depth: float) -> Vec:
        return (-depth, pose.position[1] + up, -side(xr, role) * right)

    place(xr, "non_dominant", ahead("non_dominant", 0.12, -0.2, 0.38))
    place(xr, "dominant", ahead("dominant", 0.14, -0.02, 0.46))
    frame2 = start_frame(xr, "non_dominant", "dominant", known, "(turned and crouched, the non-dominant hand first)")
    assert_unchanged(look(xr), kept, "while a new frame was live")
    move_tracked(
        xr, "dominant", (0.0, 0.03, 0.05), known, frame2.uuid, "while the dominant hand moved (turned, crouched)"
    )
    move_tracked(
        xr,
        "non_dominant",
        (-0.05, 0.0, 0.0),
        known,
        frame2.uuid,
        "while the non-dominant hand moved (turned, crouched)",
    )
    r = look(xr)
    [live] = [f for f in r.frames if f.uuid == frame2.uuid]
    assert_shape(xr, live, *tips(r), "turned 90 degrees and crouched")
    kept[frame2.uuid] = release_frozen(xr, "dominant", frame2.uuid, "(turned and crouched)", movers=["non_dominant"])
    release_all(xr)
    xr.head.move((0.0, 0.3, 0.0), speed=0.5)
    xr.head.rotate(yaw=-120)
    xr.head.rotate(pitch=-30)
    r = look(xr)
    assert len(r.frames) == 2, f"expected the two kept frames; observed {len(r.frames)}"
    assert_unchanged(r, kept, "after the user stood up, turned and looked down")
    xr.wait(10_000)
    assert_unchanged(look(xr), kept, "ten seconds later")
    assert_no_errors(xr)


def test_pinching_again_starts_a_new_frame(xr):
    xr.step(1)
    known: set[str] = set()
    place_pair(xr, 0.12, 1.3, 1.45, -0.42, -0.42)
    first = start_frame(xr, "dominant", "non_dominant", known, "(the dominant hand first)")
    kept = {first.uuid: release_frozen(xr, "non_dominant", first.uuid, "(the non-dominant hand released)")}
    # The dominant hand keeps its pinch; the non-dominant one pinches again somewhere else.
    place(xr, "non_dominant", (side(xr, "non_dominant") * 0.2, 1.2, -0.38))
    xr.hand("non_dominant").start_select(1)
    r = look(xr)
    found = new_frames(r, known)
    if not found:
        xr.step(1)
        r = look(xr)
        found = new_frames(r, known)
    assert len(found) == 1, (
        f"expected a new live frame when the released hand pinched again while the other kept its pinch; "
        f"observed {len(found)} new frame(s)"
    )
    second = found[0]
    known.add(second.uuid)
    assert_live(second, "after the released hand pinched again")
    assert_unchanged(r, kept, "when a new frame started")
    xr.step(CLOSE_FRAMES)
    move_tracked(xr, "dominant", (0.0, 0.05, 0.0), known, second.uuid, "in the new frame, the dominant hand moving up")
    r = look(xr)
    [live] = [f for f in r.frames if f.uuid == second.uuid]
    assert_shape(xr, live, *tips(r), "in the new frame")
    assert_unchanged(r, kept, "while the new frame was live")
    kept[second.uuid] = release_frozen(xr, "dominant", second.uuid, "(the dominant hand released the new frame)")
    xr.hand("non_dominant").release()
    # Both pinch again, the non-dominant hand first this time.
    place_pair(xr, 0.1, 1.4, 1.55, -0.5, -0.45, dx=0.05)
    third = start_frame(xr, "non_dominant", "dominant", known, "(both again, the non-dominant hand first)")
    move_tracked(xr, "non_dominant", (0.0, -0.04, 0.0), known, third.uuid, "in the third frame")
    assert_unchanged(look(xr), kept, "while the third frame was live")
    kept[third.uuid] = release_frozen(xr, "non_dominant", third.uuid, "(the third frame)")
    release_all(xr)
    r = look(xr)
    assert len(r.frames) == 3, f"expected three kept frames; observed {len(r.frames)}"
    assert_unchanged(r, kept, "after three frames")
    assert_no_errors(xr)


def test_frames_smaller_than_5_cm_are_not_kept(xr):
    xr.step(1)
    known: set[str] = set()
    y = 1.35
    cases = [
        ("3 cm wide, 15 cm high", 0.015, 0.15, False),
        ("15 cm wide, 3 cm high", 0.075, 0.03, False),
        ("8 cm wide, 8 cm high", 0.04, 0.08, True),
    ]
    for k, (what, half, height, keep) in enumerate(cases):
        z = -0.4 - 0.05 * k
        nd = (side(xr, "non_dominant") * 0.12, y, z)
        place(xr, "non_dominant", nd)
        place(xr, "dominant", (side(xr, "dominant") * 0.12, y + height, z))
        xr.hand("non_dominant").pinch()
        xr.hand("dominant").pinch()
        r = look(xr)
        found = new_frames(r, known)
        assert len(found) == 1, f"expected one live frame when both hands pinched ({what}); observed {len(found)}"
        uuid = found[0].uuid
        known.add(uuid)
        # The fingertips go to the size to test, 1 cm per frame, the frame following.
        place(xr, "non_dominant", (side(xr, "non_dominant") * half, y, z))
        place(xr, "dominant", (side(xr, "dominant") * half, y + height, z))
        xr.step(2)
        r = look(xr)
        [live] = [f for f in r.frames if f.uuid == uuid]
        assert_live(live, f"while {what}")
        assert_spans(live, r, None, f"while {what}")
        if keep:
            assert_shape(xr, live, *tips(r), f"while live ({what})")
        role = "dominant" if k % 2 == 0 else "non_dominant"
        xr.hand(role).end_select(1)
        xr.step(1)
        r = look(xr)
        if keep:
            [f] = [f for f in r.frames if f.uuid == uuid] or [None]
            assert f is not None, f"expected a frame {what} (at least 5 cm each way) kept at the release; it is gone"
            assert_kept(f, f"after the release ({what})")
            assert box_change(f, live) <= RELEASE_TOL, (
                f"expected the frame {what} kept where it was at the release: {live.box()}; observed {f.box()}"
            )
        else:
            gone = [f for f in r.frames if f.uuid == uuid]
            assert not gone, (
                f"expected a frame {what} (less than 5 cm) to leave the scene at the release; observed it still "
                f"there 2 frames later: {gone[0].box()}"
            )
        release_all(xr)
        r = look(xr)
        assert len(r.frames) == (1 if keep else 0), (
            f"expected {1 if keep else 0} frame(s) after the frame {what} ended; observed {len(r.frames)}"
        )
        assert_drawn_only_frames(xr, f"after the frame {what} ended")
    assert_no_errors(xr)


def test_at_most_four_frames_are_kept(xr):
    xr.step(1)
    known: set[str] = set()
    order: list[str] = []
    kept: dict[str, Frame] = {}

    def spot(k: int) -> tuple[Vec, Vec]:
        y = 1.2 + 0.06 * k
        z = -0.35 - 0.04 * k
        return ((side(xr, "non_dominant") * 0.1, y, z), (side(xr, "dominant") * 0.14, y + 0.08, z - 0.02))

    for k in range(CAP):
        place(xr, "non_dominant", spot(k)[0])
        place(xr, "dominant", spot(k)[1])
        live = quick_frame(xr, known, spot(k), release="dominant" if k % 2 else "non_dominant")
        release_all(xr)
        r = look(xr)
        [f] = [f for f in r.frames if f.uuid == live.uuid] or [None]
        assert f is not None, f"expected frame {k + 1} kept; it is gone"
        kept[f.uuid] = f
        order.append(f.uuid)
        assert len(r.frames) == k + 1, f"expected {k + 1} kept frames; observed {len(r.frames)}"
        assert_unchanged(r, kept, f"after frame {k + 1}")
    # A fifth frame, live: it does not count yet.
    place(xr, "non_dominant", spot(CAP)[0])
    place(xr, "dominant", spot(CAP)[1])
    xr.hand("dominant").pinch()
    xr.hand("non_dominant").pinch()
    r = look(xr)
    assert len(r.frames) == CAP + 1, (
        f"expected the {CAP} kept frames and the live one while a fifth frame is live; observed {len(r.frames)}"
    )
    assert_unchanged(r, kept, "while a fifth frame was live")
    [fifth] = new_frames(r, known)
    known.add(fifth.uuid)
    xr.hand("dominant").end_select(1)
    xr.step(1)
    r = look(xr)
    found = r.by_uuid()
    assert order[0] not in found, "expected the oldest frame removed when a fifth frame was kept; it is still there"
    assert fifth.uuid in found, "expected the fifth frame kept; it is gone"
    del kept[order.pop(0)]
    kept[fifth.uuid] = found[fifth.uuid]
    order.append(fifth.uuid)
    assert len(r.frames) == CAP, f"expected {CAP} frames after the fifth was kept; observed {len(r.frames)}"
    assert_unchanged(r, kept, "after the fifth frame was kept")
    release_all(xr)
    # A frame too small to keep removes nothing.
    place(xr, "non_dominant", (0.0, 1.5, -0.4))
    place(xr, "dominant", (0.0, 1.52, -0.4))
    quick_frame(xr, known, ((side(xr, "non_dominant") * 0.01, 1.5, -0.4), (side(xr, "dominant") * 0.01, 1.53, -0.4)))
    release_all(xr)
    r = look(xr)
    assert len(r.frames) == CAP, f"expected {CAP} frames after a too-small frame ended; observed {len(r.frames)}"
    assert_unchanged(r, kept, "after a too-small frame ended")
    # A sixth kept frame removes the second.
    s6 = spot(CAP + 1)
    place(xr, "non_dominant", s6[0])
    place(xr, "dominant", s6[1])
    sixth = quick_frame(xr, known, s6, release="non_dominant")
    release_all(xr)
    r = look(xr)
    found = r.by_uuid()
    assert order[0] not in found, "expected the oldest remaining frame (the second) removed when a sixth was kept"
    assert sixth.uuid in found, "expected the sixth frame kept; it is gone"
    del kept[order.pop(0)]
    assert len(r.frames) == CAP, f"expected {CAP} frames after the sixth was kept; observed {len(r.frames)}"
    assert_unchanged(r, kept, "after the sixth frame was kept")
    assert_no_errors(xr)
