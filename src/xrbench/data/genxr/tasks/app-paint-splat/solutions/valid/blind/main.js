import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Paint splats: pinch to throw paint along the hand's ray onto the real room,
 * found in XR Blocks' depth data. A fist clears that hand's paint.
 */

const HAND_COLORS = {left: 0x2979ff, right: 0xff4081};
const MIN_RANGE = 0.3; // metres from the hand; the hands themselves show in the depth data
const MAX_RANGE = 5.0;
const MARCH_STEP = 0.005; // metres
const START_DIAMETER = 0.04;
const GROWTH_PER_SECOND = 0.04;
const MAX_DIAMETER = 0.16;
const MAX_SPLATS_PER_HAND = 5;
const LIFT = 0.002; // metres off the surface, towards the user
const CIRCLE_SEGMENTS = 48;

const _p = new THREE.Vector3();
const _view = new THREE.Vector3();
const _ndc = new THREE.Vector3();
const _uv = new THREE.Vector3();
const _zAxis = new THREE.Vector3(0, 0, 1);

/** Reads XR Blocks' depth data (view 0) in the depth camera's own frame. */
class DepthSampler {
  constructor(depth) {
    this.depth = depth;
    this.array = depth.depthArray[0];
    this.width = depth.width;
    this.height = depth.height;
    this.scale = depth.rawValueToMeters || 1.0;
    this.view = depth.depthViewMatrices[0].clone();
    this.projection = depth.depthProjectionMatrices[0].clone();
    this.projectionInverse = this.projection.clone().invert();
    this.viewInverse = this.view.clone().invert();
    const norm = depth.normDepthBufferFromNormViewMatrices?.[0];
    this.normToBuffer = norm ? norm.clone() : null;
    this.bufferToNorm = norm ? norm.clone().invert() : null;
  }

  static from(depth) {
    if (!depth || !depth.depthArray || !depth.depthArray[0]) return null;
    if (!depth.depthViewMatrices?.[0] || !depth.depthProjectionMatrices?.[0]) {
      return null;
    }
    return new DepthSampler(depth);
  }

  /** Depth (metres) of pixel (x, y); y = 0 is the top row. 0 when unknown. */
  pixelDepth(x, y) {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return 0;
    const d = this.array[y * this.width + x] * this.scale;
    return Number.isFinite(d) && d > 0 ? d : 0;
  }

  /**
   * Projects a world point into the depth camera's view. Returns null when it
   * is out of the view, else {u, v, x, y, pointDepth}: view coordinates (0 at
   * the left and bottom edges, 1 at the right and top), the depth image pixel
   * the point is seen in (y = 0 is the top row), and the point's own depth
   * along the viewing direction.
   */
  project(world) {
    _view.copy(world).applyMatrix4(this.view);
    if (_view.z >= -1e-4) return null; // behind the depth camera
    _ndc.copy(_view).applyMatrix4(this.projection);
    const u = 0.5 * (_ndc.x + 1.0);
    const v = 0.5 * (_ndc.y + 1.0);
    if (!(u >= 0 && u <= 1 && v >= 0 && v <= 1)) return null;
    let bu = u;
    let bv = v;
    if (this.normToBuffer) {
      _uv.set(u, v, 0).applyMatrix4(this.normToBuffer);
      bu = _uv.x;
      bv = _uv.y;
    }
    const x = Math.min(this.width - 1, Math.max(0, Math.floor(bu * this.width)));
    const y = Math.min(
      this.height - 1,
      Math.max(0, Math.floor((1.0 - bv) * this.height))
    );
    return {u, v, x, y, pointDepth: -_view.z};
  }

  /** Whether a world point lies at or behind the real surface seen there. */
  isBehindSurface(world) {
    const hit = this.project(world);
    if (!hit) return false;
    const surface = this.pixelDepth(hit.x, hit.y);
    if (surface <= 0) return false;
    return hit.pointDepth >= surface;
  }

  /** The depth camera's view-space point of pixel (x, y), or null. */
  pixelPoint(x, y, target = new THREE.Vector3()) {
    const d = this.pixelDepth(x, y);
    if (d <= 0) return null;
    let u = (x + 0.5) / this.width;
    let v = 1.0 - (y + 0.5) / this.height;
    if (this.bufferToNorm) {
      // Buffer coordinates back to view coordinates.
      _uv.set(u, v, 0).applyMatrix4(this.bufferToNorm);
      u = _uv.x;
      v = _uv.y;
    }
    target.set(2.0 * u - 1.0, 2.0 * v - 1.0, -1.0);
    target.applyMatrix4(this.projectionInverse);
    target.multiplyScalar(-d / target.z);
    return target;
  }

  /**
   * Estimates the real surface's normal (world space, facing the depth
   * camera) around pixel (x0, y0): the plane through the centre pixel that
   * agrees with the most pixels in a small window.
   */
  surfaceNormal(x0, y0) {
    const centre = this.pixelPoint(x0, y0);
    if (!centre) return null;
    const R = 3;
    const points = [];
    for (let dy = -R; dy <= R; dy++) {
      for (let dx = -R; dx <= R; dx++) {
        if (dx === 0 && dy === 0) continue;
        const p = this.pixelPoint(x0 + dx, y0 + dy);
        if (p) points.push(p);
      }
    }
    const candidates = [];
    const dirs = [
      [1, 0],
      [0, -1],
      [-1, 0],
      [0, 1],
    ];
    for (let k = 1; k <= R; k++) {
      const around = dirs.map(([dx, dy]) => this.pixelPoint(x0 + dx * k, y0 + dy * k));
      for (let i = 0; i < 4; i++) {
        const a = around[i];
        const b = around[(i + 1) % 4];
        if (!a || !b) continue;
        const ta = a.clone().sub(centre);
        const tb = b.clone().sub(centre);
        const n = new THREE.Vector3().crossVectors(ta, tb);
        if (n.lengthSq() < 1e-12) continue;
        candidates.push(n.normalize());
      }
      // Opposite pairs (central differences) as well.
      if (around[0] && around[2] && around[1] && around[3]) {
        const tx = around[0].clone().sub(around[2]);
        const ty = around[1].clone().sub(around[3]);
        const n = new THREE.Vector3().crossVectors(tx, ty);
        if (n.lengthSq() > 1e-12) candidates.push(n.normalize());
      }
    }
    const toCamera = centre.clone().negate().normalize();
    if (candidates.length === 0) {
      return toCamera.applyMatrix4(new THREE.Matrix4().extractRotation(this.viewInverse));
    }
    const depth0 = -centre.z;
    const tolerance = 0.004 + 0.004 * depth0;
    let best = null;
    let bestScore = -1;
    let bestResidual = Infinity;
    const diff = new THREE.Vector3();
    for (const n of candidates) {
      let inliers = 0;
      let residual = 0;
      for (const p of points) {
        const r = Math.abs(diff.copy(p).sub(centre).dot(n));
        if (r < tolerance) {
          inliers++;
          residual += r;
        }
      }
      if (inliers > bestScore || (inliers === bestScore && residual < bestResidual)) {
        best = n;
        bestScore = inliers;
        bestResidual = residual;
      }
    }
    // Refine: least-squares plane through the inliers of the best candidate.
    const inlierPoints = [centre];
    for (const p of points) {
      if (Math.abs(diff.copy(p).sub(centre).dot(best)) < tolerance) inlierPoints.push(p);
    }
    const refined = fitPlaneNormal(inlierPoints) || best;
    const normal = refined.dot(best) < 0 ? refined.clone().negate() : refined.clone();
    if (normal.angleTo(best) > THREE.MathUtils.degToRad(20)) normal.copy(best);
    if (normal.dot(toCamera) < 0) normal.negate();
    // View space to world space: the depth camera's rotation.
    return normal
      .applyMatrix4(new THREE.Matrix4().extractRotation(this.viewInverse))
      .normalize();
  }
}

/** Normal of the least-squares plane through the points (null if degenerate). */
function fitPlaneNormal(points) {
  if (points.length < 4) return null;
  const c = new THREE.Vector3();
  for (const p of points) c.add(p);
  c.divideScalar(points.length);
  let xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;
  for (const p of points) {
    const x = p.x - c.x, y = p.y - c.y, z = p.z - c.z;
    xx += x * x; xy += x * y; xz += x * z;
    yy += y * y; yz += y * z; zz += z * z;
  }
  const detX = yy * zz - yz * yz;
  const detY = xx * zz - xz * xz;
  const detZ = xx * yy - xy * xy;
  const maxDet = Math.max(detX, detY, detZ);
  if (maxDet <= 1e-18) return null;
  let n;
  if (maxDet === detX) n = new THREE.Vector3(detX, xz * yz - xy * zz, xy * yz - xz * yy);
  else if (maxDet === detY) n = new THREE.Vector3(xz * yz - xy * zz, detY, xy * xz - yz * xx);
  else n = new THREE.Vector3(xy * yz - xz * yy, xy * xz - yz * xx, detZ);
  if (n.lengthSq() < 1e-24) return null;
  return n.normalize();
}

class PaintSplats extends xb.Script {
  init() {
    this.splats = {left: [], right: []}; // oldest first
    this.held = new Map(); // controller -> splat being grown by its pinch
    this.gesturesBound = false;
    this.bindGestures();
  }

  bindGestures() {
    if (this.gesturesBound) return;
    const gestures = xb.core.gestureRecognition;
    if (!gestures) return;
    gestures.addEventListener('gesturestart', (event) => {
      const detail = event.detail;
      if (detail && detail.name === 'fist' && (detail.hand === 'left' || detail.hand === 'right')) {
        this.clearHand(detail.hand);
      }
    });
    this.gesturesBound = true;
  }

  handOf(controller, event) {
    const controllers = xb.core.input?.controllers || [];
    if (controller && controller === controllers[0]) return 'left';
    if (controller && controller === controllers[1]) return 'right';
    const handedness = event?.source?.handedness;
    if (handedness === 'left' || handedness === 'right') return handedness;
    return null;
  }

  onSelectStart(event) {
    const controller = event?.source?.controller;
    const hand = this.handOf(controller, event);
    if (!hand || !controller) return;
    const now = performance.now();
    const landing = this.castIntoRoom(controller);
    if (!landing) return;
    const splat = this.createSplat(hand, landing.point, landing.normal, now);
    this.held.set(controller, splat);
    const list = this.splats[hand];
    list.push(splat);
    while (list.length > MAX_SPLATS_PER_HAND) {
      this.removeSplat(list.shift());
    }
  }

  onSelectEnd(event) {
    const controller = event?.source?.controller;
    if (!controller) return;
    const splat = this.held.get(controller);
    if (!splat) return;
    this.held.delete(controller);
    this.setDiameter(splat, this.diameterAt(splat, performance.now()));
    splat.userData.growing = false;
  }

  /** The hand's ray, cast into the real room seen through the depth data. */
  castIntoRoom(controller) {
    const sampler = DepthSampler.from(xb.core.depth);
    if (!sampler) return null;
    controller.updateWorldMatrix(true, false);
    const origin = new THREE.Vector3();
    const quaternion = new THREE.Quaternion();
    controller.getWorldPosition(origin);
    controller.getWorldQuaternion(quaternion);
    const direction = new THREE.Vector3(0, 0, -1).applyQuaternion(quaternion).normalize();

    const at = (t) => _p.copy(direction).multiplyScalar(t).add(origin);
    let previous = null;
    let hitT = null;
    for (let t = MIN_RANGE; t <= MAX_RANGE + 1e-9; t += MARCH_STEP) {
      const s = Math.min(t, MAX_RANGE);
      if (sampler.isBehindSurface(at(s))) {
        hitT = s;
        break;
      }
      previous = s;
    }
    if (hitT === null) return null;
    if (previous !== null) {
      // Narrow down the first point at or behind the surface.
      let lo = previous;
      let hi = hitT;
      for (let i = 0; i < 12; i++) {
        const mid = 0.5 * (lo + hi);
        if (sampler.isBehindSurface(at(mid))) hi = mid;
        else lo = mid;
      }
      hitT = hi;
    }
    const point = at(hitT).clone();
    const pixel = sampler.project(point);
    let normal = pixel ? sampler.surfaceNormal(pixel.x, pixel.y) : null;
    if (!normal) normal = direction.clone().negate();
    // Face the side the ray came from (the user's side of the surface).
    if (normal.dot(direction) > 0) normal.negate();
    return {point, normal};
  }

  createSplat(hand, point, normal, startTime) {
    const geometry = new THREE.CircleGeometry(0.5, CIRCLE_SEGMENTS);
    const material = new THREE.MeshBasicMaterial({
      color: HAND_COLORS[hand],
      side: THREE.DoubleSide,
    });
    const splat = new THREE.Mesh(geometry, material);
    splat.name = `paint-splat-${hand}`;
    splat.position.copy(point).addScaledVector(normal, LIFT);
    splat.quaternion.setFromUnitVectors(_zAxis, normal);
    splat.userData.xrblocksDevtools = {tag: 'paint-splat', state: {hand}};
    splat.userData.hand = hand;
    splat.userData.startTime = startTime;
    splat.userData.growing = true;
    this.setDiameter(splat, START_DIAMETER);
    this.add(splat);
    return splat;
  }

  diameterAt(splat, now) {
    const seconds = Math.max(0, (now - splat.userData.startTime) / 1000);
    return Math.min(MAX_DIAMETER, START_DIAMETER + GROWTH_PER_SECOND * seconds);
  }

  setDiameter(splat, diameter) {
    splat.scale.set(diameter, diameter, 1);
  }

  removeSplat(splat) {
    if (!splat) return;
    for (const [controller, held] of this.held) {
      if (held === splat) this.held.delete(controller);
    }
    splat.removeFromParent();
    splat.visible = false;
    splat.geometry.dispose();
    splat.material.dispose();
  }

  clearHand(hand) {
    const list = this.splats[hand];
    this.splats[hand] = [];
    for (const splat of list) this.removeSplat(splat);
  }

  update() {
    this.bindGestures();
    const now = performance.now();
    for (const splat of this.held.values()) {
      this.setDiameter(splat, this.diameterAt(splat, now));
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  options.enableGestures();
  xb.add(new PaintSplats());
  xb.init(options);
});
