import * as THREE from 'three';
import * as xb from 'xrblocks';

// Clap for confetti: the palm centres (middle-finger metacarpals) within 10 cm make a clap, which
// re-arms once they are more than 25 cm apart. Each clap spawns a burst of small boxes flying
// outward for 1.5 s and plays a short tone.
const CLAP = 0.1;
const REARM = 0.25;
const LIFE = 1.5;
const PIECES = 24;
const COLORS = [0xe53935, 0xfdd835, 0x43a047, 0x1e88e5, 0x8e24aa];

function palm(i) {
  const joint = xb.core.input.hands?.[i]?.joints?.['middle-finger-metacarpal'];
  return joint ? joint.getWorldPosition(new THREE.Vector3()) : null;
}

// A small deterministic generator, so every run throws the same confetti.
let seed = 12345;
function random() {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 4294967296;
}

class ClapConfetti extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.armed = true;
    this.bursts = [];
    this.geometry = new THREE.BoxGeometry(0.02, 0.02, 0.005);
  }

  spawn(at) {
    const group = new THREE.Group();
    group.userData.xrblocksDevtools = {tag: 'confetti-burst', state: {}};
    group.position.copy(at);
    const pieces = [];
    for (let i = 0; i < PIECES; i++) {
      const mesh = new THREE.Mesh(this.geometry, new THREE.MeshStandardMaterial({color: COLORS[i % COLORS.length]}));
      const dir = new THREE.Vector3(random() - 0.5, random() - 0.5, random() - 0.5);
      if (dir.lengthSq() < 1e-4) dir.set(0, 1, 0);
      dir.normalize();
      pieces.push({mesh, velocity: dir.multiplyScalar(1.0 + 0.5 * random())});
      group.add(mesh);
    }
    this.add(group);
    this.bursts.push({group, pieces, age: 0});
    xb.core.sound.soundSynthesizer.playTone(320, 0.12, 0.6, 'square');
  }

  update() {
    const now = performance.now();
    const dt = this.last === undefined ? 0 : (now - this.last) / 1000;
    this.last = now;
    for (const burst of this.bursts) {
      burst.age += dt;
      for (const p of burst.pieces) p.mesh.position.addScaledVector(p.velocity, dt);
      if (burst.age >= LIFE) this.remove(burst.group);
    }
    this.bursts = this.bursts.filter((b) => b.age < LIFE);

    const left = palm(0);
    const right = palm(1);
    if (!left || !right) return;
    const gap = left.distanceTo(right);
    if (this.armed && gap <= CLAP) {
      this.armed = false;
      this.spawn(left.add(right).multiplyScalar(0.5));
    } else if (!this.armed && gap > REARM) {
      this.armed = true;
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new ClapConfetti());
  xb.init(options);
});
