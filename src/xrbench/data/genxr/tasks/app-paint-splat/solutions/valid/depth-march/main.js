import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Paint splats: each pinch casts the pinching hand's ray into XR Blocks' depth data (a march
 * along the ray in 1 cm steps, refined by bisection) and lands a disc of paint where it first
 * meets a real surface, laid flat on the surface's normal (estimated from the depth image around
 * the landing point). The splat grows while the pinch is held; a fist clears that hand's splats.
 */

const MIN_RANGE = 0.3;
const MAX_RANGE = 5.0;
const STEP = 0.01;
const LIFT = 0.004; // metres off the surface
const START_DIAMETER = 0.04;
const GROWTH = 0.04; // metres of diameter per second held
const MAX_DIAMETER = 0.16;
const MAX_PER_HAND = 5;
const COLOURS = {left: 0x2979ff, right: 0xff4081};

class PaintSplats extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.geometry = new THREE.CircleGeometry(0.5, 48);
    this.materials = {
      left: new THREE.MeshBasicMaterial({color: COLOURS.left, side: THREE.DoubleSide}),
      right: new THREE.MeshBasicMaterial({color: COLOURS.right, side: THREE.DoubleSide}),
    };
    this.splats = {left: [], right: []};
    this.held = new Map(); // controller -> {splat, start} (splat null for a pinch that missed)
    xb.core.gestureRecognition?.addEventListener('gesturestart', (event) => {
      const {name, hand} = event.detail ?? {};
      if (name === 'fist' && (hand === 'left' || hand === 'right')) this.clear(hand);
    });
  }

  handOf(controller) {
    const controllers = xb.core.input.controllers;
    if (controller === controllers[0]) return 'left';
    if (controller === controllers[1]) return 'right';
    return null;
  }

  onSelectStart(event) {
    const controller = event?.source?.controller ?? event?.target;
    const hand = this.handOf(controller);
    if (!hand || this.held.has(controller)) return;
    controller.updateMatrixWorld(true);
    const origin = controller.getWorldPosition(new THREE.Vector3());
    const direction = new THREE.Vector3(0, 0, -1)
      .applyQuaternion(controller.getWorldQuaternion(new THREE.Quaternion()))
      .normalize();
    const hit = this.castIntoDepth(origin, direction);
    const splat = hit ? this.land(hand, hit, this.normalAt(hit, origin)) : null;
    this.held.set(controller, {splat, start: performance.now()});
  }

  onSelectEnd(event) {
    const controller = event?.source?.controller ?? event?.target;
    this.held.delete(controller);
  }

  update() {
    const now = performance.now();
    for (const {splat, start} of this.held.values()) {
      if (!splat || !splat.parent) continue;
      this.resize(splat, (now - start) / 1000);
    }
  }

  resize(splat, seconds) {
    const d = Math.min(MAX_DIAMETER, START_DIAMETER + GROWTH * Math.max(0, seconds));
    splat.scale.set(d, d, 1);
  }

  /** World point p in the depth camera: its depth and the surface's depth seen there. */
  sample(p) {
    const depth = xb.core.depth;
    const view = p.clone().applyMatrix4(depth.depthViewMatrices[0]);
    const z = -view.z;
    if (z <= 0) return null;
    const clip = view.applyMatrix4(depth.depthProjectionMatrices[0]);
    if (Math.abs(clip.x) > 1 || Math.abs(clip.y) > 1) return null;
    const surface = depth.getDepth(0.5 * (clip.x + 1), 0.5 * (clip.y + 1));
    if (!(surface > 0)) return null;
    return {z, surface, u: 0.5 * (clip.x + 1), v: 0.5 * (clip.y + 1)};
  }

  castIntoDepth(origin, direction) {
    const depth = xb.core.depth;
    if (!depth || !depth.depthArray?.[0] || !depth.depthViewMatrices?.[0]) return null;
    const at = (s) => origin.clone().addScaledVector(direction, s);
    let before = MIN_RANGE;
    for (let s = MIN_RANGE; s <= MAX_RANGE + 1e-9; s += STEP) {
      const q = this.sample(at(s));
      if (q && q.z >= q.surface) {
        if (s === MIN_RANGE) return at(s);
        let lo = before, hi = s;
        for (let i = 0; i < 12; i++) {
          const mid = 0.5 * (lo + hi);
          const m = this.sample(at(mid));
          if (m && m.z >= m.surface) hi = mid; else lo = mid;
        }
        return at(hi);
      }
      before = s;
    }
    return null;
  }

  /** The world point the depth image shows at view coordinates (u, v), or null. */
  surfacePoint(u, v) {
    const depth = xb.core.depth;
    if (u < 0 || u > 1 || v < 0 || v > 1) return null;
    const d = depth.getDepth(u, v);
    if (!(d > 0)) return null;
    const inverseProjection = depth.depthProjectionMatrices[0].clone().invert();
    const p = new THREE.Vector3(2 * u - 1, 2 * v - 1, 0.5).applyMatrix4(inverseProjection);
    p.multiplyScalar(d / -p.z);
    return p.applyMatrix4(depth.depthViewMatrices[0].clone().invert());
  }

  /** The surface normal at world point p, from the depth image around it, facing `towards`. */
  normalAt(p, towards) {
    const q = this.sample(p);
    const facing = towards.clone().sub(p).normalize();
    if (!q) return facing;
    const centre = this.surfacePoint(q.u, q.v) ?? p;
    for (const px of [4, 3, 2, 1]) {
      const k = px / 160;
      const pick = (a, b) => {
        // Prefer the neighbour whose depth continues the surface (skips an object's edge).
        const pa = this.surfacePoint(...a), pb = this.surfacePoint(...b);
        if (!pa || !pb) return null;
        const da = pa.distanceTo(centre), db = pb.distanceTo(centre);
        if (Math.abs(da - db) > 0.5 * Math.max(da, db)) {
          return da < db ? pa.clone().sub(centre) : centre.clone().sub(pb);
        }
        return pa.clone().sub(pb);
      };
      const du = pick([q.u + k, q.v], [q.u - k, q.v]);
      const dv = pick([q.u, q.v + k], [q.u, q.v - k]);
      if (!du || !dv) continue;
      const n = new THREE.Vector3().crossVectors(du, dv);
      if (n.lengthSq() < 1e-12) continue;
      n.normalize();
      if (n.dot(facing) < 0) n.negate();
      return n;
    }
    return facing;
  }

  land(hand, point, normal) {
    const list = this.splats[hand];
    while (list.length >= MAX_PER_HAND) this.remove(list.shift());
    const splat = new THREE.Mesh(this.geometry, this.materials[hand]);
    splat.name = `paint-splat-${hand}`;
    splat.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), normal);
    splat.position.copy(point).addScaledVector(normal, LIFT);
    splat.userData.xrblocksDevtools = {tag: 'paint-splat', state: {hand}};
    this.resize(splat, 0);
    this.add(splat);
    list.push(splat);
    return splat;
  }

  clear(hand) {
    for (const splat of this.splats[hand]) this.remove(splat);
    this.splats[hand] = [];
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PaintSplats());
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  options.enableGestures();
  xb.init(options);
});
