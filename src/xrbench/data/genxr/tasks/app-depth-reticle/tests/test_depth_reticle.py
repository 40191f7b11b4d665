"""Runtime tests of the depth reticle, in two furnished rooms.

The app shows one small flat ring tagged 'depth-reticle' (a RingGeometry or TorusGeometry mesh,
4 cm across) on the head-forward ray, 1 cm (0.5-2 cm) in front of the real surface the depth data
shows at the centre of the view, its axis along the ray; it is hidden while there is no depth
data, where the centre depth is 0 or farther than 3 m.

Nothing the app reports is taken on trust. The ring is read from the scene graph (its world
position, the world direction of its local z axis, its geometry's extent along its own axes, the
visibility of it and its parents). The depth data is read by the harness itself, inside its kernel,
from the depth image of the XR Blocks core (the pixel `getDepth(0.5, 0.5)` reads). A depth read
back from the GPU lands between two frames: the app's reading in a frame is the harness's reading
after the previous frame or after that frame, and nothing older (the harness reads after every
frame). The ray is the camera's (or the pose the depth image was taken from). The room's truth
comes from rays cast from the eyes into the simulated room (the scene the simulator renders its
depth from), at the centre of the view and 1.5 depth pixels around it.

Poses: looking at the table, down at the floor, up at the ceiling, after walking and turning,
crouched, level at a wall more than 3 m away, and through the doorway into nothing; then frame by
frame while the user turns up, down and walks, the ring hiding and showing on the way. The hands
are hidden so that they stay out of the depth image; they play no part, so each test runs for one
(right-dominant) user.
"""

from __future__ import annotations

import itertools
import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = [
    pytest.mark.xr_scenes("living_room", "kitchen"),
    pytest.mark.xr_hands("right"),  # the hands play no part: one variant is enough
    pytest.mark.xr_timeout(300),
]

RING = "depth-reticle"
OUTER_RADIUS = 0.02
MAX_RANGE = 3.0
STANDOFF = (0.005, 0.02)  # metres in front of the surface
SLACK = 0.002  # metres of rounding on the stand-off
ON_RAY = 0.01  # metres off the ray
FACING_DEG = 10.0
FAST = 100000.0  # deg/s: a turn done in one frame
FRESH_FRAMES = 5  # frames after a pose change before the still-pose checks
ARRIVAL_FRAMES = 40  # depth data must arrive within this many frames of the start
UNKNOWN_FRAMES = 12  # frames from the start with no depth known
QUERY_PX = 1.5  # neighbourhood of the centre, in depth pixels, for the room's truth

Vec = tuple[float, float, float]

# One frame's reading: the depth image's centre pixel (as getDepth(0.5, 0.5) reads it), the eyes and
# viewing direction, the pose the depth image was taken from, and every tagged ring of the app's
# scene: its world centre, the world direction of its local z axis, whether it and its parents are
# visible, its geometry type and the extent of its geometry along its own axes (world scale).
READ = r"""
(h, tag) => {
  const THREE = h.THREE, d = h.core.depth, cam = h.guard(h.core.camera, 'the camera');
  const scene = h.guard(h.core.scene, 'the scene');
  cam.updateMatrixWorld(true);
  scene.updateMatrixWorld(true);
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
  const rings = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const t = o.userData && o.userData.xrblocksDevtools;
    if (!t || String(t.tag) !== tag) return;
    let shown = true;
    for (let x = o; x; x = x.parent) if (!x.visible) shown = false;
    const g = o.geometry;
    let extent = null;
    if (g && g.attributes && g.attributes.position) {
      if (!g.boundingBox) g.computeBoundingBox();
      const s = o.getWorldScale(new THREE.Vector3());
      const size = g.boundingBox.getSize(new THREE.Vector3());
      extent = [Math.abs(size.x * s.x), Math.abs(size.y * s.y), Math.abs(size.z * s.z)];
    }
    let centreW;
    if (g && g.attributes && g.attributes.position) {
      centreW = g.boundingBox.getCenter(new THREE.Vector3()).applyMatrix4(o.matrixWorld);
    } else {
      centreW = o.getWorldPosition(new THREE.Vector3());
    }
    const axis = new THREE.Vector3(0, 0, 1).transformDirection(o.matrixWorld);
    rings.push({
      name: o.name || o.type, isMesh: !!o.isMesh, geometry: g ? g.type : '', extent,
      centre: centreW.toArray(), axis: axis.toArray(), shown,
    });
  });
  return {
    enabled: !!(d && d.enabled),
    available: !!(arr && arr.length),
    centre, eye: eye.toArray(), fwd: fwd.toArray(), depthEye, depthFwd, rings,
  };
}
"""

# The room's truth at the centre of the view: rays from the eyes through the centre and through
# points `px` depth pixels around it, cast into the simulator's room; their depths along the
# viewing direction (min, max; null where a ray meets nothing).
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
    depths.push(hit ? viewDepth(hit.point) : null);
  }
  const known = depths.filter((x) => x !== null);
  return {min: known.length ? Math.min(...known) : null, max: known.length ? Math.max(...known) : null,
          misses: depths.length - known.length};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def depth_tol(d: float) -> float:
    return 0.03 + 0.02 * d


def off_line(origin, direction, point) -> tuple[float, float]:
    """(distance along the ray, distance from the ray) of `point`."""
    rel = [p - o for p, o in zip(point, origin, strict=True)]
    t = sum(r * f for r, f in zip(rel, direction, strict=True))
    perp = math.sqrt(max(0.0, sum(r * r for r in rel) - t * t))
    return t, perp


def angle_deg(a, b) -> float:
    na = math.sqrt(sum(x * x for x in a)) or 1.0
    nb = math.sqrt(sum(x * x for x in b)) or 1.0
    c = sum(x * y for x, y in zip(a, b, strict=True)) / (na * nb)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def wants_ring(depth: float | None) -> bool:
    """Whether a centre depth calls for the ring: known (more than 0) and at most 3 m."""
    return depth is not None and 0.0 < depth <= MAX_RANGE


def read(xr) -> dict:
    return xr.probe(READ, RING)


def hide_hands(xr) -> None:
    for hand in ("left", "right"):
        xr.hand(hand).hide()


def wait_for_depth(xr) -> dict:
    for _ in range(ARRIVAL_FRAMES):
        if read(xr)["available"]:
            break
        xr.step(1)
    r = read(xr)
    assert r["enabled"], "expected XR Blocks' depth sensing to be on (options.enableDepth() before xb.init)"
    assert r["available"], f"expected depth data within {ARRIVAL_FRAMES} frames of the start; none arrived"
    xr.step(1)
    return read(xr)


def fresh(xr) -> tuple[dict, dict]:
    """FRESH_FRAMES frames, one harness call each; the readings after the last two."""
    readings = []
    for _ in range(FRESH_FRAMES):
        xr.step(1)
        readings.append(read(xr))
    return readings[-2], readings[-1]


def shown_rings(r: dict) -> list[dict]:
    return [g for g in r["rings"] if g["shown"]]


def check_frame(label: str, prev: dict, cur: dict) -> dict | None:
    """The ring in this frame agrees with the depth data of this frame or the one before: hidden
    where that depth calls for no ring, otherwise on the head-forward ray, 0.5-2 cm in front of the
    surface, its axis along the ray. Returns the ring shown (or None)."""
    assert len(cur["rings"]) <= 1, (
        f"{label}: expected exactly one object tagged {RING!r}; observed {len(cur['rings'])}: "
        f"{[g['name'] for g in cur['rings']]}"
    )
    depths = []
    for r in (prev, cur):
        if r["centre"] not in depths:
            depths.append(r["centre"])
    said = " or ".join("none" if d is None else f"{d:.3f} m" for d in depths)
    rings = shown_rings(cur)
    if not rings:
        assert any(not wants_ring(d) for d in depths), (
            f"{label}: expected the ring shown: the depth at the centre of the view is {said} (known and at most "
            f"{MAX_RANGE} m); observed it hidden or missing"
        )
        return None
    ring = rings[0]
    assert any(wants_ring(d) for d in depths), (
        f"{label}: expected the ring hidden: the depth at the centre of the view is {said} (none, 0 or more than "
        f"{MAX_RANGE} m); observed it shown at {fmt(ring['centre'])}"
    )
    rays = [(cur["eye"], cur["fwd"])]
    for r in (prev, cur):
        if r.get("depthEye") and r.get("depthFwd"):
            rays.append((r["depthEye"], r["depthFwd"]))
    best = None
    for d in depths:
        if not wants_ring(d):
            continue
        for origin, direction in rays:
            t, perp = off_line(origin, direction, ring["centre"])
            gap = d - t
            miss = max(0.0, perp - ON_RAY) + max(0.0, STANDOFF[0] - SLACK - gap) + max(0.0, gap - STANDOFF[1] - SLACK)
            if best is None or miss < best[0]:
                best = (miss, d, t, perp, origin, direction)
    miss, d, t, perp, origin, direction = best
    assert miss == 0.0, (
        f"{label}: expected the ring's centre on the head-forward ray from {fmt(origin)} along {fmt(direction)} "
        f"(within {ON_RAY} m), {STANDOFF[0]}-{STANDOFF[1]} m in front of the surface the depth data shows "
        f"{d:.3f} m ahead; observed it at {fmt(ring['centre'])}, {t:.3f} m along the ray ({d - t:.3f} m in front "
        f"of the surface) and {perp:.3f} m off it"
    )
    tilt = min(min(angle_deg(ring["axis"], f), 180.0 - angle_deg(ring["axis"], f)) for _, f in rays)
    assert tilt <= FACING_DEG, (
        f"{label}: expected the ring facing the user, its axis (local z) along the head-forward ray {fmt(cur['fwd'])} "
        f"within {FACING_DEG} degrees; observed the axis {fmt(ring['axis'])}, {tilt:.1f} degrees off"
    )
    return ring


def check_shape(label: str, xr, ring: dict) -> None:
    assert ring["isMesh"] and ring["geometry"] in ("RingGeometry", "TorusGeometry"), (
        f"{label}: expected the tagged ring to be a mesh made with RingGeometry or TorusGeometry; observed "
        f"{ring['name']} with geometry {ring['geometry']!r}"
    )
    ex = ring["extent"]
    assert ex is not None, f"{label}: expected the ring to have geometry; observed none"
    for axis, size in zip("xy", ex[:2], strict=True):
        assert abs(size - 2 * OUTER_RADIUS) <= 0.1 * 2 * OUTER_RADIUS + 1e-4, (
            f"{label}: expected the ring 4 cm across (outer radius 0.02 m, give or take 10%) in its local x-y "
            f"plane; observed {size:.4f} m along its local {axis}"
        )
    assert ex[2] <= 0.01 + 1e-4, f"{label}: expected the ring at most 1 cm thick; observed {ex[2]:.4f} m along z"
    drawn = [dd for dd in xr.drawn(("mesh",)) if RING in dd.tags]
    assert drawn, f"{label}: expected the ring drawn (among the meshes the app draws); observed it is not"


def check_truth(label: str, xr, ring: dict, cur: dict) -> None:
    """The depth the ring was placed by agrees with the room: the ring lies 0.5-2 cm in front of the
    room's surface at the centre of the view (at the depth tolerance of the coarse depth image)."""
    truth = xr.probe(TRUTH, {"px": QUERY_PX})
    assert truth["min"] is not None, f"test setup: the room shows nothing at the centre of the view {truth}"
    t, _ = off_line(cur["eye"], cur["fwd"], ring["centre"])
    lo = truth["min"] - depth_tol(truth["min"]) - STANDOFF[1]
    hi = truth["max"] + depth_tol(truth["max"]) - STANDOFF[0]
    assert lo <= t <= hi, (
        f"{label}: expected the ring just in front of the real surface, which lies {truth['min']:.2f}-"
        f"{truth['max']:.2f} m ahead of the eyes at the centre of the view; observed it {t:.2f} m ahead"
    )


def poses(xr):
    """Views of the room, each with whether the room puts a surface within 3 m at its centre."""
    kitchen = "fridge" in xr.locations()
    xr.head.look_at("table", speed=FAST)
    yield "looking at the table", True
    xr.head.look_at("floor", speed=FAST)
    yield "looking down at the floor", True
    xr.head.look_at((0.0, 1.5, -4.0), speed=FAST)
    yield "looking level at the far wall, more than 3 m away", False
    xr.head.rotate(30, 80, speed=FAST)
    yield "looking up at the ceiling", True
    xr.head.teleport_to((1.0, 1.5, -0.5))
    xr.head.look_at("fridge" if kitchen else "tv", speed=FAST)
    yield "after walking to (1.0, 1.5, -0.5) and turning to the " + ("fridge" if kitchen else "TV"), True
    xr.head.teleport_to((-0.4, 0.9, 0.3))
    xr.head.look_at((0.0, 1.4, -3.5), speed=FAST)
    yield "crouched at (-0.4, 0.9, 0.3), looking up across the room at the far wall", False
    xr.head.teleport_to((-0.4, 0.9, 0.3))
    xr.head.look_at((-0.4, 0.66, -0.7) if kitchen else "table", speed=FAST)
    yield "crouched, looking at the " + ("stool" if kitchen else "table"), True
    if kitchen:
        xr.head.teleport_to((1.7, 1.5, 0.0))
        xr.head.look_at((4.0, 1.2, 0.0), speed=FAST)
    else:
        xr.head.teleport_to((1.0, 1.5, 1.2))
        xr.head.look_at((1.0, 1.2, 4.0), speed=FAST)
    yield "looking out through the doorway, where the room shows nothing", False


# --- depth arrives --------------------------------------------------------------------------------


def test_ring_hidden_until_depth_arrives_then_shown_on_the_surface(xr):
    """Frame by frame from the start, looking at the table while the depth sensor knows nothing yet
    (every depth reads 0, as before a headset's depth arrives): the ring is hidden; once depth arrives
    it is shown on the surface; when the depth goes unknown again it hides, and it comes back, in
    place, when the depth does."""
    cylinders = [d for d in xr.drawn(("mesh",)) if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed {cylinders}"
    xr.depth_sensing.withhold()
    hide_hands(xr)
    xr.head.look_at("table", speed=FAST)
    prev = read(xr)
    assert not shown_rings(prev), (
        f"expected the ring hidden before any depth data; observed it shown at {fmt(shown_rings(prev)[0]['centre'])}"
    )
    for i in range(UNKNOWN_FRAMES):
        if i == UNKNOWN_FRAMES // 2:
            xr.head.look_at("floor", speed=FAST)
        xr.step(1)
        cur = read(xr)
        check_frame(f"frame {i + 1} after the start, no depth known yet", prev, cur)
        prev = cur
    assert prev["enabled"], "expected XR Blocks' depth sensing to be on (options.enableDepth() before xb.init)"
    xr.head.look_at("table", speed=FAST)
    for when in ("after depth data arrived", "after the depth went unknown and came back"):
        xr.depth_sensing.deliver()
        for i in range(ARRIVAL_FRAMES):
            if wants_ring(prev["centre"]):
                break
            xr.step(1)
            cur = read(xr)
            check_frame(f"frame {i + 1} while depth data arrives", prev, cur)
            prev = cur
        assert wants_ring(prev["centre"]), f"test setup: expected the table within 3 m; the depth data says {prev}"
        shown = 0
        for i in range(6):
            xr.step(1)
            cur = read(xr)
            ring = check_frame(f"frame {i + 1} {when}", prev, cur)
            shown += ring is not None
            prev = cur
        assert shown >= 5, f"expected the ring shown {when}; observed it shown in {shown} of 6 frames"
        xr.depth_sensing.withhold()
        for i in range(4):
            xr.step(1)
            cur = read(xr)
            assert cur["centre"] == 0, f"test setup: expected the depth withheld; the depth data says {cur}"
            check_frame(f"frame {i + 1} after the depth at the centre went unknown (0), {when}", prev, cur)
            prev = cur
    assert_no_errors(xr)


# --- still poses ----------------------------------------------------------------------------------


def test_ring_on_the_real_surface_in_several_poses(xr):
    hide_hands(xr)
    wait_for_depth(xr)
    seen = {True: 0, False: 0}
    for label, expect in poses(xr):
        prev, cur = fresh(xr)
        assert wants_ring(cur["centre"]) == expect, (
            f"test setup, {label}: expected the depth data to {'show' if expect else 'not show'} a surface within "
            f"{MAX_RANGE} m at the centre of the view; it shows {cur['centre']}"
        )
        ring = check_frame(label, prev, cur)
        if expect:
            assert ring is not None
            check_shape(label, xr, ring)
            check_truth(label, xr, ring, cur)
        seen[expect] += 1
    assert seen[True] >= 4 and seen[False] >= 3
    assert_no_errors(xr)


# --- every frame ----------------------------------------------------------------------------------


def test_ring_follows_every_frame_and_hides_beyond_3_m(xr):
    """From looking down at the table the user raises the head to the far wall (the ring hides on
    the way), turns, looks down to the floor (it shows again), walks and crouches; one frame per
    harness call, the ring agrees with the depth data of every frame."""
    hide_hands(xr)
    xr.head.look_at("table", speed=FAST)
    prev = wait_for_depth(xr)

    def walk():
        x, y, z = xr.head.position
        xr.head.teleport_to((x + 0.04, y - 0.015, z - 0.03))

    moves = (
        [("looking up", lambda: xr.head.rotate(0.0, 3.0, speed=FAST))] * 10
        + [("turning left", lambda: xr.head.rotate(4.0, 0.0, speed=FAST))] * 6
        + [("looking down", lambda: xr.head.rotate(0.0, -5.0, speed=FAST))] * 10
        + [("turning right", lambda: xr.head.rotate(-5.0, 1.0, speed=FAST))] * 8
        + [("walking and crouching", walk)] * 8
        + [("standing still", lambda: xr.step(1))] * 3
    )
    states = []
    positions = set()
    for i, (what, move) in enumerate(moves):
        move()
        cur = read(xr)
        ring = check_frame(f"frame {i + 1} ({what})", prev, cur)
        states.append(wants_ring(cur["centre"]))
        if ring is not None:
            positions.add(tuple(round(c, 2) for c in ring["centre"]))
        prev = cur
    flips = sum(1 for a, b in itertools.pairwise(states) if a != b)
    assert flips >= 2, f"test setup: expected the surface ahead to cross 3 m at least twice; states {states}"
    assert len(positions) >= 10, (
        f"expected the ring to keep following the head; observed only {len(positions)} different places"
    )
    assert_no_errors(xr)
