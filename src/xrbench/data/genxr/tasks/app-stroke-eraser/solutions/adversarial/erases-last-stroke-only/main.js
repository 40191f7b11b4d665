import * as THREE from 'three';
import * as xb from 'xrblocks';

const MAX_POINTS = 4096;
const MIN_STEP = 0.004;  // metres of fingertip movement between points

/** One stroke: a THREE.Line whose points are appended while its pinch lasts. */
class Stroke {
  constructor(hand) {
    this.positions = new Float32Array(MAX_POINTS * 3);
    this.geometry = new THREE.BufferGeometry();
    this.geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    this.geometry.setDrawRange(0, 0);
    this.line = new THREE.Line(this.geometry, new THREE.LineBasicMaterial({color: 0xffffff}));
    this.line.frustumCulled = false;
    this.state = {hand, points: 0};
    this.line.userData.xrblocksDevtools = {tag: 'stroke', state: this.state};
    this.last = null;
  }

  add(point) {
    if (this.state.points >= MAX_POINTS) return;
    if (this.last && this.last.distanceTo(point) < MIN_STEP) return;
    point.toArray(this.positions, this.state.points * 3);
    this.state.points += 1;
    this.last = point.clone();
    this.geometry.setDrawRange(0, this.state.points);
    this.geometry.attributes.position.needsUpdate = true;
    this.geometry.computeBoundingSphere();
  }

  dispose() {
    this.line.removeFromParent();
    this.geometry.dispose();
    this.line.material.dispose();
  }
}

/**
 * Pinch with either hand to draw a stroke along the index fingertip; make a fist with either
 * hand to erase every stroke.
 */
class Sketchpad extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.strokes = [];
    this.active = new Map();  // 'left' | 'right' -> Stroke being drawn
    xb.core.gestureRecognition?.addEventListener('gesturestart', (event) => {
      if (event.detail.name === 'fist') this.eraseAll();
    });
  }

  fingertip(hand) {
    const tip = xb.core.input.hands[hand === 'left' ? 0 : 1]?.joints?.['index-finger-tip'];
    return tip ? tip.getWorldPosition(new THREE.Vector3()) : null;
  }

  eraseAll() {
    // Undo-style erase: hide the most recent stroke.
    const last = this.strokes.pop();
    if (last) last.line.visible = false;
    this.active.clear();
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    const tip = this.fingertip(hand);
    if (!tip) return;
    const stroke = new Stroke(hand);
    this.add(stroke.line);
    stroke.add(tip);
    this.strokes.push(stroke);
    this.active.set(hand, stroke);
  }

  onSelectEnd(event) {
    this.active.delete(event.source?.handedness);
  }

  update() {
    for (const [hand, stroke] of this.active) {
      const tip = this.fingertip(hand);
      if (tip) stroke.add(tip);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Sketchpad());
  const options = new xb.Options();
  options.enableHands();
  options.enableGestures();
  xb.init(options);
});
