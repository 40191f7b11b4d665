"""Runtime tests of the depth-sensing app, in two furnished rooms.

The app must turn on XR Blocks' depth sensing and occlusion, show a depth-status indicator tagged
'depth-status' (a sphere of radius 0.03 m at (-0.2, 1.25, -0.6), green while depth data is
available and red otherwise, its state reporting the availability and the depth at the centre of
the view) and a hit marker tagged 'depth-hit' (a bright sphere of radius 0.025 m where the line of
sight meets the room according to the depth data, hidden without depth data).

Nothing the app reports is taken on trust. The depth data is read by the harness itself, inside
its kernel, from the depth image of the XR Blocks core it captured (`xb.core.depth.depthArray[0]`
read at the centre of the view, as `getDepth(0.5, 0.5)` does); the room's truth comes from rays
cast from the eyes into the simulated room (the scene the simulator renders its depth from), at
the centre of the view and at points 1.5 depth pixels around it. A depth read back from the GPU
lands between two frames: the app's reading of a frame is the harness's reading after the
previous frame or after that frame, and nothing older (the harness reads after every frame).

Poses: looking ahead, at the table, turned 60 degrees and looking down, looking up at the ceiling,
after stepping aside and turning, crouched and looking up across the room, and at the floor;
then frame by frame while the user turns and walks. The hands are hidden so that they stay out of
the depth image. The hands play no part in this app, so each test runs for one (right-dominant)
user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = [
    pytest.mark.xr_scenes("living_room", "kitchen"),
    pytest.mark.xr_hands("right"),  # the hands play no part: one variant is enough
    pytest.mark.xr_timeout(240),
]

STATUS = "depth-status"
HIT = "depth-hit"
GREEN = (0x00, 0xC8, 0x53)
RED = (0xD5, 0x00, 0x00)
INDICATOR_CENTRE = (-0.2, 1.25, -0.6)
INDICATOR_RADIUS = 0.03
MARKER_RADIUS = 0.025
FAST = 100000.0  # deg/s: a turn done in one frame
FRESH_FRAMES = 5  # frames after a pose change before the still-pose checks
ARRIVAL_FRAMES = 40  # depth data must arrive within this many frames of the start
QUERY_PX = 1.5  # neighbourhood of the centre, in depth pixels, for the room's truth

# What the harness reads after a frame: the depth image at the centre of the view (the pixel
# getDepth(0.5, 0.5) reads), the eyes and viewing direction, the pose the depth image was taken
# from, whether depth is enabled, and the occlusion pass XR Blocks made for the core.
READ = r"""
(h) => {
  const THREE = h.THREE, d = h.core.depth, cam = h.core.camera;
  cam.updateMatrixWorld(true);
  const eye = cam.getWorldPosition(new THREE.Vector3());
  const fwd = new THREE.Vector3(0, 0, -1).transformDirection(cam.matrixWorld);
  const arr = d && d.depthArray && d.depthArray[0];
  let centre = null, depthEye = null, depthFwd = null;
  if (arr && arr.length) {
    const w = d.width, hh = d.height;
    const x = Math.round(Math.min(Math.max(0.5 * w, 0), w - 1));
    const y = Math.round(Math.min(Math.max(0.5 * hh, 0), hh - 1));
    centre = arr[y * w + x] * (d.rawValueToMeters || 1);
    const p = d.depthCameraPositions && d.depthCameraPositions[0];
    const q = d.depthCameraRotations && d.depthCameraRotations[0];
    if (p && q) {
      depthEye = p.toArray();
      depthFwd = new THREE.Vector3(0, 0, -1).applyQuaternion(q).toArray();
    }
  }
  return {
    enabled: !!(d && d.enabled),
    available: !!(arr && arr.length),
    centre, eye: eye.toArray(), fwd: fwd.toArray(), depthEye, depthFwd,
    occlusionOption: !!(d && d.options && d.options.occlusion && d.options.occlusion.enabled),
    occlusionPass: !!(d && d.occlusionPass && typeof d.occlusionPass.render === 'function'),
  };
}
"""

# The room's truth at the centre of the view: rays from the eyes through the centre and through
# points `px` depth pixels around it, cast into the simulator's room; their depths along the
# viewing direction (min, max).
TRUTH = r"""
(h, arg) => {
  const THREE = h.THREE, cam = h.core.camera, scene = h.core.simulator.simulatorScene;
  cam.updateMatrixWorld(true);
  scene.updateMatrixWorld(true);
  const eye = cam.getWorldPosition(new THREE.Vector3());
  const rc = new THREE.Raycaster();
  rc.far = 60;
  const shown = (o) => { for (let x = o; x; x = x.parent) if (!x.visible) return false; return true; };
  const viewDepth = (p) => -p.clone().applyMatrix4(cam.matrixWorldInverse).z;
  const depths = [];
  for (const a of [-1, 0, 1]) for (const b of [-1, 0, 1]) {
    const u = 0.5 + a * arg.px / 160, v = 0.5 + b * arg.px / 160;
    const dir = new THREE.Vector3(2 * u - 1, 2 * v - 1, 0.5).unproject(cam).sub(eye).normalize();
    rc.set(eye, dir);
    const hit = rc.intersectObject(scene, true).find(
      (i) => i.object.isMesh && !i.object.isSkinnedMesh && shown(i.object));
    depths.push(hit ? viewDepth(hit.point) : Infinity);
  }
  return {min: Math.min(...depths), max: Math.max(...depths)};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def rgb(hex_colour: str | None) -> tuple[int, int, int] | None:
    if not hex_colour or not hex_colour.startswith("#") or len(hex_colour) != 7:
        return None
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def colour_is(hex_colour: str | None, want: tuple[int, int, int], tol: int = 8) -> bool:
    got = rgb(hex_colour)
    return got is not None and max(abs(a - b) for a, b in zip(got, want, strict=True)) <= tol


def along(origin, direction, distance: float):
    return tuple(o + d * distance for o, d in zip(origin, direction, strict=True))


def off_line(eye, fwd, point) -> tuple[float, float]:
    """(distance along the viewing direction, distance from the line of sight) of `point`."""
    rel = [p - e for p, e in zip(point, eye, strict=True)]
    t = sum(r * f for r, f in zip(rel, fwd, strict=True))
    perp = math.sqrt(max(0.0, sum(r * r for r in rel) - t * t))
    return t, perp


def depth_tol(d: float) -> float:
    return 0.03 + 0.02 * d


def hide_hands(xr) -> None:
    for hand in ("left", "right"):
        xr.hand(hand).hide()


def nodes(xr) -> dict:
    """The indicator and the marker (one reading of the scene graph)."""
    found = {n.tag: n for n in xr.tagged() if n.tag in (STATUS, HIT) and n.root == "scene"}
    for tag in (STATUS, HIT):
        if tag not in found:
            xr.find_by_tag(tag)  # fails with a message naming the missing tag
    return found


def marker_drawn(xr) -> bool:
    """The marker is visible (it and its parents) and among what the app draws."""
    return xr.find_by_tag(HIT).visible and any(HIT in d.tags for d in xr.drawn(("mesh", "points", "sprite")))


def wait_for_depth(xr) -> dict:
    """Step one frame at a time until the harness reads depth data, then two frames more."""
    for _ in range(ARRIVAL_FRAMES):
        if xr.probe(READ)["available"]:
            break
        xr.step(1)
    read = xr.probe(READ)
    assert read["enabled"], "expected XR Blocks' depth sensing to be on (options.enableDepth() before xb.init)"
    assert read["available"], f"expected depth data within {ARRIVAL_FRAMES} frames of the start; none arrived"
    xr.step(1)
    xr.step(1)
    return xr.probe(READ)


def fresh(xr) -> dict:
    """FRESH_FRAMES frames, one harness call each (a depth readback lands between harness calls)."""
    for _ in range(FRESH_FRAMES):
        xr.step(1)
    return xr.probe(READ)


def poses(xr):
    """Seven views of the room; yields a label after each, FRESH_FRAMES frames after it was taken."""
    yield "looking ahead from the start"
    xr.head.look_at("table", speed=FAST)
    yield "looking at the table"
    xr.head.rotate(60, -20, speed=FAST)
    yield "turned 60 degrees left and 20 degrees down"
    xr.head.rotate(-40, 55, speed=FAST)
    yield "looking up at the ceiling"
    xr.head.teleport_to((1.0, 1.5, -0.5))
    xr.head.rotate(-80, -10, speed=FAST)
    yield "after stepping aside to (1.0, 1.5, -0.5) and turning right"
    xr.head.teleport_to((-0.4, 0.9, 0.3))
    xr.head.look_at((0.0, 1.4, -3.0), speed=FAST)
    yield "crouched at (-0.4, 0.9, 0.3), looking up across the room"
    xr.head.teleport_to((0.3, 1.5, 0.2))
    xr.head.look_at("floor", speed=FAST)
    yield "standing at (0.3, 1.5, 0.2), looking at the floor"


# --- turning on, and the moment depth arrives -----------------------------------------------------


def test_depth_turns_on_and_the_indicator_turns_green_when_depth_arrives(xr):
    """Frame by frame from the first frame: before the harness reads depth data the indicator is
    red, its state says no depth and the marker is hidden; from the frame after the harness first
    reads it, the indicator is green, its state holds the live depth and the marker is shown, also
    while the user turns (the depth changes)."""
    read = xr.probe(READ)
    assert xr.depth().enabled and read["enabled"], (
        "expected XR Blocks' depth sensing to be on (options.enableDepth() before xb.init); it is off"
    )
    assert read["occlusionOption"], (
        "expected occlusion of virtual content by the real world to be on "
        "(options.depth.occlusion.enabled = true); it is off"
    )
    assert read["occlusionPass"], (
        "expected XR Blocks to have set up its occlusion pass (occlusion turned on before xb.init); "
        "the depth manager has none"
    )
    seen_before = seen_after = 0
    prev = None  # the harness's reading after the previous frame
    arrived_at = None
    for frame in range(ARRIVAL_FRAMES + 40):
        if frame:
            if arrived_at is not None and frame > arrived_at + 8:
                xr.head.rotate(3, 1, speed=FAST)  # the depth keeps changing
            else:
                xr.step(1)
            read = xr.probe(READ)
        found = nodes(xr)
        status, marker = found[STATUS], found[HIT]
        state = status.state if isinstance(status.state, dict) else {}
        if not read["available"]:
            seen_before += 1
            assert colour_is(status.color, RED), (
                f"frame {frame}: expected the indicator red (#d50000) while no depth data is available; "
                f"observed {status.color}"
            )
            assert state.get("depthAvailable") is False and state.get("centerDepth", "missing") is None, (
                f"frame {frame}: expected state depthAvailable false and centerDepth null while no depth "
                f"data is available; observed {status.state}"
            )
            assert not (marker.visible and marker_drawn(xr)), (
                f"frame {frame}: expected the depth-hit marker hidden while no depth data is available"
            )
        if prev is not None and prev["available"]:
            seen_after += 1
            since = f"frame {frame}, {frame - arrived_at} after depth data arrived"
            assert colour_is(status.color, GREEN), (
                f"{since}: expected the indicator green (#00c853); observed {status.color}"
            )
            assert state.get("depthAvailable") is True, (
                f"{since}: expected state depthAvailable true; observed {status.state}"
            )
            d = state.get("centerDepth")
            options = [r["centre"] for r in (prev, read) if r["centre"] is not None]
            assert isinstance(d, (int, float)) and any(abs(d - c) <= 1e-3 for c in options), (
                f"{since}: expected state centerDepth the live depth at the centre of the view, "
                f"{' or '.join(f'{c:.3f}' for c in options)} m; observed {status.state}"
            )
            assert marker.visible, f"{since}: expected the depth-hit marker shown"
        if read["available"] and arrived_at is None:
            arrived_at = frame
        prev = read
        if arrived_at is not None and frame >= arrived_at + 28:
            break
    assert seen_before >= 1, "expected to observe at least one frame before depth data arrived"
    assert arrived_at is not None, f"expected depth data within {ARRIVAL_FRAMES} frames; none arrived"
    assert seen_after >= 25, f"expected to observe 25 frames with depth data; observed {seen_after}"
    assert marker_drawn(xr), "expected the depth-hit marker drawn while depth data is available"
    assert xr.probe(READ)["occlusionPass"]
    assert_no_errors(xr)


# --- what the two objects look like ------------------------------------------------------------


def bbox_size(node):
    assert node.bbox is not None, f"expected {node.tag!r} to have geometry; observed none"
    lo, hi = node.bbox
    return tuple(b - a for a, b in zip(lo, hi, strict=True)), tuple((a + b) / 2 for a, b in zip(lo, hi, strict=True))


def assert_sphere(xr, tag: str, radius: float) -> tuple[float, ...]:
    node = xr.find_by_tag(tag)
    size, centre = bbox_size(node)
    for axis, s in zip("xyz", size, strict=True):
        assert abs(s - 2 * radius) <= 0.25 * 2 * radius, (
            f"expected {tag!r} to be a sphere of radius about {radius} m ({2 * radius:.3f} m across); "
            f"observed it {s:.3f} m across along {axis} (box {fmt(size)})"
        )
    shapes = [d.geometry for d in xr.drawn(("mesh",)) if tag in d.tags]
    assert shapes, f"expected {tag!r} to be drawn as a mesh; observed nothing drawn with that tag"
    assert all(("Sphere" in g or "Icosahedron" in g or "Dodecahedron" in g) for g in shapes), (
        f"expected {tag!r} to be a sphere; observed geometry {shapes}"
    )
    return centre


def test_indicator_and_marker_are_small_spheres_where_stated(xr):
    hide_hands(xr)
    cylinders = [d for d in xr.drawn(("mesh",)) if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the starting app's cylinder replaced; observed {cylinders}"
    wait_for_depth(xr)
    centre = assert_sphere(xr, STATUS, INDICATOR_RADIUS)
    assert math.dist(centre, INDICATOR_CENTRE) <= 0.02, (
        f"expected the depth-status indicator centred at {INDICATOR_CENTRE}; observed {fmt(centre)}"
    )
    assert marker_drawn(xr), "expected the depth-hit marker shown once depth data is available"
    assert_sphere(xr, HIT, MARKER_RADIUS)
    colour = rgb(xr.find_by_tag(HIT).color)
    assert colour is not None and max(colour) >= 0x80, (
        f"expected the depth-hit marker in a bright colour; observed {xr.find_by_tag(HIT).color}"
    )
    # The indicator stays at its place in the room whatever the user does.
    for label, place, turn in (
        ("turned 70 degrees left and looking down", None, (70, -30)),
        ("after stepping aside to (0.8, 1.5, 0.4)", (0.8, 1.5, 0.4), (-40, 0)),
        ("crouched at (-0.3, 0.9, 0.2)", (-0.3, 0.9, 0.2), (-30, 20)),
    ):
        if place:
            xr.head.teleport_to(place)
        xr.head.rotate(*turn, speed=FAST)
        fresh(xr)
        found = nodes(xr)
        _, here = bbox_size(found[STATUS])
        assert math.dist(here, INDICATOR_CENTRE) <= 0.02, (
            f"{label}: expected the depth-status indicator to stay at {INDICATOR_CENTRE}; observed {fmt(here)}"
        )
        assert found[HIT].visible, f"{label}: expected the depth-hit marker shown"
    assert_sphere(xr, HIT, MARKER_RADIUS)
    assert_no_errors(xr)


# --- the centre depth and the marker -----------------------------------------------------------------


def check_reading(label: str, xr, prev: dict, read: dict) -> tuple[float, tuple]:
    """The app's centre depth is the depth data's (as the harness read it after this frame or the
    one before), and the marker lies that depth ahead of the eyes along the viewing direction (or
    of the pose the depth image was taken from)."""
    found = nodes(xr)
    status, node = found[STATUS], found[HIT]
    state = status.state if isinstance(status.state, dict) else {}
    d = state.get("centerDepth")
    options = [r["centre"] for r in (prev, read) if r.get("centre") is not None]
    assert isinstance(d, (int, float)) and any(abs(d - c) <= 1e-3 for c in options), (
        f"{label}: expected the indicator's state centerDepth to be the depth data's depth at the centre of "
        f"the view, {' or '.join(f'{c:.3f}' for c in options)} m; observed {state}"
    )
    assert state.get("depthAvailable") is True, f"{label}: expected state depthAvailable true; observed {state}"
    assert colour_is(status.color, GREEN), f"{label}: expected the indicator green; observed {status.color}"
    assert node.visible, f"{label}: expected the depth-hit marker shown"
    _, marker = bbox_size(node)
    goals = []
    for depth in options:
        goals.append(along(read["eye"], read["fwd"], depth))
        for r in (prev, read):
            if r.get("depthEye") and r.get("depthFwd"):
                goals.append(along(r["depthEye"], r["depthFwd"], depth))
    gap = min(math.dist(marker, g) for g in goals)
    assert gap <= 0.02 + 0.01 * d, (
        f"{label}: expected the depth-hit marker {d:.2f} m ahead of the eyes {fmt(read['eye'])} along the viewing "
        f"direction {fmt(read['fwd'])}, at {fmt(goals[0])}; observed it at {fmt(marker)}, {gap:.3f} m away"
    )
    return d, marker


def test_centre_depth_and_marker_match_the_room_in_several_poses(xr):
    hide_hands(xr)
    wait_for_depth(xr)
    depths = []
    for label in poses(xr):
        prev = fresh(xr)
        xr.step(1)
        read = xr.probe(READ)
        d, marker = check_reading(label, xr, prev, read)
        truth = xr.probe(TRUTH, {"px": QUERY_PX})
        lo, hi = truth["min"] - depth_tol(truth["min"]), truth["max"] + depth_tol(truth["max"])
        assert lo <= d <= hi, (
            f"{label}: expected the indicator's state centerDepth to be the depth of the room at the centre of "
            f"the view, {truth['min']:.2f}-{truth['max']:.2f} m; observed {d}"
        )
        t, perp = off_line(read["eye"], read["fwd"], marker)
        assert perp <= 0.02 + 0.01 * t and lo <= t <= hi, (
            f"{label}: expected the depth-hit marker where the line of sight from {fmt(read['eye'])} along "
            f"{fmt(read['fwd'])} meets the room, {truth['min']:.2f}-{truth['max']:.2f} m ahead; observed it at "
            f"{fmt(marker)}, {t:.2f} m ahead and {perp:.3f} m off the line of sight"
        )
        depths.append(d)
    assert max(depths) - min(depths) > 1.0, f"expected the centre depth to differ between the poses; observed {depths}"
    assert_no_errors(xr)


def test_centre_depth_and_marker_follow_every_frame_while_the_user_moves(xr):
    """The user turns (left, then down, then right and up) and walks, one frame per harness call;
    in every frame the app's centre depth is the live depth data's and the marker lies on the line
    of sight at that depth. The centre depth takes many different values on the way."""
    hide_hands(xr)
    prev = wait_for_depth(xr)

    def walk():
        x, y, z = xr.head.position
        xr.head.teleport_to((x + 0.04, y - 0.01, z - 0.03))

    moves = (
        [("turning left", lambda: xr.head.rotate(3.0, 0.0, speed=FAST))] * 10
        + [("looking down", lambda: xr.head.rotate(0.0, -3.0, speed=FAST))] * 8
        + [("turning right and up", lambda: xr.head.rotate(-4.0, 2.0, speed=FAST))] * 12
        + [("walking and crouching", walk)] * 8
        + [("standing still", lambda: xr.step(1))] * 4
    )
    values = set()
    for i, (what, move) in enumerate(moves):
        move()
        read = xr.probe(READ)
        d, _ = check_reading(f"frame {i + 1} ({what})", xr, prev, read)
        values.add(round(d, 3))
        prev = read
    assert len(values) >= 10, (
        f"expected the centre depth to keep changing while the user turns and walks; observed only "
        f"{len(values)} different values: {sorted(values)}"
    )
    assert_no_errors(xr)
