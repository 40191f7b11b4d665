import * as THREE from 'three';
import * as xb from 'xrblocks';

const LIGHT_ON = 0xffd54f;

/**
 * One push button and its light. The button is its own script, so XR Blocks' direct touch
 * tests this button's bounds alone and reports touches on it, not on its neighbours.
 */
class PushButton extends xb.Script {
  constructor(index, x) {
    super();
    this.index = index;
    this.x = x;
  }

  init() {
    this.position.set(this.x, 1.25, -0.6);
    this.button = new THREE.Mesh(
      new THREE.BoxGeometry(0.08, 0.08, 0.02),
      new THREE.MeshStandardMaterial({color: 0x546e7a}));
    this.button.userData.xrblocksDevtools = {tag: `touch-button-${this.index}`, state: {}};
    this.add(this.button);

    // The light is not part of the button script's subtree: a fingertip near the light does
    // not count as touching the button.
    this.light = new THREE.Mesh(
      new THREE.SphereGeometry(0.02, 16, 12),
      new THREE.MeshStandardMaterial({color: 0x333333, emissive: 0x000000}));
    this.light.position.set(this.x, 1.33, -0.6);
    this.state = {on: false, toggles: 0};
    this.light.userData.xrblocksDevtools = {tag: `button-light-${this.index}`, state: this.state};
    xb.core.scene.add(this.light);
  }

  // A fingertip entering the button: XR Blocks calls this once per contact (the finger must
  // leave the button before the next one), whichever hand it is.
  onObjectTouchStart() {
    this.toggle();
  }

  // Wrong: XR Blocks reports a direct touch as a touch and also as a select in the same frame,
  // so handling both toggles twice per poke (on, then straight back off).
  onObjectSelectStart() {
    this.toggle();
  }

  toggle() {
    this.state.on = !this.state.on;
    this.state.toggles += 1;
    this.light.material.emissive.setHex(this.state.on ? LIGHT_ON : 0x000000);
    this.button.material.color.setHex(this.state.on ? 0x90a4ae : 0x546e7a);
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Room());
  [-0.09, 0, 0.09].forEach((x, i) => xb.add(new PushButton(i + 1, x)));
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
