import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Firefly garden: sounds that come from things in the room, through XR Blocks' spatial audio
 * (`xb.core.sound.spatialAudio`). The sounds of its library are in `musicLibrary/`.
 *
 * - The hum switch toggles a firefly's hum: a looping 'ambient' sound that comes from the firefly
 *   as it circles over the room (refDistance 0.5 m, rolloffFactor 2); pressing it again stops it.
 * - The chime plays 'buttonHover' from itself (refDistance 2 m, rolloffFactor 0.5).
 * - The bell plays 'paintOneShot1' from itself, with the default settings.
 *
 * Press a pad with a ray pinch or by poking it with an index fingertip, with either hand. Every
 * object carries an XR Blocks DevTools tag (`userData.xrblocksDevtools`) with its state.
 */
const PAD_SIZE = 0.1;
const ROW = {y: 1.2, z: -0.7, spacing: 0.2};
// The firefly circles a point over the room: 0.8 m around (0, 1.6, -1.5), once every 8 s.
const ORBIT = {x: 0, y: 1.6, z: -1.5, radius: 0.8, period: 8};

function spatialAudio() {
  return xb.core.sound.spatialAudio;
}

class Firefly extends xb.Script {
  init() {
    this.mesh = new THREE.Mesh(
      new THREE.SphereGeometry(0.04, 16, 12),
      new THREE.MeshStandardMaterial({color: 0xfff3a0, emissive: 0x665500}));
    this.mesh.name = 'firefly';
    this.state = {humming: false, soundId: null};
    this.mesh.userData.xrblocksDevtools = {tag: 'firefly', state: this.state};
    this.add(this.mesh);
    this.start = performance.now();
    this.place();
  }

  place() {
    const t = (performance.now() - this.start) / 1000;
    const a = (2 * Math.PI * t) / ORBIT.period;
    this.mesh.position.set(
      ORBIT.x + ORBIT.radius * Math.sin(a),
      ORBIT.y + 0.1 * Math.sin(2 * a),
      ORBIT.z + ORBIT.radius * Math.cos(a));
  }

  update() {
    this.place();
  }

  toggleHum() {
    if (this.state.humming) {
      spatialAudio().stopSound(this.state.soundId);
      this.state.soundId = null;
      this.state.humming = false;
    } else {
      this.state.soundId = spatialAudio().playSoundAtObject('ambient', this.mesh, {
        loop: true,
        refDistance: 0.5,
        rolloffFactor: 2,
      });
      this.state.humming = true;
    }
  }
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
    this.mesh.position.set((this.index - 1) * ROW.spacing, ROW.y, ROW.z);
    this.mesh.name = this.tag;
    this.state = {presses: 0, lastSoundId: null};
    this.mesh.userData.xrblocksDevtools = {tag: this.tag, state: this.state};
    this.add(this.mesh);
  }

  onObjectSelectStart() {
    this.state.presses += 1;
    this.press();
  }

  press() {}
}

class HumSwitch extends Pad {
  constructor(firefly) {
    super('hum-switch', 0, 0x5a6270);
    this.firefly = firefly;
  }

  press() {
    this.firefly.toggleHum();
  }
}

class Chime extends Pad {
  constructor() {
    super('chime', 1, 0x3b7dd8);
  }

  press() {
    this.state.lastSoundId = spatialAudio().playSoundAtObject('buttonHover', this.mesh, {
      refDistance: 2,
      rolloffFactor: 0.5,
    });
  }
}

class Bell extends Pad {
  constructor() {
    super('bell', 2, 0xc0504d);
  }

  press() {
    this.state.lastSoundId = spatialAudio().playSoundAtObject('paintOneShot1', this.mesh);
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const firefly = new Firefly();
  xb.add(new Room());
  xb.add(firefly);
  xb.add(new HumSwitch(firefly));
  xb.add(new Chime());
  xb.add(new Bell());
  xb.init(new xb.Options());
});
