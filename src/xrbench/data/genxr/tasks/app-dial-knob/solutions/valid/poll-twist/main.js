import * as THREE from 'three';
import * as xb from 'xrblocks';

const KNOB_CENTRE = new THREE.Vector3(0, 1.0, -0.4);
const KNOB_RADIUS = 0.04;
const KNOB_HEIGHT = 0.03;
const TOUCH_MARGIN = 0.01;  // m: "inside the cylinder or within 1 cm of its surface"
const DETENT = 27;  // degrees between detents
const MIN_ANGLE = -135;
const MAX_ANGLE = 135;
const START_VALUE = 4;
const CLICK = {frequency: 1200, seconds: 0.04};
const END_TONE = {frequency: 600, seconds: 0.2};
const UP = new THREE.Vector3(0, 1, 0);

const angleOf = (value) => (value - 5) * DETENT;
const valueOf = (angle) => Math.min(10, Math.max(0, Math.round(angle / DETENT + 5)));

/** Distance (m) from a point to a vertical cylinder (0 inside). */
function distanceToKnob(p) {
  const dx = p.x - KNOB_CENTRE.x, dz = p.z - KNOB_CENTRE.z;
  const radial = Math.max(0, Math.hypot(dx, dz) - KNOB_RADIUS);
  const vertical = Math.max(0, Math.abs(p.y - KNOB_CENTRE.y) - KNOB_HEIGHT / 2);
  return Math.hypot(radial, vertical);
}

/** The rotation about +y (radians, counterclockwise seen from above) contained in quaternion q. */
function twistAboutUp(q) {
  return 2 * Math.atan2(q.y, q.w);
}

function wrapDegrees(a) {
  let r = ((a + 180) % 360 + 360) % 360 - 180;
  if (r === -180) r = 180;
  return r;
}

/**
 * A volume knob on a stand. The hands' pinches are read from their controllers' select state at
 * the start of every update; a pinch that starts with the index fingertip on the knob grabs it,
 * and the knob then turns by the wrist's turn about the vertical since the grab.
 */
class VolumeKnob extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.base = new THREE.Mesh(
        new THREE.BoxGeometry(0.12, 0.03, 0.12),
        new THREE.MeshStandardMaterial({color: 0x37474f, roughness: 0.8}));
    this.base.position.set(0, 0.97, -0.4);
    this.base.userData.xrblocksDevtools = {tag: 'dial-base'};
    this.add(this.base);

    this.knob = new THREE.Mesh(
        new THREE.CylinderGeometry(KNOB_RADIUS, KNOB_RADIUS, KNOB_HEIGHT, 48),
        new THREE.MeshStandardMaterial({color: 0x90a4ae, roughness: 0.4, metalness: 0.3}));
    this.knob.position.copy(KNOB_CENTRE);
    this.knob.userData.xrblocksDevtools = {tag: 'volume-dial'};
    this.add(this.knob);

    // The pointer: a light bar on the top face, from near the centre towards the rim (local -z).
    this.pointer = new THREE.Mesh(
        new THREE.BoxGeometry(0.006, 0.002, 0.026),
        new THREE.MeshBasicMaterial({color: 0xffffff}));
    this.pointer.position.set(0, KNOB_HEIGHT / 2 + 0.001, -0.022);
    this.pointer.userData.xrblocksDevtools = {tag: 'dial-pointer'};
    this.knob.add(this.pointer);

    this.canvas = document.createElement('canvas');
    this.canvas.width = 256;
    this.canvas.height = 160;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.readout = new THREE.Mesh(
        new THREE.PlaneGeometry(0.08, 0.05),
        new THREE.MeshBasicMaterial({map: this.texture}));
    this.readout.position.set(0, 1.13, -0.47);
    this.readoutState = {text: ''};
    this.readout.userData.xrblocksDevtools = {tag: 'dial-readout', state: this.readoutState};
    this.add(this.readout);

    this.value = START_VALUE;
    this.angle = angleOf(START_VALUE);  // degrees, clockwise seen from above, 0 = -z
    this.holder = -1;  // index of the holding hand, -1 when free
    this.grabAngle = 0;
    this.grabTurn = new THREE.Quaternion();  // the wrist's world orientation at the grab, inverted
    this.wasSelected = [false, false];
    this.applyAngle();
    this.showValue();
  }

  wrist(i) {
    const hand = xb.core.input.hands[i];
    return hand && hand.joints ? hand.joints['wrist'] : null;
  }

  fingertip(i) {
    const hand = xb.core.input.hands[i];
    const tip = hand && hand.joints ? hand.joints['index-finger-tip'] : null;
    return tip ? tip.getWorldPosition(new THREE.Vector3()) : null;
  }

  wristQuaternion(i) {
    const wrist = this.wrist(i);
    if (!wrist) return null;
    wrist.updateWorldMatrix(true, false);
    return wrist.getWorldQuaternion(new THREE.Quaternion());
  }

  update() {
    for (let i = 0; i < 2; i++) {
      const controller = xb.core.input.controllers[i];
      const selected = controller?.userData?.selected === true;
      if (selected && !this.wasSelected[i]) this.pinchStarted(i);
      if (!selected && this.wasSelected[i]) this.pinchEnded(i);
      this.wasSelected[i] = selected;
    }
    if (this.holder >= 0) this.follow();
  }

  pinchStarted(i) {
    if (this.holder >= 0) return;  // one hand at a time
    const tip = this.fingertip(i);
    const q = this.wristQuaternion(i);
    if (!tip || !q || distanceToKnob(tip) > TOUCH_MARGIN) return;
    this.holder = i;
    this.grabAngle = this.angle;
    this.grabTurn.copy(q).invert();
  }

  pinchEnded(i) {
    if (i !== this.holder) return;
    this.holder = -1;
    this.angle = angleOf(this.value);  // snap to the value's detent
    this.applyAngle();
  }

  follow() {
    const q = this.wristQuaternion(this.holder);
    if (!q) return;
    const change = q.multiply(this.grabTurn);  // world-frame change since the grab
    const turned = -wrapDegrees(THREE.MathUtils.radToDeg(twistAboutUp(change)));  // clockwise
    this.angle = Math.min(MAX_ANGLE, Math.max(MIN_ANGLE, this.grabAngle + turned));
    this.applyAngle();
    const value = valueOf(this.angle);
    if (value !== this.value) {
      this.value = value;
      this.showValue();
      this.sound(value === 0 || value === 10 ? END_TONE : CLICK);
    }
  }

  applyAngle() {
    this.knob.quaternion.setFromAxisAngle(UP, -THREE.MathUtils.degToRad(this.angle));
  }

  showValue() {
    const text = String(this.value);
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = '#102027';
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 120px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, this.canvas.width / 2, this.canvas.height / 2 + 6);
    this.texture.needsUpdate = true;
    this.readoutState.text = text;
  }

  sound(tone) {
    const synth = xb.core.sound.soundSynthesizer;
    synth.playTone(tone.frequency, tone.seconds, 0.4, 'sine');
    const context = synth.audioContext;
    if (context && context.state === 'suspended') context.resume().catch(() => {});
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new VolumeKnob());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
