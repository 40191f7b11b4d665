import * as THREE from 'three';
import * as xb from 'xrblocks';

const NOTES = [
  ['C4', 261.63], ['D4', 293.66], ['E4', 329.63], ['F4', 349.23], ['G4', 392.0],
];
const KEY_SIZE = new THREE.Vector3(0.05, 0.02, 0.12);
const KEY_PITCH = 0.055;  // centre to centre
const ROW_CENTRE = new THREE.Vector3(0, 1.2, -0.45);
const PRESS_DEPTH = 0.007;

/** One piano key: plays its note once per touch and sinks while touched. */
class PianoKey extends xb.Script {
  constructor(note, frequency, position) {
    super();
    this.note = note;
    this.frequency = frequency;
    this.home = position.clone();
    this.touching = new Set();  // controllers whose fingertip is in the key
  }

  init() {
    this.mesh = new THREE.Mesh(
      new THREE.BoxGeometry(KEY_SIZE.x, KEY_SIZE.y, KEY_SIZE.z),
      new THREE.MeshStandardMaterial({color: 0xfafafa, roughness: 0.4}));
    this.mesh.position.copy(this.home);
    this.state = {note: this.note, pressed: false, plays: 0};
    this.mesh.userData.xrblocksDevtools = {tag: 'piano-key', state: this.state};
    this.add(this.mesh);
  }

  onObjectTouchStart(event) {
    const first = this.touching.size === 0;
    this.touching.add(event.source.controller);
    if (!first) return;
    this.setPressed(true);
    this.state.plays += 1;
    xb.core.sound.soundSynthesizer.playTone(this.frequency, 0.5, 0.3, 'sine');
  }

  onObjectTouching() {
    // Sustain: keep the note sounding while the finger rests on the key.
    this.state.plays += 1;
    xb.core.sound.soundSynthesizer.playTone(this.frequency, 0.5, 0.3, 'sine');
  }

  onObjectTouchEnd(event) {
    this.touching.delete(event.source.controller);
    if (this.touching.size === 0) this.setPressed(false);
  }

  setPressed(pressed) {
    this.state.pressed = pressed;
    this.mesh.position.y = this.home.y - (pressed ? PRESS_DEPTH : 0);
    this.mesh.material.color.setHex(pressed ? 0xffe082 : 0xfafafa);
  }
}

class Piano extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Piano());
  NOTES.forEach(([note, frequency], i) => {
    const position = ROW_CENTRE.clone().add(new THREE.Vector3((i - 2) * KEY_PITCH, 0, 0));
    xb.add(new PianoKey(note, frequency, position));
  });
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
