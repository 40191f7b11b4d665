import * as THREE from 'three';
import * as xb from 'xrblocks';

// Balloon n (1-5) starts at START[n - 1] and rises at 0.1 m/s until its centre reaches 1.9 m.
const START = [
  new THREE.Vector3(-0.24, 1.0, -0.8),
  new THREE.Vector3(-0.12, 1.2, -0.8),
  new THREE.Vector3(0.0, 0.9, -0.8),
  new THREE.Vector3(0.12, 1.1, -0.8),
  new THREE.Vector3(0.24, 1.3, -0.8),
];
const RISE_PER_MS = 0.1 / 1000;
const TOP_Y = 1.9;
const COMEBACK_MS = 2000;
const HUES = [0.0, 0.08, 0.3, 0.55, 0.8];

/** A short burst of decaying noise, made once and played for every pop. */
class PopSound {
  play() {
    if (!this.context) {
      this.context = new AudioContext();
      const length = Math.round(this.context.sampleRate * 0.15);
      this.buffer = this.context.createBuffer(1, length, this.context.sampleRate);
      const data = this.buffer.getChannelData(0);
      let seed = 7;
      for (let i = 0; i < length; i++) {
        seed = (seed * 16807) % 2147483647;
        data[i] = ((seed / 2147483647) * 2 - 1) * Math.pow(1 - i / length, 3);
      }
    }
    const source = this.context.createBufferSource();
    source.buffer = this.buffer;
    source.connect(this.context.destination);
    source.start();
  }
}

/** "Popped: N" on a canvas texture, on a plane facing the user. */
class Scoreboard extends xb.Script {
  init() {
    this.canvas = document.createElement('canvas');
    this.canvas.width = 400;
    this.canvas.height = 200;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
    const board = new THREE.Mesh(
      new THREE.BoxGeometry(0.4, 0.2, 0.01),
      new THREE.MeshBasicMaterial({map: this.texture}));
    board.position.set(0, 2.15, -1.5);
    board.lookAt(new THREE.Vector3(0, xb.user.height, 0));
    this.count = {popped: 0};
    board.userData.xrblocksDevtools = {tag: 'pop-panel', state: this.count};
    this.add(board);
    this.show();
  }

  increment() {
    this.count.popped++;
    this.show();
  }

  show() {
    const g = this.canvas.getContext('2d');
    g.fillStyle = '#0d47a1';
    g.fillRect(0, 0, 400, 200);
    g.fillStyle = '#fff59d';
    g.font = '64px sans-serif';
    g.textAlign = 'center';
    g.fillText('Popped: ' + this.count.popped, 200, 122);
    this.texture.needsUpdate = true;
  }
}

class Balloons extends xb.Script {
  constructor(board) {
    super();
    this.board = board;
    this.sound = new PopSound();
    this.slots = START.map(() => ({mesh: null, born: 0, poppedAt: null}));
    this.tip = new THREE.Vector3();
  }

  init() {
    this.add(new THREE.DirectionalLight(0xffffff, 2.5));
    this.add(new THREE.AmbientLight(0xffffff, 0.6));
  }

  spawn(i, now) {
    const slot = this.slots[i];
    const mesh = new THREE.Mesh(
      new THREE.SphereGeometry(0.05, 24, 18),
      new THREE.MeshPhongMaterial({color: new THREE.Color().setHSL(HUES[i], 0.8, 0.55)}));
    mesh.position.copy(START[i]);
    mesh.userData.xrblocksDevtools = {tag: `balloon-${i + 1}`, state: {}};
    this.add(mesh);
    slot.mesh = mesh;
    slot.born = now;
    slot.poppedAt = null;
  }

  discard(i) {
    const slot = this.slots[i];
    slot.mesh.removeFromParent();
    slot.mesh.geometry.dispose();
    slot.mesh.material.dispose();
    slot.mesh = null;
  }

  update() {
    const now = performance.now();
    if (!this.started) {
      // The rise is timed from the first frame, not from init().
      this.started = true;
      this.slots.forEach((slot, i) => this.spawn(i, now));
    }
    this.slots.forEach((slot, i) => {
      if (!slot.mesh) {
        if (now - slot.poppedAt >= COMEBACK_MS) this.spawn(i, now);
        return;
      }
      const y = START[i].y + (now - slot.born) * RISE_PER_MS;
      if (y >= TOP_Y) {
        this.discard(i);
        this.spawn(i, now);
      } else {
        slot.mesh.position.y = y;
      }
    });
    for (const hand of xb.core.input.hands) {
      const joint = hand && hand.joints && hand.joints['index-finger-tip'];
      if (!joint) continue;
      joint.getWorldPosition(this.tip);
      this.slots.forEach((slot, i) => {
        if (slot.mesh && slot.mesh.position.distanceTo(this.tip) < 0.05) {
          this.discard(i);
          slot.poppedAt = now;
          this.sound.play();
          this.board.increment();
        }
      });
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const board = new Scoreboard();
  xb.add(board);
  xb.add(new Balloons(board));
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
