import * as THREE from 'three';
import * as xb from 'xrblocks';

// The knob's layout (metres) and its detents (degrees, clockwise seen from above, 0 = -z).
const CENTRE = new THREE.Vector3(0, 1.0, -0.4);
const RADIUS = 0.04;
const HEIGHT = 0.03;
const STEP_DEGREES = 27;
const RANGE = 135;
const HAND_INDEX = {left: 0, right: 1};

const TONES = {
  click: {frequency: 1200, seconds: 0.04},
  end: {frequency: 600, seconds: 0.2},
};

let audio = null;
/** One sine tone from an OscillatorNode of our own, started now and stopped after `seconds`. */
function playSine({frequency, seconds}) {
  if (!audio) audio = new AudioContext();
  if (audio.state === 'suspended') audio.resume().catch(() => {});
  const osc = audio.createOscillator();
  osc.type = 'sine';
  osc.frequency.value = frequency;
  const gain = audio.createGain();
  gain.gain.value = 0.3;
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + seconds);
}

/** Is `p` inside the knob or within `margin` of its surface? */
function touchesKnob(p, margin = 0.01) {
  const radial = Math.max(0, Math.hypot(p.x - CENTRE.x, p.z - CENTRE.z) - RADIUS);
  const vertical = Math.max(0, Math.abs(p.y - CENTRE.y) - HEIGHT / 2);
  return radial * radial + vertical * vertical <= margin * margin;
}

/**
 * The heading (degrees, clockwise seen from above) of a horizontal reference direction carried by
 * the hand: its controller's x axis (across the hand), projected on the floor plane. For a hand
 * turning about a vertical line, its change is the hand's turn about the vertical.
 */
function handHeading(controller) {
  controller.updateWorldMatrix(true, false);
  const across = new THREE.Vector3().setFromMatrixColumn(controller.matrixWorld, 0);
  // Clockwise seen from above, from -z: atan2(x, -z).
  return THREE.MathUtils.radToDeg(Math.atan2(across.x, -across.z));
}

const wrap = (a) => ((((a + 180) % 360) + 360) % 360) - 180;

/** Volume knob: grabbed by a pinch on it, turned by the wrist, clicking from detent to detent. */
class Knob extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x555555, 3));
    this.add(new THREE.DirectionalLight(0xffffff, 1.5));

    const base = new THREE.Mesh(
        new THREE.BoxGeometry(0.12, 0.03, 0.12),
        new THREE.MeshStandardMaterial({color: 0x263238}));
    base.position.set(0, 0.97, -0.4);
    base.userData.xrblocksDevtools = {tag: 'dial-base'};
    this.add(base);

    this.knob = new THREE.Mesh(
        new THREE.CylinderGeometry(RADIUS, RADIUS, HEIGHT, 64),
        new THREE.MeshStandardMaterial({color: 0xb0bec5, metalness: 0.5, roughness: 0.35}));
    this.knob.position.copy(CENTRE);
    this.knob.userData.xrblocksDevtools = {tag: 'volume-dial'};
    this.add(this.knob);

    // The pointer's geometry is shifted towards the rim; the mesh itself sits on the axis.
    const bar = new THREE.BoxGeometry(0.005, 0.002, 0.03);
    bar.translate(0, HEIGHT / 2 + 0.001, -0.02);
    const pointer = new THREE.Mesh(bar, new THREE.MeshBasicMaterial({color: 0xff5722}));
    pointer.userData.xrblocksDevtools = {tag: 'dial-pointer'};
    this.knob.add(pointer);

    this.canvas = document.createElement('canvas');
    this.canvas.width = 200;
    this.canvas.height = 125;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.readout = new THREE.Mesh(
        new THREE.PlaneGeometry(0.08, 0.05),
        new THREE.MeshBasicMaterial({map: this.texture, side: THREE.DoubleSide}));
    this.readout.position.set(0, 1.13, -0.47);
    this.readout.userData.xrblocksDevtools = {tag: 'dial-readout', state: {text: ''}};
    this.add(this.readout);

    this.value = 4;
    this.angle = this.detent(this.value);
    this.hand = null;  // 'left' | 'right' while held
    this.unclamped = 0;  // the grab angle plus the hand's accumulated turn (not clamped)
    this.lastHeading = 0;
    this.render();
    this.draw();
  }

  detent(value) {
    return (value - 5) * STEP_DEGREES;
  }

  controller(handedness) {
    return xb.core.input.controllers[HAND_INDEX[handedness]];
  }

  onSelectStart(event) {
    const handedness = event.source?.handedness;
    if (this.hand || !(handedness in HAND_INDEX)) return;
    const joints = xb.core.input.hands[HAND_INDEX[handedness]]?.joints;
    const tip = joints?.['index-finger-tip'];
    if (!tip) return;
    if (!touchesKnob(tip.getWorldPosition(new THREE.Vector3()))) return;
    this.hand = handedness;
    this.unclamped = this.angle;
    this.lastHeading = handHeading(this.controller(handedness));
  }

  onSelectEnd(event) {
    if (event.source?.handedness !== this.hand) return;
    this.hand = null;
    this.angle = this.detent(this.value);
    this.render();
  }

  update() {
    if (!this.hand) return;
    const heading = handHeading(this.controller(this.hand));
    this.unclamped += wrap(heading - this.lastHeading);
    this.lastHeading = heading;
    this.angle = THREE.MathUtils.clamp(this.unclamped, -RANGE, RANGE);
    this.render();
    const value = THREE.MathUtils.clamp(Math.round(this.angle / STEP_DEGREES) + 5, 0, 10);
    if (value === this.value) return;
    this.value = value;
    this.draw();
    playSine(value === 0 || value === 10 ? TONES.end : TONES.click);
  }

  render() {
    this.knob.rotation.set(0, -THREE.MathUtils.degToRad(this.angle), 0);
  }

  draw() {
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = '#eceff1';
    ctx.fillRect(0, 0, 200, 125);
    ctx.fillStyle = '#111111';
    ctx.font = '96px monospace';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(String(this.value), 100, 66);
    this.texture.needsUpdate = true;
    this.readout.userData.xrblocksDevtools.state.text = String(this.value);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new Knob());
  xb.init(options);
});
