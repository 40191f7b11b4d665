import * as THREE from 'three';
import * as xb from 'xrblocks';

// Button geometry (metres).
const BUTTON_SIZE = 0.08; // width and height
const BUTTON_DEPTH = 0.02;
const BUTTON_Y = 1.25;
const BUTTON_Z = -0.6; // centre; the front face is at z = -0.59
const BUTTON_XS = [-0.09, 0, 0.09];
const LIGHT_RADIUS = 0.02; // about 4 cm across
const LIGHT_ABOVE = 0.08; // light centre 8 cm above the button centre

// A fingertip counts as having left a button once it is this far outside its
// box (a little hysteresis, so a tip resting exactly on a face cannot chatter).
const EXIT_MARGIN = 0.003;

const BUTTON_COLOR = new THREE.Color('#8a8f98');
const BUTTON_PRESSED_COLOR = new THREE.Color('#c8ccd4');
const LIGHT_OFF_COLOR = new THREE.Color('#3a3a3a');
const LIGHT_ON_COLOR = new THREE.Color('#fff2b0');
const LIGHT_OFF_EMISSIVE = new THREE.Color('#000000');
const LIGHT_ON_EMISSIVE = new THREE.Color('#ffd23f');

/**
 * One push button. It is a MeshScript only so that XR Blocks treats it as a
 * direct-touch target (its touch events name the button); the press logic is
 * in TouchButtons.update(), which tests the index fingertip against the box.
 */
class PushButton extends xb.MeshScript {
  onObjectTouchStart(event) {
    // A poke is not a selection: keep XR Blocks from starting a select/grab.
    event.preventDefault?.();
  }

  onObjectTouchEnd() {}
}

/**
 * Three push buttons in a row, each toggling the light above it when an index
 * fingertip pokes into it. Detection is done here from the hand joints, so
 * only the `index-finger-tip` joint of either hand can press a button.
 */
class TouchButtons extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.buttons = [];
    this.lights = [];
    // insideByHand[handIndex][buttonIndex]: is that hand's index tip in it?
    this.insideByHand = [];
    this.tip = new THREE.Vector3();
    this.local = new THREE.Vector3();

    const buttonGeometry = new THREE.BoxGeometry(
      BUTTON_SIZE,
      BUTTON_SIZE,
      BUTTON_DEPTH
    );
    const lightGeometry = new THREE.SphereGeometry(LIGHT_RADIUS, 24, 16);

    BUTTON_XS.forEach((x, i) => {
      const n = i + 1;

      const button = new PushButton(
        buttonGeometry,
        new THREE.MeshStandardMaterial({
          color: BUTTON_COLOR.clone(),
          roughness: 0.6,
          metalness: 0.1,
        })
      );
      button.name = `touch-button-${n}`;
      button.position.set(x, BUTTON_Y, BUTTON_Z);
      button.userData.xrblocksDevtools = {
        tag: `touch-button-${n}`,
        state: {pressed: false},
      };
      this.add(button);
      this.buttons.push(button);

      const light = new THREE.Mesh(
        lightGeometry,
        new THREE.MeshStandardMaterial({
          color: LIGHT_OFF_COLOR.clone(),
          emissive: LIGHT_OFF_EMISSIVE.clone(),
          emissiveIntensity: 1,
          roughness: 0.4,
        })
      );
      light.name = `button-light-${n}`;
      light.position.set(x, BUTTON_Y + LIGHT_ABOVE, BUTTON_Z);
      light.userData.xrblocksDevtools = {
        tag: `button-light-${n}`,
        state: {on: false, toggles: 0},
      };
      this.add(light);
      this.lights.push(light);
    });
    this.updateMatrixWorld(true);
  }

  update() {
    const hands = xb.core?.input?.hands ?? [];
    for (let h = 0; h < hands.length; h++) {
      const inside = (this.insideByHand[h] ??= this.buttons.map(() => false));
      const hand = hands[h];
      const tip = hand?.joints?.['index-finger-tip'];
      // An untracked hand keeps its last contacts: it cannot press anything,
      // and reappearing in the same button is not a new poke.
      if (!hand || !hand.visible || !tip || !tip.visible) continue;
      tip.getWorldPosition(this.tip);

      for (let b = 0; b < this.buttons.length; b++) {
        const margin = inside[b] ? EXIT_MARGIN : 0;
        const isIn = this.containsPoint(this.buttons[b], this.tip, margin);
        if (isIn && !inside[b]) this.toggleLight(b);
        inside[b] = isIn;
      }
    }
    this.updateButtonLooks();
  }

  /** Is a world point inside the button's 8 x 8 x 2 cm box (plus margin)? */
  containsPoint(button, worldPoint, margin) {
    button.updateWorldMatrix(true, false);
    this.local.copy(worldPoint);
    button.worldToLocal(this.local);
    return (
      Math.abs(this.local.x) <= BUTTON_SIZE / 2 + margin &&
      Math.abs(this.local.y) <= BUTTON_SIZE / 2 + margin &&
      Math.abs(this.local.z) <= BUTTON_DEPTH / 2 + margin
    );
  }

  toggleLight(index) {
    const light = this.lights[index];
    const state = light.userData.xrblocksDevtools.state;
    state.on = !state.on;
    state.toggles += 1;
    light.material.color.copy(state.on ? LIGHT_ON_COLOR : LIGHT_OFF_COLOR);
    light.material.emissive.copy(
      state.on ? LIGHT_ON_EMISSIVE : LIGHT_OFF_EMISSIVE
    );
  }

  updateButtonLooks() {
    for (let b = 0; b < this.buttons.length; b++) {
      const pressed = this.insideByHand.some((inside) => inside[b]);
      const button = this.buttons[b];
      const state = button.userData.xrblocksDevtools.state;
      if (state.pressed === pressed) continue;
      state.pressed = pressed;
      button.material.color.copy(
        pressed ? BUTTON_PRESSED_COLOR : BUTTON_COLOR
      );
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new TouchButtons());
  xb.init(options);
});
