import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Grip pumps: one balloon per controller. While you hold a controller's grip (squeeze), its
 * balloon inflates a little every frame (`onSqueezing`); when you let go it slowly deflates.
 * The ring under each balloon is green while `xb.core.user.isSqueezing(i)` says that controller
 * is squeezing, grey otherwise.
 *
 * The balloons carry XR Blocks DevTools tags (`userData.xrblocksDevtools`): `balloon-left` and
 * `balloon-right`, with state {squeezing, size, squeezes}.
 */
const HANDS = ['left', 'right'];
const MIN_SIZE = 0.05;
const MAX_SIZE = 0.2;
const GROW = 0.002;   // metres of radius per frame while squeezing
const SHRINK = 0.001; // metres of radius per frame after letting go

function handOf(event) {
  return event?.source?.handedness ?? 'none';
}

class Balloon {
  constructor(hand, x) {
    this.hand = hand;
    this.group = new THREE.Group();
    this.group.position.set(x, 1.2, -0.8);
    this.sphere = new THREE.Mesh(
      new THREE.SphereGeometry(1, 32, 16),
      new THREE.MeshStandardMaterial({color: hand === 'left' ? 0x3399ff : 0xff8800}));
    this.sphere.scale.setScalar(MIN_SIZE);
    this.sphere.name = `balloon-${hand}`;
    this.ring = new THREE.Mesh(
      new THREE.TorusGeometry(0.08, 0.01, 8, 32),
      new THREE.MeshStandardMaterial({color: 0x888888}));
    this.ring.rotation.x = Math.PI / 2;
    this.ring.position.y = -0.25;
    this.group.add(this.sphere, this.ring);
    this.squeezedThisFrame = false;
    this.state = {squeezing: false, size: MIN_SIZE, squeezes: 0};
    this.sphere.userData.xrblocksDevtools = {tag: `balloon-${hand}`, state: this.state};
  }

  setSize(size) {
    this.state.size = Math.round(size * 10000) / 10000;
    this.sphere.scale.setScalar(size);
  }
}

class GripPumps extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.balloons = {left: new Balloon('left', -0.25), right: new Balloon('right', 0.25)};
    for (const hand of HANDS) this.add(this.balloons[hand].group);
  }

  onSqueezeStart(event) {
    const balloon = this.balloons[handOf(event)];
    if (balloon) balloon.state.squeezes += 1;
  }

  onSqueezing(event) {
    const balloon = this.balloons[handOf(event)];
    if (!balloon) return;
    balloon.squeezedThisFrame = true;
    balloon.setSize(Math.min(MAX_SIZE, balloon.sphere.scale.x + GROW));
  }

  update() {
    const controllers = xb.core.input.controllers;
    for (const hand of HANDS) {
      const balloon = this.balloons[hand];
      const index = controllers.findIndex((c) => c.inputSource?.handedness === hand);
      const squeezing = index >= 0 && Boolean(xb.core.user.isSqueezing(index));
      balloon.state.squeezing = squeezing;
      balloon.ring.material.color.setHex(squeezing ? 0x33cc55 : 0x888888);
      if (!balloon.squeezedThisFrame) {
        balloon.setSize(Math.max(MIN_SIZE, balloon.sphere.scale.x - SHRINK));
      }
      balloon.squeezedThisFrame = false;
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new GripPumps());
  xb.init(new xb.Options());
});
