"""Runtime tests of the counter panel.

They check that
- the panel tagged 'counter-panel' is a mesh 0.4 x 0.3 m (within 0.06 / 0.05 m) along its local x
  and y axes, its centre at most 0.1 m to the side of the user's starting line of sight, 0.6-1.0 m
  ahead and within 0.2 m of eye height (each within 2 cm), upright (its local y within 15 degrees of
  up) and facing the user (its local +Z within 20 degrees of the direction to the head); the "+1"
  button tagged 'plus-button' is a mesh 0.1-0.15 m wide and at least 0.06 m high measured in the
  panel's plane, inside the panel's outline and on its front; the counter starts at 0; the
  cylinder is gone and neither tagged object is (part of) an XR Blocks UICard / UIPanel / UIButton;
- every selection of the button adds exactly one, and the panel shows it: eleven selections taking
  turns between both hands and both controllers; at counts 0-3 and 9-11 (half a second after the
  selection) the panel looks different from how it looked at every other of those counts, outside
  the button's area (a display that lags a count behind, or shows only the last digit, does not);
- either hand and either controller select the button anywhere on it: aimed off its centre (to
  the sides, above and below, 0.6 of the way to its edge), also while the user crouches and looks
  at it;
- one selection counts once: a pinch held five seconds, a trigger held three seconds and a quick
  two-frame pinch each add one;
- the hands count separately: both hands (and both controllers) selecting in the same frame add
  two, a selection made while the other hand holds its own on the button (or holds a pinch aimed
  away from it) counts too;
- only selections of the button count: pointing at it for three seconds with either hand (open,
  relaxed or pointing, sweeping on and off it), selecting the panel 4 cm beside the button and at
  its far corner, and selecting 0.15 m beside the panel (to its right, below it), with hands and
  controllers, while the other hand's ray rests on the button, leave the count, and the picture of
  the panel, as they were.

What the panel shows is read from pixels, not from its state: the app's scene is rendered off
screen by a camera in front of the panel (both hands lowered, their rays on the floor, about half
a second after the last selection was released), and the button's area is left out of the
comparison (it may light up when pressed). `state.count` is checked against the number of selections made.
Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import base64
import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.session import rotate

pytestmark = pytest.mark.xr_scenes("empty")

PANEL, BUTTON = "counter-panel", "plus-button"
PANEL_SIZE = (0.4, 0.3)
PANEL_TOL = (0.06, 0.05)  # stated sizes, checked to within 15 % / 17 %
BUTTON_WIDTH = (0.1, 0.15)
BUTTON_MIN_HEIGHT = 0.06
SIZE_SLACK = 0.01
SIDE_MAX = 0.1  # metres the panel's centre may be to the side of the starting line of sight
DISTANCE = (0.6, 1.0)
HEIGHT_MAX = 0.2  # metres from eye height
PLACE_SLACK = 0.02
UPRIGHT_MAX = 15.0  # degrees
FACING_MAX = 20.0  # degrees
HOLD = 6  # frames a click holds the pinch (and waits after releasing it)
PICTURE = (512, 256)  # width, height of the off-screen pictures of the panel, in pixels
SETTLE = 18  # frames for a brief press or hover effect to fade before a picture (after the rays
# turn away, about half a second after the release of the selection)
LOWER_SPEED = 720.0  # degrees/s the rays turn down to the floor before a picture
CHANGED = 16  # pixels that must differ between pictures of two different counts
SAME = 8  # pixels that may always differ between two pictures of the same count
BESIDE_BUTTON = 0.04  # metres from the button's edge, on the panel
BESIDE_PANEL = 0.15  # metres from the panel's edge
PICTURED = (1, 2, 3, 9, 10, 11)  # counts the panel is pictured at (and 0), one and two digits

Vec = tuple[float, float, float]

# The panel and the button as built: whether each tagged object is a mesh, the panel's own geometry
# box in its local frame (scaled to metres), its world pose, the button's vertices' box in the
# panel's frame (metres; x along the panel's width, y its height, z out of its front), XR Blocks UI
# objects in the scene, and visible meshes outside the tagged objects.
_BUILD_JS = """
(h, {panel: panelTag, button: buttonTag}) => {
  const THREE = h.THREE, xb = h.xb;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const systems = h.core.xrSystemsGroup;
  const shown = (o) => { for (let p = o; p; p = p.parent) if (!p.visible || p === systems) return false; return true; };
  const tagged = {};
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (d && !tagged[String(d.tag)]) tagged[String(d.tag)] = o;
  });
  const panel = tagged[panelTag], button = tagged[buttonTag];
  const out = {panel: null, button: null, ui: [], meshes: []};
  const uiClasses = ['UICard', 'UIPanel', 'UIButton', 'UIText'].filter((n) => typeof xb[n] === 'function');
  const inside = (o, root) => { for (let p = o; p; p = p.parent) if (p === root) return true; return false; };
  // XR Blocks UI classes the tagged objects are, or are part of.
  for (const o of [panel, button]) {
    for (let p = o; p; p = p.parent) for (const n of uiClasses) if (p instanceof xb[n]) out.ui.push(n);
  }
  scene.traverse((o) => {
    if (o.isMesh && shown(o) && !(panel && inside(o, panel)) && !(button && inside(o, button))) {
      out.meshes.push({name: o.name || '', geometry: (o.geometry && o.geometry.type) || ''});
    }
  });
  if (panel) {
    const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
    panel.matrixWorld.decompose(p, q, s);
    const g = panel.geometry;
    let lo = [0, 0, 0], hi = [0, 0, 0];
    if (g && g.attributes && g.attributes.position) {
      const box = new THREE.Box3().setFromBufferAttribute(g.attributes.position);
      lo = [box.min.x * s.x, box.min.y * s.y, box.min.z * s.z];
      hi = [box.max.x * s.x, box.max.y * s.y, box.max.z * s.z];
    }
    out.panel = {isMesh: !!panel.isMesh, type: panel.type, position: p.toArray(), quaternion: q.toArray(), lo, hi};
    if (button) {
      // The panel's frame, unscaled: world -> (x along its width, y its height, z out of its front).
      const frame = new THREE.Matrix4().compose(p, q, new THREE.Vector3(1, 1, 1)).invert();
      const box = new THREE.Box3();
      const v = new THREE.Vector3();
      button.traverse((o) => {
        const pos = o.geometry && o.geometry.attributes && o.geometry.attributes.position;
        if (!pos || !o.isMesh) return;
        for (let i = 0; i < pos.count; i++) {
          box.expandByPoint(v.fromBufferAttribute(pos, i).applyMatrix4(o.matrixWorld).applyMatrix4(frame));
        }
      });
      out.button = {isMesh: !!button.isMesh, type: button.type,
                    lo: box.isEmpty() ? null : box.min.toArray(), hi: box.isEmpty() ? null : box.max.toArray()};
    }
  }
  return out;
}
"""

# A probe that renders the app's scene off screen with a camera that frames the world box `box`
# from the side of the user's head; it returns RGBA rows from the bottom up (base64) and the pixel
# rectangles [x0, y0, x1, y1] (from the bottom left) that the world boxes in `masks` cover.
_PICTURE_JS = """
(h, {box, masks, width, height}) => {
  const THREE = h.THREE, core = h.core, renderer = core.renderer;
  if (!(renderer instanceof THREE.WebGLRenderer)) throw new Error('xb.core.renderer is not a WebGLRenderer');
  h.guard(core.scene, 'xb.core.scene');
  h.guard(core.camera, 'xb.core.camera');
  core.scene.updateMatrixWorld(true);
  const lo = new THREE.Vector3(...box[0]), hi = new THREE.Vector3(...box[1]);
  const centre = lo.clone().add(hi).multiplyScalar(0.5), size = hi.clone().sub(lo);
  const towardsHead = core.camera.getWorldPosition(new THREE.Vector3()).sub(centre).normalize();
  const fov = 40;
  const fit = Math.max(size.y, Math.hypot(size.x, size.z) * height / width);
  const camera = new THREE.PerspectiveCamera(fov, width / height, 0.01, 20);
  camera.position.copy(centre).addScaledVector(towardsHead, 0.6 * fit / Math.tan(THREE.MathUtils.degToRad(fov / 2)));
  camera.lookAt(centre);
  camera.layers.mask = core.camera.layers.mask;
  camera.updateMatrixWorld(true);
  const rects = masks.map(([a, b]) => {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const x of [a[0], b[0]]) for (const y of [a[1], b[1]]) for (const z of [a[2], b[2]]) {
      const v = new THREE.Vector3(x, y, z).project(camera);
      const px = (v.x + 1) / 2 * width, py = (v.y + 1) / 2 * height;
      x0 = Math.min(x0, px); x1 = Math.max(x1, px); y0 = Math.min(y0, py); y1 = Math.max(y1, py);
    }
    return [x0, y0, x1, y1];
  });
  const target = new THREE.WebGLRenderTarget(width, height);
  const previous = renderer.getRenderTarget();
  const xrEnabled = renderer.xr.enabled;
  const pixels = new Uint8Array(width * height * 4);
  try {
    renderer.xr.enabled = false;
    renderer.setRenderTarget(target);
    renderer.clear();
    renderer.render(core.scene, camera);
    renderer.readRenderTargetPixels(target, 0, 0, width, height, pixels);
  } finally {
    renderer.setRenderTarget(previous);
    renderer.xr.enabled = xrEnabled;
    target.dispose();
  }
  let text = '';
  for (let i = 0; i < pixels.length; i += 0x8000) {
    text += String.fromCharCode.apply(null, pixels.subarray(i, i + 0x8000));
  }
  return {pixels: btoa(text), rects};
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _angle(u: Sequence[float], v: Sequence[float]) -> float:
    nu, nv = math.sqrt(sum(x * x for x in u)), math.sqrt(sum(x * x for x in v))
    if nu < 1e-9 or nv < 1e-9:
        return 180.0
    return math.degrees(math.acos(max(-1.0, min(1.0, sum(a * b for a, b in zip(u, v, strict=True)) / (nu * nv)))))


@dataclass
class Build:
    """The panel's frame (centre, axes) and sizes, and the button's box in that frame."""

    centre: Vec  # the panel's geometric centre, world
    axes: tuple[Vec, Vec, Vec]  # world directions of the panel's local x, y, z
    size: tuple[float, float]  # width, height (metres)
    face: float  # the panel's front surface, local z (metres)
    button_lo: Vec
    button_hi: Vec
    raw: dict

    def world(self, x: float, y: float, z: float) -> Vec:
        ax, ay, az = self.axes
        return tuple(self.centre[i] + x * ax[i] + y * ay[i] + z * az[i] for i in range(3))  # type: ignore[return-value]

    def local(self, p: Sequence[float]) -> Vec:
        d = [p[i] - self.centre[i] for i in range(3)]
        return tuple(sum(d[i] * a[i] for i in range(3)) for a in self.axes)  # type: ignore[return-value]

    @property
    def button_centre(self) -> Vec:
        return tuple((self.button_lo[i] + self.button_hi[i]) / 2 for i in range(3))  # type: ignore[return-value]

    @property
    def button_size(self) -> Vec:
        return tuple(self.button_hi[i] - self.button_lo[i] for i in range(3))  # type: ignore[return-value]


def build(xr) -> Build:
    __tracebackhide__ = True
    raw = xr.probe(_BUILD_JS, {"panel": PANEL, "button": BUTTON})
    p, b = raw["panel"], raw["button"]
    assert p is not None, f"no object tagged {PANEL!r} in the scene"
    assert b is not None and b["lo"] is not None, f"no object tagged {BUTTON!r} with geometry in the scene"
    q = p["quaternion"]
    axes = (rotate(q, (1, 0, 0)), rotate(q, (0, 1, 0)), rotate(q, (0, 0, 1)))
    lo, hi = p["lo"], p["hi"]
    mid = [(lo[i] + hi[i]) / 2 for i in range(3)]
    centre = tuple(p["position"][i] + sum(mid[k] * axes[k][i] for k in range(3)) for i in range(3))
    # The button's box was measured from the panel's origin; make it relative to the panel's centre.
    blo = tuple(b["lo"][i] - mid[i] for i in range(3))
    bhi = tuple(b["hi"][i] - mid[i] for i in range(3))
    return Build(centre, axes, (hi[0] - lo[0], hi[1] - lo[1]), hi[2] - mid[2], blo, bhi, raw)  # type: ignore[arg-type]


def count_of(xr) -> int:
    __tracebackhide__ = True
    node = xr.find_by_tag(PANEL)
    state = node.state
    count = state.get("count") if isinstance(state, dict) else None
    assert isinstance(count, int) and not isinstance(count, bool), f"expected state.count, a number; observed {state!r}"
    return count


class Counter:
    def __init__(self, xr):
        self.xr = xr
        self.count = count_of(xr)
        assert self.count == 0, f"expected the counter to start at 0; observed state.count {self.count}"

    def expect(self, added: int | Sequence[int], what: str) -> int:
        __tracebackhide__ = True
        allowed = [added] if isinstance(added, int) else list(added)
        now = count_of(self.xr)
        got = now - self.count
        wanted = " or ".join(str(a) for a in allowed)
        assert got in allowed, f"expected {what} to add {wanted} to the counter (from {self.count}); observed {now}"
        self.count = now
        return got


def off_centre(half_width: float, half_height: float, r: float, angle: float) -> tuple[float, float]:
    """A point `r` of the way from a button's centre to its edge, towards `angle` degrees."""
    a = math.radians(angle)
    return (r * math.cos(a) * half_width, r * math.sin(a) * half_height)


def segment_hits_box(a: Sequence[float], b: Sequence[float], lo: Sequence[float], hi: Sequence[float]) -> bool:
    """Whether the segment a-b passes through the box lo-hi (slab test)."""
    t0, t1 = 0.0, 1.0
    for i in range(3):
        d = b[i] - a[i]
        if abs(d) < 1e-12:
            if a[i] < lo[i] or a[i] > hi[i]:
                return False
            continue
        u, v = (lo[i] - a[i]) / d, (hi[i] - a[i]) / d
        t0, t1 = max(t0, min(u, v)), min(t1, max(u, v))
        if t0 > t1:
            return False
    return True


def clear_of_button(xr, g: Build, role: str, point: Vec) -> bool:
    """Whether the hand's ray to `point` (a world point) passes clear of the button (5 mm margin)."""
    origin = g.local(xr.hand(role).position)
    lo = [v - 0.005 for v in g.button_lo]
    hi = [v + 0.005 for v in g.button_hi]
    return not segment_hits_box(origin, g.local(point), lo, hi)


@dataclass
class Picture:
    """What the panel shows: RGB pixels (rows from the bottom up) and the rectangles left out."""

    pixels: np.ndarray
    masked: list


def lower_hands(xr) -> None:
    """Both hands at rest, their rays on the floor: nothing on or near the panel is pointed at;
    then a moment for any press or hover effect to fade (about half a second in all after a
    click's release)."""
    for role in ("dominant", "non_dominant"):
        hand = xr.hand(role)
        hand.rest()
        x, _, z = hand.position
        hand.point_to((x, 0.0, z - 0.5), speed=LOWER_SPEED)
    xr.step(SETTLE)


def render_panel(xr) -> Picture:
    """The panel as drawn now, seen from in front of it, the button's area masked out."""
    panel, button = xr.find_by_tag(PANEL), xr.find_by_tag(BUTTON)
    assert panel.bbox is not None and button.bbox is not None, "the panel or its button has no geometry"
    width, height = PICTURE
    args = {
        "box": [list(panel.bbox[0]), list(panel.bbox[1])],
        "masks": [[list(button.bbox[0]), list(button.bbox[1])]],
        "width": width,
        "height": height,
    }
    got = xr.probe(_PICTURE_JS, args)
    rgba = np.frombuffer(base64.b64decode(got["pixels"]), dtype=np.uint8).reshape(height, width, 4)
    return Picture(rgba[:, :, :3].astype(int), got["rects"])


def picture(xr) -> Picture:
    """The panel once the hands are lowered and its look has settled: text that is laid out off
    the main thread (SDF text, for example) may take a moment of real time to show a new number,
    so this renders again until two pictures agree (a few tries at most)."""
    lower_hands(xr)
    shot = render_panel(xr)
    for _ in range(4):
        time.sleep(0.05)
        xr.step(2)
        again = render_panel(xr)
        if differing(shot, again) <= SAME:
            return again
        shot = again
    return shot


def differing(a: Picture, b: Picture) -> int:
    """Pixels that clearly differ (by over 48 in a colour channel), outside both pictures' masks."""
    diff = np.abs(a.pixels - b.pixels).max(axis=2) > 48
    height, width = diff.shape
    for x0, y0, x1, y1 in [*a.masked, *b.masked]:
        rows = slice(max(0, math.floor(y0) - 2), max(0, min(height, math.ceil(y1) + 3)))
        cols = slice(max(0, math.floor(x0) - 2), max(0, min(width, math.ceil(x1) + 3)))
        diff[rows, cols] = False
    return int(diff.sum())


def assert_shows_new_count(before: Picture, after: Picture, when: str) -> int:
    """The two pictures differ clearly outside the button; returns how many pixels differ."""
    __tracebackhide__ = True
    n = differing(before, after)
    assert n >= CHANGED, (
        f"{when}: expected the panel to show a different number; it looks the same "
        f"({n} of {PICTURE[0] * PICTURE[1]} pixels differ outside the button, at least {CHANGED} expected)"
    )
    return n


def test_the_panel_is_in_front_at_eye_height_faces_the_user_and_holds_the_button(xr):
    xr.step(2)
    g = build(xr)
    p, b = g.raw["panel"], g.raw["button"]
    assert p["isMesh"], f"expected the object tagged {PANEL!r} to be the panel's mesh; it is a {p['type']}"
    assert b["isMesh"], f"expected the object tagged {BUTTON!r} to be the button's mesh; it is a {b['type']}"
    assert not g.raw["ui"], (
        f"expected the panel and the button built from three.js meshes; they are (part of) XR Blocks {g.raw['ui']}"
    )
    cylinders = [m for m in g.raw["meshes"] if "Cylinder" in m["geometry"]]
    assert not cylinders, f"expected the cylinder replaced by the panel; observed visible cylinders {cylinders}"
    for k, (what, want, tol) in enumerate(zip(("width", "height"), PANEL_SIZE, PANEL_TOL, strict=True)):
        assert abs(g.size[k] - want) <= tol, (
            f"expected the panel {want} m in {what} (along its local {'xy'[k]}, within {tol} m); "
            f"observed {g.size[k]:.3f} m"
        )
    head = xr.head.pose.position
    side = g.centre[0] - head[0]
    ahead = head[2] - g.centre[2]
    rise = g.centre[1] - head[1]
    assert abs(side) <= SIDE_MAX + PLACE_SLACK, (
        f"expected the panel straight in front (its centre at most {SIDE_MAX} m to the side); observed {side:+.3f} m "
        f"(centre {_fmt(g.centre)})"
    )
    assert DISTANCE[0] - PLACE_SLACK <= ahead <= DISTANCE[1] + PLACE_SLACK, (
        f"expected the panel {DISTANCE[0]}-{DISTANCE[1]} m in front of the user; observed {ahead:.3f} m (centre "
        f"{_fmt(g.centre)})"
    )
    assert abs(rise) <= HEIGHT_MAX + PLACE_SLACK, (
        f"expected the panel's centre within {HEIGHT_MAX} m of eye height ({head[1]:.2f} m); observed {rise:+.3f} m"
    )
    tilt = _angle(g.axes[1], (0.0, 1.0, 0.0))
    assert tilt <= UPRIGHT_MAX, f"expected the panel upright (within {UPRIGHT_MAX} deg); it is tilted {tilt:.1f} deg"
    to_head = tuple(head[i] - g.centre[i] for i in range(3))
    facing = _angle(g.axes[2], to_head)
    assert facing <= FACING_MAX, (
        f"expected the panel's front (local +Z) turned towards the head within {FACING_MAX} deg; "
        f"observed {facing:.1f} deg"
    )
    bw, bh, _ = g.button_size
    assert BUTTON_WIDTH[0] - SIZE_SLACK <= bw <= BUTTON_WIDTH[1] + SIZE_SLACK, (
        f"expected the button {BUTTON_WIDTH[0]}-{BUTTON_WIDTH[1]} m wide (across the panel); observed {bw:.3f} m"
    )
    assert bh >= BUTTON_MIN_HEIGHT - SIZE_SLACK / 2, (
        f"expected the button at least {BUTTON_MIN_HEIGHT} m high (up the panel); observed {bh:.3f} m"
    )
    c = g.button_centre
    w, h = g.size
    assert abs(c[0]) <= w / 2 and abs(c[1]) <= h / 2, (
        f"expected the button on the panel; its centre is {c[0]:+.3f}, {c[1]:+.3f} m from the panel's centre, outside "
        f"its {w:.2f} x {h:.2f} m face"
    )
    assert g.face - 0.01 <= g.button_hi[2] <= g.face + 0.08 and g.button_lo[2] >= g.face - 0.05, (
        f"expected the button on the panel's front (at most 8 cm in front of its face, not behind it); it spans "
        f"{g.button_lo[2] - g.face:+.3f} to {g.button_hi[2] - g.face:+.3f} m from the face"
    )
    Counter(xr)
    assert_no_errors(xr)


def test_each_selection_of_the_button_adds_one_and_the_panel_shows_it(xr):
    xr.step(2)
    counter = Counter(xr)
    shown = {0: picture(xr)}
    actors = [
        ("dominant hand", lambda: xr.hand("dominant").click(BUTTON, hold_frames=HOLD)),
        ("non-dominant hand", lambda: xr.hand("non_dominant").click(BUTTON, hold_frames=HOLD)),
        ("dominant controller", lambda: xr.controller("dominant").select(BUTTON, hold_frames=HOLD)),
        ("non-dominant controller", lambda: xr.controller("non_dominant").select(BUTTON, hold_frames=HOLD)),
    ]
    for k in range(1, 12):
        name, select = actors[(k - 1) % len(actors)]
        select()
        counter.expect(1, f"selection {k} of the button (the {name})")
        if k in PICTURED:
            shown[k] = picture(xr)
        if k - 1 in shown and k in shown:
            assert_shows_new_count(shown[k - 1], shown[k], f"after selection {k} (count {k - 1} -> {k})")
    # Every count shown looks different from every other one.
    for a, b in itertools.combinations(shown, 2):
        assert_shows_new_count(shown[a], shown[b], f"at count {b} (compared with count {a})")
    assert_no_errors(xr)


def test_either_hand_or_controller_selects_the_button_anywhere_on_it(xr):
    xr.step(2)
    counter = Counter(xr)
    g = build(xr)
    lo, hi = g.button_lo, g.button_hi
    c = g.button_centre
    hw, hh = (hi[0] - lo[0]) / 2, (hi[1] - lo[1]) / 2
    # Off the centre to the right, left, top and bottom, at angles clear of the seams between a
    # flat face's triangles (a ray exactly on a seam may slip between them).
    spots = [off_centre(hw, hh, 0.6, angle) for angle in (13, 197, 77, 259)]
    for k, (dx, dy) in enumerate(spots):
        for role in ("dominant", "non_dominant")[:: 1 if k % 2 == 0 else -1]:
            point = g.world(c[0] + dx, c[1] + dy, hi[2])
            xr.hand(role).click(point, hold_frames=HOLD)
            counter.expect(1, f"a pinch of the {role} hand aimed off the button's centre, at {_fmt(point)}")
            xr.controller(role).select(point, hold_frames=HOLD)
            counter.expect(1, f"the {role} controller's trigger aimed off the button's centre, at {_fmt(point)}")
    # Crouching and looking at the button, off its centre.
    xr.head.move((0.0, -0.35, 0.0), speed=0.5)
    xr.head.look_at(BUTTON)
    for role in ("dominant", "non_dominant"):
        xr.hand(role).rest()
        dx, dy = off_centre(hw, hh, 0.5, 137)
        point = g.world(c[0] + dx, c[1] + dy, hi[2])
        xr.hand(role).click(point, hold_frames=HOLD)
        counter.expect(1, f"a pinch of the {role} hand while the user crouched and looked up, aimed at {_fmt(point)}")
    assert_no_errors(xr)


def test_one_selection_counts_once_however_long_it_is_held(xr):
    xr.step(2)
    counter = Counter(xr)
    hand = xr.hand("dominant")
    hand.point_to(BUTTON)
    hand.start_select(1)
    done = 0
    for second in range(5):  # held for five seconds: one count, at the press or at the release
        xr.wait(1000)
        done += counter.expect((0,) if done else (0, 1), f"a pinch held on the button for {second + 1} s")
    hand.end_select(HOLD)
    counter.expect(1 - done, "a pinch held on the button for five seconds, then released (one count in all)")
    other = xr.controller("non_dominant")
    other.point_to(BUTTON)
    other.start_select(1)
    xr.wait(3000)
    done = counter.expect((0, 1), "the non-dominant controller's trigger held on the button for three seconds")
    other.end_select(HOLD)
    counter.expect(
        1 - done, "the non-dominant controller's trigger held on the button for three seconds, then released"
    )
    hand.start_select(2)  # a quick pinch
    hand.end_select(HOLD)
    counter.expect(1, "a quick two-frame pinch")
    xr.wait(1000)
    counter.expect(0, "a second without selecting")
    assert_no_errors(xr)


def test_the_two_hands_selections_count_separately(xr):
    xr.step(2)
    counter = Counter(xr)
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    dom.point_to(BUTTON)
    non.point_to(BUTTON)
    non.start_select(0)  # both pinch in the same frame
    dom.start_select(HOLD)
    non.end_select(0)
    dom.end_select(HOLD)
    counter.expect(2, "both hands selecting the button in the same frame")
    non.start_select(HOLD)  # the other hand holds its selection on the button ...
    dom.click(hold_frames=HOLD)  # ... while the dominant one selects it
    non.end_select(HOLD)
    counter.expect(2, "a selection of the dominant hand while the non-dominant hand held its own on the button")
    dom.start_select(HOLD)
    non.click(hold_frames=HOLD)
    dom.end_select(HOLD)
    counter.expect(2, "a selection of the non-dominant hand while the dominant hand held its own on the button")
    g = build(xr)
    away = g.world(0.0, g.size[1] / 2 + BESIDE_PANEL + 0.1, g.face)  # above the panel
    non.point_to(away)  # a pinch held away from the button ...
    non.start_select(HOLD)
    dom.click(hold_frames=HOLD)  # ... does not stop the other hand's selection
    non.end_select(HOLD)
    counter.expect(1, "a selection of the dominant hand while the non-dominant hand held a pinch aimed above the panel")
    a, b = xr.controller("dominant"), xr.controller("non_dominant")
    a.point_to(BUTTON)
    b.point_to(BUTTON)
    b.start_select(0)
    a.start_select(HOLD)
    b.end_select(0)
    a.end_select(HOLD)
    counter.expect(2, "both controllers' triggers pressed on the button in the same frame")
    assert_no_errors(xr)


def test_only_selections_of_the_button_count(xr):
    xr.step(2)
    counter = Counter(xr)
    before = picture(xr)
    g = build(xr)
    lo, hi = g.button_lo, g.button_hi
    c = g.button_centre
    for role in ("dominant", "non_dominant"):  # hovering, however long
        hand = xr.hand(role)
        for pose in ("neutral", "pointing", "relaxed"):
            hand.set_pose(pose)
            hand.point_to(BUTTON)
            xr.wait(1000)
            counter.expect(0, f"pointing the {role} hand ({pose}) at the button without selecting it")
        hand.point_to(g.world(0.0, g.size[1] / 2 + 0.2, g.face))
        hand.point_to(g.world(c[0], c[1], hi[2]))
        hand.point_to(g.world(-g.size[0] / 2 - 0.2, c[1], g.face))
        hand.point_to(BUTTON)
        xr.wait(1000)
        counter.expect(
            0, f"sweeping the {role} hand's ray on and off the button and resting it there without selecting"
        )
        hand.point_forward()
    # Selections of the panel beside the button and at its far corner, and beside the panel, while
    # the other hand's ray rests on the button.
    w, h = g.size
    inset = 0.01
    beside_button = [
        (hi[0] + BESIDE_BUTTON, c[1]),
        (lo[0] - BESIDE_BUTTON, c[1]),
        (c[0], hi[1] + BESIDE_BUTTON),
        (c[0], lo[1] - BESIDE_BUTTON),
    ]
    beside_button = [(x, y) for x, y in beside_button if abs(x) <= w / 2 - inset and abs(y) <= h / 2 - inset]
    corners = [(sx * (w / 2 - 0.15 * w), sy * (h / 2 - 0.15 * h)) for sx in (-1, 1) for sy in (-1, 1)]
    far = max(corners, key=lambda p: math.dist(p, c[:2]))
    outside = [(w / 2 + BESIDE_PANEL, 0.0), (0.0, -h / 2 - BESIDE_PANEL)]
    for role, other in (("dominant", "non_dominant"), ("non_dominant", "dominant")):
        xr.hand(other).point_to(BUTTON)
        near = [g.world(x, y, g.face) for x, y in beside_button]
        near = [p for p in near if clear_of_button(xr, g, role, p)]
        near.sort(key=lambda p: math.dist(g.local(p), c))  # the spots nearest the button first
        assert near, "test geometry: no spot beside the button that a ray reaches without crossing it"
        spots = [("on the panel beside the button", p) for p in near[:2]]
        spots.append(("at the panel's far corner from the button", g.world(far[0], far[1], g.face)))
        spots += [("beside the panel", g.world(x, y, g.face)) for x, y in outside]
        for k, (what, point) in enumerate(spots):
            if k % 2 == 0:
                xr.hand(role).click(point, hold_frames=HOLD)
                counter.expect(0, f"a pinch of the {role} hand aimed {what}, at {_fmt(point)}")
            else:
                xr.controller(role).select(point, hold_frames=HOLD)
                counter.expect(0, f"the {role} controller's trigger aimed {what}, at {_fmt(point)}")
        xr.hand(other).point_forward()
    away = picture(xr)
    xr.hand("dominant").click(BUTTON, hold_frames=HOLD)
    counter.expect(1, "a selection of the button after the selections elsewhere")
    counted = assert_shows_new_count(before, picture(xr), "after a selection of the button (count 0 -> 1)")
    # The selections elsewhere left the panel showing 0: they changed far fewer pixels than the
    # count going from 0 to 1 did.
    n = differing(before, away)
    assert n <= max(SAME, counted // 4), (
        f"expected the panel to show the same number after selections away from the button; {n} of "
        f"{PICTURE[0] * PICTURE[1]} pixels outside the button changed (the selection of the button, count 0 -> 1, "
        f"changed {counted}; at most {max(SAME, counted // 4)} allowed)"
    )
    assert_no_errors(xr)
