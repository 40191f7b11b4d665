import * as THREE from 'three';
import * as xb from 'xrblocks';

const NOTES = [
  ['C4', 261.63], ['D4', 293.66], ['E4', 329.63], ['F4', 349.23], ['G4', 392.0],
];
const KEY_SIZE = new THREE.Vector3(0.05, 0.02, 0.12);
const KEY_PITCH = 0.055;  // centre to centre
const ROW_CENTRE = new THREE.Vector3(0, 1.2, -0.45);
const PRESS_DEPTH = 0.008;
const RELEASE_MARGIN = 0.004;  // a finger in a key lets go once it is this far out of the key

let audioContext = null;

/** A short sine tone on an OscillatorNode, fading out over half a second. */
function playNote(frequency) {
  audioContext ??= new AudioContext();
  const now = audioContext.currentTime;
  const osc = audioContext.createOscillator();
  const gain = audioContext.createGain();
  osc.type = 'triangle';
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(0.25, now);
  gain.gain.exponentialRampToValueAtTime(0.001, now + 0.6);
  osc.connect(gain).connect(audioContext.destination);
  osc.start(now);
  osc.stop(now + 0.6);
}

/**
 * The piano checks each index fingertip against each key's box (where the key is at rest) every
 * frame: a fingertip that enters a key plays it once and holds it down until it leaves.
 */
class Piano extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.keys = NOTES.map(([note, frequency], i) => {
      const home = ROW_CENTRE.clone().add(new THREE.Vector3((i - 2) * KEY_PITCH, 0, 0));
      const mesh = new THREE.Mesh(
        new THREE.BoxGeometry(KEY_SIZE.x, KEY_SIZE.y, KEY_SIZE.z),
        new THREE.MeshStandardMaterial({color: 0xf4f4f4, roughness: 0.5}));
      mesh.position.copy(home);
      const state = {note, pressed: false, plays: 0};
      mesh.userData.xrblocksDevtools = {tag: 'piano-key', state};
      this.add(mesh);
      const box = new THREE.Box3().setFromCenterAndSize(home, KEY_SIZE);
      return {mesh, home, frequency, state, box, fingers: new Set()};
    });
  }

  fingertips() {
    const tips = [];
    for (const i of [0, 1]) {
      const hand = xb.core.input.hands[i];
      const joint = hand?.joints?.['index-finger-tip'];
      if (joint) tips.push([i, joint.getWorldPosition(new THREE.Vector3())]);
    }
    return tips;
  }

  update() {
    const tips = this.fingertips();
    const outer = new THREE.Box3();
    for (const key of this.keys) {
      outer.copy(key.box).expandByScalar(RELEASE_MARGIN);
      for (const [hand, tip] of tips) {
        if (key.fingers.has(hand)) {
          if (!outer.containsPoint(tip)) key.fingers.delete(hand);
        } else if (key.box.containsPoint(tip)) {
          key.fingers.add(hand);
          if (key.fingers.size === 1) {
            key.state.plays += 1;
            playNote(key.frequency);
          }
        }
      }
      for (const hand of key.fingers) {
        if (!tips.some(([i]) => i === hand)) key.fingers.delete(hand);
      }
      const pressed = key.fingers.size > 0;
      key.state.pressed = pressed;
      key.mesh.position.y = key.home.y - (pressed ? PRESS_DEPTH : 0);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Piano());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
