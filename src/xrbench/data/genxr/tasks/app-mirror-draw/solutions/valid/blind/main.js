import * as THREE from 'three';
import * as xb from 'xrblocks';

const MIRROR_ON_COLOR = 0x33cc66;
const MIRROR_OFF_COLOR = 0x666666;
const MAX_POINTS = 20000;
const MIN_STEP = 0.002; // metres between stored points

/**
 * Creates one growing line (a stroke or its reflection) in world space.
 */
function makeStrokeLine(color) {
  const positions = new Float32Array(MAX_POINTS * 3);
  const geometry = new THREE.BufferGeometry();
  const attr = new THREE.BufferAttribute(positions, 3);
  attr.setUsage(THREE.DynamicDrawUsage);
  geometry.setAttribute('position', attr);
  geometry.setDrawRange(0, 0);
  const line = new THREE.Line(
    geometry,
    new THREE.LineBasicMaterial({color})
  );
  line.frustumCulled = false;
  line.userData.count = 0;
  line.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
  // Strokes never block rays (e.g. for the mirror button).
  line.raycast = () => {};
  return line;
}

function appendPoint(line, p) {
  const n = line.userData.count;
  if (n >= MAX_POINTS) return;
  const attr = line.geometry.getAttribute('position');
  attr.setXYZ(n, p.x, p.y, p.z);
  // Draw a single point as a zero-length segment so it is visible at once.
  const count = n + 1;
  line.userData.count = count;
  if (count === 1 && n + 1 < MAX_POINTS) {
    attr.setXYZ(1, p.x, p.y, p.z);
  }
  line.geometry.setDrawRange(0, Math.max(count, 2));
  attr.needsUpdate = true;
  line.geometry.computeBoundingSphere();
}

/**
 * Mirror drawing: pinch to draw strokes in the air; while mirroring is on,
 * each stroke is also drawn reflected across the room plane x = 0.
 */
class MirrorDraw extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.mirrorOn = true;
    const geometry = new THREE.BoxGeometry(0.12, 0.08, 0.01);
    const material = new THREE.MeshPhongMaterial({color: MIRROR_ON_COLOR});
    this.button = new THREE.Mesh(geometry, material);
    this.button.position.set(0, xb.user.height - 0.25, -0.7);
    this.button.userData.xrblocksDevtools = {tag: 'mirror-button', state: {}};
    this.add(this.button);

    // Active strokes by controller: {line, reflection, handedness}.
    this.active = new Map();
    this.toggling = new Set();
    this.raycaster = new THREE.Raycaster();
    this._pos = new THREE.Vector3();
    this._quat = new THREE.Quaternion();
    this._dir = new THREE.Vector3();
    this._tip = new THREE.Vector3();
  }

  setMirror(on) {
    this.mirrorOn = on;
    this.button.material.color.setHex(on ? MIRROR_ON_COLOR : MIRROR_OFF_COLOR);
    this.button.userData.xrblocksDevtools.state = {mirror: on};
  }

  controllerOf(event) {
    return event?.source?.controller ?? event?.target ?? null;
  }

  handednessOf(event) {
    const controller = this.controllerOf(event);
    const sh = event?.source?.handedness;
    const h =
      (sh === 'left' || sh === 'right' ? sh : undefined) ??
      event?.data?.handedness ??
      controller?.inputSource?.handedness ??
      controller?.userData?.handedness;
    if (h === 'left') return xb.Handedness.LEFT;
    if (h === 'right') return xb.Handedness.RIGHT;
    const controllers = xb.core?.input?.controllers;
    if (controllers && controller) {
      const i = controllers.indexOf(controller);
      if (i === 0) return xb.Handedness.LEFT;
      if (i === 1) return xb.Handedness.RIGHT;
    }
    return xb.Handedness.RIGHT;
  }

  rayHitsButton(controller) {
    if (!controller) return false;
    controller.updateMatrixWorld(true);
    controller.getWorldPosition(this._pos);
    controller.getWorldQuaternion(this._quat);
    this._dir.set(0, 0, -1).applyQuaternion(this._quat).normalize();
    this.raycaster.set(this._pos, this._dir);
    this.button.updateMatrixWorld(true);
    return this.raycaster.intersectObject(this.button, false).length > 0;
  }

  tipPosition(stroke, out) {
    // The hand space shares its index with the controller (same source).
    let tip = null;
    const input = xb.core?.input;
    if (input?.controllers && input?.hands && stroke.controller) {
      const i = input.controllers.indexOf(stroke.controller);
      const hand = i >= 0 ? input.hands[i] : null;
      const joint = hand?.joints?.['index-finger-tip'];
      if (joint) tip = joint;
    }
    if (!tip) tip = xb.user.hands?.getIndexTip(stroke.handedness);
    if (!tip) return null;
    tip.updateMatrixWorld?.(true);
    tip.getWorldPosition(out);
    if (!Number.isFinite(out.x)) return null;
    return out;
  }

  addPoint(stroke) {
    const p = this.tipPosition(stroke, this._tip);
    if (!p) return;
    const n = stroke.line.userData.count;
    if (n > 0) {
      const attr = stroke.line.geometry.getAttribute('position');
      const dx = attr.getX(n - 1) - p.x;
      const dy = attr.getY(n - 1) - p.y;
      const dz = attr.getZ(n - 1) - p.z;
      if (dx * dx + dy * dy + dz * dz < MIN_STEP * MIN_STEP) return;
    }
    appendPoint(stroke.line, p);
    if (stroke.reflection) {
      appendPoint(stroke.reflection, new THREE.Vector3(-p.x, p.y, p.z));
    }
  }

  onSelectStart(event) {
    const controller = this.controllerOf(event);
    if (!controller || this.active.has(controller) ||
        this.toggling.has(controller)) {
      return;
    }
    if (this.rayHitsButton(controller)) {
      this.toggling.add(controller);
      this.setMirror(!this.mirrorOn);
      return;
    }
    const handedness = this.handednessOf(event);
    const stroke = {
      controller,
      handedness,
      line: makeStrokeLine(0xffffff),
      reflection: this.mirrorOn ? makeStrokeLine(0x66ccff) : null,
    };
    this.add(stroke.line);
    if (stroke.reflection) this.add(stroke.reflection);
    this.active.set(controller, stroke);
    this.addPoint(stroke);
  }

  onSelectEnd(event) {
    const controller = this.controllerOf(event);
    if (!controller) return;
    if (this.toggling.delete(controller)) return;
    const stroke = this.active.get(controller);
    if (stroke) {
      this.addPoint(stroke);
      this.active.delete(controller);
    }
  }

  update() {
    for (const stroke of this.active.values()) {
      this.addPoint(stroke);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new MirrorDraw());
  xb.init(options);
});
