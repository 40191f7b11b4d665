"""Runtime tests of the colour-cycling orb.

They check that
- the orb tagged 'color-orb' is a sphere 0.3 m across (within 0.05 m, its vertices all one radius
  from its centre) centred at (0, 1.5, -1.0) (within 0.05 m), that the cylinder is gone, and that
  the orb stays where it is while the user turns, walks, crouches and selects it, and while the
  colour cycles;
- the palette: the colours the orb shows as it is selected again and again, one selection at a
  time, come back to the first after three to eight steps, every step changes the colour, and any
  two palette colours differ by at least 64 in a colour channel; it starts with the first colour
  (state.index 0);
- it keeps cycling: two more rounds of the palette (and then some), selections taking turns
  between the hands, give the same colours in the same order, wrapping to the first after the last;
- the orb is drawn in its colour: rendered off screen from the user's eyes, its middle is lit (not
  black unless the colour is) and has the hue of the material's colour, for three palette colours;
- a selection is a pinch or a controller's trigger with the ray on the orb: either hand and either
  controller, aimed at the centre or 0.1 m off it (to the sides, above and below), also while the
  user crouches and looks up, each advance it by exactly one step;
- one selection is one step: a pinch held for five seconds, a trigger held for three and a quick
  two-frame pinch each advance it once (at the press or at the release);
- the hands count separately: both hands (and both controllers) selecting in the same frame
  advance it by two, a selection made while the other hand holds its own selection on the orb (or
  holds a pinch aimed away from it) counts too;
- only selecting the orb changes it: pointing at it for three seconds with either hand (open,
  pointing or relaxed, and sweeping on and off it) does not, nor do pinches and trigger presses
  aimed 0.3 m beside it (to the side, above, below) while the other hand's ray rests on the orb;
- `state.color` is the material colour as a lower-case '#rrggbb' string and `state.index` its
  palette position, every time they are read (an index always goes with the same colour).

The state is never taken on its own word: every reading compares it with the material colour the
harness reads from the scene, and each test first learns the palette from what the orb shows.
Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Sequence

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "color-orb"
CENTRE = (0.0, 1.5, -1.0)
CENTRE_TOL = 0.05
DIAMETER = 0.3
DIAMETER_TOL = 0.05  # a stated size, checked to within 17 %
STILL_TOL = 0.01  # metres the orb may move while the user moves and selects
MIN_COLOURS, MAX_COLOURS = 3, 8
CHANNEL_GAP = 64  # any two palette colours differ by this much in some channel
HOLD = 6  # frames a click holds the pinch (and waits after releasing it)
OFF_CENTRE = 0.1  # metres off the orb's centre a ray still hits it (its radius is 0.15 m)
BESIDE = 0.3  # metres from the orb's centre where a ray misses it
PICTURE = 96  # pixels, the side of the off-screen picture of the orb

Vec = tuple[float, float, float]

# How far the world-space vertices of the object tagged `tag` lie from the centre of their box (a
# sphere's all lie at one radius), and how many distinct vertices it has.
_SHAPE_JS = """
(h, tag) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  let root = null;
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!root && d && String(d.tag) === tag) root = o;
  });
  if (!root) return null;
  const points = [];
  const v = new THREE.Vector3();
  root.traverse((o) => {
    const g = o.geometry;
    const pos = g && g.attributes && g.attributes.position;
    if (!pos || o.isInstancedMesh) return;
    for (let i = 0; i < pos.count; i++) points.push(v.fromBufferAttribute(pos, i).applyMatrix4(o.matrixWorld).clone());
  });
  if (!points.length) return {distinct: 0, rmin: 0, rmax: 0};
  const c = new THREE.Box3().setFromPoints(points).getCenter(new THREE.Vector3());
  let rmin = Infinity, rmax = 0;
  const distinct = new Set();
  for (const p of points) {
    const r = p.distanceTo(c);
    rmin = Math.min(rmin, r);
    rmax = Math.max(rmax, r);
    distinct.add([p.x, p.y, p.z].map((x) => Math.round(x * 1e4)).join(','));
  }
  return {distinct: distinct.size, rmin, rmax};
}
"""

# The app's scene rendered off screen (linear RGBA rows from the bottom up, base64) by a camera at
# the user's eyes looking at the centre of the object tagged `tag`, with where its centre and its
# radius fall in the picture (pixels).
_PICTURE_JS = """
(h, {tag, size}) => {
  const THREE = h.THREE, core = h.core, renderer = core.renderer;
  if (!(renderer instanceof THREE.WebGLRenderer)) throw new Error('xb.core.renderer is not a WebGLRenderer');
  h.guard(core.scene, 'the scene');
  h.guard(core.camera, 'the camera');
  core.scene.updateMatrixWorld(true);
  let target = null;
  core.scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!target && d && String(d.tag) === tag) target = o;
  });
  if (!target) return null;
  const box = new THREE.Box3().setFromObject(target);
  const centre = box.getCenter(new THREE.Vector3());
  const radius = Math.min(...box.getSize(new THREE.Vector3()).toArray()) / 2;
  const camera = new THREE.PerspectiveCamera(30, 1, 0.01, 20);
  camera.position.copy(core.camera.getWorldPosition(new THREE.Vector3()));
  camera.lookAt(centre);
  camera.layers.mask = core.camera.layers.mask;
  camera.updateMatrixWorld(true);
  const c = centre.clone().project(camera);
  const side = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 0).multiplyScalar(radius);
  const edge = centre.clone().add(side).project(camera);
  const rt = new THREE.WebGLRenderTarget(size, size);
  const previous = renderer.getRenderTarget(), xrEnabled = renderer.xr.enabled;
  const pixels = new Uint8Array(size * size * 4);
  try {
    renderer.xr.enabled = false;
    renderer.setRenderTarget(rt);
    renderer.clear();
    renderer.render(core.scene, camera);
    renderer.readRenderTargetPixels(rt, 0, 0, size, size, pixels);
  } finally {
    renderer.setRenderTarget(previous);
    renderer.xr.enabled = xrEnabled;
    rt.dispose();
  }
  let text = '';
  for (let i = 0; i < pixels.length; i += 0x8000) {
    text += String.fromCharCode.apply(null, pixels.subarray(i, i + 0x8000));
  }
  const at = [(c.x + 1) / 2 * size, (c.y + 1) / 2 * size];
  return {pixels: btoa(text), centre: at, radius: Math.abs(edge.x - c.x) / 2 * size};
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def channel_gap(a: str, b: str) -> int:
    return max(abs(x - y) for x, y in zip(rgb(a), rgb(b), strict=True))


def side_of(xr, role: str) -> float:
    return 1.0 if xr.handedness(role) == "right" else -1.0


def orb_node(xr):
    __tracebackhide__ = True
    nodes = [n for n in xr.tagged(TAG) if n.root == "scene"]
    assert len(nodes) == 1, f"expected exactly one object tagged {TAG!r} in the scene; observed {len(nodes)}"
    return nodes[0]


def centre_of(node) -> Vec:
    lo, hi = node.bbox or (node.position, node.position)
    return tuple((lo[i] + hi[i]) / 2 for i in range(3))


class Orb:
    """What the orb shows, read through the harness; learns the palette from what it shows."""

    def __init__(self, xr):
        self.xr = xr
        self.by_index: dict[int, str] = {}  # every state.index seen, with the colour it went with
        self.palette: list[str] = []
        self.at = 0  # the palette position the orb should be at now

    def read(self) -> tuple[int, str]:
        """(state.index, material colour) now; the state must agree with the material."""
        __tracebackhide__ = True
        node = orb_node(self.xr)
        state = node.state
        assert isinstance(state, dict), f"'{TAG}' has no state object: {state!r}"
        assert node.color is not None, f"'{TAG}' has no material colour (tag the orb's mesh itself)"
        colour = node.color
        claimed = state.get("color")
        assert claimed == colour, (
            f"expected state.color to be the orb's material colour as a lower-case '#rrggbb' string, {colour!r}; "
            f"observed {claimed!r}"
        )
        index = state.get("index")
        assert isinstance(index, int) and not isinstance(index, bool) and 0 <= index < MAX_COLOURS, (
            f"expected state.index to be a palette position 0-{MAX_COLOURS - 1}; observed {index!r}"
        )
        known = self.by_index.setdefault(index, colour)
        assert known == colour, (
            f"state.index {index} went with the colour {known} before and with {colour} now: the index does not "
            f"give the colour's palette position"
        )
        return index, colour

    def learn(self, hand=None) -> list[str]:
        """Select the orb (centre, dominant hand) until its first colour comes back: the palette."""
        __tracebackhide__ = True
        hand = hand or self.xr.hand("dominant")
        index, first = self.read()
        assert index == 0, f"expected the orb to start with the first colour (state.index 0); observed index {index}"
        seen = [first]
        hand.point_to(TAG)
        for k in range(1, MAX_COLOURS + 1):
            hand.click(hold_frames=HOLD)
            index, colour = self.read()
            assert colour != seen[-1], (
                f"expected selection {k} to change the colour (to the next of the palette); it stayed {colour} "
                f"(colours so far {seen})"
            )
            if colour == first:
                assert index == 0, f"expected state.index 0 when the first colour came back; observed {index}"
                break
            assert colour not in seen, (
                f"expected the palette to run through its colours and then start again with the first, {first}; "
                f"after {seen} the orb showed {colour} again"
            )
            assert index == k, (
                f"expected state.index {k} after {k} selections (colours {[*seen, colour]}); observed {index}"
            )
            seen.append(colour)
        else:
            raise AssertionError(
                f"expected the first colour {first} to come back after the last of three to eight palette colours; "
                f"after {MAX_COLOURS} selections the orb showed {seen[1:]} and never {first} again"
            )
        assert len(seen) >= MIN_COLOURS, (
            f"expected a palette of at least {MIN_COLOURS} colours; the first colour came back after {len(seen)}: "
            f"{seen}"
        )
        for i, a in enumerate(seen):
            for b in seen[i + 1 :]:
                assert channel_gap(a, b) >= CHANNEL_GAP, (
                    f"expected clearly different palette colours (any two at least {CHANNEL_GAP} apart in a colour "
                    f"channel); {a} and {b} differ by {channel_gap(a, b)} ({seen})"
                )
        self.palette = seen
        self.at = 0
        return seen

    def expect(self, steps: int | Sequence[int], what: str) -> int:
        """The orb moved on `steps` palette steps (or one of several counts) since the last
        expectation; returns the steps it moved."""
        __tracebackhide__ = True
        n = len(self.palette)
        allowed = [steps] if isinstance(steps, int) else list(steps)
        index, colour = self.read()
        got = self.palette.index(colour) if colour in self.palette else None
        moved = None if got is None else (got - self.at) % n
        if moved not in [k % n for k in allowed]:
            wanted = " or ".join(f"{k} ({self.palette[(self.at + k) % n]})" for k in allowed)
            seen = "a colour not in the palette" if got is None else f"{moved} step(s) on"
            raise AssertionError(
                f"expected {what} to advance the orb by {wanted} palette step(s) from {self.palette[self.at]}; "
                f"observed {colour} ({seen}; palette {self.palette})"
            )
        assert index == got, f"expected state.index {got} for the colour {colour} ({what}); observed {index}"
        self.at = got
        return moved


def aim(xr, offset: Sequence[float]) -> Vec:
    """The point `offset` from the orb's centre (as it is now)."""
    c = centre_of(orb_node(xr))
    return (c[0] + offset[0], c[1] + offset[1], c[2] + offset[2])


def ray_miss(xr, role: str, point: Sequence[float]) -> float:
    """How far the ray from the hand's controller through `point` passes from the orb's centre."""
    origin = xr.hand(role).position
    c = centre_of(orb_node(xr))
    d = [point[i] - origin[i] for i in range(3)]
    v = [c[i] - origin[i] for i in range(3)]
    t = max(0.0, sum(d[i] * v[i] for i in range(3)) / sum(x * x for x in d))
    return math.dist(c, [origin[i] + t * d[i] for i in range(3)])


def lower_hands(xr) -> None:
    for role in ("dominant", "non_dominant"):
        hand = xr.hand(role)
        hand.point_forward()
        hand.rest()
        x, _, z = hand.position
        hand.point_to((x, 0.0, z - 0.5))
    xr.step(10)


def render(xr) -> np.ndarray:
    """The mean linear RGB of the middle of the orb (0.6 of its radius), seen from the eyes."""
    got = xr.probe(_PICTURE_JS, {"tag": TAG, "size": PICTURE})
    assert got is not None, f"no object tagged {TAG!r} to render"
    px = np.frombuffer(base64.b64decode(got["pixels"]), dtype=np.uint8).reshape(PICTURE, PICTURE, 4)[:, :, :3]
    cx, cy = got["centre"]
    r = got["radius"]
    yy, xx = np.mgrid[0:PICTURE, 0:PICTURE]
    middle = (xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2 <= (0.6 * r) ** 2
    assert middle.sum() >= 50, f"the orb covers too few pixels to be seen ({int(middle.sum())}; radius {r:.1f} px)"
    return px[middle].astype(float).mean(axis=0)


def linear(colour: str) -> np.ndarray:
    c = np.array(rgb(colour), dtype=float) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def assert_drawn_in(colour: str, seen: np.ndarray) -> None:
    __tracebackhide__ = True
    want = linear(colour)
    if max(rgb(colour)) < CHANNEL_GAP:  # a dark palette colour: it is drawn dark
        assert seen.max() <= 60, (
            f"expected the orb drawn dark in its colour {colour}; its middle is drawn {seen.round()}"
        )
        return
    assert seen.max() >= 20, (
        f"expected the orb drawn in its colour {colour}; its middle is drawn black ({seen.round()}, linear RGB 0-255): "
        "is it lit?"
    )
    cos = float(seen @ want / (np.linalg.norm(seen) * np.linalg.norm(want)))
    assert cos >= 0.9, (
        f"expected the orb drawn in its colour {colour} (linear {(want * 255).round()}); its middle is drawn "
        f"{seen.round()} (linear RGB), another hue (cosine {cos:.2f}, at least 0.9 expected)"
    )


def test_an_orb_replaces_the_cylinder_and_stays_there(xr):
    xr.step(1)
    node = orb_node(xr)
    size = node.size
    assert size is not None and all(abs(s - DIAMETER) <= DIAMETER_TOL for s in size), (
        f"expected a sphere {DIAMETER} m in diameter (within {DIAMETER_TOL} m); observed size {size}"
    )
    shape = xr.probe(_SHAPE_JS, TAG)
    assert shape and shape["distinct"] >= 24 and shape["rmax"] > 0 and shape["rmin"] >= 0.9 * shape["rmax"], (
        f"expected a sphere (its vertices all about one radius from its centre); observed {shape}"
    )
    centre = centre_of(node)
    off = math.dist(centre, CENTRE)
    assert off <= CENTRE_TOL, (
        f"expected the orb's centre at {CENTRE}, straight ahead at eye height 1.0 m away (within {CENTRE_TOL} m); "
        f"observed {_fmt(centre)}, {off:.3f} m off"
    )
    cylinders = [m for m in xr.drawn(("mesh",)) if "Cylinder" in m.geometry]
    assert not cylinders, f"expected the cylinder replaced by the orb; observed visible cylinders {cylinders}"
    orb = Orb(xr)
    orb.read()
    # The user turns, walks to the side, crouches and looks up; the orb stays where it is.
    xr.head.rotate(yaw=40 * side_of(xr, "dominant"))
    xr.head.walk([(0.4 * side_of(xr, "dominant"), 1.5, -0.2)], face=False)
    xr.head.move((0.0, -0.3, 0.0), speed=0.5)
    xr.head.look_at(TAG)
    xr.hand("dominant").click(TAG, hold_frames=HOLD)
    moved = math.dist(centre_of(orb_node(xr)), centre)
    assert moved <= STILL_TOL, (
        f"expected the orb to stay at {_fmt(centre)} while the user turned, walked, crouched and selected it; "
        f"observed it {moved:.3f} m away"
    )
    assert_no_errors(xr)


def test_the_orb_is_drawn_in_its_current_colour(xr):
    xr.step(1)
    orb = Orb(xr)
    hand = xr.hand("dominant")
    for _ in range(3):
        lower_hands(xr)
        _, colour = orb.read()
        assert_drawn_in(colour, render(xr))
        hand.click(TAG, hold_frames=HOLD)
        _, after = orb.read()
        assert after != colour, f"expected a selection to change the colour; it stayed {colour}"
    assert_no_errors(xr)


def test_it_keeps_cycling_and_wraps_to_the_first_colour_after_the_last(xr):
    xr.step(1)
    orb = Orb(xr)
    palette = orb.learn()
    start = centre_of(orb_node(xr))
    roles = ("non_dominant", "dominant")
    for role in roles:
        xr.hand(role).point_to(TAG)
    n = len(palette)
    for k in range(2 * n + 2):  # two more rounds and then some, the hands taking turns
        role = roles[k % 2]
        xr.hand(role).click(hold_frames=HOLD)
        orb.expect(1, f"selection {n + k + 1} (of the {role} hand)")
    moved = math.dist(centre_of(orb_node(xr)), start)
    assert moved <= STILL_TOL, (
        f"expected the orb to stay at {_fmt(start)}; after the selections it is {moved:.3f} m away"
    )
    assert_no_errors(xr)


def test_either_hand_or_controller_selects_it_anywhere_on_it(xr):
    xr.step(1)
    orb = Orb(xr)
    orb.learn()
    for role in ("dominant", "non_dominant"):
        xr.hand(role).click(TAG, hold_frames=HOLD)
        orb.expect(1, f"a pinch of the {role} ({xr.handedness(role)}) hand aimed at the orb's centre")
        xr.controller(role).select(TAG, hold_frames=HOLD)
        orb.expect(1, f"the {role} ({xr.handedness(role)}) controller's trigger aimed at the orb's centre")
    spots = [(OFF_CENTRE, 0.0, 0.0), (-OFF_CENTRE, 0.0, 0.0), (0.0, OFF_CENTRE, 0.0), (0.0, -OFF_CENTRE, 0.0)]
    for k, offset in enumerate(spots):
        role = ("dominant", "non_dominant")[k % 2]
        point = aim(xr, offset)
        xr.hand(role).click(point, hold_frames=HOLD)
        orb.expect(1, f"a pinch of the {role} hand aimed {OFF_CENTRE} m off the orb's centre, at {_fmt(point)}")
        xr.controller(role).select(point, hold_frames=HOLD)
        orb.expect(1, f"the {role} controller's trigger aimed {OFF_CENTRE} m off the orb's centre, at {_fmt(point)}")
    # Crouching and looking up at it, off its centre.
    for role in ("dominant", "non_dominant"):
        xr.hand(role).rest()
    xr.head.move((0.0, -0.35, 0.0), speed=0.5)
    xr.head.look_at(TAG)
    for role in ("dominant", "non_dominant"):
        xr.hand(role).rest()
        point = aim(xr, (0.0, 0.07, 0.0))
        xr.hand(role).click(point, hold_frames=HOLD)
        orb.expect(1, f"a pinch of the {role} hand while the user crouched and looked up, aimed at {_fmt(point)}")
    assert_no_errors(xr)


def test_one_selection_is_one_step_however_long_it_is_held(xr):
    xr.step(1)
    orb = Orb(xr)
    orb.learn()
    hand = xr.hand("dominant")
    hand.point_to(TAG)
    hand.start_select(1)
    done = 0
    for second in range(5):  # held for five seconds: one step, at the press or at the release
        xr.wait(1000)
        done += orb.expect((0,) if done else (0, 1), f"a pinch held on the orb for {second + 1} s (one step at most)")
    hand.end_select(HOLD)
    orb.expect(1 - done, "a pinch held on the orb for five seconds, then released (one step in all)")
    other = xr.controller("non_dominant")
    other.point_to(TAG)
    other.start_select(1)
    xr.wait(3000)
    done = orb.expect((0, 1), "the non-dominant controller's trigger held on the orb for three seconds")
    other.end_select(HOLD)
    orb.expect(1 - done, "the non-dominant controller's trigger held on the orb for three seconds, then released")
    hand.start_select(2)  # a quick pinch
    hand.end_select(HOLD)
    orb.expect(1, "a quick two-frame pinch")
    xr.wait(1000)
    orb.expect(0, "a second without selecting")
    assert_no_errors(xr)


def test_the_two_hands_selections_count_separately(xr):
    xr.step(1)
    orb = Orb(xr)
    orb.learn()
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    dom.point_to(TAG)
    non.point_to(TAG)
    non.start_select(0)  # both pinch in the same frame
    dom.start_select(HOLD)
    non.end_select(0)
    dom.end_select(HOLD)
    orb.expect(2, "both hands selecting the orb in the same frame")
    non.start_select(HOLD)  # the other hand holds its selection on the orb ...
    dom.click(hold_frames=HOLD)  # ... while the dominant one selects it
    non.end_select(HOLD)
    orb.expect(2, "a selection of the dominant hand while the non-dominant hand held its own on the orb")
    dom.start_select(HOLD)
    non.click(hold_frames=HOLD)
    dom.end_select(HOLD)
    orb.expect(2, "a selection of the non-dominant hand while the dominant hand held its own on the orb")
    away = aim(xr, (-BESIDE * side_of(xr, "dominant"), 0.0, 0.0))
    non.point_to(away)  # a pinch held away from the orb ...
    non.start_select(HOLD)
    dom.click(hold_frames=HOLD)  # ... does not stop the other hand's selection
    non.end_select(HOLD)
    orb.expect(1, "a selection of the dominant hand while the non-dominant hand held a pinch aimed away from the orb")
    a, b = xr.controller("dominant"), xr.controller("non_dominant")
    a.point_to(TAG)
    b.point_to(TAG)
    b.start_select(0)
    a.start_select(HOLD)
    b.end_select(0)
    a.end_select(HOLD)
    orb.expect(2, "both controllers' triggers pressed on the orb in the same frame")
    assert_no_errors(xr)


def test_only_selecting_the_orb_changes_its_colour(xr):
    xr.step(1)
    orb = Orb(xr)
    orb.learn()
    for role in ("dominant", "non_dominant"):  # hovering, however long
        hand = xr.hand(role)
        for pose in ("neutral", "pointing", "relaxed"):
            hand.set_pose(pose)
            hand.point_to(TAG)
            xr.wait(1000)
            orb.expect(0, f"pointing the {role} hand ({pose}) at the orb without selecting it")
        hand.point_to(aim(xr, (0.0, BESIDE, 0.0)))
        hand.point_to(aim(xr, (0.0, -0.05, 0.0)))
        hand.point_to(aim(xr, (-BESIDE * side_of(xr, role), 0.0, 0.0)))
        hand.point_to(TAG)
        xr.wait(1000)
        orb.expect(0, f"sweeping the {role} hand's ray on and off the orb and resting it there without selecting")
        hand.point_forward()
    # Pinches and trigger presses aimed beside the orb, while the other hand's ray rests on it.
    for role, other in (("dominant", "non_dominant"), ("non_dominant", "dominant")):
        xr.hand(other).point_to(TAG)
        for offset in ((BESIDE * side_of(xr, role), 0.0, 0.0), (0.0, BESIDE, 0.0), (0.0, -BESIDE, 0.0)):
            point = aim(xr, offset)
            miss = ray_miss(xr, role, point)
            assert miss >= 0.2, f"test geometry: the ray to {_fmt(point)} passes {miss:.3f} m from the orb's centre"
            xr.hand(role).click(point, hold_frames=HOLD)
            orb.expect(0, f"a pinch of the {role} hand aimed beside the orb, at {_fmt(point)}")
            xr.controller(role).select(point, hold_frames=HOLD)
            orb.expect(0, f"the {role} controller's trigger aimed beside the orb, at {_fmt(point)}")
        xr.hand(other).point_forward()
    xr.hand("dominant").click(TAG, hold_frames=HOLD)
    orb.expect(1, "a selection after the pinches beside it")
    assert_no_errors(xr)
