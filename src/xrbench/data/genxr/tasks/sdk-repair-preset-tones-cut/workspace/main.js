import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Chime board: a row of pads that give audible feedback through XR Blocks' sound synthesizer
 * (`xb.core.sound.soundSynthesizer`). Press a pad with a ray pinch or by poking it with an index
 * fingertip, with either hand.
 *
 * - The two lamp switches toggle: switching on plays the 'ACTIVATE' preset, off 'DEACTIVATE'.
 * - The click key plays 'CLICK', the bell 'BEEP'.
 * - The tone pad plays a plain 440 Hz sine tone of 0.3 s with `playTone`.
 *
 * Every pad carries an XR Blocks DevTools tag (`userData.xrblocksDevtools`) with its state.
 */
const PAD_SIZE = 0.1;
const ROW = {y: 1.3, z: -0.7, spacing: 0.14};
const HANDS = ['left', 'right'];

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

class LampSwitch extends Pad {
  init() {
    super.init();
    this.state.on = false;
  }

  press() {
    this.state.on = !this.state.on;
    this.mesh.material.color.setHex(this.state.on ? 0xffd24a : this.color);
    synth().playPresetTone(this.state.on ? 'ACTIVATE' : 'DEACTIVATE');
  }
}

class PresetPad extends Pad {
  constructor(tag, index, color, preset) {
    super(tag, index, color);
    this.preset = preset;
  }

  press() {
    synth().playPresetTone(this.preset);
  }
}

class TonePad extends Pad {
  press() {
    synth().playTone(440, 0.3, 0.5, 'sine');
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Room());
  xb.add(new LampSwitch('lamp-switch-a', 0, 0x5a6270));
  xb.add(new LampSwitch('lamp-switch-b', 1, 0x5a6270));
  xb.add(new PresetPad('click-key', 2, 0x3b7dd8, 'CLICK'));
  xb.add(new PresetPad('bell', 3, 0xc0504d, 'BEEP'));
  xb.add(new TonePad('tone-pad', 4, 0x4caf50));
  xb.init(new xb.Options());
});
