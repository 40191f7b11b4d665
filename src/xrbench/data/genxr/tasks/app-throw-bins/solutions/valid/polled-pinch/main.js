import * as THREE from 'three';
import * as xb from 'xrblocks';

// Throw-into-bins game, written with polling: every frame reads both hands' select state and
// index fingertips; a ball is a plain record advanced on the closed-form ballistic path.

const REST = [0, 1.1, -0.4];
const R = 0.04;
const G = 9.8;
const AVERAGE_OVER = 0.1;
const NEXT_BALL_AFTER = 1.0;
const BINS = [[-0.7, -1.6], [0, -2.2], [0.7, -1.6]];

function numberTexture() {
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 170;
  const texture = new THREE.CanvasTexture(canvas);
  const draw = (n) => {
    const g = canvas.getContext('2d');
    g.fillStyle = '#fafafa';
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.fillStyle = '#111111';
    g.font = '120px monospace';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(`${n}`, canvas.width / 2, canvas.height / 2 + 6);
    texture.needsUpdate = true;
  };
  draw(0);
  return {texture, draw};
}

class Game extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x445566, 2.5));
    this.clock = 0;

    const stand = new THREE.Group();
    const mat = new THREE.MeshStandardMaterial({color: 0x9e9e9e});
    const base = new THREE.Mesh(new THREE.BoxGeometry(0.2, 0.02, 0.2), mat);
    base.position.set(REST[0], 0.01, REST[2]);
    const column = new THREE.Mesh(new THREE.BoxGeometry(0.04, 1.04, 0.04), mat);
    column.position.set(REST[0], 0.54, REST[2]);
    stand.add(base, column);
    stand.userData.xrblocksDevtools = {tag: 'ball-stand', state: {}};
    this.add(stand);

    this.bins = BINS.map(([x, z]) => {
      const bin = new THREE.Object3D();
      bin.position.set(x, 0, z);
      const ring = new THREE.Mesh(
        new THREE.TorusGeometry(0.26, 0.015, 8, 40),
        new THREE.MeshStandardMaterial({color: 0x1565c0}));
      ring.rotation.x = Math.PI / 2;
      ring.position.y = 0.15;
      const floorDisc = new THREE.Mesh(
        new THREE.CircleGeometry(0.25, 32),
        new THREE.MeshStandardMaterial({color: 0x0d47a1}));
      floorDisc.rotation.x = -Math.PI / 2;
      floorDisc.position.y = 0.002;
      bin.add(ring, floorDisc);
      const state = {count: 0};
      bin.userData.xrblocksDevtools = {tag: 'throw-bin', state};
      this.add(bin);
      const {texture, draw} = numberTexture();
      const label = new THREE.Mesh(new THREE.PlaneGeometry(0.3, 0.2), new THREE.MeshBasicMaterial({map: texture}));
      label.position.set(x, 0.5, z - 0.35);
      label.userData.xrblocksDevtools = {tag: 'bin-label', state: {}};
      this.add(label);
      return {x, z, state, draw};
    });

    this.balls = [];  // {mesh, mode: 'wait' | 'held' | 'fly' | 'rest', ...}
    this.hands = [0, 1].map(() => ({was: false, ignore: false}));
    this.held = null;
    this.samples = [];
    this.nextBallAt = null;
    this.newBall();
  }

  newBall() {
    const mesh = new THREE.Mesh(new THREE.SphereGeometry(R, 20, 14), new THREE.MeshStandardMaterial({color: 0xffb300}));
    mesh.position.set(...REST);
    mesh.userData.xrblocksDevtools = {tag: 'throw-ball', state: {}};
    this.add(mesh);
    this.balls.push({mesh, mode: 'wait'});
  }

  tipOf(i) {
    const j = xb.core.input.hands[i]?.joints?.['index-finger-tip'];
    return j ? j.getWorldPosition(new THREE.Vector3()) : null;
  }

  update() {
    const dt = xb.getDeltaTime();
    this.clock += dt;

    for (const b of this.balls) {
      if (b.mode !== 'fly') continue;
      b.t += dt;
      const x = b.p0.x + b.v0.x * b.t;
      const z = b.p0.z + b.v0.z * b.t;
      const y = b.p0.y + b.v0.y * b.t - 0.5 * G * b.t * b.t;
      if (y < R) {
        b.mode = 'rest';
        b.mesh.position.set(x, R, z);
        for (const bin of this.bins) {
          if (Math.hypot(x - bin.x, z - bin.z) <= 0.25) {
            bin.state.count++;
            bin.draw(bin.state.count);
          }
        }
      } else {
        b.mesh.position.set(x, y, z);
      }
    }

    for (let i = 0; i < 2; i++) {
      const now = !!xb.core.input.controllers[i]?.userData?.selected;
      const h = this.hands[i];
      if (now && !h.was) this.pinchStarted(i);
      if (!now && h.was) this.pinchEnded(i);
      h.was = now;
    }

    if (this.held) {
      const p = this.tipOf(this.held.hand);
      if (p) {
        this.held.ball.mesh.position.copy(p);
        this.samples.push([this.clock, p]);
        if (this.samples.length > 120) this.samples.shift();
      }
    }

    if (this.nextBallAt !== null && this.clock + 1e-6 >= this.nextBallAt) {
      this.nextBallAt = null;
      this.newBall();
    }
  }

  pinchStarted(i) {
    if (this.held) return;
    const ball = this.balls.find((b) => b.mode === 'wait');
    const p = this.tipOf(i);
    if (!ball || !p || p.distanceTo(ball.mesh.position) > 0.1) return;
    ball.mode = 'held';
    this.held = {hand: i, ball};
    this.samples = [];
  }

  pinchEnded(i) {
    if (!this.held || this.held.hand !== i) return;
    const ball = this.held.ball;
    const p = this.tipOf(i) ?? ball.mesh.position.clone();
    this.samples.push([this.clock, p]);
    const [tEnd, pEnd] = this.samples[this.samples.length - 1];
    let start = this.samples[0];
    for (let k = this.samples.length - 1; k >= 0; k--) {
      if (this.samples[k][0] <= tEnd - AVERAGE_OVER + 1e-6) {
        start = this.samples[k];
        break;
      }
    }
    const span = tEnd - start[0];
    const v0 = span > 0 ? pEnd.clone().sub(start[1]).divideScalar(span) : new THREE.Vector3();
    ball.mode = 'fly';
    ball.p0 = pEnd.clone();
    ball.v0 = v0;
    ball.t = 0;
    ball.mesh.position.copy(pEnd);
    this.held = null;
    this.nextBallAt = this.clock + NEXT_BALL_AFTER;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Game());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
