import * as THREE from 'three';
import * as xb from 'xrblocks';

// A palm counts as up while it faces within 45 degrees of straight up.
const UP_LIMIT = 45;
const COLORS = {red: 0xff0000, green: 0x00ff00, blue: 0x0000ff};

class PalmPalette extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.cube = new THREE.Mesh(new THREE.BoxGeometry(0.2, 0.2, 0.2),
      new THREE.MeshStandardMaterial({color: 0xffffff}));
    this.cube.position.set(0, 1, -1);
    this.cube.userData.xrblocksDevtools = {tag: 'color-cube', state: {}};
    this.add(this.cube);

    this.menu = new THREE.Group();
    this.menu.userData.xrblocksDevtools = {tag: 'palm-menu', state: {}};
    this.buttons = Object.entries(COLORS).map(([name, hex], i) => {
      const b = new THREE.Mesh(new THREE.BoxGeometry(0.04, 0.04, 0.04),
        new THREE.MeshStandardMaterial({color: hex}));
      b.position.x = (i - 1) * 0.06;
      b.userData.xrblocksDevtools = {tag: `menu-button-${name}`, state: {}};
      b.userData.hex = hex;
      this.menu.add(b);
      return b;
    });
    this.menu.visible = false;
    this.add(this.menu);
  }

  palmUp(hand, handedness) {
    const j = hand?.joints;
    if (!j?.wrist) return null;
    const w = j['wrist'].getWorldPosition(new THREE.Vector3());
    const i = j['index-finger-phalanx-proximal'].getWorldPosition(new THREE.Vector3()).sub(w);
    const p = j['pinky-finger-phalanx-proximal'].getWorldPosition(new THREE.Vector3()).sub(w);
    const n = new THREE.Vector3().crossVectors(i, p).normalize();
    if (handedness === 'left') n.negate();
    const tilt = THREE.MathUtils.radToDeg(n.angleTo(new THREE.Vector3(0, 1, 0)));
    return tilt < UP_LIMIT ? w : null;
  }

  update() {
    const hands = xb.core.input.hands;
    // Whichever hand is palm up shows the menu (the right hand wins a tie).
    let wrist = null;
    for (const [k, name] of [[0, 'left'], [1, 'right']]) {
      const w = this.palmUp(hands[k], name);
      if (w) wrist = w;
    }
    this.menu.visible = !!wrist;
    if (wrist) this.menu.position.copy(wrist).add(new THREE.Vector3(0, 0.1, 0));
    this.menu.updateMatrixWorld(true);

    // Any index fingertip inside a button colours the cube.
    for (const k of [0, 1]) {
      const tip = hands[k]?.joints?.['index-finger-tip'];
      if (!tip || !this.menu.visible) continue;
      const p = tip.getWorldPosition(new THREE.Vector3());
      for (const b of this.buttons) {
        if (new THREE.Box3().setFromObject(b).containsPoint(p)) {
          this.cube.material.color.setHex(b.userData.hex);
        }
      }
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PalmPalette());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
