"""XR Blocks' stereo helpers: `showOnlyInLeftEye`, `showOnlyInRightEye` and `loadStereoImageAsTextures`.

Everything is read from the live scene graph and from the simulator's own eye cameras, never from
the app's state: the layers (`layers.mask`) of the app's objects; what each eye camera of the
simulator's stereo mode (`core.simulator.stereoCameras`: the left sees layers 0 and 1, the right
layers 0 and 2) draws, rendered by XR Blocks' renderer into a small picture of its own and sampled
at points of the app's objects; the textures on the app's photo planes; and, for trees the app does
not have, what the helpers do to detached objects built by a probe (never added to the scene).

The tests check that
- each eye sees its own half of the stereo photo (upright, the white block at the top left) and its
  own badge with all of its parts (disc, ring, the dot on the ring, the bar inside a group), and
  never the other eye's, while both keep seeing the border, the post, the plate and the button;
  from two head poses;
- the eye objects and all their descendants have exactly mask 2 (left) or 4 (right), and every other
  object keeps its layers (the plate stays on layers 0 and 3);
- on detached trees of any depth (groups, meshes, points, plain objects, objects that were on other
  layers before) every descendant gets exactly that mask, the parent, the siblings and their
  children are untouched, and the helpers return the object they were given;
- calling the other helper later moves the object to the other eye only (detached trees, and the
  app's swap button pressed with either hand, twice: swapped, then back);
- the two textures are different objects sharing the loaded image, with repeat (0.5, 1) and offsets
  (0, 0) and (0.5, 0);
- every name the SDK exported before is still exported with the same number of parameters.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

LEFT_MASK, RIGHT_MASK = 1 << 1, 1 << 2
PICTURE_WIDTH = 960  # pixels of each eye's picture (its height follows the camera's aspect)

# --- what each eye camera draws ------------------------------------------------------------------

EYE_VIEWS = """(h, arg) => {
  const T = h.THREE, core = h.core, renderer = core.renderer, sim = core.simulator;
  const tagged = {};
  core.scene.traverse((o) => {
    const t = o.userData && o.userData.xrblocksDevtools;
    if (t && t.tag && !(t.tag in tagged)) tagged[t.tag] = o;
  });
  const eyes = sim && sim.stereoCameras && sim.stereoCameras.length === 2 ? sim.stereoCameras : null;
  if (!eyes) return {error: 'the simulator has no stereo eye cameras'};
  h.guard(renderer, 'xb.core.renderer');
  core.scene.updateMatrixWorld(true);
  const out = {};
  eyes.forEach((camera, i) => {
    camera.updateMatrixWorld(true);
    const width = arg.width, height = Math.round(arg.width / (camera.aspect || 16 / 9));
    const target = new T.WebGLRenderTarget(width, height);
    const previous = renderer.getRenderTarget(), xrEnabled = renderer.xr.enabled;
    const clearColor = new T.Color();
    renderer.getClearColor(clearColor);
    const clearAlpha = renderer.getClearAlpha();
    const pixels = new Uint8Array(width * height * 4);
    try {
      renderer.xr.enabled = false;
      renderer.setRenderTarget(target);
      renderer.setClearColor(0x000000, 0);
      renderer.clear();
      renderer.render(core.scene, camera);
      renderer.readRenderTargetPixels(target, 0, 0, width, height, pixels);
    } finally {
      renderer.setClearColor(clearColor, clearAlpha);
      renderer.setRenderTarget(previous);
      renderer.xr.enabled = xrEnabled;
      target.dispose();
    }
    const samples = arg.points.map(([name, local]) => {
      const o = tagged[name];
      if (!o) return {missing: true};
      const p = o.localToWorld(new T.Vector3(...local)).project(camera);
      const x = Math.round((p.x + 1) / 2 * width - 0.5), y = Math.round((p.y + 1) / 2 * height - 0.5);
      if (x < 2 || y < 2 || x >= width - 2 || y >= height - 2 || p.z > 1 || p.z < -1) return {off: true};
      const k = (y * width + x) * 4;
      return {rgba: Array.from(pixels.subarray(k, k + 4))};
    });
    out[i === 0 ? 'left' : 'right'] = {mask: camera.layers.mask, samples};
  });
  return out;
}"""


def _linear(hex_colour: int) -> tuple[float, float, float]:
    """An sRGB colour as the renderer writes it into a picture of its own (linear, 0-255)."""

    def channel(c: int) -> float:
        v = c / 255.0
        return 255.0 * (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)

    return (channel(hex_colour >> 16 & 255), channel(hex_colour >> 8 & 255), channel(hex_colour & 255))


# The app's colours (MeshBasicMaterial and the photo's texels), by name.
PALETTE = {
    "red": 0xFF2020,  # the photo's left half; the right badge's bar
    "blue": 0x2020FF,  # the photo's right half; the right badge's dot
    "white": 0xFFFFFF,  # the photo's white blocks; the right badge's ring
    "grey border": 0x505050,
    "green disc": 0x20FF20,
    "yellow ring": 0xFFFF20,
    "magenta dot": 0xFF20FF,
    "cyan bar": 0x20FFFF,
    "orange disc": 0xFF8020,
    "light grey post": 0x999999,
    "dark blue plate": 0x303070,
    "green button": 0x22AA44,
}
PALETTE_LINEAR = {name: _linear(c) for name, c in PALETTE.items()}


def classify(sample: dict) -> str:
    if sample.get("missing"):
        return "(object missing from the scene)"
    if sample.get("off"):
        return "(outside the eye's view)"
    r, g, b, a = sample["rgba"]
    if a < 128:
        return "nothing"
    name, dist = min(
        ((n, sum((x - y) ** 2 for x, y in zip((r, g, b), c, strict=True)) ** 0.5) for n, c in PALETTE_LINEAR.items()),
        key=lambda t: t[1],
    )
    return name if dist < 40 else f"another colour {tuple(sample['rgba'][:3])}"


# Points sampled (tag, point in that object's frame) and what each eye sees there, unswapped.
# The photo planes are 0.64 x 0.48 m; points are on the front plane (z 0.002 in the frame).
PHOTO = "photo-frame"
BOTH = {"left": None, "right": None}


def _expected(swapped: bool) -> list[tuple[str, tuple[float, float, float], str, dict[str, str]]]:
    left_half, right_half = ("red", "blue") if not swapped else ("blue", "red")
    photo = {"left": left_half, "right": right_half}
    white = {"left": "white", "right": "white"}
    plate = "dark blue plate"
    badge_l = {"disc": "green disc", "ring": "yellow ring", "dot": "magenta dot", "bar": "cyan bar"}
    badge_r = {"disc": "orange disc", "ring": "white", "dot": "blue", "bar": "red"}
    seer_l, seer_r = ("left", "right") if not swapped else ("right", "left")
    rows = [
        (PHOTO, (-0.24, 0.12, 0.002), "the photo's top-left quarter (white block)", white),
        (PHOTO, (-0.08, 0.12, 0.002), "the photo's top-left quarter (white block)", white),
        (PHOTO, (0.08, 0.12, 0.002), "the photo's top-right quarter", photo),
        (PHOTO, (0.24, 0.12, 0.002), "the photo's top-right quarter", photo),
        (PHOTO, (-0.24, -0.12, 0.002), "the photo's bottom-left quarter", photo),
        (PHOTO, (-0.08, -0.12, 0.002), "the photo's bottom-left quarter", photo),
        (PHOTO, (0.24, -0.12, 0.002), "the photo's bottom-right quarter", photo),
        ("photo-border", (0.0, 0.27, 0.0), "the frame's border", {"left": "grey border", "right": "grey border"}),
        ("sign-post", (0.0, -0.1, 0.0), "the sign's post", {"left": "light grey post", "right": "light grey post"}),
        ("sign-plate", (0.0, -0.105, 0.005), "the sign's plate", {"left": plate, "right": plate}),
        ("swap-button", (0.0, 0.0, 0.03), "the swap button", {"left": "green button", "right": "green button"}),
    ]
    for side, colours, seer in (("left", badge_l, seer_l), ("right", badge_r, seer_r)):
        for part, tag_, local in (
            ("disc", f"{side}-badge", (0.0, 0.03, 0.0)),
            ("ring", f"{side}-badge-ring", (0.0875, 0.0, 0.0)),
            ("dot", f"{side}-badge-dot", (0.0, 0.0, 0.0)),
            ("bar", f"{side}-badge-bar", (0.0, 0.0, 0.0)),
        ):
            other = "right" if seer == "left" else "left"
            rows.append((tag_, local, f"the {side} badge's {part}", {seer: colours[part], other: plate}))
    return rows


def assert_eye_views(xr, *, swapped: bool, when: str, button: bool = True) -> None:
    """Each eye camera draws, at every sampled point, what the table says (`button`: the swap button's
    point too; not right after a click, when the hand that pressed it may hide it)."""
    __tracebackhide__ = True
    rows = [r for r in _expected(swapped) if button or r[0] != "swap-button"]
    got = xr.probe(EYE_VIEWS, {"width": PICTURE_WIDTH, "points": [[t, list(p)] for t, p, _, _ in rows]})
    assert "error" not in got, f"{when}: {got.get('error')}"
    assert (got["left"]["mask"], got["right"]["mask"]) == (0b011, 0b101), (
        f"{when}: expected the simulator's eye cameras to see layers 0+1 (left) and 0+2 (right), masks 3 and 5; "
        f"observed masks {got['left']['mask']} and {got['right']['mask']}"
    )
    wrong = []
    for eye in ("left", "right"):
        for (tag_, local, what, want), sample in zip(rows, got[eye]["samples"], strict=True):
            seen = classify(sample)
            if seen != want[eye]:
                wrong.append(f"{eye} eye at {what} ({tag_} {local}): expected {want[eye]}, observed {seen}")
    assert not wrong, f"{when}: what the eye cameras draw is wrong at {len(wrong)} point(s):\n  " + "\n  ".join(wrong)


# --- layers of the app's objects ------------------------------------------------------------------

MASKS = """(h) => {
  const out = {};
  h.core.scene.traverse((o) => {
    const t = o.userData && o.userData.xrblocksDevtools;
    if (t && t.tag) out[t.tag] = o.layers.mask;
  });
  return out;
}"""

LEFT_PARTS = ["left-badge", "left-badge-ring", "left-badge-dot", "left-badge-label", "left-badge-bar"]
RIGHT_PARTS = [p.replace("left", "right") for p in LEFT_PARTS]
UNTOUCHED = {
    "stereo-gallery": 1,
    "photo-frame": 1,
    "photo-border": 1,
    "stereo-sign": 1,
    "sign-post": 1,
    "sign-plate": 0b1001,
    "swap-button": 1,
}


def assert_app_masks(xr, *, swapped: bool, when: str) -> None:
    __tracebackhide__ = True
    got = xr.probe(MASKS)
    want = dict(UNTOUCHED)
    lm, rm = (LEFT_MASK, RIGHT_MASK) if not swapped else (RIGHT_MASK, LEFT_MASK)
    want.update({t: lm for t in [*LEFT_PARTS, "left-photo"]})
    want.update({t: rm for t in [*RIGHT_PARTS, "right-photo"]})
    wrong = [f"{t}: expected mask {m}, observed {got.get(t, 'missing')}" for t, m in want.items() if got.get(t) != m]
    assert not wrong, (
        f"{when}: layers.mask of the app's objects (2 = left eye only, 4 = right eye only, 1 = layer 0, "
        f"9 = layers 0 and 3):\n  " + "\n  ".join(wrong)
    )


@pytest.fixture
def app(xr):
    xr.settle()  # the gallery's init() waits for the photo
    state = xr.find_by_tag("stereo-gallery").state
    assert state.get("photo") == "shown", (
        f"expected the app to have loaded its stereo photo with xb.loadStereoImageAsTextures "
        f"('stereo-photo.png') and shown it; observed photo state {state.get('photo')!r}"
    )
    return xr


@pytest.mark.fail_to_pass
def test_each_eye_sees_its_own_photo_half_and_badge(app):
    xr = app
    assert_eye_views(xr, swapped=False, when="at the start, looking ahead")
    # A second pose: stepped to the right and forward, crouched a little, looking at the sign.
    xr.head.teleport_to((0.35, 1.3, -0.5), face=False)
    xr.head.look_at("stereo-sign")
    xr.step(2)
    assert_eye_views(xr, swapped=False, when="stepped to (0.35, 1.3, -0.5), looking at the sign")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_the_eye_objects_and_all_their_parts_have_only_their_eyes_layer(app):
    xr = app
    assert_app_masks(xr, swapped=False, when="after the app's start")
    xr.step(30)
    assert_app_masks(xr, swapped=False, when="half a second later")
    assert_no_errors(xr)


# --- detached trees ----------------------------------------------------------------------------------

TREES = """(h) => {
  const T = h.THREE, xb = h.xb;
  // A parent (not passed) with a sibling (on layers 0 and 3, with a child of its own) and the object
  // passed in: a mesh on layers 0 and 5 with a group > a mesh on layer 3 only > a plain Object3D >
  // a mesh on layers 0 and 2 > a line, and a Points child.
  const build = () => {
    const parent = new T.Group();
    const sibling = new T.Mesh(); sibling.layers.enable(3); parent.add(sibling);
    const nephew = new T.Mesh(); sibling.add(nephew);
    const obj = new T.Mesh(); obj.layers.enable(5); parent.add(obj);
    const group = new T.Group(); obj.add(group);
    const inner = new T.Mesh(); inner.layers.set(3); group.add(inner);
    const plain = new T.Object3D(); inner.add(plain);
    const deep = new T.Mesh(); deep.layers.enable(2); plain.add(deep);
    const line = new T.Line(); deep.add(line);
    const points = new T.Points(); obj.add(points);
    return {obj, parts: {obj, group, inner, plain, deep, line, points}, others: {parent, sibling, nephew}};
  };
  const masks = (t) => ({
    parts: Object.fromEntries(Object.entries(t.parts).map(([k, v]) => [k, v.layers.mask])),
    others: Object.fromEntries(Object.entries(t.others).map(([k, v]) => [k, v.layers.mask])),
  });
  const chain = (n) => {
    const root = new T.Group(); let last = root; const all = [root];
    for (let i = 0; i < n; i++) { const c = i % 2 ? new T.Mesh() : new T.Group(); last.add(c); all.push(c); last = c; }
    return all;
  };
  const out = {};
  for (const eye of ['left', 'right']) {
    const call = (o) => eye === 'left' ? xb.showOnlyInLeftEye(o) : xb.showOnlyInRightEye(o);
    const t = build();
    const before = masks(t);
    const returned = call(t.obj);
    const lone = new T.Mesh();
    const loneReturned = call(lone);
    const all = chain(12);
    call(all[0]);
    out[eye] = {
      before, after: masks(t), returnedSame: returned === t.obj, loneSame: loneReturned === lone,
      loneMask: lone.layers.mask, chain: all.map((o) => o.layers.mask),
    };
  }
  return out;
}"""

SWITCHES = """(h) => {
  const T = h.THREE, xb = h.xb;
  const build = () => {
    const parent = new T.Group(); const sibling = new T.Mesh(); parent.add(sibling);
    const obj = new T.Mesh(); parent.add(obj);
    const group = new T.Group(); obj.add(group); const inner = new T.Mesh(); group.add(inner);
    return {parent, sibling, obj, group, inner};
  };
  const masks = (t) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.layers.mask]));
  const run = (sequence) => {
    const t = build();
    const steps = [];
    for (const eye of sequence) {
      const r = eye === 'left' ? xb.showOnlyInLeftEye(t.obj) : xb.showOnlyInRightEye(t.obj);
      steps.push({eye, same: r === t.obj, masks: masks(t)});
    }
    return steps;
  };
  return {
    leftRight: run(['left', 'right']),
    rightLeft: run(['right', 'left']),
    back: run(['left', 'right', 'left', 'right', 'right', 'left', 'left']),
  };
}"""


@pytest.mark.fail_to_pass
def test_the_helpers_on_trees_of_any_depth(app):
    xr = app
    got = xr.probe(TREES)
    for eye, mask in (("left", LEFT_MASK), ("right", RIGHT_MASK)):
        helper = f"showOnlyIn{eye.capitalize()}Eye"
        r = got[eye]
        assert r["returnedSame"] and r["loneSame"], (
            f"expected xb.{helper}(object) to return the object it was given; observed: same object for a tree "
            f"{r['returnedSame']}, for an object without children {r['loneSame']}"
        )
        wrong = {k: v for k, v in r["after"]["parts"].items() if v != mask}
        assert not wrong, (
            f"expected xb.{helper} to put the object and every descendant on layer "
            f"{1 if eye == 'left' else 2} only (mask {mask}); observed masks {r['after']['parts']} "
            f"(before the call: {r['before']['parts']}; obj was on layers 0 and 5, inner on layer 3 only, deep on "
            f"layers 0 and 2)"
        )
        assert r["loneMask"] == mask, (
            f"expected xb.{helper} on an object without children to give mask {mask}; observed {r['loneMask']}"
        )
        assert all(m == mask for m in r["chain"]), (
            f"expected xb.{helper} on a chain of 13 nested objects to give every one mask {mask}; observed {r['chain']}"
        )
        assert r["after"]["others"] == r["before"]["others"], (
            f"expected xb.{helper} to leave the object's parent, its sibling and the sibling's child as they were "
            f"(masks {r['before']['others']}); observed {r['after']['others']}"
        )
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_switching_an_object_to_the_other_eye(app):
    xr = app
    got = xr.probe(SWITCHES)
    for steps in got.values():
        history = []
        for step in steps:
            mask = LEFT_MASK if step["eye"] == "left" else RIGHT_MASK
            history.append(step["eye"])
            m = step["masks"]
            assert step["same"], f"expected the helper to return the object it was given (calls {history})"
            wrong = {k: m[k] for k in ("obj", "group", "inner") if m[k] != mask}
            assert not wrong, (
                f"after the calls {' then '.join(history)}: expected the object and its descendants on the "
                f"{step['eye']} eye's layer only (mask {mask}); observed {wrong}"
            )
            assert (m["parent"], m["sibling"]) == (1, 1), (
                f"after the calls {' then '.join(history)}: expected the parent and the sibling untouched (mask 1); "
                f"observed {m['parent']} and {m['sibling']}"
            )
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_the_swap_button_swaps_the_eyes_with_either_hand(app):
    xr = app
    button = xr.find_by_tag("swap-button")
    presses = button.state["presses"]
    xr.hand("dominant").click("swap-button")
    assert xr.find_by_tag("swap-button").state["presses"] == presses + 1, (
        "expected a ray click of the dominant hand on the swap button to press it once; observed presses "
        f"{xr.find_by_tag('swap-button').state['presses']} (before: {presses})"
    )
    assert_app_masks(xr, swapped=True, when="after pressing the swap button once (dominant hand)")
    assert_eye_views(xr, swapped=True, when="after pressing the swap button once (dominant hand)", button=False)
    xr.hand("non_dominant").click("swap-button")
    assert xr.find_by_tag("swap-button").state["presses"] == presses + 2, (
        "expected a ray click of the non-dominant hand on the swap button to press it once more; observed presses "
        f"{xr.find_by_tag('swap-button').state['presses']} (before: {presses})"
    )
    assert_app_masks(xr, swapped=False, when="after pressing the swap button again (non-dominant hand)")
    assert_eye_views(xr, swapped=False, when="after pressing the swap button again (non-dominant hand)", button=False)
    assert_no_errors(xr)


# --- stereo textures -----------------------------------------------------------------------------------

TEXTURES = """(h) => {
  const T = h.THREE;
  const found = {};
  h.core.scene.traverse((o) => {
    const t = o.userData && o.userData.xrblocksDevtools;
    if (t && (t.tag === 'left-photo' || t.tag === 'right-photo')) found[t.tag] = o;
  });
  const describe = (mesh) => {
    const map = mesh && mesh.material && mesh.material.map;
    if (!map) return null;
    const img = map.image;
    return {
      isTexture: map instanceof T.Texture,
      repeat: [map.repeat.x, map.repeat.y], offset: [map.offset.x, map.offset.y],
      imageWidth: img ? (img.naturalWidth || img.width) : null,
      imageHeight: img ? (img.naturalHeight || img.height) : null,
      src: img && typeof img.src === 'string' ? img.src : null,
    };
  };
  const l = found['left-photo'], r = found['right-photo'];
  const lm = l && l.material && l.material.map, rm = r && r.material && r.material.map;
  return {
    left: describe(l), right: describe(r),
    distinct: Boolean(lm && rm && lm !== rm),
    sameImage: Boolean(lm && rm && lm.image && lm.image === rm.image),
  };
}"""


def _close(a, b, tol=1e-6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


@pytest.mark.fail_to_pass
def test_the_stereo_textures_take_each_half_of_the_image(app):
    xr = app
    got = xr.probe(TEXTURES)
    assert got["left"] and got["right"], f"expected both photo planes to be mapped with a texture; observed {got}"
    assert got["left"]["isTexture"] and got["right"]["isTexture"], f"expected THREE.Texture objects; observed {got}"
    assert got["distinct"], (
        "expected xb.loadStereoImageAsTextures to resolve to two different texture objects; observed one texture "
        "for both eyes"
    )
    assert got["sameImage"], "expected both textures' `image` to be the one loaded image; observed different images"
    assert (got["left"]["imageWidth"], got["left"]["imageHeight"]) == (512, 192), (
        f"expected the textures' image to be the loaded 512 x 192 stereo-photo.png; observed "
        f"{got['left']['imageWidth']} x {got['left']['imageHeight']} ({got['left']['src']})"
    )
    for eye, offset in (("left", (0.0, 0.0)), ("right", (0.5, 0.0))):
        t = got[eye]
        assert _close(t["repeat"], (0.5, 1.0)) and _close(t["offset"], offset), (
            f"expected the {eye} texture to show the image's {eye} half: repeat (0.5, 1), offset {offset}; "
            f"observed repeat {tuple(t['repeat'])}, offset {tuple(t['offset'])}"
        )
    assert_no_errors(xr)


# --- the public interface ------------------------------------------------------------------------------

EXPORTS = Path(__file__).with_name("exports.json")
EXPORTS_PROBE = """(h) => {
  const out = {};
  for (const name of Object.keys(h.xb).sort()) {
    const v = h.xb[name];
    out[name] = typeof v === 'function' ? v.length : typeof v;
  }
  return out;
}"""


@pytest.mark.pass_to_pass
def test_every_exported_name_is_still_exported_with_its_signature(app):
    xr = app
    got = xr.probe(EXPORTS_PROBE)
    want = json.loads(EXPORTS.read_text())
    missing = sorted(set(want) - set(got))
    changed = sorted(n for n in want if n in got and got[n] != want[n])
    assert not missing and not changed, (
        f"expected every name the SDK exported to be exported still, with the same signature; missing: "
        f"{missing[:20]}, changed (parameters or kind, was -> now): "
        f"{[(n, want[n], got[n]) for n in changed[:20]]}"
    )
    assert_no_errors(xr)
