import * as THREE from 'three';
import * as xb from 'xrblocks';

const NOTES = [
  ['C4', 261.63], ['D4', 293.66], ['E4', 329.63], ['F4', 349.23], ['G4', 392.0],
];
const WIDTH = 0.05, THICKNESS = 0.02, DEPTH = 0.12, SPACING = 0.055;
const CENTRE = new THREE.Vector3(0, 1.2, -0.45);
const TRAVEL = 0.006;

/**
 * A monophonic touch piano: one key sounds at a time, the one the first fingertip found in a key
 * is in (left hand first, then right).
 */
class MonoPiano extends xb.Script {
  init() {
    this.add(new THREE.DirectionalLight(0xffffff, 2));
    this.add(new THREE.AmbientLight(0xffffff, 0.6));
    this.current = null;
    this.keys = NOTES.map(([note, hz], i) => {
      const mesh = new THREE.Mesh(
        new THREE.BoxGeometry(WIDTH, THICKNESS, DEPTH),
        new THREE.MeshPhongMaterial({color: 0xffffff}));
      mesh.position.set(CENTRE.x + (i - 2) * SPACING, CENTRE.y, CENTRE.z);
      mesh.userData.xrblocksDevtools = {tag: 'piano-key', state: {note, pressed: false, plays: 0}};
      this.add(mesh);
      const box = new THREE.Box3().setFromObject(mesh);
      return {mesh, hz, box, restY: mesh.position.y};
    });
  }

  keyUnder(tip) {
    return this.keys.find((key) => key.box.containsPoint(tip)) ?? null;
  }

  update() {
    let found = null;
    for (const hand of xb.core.input.hands) {
      const joint = hand?.joints?.['index-finger-tip'];
      if (!joint) continue;
      found = this.keyUnder(joint.getWorldPosition(new THREE.Vector3()));
      if (found) break;
    }
    if (found === this.current) return;
    if (this.current) this.setDown(this.current, false);
    this.current = found;
    if (found) {
      this.setDown(found, true);
      found.mesh.userData.xrblocksDevtools.state.plays += 1;
      xb.core.sound.soundSynthesizer.playTone(found.hz, 0.4, 0.3, 'sine');
    }
  }

  setDown(key, down) {
    key.mesh.userData.xrblocksDevtools.state.pressed = down;
    key.mesh.position.y = key.restY - (down ? TRAVEL : 0);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new MonoPiano());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
