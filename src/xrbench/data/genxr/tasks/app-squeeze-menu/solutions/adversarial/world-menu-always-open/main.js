import * as THREE from 'three';
import * as xb from 'xrblocks';

class Key extends xb.Script {
  constructor(letter, state) {
    super();
    this.letter = letter;
    this.state = state;
    const mesh = new THREE.Mesh(
        new THREE.BoxGeometry(0.07, 0.07, 0.02),
        new THREE.MeshStandardMaterial({color: 0x90caf9}));
    mesh.userData.xrblocksDevtools = {tag: `menu-button-${letter.toLowerCase()}`, state: {}};
    this.add(mesh);
  }

  onObjectTouchStart() {
    this.state.choice = this.letter;
  }
}

class FixedMenu extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x444444, 3));
    const state = {open: true, choice: null};
    const panel = new THREE.Mesh(
        new THREE.BoxGeometry(0.3, 0.2, 0.01), new THREE.MeshStandardMaterial({color: 0x455a64}));
    panel.userData.xrblocksDevtools = {tag: 'gesture-menu', state};
    panel.position.set(0, 1.3, -0.45);
    this.add(panel);
    ['A', 'B'].forEach((letter, i) => {
      const key = new Key(letter, state);
      key.position.set(i ? 0.07 : -0.07, 0, 0.015);
      panel.add(key);
    });
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new FixedMenu());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
