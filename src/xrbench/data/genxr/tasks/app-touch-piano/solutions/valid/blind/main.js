import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Touch piano: five keys (C4 to G4) lying flat in front of the user, played by
 * poking them with the tip of either index finger.
 */

// Layout, in world metres (y up, the user starts at the origin looking -z).
const KEY_WIDTH = 0.05; // x
const KEY_THICKNESS = 0.02; // y
const KEY_DEPTH = 0.12; // z
const KEY_PITCH = 0.055; // centre to centre along x (5 mm gap)
const PIANO_CENTER = new THREE.Vector3(0, 1.2, -0.45);
const PRESS_DEPTH = 0.007; // how far a touched key goes down

const NOTES = [
  {note: 'C4', frequency: 261.63},
  {note: 'D4', frequency: 293.66},
  {note: 'E4', frequency: 329.63},
  {note: 'F4', frequency: 349.23},
  {note: 'G4', frequency: 392.0},
];

const KEY_COLOR = 0xf4f1ea;
const PRESSED_COLOR = 0xffc857;

const NOTE_DURATION = 0.8; // seconds
const NOTE_VOLUME = 0.35;

const NUM_HANDS = 2;

class TouchPiano extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const light = new THREE.DirectionalLight(0xffffff, 1.0);
    light.position.set(0.5, 2.5, 0.5);
    this.add(light);

    // The piano is a plain world-fixed group: it never follows the head.
    this.piano = new THREE.Group();
    this.piano.name = 'piano';
    this.add(this.piano);

    const geometry = new THREE.BoxGeometry(KEY_WIDTH, KEY_THICKNESS, KEY_DEPTH);
    this.keys = NOTES.map(({note, frequency}, i) => {
      const material = new THREE.MeshStandardMaterial({
        color: KEY_COLOR,
        roughness: 0.5,
      });
      const key = new THREE.Mesh(geometry, material);
      key.name = `piano-key-${note}`;
      const restPosition = new THREE.Vector3(
        PIANO_CENTER.x + (i - (NOTES.length - 1) / 2) * KEY_PITCH,
        PIANO_CENTER.y,
        PIANO_CENTER.z
      );
      key.position.copy(restPosition);
      key.userData.xrblocksDevtools = {
        tag: 'piano-key',
        state: {note, pressed: false, plays: 0},
      };
      this.piano.add(key);

      // The box in which a fingertip touches the key, fixed at the key's rest
      // place (the key moving down when pressed does not move this box).
      const half = new THREE.Vector3(
        KEY_WIDTH / 2,
        KEY_THICKNESS / 2,
        KEY_DEPTH / 2
      );
      const restBox = new THREE.Box3(
        restPosition.clone().sub(half),
        restPosition.clone().add(half)
      );
      // While pressed, the key's own (lowered) box counts as well, so a
      // finger that follows the key down keeps holding it.
      const heldBox = restBox.clone();
      heldBox.min.y -= PRESS_DEPTH;

      return {
        mesh: key,
        note,
        frequency,
        restPosition,
        restBox,
        heldBox,
        pressed: false,
        plays: 0,
      };
    });

    // Which key each hand's index fingertip is in (-1: none).
    this.fingerKey = new Array(NUM_HANDS).fill(-1);
    this.tipPosition = new THREE.Vector3();
  }

  /** World position of a hand's index fingertip, or null when not tracked. */
  getIndexTip(handIndex, target) {
    const hand = xb.core.input?.hands?.[handIndex];
    if (!hand || !hand.visible) return null;
    const tip = hand.joints?.['index-finger-tip'];
    if (!tip || tip.visible === false) return null;
    tip.getWorldPosition(target);
    return target;
  }

  /** The key the point is in, or -1. */
  findKey(point) {
    for (let k = 0; k < this.keys.length; k++) {
      const key = this.keys[k];
      const box = key.pressed ? key.heldBox : key.restBox;
      if (box.containsPoint(point)) return k;
    }
    return -1;
  }

  update() {
    if (!this.keys) return;

    // Per hand: which key its index fingertip is in now.
    for (let h = 0; h < NUM_HANDS; h++) {
      const tip = this.getIndexTip(h, this.tipPosition);
      this.fingerKey[h] = tip ? this.findKey(tip) : -1;
    }

    // Per key: touched while any index fingertip is in it.
    for (let k = 0; k < this.keys.length; k++) {
      const touched = this.fingerKey.includes(k);
      const key = this.keys[k];
      if (touched && !key.pressed) {
        this.pressKey(key);
      } else if (!touched && key.pressed) {
        this.releaseKey(key);
      }
    }
  }

  pressKey(key) {
    key.pressed = true;
    key.plays += 1;
    key.mesh.position.y = key.restPosition.y - PRESS_DEPTH;
    key.mesh.material.color.setHex(PRESSED_COLOR);
    key.mesh.updateMatrixWorld(true);
    this.syncState(key);
    this.playNote(key.frequency);
  }

  releaseKey(key) {
    key.pressed = false;
    key.mesh.position.copy(key.restPosition);
    key.mesh.material.color.setHex(KEY_COLOR);
    key.mesh.updateMatrixWorld(true);
    this.syncState(key);
  }

  syncState(key) {
    const state = key.mesh.userData.xrblocksDevtools.state;
    state.pressed = key.pressed;
    state.plays = key.plays;
  }

  playNote(frequency) {
    const synth = xb.core.sound?.soundSynthesizer;
    if (synth) {
      synth.playTone(frequency, NOTE_DURATION, NOTE_VOLUME, 'sine');
      const ctx = synth.audioContext;
      if (ctx && ctx.state === 'suspended') ctx.resume().catch(() => {});
      return;
    }
    // Fallback: a plain Web Audio oscillator.
    if (!this.audioContext) this.audioContext = new AudioContext();
    const ctx = this.audioContext;
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
    const oscillator = ctx.createOscillator();
    oscillator.type = 'sine';
    oscillator.frequency.setValueAtTime(frequency, ctx.currentTime);
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(NOTE_VOLUME, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(
      0.0001,
      ctx.currentTime + NOTE_DURATION
    );
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start();
    oscillator.stop(ctx.currentTime + NOTE_DURATION);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new TouchPiano());
  xb.init(options);
});
