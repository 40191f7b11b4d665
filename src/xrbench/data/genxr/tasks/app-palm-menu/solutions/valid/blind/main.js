import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Palm menu: turning a hand palm up shows a row of three colour buttons just
 * above that palm; the index finger of the other hand pokes them to colour a
 * cube (poking the cube's current colour turns it back to white).
 */

const CUBE_SIZE = 0.2;
const CUBE_CENTER = new THREE.Vector3(0, 1.0, -1.0);
const WHITE = 0xffffff;

const BUTTON_SIZE = 0.04;
const BUTTON_SPACING = 0.06; // centre to centre.
const MENU_HEIGHT = 0.1; // green button's centre above the palm centre.
const BUTTONS = [
  {name: 'red', color: 0xff0000, x: -BUTTON_SPACING},
  {name: 'green', color: 0x00ff00, x: 0},
  {name: 'blue', color: 0x0000ff, x: BUTTON_SPACING},
];

const PALM_UP_ENTER = THREE.MathUtils.degToRad(35); // tilt <= this: palm up.
const PALM_UP_EXIT = THREE.MathUtils.degToRad(55); // tilt > this: no longer.

const HANDS = ['left', 'right']; // xb.core.input.hands[0] / [1].

const _wrist = new THREE.Vector3();
const _index = new THREE.Vector3();
const _pinky = new THREE.Vector3();
const _middle = new THREE.Vector3();
const _a = new THREE.Vector3();
const _b = new THREE.Vector3();
const _normal = new THREE.Vector3();
const _up = new THREE.Vector3(0, 1, 0);
const _right = new THREE.Vector3();
const _tip = new THREE.Vector3();
const _local = new THREE.Vector3();
const _inverse = new THREE.Matrix4();

class PalmMenu extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const sun = new THREE.DirectionalLight(0xffffff, 1.0);
    sun.position.set(1, 3, 2);
    this.add(sun);

    // The cube to colour.
    this.cube = new THREE.Mesh(
      new THREE.BoxGeometry(CUBE_SIZE, CUBE_SIZE, CUBE_SIZE),
      new THREE.MeshStandardMaterial({color: WHITE, roughness: 0.6})
    );
    this.cube.name = 'color-cube';
    this.cube.position.copy(CUBE_CENTER);
    this.cube.userData.xrblocksDevtools = {
      tag: 'color-cube',
      state: {color: '#ffffff'},
    };
    this.add(this.cube);
    this.cubeColor = WHITE;

    // The menu: a group holding the three buttons in a row along its local x.
    this.menu = new THREE.Group();
    this.menu.name = 'palm-menu';
    this.menu.visible = false;
    this.menu.userData.xrblocksDevtools = {
      tag: 'palm-menu',
      state: {hand: null},
    };
    this.add(this.menu);

    const geometry = new THREE.BoxGeometry(BUTTON_SIZE, BUTTON_SIZE, BUTTON_SIZE);
    this.buttons = BUTTONS.map((spec) => {
      const mesh = new THREE.Mesh(
        geometry,
        new THREE.MeshStandardMaterial({color: spec.color, roughness: 0.5})
      );
      mesh.name = `menu-button-${spec.name}`;
      mesh.position.set(spec.x, 0, 0);
      mesh.userData.color = spec.color;
      mesh.userData.xrblocksDevtools = {tag: `menu-button-${spec.name}`, state: {}};
      this.menu.add(mesh);
      return mesh;
    });

    // Per hand: palm-up state (with hysteresis) and since when.
    this.palmUp = [false, false];
    this.upSince = [0, 0]; // frame number when it became palm up.
    this.frameCount = 0;
    // The hand holding the menu (0 left, 1 right) or -1.
    this.holder = -1;
    // Per hand, per button: whether the fingertip was inside it last frame
    // (null: not known, e.g. the menu was hidden).
    this.inside = [null, null];
  }

  /** The XR Blocks hand object at index i, if tracked. */
  handAt(i) {
    const hand = xb.core?.input?.hands?.[i];
    if (!hand || hand.visible === false || !hand.joints) return null;
    return hand;
  }

  /** World position of a joint into target; false if not available. */
  joint(hand, name, target) {
    const joint = hand.joints[name];
    if (!joint || joint.visible === false) return false;
    joint.updateWorldMatrix(true, false);
    joint.getWorldPosition(target);
    return true;
  }

  /** Tilt of hand i's palm (radians from straight up), or null if unknown. */
  palmTilt(i) {
    const hand = this.handAt(i);
    if (!hand) return null;
    if (
      !this.joint(hand, 'wrist', _wrist) ||
      !this.joint(hand, 'index-finger-phalanx-proximal', _index) ||
      !this.joint(hand, 'pinky-finger-phalanx-proximal', _pinky)
    ) {
      return null;
    }
    _a.subVectors(_index, _wrist);
    _b.subVectors(_pinky, _wrist);
    _normal.crossVectors(_a, _b);
    if (_normal.lengthSq() < 1e-12) return null;
    _normal.normalize();
    if (HANDS[i] === 'left') _normal.negate();
    return _normal.angleTo(_up);
  }

  /** Palm centre of hand i into target; false if unknown. */
  palmCentre(i, target) {
    const hand = this.handAt(i);
    if (!hand) return false;
    if (
      !this.joint(hand, 'wrist', _wrist) ||
      !this.joint(hand, 'middle-finger-phalanx-proximal', _middle)
    ) {
      return false;
    }
    target.addVectors(_wrist, _middle).multiplyScalar(0.5);
    return true;
  }

  updatePalms() {
    for (let i = 0; i < 2; i++) {
      const tilt = this.palmTilt(i);
      let up = this.palmUp[i];
      if (tilt === null) {
        up = false; // not tracked: not palm up.
      } else if (!up && tilt <= PALM_UP_ENTER) {
        up = true;
      } else if (up && tilt > PALM_UP_EXIT) {
        up = false;
      }
      if (up && !this.palmUp[i]) this.upSince[i] = this.frameCount;
      this.palmUp[i] = up;
    }
  }

  chooseHolder() {
    if (this.holder >= 0 && this.palmUp[this.holder]) return;
    const candidates = [0, 1].filter((i) => this.palmUp[i]);
    if (candidates.length === 0) {
      this.holder = -1;
    } else {
      // The one palm up the longest.
      candidates.sort((p, q) => this.upSince[p] - this.upSince[q]);
      this.holder = candidates[0];
    }
  }

  placeMenu() {
    if (!this.palmCentre(this.holder, this.menu.position)) return false;
    this.menu.position.y += MENU_HEIGHT;
    // Level, with the row along the user's left-right direction.
    const camera = xb.core?.camera;
    let yaw = 0;
    if (camera) {
      camera.updateMatrixWorld();
      _right.set(1, 0, 0).transformDirection(camera.matrixWorld);
      _right.y = 0;
      if (_right.lengthSq() > 1e-8) {
        yaw = Math.atan2(-_right.z, _right.x);
      } else {
        // Rolled sideways: fall back on the facing direction.
        camera.getWorldDirection(_a);
        yaw = Math.atan2(-_a.x, -_a.z);
      }
    }
    this.menu.rotation.set(0, yaw, 0);
    this.menu.updateMatrixWorld(true);
    return true;
  }

  /** Whether the world point lies in the button's 4 cm box. */
  inButton(button, point) {
    _inverse.copy(button.matrixWorld).invert();
    _local.copy(point).applyMatrix4(_inverse);
    const h = BUTTON_SIZE / 2;
    return Math.abs(_local.x) <= h && Math.abs(_local.y) <= h && Math.abs(_local.z) <= h;
  }

  setCubeColor(color) {
    this.cubeColor = color;
    this.cube.material.color.setHex(color);
    this.cube.userData.xrblocksDevtools.state.color =
      '#' + this.cube.material.color.getHexString();
  }

  poke(button) {
    const color = button.userData.color;
    this.setCubeColor(this.cubeColor === color ? WHITE : color);
  }

  handlePokes() {
    for (let i = 0; i < 2; i++) {
      const hand = this.handAt(i);
      const has = hand && this.joint(hand, 'index-finger-tip', _tip);
      const now = this.buttons.map((b) => !!has && this.inButton(b, _tip));
      const before = this.inside[i];
      if (before && i !== this.holder) {
        this.buttons.forEach((button, k) => {
          if (now[k] && !before[k]) this.poke(button);
        });
      }
      this.inside[i] = now;
    }
  }

  update() {
    this.frameCount++;
    this.updatePalms();
    this.chooseHolder();

    const shown = this.holder >= 0 && this.placeMenu();
    this.menu.visible = shown;
    this.menu.userData.xrblocksDevtools.state.hand = shown ? HANDS[this.holder] : null;

    if (shown) {
      this.handlePokes();
    } else {
      // Hidden: nothing can be poked; forget where the fingertips were.
      this.inside = [null, null];
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new PalmMenu());
  xb.init(options);
});
