"""Runtime tests of the balloon-pop game.

Every frame of interest is read in one probe: each shown object tagged `balloon-1` ... `balloon-5`
(its world centre, from its geometry's box and world matrix; a mesh hidden, removed, scaled to
nothing or with an invisible material is not shown), both index fingertips (world frame), the
panel's `state.popped` and the harness's own log of the sounds the page started. Pictures of the
panel's front (drawn by the app's renderer) show whether the number it shows changed. The tests
check that
- the cylinder is gone; each balloon is a sphere 10 cm across (within 1 cm) whose centre starts at
  its start position (within 1 cm, allowing for the rise since the first frame); each rises
  straight up at 0.1 m/s (within 5 %, x and z within 2 mm); a balloon's centre never shows above
  1.9 m (1 mm slack): on the frame it gets there it is replaced by one at its start position
  (within 1 cm); all five are watched for eleven seconds so every one of them reaches the top,
  and meanwhile nothing counts, nothing sounds and the panel keeps showing the same number; the
  panel is 0.4 x 0.2 m (within 2 cm), at most 5 cm thick, centred at (0, 2.15, -1.5) (within
  3 cm), facing the user within 20 degrees;
- a fingertip hovering 2 cm in front of a rising balloon (following it up) for a second pops
  nothing; pushed in at 4 mm a frame it pops the balloon on the frame it comes within 5 cm of the
  centre (not while 2 mm or more outside, at most one frame late); only that balloon goes; a
  sound starts on that frame or the next and every sound starting in the half second after the
  pop has ended by then; the count goes up by exactly one and the panel shows a new number within
  half a second; the fingertip staying where the balloon was plays and counts nothing more; the
  balloon is not shown for two seconds and then (within a tenth of a second) a new one appears at
  its start position and rises; the other hand then does the same with another balloon;
- pointing either hand's ray at a balloon and pinching (held, released) pops nothing and plays
  nothing;
- two fingertips held still, one just above each of two rising balloons, are touched by both on
  the same frame: both pop on that frame (or the next), the count goes up by two, at least two
  sounds start and the panel shows a new number.
Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

Vec = tuple[float, float, float]

STARTS: dict[int, Vec] = {
    1: (-0.24, 1.0, -0.8),
    2: (-0.12, 1.2, -0.8),
    3: (0.0, 0.9, -0.8),
    4: (0.12, 1.1, -0.8),
    5: (0.24, 1.3, -0.8),
}
LANES = tuple(STARTS)
RADIUS = 0.05
SPEED = 0.1  # m/s
TOP = 1.9
FPS = 60.0
RISE = SPEED / FPS  # metres a frame
RESPAWN = 120  # frames (two seconds) a popped balloon stays away
RESPAWN_TOL = 6  # frames: "within a tenth of a second"
SOUND_WINDOW = 0.5  # s: a pop sound stops within half a second
SHOW = 30  # frames: the panel shows the new number within half a second
PANEL = "pop-panel"
PANEL_CENTRE: Vec = (0.0, 2.15, -1.5)
PANEL_SIZE = (0.4, 0.2)
STEP = 0.004  # fingertip speed near a balloon: 4 mm a frame
HOVER = 0.02  # "2 cm or more outside a balloon's surface pops nothing"
EARLY = 0.002  # a pop while the fingertip is this much outside the sphere comes too early
POS_TOL = 0.01
SIZE_TOL = 0.01
CHANGED = 16  # pixels that must differ between pictures of two different counts
SAME = 8  # pixels that may differ between two pictures of the same count
PICTURE_WIDTH = 160

# One frame's reading: the shown balloons (world centres), both index fingertips, the panel's
# state and the sound log's length.
_SAMPLE_JS = """
(h) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const shown = (o) => {
    for (let p = o; p; p = p.parent) {
      h.guard(p, p.name || p.type);
      if (!p.visible) return false;
      if (p === scene) return true;
    }
    return false;
  };
  const balloons = {};
  let popped = null, panels = 0;
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d) return;
    const tag = String(d.tag);
    if (tag === 'pop-panel') {
      panels += 1;
      const s = d.state && typeof d.state === 'object' ? d.state : {};
      popped = s.popped === undefined ? null : s.popped;
      return;
    }
    if (!/^balloon-[1-5]$/.test(tag) || !shown(o)) return;
    let geometry = null, object = o;
    o.traverse((m) => {
      if (geometry || !m.geometry || !m.geometry.attributes || !m.geometry.attributes.position) return;
      const mat = m.material;
      if (mat && !Array.isArray(mat) && mat.visible === false) return;
      geometry = m.geometry;
      object = m;
    });
    if (!geometry) return;
    h.guard(geometry, 'a balloon geometry');
    h.guard(object.matrixWorld, 'a balloon matrix');
    if (object.matrixWorld.getMaxScaleOnAxis() < 1e-3) return;
    if (!geometry.boundingBox) geometry.computeBoundingBox();
    const c = geometry.boundingBox.getCenter(new THREE.Vector3()).applyMatrix4(object.matrixWorld);
    (balloons[tag.slice(8)] = balloons[tag.slice(8)] || []).push(c.toArray());
  });
  const tips = {};
  [['left', 0], ['right', 1]].forEach(([name, i]) => {
    const space = h.core.input.hands[i];
    const tip = space && space.joints && space.joints['index-finger-tip'];
    if (!tip) return;
    h.guard(tip, name + ' index fingertip');
    tips[name] = tip.getWorldPosition(new THREE.Vector3()).toArray();
  });
  return {balloons, tips, popped, panels, sounds: h.audio.length};
}
"""

# Each balloon's shape (the world positions of its first mesh's vertices: their box centre and
# how far they lie from it) and the panel's pose and size.
_SHAPES_JS = """
(h) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const out = {balloons: {}, panel: [], cylinders: 0};
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    if (o.isMesh && o.visible && o.geometry && o.geometry.type === 'CylinderGeometry') out.cylinders += 1;
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d) return;
    const tag = String(d.tag);
    if (tag === 'pop-panel') {
      const g = o.geometry;
      const entry = {isMesh: !!o.isMesh, lo: null, hi: null, ui: null,
                     position: o.getWorldPosition(new THREE.Vector3()).toArray(),
                     quaternion: o.getWorldQuaternion(new THREE.Quaternion()).toArray(),
                     scale: o.getWorldScale(new THREE.Vector3()).toArray()};
      for (let p = o; p; p = p.parent) {
        if (h.xb.UICard && p instanceof h.xb.UICard) entry.ui = 'UICard';
        if (h.xb.UIText && p instanceof h.xb.UIText) entry.ui = 'UIText';
      }
      if (g && g.attributes && g.attributes.position) {
        h.guard(g, 'the panel geometry');
        if (!g.boundingBox) g.computeBoundingBox();
        entry.lo = g.boundingBox.min.toArray();
        entry.hi = g.boundingBox.max.toArray();
      }
      out.panel.push(entry);
      return;
    }
    if (!/^balloon-[1-5]$/.test(tag) || !o.visible) return;
    let mesh = null;
    o.traverse((m) => {
      if (!mesh && m.geometry && m.geometry.attributes && m.geometry.attributes.position) mesh = m;
    });
    if (!mesh) return;
    h.guard(mesh.geometry, 'a balloon geometry');
    const pos = mesh.geometry.attributes.position;
    const pts = [];
    const v = new THREE.Vector3();
    for (let i = 0; i < pos.count; i++) pts.push(v.fromBufferAttribute(pos, i).applyMatrix4(mesh.matrixWorld).clone());
    const c = new THREE.Box3().setFromPoints(pts).getCenter(new THREE.Vector3());
    let rmin = Infinity, rmax = 0;
    for (const p of pts) { const r = p.distanceTo(c); rmin = Math.min(rmin, r); rmax = Math.max(rmax, r); }
    const entry = {centre: c.toArray(), rmin, rmax, n: pts.length};
    (out.balloons[tag.slice(8)] = out.balloons[tag.slice(8)] || []).push(entry);
  });
  return out;
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _rotate(q: Sequence[float], v: Sequence[float]) -> Vec:
    x, y, z, w = q
    vx, vy, vz = v
    tx, ty, tz = 2 * (y * vz - z * vy), 2 * (z * vx - x * vz), 2 * (x * vy - y * vx)
    return (
        vx + w * tx + (y * tz - z * ty),
        vy + w * ty + (z * tx - x * tz),
        vz + w * tz + (x * ty - y * tx),
    )


def _angle(u: Sequence[float], v: Sequence[float]) -> float:
    dot = sum(a * b for a, b in zip(u, v, strict=True))
    nu, nv = math.sqrt(sum(a * a for a in u)), math.sqrt(sum(b * b for b in v))
    return math.degrees(math.acos(max(-1.0, min(1.0, dot / (nu * nv)))))


class Watch:
    """Reads the game frame by frame and keeps every reading."""

    def __init__(self, xr):
        self.xr = xr
        self.log: list[dict[str, Any]] = []
        self.read()

    def read(self) -> dict[str, Any]:
        s = self.xr.probe(_SAMPLE_JS)
        s["frame"] = self.xr.frame
        assert s["panels"] >= 1, f"no object tagged {PANEL!r} in the scene"
        self.log.append(s)
        return s

    @property
    def last(self) -> dict[str, Any]:
        return self.log[-1]

    def step(self, frames: int = 1) -> None:
        for _ in range(frames):
            self.xr.step(1)
            self.read()

    def centre(self, k: int, sample: dict | None = None) -> Vec | None:
        """Balloon `k`'s centre in a reading; None when it is not shown (fails on two shown)."""
        __tracebackhide__ = True
        s = sample or self.last
        got = s["balloons"].get(str(k), [])
        assert len(got) <= 1, f"frame {s['frame']}: expected at most one shown balloon-{k}; observed {len(got)}"
        return tuple(got[0]) if got else None  # type: ignore[return-value]

    def popped(self, sample: dict | None = None) -> Any:
        return (sample or self.last)["popped"]

    def sounds_since(self, index: int) -> list[dict]:
        return self.xr.audio()[index:]

    def tip(self, hand: str, sample: dict | None = None) -> Vec:
        return tuple((sample or self.last)["tips"][hand])  # type: ignore[return-value]

    def assert_all_shown(self, when: str, lanes: Sequence[int] = LANES) -> None:
        __tracebackhide__ = True
        for k in lanes:
            assert self.centre(k) is not None, f"{when} (frame {self.last['frame']}): balloon-{k} is not shown"


def assert_popped(w: Watch, expected: int, when: str) -> None:
    __tracebackhide__ = True
    got = w.popped()
    assert got == expected, f"{when}: expected the pop-panel's state.popped {expected}; observed {got!r}"


# --- the panel's picture -------------------------------------------------------------------------


def panel_part(xr) -> dict[str, Any]:
    __tracebackhide__ = True
    panels = xr.probe(_SHAPES_JS)["panel"]
    assert len(panels) == 1, f"expected one object tagged {PANEL!r}; observed {len(panels)}"
    p = panels[0]
    assert p["isMesh"] and p["lo"] is not None, f"expected the {PANEL!r} to be a mesh with geometry"
    assert not p["ui"], f"expected the {PANEL!r} built from a three.js mesh; it is (part of) XR Blocks {p['ui']}"
    q, scale = p["quaternion"], p["scale"]
    axes = (_rotate(q, (1, 0, 0)), _rotate(q, (0, 1, 0)), _rotate(q, (0, 0, 1)))
    lo, hi = p["lo"], p["hi"]
    mid = [(lo[i] + hi[i]) / 2 * scale[i] for i in range(3)]
    centre = tuple(p["position"][i] + sum(mid[k] * axes[k][i] for k in range(3)) for i in range(3))
    size = tuple(abs(hi[i] - lo[i]) * abs(scale[i]) for i in range(3))
    return {"centre": centre, "axes": axes, "size": size}


def render_panel(xr, p: dict[str, Any]) -> np.ndarray:
    right, up, out = p["axes"]
    w, h = p["size"][0], p["size"][1]
    height = max(16, round(PICTURE_WIDTH * h / max(w, 1e-6)))
    face = tuple(p["centre"][i] + out[i] * p["size"][2] / 2 for i in range(3))
    return xr.picture(face, right, up, (w, h), (PICTURE_WIDTH, height), distance=0.3).astype(int)


def differing(a: np.ndarray, b: np.ndarray) -> int:
    return int((np.abs(a - b).max(axis=2) > 48).sum())


def picture(xr) -> np.ndarray:
    """The panel's front once its look has settled (text laid out off the main thread may take a
    moment of real time): rendered again until two pictures agree (a few tries at most)."""
    p = panel_part(xr)
    shot = render_panel(xr, p)
    for _ in range(4):
        time.sleep(0.05)
        again = render_panel(xr, p)
        if differing(shot, again) <= SAME:
            return again
        shot = again
    return shot


def assert_new_number(before: np.ndarray, after: np.ndarray, when: str) -> None:
    __tracebackhide__ = True
    n = differing(before, after)
    assert n >= CHANGED, (
        f"{when}: expected the panel to show a different number; it looks the same ({n} pixels differ, "
        f"at least {CHANGED} expected)"
    )


def assert_same_number(before: np.ndarray, after: np.ndarray, when: str) -> None:
    __tracebackhide__ = True
    n = differing(before, after)
    assert n <= SAME, f"{when}: expected the panel to show the same number as before; {n} pixels changed"


# --- hands ---------------------------------------------------------------------------------------


def move_tip(xr, role: str, goal: Sequence[float]) -> None:
    """Put `role`'s fingertip at `goal` in one frame (the goal is a few millimetres away)."""
    xr.hand(role).move_hand(tuple(goal), anchor="fingertip", speed=6.0)


def travel(xr, role: str, goal: Sequence[float], step: float = 0.02) -> None:
    """Move `role`'s fingertip to `goal` about `step` metres a frame (away from balloons)."""
    hand = xr.hand(role)
    start = hand.fingertip
    n = max(1, math.ceil(math.dist(start, goal) / step))
    for i in range(1, n + 1):
        t = i / n
        hand.move_hand(tuple(start[j] + (goal[j] - start[j]) * t for j in range(3)), anchor="fingertip", speed=6.0)


def side_lane(xr, role: str) -> int:
    """The balloon on `role`'s side that the test pokes (4 on the right, 2 on the left)."""
    return 4 if xr.handedness(role) == "right" else 2


def assert_tip_clear(w: Watch, hand: str, when: str) -> None:
    """The fingertip is well outside every shown balloon (no accidental touch)."""
    __tracebackhide__ = True
    tip = w.tip(hand)
    for k in LANES:
        c = w.centre(k)
        if c is not None:
            d = math.dist(tip, c)
            assert d > RADIUS + 0.015, f"{when}: test set-up: the {hand} fingertip is {d:.3f} m from balloon-{k}"


def assert_sounds(xr, since: int, frame: int, when: str, *, at_least: int = 1) -> None:
    """At least `at_least` sounds start on `frame` or the next, and every sound that starts in the
    half second after `frame` has ended half a second after it (nothing later)."""
    __tracebackhide__ = True
    dt = xr.dt_ms / 1000.0
    log = xr.audio()[since:]
    soon = [e for e in log if frame <= e["frame"] <= frame + 1 and (e["start_delay"] or 0.0) < 0.02]
    assert len(soon) >= at_least, (
        f"{when}: expected {at_least} pop sound(s) to start on frame {frame} or the next; observed starts "
        f"{[(e['frame'], e['kind']) for e in log]}"
    )
    for e in log:
        begins = (e["frame"] - frame) * dt + (e["start_delay"] or 0.0)
        assert begins <= SOUND_WINDOW + 1e-6, (
            f"{when}: expected no sound after the pop's own (within half a second); a {e['kind']} starts "
            f"{begins:.2f} s after the pop"
        )
        ends = []
        if e["duration"] is not None:
            ends.append(e["duration"])
        if e["stop_frame"] is not None:
            ends.append((e["stop_frame"] - e["frame"]) * dt + (e["stop_delay"] or 0.0))
        assert ends, f"{when}: expected the pop sound to stop within half a second; a {e['kind']} never stops"
        end = begins + min(ends)
        assert end <= SOUND_WINDOW + dt + 1e-6, (
            f"{when}: expected the pop sound to stop within half a second; it plays until {end:.2f} s after the pop"
        )


# --- tests ---------------------------------------------------------------------------------------


def test_balloons_rise_and_start_again_at_the_top(xr):
    xr.settle()
    w = Watch(xr)
    shapes = xr.probe(_SHAPES_JS)
    assert shapes["cylinders"] == 0, "expected the starting app's cylinder to be removed; a cylinder mesh is shown"
    elapsed = w.last["frame"] / FPS
    for k, start in STARTS.items():
        got = shapes["balloons"].get(str(k), [])
        assert len(got) == 1, f"expected one shown balloon-{k} at the start; observed {len(got)}"
        b = got[0]
        assert b["n"] >= 20, f"expected balloon-{k} to be a sphere; its mesh has {b['n']} vertices"
        assert abs(b["rmin"] - RADIUS) <= SIZE_TOL and abs(b["rmax"] - RADIUS) <= SIZE_TOL, (
            f"expected balloon-{k} to be a sphere of radius {RADIUS} m (within {SIZE_TOL}); its vertices lie "
            f"{b['rmin']:.3f}-{b['rmax']:.3f} m from its centre"
        )
        c = b["centre"]
        assert math.dist((c[0], c[2]), (start[0], start[2])) <= POS_TOL and (
            start[1] - POS_TOL <= c[1] <= start[1] + SPEED * elapsed + POS_TOL
        ), f"expected balloon-{k} to start at {_fmt(start)} ({elapsed:.2f} s after the app began); observed {_fmt(c)}"
    p = panel_part(xr)
    assert math.dist(p["centre"], PANEL_CENTRE) <= 0.03, (
        f"expected the panel centred at {_fmt(PANEL_CENTRE)} (within 3 cm); observed {_fmt(p['centre'])}"
    )
    w_, h_, d_ = p["size"]
    assert abs(w_ - PANEL_SIZE[0]) <= 0.02 and abs(h_ - PANEL_SIZE[1]) <= 0.02 and d_ <= 0.05, (
        f"expected the panel 0.4 x 0.2 m and at most 5 cm thick; observed {w_:.3f} x {h_:.3f} x {d_:.3f} m"
    )
    head = xr.camera_pose().position
    to_head = tuple(head[i] - p["centre"][i] for i in range(3))
    a = _angle(p["axes"][2], to_head)
    assert a <= 20, f"expected the panel's front (+Z) turned towards the user within 20 degrees; it is off by {a:.0f}"
    assert_popped(w, 0, "at the start")
    zero = picture(xr)
    sounds = len(xr.audio())

    # Eleven seconds with the hands at rest: every balloon reaches the top at least once.
    restarts = dict.fromkeys(LANES, 0)
    for _ in range(660):
        prev = w.last
        w.step(1)
        for k in LANES:
            before, now = w.centre(k, prev), w.centre(k)
            assert now is not None, f"frame {w.last['frame']}: balloon-{k} is not shown (nothing popped it)"
            assert now[1] <= TOP + 0.001, f"frame {w.last['frame']}: balloon-{k} shows above {TOP} m, at {_fmt(now)}"
            start = STARTS[k]
            assert math.dist((now[0], now[2]), (start[0], start[2])) <= 0.002, (
                f"frame {w.last['frame']}: expected balloon-{k} to rise straight up from {_fmt(start)}; "
                f"it is at {_fmt(now)}"
            )
            rise = now[1] - before[1]
            if rise < 0:  # started again
                restarts[k] += 1
                assert before[1] >= TOP - RISE - 0.002, (
                    f"frame {w.last['frame']}: balloon-{k} went back to its start from {before[1]:.3f} m, before "
                    f"reaching {TOP} m"
                )
                assert start[1] - 0.002 <= now[1] <= start[1] + RISE + 0.005, (
                    f"frame {w.last['frame']}: expected a new balloon-{k} at its start {_fmt(start)} on the frame the "
                    f"last one reached the top; observed {_fmt(now)}"
                )
            else:
                assert abs(rise - RISE) <= 0.05 * RISE, (
                    f"frame {w.last['frame']}: expected balloon-{k} to rise {SPEED} m/s (within 5 %); it rose "
                    f"{rise * FPS:.3f} m/s"
                )
        assert_popped(w, 0, f"frame {w.last['frame']}, with no balloon popped")
    for k in LANES:
        assert restarts[k] >= 1, f"expected balloon-{k} to reach the top and start again within eleven seconds"
    found = xr.audio()[sounds:]
    assert not found, f"expected no sound while balloons only reached the top; observed {len(found)} sound(s)"
    assert_same_number(zero, picture(xr), "after balloons reached the top (nothing popped)")
    assert_no_errors(xr)


def poke(xr, w: Watch, role: str, k: int, count: int, before_pic: np.ndarray) -> np.ndarray:
    """Hover `role`'s fingertip 2 cm in front of balloon `k` for a second (nothing pops), push it in
    4 mm a frame and check the pop, its sound, the count and the comeback two seconds later."""
    __tracebackhide__ = True
    hand = xr.handedness(role)
    what = f"the {role} ({hand}) hand's poke of balloon-{k}"
    # Wait until the balloon is low enough to stay below the top for the whole poke (3.5 s).
    while True:
        c = w.centre(k)
        assert c is not None, f"before {what}: balloon-{k} is not shown"
        if c[1] + 0.45 < TOP and c[1] > STARTS[k][1] + 0.01:
            break
        w.step(10)
    lead = 20 * RISE
    travel(xr, role, (c[0], c[1] + lead + 0.15, c[2] + RADIUS + 0.15))
    w.read()
    c = w.centre(k)
    travel(xr, role, (c[0], c[1] + RISE * 4, c[2] + RADIUS + HOVER + 0.005), step=0.01)
    w.read()
    assert_popped(w, count, f"before {what}")
    sounds = len(xr.audio())
    # Hover 2 cm (and a bit) in front of the surface, following the balloon up, for a second.
    for _ in range(60):
        c = w.centre(k)
        assert c is not None, f"{what}: balloon-{k} popped while the fingertip hovered 2 cm in front of it"
        move_tip(xr, role, (c[0], c[1] + RISE, c[2] + RADIUS + HOVER + 0.001))
        w.read()
        assert w.centre(k) is not None, f"{what}: balloon-{k} popped while the fingertip hovered 2 cm in front of it"
    assert_popped(w, count, f"{what}, hovering 2 cm in front")
    found = xr.audio()[sounds:]
    assert not found, f"{what}: expected no sound while the fingertip hovered; observed {len(found)}"
    # Push in along -Z, 4 mm a frame, at the balloon's height.
    last_c = w.centre(k)
    touched = None
    pop = None
    for _ in range(40):
        prev_c = last_c
        tip_prev = w.tip(hand)
        move_tip(xr, role, (prev_c[0], prev_c[1] + RISE, tip_prev[2] - STEP))
        s = w.read()
        now = w.centre(k)
        tip = w.tip(hand)
        predicted = now if now is not None else (prev_c[0], prev_c[1] + RISE, prev_c[2])
        inside = math.dist(tip, predicted) < RADIUS
        if touched is None and inside:
            touched = s["frame"]
        if now is None:
            pop = s["frame"]
            near = min(math.dist(tip, predicted), math.dist(tip, prev_c))
            assert near < RADIUS + EARLY, (
                f"{what}: balloon-{k} popped on frame {pop} while the fingertip was {near - RADIUS:.3f} m outside it"
            )
            break
        assert touched is None or s["frame"] <= touched + 1, (
            f"{what}: expected balloon-{k} to pop on the frame the fingertip came inside it (frame {touched}); "
            f"on frame {s['frame']} it is still shown"
        )
        last_c = now
    assert pop is not None, f"{what}: balloon-{k} never popped while the fingertip pushed 16 cm into it"
    for j in LANES:
        if j != k:
            assert w.centre(j) is not None, f"{what}: balloon-{j} disappeared too (only the touched one pops)"
    # Hold the fingertip where the balloon was; the balloon stays away for two seconds.
    back = None
    for _ in range(RESPAWN + RESPAWN_TOL + 2):
        w.step(1)
        if w.last["frame"] == pop + SHOW - 1:
            assert_popped(w, count + 1, f"half a second after {what}")
            shown = picture(xr)
            assert_new_number(before_pic, shown, f"half a second after {what} (count {count} -> {count + 1})")
        c = w.centre(k)
        if c is not None:
            back = w.last["frame"]
            break
    assert back is not None, f"{what}: expected a new balloon-{k} two seconds after the pop; none came in 2.1 s"
    assert abs(back - pop - RESPAWN) <= RESPAWN_TOL, (
        f"{what}: expected a new balloon-{k} two seconds after the pop (within 0.1 s); it came after "
        f"{(back - pop) / FPS:.2f} s"
    )
    start = STARTS[k]
    assert math.dist(c, start) <= POS_TOL + RISE, (
        f"{what}: expected the new balloon-{k} at its start {_fmt(start)}; observed {_fmt(c)}"
    )
    assert_popped(w, count + 1, f"after {what}")
    assert_sounds(xr, sounds, pop, what)
    w.step(10)
    c2 = w.centre(k)
    assert c2 is not None and abs((c2[1] - c[1]) - 10 * RISE) <= 0.002, (
        f"{what}: expected the new balloon-{k} to rise {SPEED} m/s from its start; observed {c} then {c2}"
    )
    after = picture(xr)
    assert_same_number(shown, after, f"two seconds after {what} (no new pop)")
    tip = xr.hand(role).fingertip
    travel(xr, role, (tip[0], tip[1], tip[2] + 0.2))
    xr.hand(role).rest()
    w.read()
    return after


def test_a_fingertip_poke_pops_the_balloon(xr):
    xr.settle()
    w = Watch(xr)
    pic = picture(xr)
    for count, role in enumerate(("dominant", "non_dominant")):
        pic = poke(xr, w, role, side_lane(xr, role), count, pic)
    assert_popped(w, 2, "after both hands' pokes")
    assert_no_errors(xr)


def test_pinching_at_a_balloon_from_afar_pops_nothing(xr):
    xr.settle()
    w = Watch(xr)
    pic = picture(xr)
    sounds = len(xr.audio())
    for role in ("dominant", "non_dominant"):
        hand = xr.hand(role)
        k = side_lane(xr, role)
        for _ in range(2):
            c = w.centre(k)
            hand.point_to((c[0], c[1] + 10 * RISE, c[2]))
            w.read()
            assert_tip_clear(w, xr.handedness(role), "pinching from afar")
            hand.start_select(1)
            w.step(20)
            hand.end_select(1)
            w.step(10)
            w.assert_all_shown(f"after the {role} hand pinched while pointing at balloon-{k}")
    assert_popped(w, 0, "after pinches from afar")
    found = xr.audio()[sounds:]
    assert not found, f"expected no sound from pinches from afar; observed {len(found)}"
    assert_same_number(pic, picture(xr), "after pinches from afar")
    assert_no_errors(xr)


def test_both_hands_pop_balloons_on_the_same_frame(xr):
    xr.settle()
    w = Watch(xr)
    pic = picture(xr)
    # Balloons 2 and 4 rise 0.1 m apart; wait until both have a good way to the top.
    while True:
        c2, c4 = w.centre(2), w.centre(4)
        if c2[1] + 0.5 < TOP and c4[1] + 0.5 < TOP and c2[1] > STARTS[2][1] and c4[1] > STARTS[4][1]:
            break
        w.step(10)
    hands = {xr.handedness(r): r for r in ("dominant", "non_dominant")}
    lanes = {"left": 2, "right": 4}
    target = w.last["frame"] + 90  # both touches happen on this frame
    for hand in ("left", "right"):
        k = lanes[hand]
        c = w.centre(k)
        # Where the balloon's top will be just past the fingertip on the target frame.
        y = c[1] + (target - w.last["frame"]) * RISE + RADIUS - RISE / 2
        travel(xr, hands[hand], (c[0], y + 0.1, c[2] + 0.15))
        travel(xr, hands[hand], (c[0], y, c[2] + 0.15), step=0.01)
        travel(xr, hands[hand], (c[0], y, c[2]), step=0.01)
        w.read()
    assert w.last["frame"] < target - 5, "test set-up: the hands took too long to get in place"
    for hand in ("left", "right"):
        tip, c = w.tip(hand), w.centre(lanes[hand])
        f = w.last["frame"]
        while math.dist(tip, (c[0], c[1] + (f - w.last["frame"]) * RISE, c[2])) >= RADIUS:
            f += 1
        assert f == target, f"test set-up: the {hand} fingertip would be touched on frame {f}, not {target}"
    count, sounds = w.popped(), len(xr.audio())
    assert count == 0, f"before the touches: expected state.popped 0; observed {count!r}"
    while w.last["frame"] < target - 1:
        w.step(1)
        for hand in ("left", "right"):
            assert w.centre(lanes[hand]) is not None, (
                f"balloon-{lanes[hand]} popped on frame {w.last['frame']}, before it reached the still {hand} fingertip"
            )
    gone: dict[str, int] = {}
    while w.last["frame"] < target + 1:
        w.step(1)
        for hand in ("left", "right"):
            if hand not in gone and w.centre(lanes[hand]) is None:
                gone[hand] = w.last["frame"]
    for hand in ("left", "right"):
        k = lanes[hand]
        assert hand in gone, (
            f"expected balloon-{k} to pop when it rose into the still {hand} fingertip (frame {target}); it is still "
            "shown a frame later"
        )
    assert gone["left"] == gone["right"], (
        f"expected both balloons, touched on the same frame, to pop on the same frame; balloon-2 popped on frame "
        f"{gone['left']}, balloon-4 on frame {gone['right']}"
    )
    pop = gone["left"]
    for j in (1, 3, 5):
        assert w.centre(j) is not None, f"balloon-{j} disappeared too (only the touched ones pop)"
    while w.last["frame"] < pop + SHOW - 1:
        w.step(1)
    assert_popped(w, 2, "half a second after both hands' touches on the same frame")
    assert_new_number(pic, picture(xr), "half a second after both hands' pops (count 0 -> 2)")
    assert_sounds(xr, sounds, pop, "the two pops on the same frame", at_least=2)
    assert_no_errors(xr)
