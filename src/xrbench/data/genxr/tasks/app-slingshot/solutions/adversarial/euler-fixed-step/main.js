import * as THREE from 'three';
import * as xb from 'xrblocks';

const GRAB_RADIUS = 0.1;  // metres from the fork point where a pinch grabs the pouch
const MIN_PULL = 0.15;  // metres: shorter pulls launch nothing
const SPEED_PER_METRE = 15;  // m/s of launch speed per metre of pull
const GRAVITY = new THREE.Vector3(0, -9.81, 0);
const BALL_RADIUS = 0.03;
const MAX_BALLS = 3;
const HANDS = ['left', 'right'];

/** A ball on the closed-form path P0 + V0 t + g t^2 / 2 until it reaches the floor. */
class Ball {
  constructor(p0, v0) {
    this.p0 = p0.clone();
    this.v0 = v0.clone();
    this.t = 0;
    this.mesh = new THREE.Mesh(
      new THREE.SphereGeometry(BALL_RADIUS, 24, 16),
      new THREE.MeshStandardMaterial({color: 0xe53935, roughness: 0.5}));
    this.state = {landed: false};
    this.mesh.userData.xrblocksDevtools = {tag: 'sling-ball', state: this.state};
    this.mesh.position.copy(this.p0);
  }

  advance() {
    if (this.state.landed) return;
    // A fixed 60 Hz physics step: velocity first, then position.
    const step = 1 / 60;
    if (!this.v) this.v = this.v0.clone();
    this.v.addScaledVector(GRAVITY, step);
    const p = this.mesh.position.clone().addScaledVector(this.v, step);
    if (p.y < BALL_RADIUS) {
      p.y = BALL_RADIUS;
      this.state.landed = true;
    }
    this.mesh.position.copy(p);
  }
}

/** A Y-shaped slingshot whose origin is the fork point. */
function makeSlingshot() {
  const wood = new THREE.MeshStandardMaterial({color: 0x8d6e63, roughness: 0.8});
  const group = new THREE.Group();
  const handle = new THREE.Mesh(new THREE.CylinderGeometry(0.008, 0.008, 0.08, 12), wood);
  handle.position.set(0, -0.07, 0);
  group.add(handle);
  for (const s of [-1, 1]) {
    const prong = new THREE.Mesh(new THREE.CylinderGeometry(0.006, 0.006, 0.05, 10), wood);
    prong.position.set(s * 0.012, -0.02, 0);
    prong.rotation.z = -s * 0.5;
    group.add(prong);
  }
  return group;
}

class Slingshot extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.slingshot = makeSlingshot();
    this.slingState = {hand: null};
    this.slingshot.userData.xrblocksDevtools = {tag: 'slingshot', state: this.slingState};
    this.slingshot.visible = false;
    this.add(this.slingshot);

    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.Float32BufferAttribute(new Float32Array(6), 3));
    this.band = new THREE.Line(geometry, new THREE.LineBasicMaterial({color: 0xffd54f}));
    this.band.frustumCulled = false;
    this.band.userData.xrblocksDevtools = {tag: 'sling-band', state: {}};
    this.band.visible = false;
    this.add(this.band);

    this.holder = null;  // 'left' | 'right' | null
    this.puller = null;
    this.balls = [];
  }

  fingertip(hand) {
    const joint = xb.core.input.hands[HANDS.indexOf(hand)]?.joints?.['index-finger-tip'];
    return joint ? joint.getWorldPosition(new THREE.Vector3()) : null;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (!HANDS.includes(hand)) return;
    if (this.holder === null) {
      this.holder = hand;
      this.slingState.hand = hand;
      this.slingshot.visible = true;
      this.placeSlingshot();
      return;
    }
    if (hand === this.holder || this.puller !== null) return;
    const tip = this.fingertip(hand);
    const fork = this.fingertip(this.holder);
    if (tip && fork && tip.distanceTo(fork) <= GRAB_RADIUS) {
      this.puller = hand;
      this.band.visible = true;
      this.drawBand();
    }
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    if (!HANDS.includes(hand)) return;
    if (hand === this.holder) {
      // Letting go of the slingshot cancels any pull.
      this.holder = null;
      this.puller = null;
      this.slingState.hand = null;
      this.slingshot.visible = false;
      this.band.visible = false;
    } else if (hand === this.puller) {
      this.puller = null;
      this.band.visible = false;
      const pouch = this.fingertip(hand);
      const fork = this.fingertip(this.holder);
      if (pouch && fork && pouch.distanceTo(fork) >= MIN_PULL) {
        this.launch(pouch, fork.clone().sub(pouch).multiplyScalar(SPEED_PER_METRE));
      }
    }
  }

  launch(p0, v0) {
    const ball = new Ball(p0, v0);
    this.add(ball.mesh);
    this.balls.push(ball);
    while (this.balls.length > MAX_BALLS) this.balls.shift().mesh.removeFromParent();
  }

  placeSlingshot() {
    const fork = this.fingertip(this.holder);
    if (fork) this.slingshot.position.copy(fork);
  }

  drawBand() {
    const fork = this.fingertip(this.holder);
    const pouch = this.fingertip(this.puller);
    if (!fork || !pouch) return;
    const pos = this.band.geometry.attributes.position;
    pos.setXYZ(0, fork.x, fork.y, fork.z);
    pos.setXYZ(1, pouch.x, pouch.y, pouch.z);
    pos.needsUpdate = true;
    this.band.geometry.computeBoundingSphere();
  }

  update() {
    const dt = xb.getDeltaTime();
    for (const ball of this.balls) ball.advance(dt);
    if (this.holder) this.placeSlingshot();
    if (this.holder && this.puller) this.drawBand();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Slingshot());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
