import * as THREE from 'three';
import * as xb from 'xrblocks';

const SHOW_BELOW = 35; // degrees from straight up: a palm this level turns "up"
const HIDE_ABOVE = 55; // degrees from straight up: a palm tilted further turns "down"
const LIFT = 0.1; // metres from the palm centre up to the middle button
const SPACING = 0.06; // metres between button centres
const SIZE = 0.04; // button side
const COLORS = [
  {name: 'red', hex: 0xff0000},
  {name: 'green', hex: 0x00ff00},
  {name: 'blue', hex: 0x0000ff},
];
const WHITE = 0xffffff;

/**
 * A three-button menu floating above whichever palm turned up first; the other hand's index
 * fingertip pokes the buttons to colour the cube.
 */
class PalmMenu extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.cubeState = {color: 'white'};
    this.cube = new THREE.Mesh(
      new THREE.BoxGeometry(0.2, 0.2, 0.2),
      new THREE.MeshStandardMaterial({color: WHITE}));
    this.cube.position.set(0, 1.0, -1.0);
    this.cube.userData.xrblocksDevtools = {tag: 'color-cube', state: this.cubeState};
    this.add(this.cube);

    this.menuState = {shown: false, hand: null};
    this.menu = new THREE.Group();
    this.menu.visible = false;
    this.menu.userData.xrblocksDevtools = {tag: 'palm-menu', state: this.menuState};
    this.buttons = COLORS.map((c, i) => {
      const mesh = new THREE.Mesh(
        new THREE.BoxGeometry(SIZE, SIZE, SIZE),
        new THREE.MeshStandardMaterial({color: c.hex}));
      mesh.position.set((i - 1) * SPACING, 0, 0);
      mesh.userData.xrblocksDevtools = {tag: `menu-button-${c.name}`, state: {}};
      this.menu.add(mesh);
      return {mesh, color: c, box: new THREE.Box3(), inside: [false, false]};
    });
    this.add(this.menu);

    // Per hand: whether its palm counts as up, and the frame count when it turned up.
    this.up = [false, false];
    this.upSince = [0, 0];
    this.tick = 0;
    this.owner = -1;
    this.v = {
      wrist: new THREE.Vector3(), index: new THREE.Vector3(), pinky: new THREE.Vector3(),
      middle: new THREE.Vector3(), a: new THREE.Vector3(), b: new THREE.Vector3(),
      normal: new THREE.Vector3(), heading: new THREE.Vector3(), tip: new THREE.Vector3(),
    };
    this.palmCentres = [new THREE.Vector3(), new THREE.Vector3()];
  }

  /** Tilt of hand `h`'s palm from straight up in degrees (null when the hand is not tracked). */
  palmTilt(h) {
    const joints = xb.core.input.hands[h]?.joints;
    const w = joints?.['wrist'];
    const i = joints?.['index-finger-phalanx-proximal'];
    const p = joints?.['pinky-finger-phalanx-proximal'];
    const m = joints?.['middle-finger-phalanx-proximal'];
    if (!w || !i || !p || !m) return null;
    const v = this.v;
    w.getWorldPosition(v.wrist);
    i.getWorldPosition(v.index);
    p.getWorldPosition(v.pinky);
    m.getWorldPosition(v.middle);
    v.a.subVectors(v.index, v.wrist);
    v.b.subVectors(v.pinky, v.wrist);
    v.normal.crossVectors(v.a, v.b);
    if (h === 0) v.normal.negate(); // hands[0] is the left hand
    if (v.normal.lengthSq() < 1e-12) return null;
    v.normal.normalize();
    this.palmCentres[h].addVectors(v.wrist, v.middle).multiplyScalar(0.5);
    return THREE.MathUtils.radToDeg(Math.acos(THREE.MathUtils.clamp(v.normal.y, -1, 1)));
  }

  update() {
    this.tick++;
    for (let h = 0; h < 2; h++) {
      const tilt = this.palmTilt(h);
      if (tilt === null) {
        this.up[h] = false;
      } else if (!this.up[h] && tilt <= SHOW_BELOW) {
        this.up[h] = true;
        this.upSince[h] = this.tick;
      } else if (this.up[h] && tilt > HIDE_ABOVE) {
        this.up[h] = false;
      }
    }
    // The hand that has been up longest holds the menu.
    let owner = -1;
    for (let h = 0; h < 2; h++) {
      if (this.up[h] && (owner < 0 || this.upSince[h] < this.upSince[owner])) owner = h;
    }
    this.owner = owner;
    this.menu.visible = owner >= 0;
    this.menuState.shown = owner >= 0;
    this.menuState.hand = owner < 0 ? null : owner === 0 ? 'left' : 'right';
    if (owner >= 0) this.placeMenu(owner);
    this.checkPokes();
  }

  placeMenu(h) {
    const camera = xb.core.camera;
    camera.getWorldDirection(this.v.heading);
    const yaw = Math.atan2(-this.v.heading.x, -this.v.heading.z);
    this.menu.position.copy(this.palmCentres[h]);
    this.menu.position.y += LIFT;
    this.menu.rotation.set(0, yaw, 0);
    this.menu.updateMatrixWorld(true);
  }

  checkPokes() {
    const hands = xb.core.input.hands;
    for (const b of this.buttons) b.box.setFromObject(b.mesh);
    for (let h = 0; h < 2; h++) {
      const tip = hands[h]?.joints?.['index-finger-tip'];
      if (tip) tip.getWorldPosition(this.v.tip);
      for (const b of this.buttons) {
        const inside = !!tip && this.owner >= 0 && h !== this.owner && b.box.containsPoint(this.v.tip);
        if (inside && !b.inside[h]) this.press(b);
        b.inside[h] = inside;
      }
    }
  }

  press(b) {
    const next = this.cubeState.color === b.color.name ? null : b.color;
    this.cubeState.color = next ? next.name : 'white';
    this.cube.material.color.setHex(next ? next.hex : WHITE);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PalmMenu());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
