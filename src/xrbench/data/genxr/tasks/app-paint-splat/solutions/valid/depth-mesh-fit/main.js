import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Paint splats, polled: every frame each hand's select state is compared with the last frame's.
 * A new pinch raycasts XR Blocks' depth mesh along the hand's ray (0.3 m to 5 m), keeping hits
 * where the depth image has a value; the surface normal is a least-squares plane fitted to the
 * depth image's points around the hit. Splats are thin cylinders, one group per hand; held time
 * is summed from the frame deltas.
 */

const NEAR = 0.3;
const FAR = 5.0;
const HANDS = ['left', 'right'];
const PAINT = {left: '#2979ff', right: '#ff4081'};
const LIMIT = 5;

const raycaster = new THREE.Raycaster();
raycaster.near = NEAR;
raycaster.far = FAR;

function handRay(index) {
  const controller = xb.core.input.controllers[index];
  if (!controller) return null;
  controller.updateMatrixWorld(true);
  const m = controller.matrixWorld;
  const origin = new THREE.Vector3().setFromMatrixPosition(m);
  const direction = new THREE.Vector3(-m.elements[8], -m.elements[9], -m.elements[10]).normalize();
  return {origin, direction};
}

function toView(p) {
  const depth = xb.core.depth;
  return p.clone()
    .applyMatrix4(depth.depthViewMatrices[0])
    .applyMatrix4(depth.depthProjectionMatrices[0]);
}

/** World point where the ray meets the real surfaces of the depth data, or null. */
function depthHit(ray) {
  const depth = xb.core.depth;
  const mesh = depth?.depthMesh;
  if (!mesh || !depth.depthArray?.[0]) return null;
  mesh.updateMatrixWorld(true);
  raycaster.set(ray.origin, ray.direction);
  for (const hit of raycaster.intersectObject(mesh, false)) {
    const ndc = toView(hit.point);
    if (Math.abs(ndc.x) > 1 || Math.abs(ndc.y) > 1) continue;
    if (depth.getDepth((ndc.x + 1) / 2, (ndc.y + 1) / 2) > 0) return hit.point.clone();
  }
  return null;
}

/** World point of the depth image at (u, v), or null. */
function depthPoint(u, v) {
  const depth = xb.core.depth;
  if (u < 0 || u > 1 || v < 0 || v > 1) return null;
  const d = depth.getDepth(u, v);
  if (!(d > 0)) return null;
  const p = new THREE.Vector3(2 * u - 1, 2 * v - 1, 0.5)
    .applyMatrix4(depth.depthProjectionMatrices[0].clone().invert());
  p.multiplyScalar(d / -p.z);
  return p.applyMatrix4(depth.depthViewMatrices[0].clone().invert());
}

/** Least-squares plane through the depth points around `point`; its normal faces `eye`. */
function fitNormal(point, eye) {
  const ndc = toView(point);
  const u0 = (ndc.x + 1) / 2, v0 = (ndc.y + 1) / 2;
  const pts = [];
  for (let i = -3; i <= 3; i++) {
    for (let j = -3; j <= 3; j++) {
      const q = depthPoint(u0 + (1.5 * i) / 160, v0 + (1.5 * j) / 160);
      if (q && q.distanceTo(point) < 0.06 + 0.02 * point.distanceTo(eye)) pts.push(q);
    }
  }
  const toEye = eye.clone().sub(point).normalize();
  if (pts.length < 3) return toEye;
  const c = new THREE.Vector3();
  for (const q of pts) c.add(q);
  c.divideScalar(pts.length);
  const cov = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (const q of pts) {
    const r = [q.x - c.x, q.y - c.y, q.z - c.z];
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) cov[a][b] += r[a] * r[b];
  }
  // Smallest eigenvector: power iteration on (trace * I - cov).
  const tr = cov[0][0] + cov[1][1] + cov[2][2];
  let n = toEye.toArray();
  for (let it = 0; it < 60; it++) {
    const m = [0, 1, 2].map((a) => tr * n[a] - (cov[a][0] * n[0] + cov[a][1] * n[1] + cov[a][2] * n[2]));
    const len = Math.hypot(...m) || 1;
    n = m.map((x) => x / len);
  }
  const normal = new THREE.Vector3(...n);
  if (normal.dot(toEye) < 0) normal.negate();
  return normal;
}

class SplatPainter extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.was = [false, false];
    this.active = [null, null]; // {mesh, seconds} per hand index, or a miss {mesh: null}
    this.groups = {};
    for (const hand of HANDS) {
      this.groups[hand] = new THREE.Group();
      this.add(this.groups[hand]);
    }
    xb.core.gestureRecognition?.addEventListener('gesturestart', (event) => {
      if (event.detail?.name !== 'fist') return;
      const group = this.groups[event.detail.hand];
      if (group) group.clear();
    });
  }

  update() {
    const dt = xb.getDeltaTime();
    const controllers = xb.core.input.controllers;
    for (let i = 0; i < 2; i++) {
      const selected = controllers[i]?.userData?.selected === true;
      const held = this.active[i];
      if (selected && !this.was[i]) {
        this.active[i] = this.throwSplat(i);
      } else if (selected && held?.mesh) {
        held.seconds += dt;
        this.setSize(held.mesh, held.seconds);
      } else if (!selected) {
        this.active[i] = null;
      }
      this.was[i] = selected;
    }
  }

  setSize(mesh, seconds) {
    const d = Math.min(0.16, 0.04 + 0.04 * seconds);
    mesh.scale.set(d, 1, d);
  }

  throwSplat(index) {
    const ray = handRay(index);
    const point = ray && depthHit(ray);
    if (!point) return {mesh: null};
    const hand = HANDS[index];
    const eye = xb.core.camera.getWorldPosition(new THREE.Vector3());
    const normal = fitNormal(point, eye);
    const group = this.groups[hand];
    while (group.children.length >= LIMIT) group.remove(group.children[0]);
    const mesh = new THREE.Mesh(
      new THREE.CylinderGeometry(0.5, 0.5, 0.002, 40),
      new THREE.MeshStandardMaterial({color: PAINT[hand], roughness: 0.6}));
    mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), normal);
    mesh.position.copy(point).addScaledVector(normal, 0.003);
    mesh.userData.xrblocksDevtools = {tag: 'paint-splat', state: {hand}};
    this.setSize(mesh, 0);
    group.add(mesh);
    return {mesh, seconds: 0};
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new SplatPainter());
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  options.enableGestures();
  xb.init(options);
});
