"""The depth mesh takes the shape and the place of the room from every depth image (held-out tests).

The app (the task's own `workspace/`, held out: only the candidate's `sdk/src` is used) turns depth
sensing on with `options.enableDepth()` (downsampled geometry, hole patching on, no automatic
full-resolution geometry), raycasts a grid of lines of sight against the depth mesh every frame and,
on each select, calls `xb.core.depth.updateFullResolutionDepthMesh()`.

Nothing the app reports is trusted. The harness reads, inside its kernel, the depth image XR Blocks
holds (`depthArray[0]`, `width`, `height`, `rawValueToMeters`), the depth camera's matrices and pose
for it (stored by `Depth`, which the task leaves as it is) and the depth mesh's geometry and pose,
and computes every vertex the instruction's rule gives, to 1 mm. The room's truth comes from rays
cast into the simulated room (the scene the simulator renders its depth from) from the depth
camera through each checked vertex's view coordinates and through points around them (1.5 depth
pixels for a vertex, which reads the nearest pixel; 5 for a raycast against the 40 x 40 grid), so a
value on an edge between two surfaces is judged against both sides: a depth must lie within the
depths seen there (plus 3 cm and 2%), a point within 1.5 degrees of its line of sight.

A depth image read back from the GPU lands between two harness calls, in the same call as the
mesh's update, so the tests step one frame per call and read after each. The hands are hidden
(they are drawn into the depth image) except where a select needs one, and then it is held behind
the user's head, out of the depth camera's view.

One test drives fresh `DepthMesh` objects of the candidate's SDK with scripted depth images: both
data formats, a `rawValueToMeters` of 1 mm, an image that is not square, a
`normDepthBufferFromNormView` transform that turns, stretches and shifts the image (so that some
vertices read beyond its edges), holes with and without the patching options, an off-centre
projection, and the full-resolution option.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = [pytest.mark.xr_scenes("living_room", "kitchen"), pytest.mark.xr_timeout(300)]

FAST = 100000.0  # deg/s: a turn done in one frame
FRESH_FRAMES = 5  # frames after a pose change before the still-pose checks
ARRIVAL_FRAMES = 40  # depth must arrive within this many frames of the start
VERTEX_TOL = 0.001  # metres: a vertex against the instruction's rule
VERTEX_PX = 1.5  # neighbourhood of a vertex (nearest pixel), in depth pixels
RAY_PX = 5.0  # neighbourhood of a raycast against the 40 x 40 grid
ANGLE_TOL = 1.5  # degrees off the line of sight


def depth_tol(d: float) -> float:
    return 0.03 + 0.02 * d


# Shared JavaScript: the instruction's rule for one vertex (the reference), and the room's truth.
COMMON = r"""
const THREE = h.THREE;
const clamp = (x, lo, hi) => Math.min(Math.max(x, lo), hi);
// The rule: the vertex (u, v) of a geometry built from `img` ({W, H, values, raw, norm}) with the
// inverse projection `pinv`; `hole(d, v)` patches holes. Returns [x, y, z] and d.
const expected = (u, v, img, pinv, hole) => {
  let s = u, t = 1 - v;
  if (img.norm) {
    const p = new THREE.Vector3(u, 1 - v, 0).applyMatrix4(img.norm);
    s = p.x; t = p.y;
  }
  const col = Math.round(clamp(s * (img.W - 1), 0, img.W - 1));
  const row = Math.round(clamp(t * (img.H - 1), 0, img.H - 1));
  let d = img.raw * img.values[row * img.W + col];
  const read = d;
  d = hole ? hole(d, v) : d;
  const p = new THREE.Vector3(2 * u - 1, 2 * v - 1, -1).applyMatrix4(pinv);
  p.multiplyScalar(-d / p.z);
  return {p: [p.x, p.y, p.z], d, read};
};
// Compares every vertex of `geometry` with the rule; the largest error and the worst vertex.
const compare = (geometry, img, pinv, hole) => {
  const pos = geometry.attributes.position, uv = geometry.attributes.uv;
  let worst = {err: 0}, finite = true, zeros = 0;
  for (let i = 0; i < pos.count; i++) {
    const u = uv.getX(i), v = uv.getY(i);
    const e = expected(u, v, img, pinv, hole);
    if (e.read === 0) zeros++;
    if (e.read === 0 && !hole) continue;
    const a = [pos.getX(i), pos.getY(i), pos.getZ(i)];
    if (!a.every(Number.isFinite)) finite = false;
    const err = Math.hypot(a[0] - e.p[0], a[1] - e.p[1], a[2] - e.p[2]);
    if (!(err <= worst.err)) {
      worst = {err: Number.isFinite(err) ? err : 1e9, i, u, v, expected: e.p, observed: a, d: e.d};
    }
  }
  return {count: pos.count, worst, finite, zeros};
};
"""

# After a frame: the depth image XR Blocks holds, the depth mesh's pose against the depth camera's,
# every vertex of the downsampled (and, on request, the full-resolution) geometry against the rule,
# and for a grid of vertices their place in the world against rays cast into the room.
READ = (
    r"""
(h, arg) => {
"""
    + COMMON
    + r"""
  const depth = h.core.depth, mesh = depth && depth.depthMesh;
  const arr = depth && depth.depthArray && depth.depthArray[0];
  const out = {available: !!(arr && arr.length), frame: h.frames};
  if (!mesh) { out.noMesh = true; return out; }
  const ds = mesh.downsampledGeometry, dsMesh = mesh.downsampledMesh;
  out.meshPose = {p: mesh.position.toArray(), q: mesh.quaternion.toArray()};
  out.dsPose = dsMesh ? {p: dsMesh.position.toArray(), q: dsMesh.quaternion.toArray(),
                         m: Array.from(dsMesh.matrixWorld.elements)} : null;
  const flat = (g) => {
    const pos = g.attributes.position;
    let maxErr = 0;
    const n = Math.round(Math.sqrt(pos.count)) - 1;
    const built = new THREE.PlaneGeometry(1, 1, n, n);
    const b = built.attributes.position;
    for (let i = 0; i < pos.count; i++) {
      const err = Math.hypot(pos.getX(i) - b.getX(i), pos.getY(i) - b.getY(i), pos.getZ(i) - b.getZ(i));
      maxErr = Number.isFinite(err) ? Math.max(maxErr, err) : 1e9;
    }
    built.dispose();
    return maxErr;
  };
  out.dsFlat = flat(ds);
  const full = mesh.geometry.attributes.position;
  out.fullSum = 0;
  for (let i = 0; i < full.count * 3; i += 7) out.fullSum += full.array[i];
  if (arg.fullFlat) out.fullFlat = flat(mesh.geometry);
  if (!out.available) return out;
  const img = {W: depth.width, H: depth.height, values: arr, raw: depth.rawValueToMeters || 1, norm: null};
  const pinv = depth.depthProjectionInverseMatrices[0];
  const dpos = depth.depthCameraPositions[0], dquat = depth.depthCameraRotations[0];
  out.depthPose = {p: dpos.toArray(), q: dquat.toArray()};
  out.ds = compare(ds, img, pinv, null);
  if (arg.full) out.full = compare(mesh.geometry, img, pinv, null);
  if (!arg.room) return out;
  // The room's truth around the view coordinates of a grid of vertices, from the depth camera.
  const scene = h.core.simulator.simulatorScene;
  scene.updateMatrixWorld(true);
  const pose = new THREE.Matrix4().compose(dpos, dquat, new THREE.Vector3(1, 1, 1));
  const meshPose = new THREE.Matrix4().compose(mesh.position, mesh.quaternion, mesh.scale);
  const fwd = new THREE.Vector3(0, 0, -1).applyQuaternion(dquat);
  const rc = new THREE.Raycaster();
  rc.far = 60;
  const shown = (o) => { for (let x = o; x; x = x.parent) if (!x.visible) return false; return true; };
  const cast = (u, v) => {
    const dir = new THREE.Vector3(2 * u - 1, 2 * v - 1, 0.5).applyMatrix4(pinv).applyMatrix4(pose);
    dir.sub(dpos).normalize();
    rc.set(dpos, dir);
    const hit = rc.intersectObject(scene, true).find(
      (i) => i.object.isMesh && !i.object.isSkinnedMesh && shown(i.object));
    return {dir, depth: hit ? hit.point.clone().sub(dpos).dot(fwd) : Infinity};
  };
  const geometry = arg.full ? mesh.geometry : ds;
  const n = Math.round(Math.sqrt(geometry.attributes.position.count));
  const pos = geometry.attributes.position, uv = geometry.attributes.uv;
  out.room = [];
  for (const a of arg.grid) for (const b of arg.grid) {
    const i = Math.round(a * (n - 1)) * n + Math.round(b * (n - 1));
    const u = uv.getX(i), v = uv.getY(i);
    const depths = [];
    for (const x of [-1, 0, 1]) {
      for (const y of [-1, 0, 1]) depths.push(cast(u + x * arg.px / 160, v + y * arg.px / 160).depth);
    }
    const world = new THREE.Vector3(pos.getX(i), pos.getY(i), pos.getZ(i)).applyMatrix4(meshPose);
    const rel = world.clone().sub(dpos);
    const line = cast(u, v).dir;
    const angle = rel.length() > 1e-6 ? THREE.MathUtils.radToDeg(rel.angleTo(line)) : 180;
    out.room.push({i, u, v, min: Math.min(...depths), max: Math.max(...depths), depth: rel.dot(fwd), angle,
                   world: world.toArray()});
  }
  return out;
}
"""
)

# Rays from the eyes through a grid of points of the view, cast against the depth mesh (the SDK's
# raycast) and into the room (the truth, around each point).
RAYS = r"""
(h, arg) => {
  const THREE = h.THREE, cam = h.core.camera, mesh = h.core.depth.depthMesh;
  const scene = h.core.simulator.simulatorScene;
  cam.updateMatrixWorld(true);
  scene.updateMatrixWorld(true);
  const eye = cam.getWorldPosition(new THREE.Vector3());
  const fwd = new THREE.Vector3(0, 0, -1).transformDirection(cam.matrixWorld);
  const rc = new THREE.Raycaster();
  rc.far = 60;
  const shown = (o) => { for (let x = o; x; x = x.parent) if (!x.visible) return false; return true; };
  const dirOf = (u, v) => new THREE.Vector3(2 * u - 1, 2 * v - 1, 0.5).unproject(cam).sub(eye).normalize();
  const out = [];
  for (const v of arg.grid) for (const u of arg.grid) {
    const depths = [];
    for (const a of [-1, 0, 1]) for (const b of [-1, 0, 1]) {
      rc.set(eye, dirOf(u + a * arg.px / 160, v + b * arg.px / 160));
      const hit = rc.intersectObject(scene, true).find(
        (i) => i.object.isMesh && !i.object.isSkinnedMesh && shown(i.object));
      depths.push(hit ? hit.point.clone().sub(eye).dot(fwd) : Infinity);
    }
    rc.set(eye, dirOf(u, v));
    const hits = rc.intersectObject(mesh, false);
    const hit = hits.length ? hits[0].point : null;
    out.push({u, v, min: Math.min(...depths), max: Math.max(...depths),
              hit: hit ? hit.toArray() : null, depth: hit ? hit.clone().sub(eye).dot(fwd) : null});
  }
  return out;
}
"""

GRID = [0.0, 0.25, 0.5, 0.75, 1.0]  # vertex grid fractions for the room checks
RAY_GRID = [0.1, 0.3, 0.5, 0.7, 0.9]  # view coordinates of the raycasts


def num(x) -> float:
    """A number from the page (JSON turns NaN and Infinity into null)."""
    return math.nan if x is None else float(x)


def fmt(p) -> str:
    if p is None:
        return "(none)"
    return "(" + ", ".join(f"{num(c):.3f}" for c in p) + ")"


def hide_hands(xr) -> None:
    for hand in ("left", "right"):
        xr.hand(hand).hide()


def read(xr, **arg) -> dict:
    arg.setdefault("grid", GRID)
    arg.setdefault("px", VERTEX_PX)
    out = xr.probe(READ, arg)
    assert not out.get("noMesh"), "expected XR Blocks' depth mesh (xb.core.depth.depthMesh) with enableDepth()"
    return out


def quat_close(a, b, tol: float = 1e-5) -> bool:
    return abs(sum(x * y for x, y in zip(a, b, strict=True))) >= 1 - tol


def check_pose(label: str, r: dict) -> None:
    want = r["depthPose"]
    for name, got in (("depth mesh", r["meshPose"]), ("downsampled mesh", r["dsPose"])):
        assert got is not None, f"{label}: expected the depth mesh's downsampled mesh; there is none"
        off = math.dist(got["p"], want["p"])
        assert off <= 1e-4 and quat_close(got["q"], want["q"]), (
            f"{label}: expected the {name} at the depth camera's pose of the latest image, position "
            f"{fmt(want['p'])} and rotation {fmt(want['q'])}; observed {fmt(got['p'])} and {fmt(got['q'])}"
        )
    m = r["dsPose"]["m"]
    assert math.dist((m[12], m[13], m[14]), want["p"]) <= 1e-4, (
        f"{label}: expected the downsampled mesh's world matrix up to date (it has no parent), at "
        f"{fmt(want['p'])}; observed its world matrix at {fmt((m[12], m[13], m[14]))}"
    )


def check_geometry(label: str, c: dict, what: str = "downsampled geometry") -> None:
    w = c["worst"]
    assert c["finite"] and w["err"] <= VERTEX_TOL, (
        f"{label}: expected every vertex of the {what} where the latest depth image puts it (the pixel "
        f"nearest its (u, v), on its line of sight, -z = the depth), to {VERTEX_TOL * 1000:.0f} mm; "
        f"observed vertex {w.get('i')} at (u, v) = ({num(w.get('u')):.3f}, {num(w.get('v')):.3f}) at "
        f"{fmt(w.get('observed'))}, expected {fmt(w.get('expected'))} "
        f"({num(w['err']) * 1000:.1f} mm off)"
    )


def inf(x) -> float:
    """JSON has no Infinity: a ray that met nothing of the room comes back as null."""
    return math.inf if x is None else x


def check_room(label: str, r: dict) -> None:
    for p in r["room"]:
        p["min"], p["max"] = inf(p["min"]), inf(p["max"])
        where = f"{label}: the vertex at (u, v) = ({p['u']:.3f}, {p['v']:.3f}), in the world {fmt(p['world'])}"
        if not math.isfinite(p["max"]):
            continue  # nothing of the room around it
        assert p["angle"] <= ANGLE_TOL, (
            f"{where}: expected it on the depth camera's line of sight through (u, v); observed it "
            f"{p['angle']:.1f} degrees off"
        )
        lo, hi = p["min"] - depth_tol(p["min"]), p["max"] + depth_tol(p["max"])
        assert lo <= p["depth"] <= hi, (
            f"{where}: expected it on the room's surface, {p['min']:.2f}-{p['max']:.2f} m ahead of the depth "
            f"camera; observed {p['depth']:.2f} m"
        )


def check_rays(label: str, rays: list) -> None:
    for p in rays:
        p["min"], p["max"] = inf(p["min"]), inf(p["max"])
        where = f"{label}: a ray along the line of sight through ({p['u']}, {p['v']}) against the depth mesh"
        if not math.isfinite(p["max"]):
            continue
        assert p["hit"] is not None, (
            f"{where}: expected it to hit the mesh where the room is, {p['min']:.2f}-{p['max']:.2f} m ahead; "
            f"observed no hit"
        )
        lo, hi = p["min"] - depth_tol(p["min"]), p["max"] + depth_tol(p["max"])
        assert lo <= p["depth"] <= hi, (
            f"{where}: expected the hit on the room's surface, {p['min']:.2f}-{p['max']:.2f} m ahead; observed "
            f"{p['depth']:.2f} m, at {fmt(p['hit'])}"
        )


def until_depth(xr) -> dict:
    """Steps one frame per call until depth arrives; before that the mesh must be as it was built."""
    for _ in range(ARRIVAL_FRAMES):
        r = read(xr)
        if r["available"]:
            return r
        assert r["dsFlat"] <= 1e-6 and math.dist(r["meshPose"]["p"], (0, 0, 0)) <= 1e-9, (
            f"frame {r['frame']}, before the first depth image: expected the depth mesh as it was built (a flat "
            f"1 m square at the origin); observed it {r['dsFlat']:.3f} m off that, at {fmt(r['meshPose']['p'])}"
        )
        xr.step(1)
    raise AssertionError(f"expected a depth image within {ARRIVAL_FRAMES} frames of the start; none arrived")


def fresh(xr) -> None:
    for _ in range(FRESH_FRAMES):
        xr.step(1)


def poses(xr):
    """Five still views of the room; yields a label after each, FRESH_FRAMES frames after it."""
    yield "looking ahead from the start"
    xr.head.look_at("table", speed=FAST)
    fresh(xr)
    yield "looking at the table"
    xr.head.rotate(60, -20, speed=FAST)
    fresh(xr)
    yield "turned 60 degrees left and 20 degrees down"
    xr.head.teleport_to((1.0, 1.5, -0.5))
    xr.head.rotate(-80, -10, speed=FAST)
    fresh(xr)
    yield "after stepping to (1.0, 1.5, -0.5) and turning right"
    xr.head.teleport_to((-0.4, 0.9, 0.3))
    xr.head.look_at((0.0, 1.4, -3.0), speed=FAST)
    fresh(xr)
    yield "crouched at (-0.4, 0.9, 0.3), looking up across the room"


@pytest.mark.fail_to_pass
@pytest.mark.xr_hands("right")  # the hands play no part (hidden): one variant is enough
@pytest.mark.failure_category("coordinate-frame")
def test_the_mesh_follows_every_depth_image_from_the_first(xr):
    hide_hands(xr)
    r = until_depth(xr)
    label = f"frame {r['frame']}, the first depth image"
    check_geometry(label, r["ds"])
    check_pose(label, r)
    fresh(xr)  # the first image may still show the hands, hidden in the first frame
    # Still poses: every vertex by the rule, a grid of them against the room.
    for label in poses(xr):
        r = read(xr, room=True)
        check_geometry(label, r["ds"])
        check_pose(label, r)
        check_room(label, r)
    # Moving: a slow turn, a look up and a walk, checked after every frame.
    changed = 0
    last = None
    lastq = None
    moves = [("turning", lambda: xr.head.rotate(4, 0, speed=FAST))] * 10
    moves += [("looking up", lambda: xr.head.rotate(0, 3, speed=FAST))] * 6
    moves += [("walking", lambda: xr.head.move((0.04, 0.0, -0.05), speed=FAST))] * 10
    for what, move in moves:
        move()
        r = read(xr)
        label = f"frame {r['frame']}, while {what}"
        check_geometry(label, r["ds"])
        check_pose(label, r)
        if last is not None and (
            math.dist(last, r["depthPose"]["p"]) > 1e-6 or not quat_close(lastq, r["depthPose"]["q"], 1e-9)
        ):
            changed += 1
        last, lastq = r["depthPose"]["p"], r["depthPose"]["q"]
    assert changed >= 10, f"expected the depth images to follow the moving head; only {changed} of 26 frames changed"
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
@pytest.mark.xr_hands("right")
@pytest.mark.failure_category("coordinate-frame")
def test_raycasts_along_lines_of_sight_meet_the_room(xr):
    hide_hands(xr)
    until_depth(xr)
    fresh(xr)
    for label in poses(xr):
        check_rays(label, xr.probe(RAYS, {"grid": RAY_GRID, "px": RAY_PX}))
    assert_no_errors(xr)


# Fresh DepthMesh objects of the candidate's SDK fed scripted depth images; each case compares
# every vertex with the rule (or a pose with what was given).
SCRIPTED = (
    r"""
(h, arg) => {
"""
    + COMMON
    + r"""
  const xb = h.xb;
  let seed = 12345;
  const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  // An image: W x H values from `f(col, row)`; float32 or luminance-alpha (uint16) data.
  const image = (W, H, f, format, raw, norm) => {
    const values = format === 'float32' ? new Float32Array(W * H) : new Uint16Array(W * H);
    for (let r = 0; r < H; r++) for (let c = 0; c < W; c++) values[r * W + c] = f(c, r);
    const data = {width: W, height: H, data: values.buffer, rawValueToMeters: raw};
    let m = null;
    if (norm) {
      m = new THREE.Matrix4().set(...norm);
      data.normDepthBufferFromNormView = {matrix: new Float32Array(m.elements)};
    }
    return {data, format, img: {W, H, values, raw, norm: m}};
  };
  const mesh = (o) => new xb.DepthMesh(new xb.DepthOptions({enabled: true, depthMesh: Object.assign(
      {enabled: true, useDownsampledGeometry: true, updateFullResolutionGeometry: false,
       patchHoles: false, patchHolesUpper: false}, o)}), 160, 160);
  const proj = new THREE.Matrix4().makePerspective(-0.06, 0.1, 0.07, -0.05, 0.1, 20);
  const pinv = proj.clone().invert();
  const results = [];
  const record = (name, c) => results.push(Object.assign({name}, c));
  const flatErr = (g) => {
    const pos = g.attributes.position;
    let m = 0;
    for (let i = 0; i < pos.count; i++) m = Math.max(m, Math.abs(pos.getZ(i)));
    return m;
  };

  // Plain images: float32 square, uint16 not square with 1 mm units, a turned and stretched one.
  const A = image(160, 160, (c, r) => (c === 3 && r === 3) ? 0.6 : 0.5 + 5.5 * rnd(), 'float32', 1.0, null);
  const L = image(90, 60, () => 400 + Math.floor(6600 * rnd()), 'luminance-alpha', 0.001, null);
  const N = image(120, 100, () => 0.5 + 5 * rnd(), 'float32', 1.0,
                  [0, 1.3, 0, -0.15, -1.2, 0, 0, 1.1, 0, 0, 1, 0, 0, 0, 0, 1]);
  for (const [name, im] of [['float32 160 x 160', A], ['luminance-alpha 90 x 60, 1 mm units', L],
                            ['float32 120 x 100 with normDepthBufferFromNormView', N]]) {
    const m = mesh({});
    m.updateDepth(im.data, pinv, im.format);
    record(`${name}: downsampled geometry`, compare(m.downsampledGeometry, im.img, pinv, null));
    record(`${name}: full-resolution geometry, updateFullResolutionGeometry off (unchanged)`,
           {flat: flatErr(m.geometry)});
    const f = mesh({updateFullResolutionGeometry: true});
    f.updateDepth(im.data, pinv, im.format);
    record(`${name}: full-resolution geometry, updateFullResolutionGeometry on`,
           compare(f.geometry, im.img, pinv, null));
    record(`${name}: downsampled geometry, updateFullResolutionGeometry on`,
           compare(f.downsampledGeometry, im.img, pinv, null));
    // Asked for directly: the latest projection given to updateDepth, the image given now.
    m.updateFullResolutionGeometry(L.data, L.format);
    record(`${name}, then updateFullResolutionGeometry(luminance-alpha image)`, compare(m.geometry, L.img, pinv, null));
  }

  // Holes: images with zeros (a block and scattered pixels), after a first image without.
  const holeB = (c, r) => (c > 40 && c < 90 && r > 20 && r < 70) || (c * 7 + r * 3) % 11 === 0;
  const B = image(160, 160, (c, r) => holeB(c, r) ? 0 : 0.8 + 3 * rnd(), 'float32', 1.0, null);
  const C = image(160, 160, (c, r) => (r < 30 || c % 9 === 0) ? 0 : 1.0 + 2 * rnd(), 'float32', 1.0, null);
  const stats = (g, im) => {
    const uv = g.attributes.uv;
    let max = 0, min = 8;
    for (let i = 0; i < uv.count; i++) {
      const d = expected(uv.getX(i), uv.getY(i), im.img, pinv, null).read;
      if (d > 0) { max = Math.max(max, d); min = Math.min(min, d); }
    }
    return {max, min};
  };
  for (const [patchHoles, patchHolesUpper] of [[true, false], [false, false], [true, true], [false, true]]) {
    const m = mesh({patchHoles, patchHolesUpper});
    const tag = `patchHoles ${patchHoles ? 'on' : 'off'}, patchHolesUpper ${patchHolesUpper ? 'on' : 'off'}`;
    let prev = {max: 0, min: 8};
    for (const [step, im] of [['first image, with holes', B], ['after an image without holes', A],
                              ['after an image with holes', B], ['after that, more holes', C]]) {
      m.updateDepth(im.data, pinv, im.format);
      const p = prev;
      const hole = (d, v) => {
        if (d === 0 && patchHoles) d = p.max;
        if (patchHolesUpper && v > 0.9) d = p.min;
        return d;
      };
      const c = compare(m.downsampledGeometry, im.img, pinv, hole);
      c.prevMax = p.max;
      c.prevMin = p.min;
      record(`${tag}: ${step}`, c);
      prev = stats(m.downsampledGeometry, im);
    }
  }

  // Pose: copies of what was given, for the mesh and its downsampled mesh (world matrix at once).
  const m = mesh({});
  const t = new THREE.Vector3(0.3, 1.2, -0.4);
  const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(0.2, -0.7, 0.1));
  m.updatePose(t, q);
  const want = {p: t.toArray(), q: q.toArray()};
  t.set(9, 9, 9);
  q.set(0, 0, 0, 1);
  const ds = m.downsampledMesh;
  const e = ds ? ds.matrixWorld.elements : null;
  record('updatePose', {pose: {want, mesh: {p: m.position.toArray(), q: m.quaternion.toArray()},
         ds: ds ? {p: ds.position.toArray(), q: ds.quaternion.toArray(), m: [e[12], e[13], e[14]]} : null}});
  return results;
}
"""
)


@pytest.mark.fail_to_pass
@pytest.mark.xr_scenes("living_room")
@pytest.mark.xr_hands("right")
@pytest.mark.failure_category("coordinate-frame")
def test_scripted_depth_images_formats_transforms_holes_and_poses(xr):
    xr.step(1)
    results = xr.probe(SCRIPTED)
    for c in results:
        name = c["name"]
        if "flat" in c:
            assert c["flat"] <= 1e-6, (
                f"{name}: expected the full-resolution geometry left as it was built (flat, z = 0), since "
                f"updateFullResolutionGeometry is off; observed vertices {c['flat']:.3f} m off it"
            )
        elif "pose" in c:
            p = c["pose"]
            for what, got in (("depth mesh", p["mesh"]), ("downsampled mesh", p["ds"])):
                assert got is not None, f"{name}: expected the downsampled mesh; there is none"
                assert math.dist(got["p"], p["want"]["p"]) <= 1e-6 and quat_close(got["q"], p["want"]["q"], 1e-9), (
                    f"{name}: expected the {what} at a copy of the given pose, {fmt(p['want']['p'])} turned "
                    f"{fmt(p['want']['q'])} (changing the given vectors afterwards changes nothing); observed "
                    f"{fmt(got['p'])} turned {fmt(got['q'])}"
                )
            assert math.dist(p["ds"]["m"], p["want"]["p"]) <= 1e-6, (
                f"{name}: expected the downsampled mesh's world matrix updated at once, at {fmt(p['want']['p'])}; "
                f"observed {fmt(p['ds']['m'])}"
            )
        else:
            w = c["worst"]
            extra = (
                f" (previous update: largest {c['prevMax']:.3f} m, smallest {c['prevMin']:.3f} m)"
                if "prevMax" in c
                else ""
            )
            assert c["finite"] and w["err"] <= VERTEX_TOL, (
                f"{name}: expected every vertex by the rule{extra}; observed vertex {w.get('i')} at (u, v) = "
                f"({num(w.get('u')):.3f}, {num(w.get('v')):.3f}) at {fmt(w.get('observed'))}, expected "
                f"{fmt(w.get('expected'))} (depth {num(w.get('d')):.3f} m; {num(w['err']) * 1000:.1f} mm off)"
            )
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
@pytest.mark.failure_category("input-model")
def test_the_full_resolution_mesh_is_built_only_when_the_app_asks(xr):
    hand = xr.hand("dominant")
    xr.hand("non_dominant").hide()
    # The selecting hand waits behind the head, out of the depth camera's view.
    eye = xr.head.position
    hand.move_hand((eye[0], eye[1] - 0.1, eye[2] + 0.35), speed=100.0)
    until_depth(xr)
    fresh(xr)
    # Not asked yet: the full-resolution geometry stays as built while the user looks around.
    xr.head.look_at("table", speed=FAST)
    fresh(xr)
    r = read(xr, fullFlat=True)
    assert r["fullFlat"] <= 1e-6, (
        "before any select: expected the full-resolution geometry left as it was built (enableDepth() does "
        f"not build it with every image); observed vertices {r['fullFlat']:.3f} m off it"
    )
    for n in (1, 2):
        eye = xr.head.position
        hand.move_hand((eye[0], eye[1] - 0.1, eye[2] + 0.35), speed=100.0)
        fresh(xr)
        hand.pinch()
        fresh(xr)
        snapshots = xr.find_by_tag("depth-mesh-viewer").state.get("snapshots")
        assert snapshots == n, f"expected select {n} to reach the app; it counted {snapshots} selects"
        r = read(xr, full=True, room=True)
        label = f"just after select {n}"
        check_geometry(label, r["full"], "full-resolution geometry")
        check_pose(label, r)
        check_room(label, r)
        kept = r["fullSum"]
        hand.release()
        # Looking elsewhere: the downsampled geometry follows, the full-resolution one is kept.
        xr.head.rotate(-70, 10, speed=FAST)
        fresh(xr)
        xr.head.move((0.3, 0.0, 0.2), speed=FAST)
        fresh(xr)
        r = read(xr)
        label = f"after select {n}, turned and stepped aside"
        check_geometry(label, r["ds"])
        assert abs(r["fullSum"] - kept) <= 1e-6, (
            f"{label}: expected the full-resolution geometry kept as select {n} built it (it is built only when "
            f"the app asks); observed it changed (a checksum of its positions went from {kept:.4f} to "
            f"{r['fullSum']:.4f})"
        )
    assert_no_errors(xr)
