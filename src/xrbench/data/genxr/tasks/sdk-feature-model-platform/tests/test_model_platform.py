"""ModelViewer's platform: a 2 cm slab under the model (bounds plus platformMargin) that moves the viewer when dragged.

The app (held out, in the task's workspace/) has three ModelViewers presenting built-in meshes
(origin 'bottom-center', so each model's bottom is at its viewer's origin):
- 'crate-viewer' at (-0.35, 1.0, -0.9), default options, a 30 x 20 x 30 cm 'crate': its platform
  is 50 x 50 cm, top at y = 1.0;
- 'vase-viewer' at (0.4, 1.0, -0.9), platformMargin {x: 0.4, y: 0.1}, translate and rotate only, a
  'vase' 20 cm across and 30 cm tall: its platform is 60 cm wide (x) and 30 cm deep (z);
- 'lamp-viewer' at (0, 1.0, -1.5), manipulation {actions: {rotate: true}}, a 20 cm 'lamp' cube: no
  platform.

Where the platform is, is read from the scene's geometry: vertical rays cast by the test through
each viewer's subtree (the model's own meshes left out). Where the viewers are and how they are
turned is read from their world matrices.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TOP = 1.0  # every viewer's origin height: the platform's top face
THICK = 0.02
# viewer tag -> (model tag, resting origin, platform half width (x), half depth (z))
VIEWERS = {
    "crate-viewer": ("crate", (-0.35, 1.0, -0.9), 0.25, 0.25),
    "vase-viewer": ("vase", (0.4, 1.0, -0.9), 0.3, 0.15),
}
LAMP = (0.0, 1.0, -1.5)

# Vertical rays through one viewer's subtree, the tagged model's subtree left out: for each
# [x, z, dir] (dir -1: cast down from above, +1: cast up from below) the height of the first hit,
# or null.
_CAST_JS = """
(h, arg) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const tagged = {};
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (d && (String(d.tag) === arg.viewer || String(d.tag) === arg.model)) tagged[String(d.tag)] = o;
  });
  const viewer = tagged[arg.viewer];
  const model = tagged[arg.model];
  if (!viewer) return {error: 'no viewer'};
  const inModel = (o) => { for (let p = o; p; p = p.parent) if (p === model) return true; return false; };
  const out = [];
  for (const [x, z, dir] of arg.points) {
    const from = new THREE.Vector3(x, dir < 0 ? arg.above : arg.below, z);
    const rc = new THREE.Raycaster(from, new THREE.Vector3(0, dir, 0));
    const hits = rc.intersectObject(viewer, true).filter((hit) => !inModel(hit.object));
    out.push(hits.length ? hits[0].point.y : null);
  }
  return {hits: out};
}
"""


def ready(xr):
    xr.settle()
    xr.step(2)
    xr.wait(200)


def _fmt(v):
    return "(" + ", ".join(f"{c:.3f}" for c in v) + ")"


def where(xr, tag):
    return xr.find_by_tag(tag).position


def turned_deg(xr, tag):
    """Degrees the tagged object is turned from its resting (identity) orientation."""
    q = xr.find_by_tag(tag).quaternion
    return math.degrees(2 * math.acos(min(1.0, abs(q[3]))))


def cast(xr, viewer, model, points, *, above=1.6, below=0.4):
    got = xr.probe(_CAST_JS, {"viewer": viewer, "model": model, "points": points, "above": above, "below": below})
    assert "error" not in got, f"'{viewer}' is not in the scene"
    return got["hits"]


def ray_at_height(hand, y):
    """Where the hand's ray meets the horizontal plane at height `y`."""
    o, d = hand.position, hand.state.ray_direction
    assert d[1] < -1e-3, f"the {hand.handedness} hand's ray does not point down"
    t = (y - o[1]) / d[1]
    return tuple(o[i] + d[i] * t for i in range(3))


def ray_point(hand, depth):
    o, d = hand.position, hand.state.ray_direction
    return tuple(o[i] + d[i] * depth for i in range(3))


class Drag:
    """One hand's drag of one viewer by a point of its platform's top face (aimed at `target`)."""

    def __init__(self, xr, hand, viewer, target):
        self.xr, self.hand, self.viewer = xr, hand, viewer
        hand.point_to(target)
        xr.step(1)
        grabbed = ray_at_height(hand, target[1])
        self.depth = math.dist(hand.position, grabbed)
        self.grabbed = grabbed
        self.start = where(xr, viewer)

    def pinch(self, frames=4):
        self.hand.start_select(frames)

    def expected(self):
        p = ray_point(self.hand, self.depth)
        return tuple(self.start[i] + p[i] - self.grabbed[i] for i in range(3))

    def error(self):
        return math.dist(self.expected(), where(self.xr, self.viewer))


def check_follows(drags, steps, what):
    """Step the drags' rays to their targets together, one small turn a frame; check every frame."""
    xr = drags[0].xr
    worst, worst_at = 0.0, None
    for k in range(len(steps[0])):
        for drag, targets in zip(drags, steps, strict=True):
            drag.hand.point_to(targets[k], speed=40)
        xr.step(1)
        for drag in drags:
            err = drag.error()
            if err > worst:
                worst, worst_at = err, (drag.viewer, drag.expected(), where(xr, drag.viewer))
            assert turned_deg(xr, drag.viewer) < 1.0, (
                f"{what}: dragging the platform must not turn '{drag.viewer}'; it turned "
                f"{turned_deg(xr, drag.viewer):.1f} degrees"
            )
    assert worst < 0.015, (
        f"{what}: expected the grabbed point of the platform to stay on the ray at its grab distance and "
        f"the viewer to move with it; '{worst_at[0]}' was off by {worst * 100:.1f} cm: expected "
        f"{_fmt(worst_at[1])}, observed {_fmt(worst_at[2])}"
    )


@pytest.mark.fail_to_pass
def test_the_platform_lies_under_each_model(xr):
    ready(xr)
    for viewer, (model, (cx, _, cz), hx, hz) in VIEWERS.items():
        inside, outside = [], []
        for s in (-1, 1):
            for f in (-0.5, 0.0, 0.5):
                # 1.5 cm inside and outside the left/right edges, and the front/back edges.
                inside.append((cx + s * (hx - 0.015), cz + f * hz, f"{'right' if s > 0 else 'left'} edge"))
                outside.append((cx + s * (hx + 0.015), cz + f * hz, f"{'right' if s > 0 else 'left'} edge"))
                inside.append((cx + f * hx, cz + s * (hz - 0.015), f"{'front' if s > 0 else 'back'} edge"))
                outside.append((cx + f * hx, cz + s * (hz + 0.015), f"{'front' if s > 0 else 'back'} edge"))
        points = [[x, z, -1] for x, z, _ in inside] + [[x, z, 1] for x, z, _ in inside]
        points += [[x, z, -1] for x, z, _ in outside] + [[x, z, 1] for x, z, _ in outside]
        # Under the model: from below, the platform's bottom face is the first thing met.
        points += [[cx + 0.04, cz - 0.03, 1], [cx - 0.05, cz + 0.02, 1]]
        hits = cast(xr, viewer, model, points)
        n = len(inside)
        tops, bottoms, out_down, out_up = hits[:n], hits[n : 2 * n], hits[2 * n : 3 * n], hits[3 * n : 4 * n]
        for (x, z, edge), top, bottom in zip(inside, tops, bottoms, strict=True):
            assert top is not None and abs(top - TOP) < 0.003, (
                f"'{viewer}': expected the platform's top face at y = {TOP:.3f} (the model's bottom) 1.5 cm inside "
                f"its {edge}, at x = {x:.3f}, z = {z:.3f}; a ray cast down found "
                f"{'nothing' if top is None else f'y = {top:.3f}'}"
            )
            assert bottom is not None and abs(bottom - (TOP - THICK)) < 0.003, (
                f"'{viewer}': expected the platform's bottom face at y = {TOP - THICK:.3f} (2 cm below its top) 1.5 cm "
                f"inside its {edge}, at x = {x:.3f}, z = {z:.3f}; a ray cast up found "
                f"{'nothing' if bottom is None else f'y = {bottom:.3f}'}"
            )
        for (x, z, edge), down, up in zip(outside, out_down, out_up, strict=True):
            assert down is None and up is None, (
                f"'{viewer}': expected nothing of the viewer 1.5 cm outside its platform's {edge}, at x = {x:.3f}, "
                f"z = {z:.3f}; rays cast there met something at y = {down if down is not None else up:.3f}"
            )
        for (x, z, _), bottom in zip(points[4 * n :], hits[4 * n :], strict=True):
            assert bottom is not None and abs(bottom - (TOP - THICK)) < 0.003, (
                f"'{viewer}': expected the platform's bottom face under the model at x = {x:.3f}, z = {z:.3f} "
                f"(y = {TOP - THICK:.3f}); a ray cast up found {'nothing' if bottom is None else f'y = {bottom:.3f}'}"
            )
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_dragging_the_platform_moves_the_whole_viewer(xr):
    ready(xr)
    hand = xr.hand("dominant")
    _, (cx, _, cz), hx, hz = VIEWERS["crate-viewer"]
    # Pinch on the crate's platform, 3 cm inside its front edge, and hold still.
    drag = Drag(xr, hand, "crate-viewer", (cx + 0.05, TOP, cz + hz - 0.03))
    drag.pinch(4)
    hand.start_select(12)
    at = where(xr, "crate-viewer")
    assert math.dist(at, drag.start) < 0.005, (
        f"pinching the platform must not move the viewer; it went from {_fmt(drag.start)} to {_fmt(at)}"
    )
    # Sweep the ray right and up, then left and back down.
    g = drag.grabbed
    steps = [(g[0] + 0.04 * k, g[1] + 0.015 * k, g[2]) for k in range(1, 8)]
    steps += [(g[0] + 0.28 - 0.02 * k, g[1] + 0.105 - 0.005 * k, g[2] - 0.005 * k) for k in range(1, 9)]
    check_follows([drag], [steps], "a drag of the crate's platform")
    held = where(xr, "crate-viewer")
    assert math.dist(held, drag.start) > 0.1, f"expected the drag to carry the crate away; it is at {_fmt(held)}"
    xr.step(30)
    assert math.dist(where(xr, "crate-viewer"), held) < 0.005, "the viewer drifted while the ray held still"
    # Release: it stays, and the ray moving afterwards moves nothing.
    hand.end_select(4)
    released = where(xr, "crate-viewer")
    assert math.dist(released, held) < 0.005, f"releasing moved the viewer from {_fmt(held)} to {_fmt(released)}"
    for target in [(g[0] - 0.2, g[1] + 0.1, g[2]), (g[0] + 0.15, g[1] - 0.05, g[2] + 0.05)]:
        hand.point_to(target, speed=60)
        xr.step(2)
        now = where(xr, "crate-viewer")
        assert math.dist(now, released) < 0.001, (
            f"after the release the viewer must stay at {_fmt(released)}; moving the ray took it to {_fmt(now)}"
        )
    assert turned_deg(xr, "crate-viewer") < 1.0
    # The crate model went along with its viewer.
    lo, hi = xr.find_by_tag("crate").bbox
    centre = tuple((lo[i] + hi[i]) / 2 for i in range(3))
    want = (released[0], released[1] + 0.1, released[2])
    assert math.dist(centre, want) < 0.005, f"expected the crate model at {_fmt(want)}; it is at {_fmt(centre)}"
    # ... and so did its platform: it is under the crate where it now is, and gone from where it was.
    rx, ry, rz = released
    here = [(rx + s * (hx - 0.015), rz + f * hz) for s in (-1, 1) for f in (-0.5, 0.5)]
    here += [(rx + f * hx, rz + s * (hz - 0.015)) for s in (-1, 1) for f in (-0.5, 0.5)]
    grid = [(cx + i * 0.1 * hx, cz + j * 0.1 * hz) for i in range(-9, 10, 3) for j in range(-9, 10, 3)]
    gone = [(x, z) for x, z in grid if abs(x - rx) > hx + 0.02 or abs(z - rz) > hz + 0.02]
    assert len(gone) >= 5, (
        f"the drag did not carry the crate far enough from its platform's first place ({_fmt(released)})"
    )
    hits = cast(xr, "crate-viewer", "crate", [[x, z, -1] for x, z in here + gone], above=ry + 0.6)
    for (x, z), top in zip(here, hits[: len(here)], strict=True):
        assert top is not None and abs(top - ry) < 0.003, (
            f"after the drag, expected the platform's top face at y = {ry:.3f} under the crate where it now is, at "
            f"x = {x:.3f}, z = {z:.3f}; a ray cast down found {'nothing' if top is None else f'y = {top:.3f}'}"
        )
    left = [((x, z), y) for (x, z), y in zip(gone, hits[len(here) :], strict=True) if y is not None]
    assert not left, f"after the drag, something of the viewer is still where its platform was: at {left[:2]}"
    # The other hand pinches the platform where it now is (2.5 cm inside its front edge) and moves it on.
    other = xr.hand("non_dominant")
    other.point_to((0.0, 1.3, -0.8))
    again = Drag(xr, other, "crate-viewer", (released[0] - 0.08, released[1], released[2] + hz - 0.025))
    again.pinch(4)
    g = again.grabbed
    steps = [(g[0] - 0.02 * k, g[1] + 0.01 * k, g[2] + 0.01 * k) for k in range(1, 9)]
    check_follows([again], [steps], "a second drag of the crate's platform where it now is, by the other hand")
    assert math.dist(where(xr, "crate-viewer"), released) > 0.08, "the second drag did not move the viewer on"
    other.end_select(4)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_both_hands_drag_two_viewers_at_once(xr):
    ready(xr)
    one, other = xr.hand("dominant"), xr.hand("non_dominant")
    _, (cx, _, cz), _hx, hz = VIEWERS["crate-viewer"]
    _, (vx, _, vz), vhx, _vhz = VIEWERS["vase-viewer"]
    # The other hand grabs the vase (which does not scale, so it leaves the next pinch free) by the
    # margin right of it, then the dominant hand grabs the crate by its front margin.
    vase = Drag(xr, other, "vase-viewer", (vx + vhx - 0.09, TOP, vz + 0.02))
    vase.pinch(4)
    crate = Drag(xr, one, "crate-viewer", (cx - 0.06, TOP, cz + hz - 0.03))
    crate.pinch(4)
    for drag in (crate, vase):
        assert math.dist(where(xr, drag.viewer), drag.start) < 0.005, f"pinching moved '{drag.viewer}'"
    cg, vg = crate.grabbed, vase.grabbed
    crate_steps = [(cg[0] + 0.03 * k, cg[1] + 0.012 * k, cg[2]) for k in range(1, 10)]
    vase_steps = [(vg[0] - 0.01 * k, vg[1] + 0.02 * k, vg[2] - 0.01 * k) for k in range(1, 10)]
    check_follows([crate, vase], [crate_steps, vase_steps], "both hands dragging a platform each")
    for drag in (crate, vase):
        assert math.dist(where(xr, drag.viewer), drag.start) > 0.08, f"'{drag.viewer}' was not carried away"
    # The dominant hand lets go; the other keeps dragging the vase, and the crate stays.
    one.end_select(4)
    crate_at = where(xr, "crate-viewer")
    vg2 = vase_steps[-1]
    more = [(vg2[0] - 0.03 * k, vg2[1] - 0.01 * k, vg2[2]) for k in range(1, 7)]
    stay = [(cg[0] - 0.03 * k, cg[1], cg[2]) for k in range(1, 7)]
    worst = 0.0
    for a, b in zip(more, stay, strict=True):
        other.point_to(a, speed=40)
        one.point_to(b, speed=40)
        xr.step(1)
        worst = max(worst, vase.error())
        assert math.dist(where(xr, "crate-viewer"), crate_at) < 0.001, (
            "the released crate must stay put while the other hand drags the vase"
        )
    assert worst < 0.015, (
        f"the vase stopped following its hand's ray when the other hand let go ({worst * 100:.1f} cm off)"
    )
    other.end_select(4)
    vase_at = where(xr, "vase-viewer")
    other.point_to((vg2[0] + 0.1, vg2[1], vg2[2]), speed=60)
    xr.step(2)
    assert math.dist(where(xr, "vase-viewer"), vase_at) < 0.001, "the released vase moved with the ray"
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
def test_turning_still_works_and_a_turn_only_viewer_has_no_platform(xr):
    ready(xr)
    lx, _, lz = LAMP
    # Where a platform with the default margin would be (40 x 40 cm), there is nothing.
    points = [[lx + s * 0.185, lz + f * 0.1, d] for s in (-1, 1) for f in (-1, 0, 1) for d in (-1, 1)]
    points += [[lx + f * 0.1, lz + s * 0.185, d] for s in (-1, 1) for f in (-1, 0, 1) for d in (-1, 1)]
    hits = cast(xr, "lamp-viewer", "lamp", points)
    found = [(p, y) for p, y in zip(points, hits, strict=True) if y is not None]
    assert not found, f"a viewer that may only turn must have no platform; rays met it at {found[:3]}"
    hand = xr.hand("dominant")
    # A pinch beside the lamp (where its platform's margin would be) moves nothing.
    hand.point_to((lx + 0.03, TOP, lz + 0.17))
    hand.start_select(4)
    for k in range(1, 6):
        hand.point_to((lx + 0.03 + 0.04 * k, TOP + 0.02 * k, lz + 0.17), speed=40)
        xr.step(1)
    hand.end_select(4)
    assert math.dist(where(xr, "lamp-viewer"), LAMP) < 0.001, f"the lamp moved to {_fmt(where(xr, 'lamp-viewer'))}"
    # Pinching a model and moving the hand sideways turns it about the vertical, in place.
    for viewer, model, turner in (("crate-viewer", "crate", hand), ("lamp-viewer", "lamp", xr.hand("non_dominant"))):
        start = where(xr, viewer)
        lo, hi = xr.find_by_tag(model).bbox
        turner.point_to(((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, hi[2]))
        xr.step(1)
        turner.start_select(4)
        x, y, z = turner.position
        turner.move_hand((x + 0.1, y, z), speed=0.3)
        xr.step(2)
        turned = turned_deg(xr, viewer)
        q = xr.find_by_tag(viewer).quaternion
        assert turned > 10, (
            f"pinching '{model}' and moving the hand 10 cm sideways must turn it; it turned {turned:.1f} degrees"
        )
        assert abs(q[0]) < 1e-3 and abs(q[2]) < 1e-3, (
            f"'{model}' must turn about the vertical only; its rotation is {q}"
        )
        assert math.dist(where(xr, viewer), start) < 0.005, (
            f"turning '{model}' must not move it; its viewer went from {_fmt(start)} to {_fmt(where(xr, viewer))}"
        )
        turner.end_select(4)
        turner.move_hand((x, y, z), speed=0.3)
    assert_no_errors(xr)
