import * as THREE from 'three';
import * as xb from 'xrblocks';

const MAX_POINTS = 4096;
const MIN_STEP = 0.004;  // metres of fingertip movement between points
const COLORS = {left: 0x42a5f5, right: 0xffa726};

/** One stroke: a THREE.Line whose points are appended while its pinch lasts. */
class Stroke {
  constructor(hand) {
    this.positions = new Float32Array(MAX_POINTS * 3);
    this.geometry = new THREE.BufferGeometry();
    this.geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    this.geometry.setDrawRange(0, 0);
    this.line = new THREE.Line(this.geometry, new THREE.LineBasicMaterial({color: COLORS[hand]}));
    this.line.frustumCulled = false;
    this.state = {hand, points: 0};
    this.line.userData.xrblocksDevtools = {tag: 'stroke', state: this.state};
    this.last = null;
  }

  /** Appends a world-space point (the line lives in world space: its parent is at the origin). */
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
}

/**
 * Air drawing: a pinch with either hand starts a stroke that follows that hand's index
 * fingertip until the pinch is released.
 */
class AirDrawing extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.active = new Map();  // 'left' | 'right' -> Stroke being drawn
  }

  fingertip(hand) {
    const index = hand === 'left' ? 0 : 1;
    const tip = xb.core.input.hands[index]?.joints?.['wrist'];  // the hand's position
    return tip ? tip.getWorldPosition(new THREE.Vector3()) : null;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    const tip = this.fingertip(hand);
    if (!tip) return;
    const stroke = new Stroke(hand);
    this.add(stroke.line);
    stroke.add(tip);
    this.active.set(hand, stroke);
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    const stroke = this.active.get(hand);
    if (!stroke) return;
    const tip = this.fingertip(hand);
    if (tip) stroke.add(tip);
    this.active.delete(hand);
  }

  update() {
    for (const [hand, stroke] of this.active) {
      const tip = this.fingertip(hand);
      if (tip) stroke.add(tip);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new AirDrawing());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
