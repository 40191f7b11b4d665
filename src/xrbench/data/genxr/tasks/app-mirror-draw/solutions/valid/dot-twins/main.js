import * as THREE from 'three';
import * as xb from 'xrblocks';

// Strokes are chains of small dots, one every 5 mm of fingertip travel.
const SPACING = 0.005;
const MAX_DOTS = 3000;
const BUTTON_ON = 0x33cc66;
const BUTTON_OFF = 0x666666;
const dotGeometry = new THREE.SphereGeometry(0.003, 6, 4);

function makeDots(color) {
  const dots = new THREE.InstancedMesh(dotGeometry, new THREE.MeshBasicMaterial({color}), MAX_DOTS);
  dots.count = 0;
  dots.frustumCulled = false;
  dots.raycast = () => {};
  dots.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
  return dots;
}

function addDot(dots, p) {
  if (dots.count >= MAX_DOTS) return;
  dots.setMatrixAt(dots.count, new THREE.Matrix4().makeTranslation(p.x, p.y, p.z));
  dots.count += 1;
  dots.instanceMatrix.needsUpdate = true;
}

class MirrorSketch extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.mirrorOn = true;
    this.drawing = [null, null];  // per controller index: {dots, twin, last} or null
    this.toggling = [false, false];
    this.raycaster = new THREE.Raycaster();

    this.panel = new THREE.Group();
    this.panel.position.set(0.05, xb.user.height - 0.25, -0.7);
    this.add(this.panel);
    this.button = new THREE.Mesh(new THREE.BoxGeometry(0.1, 0.05, 0.01),
                                 new THREE.MeshBasicMaterial({color: BUTTON_ON}));
    this.button.userData.xrblocksDevtools = {tag: 'mirror-button', state: {}};
    this.panel.add(this.button);
  }

  indexOf(event) {
    const controllers = xb.core.input.controllers;
    const c = event.target;
    let i = controllers.indexOf(c);
    if (i < 0) {
      const h = event.source?.handedness ?? c?.userData?.handedness;
      i = h === 'left' ? 0 : h === 'right' ? 1 : -1;
    }
    return i;
  }

  rayHitsButton(i) {
    const c = xb.core.input.controllers[i];
    if (!c) return false;
    c.updateMatrixWorld(true);
    const origin = new THREE.Vector3().setFromMatrixPosition(c.matrixWorld);
    const dir = new THREE.Vector3(0, 0, -1).transformDirection(c.matrixWorld);
    this.raycaster.set(origin, dir);
    this.button.updateMatrixWorld(true);
    return this.raycaster.intersectObject(this.button, false).length > 0;
  }

  tip(i) {
    const joint = xb.core.input.hands?.[i]?.joints?.['index-finger-tip'];
    if (!joint) return null;
    joint.updateMatrixWorld(true);
    return new THREE.Vector3().setFromMatrixPosition(joint.matrixWorld);
  }

  onSelectStart(event) {
    const i = this.indexOf(event);
    if (i !== 0 && i !== 1) return;
    if (this.rayHitsButton(i)) {
      this.toggling[i] = true;
      this.mirrorOn = !this.mirrorOn;
      this.button.material.color.setHex(this.mirrorOn ? BUTTON_ON : BUTTON_OFF);
      return;
    }
    const p = this.tip(i);
    if (!p) return;
    const stroke = {dots: makeDots(0xffaa33), twin: null, last: null};
    xb.core.scene.add(stroke.dots);
    if (this.mirrorOn) {
      stroke.twin = makeDots(0x33aaff);
      xb.core.scene.add(stroke.twin);
    }
    this.drawing[i] = stroke;
    this.extend(stroke, p);
  }

  extend(stroke, p) {
    const from = stroke.last;
    const steps = from ? Math.floor(from.distanceTo(p) / SPACING) : 0;
    const points = [];
    for (let k = 1; k <= steps; k++) points.push(from.clone().lerp(p, k / steps));
    if (!from) points.push(p.clone());
    for (const q of points) {
      addDot(stroke.dots, q);
      if (stroke.twin) addDot(stroke.twin, new THREE.Vector3(-q.x, q.y, q.z));
      stroke.last = q;
    }
  }

  onSelectEnd(event) {
    const i = this.indexOf(event);
    if (i !== 0 && i !== 1) return;
    this.toggling[i] = false;
    const stroke = this.drawing[i];
    if (!stroke) return;
    const p = this.tip(i);
    if (p && stroke.last && stroke.last.distanceTo(p) > 0.001) {
      this.extend(stroke, p);
      addDot(stroke.dots, p);
      if (stroke.twin) addDot(stroke.twin, new THREE.Vector3(-p.x, p.y, p.z));
    }
    this.drawing[i] = null;
  }

  update() {
    for (let i = 0; i < 2; i++) {
      const stroke = this.drawing[i];
      if (!stroke) continue;
      const p = this.tip(i);
      if (p) this.extend(stroke, p);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new MirrorSketch());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
