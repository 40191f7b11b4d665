import * as THREE from 'three';
import * as xb from 'xrblocks';

const MAX_POINTS = 4096;
const MIN_STEP = 0.004;  // metres of fingertip movement between points
const CLICK = {frequency: 1000, duration: 0.05};
const NOTHING = {frequency: 250, duration: 0.2};

/** One stroke: a THREE.Line in world space whose points are appended while its pinch lasts. */
class Stroke {
  constructor() {
    this.positions = new Float32Array(MAX_POINTS * 3);
    this.count = 0;
    this.geometry = new THREE.BufferGeometry();
    this.geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    this.geometry.setDrawRange(0, 0);
    this.line = new THREE.Line(this.geometry, new THREE.LineBasicMaterial({color: 0x2196f3}));
    this.line.frustumCulled = false;
    this.line.raycast = () => {};  // strokes never catch the rays aimed at the panel
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
}

/**
 * Air sketching with an undo panel: a pinch anywhere but on the panel draws a stroke along the
 * index fingertip; the panel's Undo, Redo and Clear buttons edit the history of strokes.
 */
class SketchUndo extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.shown = [];    // strokes shown, oldest first (by the start of their pinch)
    this.undone = [];   // strokes undone, the last one undone last
    this.active = new Map();  // 'left' | 'right' -> Stroke being drawn
    this.buildPanel();
  }

  buildPanel() {
    this.panel = new THREE.Mesh(new THREE.PlaneGeometry(0.38, 0.14),
                                new THREE.MeshBasicMaterial({color: 0x37474f}));
    this.panel.position.set(0, xb.user.height - 0.3, -0.6);
    this.panel.userData.xrblocksDevtools = {tag: 'undo-panel', state: {}};
    this.add(this.panel);
    this.buttons = {};
    const specs = [['undo', 0xffb300, -0.12], ['redo', 0x43a047, 0], ['clear', 0xe53935, 0.12]];
    for (const [name, color, x] of specs) {
      const button = new THREE.Mesh(new THREE.BoxGeometry(0.1, 0.08, 0.01),
                                    new THREE.MeshBasicMaterial({color}));
      button.position.set(x, 0, 0.006);
      button.userData.xrblocksDevtools = {tag: `${name}-button`, state: {}};
      this.panel.add(button);
      this.buttons[name] = button;
    }
  }

  fingertip(hand) {
    const index = hand === 'left' ? 0 : 1;
    const tip = xb.core.input.hands[index]?.joints?.['index-finger-tip'];
    return tip ? tip.getWorldPosition(new THREE.Vector3()) : null;
  }

  /** The button hit ('undo', 'redo', 'clear'), 'panel' for the panel itself, or null. */
  hitOf(object) {
    for (let o = object; o; o = o.parent) {
      for (const [name, button] of Object.entries(this.buttons)) {
        if (o === button) return name;
      }
      if (o === this.panel) return 'panel';
    }
    return null;
  }

  tone({frequency, duration}) {
    const synth = xb.core.sound.soundSynthesizer;
    synth.playTone(frequency, duration, 0.4, 'sine');
    const context = synth.audioContext;
    if (context && context.state === 'suspended') context.resume().catch(() => {});
  }

  press(name) {
    let done = false;
    if (name === 'undo' && this.shown.length) {
      const stroke = this.shown.pop();
      stroke.line.visible = false;
      this.undone.push(stroke);
      done = true;
    } else if (name === 'redo' && this.undone.length) {
      const stroke = this.undone.pop();
      stroke.line.visible = true;
      this.shown.push(stroke);
      done = true;
    } else if (name === 'clear' && this.shown.length) {
      for (const stroke of [...this.shown, ...this.undone]) {
        xb.core.scene.remove(stroke.line);
        stroke.geometry.dispose();
      }
      this.shown = [];
      this.undone = [];
      done = true;
    }
    this.tone(done ? CLICK : NOTHING);
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    const hit = this.hitOf(event.surface ?? event.target);
    if (hit === 'panel') return;
    if (hit) {
      this.press(hit);
      return;
    }
    const tip = this.fingertip(hand);
    if (!tip) return;
    for (const stroke of this.undone) {
      xb.core.scene.remove(stroke.line);
      stroke.geometry.dispose();
    }
    this.undone = [];
    const stroke = new Stroke();
    xb.core.scene.add(stroke.line);
    stroke.add(tip);
    this.shown.push(stroke);
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
  xb.add(new SketchUndo());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
