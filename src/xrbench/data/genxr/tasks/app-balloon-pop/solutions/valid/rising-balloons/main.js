import * as THREE from 'three';
import * as xb from 'xrblocks';

const STARTS = [
  [-0.24, 1.0, -0.8],
  [-0.12, 1.2, -0.8],
  [0.0, 0.9, -0.8],
  [0.12, 1.1, -0.8],
  [0.24, 1.3, -0.8],
];
const RADIUS = 0.05;
const SPEED = 0.1; // metres per second
const TOP = 1.9;
const RESPAWN = 2.0; // seconds after a pop
const COLOURS = [0xe53935, 0xfdd835, 0x43a047, 0x1e88e5, 0x8e24aa];

/** The panel that shows how many balloons were popped. */
class CountPanel {
  constructor() {
    this.canvas = document.createElement('canvas');
    this.canvas.width = 512;
    this.canvas.height = 256;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
    this.mesh = new THREE.Mesh(
      new THREE.PlaneGeometry(0.4, 0.2),
      new THREE.MeshBasicMaterial({map: this.texture}));
    this.mesh.position.set(0, 2.15, -1.5);
    this.mesh.lookAt(0, 1.5, 0);
    this.state = {popped: 0};
    this.mesh.userData.xrblocksDevtools = {tag: 'pop-panel', state: this.state};
    this.draw();
  }

  draw() {
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = '#263238';
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 96px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(`Popped: ${this.state.popped}`, 256, 128);
    this.texture.needsUpdate = true;
  }

  add() {
    this.state.popped += 1;
    this.draw();
  }
}

class BalloonGame extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.panel = new CountPanel();
    this.add(this.panel.mesh);
    const geometry = new THREE.SphereGeometry(RADIUS, 32, 16);
    this.balloons = STARTS.map((start, i) => {
      const mesh = new THREE.Mesh(
        geometry, new THREE.MeshStandardMaterial({color: COLOURS[i], roughness: 0.4}));
      mesh.position.fromArray(start);
      mesh.userData.xrblocksDevtools = {tag: `balloon-${i + 1}`, state: {}};
      this.add(mesh);
      return {mesh, start, waiting: 0};
    });
    this.tip = new THREE.Vector3();
  }

  update() {
    // The clock starts on the first frame: the balloons rise from there.
    this.clock ??= new THREE.Clock();
    const dt = Math.min(this.clock.getDelta(), 0.1);
    for (const b of this.balloons) {
      if (!b.mesh.visible) {
        b.waiting += dt;
        if (b.waiting >= RESPAWN - 1e-6) this.restart(b);
        continue;
      }
      b.mesh.position.y += SPEED * dt;
      if (b.mesh.position.y >= TOP) this.restart(b);
    }
    const hands = xb.core.input.hands;
    for (let h = 0; h < 2; h++) {
      const joint = hands[h]?.joints?.['index-finger-tip'];
      if (!joint) continue;
      joint.getWorldPosition(this.tip);
      for (const b of this.balloons) {
        if (b.mesh.visible && this.tip.distanceTo(b.mesh.position) < RADIUS) this.pop(b);
      }
    }
  }

  restart(b) {
    b.mesh.position.fromArray(b.start);
    b.mesh.visible = true;
    b.waiting = 0;
  }

  pop(b) {
    b.mesh.visible = false;
    b.waiting = 0;
    this.panel.add();
    xb.core.sound.soundSynthesizer.playTone(180, 0.12, 0.4, 'triangle');
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new BalloonGame());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
