import * as THREE from 'three';
import * as xb from 'xrblocks';

const NOTES = [
  ['C4', 261.63], ['D4', 293.66], ['E4', 329.63], ['F4', 349.23], ['G4', 392.0],
];
const KEY_SIZE = new THREE.Vector3(0.05, 0.02, 0.12);
const KEY_PITCH = 0.055;
const ROW_CENTRE = new THREE.Vector3(0, 1.2, -0.45);
const PRESS_DEPTH = 0.007;
const TOUCH_RADIUS = 0.06;  // a fingertip this close to a key's centre touches it

/**
 * A five-key piano that checks each fingertip against every key every frame, with a touch
 * radius around the key's centre.
 */
class Piano extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.keys = NOTES.map(([note, frequency], i) => {
      const mesh = new THREE.Mesh(
        new THREE.BoxGeometry(KEY_SIZE.x, KEY_SIZE.y, KEY_SIZE.z),
        new THREE.MeshStandardMaterial({color: 0xfafafa}));
      const home = ROW_CENTRE.clone().add(new THREE.Vector3((i - 2) * KEY_PITCH, 0, 0));
      mesh.position.copy(home);
      const state = {note, pressed: false, plays: 0};
      mesh.userData.xrblocksDevtools = {tag: 'piano-key', state};
      this.add(mesh);
      return {mesh, home, frequency, state};
    });
  }

  update() {
    const tips = [0, 1]
      .map((i) => xb.core.input.hands[i]?.joints?.['index-finger-tip'])
      .filter(Boolean)
      .map((joint) => joint.getWorldPosition(new THREE.Vector3()));
    for (const key of this.keys) {
      const touched = tips.some((tip) => tip.distanceTo(key.home) < TOUCH_RADIUS);
      if (touched && !key.state.pressed) {
        key.state.plays += 1;
        xb.core.sound.soundSynthesizer.playTone(key.frequency, 0.5, 0.3, 'sine');
      }
      key.state.pressed = touched;
      key.mesh.position.y = key.home.y - (touched ? PRESS_DEPTH : 0);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Piano());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
