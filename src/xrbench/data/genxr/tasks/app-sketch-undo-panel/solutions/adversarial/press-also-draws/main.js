import * as THREE from 'three';
import * as xb from 'xrblocks';

// A stroke is a cloud of dots laid along the fingertip; the history is one list and a cursor.
const DOT_SPACING = 0.003;
const MAX_DOTS = 6000;

let audioContext = null;

function beep(frequency, seconds) {
  if (!audioContext) audioContext = new AudioContext();
  const osc = audioContext.createOscillator();
  const gain = audioContext.createGain();
  osc.type = 'triangle';
  osc.frequency.value = frequency;
  gain.gain.value = 0.3;
  osc.connect(gain).connect(audioContext.destination);
  const now = audioContext.currentTime;
  osc.start(now);
  osc.stop(now + seconds);
  if (audioContext.state === 'suspended') audioContext.resume().catch(() => {});
}

class DotStroke extends THREE.Group {
  constructor() {
    super();
    this.buffer = new Float32Array(MAX_DOTS * 3);
    this.n = 0;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(this.buffer, 3));
    geometry.setDrawRange(0, 0);
    this.dots = new THREE.Points(geometry, new THREE.PointsMaterial({color: 0xffffff, size: 0.006}));
    this.dots.frustumCulled = false;
    this.dots.raycast = () => {};
    this.add(this.dots);
    this.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
    this.previous = null;
  }

  /** Lays dots from the previous point up to `p`, DOT_SPACING apart. */
  extend(p) {
    const geometry = this.dots.geometry;
    if (!this.previous) {
      this.put(p);
    } else {
      const gap = this.previous.distanceTo(p);
      const steps = Math.floor(gap / DOT_SPACING);
      for (let i = 1; i <= steps; i++) {
        this.put(this.previous.clone().lerp(p, (i * DOT_SPACING) / gap));
      }
      if (steps === 0) return;
    }
    this.previous = new THREE.Vector3(
        this.buffer[(this.n - 1) * 3], this.buffer[(this.n - 1) * 3 + 1], this.buffer[(this.n - 1) * 3 + 2]);
    geometry.setDrawRange(0, this.n);
    geometry.attributes.position.needsUpdate = true;
  }

  put(p) {
    if (this.n >= MAX_DOTS) return;
    this.buffer.set([p.x, p.y, p.z], this.n * 3);
    this.n++;
  }
}

class UndoSketch extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.5));
    this.history = [];  // strokes in the order their pinch started
    this.cursor = 0;    // history[0 .. cursor) are shown
    this.drawing = [null, null];  // per hand index (0 left, 1 right)
    this.raycaster = new THREE.Raycaster();

    this.board = new THREE.Mesh(new THREE.BoxGeometry(0.42, 0.16, 0.01),
                                new THREE.MeshStandardMaterial({color: 0x263238}));
    this.board.position.set(0, xb.user.height - 0.25, -0.7);
    this.board.lookAt(0, xb.user.height, 0);
    this.board.userData.xrblocksDevtools = {tag: 'undo-panel', state: {}};
    this.add(this.board);
    this.keys = new Map();
    ['undo', 'redo', 'clear'].forEach((name, i) => {
      const key = new THREE.Mesh(new THREE.PlaneGeometry(0.11, 0.06),
                                 new THREE.MeshStandardMaterial({color: [0x90caf9, 0xa5d6a7, 0xef9a9a][i]}));
      key.position.set((i - 1) * 0.13, 0, 0.0065);
      key.userData.xrblocksDevtools = {tag: `${name}-button`, state: {}};
      this.board.add(key);
      this.keys.set(key, name);
    });
  }

  handIndex(event) {
    const h = event.source?.handedness;
    return h === 'left' ? 0 : h === 'right' ? 1 : -1;
  }

  /** What the controller's ray meets first on the panel: a button name, 'panel' or null. */
  aimedAt(controller) {
    if (!controller) return null;
    controller.updateMatrixWorld(true);
    const origin = new THREE.Vector3().setFromMatrixPosition(controller.matrixWorld);
    const direction = new THREE.Vector3(0, 0, -1).transformDirection(controller.matrixWorld);
    this.raycaster.set(origin, direction);
    const hits = this.raycaster.intersectObject(this.board, true);
    if (!hits.length) return null;
    return this.keys.get(hits[0].object) ?? 'panel';
  }

  tip(index) {
    const joint = xb.core.input.hands[index]?.joints?.['index-finger-tip'];
    return joint ? joint.getWorldPosition(new THREE.Vector3()) : null;
  }

  undo() {
    if (this.cursor === 0) return false;
    this.cursor--;
    this.history[this.cursor].removeFromParent();
    return true;
  }

  redo() {
    if (this.cursor === this.history.length) return false;
    xb.core.scene.add(this.history[this.cursor]);
    this.cursor++;
    return true;
  }

  clear() {
    if (this.cursor === 0) return false;
    for (const stroke of this.history) stroke.removeFromParent();
    this.history = [];
    this.cursor = 0;
    return true;
  }

  onSelectStart(event) {
    const index = this.handIndex(event);
    if (index < 0) return;
    const target = this.aimedAt(event.source?.controller ?? xb.core.input.controllers[index]);
    if (target && target !== 'panel') {
      const acted = this[target]();
      if (acted) beep(1000, 0.05);
      else beep(250, 0.2);
    }
    const p = this.tip(index);
    if (!p) return;
    for (const stroke of this.history.splice(this.cursor)) stroke.removeFromParent();
    const stroke = new DotStroke();
    stroke.extend(p);
    xb.core.scene.add(stroke);
    this.history.push(stroke);
    this.cursor = this.history.length;
    this.drawing[index] = stroke;
  }

  onSelectEnd(event) {
    const index = this.handIndex(event);
    if (index < 0 || !this.drawing[index]) return;
    const p = this.tip(index);
    if (p) this.drawing[index].extend(p);
    this.drawing[index] = null;
  }

  update() {
    for (let i = 0; i < 2; i++) {
      if (!this.drawing[i]) continue;
      const p = this.tip(i);
      if (p) this.drawing[i].extend(p);
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new UndoSketch());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
