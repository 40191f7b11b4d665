import * as THREE from 'three';
import * as xb from 'xrblocks';

const MAX_POINTS = 4096;
const MIN_STEP = 0.004;  // metres of fingertip movement between points
const GRAB_RADIUS = 0.03;
const ACTIVE = '#ffcc00';
const IDLE = '#666666';
const MODES = ['draw', 'move'];

/** One stroke: a THREE.Line whose vertices are world positions; moved by its object's position. */
class Stroke {
  constructor() {
    this.positions = new Float32Array(MAX_POINTS * 3);
    this.count = 0;
    this.geometry = new THREE.BufferGeometry();
    this.geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    this.geometry.setDrawRange(0, 0);
    this.line = new THREE.Line(this.geometry, new THREE.LineBasicMaterial({color: 0x202020}));
    this.line.frustumCulled = false;
    this.line.raycast = () => {};  // strokes never catch the rays aimed at the buttons
    this.line.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
    this.last = null;
  }

  add(point) {
    if (this.count >= MAX_POINTS) return;
    if (this.last && this.last.distanceTo(point) < MIN_STEP) return;
    point.toArray(this.positions, this.count * 3);
    this.count += 1;
    this.last = point.clone();
    this.geometry.setDrawRange(0, this.count);
    this.geometry.attributes.position.needsUpdate = true;
    this.geometry.computeBoundingSphere();
  }

  /** Distance from a world point to the polyline (the line's local frame is offset by position). */
  distanceTo(world) {
    const p = world.clone().sub(this.line.position);
    const a = new THREE.Vector3(), b = new THREE.Vector3(), seg = new THREE.Line3();
    let best = Infinity;
    for (let i = 0; i < this.count; i++) {
      a.fromArray(this.positions, i * 3);
      if (i === 0) { best = Math.min(best, a.distanceTo(p)); continue; }
      b.fromArray(this.positions, (i - 1) * 3);
      seg.set(b, a);
      const c = seg.closestPointToPoint(p, true, new THREE.Vector3());
      best = Math.min(best, c.distanceTo(p));
    }
    return best;
  }
}

/**
 * A panel with a Draw and a Move button; in Draw mode a pinch draws along the index fingertip,
 * in Move mode a pinch near a stroke carries it rigidly with the hand.
 */
class SketchMove extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.mode = 'draw';
    this.strokes = [];
    this.drawing = new Map();  // hand -> Stroke being drawn
    this.holding = new Map();  // hand -> {stroke, offset}
    this.onButton = new Set();  // hands whose pinch selected a button

    this.panel = new THREE.Mesh(new THREE.PlaneGeometry(0.26, 0.1),
                                new THREE.MeshBasicMaterial({color: 0x263238}));
    this.panel.position.set(0, xb.user.height - 0.3, -0.65);
    this.panel.userData.xrblocksDevtools = {tag: 'mode-panel', state: {}};
    this.add(this.panel);
    this.buttons = MODES.map((mode, i) => {
      const button = new THREE.Mesh(new THREE.PlaneGeometry(0.1, 0.06),
                                    new THREE.MeshBasicMaterial({color: IDLE}));
      button.position.set((i - 0.5) * 0.12, 0, 0.005);
      button.userData.xrblocksDevtools = {tag: 'mode-button', state: {mode}};
      this.panel.add(button);
      return button;
    });
    this.showMode();
  }

  showMode() {
    this.buttons.forEach((b, i) => b.material.color.set(MODES[i] === this.mode ? ACTIVE : IDLE));
  }

  fingertip(hand) {
    const index = hand === 'left' ? 0 : 1;
    const tip = xb.core.input.hands[index]?.joints?.['index-finger-tip'];
    return tip ? tip.getWorldPosition(new THREE.Vector3()) : null;
  }

  buttonOf(object) {
    for (let o = object; o; o = o.parent) {
      const i = this.buttons.indexOf(o);
      if (i >= 0) return i;
    }
    return -1;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    const picked = this.buttonOf(event.surface ?? event.target);
    if (picked >= 0) {
      this.mode = MODES[picked];
      this.showMode();
      this.onButton.add(hand);
      return;
    }
    const tip = this.fingertip(hand);
    if (!tip) return;
    if (this.mode === 'draw') {
      const stroke = new Stroke();
      xb.core.scene.add(stroke.line);
      this.strokes.push(stroke);
      stroke.add(tip);
      this.drawing.set(hand, stroke);
      return;
    }
    let nearest = null, best = GRAB_RADIUS;
    for (const stroke of this.strokes) {
      if ([...this.holding.values()].some((h) => h.stroke === stroke)) continue;
      const d = stroke.distanceTo(tip);
      if (d <= best) { best = d; nearest = stroke; }
    }
    if (nearest) {
      this.holding.set(hand, {stroke: nearest, offset: nearest.line.position.clone().sub(tip)});
    }
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    this.onButton.delete(hand);
    const stroke = this.drawing.get(hand);
    if (stroke) {
      const tip = this.fingertip(hand);
      if (tip) stroke.add(tip);
      this.drawing.delete(hand);
    }
    this.holding.delete(hand);
  }

  update() {
    for (const [hand, stroke] of this.drawing) {
      const tip = this.fingertip(hand);
      if (tip) stroke.add(tip);
    }
    for (const [hand, hold] of this.holding) {
      const tip = this.fingertip(hand);
      if (tip) hold.stroke.line.position.copy(tip).add(hold.offset);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new SketchMove());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
