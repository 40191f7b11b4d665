import * as THREE from 'three';
import * as xb from 'xrblocks';

// Depth spray. Each hand's pinch state is polled every frame from its controller; a pinch's ray
// is walked through the depth image in 2 cm steps, and the crossing of the real surface is
// interpolated between the last step in front of it and the first at or behind it.

const NEAR = 0.3;
const FAR = 5.0;
const COARSE = 0.02;
const GAP = 0.03;
const HANDS = ['left', 'right'];
const PAINT = {left: '#00e5ff', right: '#ffd600'};

const _view = new THREE.Matrix4();
const _p = new THREE.Vector3();

function surfaceGap(point) {
  // Signed distance along the view between the point and the real surface seen there:
  // >= 0 at or behind the surface; null when the depth is unknown or the point is out of view.
  const depth = xb.core.depth;
  _view.compose(depth.depthCameraPositions[0], depth.depthCameraRotations[0], new THREE.Vector3(1, 1, 1)).invert();
  _p.copy(point).applyMatrix4(_view);
  const ahead = -_p.z;
  if (ahead <= 0.01) return null;
  _p.applyMatrix4(depth.depthProjectionMatrices[0]);
  if (_p.x < -1 || _p.x > 1 || _p.y < -1 || _p.y > 1) return null;
  const seen = depth.getDepth((_p.x + 1) / 2, (_p.y + 1) / 2);
  if (!seen || seen <= 0) return null;
  return ahead - seen;
}

function castRay(controller) {
  const depth = xb.core.depth;
  if (!depth?.depthArray?.[0] || !depth.depthCameraPositions?.[0] || !depth.depthProjectionMatrices?.[0]) {
    return null;
  }
  controller.updateMatrixWorld(true);
  const origin = new THREE.Vector3().setFromMatrixPosition(controller.matrixWorld);
  const dir = new THREE.Vector3(0, 0, -1).transformDirection(controller.matrixWorld);
  let prevT = null;
  let prevGap = null;
  for (let t = NEAR; t <= FAR + 1e-6; t += COARSE) {
    const g = surfaceGap(origin.clone().addScaledVector(dir, t));
    if (g !== null && g >= 0) {
      let hitT = t;
      if (prevGap !== null && prevGap < 0) {
        hitT = prevT + (t - prevT) * (-prevGap / (g - prevGap));
        // A few more halvings keep the point on the surface at grazing angles.
        let lo = prevT, hi = t;
        for (let i = 0; i < 8; i++) {
          const mid = (lo + hi) / 2;
          const gm = surfaceGap(origin.clone().addScaledVector(dir, mid));
          if (gm !== null && gm >= 0) hi = mid; else lo = mid;
        }
        hitT = Math.abs(hitT - hi) < COARSE ? hi : hitT;
      }
      return origin.addScaledVector(dir, hitT);
    }
    prevT = t;
    prevGap = g;
  }
  return null;
}

class SprayCan extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.5));
    this.geometry = new THREE.SphereGeometry(0.01, 12, 8);
    this.pinches = [null, null]; // per controller index: {lastDot} while pinching
  }

  onSelectStart(event) {
    const controller = event?.source?.controller ?? event?.target;
    const i = xb.core.input.controllers.indexOf(controller);
    if (i !== 0 && i !== 1) return;
    this.pinches[i] = {lastDot: null};
    this.sprayFrom(i);
  }

  update() {
    const controllers = xb.core.input.controllers;
    for (const i of [0, 1]) {
      const selected = controllers[i]?.userData?.selected === true;
      if (!selected) {
        this.pinches[i] = null;
        continue;
      }
      if (!this.pinches[i]) continue; // its select start is reported later in this frame
      this.sprayFrom(i);
    }
  }

  sprayFrom(i) {
    const point = castRay(xb.core.input.controllers[i]);
    if (!point) return;
    const pinch = this.pinches[i];
    if (pinch.lastDot && pinch.lastDot.position.distanceTo(point) < GAP) return;
    const hand = HANDS[i];
    const dot = new THREE.Mesh(this.geometry, new THREE.MeshLambertMaterial({color: PAINT[hand]}));
    dot.position.copy(point);
    dot.userData.xrblocksDevtools = {tag: 'spray-dot', state: {hand}};
    this.add(dot);
    pinch.lastDot = dot;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  xb.add(new SprayCan());
  xb.init(options);
});
