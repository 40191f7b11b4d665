import * as THREE from 'three';
import * as xb from 'xrblocks';

const STAND_POINT = new THREE.Vector3(0, 1.1, -0.4);  // where a waiting ball's centre rests
const BALL_RADIUS = 0.04;
const GRAB_RADIUS = 0.1;
const WINDOW = 0.1;  // seconds of hold the throw velocity is averaged over
const GRAVITY = new THREE.Vector3(0, -9.8, 0);
const RESPAWN_DELAY = 1.0;
const BIN_CENTRES = [
  new THREE.Vector3(-0.7, 0, -1.6),
  new THREE.Vector3(0, 0, -2.2),
  new THREE.Vector3(0.7, 0, -1.6),
];
const BIN_RADIUS = 0.25;  // a landing point this close to a bin's centre counts for it
const HANDS = ['left', 'right'];

/** A label: a flat canvas-textured plane that shows one number. */
class CountLabel {
  constructor(position) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = 192;
    this.canvas.height = 128;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.mesh = new THREE.Mesh(
      new THREE.PlaneGeometry(0.3, 0.2),
      new THREE.MeshBasicMaterial({map: this.texture}));
    this.mesh.position.copy(position);
    this.mesh.userData.xrblocksDevtools = {tag: 'bin-label', state: {}};
    this.show(0);
  }

  show(n) {
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = '#1d2b53';
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 96px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(String(n), this.canvas.width / 2, this.canvas.height / 2);
    this.texture.needsUpdate = true;
  }
}

function makeBin(centre) {
  const group = new THREE.Group();
  group.position.copy(centre);
  const wall = new THREE.Mesh(
    new THREE.CylinderGeometry(0.25, 0.22, 0.2, 32, 1, true),
    new THREE.MeshStandardMaterial({color: 0x2e7d32, side: THREE.DoubleSide}));
  wall.position.y = 0.1;
  group.add(wall);
  const state = {count: 0};
  group.userData.xrblocksDevtools = {tag: 'throw-bin', state};
  return {group, state, centre: centre.clone()};
}

function makeStand() {
  const group = new THREE.Group();
  const wood = new THREE.MeshStandardMaterial({color: 0x795548});
  const post = new THREE.Mesh(new THREE.CylinderGeometry(0.02, 0.03, 1.0, 16), wood);
  post.position.set(STAND_POINT.x, 0.55, STAND_POINT.z);
  group.add(post);
  const cup = new THREE.Mesh(new THREE.CylinderGeometry(0.05, 0.03, 0.03, 24), wood);
  cup.position.set(STAND_POINT.x, 1.04, STAND_POINT.z);
  group.add(cup);
  group.userData.xrblocksDevtools = {tag: 'ball-stand', state: {}};
  return group;
}

class ThrowBins extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.add(makeStand());
    this.bins = BIN_CENTRES.map((c) => {
      const bin = makeBin(c);
      this.add(bin.group);
      bin.label = new CountLabel(new THREE.Vector3(c.x, 0.5, c.z - 0.35));
      this.add(bin.label.mesh);
      return bin;
    });
    this.time = 0;
    this.waiting = null;  // the ball on the stand
    this.holder = null;  // 'left' | 'right' while a hand holds the waiting ball
    this.history = [];  // {t, p} of the pinch point while held
    this.flying = [];
    this.respawnAt = null;
    this.spawn();
  }

  spawn() {
    const mesh = new THREE.Mesh(
      new THREE.SphereGeometry(BALL_RADIUS, 24, 16),
      new THREE.MeshStandardMaterial({color: 0xff7043, roughness: 0.4}));
    mesh.position.copy(STAND_POINT);
    mesh.userData.xrblocksDevtools = {tag: 'throw-ball', state: {}};
    this.add(mesh);
    this.waiting = mesh;
  }

  fingertip(hand) {
    const joint = xb.core.input.hands[HANDS.indexOf(hand)]?.joints?.['index-finger-tip'];
    return joint ? joint.getWorldPosition(new THREE.Vector3()) : null;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (!HANDS.includes(hand) || this.holder !== null || !this.waiting) return;
    const tip = this.fingertip(hand);
    if (!tip || tip.distanceTo(this.waiting.position) > GRAB_RADIUS) return;
    this.holder = hand;
    this.waiting.position.copy(tip);
    this.history = [{t: this.time, p: tip.clone()}];
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    if (hand !== this.holder) return;
    const p0 = this.fingertip(hand) || this.waiting.position.clone();
    const t0 = this.time;
    let from = this.history[0];
    for (const sample of this.history) {
      if (sample.t <= t0 - WINDOW + 1e-6) from = sample;
    }
    const v0 = new THREE.Vector3();
    if (t0 - from.t > 1e-6) v0.subVectors(p0, from.p).divideScalar(t0 - from.t);
    this.waiting.position.copy(p0);
    this.flying.push({mesh: this.waiting, p0, v0, t: 0});
    this.waiting = null;
    this.holder = null;
    this.history = [];
    this.respawnAt = t0 + RESPAWN_DELAY;
  }

  land(ball) {
    for (const bin of this.bins) {
      const dx = ball.mesh.position.x - bin.centre.x;
      const dz = ball.mesh.position.z - bin.centre.z;
      if (Math.hypot(dx, dz) <= BIN_RADIUS) {
        bin.state.count += 1;
        bin.label.show(bin.state.count);
      }
    }
  }

  update() {
    const dt = xb.getDeltaTime();
    this.time += dt;
    for (const ball of this.flying) {
      ball.t += dt;
      const t = ball.t;
      const p = ball.p0.clone().addScaledVector(ball.v0, t).addScaledVector(GRAVITY, 0.5 * t * t);
      if (p.y < BALL_RADIUS) {
        p.y = BALL_RADIUS;
        ball.mesh.position.copy(p);
        ball.landed = true;
        this.land(ball);
      } else {
        ball.mesh.position.copy(p);
      }
    }
    this.flying = this.flying.filter((b) => !b.landed);
    if (this.holder) {
      const tip = this.fingertip(this.holder);
      if (tip) {
        this.waiting.position.copy(tip);
        this.history.push({t: this.time, p: tip.clone()});
        while (this.history.length > 2 && this.history[1].t <= this.time - WINDOW - 0.05) this.history.shift();
      }
    }
    if (this.respawnAt !== null && this.time >= this.respawnAt - 1e-6) {
      this.respawnAt = null;
      this.spawn();
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ThrowBins());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
