import * as THREE from 'three';
import * as xb from 'xrblocks';

const XS = [-0.09, 0, 0.09];
const LIGHT_ON = 0x66ff88;
const EXIT_MARGIN = 0.005; // a fingertip leaves a button once 5 mm outside its box

/**
 * Three push buttons with a light each. The app tests every index fingertip against every
 * button's box itself, each frame: a fingertip that was outside a button and is now inside it
 * toggles that button's light, once, until it has left the button again.
 */
class Keypad extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.buttons = XS.map((x, i) => {
      const button = new THREE.Mesh(
        new THREE.BoxGeometry(0.08, 0.08, 0.02),
        new THREE.MeshStandardMaterial({color: 0x78909c}));
      button.position.set(x, 1.25, -0.6);
      button.userData.xrblocksDevtools = {tag: `touch-button-${i + 1}`, state: {}};

      const light = new THREE.Mesh(
        new THREE.SphereGeometry(0.02, 24, 16),
        new THREE.MeshStandardMaterial({color: 0x303030, emissive: 0x000000}));
      light.position.set(x, 1.33, -0.6);
      const state = {on: false, toggles: 0};
      light.userData.xrblocksDevtools = {tag: `button-light-${i + 1}`, state};

      this.add(button, light);
      return {button, light, state, box: new THREE.Box3(), outer: new THREE.Box3(), inside: [false, false]};
    });
    this.tip = new THREE.Vector3();
  }

  update() {
    for (const b of this.buttons) {
      b.box.setFromObject(b.button);
      b.outer.copy(b.box).expandByScalar(EXIT_MARGIN);
    }
    const hands = xb.core.input.hands;
    for (let h = 0; h < 2; h++) {
      const tip = hands[h]?.joints?.['index-finger-tip'];
      if (tip) tip.getWorldPosition(this.tip);
      for (const b of this.buttons) {
        if (!tip) {
          b.inside[h] = false;
          continue;
        }
        const now = b.inside[h] ? b.outer.containsPoint(this.tip) : b.box.containsPoint(this.tip);
        if (now && !b.inside[h]) this.toggle(b);
        b.inside[h] = now;
      }
    }
  }

  toggle(b) {
    b.state.on = !b.state.on;
    b.state.toggles += 1;
    b.light.material.emissive.setHex(b.state.on ? LIGHT_ON : 0x000000);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Keypad());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
