import * as THREE from 'three';
import * as xb from 'xrblocks';

const UP_AT = THREE.MathUtils.degToRad(35);
const DOWN_PAST = THREE.MathUtils.degToRad(55);
const PALETTE = [
  ['red', '#ff0000'],
  ['green', '#00ff00'],
  ['blue', '#0000ff'],
];
const HALF = 0.02; // half a button's side

const WORLD_UP = new THREE.Vector3(0, 1, 0);

/** Tracks one hand: its palm frame and whether it counts as palm up. */
class PalmWatcher {
  constructor(index) {
    this.index = index; // 0 = left, 1 = right (xb.core.input.hands)
    this.palmUp = false;
    this.centre = new THREE.Vector3();
    this.tip = new THREE.Vector3();
    this.hasTip = false;
    this._p = [0, 1, 2, 3].map(() => new THREE.Vector3());
  }

  joint(name) {
    const hand = xb.core.input.hands[this.index];
    return hand && hand.joints ? hand.joints[name] : undefined;
  }

  /** Reads the joints; returns true when this hand just turned palm up. */
  sample() {
    const names = ['wrist', 'index-finger-phalanx-proximal', 'pinky-finger-phalanx-proximal',
      'middle-finger-phalanx-proximal'];
    const joints = names.map((n) => this.joint(n));
    const tip = this.joint('index-finger-tip');
    this.hasTip = !!tip;
    if (tip) tip.getWorldPosition(this.tip);
    if (joints.some((j) => !j)) {
      this.palmUp = false;
      return false;
    }
    const [wrist, index, pinky, middle] = joints.map((j, k) => j.getWorldPosition(this._p[k]));
    const normal = new THREE.Vector3().crossVectors(
      new THREE.Vector3().subVectors(index, wrist),
      new THREE.Vector3().subVectors(pinky, wrist));
    if (this.index === 0) normal.multiplyScalar(-1);
    normal.normalize();
    this.centre.lerpVectors(wrist, middle, 0.5);
    const tilt = normal.angleTo(WORLD_UP);
    const was = this.palmUp;
    if (was) this.palmUp = !(tilt > DOWN_PAST);
    else this.palmUp = tilt <= UP_AT;
    return this.palmUp && !was;
  }
}

class PaletteApp extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.cube = new THREE.Mesh(
      new THREE.BoxGeometry(0.2, 0.2, 0.2),
      new THREE.MeshPhongMaterial({color: '#ffffff'}));
    this.cube.position.set(0, 1.0, -1.0);
    this.cube.userData.xrblocksDevtools = {tag: 'color-cube', state: {color: null}};
    this.add(this.cube);
    this.current = null; // name of the cube's colour, null for white

    this.menu = new THREE.Object3D();
    this.menu.userData.xrblocksDevtools = {tag: 'palm-menu', state: {}};
    this.menu.visible = false;
    this.keys = PALETTE.map(([name, css], k) => {
      const key = new THREE.Mesh(
        new THREE.BoxGeometry(2 * HALF, 2 * HALF, 2 * HALF),
        new THREE.MeshPhongMaterial({color: css}));
      key.position.x = 0.06 * (k - 1);
      key.userData.xrblocksDevtools = {tag: `menu-button-${name}`, state: {}};
      this.menu.add(key);
      return {key, name, css, touching: false};
    });
    this.add(this.menu);

    this.watchers = [new PalmWatcher(0), new PalmWatcher(1)];
    this.order = []; // palm-up hands, the earliest first
    this.local = new THREE.Vector3();
    this.forward = new THREE.Vector3();
  }

  update() {
    for (const w of this.watchers) {
      const turnedUp = w.sample();
      if (turnedUp) this.order.push(w);
    }
    this.order = this.order.filter((w) => w.palmUp);
    const holder = this.order[0] || null;

    this.menu.visible = !!holder;
    if (holder) {
      xb.core.camera.getWorldDirection(this.forward);
      this.menu.position.copy(holder.centre).addScaledVector(WORLD_UP, 0.1);
      this.menu.quaternion.setFromAxisAngle(WORLD_UP, Math.atan2(-this.forward.x, -this.forward.z));
      this.menu.updateMatrixWorld(true);
    }

    const poker = holder ? this.watchers.find((w) => w !== holder) : null;
    for (const k of this.keys) {
      let inside = false;
      if (poker && poker.hasTip) {
        k.key.worldToLocal(this.local.copy(poker.tip));
        inside = Math.abs(this.local.x) <= HALF && Math.abs(this.local.y) <= HALF &&
          Math.abs(this.local.z) <= HALF;
      }
      if (inside && !k.touching) this.pick(k);
      k.touching = inside;
    }
  }

  pick(k) {
    this.current = this.current === k.name ? null : k.name;
    this.cube.material.color.set(this.current ? k.css : '#ffffff');
    this.cube.userData.xrblocksDevtools.state.color = this.current;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new PaletteApp());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
