import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A two-handed slingshot, used with tracked hands.
 *
 * - A pinch that starts while no hand holds the slingshot takes it: its fork
 *   point follows that hand's pinch point (index fingertip) every frame.
 * - A pinch of the other hand that starts within 10 cm of the fork point grabs
 *   the band's pouch, which then follows that hand's pinch point.
 * - Releasing the pouch after a pull of at least 15 cm launches a ball from the
 *   pouch towards the fork point with V0 = 15 (F - P0); it flies under gravity
 *   along P(t) = P0 + V0 t + 1/2 g t^2 and rests on the floor once it lands.
 * - Releasing the slingshot while the band is pulled cancels the shot.
 */

const GRAB_RADIUS = 0.1; // m: pouch grab distance from the fork point.
const MIN_PULL = 0.15; // m: shortest pull that launches a ball.
const SPEED_PER_METRE = 15; // (m/s) per metre of pull.
const BALL_RADIUS = 0.03; // m.
const MAX_BALLS = 3;
const GRAVITY = new THREE.Vector3(0, -9.81, 0);

class SlingshotApp extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    /** Hand holding the slingshot: 'left', 'right' or null. */
    this.holder = null;
    /** Hand pulling the band: 'left', 'right' or null. */
    this.puller = null;
    /** Launched balls, oldest first. */
    this.balls = [];

    this.tmpFork = new THREE.Vector3();
    this.tmpPouch = new THREE.Vector3();

    this.slingshot = this.createSlingshot();
    this.add(this.slingshot);

    this.band = this.createBand();
    this.add(this.band);

    this.ballGeometry = new THREE.SphereGeometry(BALL_RADIUS, 24, 16);
    this.ballMaterial = new THREE.MeshStandardMaterial({
      color: 0xff5533,
      roughness: 0.5,
    });
  }

  /** A small Y-shaped slingshot whose origin is the fork point. */
  createSlingshot() {
    const slingshot = new THREE.Group();
    slingshot.name = 'Slingshot';
    const wood = new THREE.MeshStandardMaterial({
      color: 0x8b5a2b,
      roughness: 0.8,
    });
    const radius = 0.006;

    // Handle: below the fork, from y = -0.10 to y = -0.035.
    const handle = new THREE.Mesh(
      new THREE.CylinderGeometry(radius, radius, 0.065, 12),
      wood
    );
    handle.position.set(0, -0.0675, 0);
    handle.name = 'Slingshot handle';
    slingshot.add(handle);

    // Two prongs from the crotch (0, -0.035, 0) up to (+-0.025, 0.01, 0).
    const crotch = new THREE.Vector3(0, -0.035, 0);
    for (const side of [-1, 1]) {
      const tip = new THREE.Vector3(side * 0.025, 0.01, 0);
      const length = tip.distanceTo(crotch);
      const prong = new THREE.Mesh(
        new THREE.CylinderGeometry(radius * 0.8, radius, length, 12),
        wood
      );
      prong.position.copy(crotch).add(tip).multiplyScalar(0.5);
      prong.quaternion.setFromUnitVectors(
        new THREE.Vector3(0, 1, 0),
        tip.clone().sub(crotch).normalize()
      );
      prong.name = side < 0 ? 'Slingshot left prong' : 'Slingshot right prong';
      slingshot.add(prong);
    }

    // Small knot marking the fork point, where the band is tied.
    const knot = new THREE.Mesh(
      new THREE.SphereGeometry(0.006, 12, 8),
      new THREE.MeshStandardMaterial({color: 0x333333})
    );
    knot.name = 'Slingshot fork point';
    slingshot.add(knot);

    slingshot.visible = false;
    slingshot.userData.xrblocksDevtools = {tag: 'slingshot', state: {hand: null}};
    return slingshot;
  }

  /** The band: a straight line whose two points are its ends. */
  createBand() {
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute(
      'position',
      new THREE.BufferAttribute(new Float32Array(6), 3)
    );
    const band = new THREE.Line(
      geometry,
      new THREE.LineBasicMaterial({color: 0xffd23f})
    );
    band.name = 'Slingshot band';
    band.frustumCulled = false;
    band.visible = false;
    band.userData.xrblocksDevtools = {tag: 'sling-band', state: {}};
    return band;
  }

  /** Which hand ('left' / 'right') an event comes from, or null. */
  handOfEvent(event) {
    const source = event?.source;
    const controller = source?.controller ?? event?.target;
    const controllers = xb.core.input?.controllers ?? [];
    let index = controllers.indexOf(controller);
    if (index < 0 && controller?.userData?.id !== undefined) {
      index = controller.userData.id;
    }
    if (index !== 0 && index !== 1) return null;
    const handedness = source?.handedness;
    if (handedness === 'left' || handedness === 'right') {
      return {name: handedness, index};
    }
    return {name: index === 0 ? 'left' : 'right', index};
  }

  /** World position of a hand's index fingertip (its pinch point). */
  getPinchPoint(handIndex, target) {
    const hand = xb.core.input?.hands?.[handIndex];
    const joint = hand?.joints?.['index-finger-tip'];
    if (!joint) return null;
    joint.updateWorldMatrix(true, false);
    return joint.getWorldPosition(target);
  }

  /** Converts a world position into this script's local frame. */
  toLocal(worldPosition, target) {
    target.copy(worldPosition);
    this.updateWorldMatrix(true, false);
    return this.worldToLocal(target);
  }

  setHolder(hand) {
    this.holder = hand;
    this.slingshot.visible = hand !== null;
    this.slingshot.userData.xrblocksDevtools.state.hand = hand ? hand.name : null;
  }

  /** Puts the slingshot at the holding hand's pinch point. */
  updateSlingshot() {
    if (!this.holder) return;
    const fork = this.getPinchPoint(this.holder.index, this.tmpFork);
    if (!fork) return;
    this.toLocal(fork, this.slingshot.position);
    this.slingshot.updateMatrixWorld(true);
  }

  /** Stretches the band from the fork point to the pulling hand's pinch point. */
  updateBand() {
    if (!this.holder || !this.puller) return;
    const fork = this.getPinchPoint(this.holder.index, this.tmpFork);
    const pouch = this.getPinchPoint(this.puller.index, this.tmpPouch);
    if (!fork || !pouch) return;
    const localFork = this.toLocal(fork, new THREE.Vector3());
    const localPouch = this.toLocal(pouch, new THREE.Vector3());
    const positions = this.band.geometry.attributes.position;
    positions.setXYZ(0, localFork.x, localFork.y, localFork.z);
    positions.setXYZ(1, localPouch.x, localPouch.y, localPouch.z);
    positions.needsUpdate = true;
    this.band.geometry.computeBoundingBox();
    this.band.geometry.computeBoundingSphere();
    this.band.updateMatrixWorld(true);
  }

  onSelectStart(event) {
    const hand = this.handOfEvent(event);
    if (!hand) return;
    if (this.holder === null) {
      // Any pinch while no hand holds the slingshot takes it.
      this.setHolder(hand);
      this.updateSlingshot();
      return;
    }
    if (hand.name === this.holder.name || this.puller !== null) return;
    // The other hand: grab the pouch only if the pinch starts near the fork.
    const fork = this.getPinchPoint(this.holder.index, this.tmpFork);
    const pinch = this.getPinchPoint(hand.index, this.tmpPouch);
    if (!fork || !pinch) return;
    this.updateSlingshot();
    if (pinch.distanceTo(fork) <= GRAB_RADIUS) {
      this.puller = hand;
      this.band.visible = true;
      this.updateBand();
    }
  }

  onSelectEnd(event) {
    const hand = this.handOfEvent(event);
    if (!hand) return;
    if (this.holder && hand.name === this.holder.name) {
      // The slingshot disappears; a pulled band is cancelled without a shot.
      this.puller = null;
      this.band.visible = false;
      this.setHolder(null);
      return;
    }
    if (this.puller && hand.name === this.puller.name) {
      const fork = this.getPinchPoint(this.holder.index, new THREE.Vector3());
      const pouch = this.getPinchPoint(this.puller.index, new THREE.Vector3());
      this.puller = null;
      this.band.visible = false;
      this.updateSlingshot();
      if (!fork || !pouch) return;
      if (fork.distanceTo(pouch) >= MIN_PULL) {
        this.launchBall(pouch, fork);
      }
    }
  }

  /** Launches a ball from the pouch P0 towards the fork point F. */
  launchBall(p0, fork) {
    while (this.balls.length >= MAX_BALLS) {
      const oldest = this.balls.shift();
      oldest.mesh.removeFromParent();
    }
    const mesh = new THREE.Mesh(this.ballGeometry, this.ballMaterial);
    mesh.name = 'Slingshot ball';
    mesh.userData.xrblocksDevtools = {tag: 'sling-ball', state: {landed: false}};
    const ball = {
      mesh,
      p0: p0.clone(),
      v0: fork.clone().sub(p0).multiplyScalar(SPEED_PER_METRE),
      t: 0,
      landed: false,
    };
    this.balls.push(ball);
    this.add(mesh);
    this.placeBall(ball);
  }

  /** Puts a flying ball at P(t), landing it once it would sink below 3 cm. */
  placeBall(ball) {
    if (ball.landed) return;
    const t = ball.t;
    const p = ball.p0
      .clone()
      .addScaledVector(ball.v0, t)
      .addScaledVector(GRAVITY, 0.5 * t * t);
    if (p.y < BALL_RADIUS) {
      p.y = BALL_RADIUS;
      ball.landed = true;
      ball.mesh.userData.xrblocksDevtools.state.landed = true;
    }
    this.toLocal(p, ball.mesh.position);
    ball.mesh.updateMatrixWorld(true);
  }

  update() {
    const dt = xb.getDeltaTime();
    for (const ball of this.balls) {
      if (ball.landed) continue;
      ball.t += dt;
      this.placeBall(ball);
    }
    this.updateSlingshot();
    this.updateBand();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new SlingshotApp());
  xb.init(options);
});
