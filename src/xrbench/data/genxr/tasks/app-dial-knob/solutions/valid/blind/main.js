import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Volume knob: a knob on a small stand, grabbed with a pinch of a tracked
 * hand whose index fingertip touches it, turned by turning the wrist. It
 * clicks from detent to detent (values 0 to 10) and shows its value above.
 */

// Geometry (metres).
const KNOB_CENTER = new THREE.Vector3(0, 1.0, -0.4);
const KNOB_RADIUS = 0.04; // 8 cm across
const KNOB_HEIGHT = 0.03;
const BASE_CENTER = new THREE.Vector3(0, 0.97, -0.4);
const BASE_SIZE = new THREE.Vector3(0.12, 0.03, 0.12);
const READOUT_CENTER = new THREE.Vector3(0, 1.13, -0.47);
const READOUT_WIDTH = 0.08;
const READOUT_HEIGHT = 0.05;
const POINTER_LENGTH = 0.026;
const POINTER_OFFSET = 0.022; // centre of the pointer from the knob's axis
const TOUCH_MARGIN = 0.01; // fingertip within 1 cm of the knob's surface

// Values and detents.
const DETENT_STEP_DEG = 27;
const MIN_VALUE = 0;
const MAX_VALUE = 10;
const MID_VALUE = 5;
const MIN_ANGLE_DEG = (MIN_VALUE - MID_VALUE) * DETENT_STEP_DEG; // -135
const MAX_ANGLE_DEG = (MAX_VALUE - MID_VALUE) * DETENT_STEP_DEG; // +135
const INITIAL_VALUE = 4;

// Sounds.
const CLICK_FREQUENCY = 1200;
const CLICK_DURATION = 0.04;
const END_FREQUENCY = 600;
const END_DURATION = 0.2;
const SOUND_VOLUME = 0.4;

function detentAngle(value) {
  return (value - MID_VALUE) * DETENT_STEP_DEG;
}

function valueForAngle(angleDeg) {
  const v = Math.round(angleDeg / DETENT_STEP_DEG) + MID_VALUE;
  return THREE.MathUtils.clamp(v, MIN_VALUE, MAX_VALUE);
}

/** Wraps an angle in degrees into [-180, 180]. */
function wrapDeg(deg) {
  let d = ((deg + 180) % 360 + 360) % 360 - 180;
  if (d === -180 && deg > 0) d = 180;
  return d;
}

/**
 * The rotation about the world vertical (+y) contained in a rotation, in
 * degrees, counter-clockwise seen from above positive (swing-twist).
 */
function twistAboutVerticalDeg(q) {
  if (Math.abs(q.y) < 1e-12 && Math.abs(q.w) < 1e-12) return 0;
  return wrapDeg(THREE.MathUtils.radToDeg(2 * Math.atan2(q.y, q.w)));
}

class VolumeKnob extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const light = new THREE.DirectionalLight(0xffffff, 1.5);
    light.position.set(0.5, 2, 1);
    this.add(light);

    // The base: never moves or turns.
    this.base = new THREE.Mesh(
      new THREE.BoxGeometry(BASE_SIZE.x, BASE_SIZE.y, BASE_SIZE.z),
      new THREE.MeshStandardMaterial({color: 0x3a3f47, roughness: 0.8})
    );
    this.base.name = 'DialBase';
    this.base.position.copy(BASE_CENTER);
    this.base.userData.xrblocksDevtools = {tag: 'dial-base'};
    this.add(this.base);

    // The knob: an upright cylinder that only turns about its vertical axis.
    this.knob = new THREE.Mesh(
      new THREE.CylinderGeometry(KNOB_RADIUS, KNOB_RADIUS, KNOB_HEIGHT, 64),
      new THREE.MeshStandardMaterial({
        color: 0x9aa3ad,
        metalness: 0.6,
        roughness: 0.35,
      })
    );
    this.knob.name = 'VolumeKnob';
    this.knob.position.copy(KNOB_CENTER);
    this.knob.userData.xrblocksDevtools = {tag: 'volume-dial'};
    this.add(this.knob);

    // The pointer mark on the knob's top face: a thin light bar from near
    // the centre towards the rim. It is kept in step with the knob.
    this.pointer = new THREE.Mesh(
      new THREE.BoxGeometry(0.006, 0.002, POINTER_LENGTH),
      new THREE.MeshStandardMaterial({
        color: 0xffffff,
        emissive: 0xffd54f,
        emissiveIntensity: 0.6,
      })
    );
    this.pointer.name = 'DialPointer';
    this.pointer.userData.xrblocksDevtools = {tag: 'dial-pointer'};
    this.add(this.pointer);

    // The readout: a plane mesh with a canvas texture, front facing +z.
    this.readoutCanvas = document.createElement('canvas');
    this.readoutCanvas.width = 256;
    this.readoutCanvas.height = 160;
    this.readoutTexture = new THREE.CanvasTexture(this.readoutCanvas);
    this.readoutTexture.colorSpace = THREE.SRGBColorSpace;
    this.readout = new THREE.Mesh(
      new THREE.PlaneGeometry(READOUT_WIDTH, READOUT_HEIGHT),
      new THREE.MeshBasicMaterial({map: this.readoutTexture})
    );
    this.readout.name = 'DialReadout';
    this.readout.position.copy(READOUT_CENTER);
    this.readout.userData.xrblocksDevtools = {
      tag: 'dial-readout',
      state: {text: String(INITIAL_VALUE)},
    };
    this.add(this.readout);

    // State.
    this.value = INITIAL_VALUE;
    this.angle = detentAngle(INITIAL_VALUE); // degrees, clockwise from -z
    this.holdingHand = -1; // index of the holding hand, -1 when free
    this.grabAngle = 0;
    this.grabWristInverse = new THREE.Quaternion();

    this._tip = new THREE.Vector3();
    this._wrist = new THREE.Quaternion();
    this._delta = new THREE.Quaternion();

    this._applyAngle();
    this._drawReadout();
  }

  update() {
    if (this.holdingHand < 0) return;
    const wrist = this._wristQuaternion(this.holdingHand);
    if (!wrist) return;
    // Change of the wrist's orientation since the grab, in the world frame.
    this._delta.multiplyQuaternions(wrist, this.grabWristInverse);
    const turnedCcw = twistAboutVerticalDeg(this._delta);
    // Clockwise hand turn (seen from above) turns the knob clockwise.
    this._setAngle(
      THREE.MathUtils.clamp(
        this.grabAngle - turnedCcw,
        MIN_ANGLE_DEG,
        MAX_ANGLE_DEG
      )
    );
  }

  onSelectStart(event) {
    const hand = this._handIndex(event);
    if (hand < 0) return;
    if (this.holdingHand >= 0) return; // one hand at a time
    if (!this._fingertipTouchesKnob(hand)) return;
    const wrist = this._wristQuaternion(hand);
    if (!wrist) return;
    this.holdingHand = hand;
    this.grabAngle = this.angle;
    this.grabWristInverse.copy(wrist).invert();
  }

  onSelectEnd(event) {
    const hand = this._handIndex(event);
    if (hand < 0 || hand !== this.holdingHand) return;
    this.holdingHand = -1;
    // Snap to the detent of the current value (never changes the value).
    this.angle = detentAngle(this.value);
    this._applyAngle();
  }

  /** 0 for the left hand, 1 for the right, -1 for any other source. */
  _handIndex(event) {
    const controllers = xb.core?.input?.controllers ?? [];
    const controller = event?.source?.controller ?? event?.target;
    let index = controller ? controllers.indexOf(controller) : -1;
    if (index === 0 || index === 1) return index;
    const handedness =
      event?.source?.handedness ??
      event?.data?.handedness ??
      controller?.inputSource?.handedness;
    if (handedness === 'left') return 0;
    if (handedness === 'right') return 1;
    return -1;
  }

  _joint(hand, name) {
    return xb.core?.input?.hands?.[hand]?.joints?.[name];
  }

  _wristQuaternion(hand) {
    const wrist = this._joint(hand, 'wrist');
    if (!wrist) return null;
    wrist.updateWorldMatrix(true, false);
    return wrist.getWorldQuaternion(this._wrist);
  }

  _fingertipTouchesKnob(hand) {
    const tip = this._joint(hand, 'index-finger-tip');
    if (!tip) return false;
    tip.updateWorldMatrix(true, false);
    tip.getWorldPosition(this._tip);
    const dx = this._tip.x - KNOB_CENTER.x;
    const dz = this._tip.z - KNOB_CENTER.z;
    const dy = this._tip.y - KNOB_CENTER.y;
    const radialOut = Math.max(Math.hypot(dx, dz) - KNOB_RADIUS, 0);
    const verticalOut = Math.max(Math.abs(dy) - KNOB_HEIGHT / 2, 0);
    return Math.hypot(radialOut, verticalOut) <= TOUCH_MARGIN + 1e-6;
  }

  _setAngle(angleDeg) {
    this.angle = angleDeg;
    this._applyAngle();
    const value = valueForAngle(angleDeg);
    if (value !== this.value) {
      this.value = value;
      this._drawReadout();
      this._playValueSound(value);
    }
  }

  /** Turns the knob and its pointer to `this.angle`. */
  _applyAngle() {
    const rad = THREE.MathUtils.degToRad(this.angle);
    // Clockwise seen from above is a negative rotation about +y; the knob's
    // local -z is its pointing direction.
    this.knob.rotation.set(0, -rad, 0);
    const dir = new THREE.Vector3(Math.sin(rad), 0, -Math.cos(rad));
    this.pointer.position
      .copy(KNOB_CENTER)
      .addScaledVector(dir, POINTER_OFFSET)
      .setY(KNOB_CENTER.y + KNOB_HEIGHT / 2 + 0.001);
    this.pointer.rotation.set(0, -rad, 0);
  }

  _drawReadout() {
    const text = String(this.value);
    const ctx = this.readoutCanvas.getContext('2d');
    const w = this.readoutCanvas.width;
    const h = this.readoutCanvas.height;
    ctx.fillStyle = '#15181d';
    ctx.fillRect(0, 0, w, h);
    ctx.strokeStyle = '#5b6470';
    ctx.lineWidth = 8;
    ctx.strokeRect(4, 4, w - 8, h - 8);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 120px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, w / 2, h / 2 + 6);
    this.readoutTexture.needsUpdate = true;
    this.readout.userData.xrblocksDevtools.state.text = text;
  }

  _playValueSound(value) {
    const synth = xb.core?.sound?.soundSynthesizer;
    if (!synth) return;
    if (value === MIN_VALUE || value === MAX_VALUE) {
      synth.playTone(END_FREQUENCY, END_DURATION, SOUND_VOLUME, 'sine');
    } else {
      synth.playTone(CLICK_FREQUENCY, CLICK_DURATION, SOUND_VOLUME, 'sine');
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new VolumeKnob());
  xb.init(options);
});
