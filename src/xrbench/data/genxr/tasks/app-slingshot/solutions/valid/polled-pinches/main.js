import * as THREE from 'three';
import * as xb from 'xrblocks';

// A slingshot held in one hand and pulled with the other. Pinches are polled every frame from
// the controllers' select state; balls are plain objects advanced by a closed-form path.

const CONFIG = {
  grabRadius: 0.1,
  minPull: 0.15,
  launchGain: 15,
  gravity: 9.81,
  ballRadius: 0.03,
  maxBalls: 3,
};

const tipOf = (index, out) => {
  const joint = xb.core.input.hands[index]?.joints?.['index-finger-tip'];
  if (!joint) return null;
  joint.updateWorldMatrix(true, false);
  return out.setFromMatrixPosition(joint.matrixWorld);
};

class SlingshotApp extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.5));
    const light = new THREE.DirectionalLight(0xffffff, 1);
    light.position.set(1, 3, 2);
    this.add(light);

    // The slingshot: a handle and two prongs, built around its fork point (the group's origin).
    this.sling = new THREE.Group();
    const mat = new THREE.MeshLambertMaterial({color: 0x6d4c41});
    const handle = new THREE.Mesh(new THREE.BoxGeometry(0.015, 0.07, 0.015), mat);
    handle.position.y = -0.06;
    const left = new THREE.Mesh(new THREE.BoxGeometry(0.01, 0.04, 0.01), mat);
    left.position.set(-0.015, -0.015, 0);
    left.rotation.z = 0.6;
    const right = left.clone();
    right.position.x = 0.015;
    right.rotation.z = -0.6;
    this.sling.add(handle, left, right);
    this.sling.userData.xrblocksDevtools = {tag: 'slingshot', state: {hand: null}};
    this.sling.visible = false;
    this.add(this.sling);

    // The band: a thin cylinder stretched between the fork point and the pouch.
    const bandGeometry = new THREE.CylinderGeometry(0.003, 0.003, 1, 8);
    bandGeometry.translate(0, 0.5, 0);
    this.band = new THREE.Mesh(bandGeometry, new THREE.MeshBasicMaterial({color: 0x212121}));
    this.band.userData.xrblocksDevtools = {tag: 'sling-band', state: {}};
    this.band.visible = false;
    this.add(this.band);

    this.ballGeometry = new THREE.SphereGeometry(CONFIG.ballRadius, 20, 14);
    this.ballMaterial = new THREE.MeshPhongMaterial({color: 0x1e88e5});

    this.wasSelected = [false, false];
    this.holding = -1;  // hand index holding the slingshot
    this.pulling = -1;  // hand index pulling the band
    this.ignored = [false, false];  // pinches that do nothing until released
    this.fork = new THREE.Vector3();
    this.pouch = new THREE.Vector3();
    this.balls = [];
  }

  handName(i) {
    return i === 0 ? 'left' : 'right';
  }

  selected(i) {
    return !!xb.core.input.controllers[i]?.userData?.selected;
  }

  update() {
    const dt = xb.getDeltaTime();
    const now = [this.selected(0), this.selected(1)];
    const tips = [tipOf(0, new THREE.Vector3()), tipOf(1, new THREE.Vector3())];

    // Releases first (with the positions of the last frame), then new pinches.
    for (let i = 0; i < 2; i++) {
      if (!this.wasSelected[i] || now[i]) continue;
      this.ignored[i] = false;
      if (i === this.holding) {
        this.holding = -1;
        this.pulling = -1;
        for (let j = 0; j < 2; j++) if (now[j]) this.ignored[j] = true;
      } else if (i === this.pulling) {
        this.pulling = -1;
        const length = this.pouch.distanceTo(this.fork);
        if (length >= CONFIG.minPull) this.shoot(this.pouch.clone(), this.fork.clone());
      }
    }
    for (let i = 0; i < 2; i++) {
      if (this.wasSelected[i] || !now[i] || !tips[i]) continue;
      if (this.holding < 0) {
        this.holding = i;
      } else if (this.pulling < 0 && i !== this.holding &&
                 tips[i].distanceTo(tips[this.holding]) <= CONFIG.grabRadius) {
        this.pulling = i;
      } else {
        this.ignored[i] = true;
      }
    }
    this.wasSelected = now;

    if (this.holding >= 0 && tips[this.holding]) this.fork.copy(tips[this.holding]);
    if (this.pulling >= 0 && tips[this.pulling]) this.pouch.copy(tips[this.pulling]);

    this.sling.visible = this.holding >= 0;
    this.sling.userData.xrblocksDevtools.state.hand = this.holding >= 0 ? this.handName(this.holding) : null;
    if (this.holding >= 0) this.sling.position.copy(this.fork);

    this.band.visible = this.holding >= 0 && this.pulling >= 0;
    if (this.band.visible) {
      const dir = this.pouch.clone().sub(this.fork);
      const length = Math.max(dir.length(), 1e-4);
      this.band.position.copy(this.fork);
      this.band.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), dir.divideScalar(length));
      this.band.scale.set(1, length, 1);
    }

    for (const ball of this.balls) this.fly(ball, dt);
  }

  shoot(from, to) {
    const mesh = new THREE.Mesh(this.ballGeometry, this.ballMaterial);
    mesh.position.copy(from);
    mesh.userData.xrblocksDevtools = {tag: 'sling-ball', state: {landed: false}};
    this.add(mesh);
    const velocity = to.sub(from).multiplyScalar(CONFIG.launchGain);
    this.balls.push({mesh, start: from, velocity, time: 0});
    if (this.balls.length > CONFIG.maxBalls) {
      const oldest = this.balls.shift();
      this.remove(oldest.mesh);
    }
  }

  fly(ball, dt) {
    const state = ball.mesh.userData.xrblocksDevtools.state;
    if (state.landed) return;
    ball.time += dt;
    const t = ball.time;
    const y = ball.start.y + ball.velocity.y * t - 0.5 * CONFIG.gravity * t * t;
    ball.mesh.position.set(ball.start.x + ball.velocity.x * t, Math.max(y, CONFIG.ballRadius),
                           ball.start.z + ball.velocity.z * t);
    if (y < CONFIG.ballRadius) state.landed = true;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new SlingshotApp());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
