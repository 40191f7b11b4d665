"""Runtime tests of the three poke buttons.

A poke brings the index fingertip in front of a button and pushes it in along -Z 4 mm a frame,
reading the fingertip and every light (`state.on`, `state.toggles`, emissive colour) after each
frame, so a toggle is seen at the frame it happens. The tests check that
- the cylinder is gone; each button (the tagged mesh's own geometry) is an 8 x 8 x 2 cm box
  centred where stated (within 5 mm; sizes within 1 cm, the depth within 5 mm), each light a
  sphere 4 cm across (within 1 cm) centred 8 cm above its button (within 1 cm); all lights start
  off (black, `on` false, no toggle) and stay off for two seconds of hands at rest;
- a poke toggles its light at the moment the fingertip enters the button's box (at most two
  frames later, and not before the fingertip is within 2 cm of the face), while the finger is
  still in, and never while it is pulled out; the light is black when off and non-black when
  on, within a quarter of a second; a second poke switches it off; either hand's pokes work;
- a fingertip hovering 2 cm in front of each button and passing along the row there, a
  thumbs-up hand whose thumb goes up into a button from below, and a fingertip pushed into each
  light press nothing (a real poke afterwards still works);
- pokes 1 cm inside a button's edge (left, right and top; next to each neighbour) toggle only
  that button;
- a poke held for ten seconds while the fingertip moves about inside the button toggles once;
  pulling back to 2 cm in front of the face and pushing again toggles again, also for quick
  taps about two thirds of a second apart;
- both hands poke the outer buttons one frame apart and both lights toggle; while one hand's
  fingertip stays in its button the other hand pokes another button twice, and both count;
- after the user walks, turns and crouches (looking down), the buttons and lights are where
  they were, and a poke from there still toggles.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

Vec = tuple[float, float, float]

BLACK = "#000000"
BUTTON_X = {1: -0.09, 2: 0.0, 3: 0.09}
BUTTON_Y = 1.25
BUTTON_Z = -0.6
HALF = (0.04, 0.04, 0.01)  # half the stated 8 x 8 x 2 cm box
FACE_Z = BUTTON_Z + HALF[2]  # -0.59, the front face
LIGHT_Y = 1.33
LIGHT_DIAMETER = 0.04
SIZE_TOL = (0.01, 0.01, 0.005)  # stated sizes: the 8 cm sides within 1 cm, the 2 cm depth within 5 mm
CENTRE_TOL = 0.005  # the buttons' stated centres (1 cm apart: a larger error would close the gap)
LIGHT_TOL = 0.01  # the lights' centres and diameters (4 cm, within 25 %)
STILL_TOL = 0.003  # metres a button or light may move while the user moves
HOVER = 0.021  # "2 cm or more from its face presses nothing"
DEPTH = 0.01  # a poke pushes the fingertip 1 cm into the button (half its depth)
STEP = 0.004  # the fingertip moves 4 mm a frame near a button (0.24 m/s)
LATE = 2  # frames a toggle may come after the fingertip entered the box
SHOW = 15  # frames (a quarter of a second) the light may take to show its new state

# One frame's reading in one call: every light (state and emissive colour) and both hands'
# index fingertips, in the world frame.
_SAMPLE_JS = """
(h) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  const lights = {};
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || !String(d.tag).startsWith('button-light-') || String(d.tag) in lights) return;
    let emissive = null;
    o.traverse((m) => {
      const mat = m.material;
      if (emissive !== null || !mat || Array.isArray(mat) || !mat.emissive || !mat.emissive.isColor) return;
      h.guard(mat, 'a light material');
      emissive = '#' + h.guard(mat.emissive, 'an emissive colour').getHexString();
    });
    const s = d.state && typeof d.state === 'object' ? d.state : {};
    lights[String(d.tag)] = {on: s.on === undefined ? null : s.on,
                             toggles: s.toggles === undefined ? null : s.toggles, emissive};
  });
  const tips = {};
  [['left', 0], ['right', 1]].forEach(([name, i]) => {
    const space = h.core.input.hands[i];
    const tip = space && space.joints && space.joints['index-finger-tip'];
    if (!tip) return;
    h.guard(tip, name + ' index fingertip');
    tips[name] = tip.getWorldPosition(new THREE.Vector3()).toArray();
  });
  return {lights, tips};
}
"""

# Where each tagged button and light is: the world box of the tagged mesh's own vertices (of its
# descendants' when it has no geometry), how far its vertices lie from that box's centre (a
# sphere's all lie at one radius) and how many distinct vertices it has.
_SHAPES_JS = """
(h) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const out = {};
  const verts = (o, points) => {
    const g = o.geometry;
    const pos = g && g.attributes && g.attributes.position;
    if (!pos || o.isInstancedMesh) return;
    const v = new THREE.Vector3();
    for (let i = 0; i < pos.count; i++) points.push(v.fromBufferAttribute(pos, i).applyMatrix4(o.matrixWorld).clone());
  };
  scene.traverse((root) => {
    h.guard(root, root.name || root.type);
    const d = root.userData && root.userData.xrblocksDevtools;
    const tag = d && String(d.tag);
    if (!tag || !(tag.startsWith('touch-button-') || tag.startsWith('button-light-')) || tag in out) return;
    const points = [];
    verts(root, points);
    if (!points.length) root.traverse((o) => { if (o !== root) verts(o, points); });
    if (!points.length) { out[tag] = null; return; }
    const box = new THREE.Box3().setFromPoints(points);
    const c = box.getCenter(new THREE.Vector3());
    let rmin = Infinity, rmax = 0;
    const distinct = new Set();
    for (const p of points) {
      const r = p.distanceTo(c);
      rmin = Math.min(rmin, r);
      rmax = Math.max(rmax, r);
      distinct.add([p.x, p.y, p.z].map((x) => Math.round(x * 1e4)).join(','));
    }
    out[tag] = {min: box.min.toArray(), max: box.max.toArray(), distinct: distinct.size, rmin, rmax};
  });
  return out;
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def centre_of(k: int) -> Vec:
    return (BUTTON_X[k], BUTTON_Y, BUTTON_Z)


def light_centre(k: int) -> Vec:
    return (BUTTON_X[k], LIGHT_Y, BUTTON_Z)


def inside(p: Sequence[float], k: int) -> bool:
    """Whether point `p` lies in button `k`'s stated box."""
    c = centre_of(k)
    return all(abs(p[i] - c[i]) <= HALF[i] for i in range(3))


def gap_to_box(p: Sequence[float], k: int) -> float:
    """Distance from `p` to button `k`'s stated box (0 inside)."""
    c = centre_of(k)
    return math.sqrt(sum(max(0.0, abs(p[i] - c[i]) - HALF[i]) ** 2 for i in range(3)))


def side_of(xr, role: str) -> float:
    return 1.0 if xr.handedness(role) == "right" else -1.0


class Watch:
    """Reads the lights and fingertips frame by frame, and checks what changed and when."""

    def __init__(self, xr):
        self.xr = xr
        self.last = self.read()

    def read(self) -> dict[str, Any]:
        s = self.xr.probe(_SAMPLE_JS)
        s["frame"] = self.xr.frame
        for k in (1, 2, 3):
            if f"button-light-{k}" not in s["lights"]:
                raise AssertionError(f"no object tagged 'button-light-{k}' in the scene")
        return s

    def light(self, k: int, sample: dict | None = None) -> dict[str, Any]:
        return (sample or self.last)["lights"][f"button-light-{k}"]

    def toggles(self, k: int, sample: dict | None = None) -> Any:
        return self.light(k, sample)["toggles"]

    def assert_light(self, k: int, *, on: bool, toggles: int, when: str, sample: dict | None = None) -> None:
        __tracebackhide__ = True
        got = self.light(k, sample)
        assert got["on"] is on and got["toggles"] == toggles, (
            f"{when}: expected light {k} {'on' if on else 'off'} with state.toggles {toggles}; observed state "
            f"on={got['on']!r}, toggles={got['toggles']!r}"
        )
        self.assert_shows(k, on, when, sample)

    def assert_shows(self, k: int, on: bool, when: str, sample: dict | None = None) -> None:
        __tracebackhide__ = True
        emissive = self.light(k, sample)["emissive"]
        if on:
            assert emissive not in (None, BLACK), f"{when}: light {k} is on but does not glow (emissive {emissive})"
        else:
            assert emissive == BLACK, f"{when}: light {k} is off but its emissive colour is {emissive}, not {BLACK}"

    def assert_unchanged(self, before: dict, ks: Sequence[int], when: str) -> None:
        __tracebackhide__ = True
        for k in ks:
            a, b = self.light(k, before), self.light(k)
            assert (a["on"], a["toggles"]) == (b["on"], b["toggles"]), (
                f"{when}: expected light {k} unchanged (on={a['on']!r}, toggles={a['toggles']!r}); observed "
                f"on={b['on']!r}, toggles={b['toggles']!r}"
            )

    def glide(self, role: str, goal: Sequence[float], *, step: float = STEP) -> list[dict]:
        """Move the fingertip of `role` to `goal` about `step` metres a frame, reading every frame."""
        hand = self.xr.hand(role)
        start = hand.fingertip
        n = max(1, math.ceil(math.dist(start, goal) / step))
        out = []
        for i in range(1, n + 1):
            t = i / n
            hand.move_hand(tuple(start[j] + (goal[j] - start[j]) * t for j in range(3)), anchor="fingertip", speed=6.0)
            self.last = self.read()
            out.append(self.last)
        return out

    def hold(self, frames: int) -> None:
        self.xr.step(frames)
        self.last = self.read()


def approach(xr, role: str, point: Sequence[float], *, front: float = 0.1) -> None:
    """Bring the fingertip `front` metres in front of `point` (along +Z), by way of a point further out."""
    hand = xr.hand(role)
    x, y, _ = point
    hand.move_hand((x, y, FACE_Z + 0.14), anchor="fingertip")
    hand.move_hand((x, y, FACE_Z + front), anchor="fingertip")


def poke(w: Watch, role: str, k: int, *, at: Sequence[float] | None = None, hold: int = SHOW, label: str = "") -> int:
    """Poke button `k` with `role`'s fingertip at `at` (x, y; default its centre), hold, and check the toggle.

    Checks that light `k` toggled exactly once, at the frame the fingertip entered the box (at
    most LATE frames later, and not while it was more than 2 cm from the box) and showed its new
    state within SHOW frames, and that no other light changed. Returns the frame of the toggle.
    The fingertip stays in the button (call `pull_out`).
    """
    __tracebackhide__ = True
    xr = w.xr
    hand = xr.hand(role)
    x, y = (at or centre_of(k))[:2]
    what = label or f"a poke of button {k} by the {role} ({xr.handedness(role)}) hand"
    if hand.fingertip[2] > FACE_Z + 0.03 or gap_to_box(hand.fingertip, k) > 0.03:
        approach(xr, role, (x, y, BUTTON_Z), front=0.03)
    w.last = before = w.read()
    samples = w.glide(role, (x, y, FACE_Z - DEPTH))
    others = [j for j in (1, 2, 3) if j != k]
    entered = next((s for s in samples if inside(s["tips"][xr.handedness(role)], k)), None)
    assert entered is not None, f"{what}: the fingertip did not get into the button (harness)"
    t0 = w.toggles(k, before)
    changed = [s for s in samples if w.toggles(k, s) != t0]
    assert changed, (
        f"{what}: expected light {k} to toggle when the fingertip entered the button at frame {entered['frame']} "
        f"(fingertip {_fmt(entered['tips'][xr.handedness(role)])}); it did not toggle while the fingertip went "
        f"{DEPTH * 100:.0f} cm in (state.toggles stayed {t0!r})"
    )
    first = changed[0]
    tip = first["tips"][xr.handedness(role)]
    assert gap_to_box(tip, k) <= 0.02, (
        f"{what}: light {k} toggled at frame {first['frame']} while the fingertip was still "
        f"{gap_to_box(tip, k):.3f} m from the button, at {_fmt(tip)}"
    )
    assert first["frame"] - entered["frame"] <= LATE, (
        f"{what}: expected light {k} to toggle at the moment the fingertip entered the button (frame "
        f"{entered['frame']}); it toggled {first['frame'] - entered['frame']} frames later"
    )
    was_on = w.light(k, before)["on"]
    w.assert_light(k, on=not was_on, toggles=t0 + 1, when=f"{what}, at the frame it toggled", sample=first)
    for s in samples[samples.index(first) :]:
        got = w.light(k, s)
        assert (got["on"], got["toggles"]) == (not was_on, t0 + 1), (
            f"{what}: expected light {k} to toggle once (on={not was_on}, toggles={t0 + 1}) while the fingertip "
            f"went in; at frame {s['frame']} observed on={got['on']!r}, toggles={got['toggles']!r}"
        )
    w.hold(max(0, SHOW - (w.last["frame"] - first["frame"])))
    w.assert_light(k, on=not was_on, toggles=t0 + 1, when=f"{what}, a quarter of a second after it toggled")
    if hold > SHOW:
        w.hold(hold - SHOW)
        w.assert_light(k, on=not was_on, toggles=t0 + 1, when=f"{what}, while the fingertip stayed in")
    w.assert_unchanged(before, others, f"{what} (its neighbours)")
    return first["frame"]


def pull_out(w: Watch, role: str, *, to: float = 0.12) -> None:
    """Pull the fingertip straight back out to `to` metres in front of the face; nothing may change."""
    __tracebackhide__ = True
    x, y, _ = w.xr.hand(role).fingertip
    before = w.read()
    w.glide(role, (x, y, FACE_Z + min(to, 0.03)))
    if to > 0.03:
        w.xr.hand(role).move_hand((x, y, FACE_Z + to), anchor="fingertip")
        w.last = w.read()
    w.assert_unchanged(before, (1, 2, 3), f"while the {role} hand's fingertip was pulled out of the button")


def shapes(xr) -> dict[str, Any]:
    got = xr.probe(_SHAPES_JS)
    for k in (1, 2, 3):
        for tag in (f"touch-button-{k}", f"button-light-{k}"):
            assert got.get(tag), f"expected a mesh tagged {tag!r} with geometry; observed {got.get(tag)!r}"
    return got


def assert_geometry(xr) -> dict[str, Any]:
    __tracebackhide__ = True
    got = shapes(xr)
    for k in (1, 2, 3):
        b = got[f"touch-button-{k}"]
        size = tuple(b["max"][i] - b["min"][i] for i in range(3))
        centre = tuple((b["max"][i] + b["min"][i]) / 2 for i in range(3))
        want = tuple(2 * h for h in HALF)
        assert all(abs(size[i] - want[i]) <= SIZE_TOL[i] for i in range(3)), (
            f"expected button {k} 0.08 m wide, 0.08 m high and 0.02 m deep (x, y, z within {SIZE_TOL} m); observed "
            f"size {_fmt(size)}"
        )
        off = math.dist(centre, centre_of(k))
        assert off <= CENTRE_TOL, (
            f"expected button {k} centred at {_fmt(centre_of(k))} (within {CENTRE_TOL} m); observed {_fmt(centre)}, "
            f"{off:.3f} m away"
        )
        s = got[f"button-light-{k}"]
        size = tuple(s["max"][i] - s["min"][i] for i in range(3))
        centre = tuple((s["max"][i] + s["min"][i]) / 2 for i in range(3))
        assert all(abs(v - LIGHT_DIAMETER) <= LIGHT_TOL for v in size), (
            f"expected light {k} a sphere about {LIGHT_DIAMETER} m across (within {LIGHT_TOL} m); observed size "
            f"{_fmt(size)}"
        )
        assert s["distinct"] >= 12 and s["rmax"] > 0 and s["rmin"] >= 0.85 * s["rmax"], (
            f"expected light {k} to be a sphere (its vertices all about one radius from its centre); observed {s}"
        )
        off = math.dist(centre, light_centre(k))
        assert off <= LIGHT_TOL, (
            f"expected light {k} centred 8 cm above its button, at {_fmt(light_centre(k))} (within {LIGHT_TOL} m); "
            f"observed {_fmt(centre)}, {off:.3f} m away"
        )
    return got


def test_buttons_and_lights_stand_where_stated_and_start_off(xr):
    xr.step(1)
    w = Watch(xr)
    for k in (1, 2, 3):
        w.assert_light(k, on=False, toggles=0, when="at start-up")
    assert_geometry(xr)
    cylinders = [m for m in xr.drawn(("mesh",)) if "Cylinder" in m.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed visible cylinders {cylinders}"
    for role in ("dominant", "non_dominant"):
        xr.hand(role).move_by((0.0, 0.05, -0.05))
        xr.hand(role).rest()
    w.hold(120)
    for k in (1, 2, 3):
        w.assert_light(k, on=False, toggles=0, when="after two seconds with the hands at rest")
    assert_no_errors(xr)


def test_a_poke_toggles_its_light_the_moment_the_fingertip_enters(xr):
    xr.step(1)
    w = Watch(xr)
    poke(w, "dominant", 2)
    w.assert_light(2, on=True, toggles=1, when="after one poke of the middle button")
    pull_out(w, "dominant")
    w.assert_light(2, on=True, toggles=1, when="after the fingertip left the middle button")
    for k in (1, 3):
        w.assert_light(k, on=False, toggles=0, when="after a poke of the middle button (its neighbour)")
    poke(w, "dominant", 2, label="a second poke of the middle button")
    w.assert_light(2, on=False, toggles=2, when="after a second poke of the middle button")
    pull_out(w, "dominant")
    xr.hand("dominant").rest()
    poke(w, "non_dominant", 1)
    pull_out(w, "non_dominant")
    poke(w, "non_dominant", 3)
    pull_out(w, "non_dominant")
    xr.hand("non_dominant").rest()
    poke(w, "dominant", 1, label="a poke of the left button by the dominant hand")
    pull_out(w, "dominant")
    w.hold(30)
    w.assert_light(1, on=False, toggles=2, when="after the two hands poked the left button once each")
    w.assert_light(2, on=False, toggles=2, when="after the middle button was poked twice")
    w.assert_light(3, on=True, toggles=1, when="after the right button was poked once")
    assert_no_errors(xr)


def test_hovering_fingertips_thumbs_and_lights_press_nothing(xr):
    xr.step(1)
    w = Watch(xr)
    role = "dominant"
    hand = xr.hand(role)
    start = w.read()
    # The fingertip hovers 2 cm in front of each button, then passes along the row there.
    order = (1, 2, 3) if side_of(xr, role) < 0 else (3, 2, 1)
    approach(xr, role, centre_of(order[0]), front=0.06)
    for k in order:
        w.glide(role, (BUTTON_X[k], BUTTON_Y, FACE_Z + HOVER), step=0.01)
        w.hold(30)
    w.glide(role, (BUTTON_X[order[0]], BUTTON_Y + 0.02, FACE_Z + HOVER), step=0.01)
    w.assert_unchanged(start, (1, 2, 3), "while a fingertip hovered 2 cm in front of the buttons")
    # The fingertip pushed into each light.
    for k in order:
        approach(xr, role, light_centre(k), front=0.06)
        w.glide(role, light_centre(k))
        w.hold(20)
        w.glide(role, (BUTTON_X[k], LIGHT_Y, FACE_Z + 0.06))
    w.assert_unchanged(start, (1, 2, 3), "after a fingertip was pushed into each light")
    hand.rest()
    # A thumbs-up hand brings its thumb up into the middle button from below; its index fingertip
    # stays some 9 cm under the button.
    other = xr.hand("non_dominant")
    other.set_pose("thumbs up", frames=30)
    joints = other.joints
    thumb, tip = joints["thumb-tip"].position, joints["index-finger-tip"].position
    offset = tuple(tip[i] - thumb[i] for i in range(3))
    below, up = (0.0, BUTTON_Y - 0.12, BUTTON_Z), (0.0, BUTTON_Y - HALF[1] + 0.012, BUTTON_Z)
    other.move_hand(tuple(below[i] + offset[i] + (0.15 if i == 2 else 0.0) for i in range(3)), anchor="fingertip")
    other.move_hand(tuple(below[i] + offset[i] for i in range(3)), anchor="fingertip")
    other.move_hand(tuple(up[i] + offset[i] for i in range(3)), anchor="fingertip", speed=0.24)
    joints = other.joints
    thumb, tip = joints["thumb-tip"].position, joints["index-finger-tip"].position
    assert inside(thumb, 2) and gap_to_box(tip, 2) >= 0.04, (
        f"harness: expected the thumb tip in the middle button and the index fingertip well away; thumb "
        f"{_fmt(thumb)}, index fingertip {_fmt(tip)}"
    )
    w.hold(30)
    w.assert_unchanged(start, (1, 2, 3), "while a thumb (not an index fingertip) was in the middle button")
    other.move_hand(tuple(below[i] + offset[i] for i in range(3)), anchor="fingertip")
    other.move_hand(tuple(below[i] + offset[i] + (0.15 if i == 2 else 0.0) for i in range(3)), anchor="fingertip")
    other.set_pose("relaxed")
    other.rest()
    w.last = w.read()
    w.assert_unchanged(start, (1, 2, 3), "after the thumb left the middle button")
    # A real poke still works.
    poke(w, role, 2, label="a poke after the hovering")
    pull_out(w, role)
    assert_no_errors(xr)


def test_a_poke_near_an_edge_presses_only_that_button(xr):
    xr.step(1)
    w = Watch(xr)
    near_edge = 0.03  # 1 cm inside a button's edge, 2 cm from its neighbour
    pokes = [
        ("dominant", 2, (-near_edge, 0.0)),
        ("dominant", 2, (near_edge, 0.0)),
        ("non_dominant", 2, (-near_edge, 0.0)),
        ("non_dominant", 2, (near_edge, 0.0)),
        ("dominant", 1, (near_edge, 0.0)),
        ("non_dominant", 3, (-near_edge, 0.0)),
        ("dominant", 2, (0.0, near_edge)),
        ("non_dominant", 1, (0.0, -near_edge)),
    ]
    for role, k, (dx, dy) in pokes:
        at = (BUTTON_X[k] + dx, BUTTON_Y + dy, BUTTON_Z)
        label = f"a poke of button {k} at {_fmt(at)} ({xr.handedness(role)} hand)"
        poke(w, role, k, at=at, label=label)
        pull_out(w, role, to=0.06)
    w.assert_light(1, on=False, toggles=2, when="after two pokes of the left button")
    w.assert_light(2, on=True, toggles=5, when="after five pokes of the middle button")
    w.assert_light(3, on=True, toggles=1, when="after one poke of the right button")
    assert_no_errors(xr)


def test_one_poke_toggles_once_however_long_it_is_held(xr):
    xr.step(1)
    w = Watch(xr)
    role = "dominant"
    poke(w, role, 2)
    # Ten seconds in the button, moving about inside it.
    spots = [(0.02, 0.01, 0.005), (-0.02, -0.02, 0.015), (0.0, 0.025, 0.01), (-0.025, 0.0, 0.006), (0.0, 0.0, 0.01)]
    for dx, dy, depth in spots:
        w.glide(role, (dx, BUTTON_Y + dy, FACE_Z - depth), step=0.003)
        w.hold(110)
        w.assert_light(2, on=True, toggles=1, when=f"after {(w.last['frame']) / 60:.1f} s with the fingertip in")
    w.hold(60)
    w.assert_light(2, on=True, toggles=1, when="after ten seconds with the fingertip in the middle button")
    # Pulled back to 2 cm in front of the face, and pushed in again.
    pull_out(w, role, to=HOVER)
    w.hold(10)
    poke(w, role, 2, label="a poke after pulling back to 2 cm in front of the face")
    w.assert_light(2, on=False, toggles=2, when="after a second poke")
    # Quick taps, about two thirds of a second apart.
    for n in range(3):
        pull_out(w, role, to=HOVER)
        w.hold(12)
        poke(w, role, 2, label=f"quick tap {n + 1}")
    pull_out(w, role)
    w.hold(60)
    w.assert_light(2, on=True, toggles=5, when="after five pokes of the middle button")
    for k in (1, 3):
        w.assert_light(k, on=False, toggles=0, when="after pokes of the middle button (its neighbour)")
    assert_no_errors(xr)


def test_both_hands_press_buttons_independently(xr):
    xr.step(1)
    w = Watch(xr)
    left_k = {"left": 1, "right": 3}
    roles = ("dominant", "non_dominant")
    ks = {role: left_k[xr.handedness(role)] for role in roles}
    # Both fingertips 3 mm in front of their buttons, then pushed in one frame after the other.
    for role in roles:
        approach(xr, role, centre_of(ks[role]), front=0.003)
    start = w.read()
    for role in roles:
        xr.hand(role).move_hand((BUTTON_X[ks[role]], BUTTON_Y, FACE_Z - DEPTH), anchor="fingertip", speed=0.78)
    w.last = w.read()
    for role in roles:
        w.assert_light(ks[role], on=True, toggles=1, when=f"after both hands pushed in together ({role} hand)")
    w.assert_unchanged(start, (2,), "after both hands poked the outer buttons")
    pull_out(w, "non_dominant")
    # The dominant hand's fingertip stays in its button while the other hand pokes the middle one twice.
    for n in range(2):
        poke(w, "non_dominant", 2, label=f"poke {n + 1} of the middle button while the other hand stayed in")
        pull_out(w, "non_dominant", to=0.04)
    w.hold(30)
    w.assert_light(ks["dominant"], on=True, toggles=1, when="with the dominant hand's fingertip still in")
    w.assert_light(2, on=False, toggles=2, when="after two pokes of the middle button")
    w.assert_light(ks["non_dominant"], on=True, toggles=1, when="after one poke of the non-dominant hand's button")
    pull_out(w, "dominant")
    poke(w, "dominant", ks["non_dominant"], label="a poke by the dominant hand of the other hand's button")
    pull_out(w, "dominant")
    w.assert_light(ks["non_dominant"], on=False, toggles=2, when="after the dominant hand poked it too")
    assert_no_errors(xr)


def test_the_buttons_stay_in_the_room_while_the_user_moves(xr):
    xr.step(1)
    w = Watch(xr)
    before = assert_geometry(xr)
    xr.head.walk([(0.25, 1.5, 0.15)])
    xr.head.rotate(yaw=50)
    xr.head.walk([(-0.15, 1.5, -0.05)])
    xr.head.look_at((0.0, 1.25, -0.6))
    xr.head.move((0.0, -0.25, 0.0), speed=0.5)  # crouches
    pose = xr.camera_pose()
    assert pose.position[1] <= 1.3, f"harness: the head did not go down: {_fmt(pose.position)}"
    now = shapes(xr)
    for tag, b in before.items():
        moved = math.dist(
            [(b["min"][i] + b["max"][i]) / 2 for i in range(3)],
            [(now[tag]["min"][i] + now[tag]["max"][i]) / 2 for i in range(3)],
        )
        assert moved <= STILL_TOL, (
            f"expected {tag} to stay where it was in the room while the user walked, turned and crouched; observed "
            f"it {moved:.3f} m away"
        )
    role = "dominant"
    poke(w, role, 1, label="a poke of the left button by the crouching user")
    pull_out(w, role)
    poke(w, role, 3, label="a poke of the right button by the crouching user")
    pull_out(w, role)
    xr.head.move((0.0, 0.25, 0.0), speed=0.5)
    assert_geometry(xr)
    w.last = w.read()
    w.assert_light(1, on=True, toggles=1, when="after the user stood up again")
    w.assert_light(3, on=True, toggles=1, when="after the user stood up again")
    assert_no_errors(xr)
