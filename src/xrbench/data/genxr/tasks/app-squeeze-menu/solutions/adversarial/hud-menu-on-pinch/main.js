import * as THREE from 'three';
import * as xb from 'xrblocks';

class Button extends xb.Script {
  constructor(letter, menu) {
    super();
    this.letter = letter;
    this.menu = menu;
    const mesh = new THREE.Mesh(
        new THREE.BoxGeometry(0.07, 0.07, 0.02),
        new THREE.MeshBasicMaterial({color: letter === 'A' ? 0x2196f3 : 0xf44336}));
    mesh.userData.xrblocksDevtools = {tag: `menu-button-${letter.toLowerCase()}`, state: {}};
    this.add(mesh);
  }

  onObjectSelectStart() {
    this.menu.state.choice = this.letter;
    this.menu.justPressed = true;
  }
}

class HudMenu extends xb.Script {
  init() {
    this.state = {open: false, choice: null};
    this.panel = new THREE.Mesh(
        new THREE.BoxGeometry(0.3, 0.2, 0.01), new THREE.MeshBasicMaterial({color: 0x222222}));
    this.panel.userData.xrblocksDevtools = {tag: 'gesture-menu', state: this.state};
    this.panel.position.set(0, -0.2, -0.45);
    this.panel.visible = false;
    const a = new Button('A', this);
    a.position.set(-0.07, 0, 0.015);
    const b = new Button('B', this);
    b.position.set(0.07, 0, 0.015);
    this.panel.add(a, b);
    xb.core.camera.add(this.panel);
    if (!xb.core.camera.parent) xb.core.scene.add(xb.core.camera);
  }

  // A pinch that did not press a button toggles the menu.
  onSelectEnd() {
    if (this.justPressed) {
      this.justPressed = false;
      return;
    }
    this.state.open = !this.state.open;
    this.panel.visible = this.state.open;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new HudMenu());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
