"""The depth mesh lies on the room across the whole view, not only in its middle (held-out tests).

The app (the task's own `workspace/`, held out: only the candidate's `sdk/src` is used) turns depth
sensing on with `options.enableDepth()` (the depth mesh with its downsampled geometry, which
raycasts use). Nothing the app reports is trusted: the tests read the SDK inside the harness's
kernel (`xr.probe`).

For a 5 x 5 grid of points of the view (u and v of 0.1 to 0.9), a probe casts a ray from the eyes
along the line of sight against `xb.core.depth.depthMesh` (the SDK's own raycast, as an app does)
and into the simulated room (the scene the simulator renders its depth from), at the point and at
points around it (5 depth pixels for the depth mesh, a 40 x 40 grid over the 160 x 160 image; 1.5
for getDepth and getVertex, which read the nearest pixel), so that a value on the edge between two
surfaces is judged against both sides. A depth must lie within the depths seen there (plus 3 cm and
2%); a getVertex point must also lie on the line of sight (within 1.5 degrees).

Every check runs in several still poses (looking ahead, at the table, turned and pitched down,
after stepping elsewhere, crouched and looking up), in two furnished rooms, 5 frames after the pose
was taken, for a right- and for a left-dominant user (the hands are hidden so that they stay out of
the depth image).
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = [pytest.mark.xr_scenes("living_room", "kitchen"), pytest.mark.xr_timeout(240)]

GRID = [0.1, 0.3, 0.5, 0.7, 0.9]  # view coordinates of the checked lines of sight
FRESH_FRAMES = 5  # the instruction: the new view within 5 frames
ARRIVAL_FRAMES = 40  # depth must arrive within this many frames of the start
FAST = 100000.0  # deg/s: a turn done in one frame
MESH_PX = 5.0  # neighbourhood of a raycast against the 40 x 40 grid, in depth pixels
QUERY_PX = 1.5  # neighbourhood of a nearest-pixel query
ANGLE_TOL = 1.5  # degrees off the line of sight
VERTEX_Z_TOL = 0.001  # m: getVertex's -z against getDepth (the same pixel)


def depth_tol(d: float) -> float:
    return 0.03 + 0.02 * d


# For each (u, v) of the grid: the room's depths (along the viewing direction) on the line of sight
# and around it, the line's direction; with arg.mesh the depth mesh's hit on it; with arg.queries
# getDepth(u, v) and getVertex(u, v) taken to the world with the depth camera's pose.
READ = r"""
(h, arg) => {
  const THREE = h.THREE, cam = h.core.camera, depth = h.core.depth;
  const arr = depth && depth.depthArray && depth.depthArray[0];
  const out = {frame: h.frames, available: !!(arr && arr.length), hasMesh: !!(depth && depth.depthMesh)};
  if (!out.available || !out.hasMesh) return out;
  const scene = h.core.simulator.simulatorScene;
  cam.updateMatrixWorld(true);
  scene.updateMatrixWorld(true);
  const eye = cam.getWorldPosition(new THREE.Vector3());
  const fwd = new THREE.Vector3(0, 0, -1).transformDirection(cam.matrixWorld);
  const rc = new THREE.Raycaster();
  rc.far = 60;
  const shown = (o) => { for (let x = o; x; x = x.parent) if (!x.visible) return false; return true; };
  const dirOf = (u, v) => new THREE.Vector3(2 * u - 1, 2 * v - 1, 0.5).unproject(cam).sub(eye).normalize();
  const room = (u, v) => {
    rc.set(eye, dirOf(u, v));
    const hit = rc.intersectObject(scene, true).find(
      (i) => i.object.isMesh && !i.object.isSkinnedMesh && shown(i.object));
    return hit ? hit.point.clone().sub(eye).dot(fwd) : Infinity;
  };
  const pose = new THREE.Matrix4().compose(
    depth.depthCameraPositions[0], depth.depthCameraRotations[0], new THREE.Vector3(1, 1, 1));
  out.eye = eye.toArray();
  out.points = [];
  for (const v of arg.grid) for (const u of arg.grid) {
    const depths = [];
    for (const a of [-1, 0, 1]) for (const b of [-1, 0, 1])
      depths.push(room(u + a * arg.px / 160, v + b * arg.px / 160));
    const p = {u, v, min: Math.min(...depths), max: Math.max(...depths), dir: dirOf(u, v).toArray()};
    if (arg.mesh) {
      rc.set(eye, dirOf(u, v));
      const hits = rc.intersectObject(depth.depthMesh, false);
      const hit = hits.length ? hits[0].point : null;
      p.hit = hit ? hit.toArray() : null;
      p.hitDepth = hit ? hit.clone().sub(eye).dot(fwd) : null;
    }
    if (arg.queries) {
      p.depth = depth.getDepth(u, v);
      const vx = depth.getVertex(u, v);
      p.vertex = vx ? vx.toArray() : null;
      p.vertexWorld = vx ? vx.clone().applyMatrix4(pose).toArray() : null;
    }
    out.points.push(p);
  }
  return out;
}
"""


# The app asks for the full-resolution geometry (`xb.core.depth.updateFullResolutionDepthMesh()`,
# as an app that draws the mesh does), then every vertex of a grid of them, taken to the world with
# the mesh's pose, against rays cast into the room from the depth camera through the vertex's point
# of the view (and points around it).
DRAWN = r"""
(h, arg) => {
  const THREE = h.THREE, depth = h.core.depth, mesh = depth && depth.depthMesh;
  const arr = depth && depth.depthArray && depth.depthArray[0];
  const out = {frame: h.frames, available: !!(arr && arr.length), hasMesh: !!mesh};
  if (!out.available || !out.hasMesh) return out;
  depth.updateFullResolutionDepthMesh();
  const scene = h.core.simulator.simulatorScene;
  scene.updateMatrixWorld(true);
  const dpos = depth.depthCameraPositions[0], dquat = depth.depthCameraRotations[0];
  const pinv = depth.depthProjectionInverseMatrices[0];
  const pose = new THREE.Matrix4().compose(dpos, dquat, new THREE.Vector3(1, 1, 1));
  const meshPose = new THREE.Matrix4().compose(mesh.position, mesh.quaternion, mesh.scale);
  const fwd = new THREE.Vector3(0, 0, -1).applyQuaternion(dquat);
  const rc = new THREE.Raycaster();
  rc.far = 60;
  const shown = (o) => { for (let x = o; x; x = x.parent) if (!x.visible) return false; return true; };
  const dirOf = (u, v) => new THREE.Vector3(2 * u - 1, 2 * v - 1, 0.5).applyMatrix4(pinv).applyMatrix4(pose)
    .sub(dpos).normalize();
  const room = (u, v) => {
    rc.set(dpos, dirOf(u, v));
    const hit = rc.intersectObject(scene, true).find(
      (i) => i.object.isMesh && !i.object.isSkinnedMesh && shown(i.object));
    return hit ? hit.point.clone().sub(dpos).dot(fwd) : Infinity;
  };
  const g = mesh.geometry, pos = g.attributes.position, uv = g.attributes.uv;
  const n = Math.round(Math.sqrt(pos.count));
  out.eye = dpos.toArray();
  out.points = [];
  for (const a of arg.grid) for (const b of arg.grid) {
    const i = Math.round(a * (n - 1)) * n + Math.round(b * (n - 1));
    const u = uv.getX(i), v = uv.getY(i);
    const depths = [];
    for (const x of [-1, 0, 1]) for (const y of [-1, 0, 1])
    depths.push(room(u + x * arg.px / 160, v + y * arg.px / 160));
    const world = new THREE.Vector3(pos.getX(i), pos.getY(i), pos.getZ(i)).applyMatrix4(meshPose);
    out.points.push({i, u, v, min: Math.min(...depths), max: Math.max(...depths), dir: dirOf(u, v).toArray(),
                     world: world.toArray(), depth: world.clone().sub(dpos).dot(fwd)});
  }
  return out;
}
"""
VERTEX_GRID = [0.0, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0]  # fractions of the full-resolution grid's rows and columns


def num(x) -> float:
    """A number from the page (JSON has no Infinity: a ray that met nothing comes back as null)."""
    return math.inf if x is None else float(x)


def fmt(p) -> str:
    return "(none)" if p is None else "(" + ", ".join(f"{float(c):.3f}" for c in p) + ")"


def read(xr, **arg) -> dict:
    arg.setdefault("grid", GRID)
    out = xr.probe(READ, arg)
    assert out["hasMesh"], "expected XR Blocks' depth mesh (xb.core.depth.depthMesh) with enableDepth()"
    return out


def ready(xr) -> None:
    """Hands out of the view; steps (one frame per call: a depth readback lands between calls)
    until depth data has arrived, then FRESH_FRAMES more."""
    for hand in ("left", "right"):
        xr.hand(hand).hide()
    for _ in range(ARRIVAL_FRAMES):
        if read(xr)["available"]:
            break
        xr.step(1)
    else:
        raise AssertionError(f"expected depth data within {ARRIVAL_FRAMES} frames of the start; none arrived")
    fresh(xr)


def fresh(xr) -> None:
    for _ in range(FRESH_FRAMES):
        xr.step(1)


def poses(xr, count: int = 5):
    """Still views of the room; yields a label after each, FRESH_FRAMES frames after it was taken."""
    yield "looking ahead from the start"
    xr.head.look_at("table", speed=FAST)
    fresh(xr)
    yield "looking at the table"
    if count <= 2:
        return
    xr.head.rotate(60, -20, speed=FAST)
    fresh(xr)
    yield "turned 60 degrees left and 20 degrees down"
    if count <= 3:
        return
    xr.head.teleport_to((1.0, 1.5, -0.5))
    xr.head.rotate(-80, -10, speed=FAST)
    fresh(xr)
    yield "after stepping to (1.0, 1.5, -0.5) and turning right"
    xr.head.teleport_to((-0.4, 0.9, 0.3))
    xr.head.look_at((0.0, 1.4, -3.0), speed=FAST)
    fresh(xr)
    yield "crouched at (-0.4, 0.9, 0.3), looking up across the room"


def in_range(value: float, p: dict) -> bool:
    lo, hi = num(p["min"]), num(p["max"])
    return lo - depth_tol(lo) <= value <= hi + depth_tol(hi)


def angle_to(eye, direction, point) -> float:
    d = [a - b for a, b in zip(point, eye, strict=True)]
    n = math.sqrt(sum(x * x for x in d)) or 1e-9
    c = sum(a * b for a, b in zip(d, direction, strict=True)) / n
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


@pytest.mark.fail_to_pass
@pytest.mark.failure_category("coordinate-frame")
def test_rays_against_the_depth_mesh_meet_the_room_across_the_view(xr):
    ready(xr)
    checked = 0
    for label in poses(xr):
        r = read(xr, mesh=True, px=MESH_PX)
        for p in r["points"]:
            if not math.isfinite(num(p["max"])):
                continue  # nothing of the room around this line of sight
            where = f"{label}: a ray along the line of sight through ({p['u']}, {p['v']}) against the depth mesh"
            seen = f"the room is {num(p['min']):.2f}-{num(p['max']):.2f} m ahead there"
            assert p["hit"] is not None, f"{where}: expected a hit on the room's surface ({seen}); observed no hit"
            assert in_range(p["hitDepth"], p), (
                f"{where}: expected the hit on the room's surface ({seen}, within 3 cm + 2%); observed it "
                f"{p['hitDepth']:.2f} m ahead, at {fmt(p['hit'])}"
            )
            checked += 1
    assert checked >= 100, f"expected most of the 125 lines of sight to see the room; only {checked} did"
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
@pytest.mark.failure_category("coordinate-frame")
def test_the_drawn_depth_mesh_lies_on_the_room(xr):
    ready(xr)
    checked = 0
    for label in poses(xr, count=3):
        r = xr.probe(DRAWN, {"grid": VERTEX_GRID, "px": QUERY_PX})
        assert r["hasMesh"] and r["available"], f"{label}: expected depth data and the depth mesh; observed {r}"
        for p in r["points"]:
            if not math.isfinite(num(p["max"])):
                continue
            where = (
                f"{label}: after updateFullResolutionDepthMesh(), the full-resolution depth mesh's vertex at "
                f"(u, v) = ({p['u']:.3f}, {p['v']:.3f}), in the world {fmt(p['world'])}"
            )
            off = angle_to(r["eye"], p["dir"], p["world"])
            assert off <= ANGLE_TOL, (
                f"{where}: expected it on the depth camera's line of sight through (u, v) (within {ANGLE_TOL} "
                f"degrees); observed it {off:.1f} degrees off"
            )
            assert in_range(p["depth"], p), (
                f"{where}: expected it on the room's surface, {num(p['min']):.2f}-{num(p['max']):.2f} m ahead of "
                f"the depth camera there (within 3 cm + 2%); observed {p['depth']:.2f} m"
            )
            checked += 1
    assert checked >= 120, f"expected most of the 147 vertices checked to see the room; only {checked} did"
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
@pytest.mark.failure_category("coordinate-frame")
def test_get_depth_and_get_vertex_still_read_the_room(xr):
    ready(xr)
    for label in poses(xr, count=3):
        r = read(xr, queries=True, px=QUERY_PX)
        eye = r["eye"]
        for p in r["points"]:
            if not math.isfinite(num(p["max"])):
                continue
            seen = f"the room is {num(p['min']):.2f}-{num(p['max']):.2f} m ahead there"
            assert in_range(p["depth"], p), (
                f"{label}: expected getDepth({p['u']}, {p['v']}) to be the depth of the room seen there ({seen}, "
                f"within 3 cm + 2%); observed {p['depth']:.3f} m"
            )
            where = f"{label}: getVertex({p['u']}, {p['v']})"
            assert p["vertex"] is not None, f"{where}: expected a point; observed null"
            assert abs(-p["vertex"][2] - p["depth"]) <= VERTEX_Z_TOL, (
                f"{where}: expected its -z (depth in the depth camera's frame) to equal getDepth there "
                f"({p['depth']:.3f} m); observed {fmt(p['vertex'])}"
            )
            off = angle_to(eye, p["dir"], p["vertexWorld"])
            assert off <= ANGLE_TOL, (
                f"{where}: expected the point on the line of sight through ({p['u']}, {p['v']}) (within "
                f"{ANGLE_TOL} degrees); observed it {off:.1f} degrees off (in the world: {fmt(p['vertexWorld'])})"
            )
    assert_no_errors(xr)
