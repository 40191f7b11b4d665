import * as THREE from 'three';
import * as xb from 'xrblocks';

const PINCH_ON = 0.02;   // thumb-index distance (m) that starts a pinch
const PINCH_OFF = 0.035; // ... and that ends it (hysteresis)
const SPACING = 0.006;   // metres between dots
const MAX_DOTS = 2000;

/**
 * Drawing with its own pinch detection (thumb tip to index tip distance, per hand), strokes made
 * of small instanced spheres placed along the index fingertip's path; a fist recognised by XR
 * Blocks hides every stroke (they stay in the scene, hidden).
 */
class DotStrokes extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.dot = new THREE.SphereGeometry(0.004, 8, 6);
    this.pinching = [false, false];
    this.current = [null, null];
    this.strokes = [];
    xb.core.gestureRecognition.addEventListener('gesturestart', (event) => {
      if (event.detail.name === 'fist') this.hideAll();
    });
  }

  /** Hides every stroke; a hand still pinching draws again only after its next pinch. */
  hideAll() {
    for (const mesh of this.strokes) {
      mesh.visible = false;
    }
    this.strokes = [];
    this.current = [null, null];
  }

  joint(handIndex, name) {
    const joint = xb.core.input.hands[handIndex]?.joints?.[name];
    return joint ? joint.getWorldPosition(new THREE.Vector3()) : null;
  }

  newStroke(handIndex) {
    const hand = handIndex === 0 ? 'left' : 'right';
    const mesh = new THREE.InstancedMesh(
      this.dot, new THREE.MeshBasicMaterial({color: hand === 'left' ? 0x26c6da : 0xec407a}), MAX_DOTS);
    mesh.count = 0;
    mesh.frustumCulled = false;
    mesh.userData.xrblocksDevtools = {tag: 'stroke', state: {hand, points: 0}};
    this.add(mesh);
    this.strokes.push(mesh);
    return {mesh, last: null};
  }

  addDot(stroke, point) {
    const {mesh} = stroke;
    if (mesh.count >= MAX_DOTS) return;
    if (stroke.last && stroke.last.distanceTo(point) < SPACING) return;
    // Fill the gap so that fast movements still leave a continuous line of dots.
    const from = stroke.last ?? point;
    const steps = Math.max(1, Math.ceil(from.distanceTo(point) / SPACING));
    for (let i = 1; i <= steps && mesh.count < MAX_DOTS; i++) {
      const p = from.clone().lerp(point, i / steps);
      mesh.setMatrixAt(mesh.count, new THREE.Matrix4().makeTranslation(p.x, p.y, p.z));
      mesh.count += 1;
    }
    mesh.instanceMatrix.needsUpdate = true;
    stroke.last = point.clone();
    mesh.userData.xrblocksDevtools.state.points = mesh.count;
  }

  update() {
    for (const handIndex of [0, 1]) {
      const index = this.joint(handIndex, 'index-finger-tip');
      const thumb = this.joint(handIndex, 'thumb-tip');
      if (!index || !thumb) continue;
      const gap = index.distanceTo(thumb);
      if (!this.pinching[handIndex] && gap < PINCH_ON) {
        this.pinching[handIndex] = true;
        this.current[handIndex] = this.newStroke(handIndex);
      } else if (this.pinching[handIndex] && gap > PINCH_OFF) {
        this.pinching[handIndex] = false;
        this.current[handIndex] = null;
      }
      if (this.current[handIndex]) this.addDot(this.current[handIndex], index);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new DotStrokes());
  const options = new xb.Options();
  options.enableHands();
  options.enableGestures();
  xb.init(options);
});
