import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Synth pads: a row of pads that play notes through XR Blocks' sound synthesizer
 * (`xb.core.sound.soundSynthesizer`). Point either hand's ray at a pad and pinch to press it.
 *
 * - Four note pads, one per waveform, each plays its own note with `playTone`.
 * - The chime pad plays the 'ACTIVATE' preset.
 *
 * Every pad carries an XR Blocks DevTools tag (`userData.xrblocksDevtools`) with its state.
 */
const PAD_SIZE = 0.1;
const ROW = {y: 1.3, z: -0.7, spacing: 0.14};
const HANDS = ['left', 'right'];

// frequency (Hz), duration (s), volume (0..1), waveform
const NOTES = {
  'sine-pad': [440, 0.3, 0.5, 'sine'],
  'triangle-pad': [523.25, 0.25, 0.6, 'triangle'],
  'square-pad': [330, 0.4, 0.4, 'square'],
  'sawtooth-pad': [220, 0.5, 0.3, 'sawtooth'],
};

function synth() {
  return xb.core.sound.soundSynthesizer;
}

class Pad extends xb.Script {
  constructor(tag, index, color) {
    super();
    this.tag = tag;
    this.index = index;
    this.color = color;
  }

  init() {
    this.mesh = new THREE.Mesh(
      new THREE.BoxGeometry(PAD_SIZE, PAD_SIZE, 0.04),
      new THREE.MeshStandardMaterial({color: this.color}));
    this.mesh.position.set((this.index - 2) * ROW.spacing, ROW.y, ROW.z);
    this.mesh.name = this.tag;
    this.state = {presses: 0, lastHand: null};
    this.mesh.userData.xrblocksDevtools = {tag: this.tag, state: this.state};
    this.add(this.mesh);
  }

  onObjectSelectStart(event) {
    this.state.presses += 1;
    this.state.lastHand = event.source?.handedness ?? HANDS[event.handIndex] ?? null;
    this.press();
  }

  press() {}
}

class NotePad extends Pad {
  press() {
    const [frequency, duration, volume, waveform] = NOTES[this.tag];
    synth().playTone(frequency, duration, volume, waveform);
  }
}

class ChimePad extends Pad {
  press() {
    synth().playPresetTone('ACTIVATE');
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Room());
  xb.add(new NotePad('sine-pad', 0, 0x3b7dd8));
  xb.add(new NotePad('triangle-pad', 1, 0x4caf50));
  xb.add(new NotePad('square-pad', 2, 0xc0504d));
  xb.add(new NotePad('sawtooth-pad', 3, 0xe0a030));
  xb.add(new ChimePad('chime-pad', 4, 0x8a5ad8));
  xb.init(new xb.Options());
});
