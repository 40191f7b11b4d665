import * as THREE from 'three';
import * as xb from 'xrblocks';

// Sketch-and-move: strokes are point clouds whose world positions are rewritten when carried;
// the mode buttons are thin boxes hit-tested with a raycaster of our own along each hand's ray.

const HANDS = ['left', 'right'];
const CAPACITY = 8192;
const SPACING = 0.005;
const REACH = 0.03;
const COLORS = {on: new THREE.Color('#ffcc00'), off: new THREE.Color('#666666')};

function makeStroke() {
  const geometry = new THREE.BufferGeometry();
  const array = new Float32Array(CAPACITY * 3);
  geometry.setAttribute('position', new THREE.BufferAttribute(array, 3));
  geometry.setDrawRange(0, 0);
  const points = new THREE.Points(geometry, new THREE.PointsMaterial({color: 0x3366ff, size: 0.006}));
  points.frustumCulled = false;
  points.raycast = () => {};
  points.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
  return {points, array, n: 0};
}

function pushPoint(stroke, p) {
  if (stroke.n >= CAPACITY) return;
  if (stroke.n > 0) {
    const i = (stroke.n - 1) * 3;
    const last = new THREE.Vector3(stroke.array[i], stroke.array[i + 1], stroke.array[i + 2]);
    const gap = last.distanceTo(p);
    if (gap < SPACING) return;
    // Fill long jumps so consecutive points stay close together.
    const steps = Math.floor(gap / SPACING);
    for (let k = 1; k < steps && stroke.n < CAPACITY; k++) {
      last.clone().lerp(p, k / steps).toArray(stroke.array, stroke.n * 3);
      stroke.n++;
    }
  }
  p.toArray(stroke.array, stroke.n * 3);
  stroke.n++;
  stroke.points.geometry.setDrawRange(0, stroke.n);
  stroke.points.geometry.attributes.position.needsUpdate = true;
}

function nearestDistance(stroke, p) {
  let best = Infinity;
  const q = new THREE.Vector3();
  for (let i = 0; i < stroke.n; i++) {
    q.fromArray(stroke.array, i * 3);
    best = Math.min(best, q.distanceTo(p));
  }
  return best;
}

function translate(stroke, delta) {
  for (let i = 0; i < stroke.n; i++) {
    stroke.array[i * 3] += delta.x;
    stroke.array[i * 3 + 1] += delta.y;
    stroke.array[i * 3 + 2] += delta.z;
  }
  stroke.points.geometry.attributes.position.needsUpdate = true;
}

class SketchMoveApp extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x555555, 3));
    this.mode = 'draw';
    this.strokes = [];
    this.hands = {};
    for (const h of HANDS) this.hands[h] = {pending: null, active: false, kind: null, stroke: null, anchor: null};

    const panel = new THREE.Group();
    panel.position.set(0.05, xb.user.height - 0.25, -0.7);
    panel.userData.xrblocksDevtools = {tag: 'mode-panel', state: {}};
    const back = new THREE.Mesh(new THREE.BoxGeometry(0.3, 0.11, 0.004),
                                new THREE.MeshStandardMaterial({color: 0x222222}));
    panel.add(back);
    this.buttons = {};
    for (const [mode, x] of [['draw', -0.07], ['move', 0.07]]) {
      const b = new THREE.Mesh(new THREE.BoxGeometry(0.12, 0.07, 0.01),
                               new THREE.MeshStandardMaterial({color: COLORS.off}));
      b.position.set(x, 0, 0.008);
      b.userData.xrblocksDevtools = {tag: 'mode-button', state: {mode}};
      panel.add(b);
      this.buttons[mode] = b;
    }
    this.panel = panel;
    this.add(panel);
    this.raycaster = new THREE.Raycaster();
    this.setMode('draw');
  }

  setMode(mode) {
    this.mode = mode;
    for (const [m, b] of Object.entries(this.buttons)) b.material.color.copy(m === mode ? COLORS.on : COLORS.off);
  }

  joint(hand, name) {
    const j = xb.core.input.hands[HANDS.indexOf(hand)]?.joints?.[name];
    return j ? j.getWorldPosition(new THREE.Vector3()) : null;
  }

  pinchPoint(hand) {
    const a = this.joint(hand, 'index-finger-tip'), b = this.joint(hand, 'thumb-tip');
    return a && b ? a.add(b).multiplyScalar(0.5) : null;
  }

  buttonHit(hand) {
    const c = xb.core.input.controllers[HANDS.indexOf(hand)];
    if (!c) return null;
    c.updateWorldMatrix(true, false);
    const origin = new THREE.Vector3().setFromMatrixPosition(c.matrixWorld);
    const dir = new THREE.Vector3(0, 0, -1).transformDirection(c.matrixWorld);
    this.raycaster.set(origin, dir);
    const hits = this.raycaster.intersectObjects(Object.values(this.buttons), false);
    return hits.length ? hits[0].object.userData.xrblocksDevtools.state.mode : null;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness ?? event.data?.handedness;
    if (!this.hands[hand]) return;
    // Decide now, while the hand is where it was when the fingers began to close.
    const state = this.hands[hand];
    state.active = true;
    state.kind = null;
    const mode = this.buttonHit(hand);
    if (mode) {
      this.setMode(mode);
      state.kind = 'button';
      return;
    }
    const tip = this.joint(hand, 'index-finger-tip');
    if (!tip) return;
    if (this.mode === 'draw') {
      const stroke = makeStroke();
      this.strokes.push(stroke);
      xb.core.scene.add(stroke.points);
      pushPoint(stroke, tip);
      state.kind = 'draw';
      state.stroke = stroke;
      return;
    }
    const taken = new Set(HANDS.map((h) => this.hands[h].kind === 'move' && this.hands[h].stroke));
    let pick = null, best = REACH;
    for (const s of this.strokes) {
      if (taken.has(s)) continue;
      const d = nearestDistance(s, tip);
      if (d <= best) { best = d; pick = s; }
    }
    if (pick) {
      state.kind = 'move';
      state.stroke = pick;
      state.anchor = this.pinchPoint(hand);
      const c = new THREE.Vector3();
      for (let i = 0; i < pick.n; i++) c.add(new THREE.Vector3().fromArray(pick.array, i * 3));
      c.divideScalar(pick.n);
      translate(pick, state.anchor.clone().sub(c));
    }
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness ?? event.data?.handedness;
    const state = this.hands[hand];
    if (!state) return;
    state.active = false;
    state.kind = null;
    state.stroke = null;
    state.anchor = null;
  }

  update() {
    for (const hand of HANDS) {
      const state = this.hands[hand];
      if (!state.active || !state.stroke) continue;
      if (state.kind === 'draw') {
        const tip = this.joint(hand, 'index-finger-tip');
        if (tip) pushPoint(state.stroke, tip);
      } else if (state.kind === 'move') {
        const p = this.pinchPoint(hand);
        if (!p) continue;
        translate(state.stroke, p.clone().sub(state.anchor));
        state.anchor = p;
      }
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new SketchMoveApp());
  xb.init(options);
});
