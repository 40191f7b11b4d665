import * as THREE from 'three';
import * as xb from 'xrblocks';

// Where the menu opens, relative to the eyes and the direction the user faces.
const REACH = 0.45;
const DROP = 0.2;
const BUTTON = 0.065;  // a button's width and height
const BUTTON_DEPTH = 0.015;

/** A plane textured with a letter, for the front of a button. */
function letterPlane(letter) {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const g = canvas.getContext('2d');
  g.fillStyle = '#fafafa';
  g.font = 'bold 44px sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(letter, 32, 34);
  const face = new THREE.Mesh(
      new THREE.PlaneGeometry(BUTTON * 0.8, BUTTON * 0.8),
      new THREE.MeshBasicMaterial({map: new THREE.CanvasTexture(canvas), transparent: true}));
  face.position.z = BUTTON_DEPTH / 2 + 0.001;
  return face;
}

/**
 * The menu as one group: the panel and its two buttons are siblings in it. Pokes are found by
 * testing each hand's index fingertip against the buttons every frame; ray selections by casting
 * the selecting hand's ray at the buttons.
 */
class GroupMenu extends xb.Script {
  init() {
    this.add(new THREE.AmbientLight(0xffffff, 1.2));
    this.add(new THREE.DirectionalLight(0xffffff, 1.5));

    this.root = new THREE.Group();
    this.root.visible = false;
    this.add(this.root);

    this.panel = new THREE.Mesh(
        new THREE.BoxGeometry(0.3, 0.2, 0.012),
        new THREE.MeshLambertMaterial({color: 0x37474f}));
    this.info = {open: false, choice: null};
    this.panel.userData.xrblocksDevtools = {tag: 'gesture-menu', state: this.info};
    this.root.add(this.panel);

    this.buttons = [];
    for (const [letter, x, color] of [['A', -0.075, 0x43a047], ['B', 0.075, 0xfb8c00]]) {
      const mesh = new THREE.Mesh(
          new THREE.BoxGeometry(BUTTON, BUTTON, BUTTON_DEPTH),
          new THREE.MeshLambertMaterial({color}));
      mesh.position.set(x, 0, 0.006 + BUTTON_DEPTH / 2);
      mesh.add(letterPlane(letter));
      mesh.userData.xrblocksDevtools = {tag: 'menu-button-' + letter.toLowerCase(), state: {}};
      mesh.userData.letter = letter;
      this.root.add(mesh);
      this.buttons.push(mesh);
    }
    this.touching = [null, null];  // the button each hand's fingertip is in
    this.raycaster = new THREE.Raycaster();

    xb.core.gestureRecognition.addEventListener('gesturestart', (e) => {
      if (e.detail.name !== 'fist') return;
      if (this.info.open) this.close(); else this.open();
    });
  }

  open() {
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    const eye = new THREE.Vector3();
    const look = new THREE.Quaternion();
    camera.matrixWorld.decompose(eye, look, new THREE.Vector3());
    const yaw = new THREE.Euler().setFromQuaternion(look, 'YXZ').y;
    this.root.rotation.set(0, yaw, 0);
    this.root.position.set(
        eye.x - Math.sin(yaw) * REACH, eye.y - DROP, eye.z - Math.cos(yaw) * REACH);
    this.root.visible = true;
    this.info.open = true;
  }

  close() {
    this.root.visible = false;
    this.info.open = false;
  }

  choose(button) {
    if (!this.info.open) return;
    this.info.choice = button.userData.letter;
  }

  /** The button whose box holds a world point, or null. */
  buttonAt(point) {
    for (const button of this.buttons) {
      const p = button.worldToLocal(point.clone());
      if (Math.abs(p.x) <= BUTTON / 2 && Math.abs(p.y) <= BUTTON / 2 &&
          Math.abs(p.z) <= BUTTON_DEPTH / 2 + 0.002) {
        return button;
      }
    }
    return null;
  }

  update() {
    const hands = xb.core.input.hands;
    for (let i = 0; i < 2; i++) {
      const tip = hands[i]?.joints?.['index-finger-tip'];
      if (!tip || !this.info.open) {
        this.touching[i] = null;
        continue;
      }
      const button = this.buttonAt(tip.getWorldPosition(new THREE.Vector3()));
      if (button && button !== this.touching[i]) this.choose(button);
      this.touching[i] = button;
    }
  }

  onSelectStart(event) {
    const controller = event?.source?.controller ?? event?.target;
    if (!controller || !this.info.open) return;
    controller.updateMatrixWorld(true);
    const origin = new THREE.Vector3().setFromMatrixPosition(controller.matrixWorld);
    const direction = new THREE.Vector3(0, 0, -1).transformDirection(controller.matrixWorld);
    this.raycaster.set(origin, direction);
    const hit = this.raycaster.intersectObjects(this.buttons, false)[0];
    if (hit) this.choose(hit.object);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new GroupMenu());
  const options = new xb.Options();
  options.enableHands();
  options.enableGestures();
  xb.init(options);
});
