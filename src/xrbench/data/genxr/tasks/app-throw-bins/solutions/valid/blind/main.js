import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Throw balls into bins: pinch the ball on the stand to pick it up, swing and
 * release to throw it; it flies under gravity and lands on the floor. Each of
 * the three bins counts the balls that land in it.
 */

const STAND_POINT = new THREE.Vector3(0, 1.1, -0.4); // centre of the waiting ball.
const BALL_RADIUS = 0.04;
const GRAB_DISTANCE = 0.1;
const VELOCITY_WINDOW = 0.1; // seconds of hold used for the throw velocity.
const GRAVITY = new THREE.Vector3(0, -9.8, 0);
const LAND_HEIGHT = 0.04; // a landed ball's centre height.
const RESPAWN_DELAY = 1.0; // seconds after a throw.
const TIME_EPSILON = 1e-6;

const BIN_CENTERS = [
  new THREE.Vector3(-0.7, 0, -1.6),
  new THREE.Vector3(0, 0, -2.2),
  new THREE.Vector3(0.7, 0, -1.6),
];
const BIN_RADIUS = 0.22; // drawn radius of the tube.
const BIN_HEIGHT = 0.25;
const BIN_CATCH_RADIUS = 0.25; // a landing point this close to the centre counts.
const LABEL_WIDTH = 0.3;
const LABEL_HEIGHT = 0.2;
const HANDS = {left: 0, right: 1};

const BALL_COLORS = [0xff7043, 0x42a5f5, 0x66bb6a, 0xffca28, 0xab47bc];

const _tip = new THREE.Vector3();

class ThrowBins extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const sun = new THREE.DirectionalLight(0xffffff, 1.0);
    sun.position.set(1, 3, 2);
    this.add(sun);

    this.time = 0; // app frame time: the sum of xb.getDeltaTime().
    this.createStand();
    this.createBins();

    this.ballGeometry = new THREE.SphereGeometry(BALL_RADIUS, 24, 16);
    this.ballCount = 0;
    this.balls = []; // every ball: {mesh, state: 'waiting'|'held'|'flying'|'landed', ...}
    this.waiting = null; // the ball waiting on the stand
    this.held = null; // {ball, hand, history: [{time, pos}]}
    this.respawnAt = null; // time when a new ball appears on the stand
    this.spawnBall();
  }

  createStand() {
    this.stand = new THREE.Group();
    this.stand.name = 'ball-stand';
    this.stand.userData.xrblocksDevtools = {tag: 'ball-stand', state: {}};
    const material = new THREE.MeshStandardMaterial({color: 0x8d6e63, roughness: 0.7});
    // A pole from the floor up to just under the ball, with a small cup.
    const poleHeight = 1.0;
    const pole = new THREE.Mesh(
      new THREE.CylinderGeometry(0.012, 0.02, poleHeight, 16),
      material
    );
    pole.position.set(STAND_POINT.x, poleHeight / 2, STAND_POINT.z);
    const base = new THREE.Mesh(new THREE.CylinderGeometry(0.1, 0.1, 0.02, 24), material);
    base.position.set(STAND_POINT.x, 0.01, STAND_POINT.z);
    // The cup: its top at y = 1.055, below the ball's bottom (1.06).
    const cupHeight = 0.055;
    const cup = new THREE.Mesh(
      new THREE.CylinderGeometry(0.035, 0.015, cupHeight, 20, 1, true),
      new THREE.MeshStandardMaterial({
        color: 0xbcaaa4,
        roughness: 0.6,
        side: THREE.DoubleSide,
      })
    );
    cup.position.set(STAND_POINT.x, 1.0 + cupHeight / 2, STAND_POINT.z);
    for (const mesh of [pole, base, cup]) this.stand.add(mesh);
    this.add(this.stand);
  }

  createBins() {
    this.bins = BIN_CENTERS.map((centre, i) => {
      const bin = new THREE.Group();
      bin.name = `throw-bin-${i + 1}`;
      bin.position.copy(centre);
      bin.userData.xrblocksDevtools = {tag: 'throw-bin', state: {count: 0}};
      const wall = new THREE.Mesh(
        new THREE.CylinderGeometry(BIN_RADIUS, BIN_RADIUS * 0.9, BIN_HEIGHT, 32, 1, true),
        new THREE.MeshStandardMaterial({
          color: [0x26a69a, 0xef5350, 0x5c6bc0][i],
          roughness: 0.6,
          side: THREE.DoubleSide,
        })
      );
      wall.position.y = BIN_HEIGHT / 2;
      const bottom = new THREE.Mesh(
        new THREE.CircleGeometry(BIN_RADIUS * 0.9, 32),
        new THREE.MeshStandardMaterial({color: 0x37474f, roughness: 0.9})
      );
      bottom.rotation.x = -Math.PI / 2;
      bottom.position.y = 0.002;
      bin.add(wall, bottom);
      this.add(bin);

      // Its count label: 35 cm behind, 50 cm up, facing +z.
      const canvas = document.createElement('canvas');
      canvas.width = 192;
      canvas.height = 128;
      const texture = new THREE.CanvasTexture(canvas);
      texture.colorSpace = THREE.SRGBColorSpace;
      const label = new THREE.Mesh(
        new THREE.PlaneGeometry(LABEL_WIDTH, LABEL_HEIGHT),
        new THREE.MeshBasicMaterial({map: texture})
      );
      label.name = `bin-label-${i + 1}`;
      label.position.set(centre.x, 0.5, centre.z - 0.35);
      label.userData.xrblocksDevtools = {tag: 'bin-label', state: {count: 0}};
      this.add(label);

      const entry = {bin, label, canvas, texture, centre, count: 0};
      this.drawLabel(entry);
      return entry;
    });
  }

  drawLabel(entry) {
    const ctx = entry.canvas.getContext('2d');
    if (ctx) {
      const {width, height} = entry.canvas;
      ctx.fillStyle = '#1f2a30';
      ctx.fillRect(0, 0, width, height);
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 96px sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(String(entry.count), width / 2, height / 2 + 4);
    }
    entry.texture.needsUpdate = true;
    entry.bin.userData.xrblocksDevtools.state.count = entry.count;
    entry.label.userData.xrblocksDevtools.state.count = entry.count;
  }

  spawnBall() {
    const mesh = new THREE.Mesh(
      this.ballGeometry,
      new THREE.MeshStandardMaterial({
        color: BALL_COLORS[this.ballCount % BALL_COLORS.length],
        roughness: 0.4,
      })
    );
    this.ballCount++;
    mesh.name = `throw-ball-${this.ballCount}`;
    mesh.position.copy(STAND_POINT);
    mesh.userData.xrblocksDevtools = {tag: 'throw-ball', state: {phase: 'waiting'}};
    this.add(mesh);
    const ball = {mesh, phase: 'waiting'};
    this.balls.push(ball);
    this.waiting = ball;
    this.respawnAt = null;
  }

  setPhase(ball, phase) {
    ball.phase = phase;
    ball.mesh.userData.xrblocksDevtools.state.phase = phase;
  }

  /** World position of a hand's index fingertip into target; false if unknown. */
  pinchPoint(handIndex, target) {
    const hand = xb.core?.input?.hands?.[handIndex];
    const joint = hand?.joints?.['index-finger-tip'];
    if (!joint) return false;
    joint.updateWorldMatrix(true, false);
    joint.getWorldPosition(target);
    return true;
  }

  handOf(event) {
    const handedness = event?.source?.handedness;
    if (handedness in HANDS) return handedness;
    const controllers = xb.core?.input?.controllers || [];
    const controller = event?.source?.controller ?? event?.target;
    if (controller && controller === controllers[0]) return 'left';
    if (controller && controller === controllers[1]) return 'right';
    return null;
  }

  onSelectStart(event) {
    if (this.held || !this.waiting) return;
    const hand = this.handOf(event);
    if (!hand) return;
    if (!this.pinchPoint(HANDS[hand], _tip)) return;
    if (_tip.distanceTo(this.waiting.mesh.position) > GRAB_DISTANCE) return;
    const ball = this.waiting;
    this.waiting = null;
    this.setPhase(ball, 'held');
    ball.mesh.position.copy(_tip);
    this.held = {ball, hand, history: [{time: this.time, pos: _tip.clone()}]};
  }

  onSelectEnd(event) {
    if (!this.held) return;
    const hand = this.handOf(event);
    if (hand !== this.held.hand) return; // the other hand changes nothing
    this.release();
  }

  release() {
    const {ball, hand, history} = this.held;
    this.held = null;
    const now = this.time;
    const p0 = new THREE.Vector3();
    if (!this.pinchPoint(HANDS[hand], p0)) p0.copy(ball.mesh.position);
    // Make sure the release frame is the last sample.
    const last = history[history.length - 1];
    if (Math.abs(last.time - now) < TIME_EPSILON) last.pos.copy(p0);
    else history.push({time: now, pos: p0.clone()});

    // The last frame that began at least 0.1 s before the release (else the grab frame).
    let base = history[0];
    for (let k = history.length - 1; k >= 0; k--) {
      if (history[k].time <= now - VELOCITY_WINDOW + TIME_EPSILON) {
        base = history[k];
        break;
      }
    }
    const dt = now - base.time;
    const v0 = new THREE.Vector3();
    if (dt > TIME_EPSILON) v0.subVectors(p0, base.pos).divideScalar(dt);

    ball.p0 = p0;
    ball.v0 = v0;
    ball.releaseTime = now;
    ball.mesh.position.copy(p0);
    this.setPhase(ball, 'flying');
    this.respawnAt = now + RESPAWN_DELAY;
    if (p0.y < LAND_HEIGHT) this.land(ball, p0.x, p0.z);
  }

  land(ball, x, z) {
    this.setPhase(ball, 'landed');
    ball.mesh.position.set(x, LAND_HEIGHT, z);
    ball.mesh.userData.xrblocksDevtools.state.landed = [x, z];
    for (const entry of this.bins) {
      const dx = x - entry.centre.x;
      const dz = z - entry.centre.z;
      if (Math.hypot(dx, dz) <= BIN_CATCH_RADIUS) {
        entry.count++;
        this.drawLabel(entry);
        ball.mesh.userData.xrblocksDevtools.state.bin = this.bins.indexOf(entry);
        break;
      }
    }
  }

  update() {
    const dt = xb.getDeltaTime();
    if (Number.isFinite(dt) && dt > 0) this.time += dt;
    const now = this.time;

    // The held ball sits at the holding hand's pinch point.
    if (this.held) {
      if (this.pinchPoint(HANDS[this.held.hand], _tip)) {
        this.held.ball.mesh.position.copy(_tip);
        this.held.history.push({time: now, pos: _tip.clone()});
        // Keep only what the velocity window can need (plus the grab frame).
        const h = this.held.history;
        while (h.length > 3 && h[2].time <= now - VELOCITY_WINDOW - 0.5) h.splice(1, 1);
      }
    }

    // Flying balls follow the exact ballistic path.
    for (const ball of this.balls) {
      if (ball.phase !== 'flying') continue;
      const t = now - ball.releaseTime;
      const x = ball.p0.x + ball.v0.x * t;
      const y = ball.p0.y + ball.v0.y * t + 0.5 * GRAVITY.y * t * t;
      const z = ball.p0.z + ball.v0.z * t;
      if (y < LAND_HEIGHT) {
        this.land(ball, x, z);
      } else {
        ball.mesh.position.set(x, y, z);
      }
    }

    // A new ball on the stand 1 s after a throw.
    if (
      !this.waiting &&
      !this.held &&
      this.respawnAt !== null &&
      now >= this.respawnAt - TIME_EPSILON
    ) {
      this.spawnBall();
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new ThrowBins());
  xb.init(options);
});
