// Quick Settings demo: three panels that pop in and out with `xb.VisibilityTransition`, and a row
// of buttons the user selects with a hand's ray and a pinch (or a controller's trigger). Objects
// carry semantic tags (`userData.xrblocksDevtools = {tag, state}`) so that they can be found by role.
import * as THREE from 'three';
import * as xb from 'xrblocks';

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
}

function board(name, width, height, color) {
  const mesh = new THREE.Mesh(
    new THREE.BoxGeometry(width, height, 0.01),
    new THREE.MeshStandardMaterial({color}));
  mesh.name = name;
  return mesh;
}

class QuickSettings extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.transitions = {};

    // The settings menu, shown at the start, with two tiles on it (default duration, 0.3 s).
    this.menu = board('menu', 0.32, 0.2, 0x263238);
    this.menu.position.set(0, 1.5, -1.0);
    tag(this.menu, 'menu');
    for (const [i, color] of [0x4fc3f7, 0xffb74d].entries()) {
      const tile = board(`tile-${i}`, 0.1, 0.1, color);
      tile.position.set(i === 0 ? -0.07 : 0.07, 0, 0.01);
      tag(tile, 'tile', {index: i});
      this.menu.add(tile);
    }
    this.transitions.menu = new xb.VisibilityTransition();
    this.menu.add(this.transitions.menu);
    this.add(this.menu);

    // A tooltip drawn at half size, slower to appear and disappear (0.6 s), turned to the user.
    this.tip = board('tip', 0.3, 0.1, 0xfff59d);
    this.tip.position.set(0.35, 1.72, -1.0);
    this.tip.rotation.y = THREE.MathUtils.degToRad(-20);
    this.tip.scale.setScalar(0.5);
    tag(this.tip, 'tip');
    this.transitions.tip = new xb.VisibilityTransition({duration: 0.6});
    this.tip.add(this.transitions.tip);
    this.add(this.tip);

    // A toast, hidden until the user asks for it (a quick 0.2 s transition).
    this.toast = board('toast', 0.26, 0.08, 0xa5d6a7);
    this.toast.position.set(-0.35, 1.72, -1.0);
    this.toast.visible = false;
    tag(this.toast, 'toast');
    this.transitions.toast = new xb.VisibilityTransition({duration: 0.2});
    this.toast.add(this.transitions.toast);
    this.add(this.toast);

    // The buttons, below the panels: three toggles and one that shows every panel.
    this.buttons = new Map();
    const row = [['menu', 0x90a4ae], ['tip', 0xfff176], ['toast', 0x81c784], ['all', 0xe57373]];
    row.forEach(([target, color], i) => {
      const button = board(`button-${target}`, 0.08, 0.06, color);
      button.position.set((i - 1.5) * 0.11, 1.2, -0.6);
      tag(button, 'button', {target});
      this.buttons.set(button, target);
      this.add(button);
    });
  }

  onSelectStart(event) {
    const target = this.buttons.get(event.surface ?? event.target);
    if (!target) return;
    if (target === 'all') {
      for (const transition of Object.values(this.transitions)) transition.show();
    } else {
      this.transitions[target].toggle();
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new QuickSettings());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
