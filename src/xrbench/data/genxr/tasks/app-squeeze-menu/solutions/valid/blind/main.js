import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A menu that a fist opens: making a fist with either hand toggles a small menu
 * with two push buttons, "A" and "B", in front of the user. The buttons are
 * pressed with a fingertip (a poke) or with a hand's ray and a pinch.
 */

// Panel: 0.3 m wide, 0.2 m high, 1 cm thick.
const PANEL_WIDTH = 0.3;
const PANEL_HEIGHT = 0.2;
const PANEL_DEPTH = 0.01;
// Buttons: 7 cm square, 1.5 cm proud of the panel's front (+Z) face, so the
// whole menu stays 2.5 cm thick.
const BUTTON_SIZE = 0.07;
const BUTTON_DEPTH = 0.015;
const BUTTON_OFFSET_X = 0.075;
// Where the menu opens: ahead of the eyes along the head's horizontal heading,
// and below eye height.
const MENU_AHEAD = 0.45;
const MENU_BELOW = 0.2;

const PANEL_COLOR = 0x2b3440;
const BUTTON_COLOR = 0xe8e8e8;
const CHOSEN_COLOR = 0x4fc3f7;

/** A canvas texture with one big letter, for a button's front face. */
function makeLabelTexture(text) {
  const canvas = document.createElement('canvas');
  canvas.width = 128;
  canvas.height = 128;
  const context = canvas.getContext('2d');
  if (context) {
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, 128, 128);
    context.fillStyle = '#111111';
    context.font = 'bold 88px sans-serif';
    context.textAlign = 'center';
    context.textBaseline = 'middle';
    context.fillText(text, 64, 68);
  }
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

/**
 * One push button: a mesh that is also a Script, so that XR Blocks' ray
 * selection and direct touch resolve to this button by itself.
 */
class MenuButton extends xb.MeshScript {
  /**
   * @param {string} label 'A' or 'B'
   * @param {string} tag the semantic tag of the button
   * @param {(label: string) => void} onPress called when the button is pressed
   */
  constructor(label, tag, onPress) {
    const side = new THREE.MeshStandardMaterial({color: BUTTON_COLOR, roughness: 0.6});
    const front = new THREE.MeshStandardMaterial({
      color: BUTTON_COLOR,
      roughness: 0.6,
      map: makeLabelTexture(label),
    });
    // BoxGeometry material order: +x, -x, +y, -y, +z (front), -z.
    super(
      new THREE.BoxGeometry(BUTTON_SIZE, BUTTON_SIZE, BUTTON_DEPTH),
      [side, side, side, side, front, side]
    );
    this.name = `menu-button-${label.toLowerCase()}`;
    this.label = label;
    this.onPress = onPress;
    this.sideMaterial = side;
    this.frontMaterial = front;
    this.userData.xrblocksDevtools = {tag, state: {}};
  }

  setChosen(chosen) {
    const color = chosen ? CHOSEN_COLOR : BUTTON_COLOR;
    this.sideMaterial.color.setHex(color);
    this.frontMaterial.color.setHex(color);
  }

  // A poke with an index fingertip.
  onObjectTouchStart() {
    this.onPress(this.label);
  }

  // A hand's ray pointing at the button and a pinch. (XR Blocks also turns a
  // touch into a select; pressing twice in one frame sets the same choice.)
  onObjectSelectStart() {
    this.onPress(this.label);
  }
}

class FistMenu extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // The panel's slab sits just behind its origin and the buttons just in
    // front, so the origin is the centre of the whole menu (panel + buttons).
    const panelGeometry = new THREE.BoxGeometry(PANEL_WIDTH, PANEL_HEIGHT, PANEL_DEPTH);
    panelGeometry.translate(0, 0, -(PANEL_DEPTH + BUTTON_DEPTH) / 2 + PANEL_DEPTH / 2);
    this.panel = new THREE.Mesh(
      panelGeometry,
      new THREE.MeshStandardMaterial({color: PANEL_COLOR, roughness: 0.8})
    );
    this.panel.name = 'gesture-menu';
    this.state = {open: false, choice: null};
    this.panel.userData.xrblocksDevtools = {tag: 'gesture-menu', state: this.state};

    const press = (label) => this.press(label);
    this.buttonA = new MenuButton('A', 'menu-button-a', press);
    this.buttonB = new MenuButton('B', 'menu-button-b', press);
    // "A" on the left and "B" on the right as the user, facing the front
    // (+Z) of the panel, sees them.
    const z = (PANEL_DEPTH + BUTTON_DEPTH) / 2 - BUTTON_DEPTH / 2;
    this.buttonA.position.set(-BUTTON_OFFSET_X, 0, z);
    this.buttonB.position.set(BUTTON_OFFSET_X, 0, z);
    this.panel.add(this.buttonA, this.buttonB);

    // Closed at the start: hidden, buttons included.
    this.panel.visible = false;
    this.add(this.panel);

    // Hands whose fist is currently recognised. A fist toggles the menu only
    // when no hand was already closed, so holding a fist (or closing the other
    // hand meanwhile) never toggles it twice; the hand has to open first.
    this.closedHands = new Set();
    this.onGestureStart = (event) => {
      const {name, hand} = event.detail;
      if (name !== 'fist') return;
      if (this.closedHands.size === 0) this.toggle();
      this.closedHands.add(hand);
    };
    this.onGestureEnd = (event) => {
      const {name, hand} = event.detail;
      if (name !== 'fist') return;
      this.closedHands.delete(hand);
    };
    this.gestures = xb.core.gestureRecognition;
    if (this.gestures) {
      this.gestures.addEventListener('gesturestart', this.onGestureStart);
      this.gestures.addEventListener('gestureend', this.onGestureEnd);
    } else {
      console.warn('Gesture recognition is not available: the fist menu cannot open.');
    }
  }

  toggle() {
    if (this.state.open) {
      this.close();
    } else {
      this.open();
    }
  }

  open() {
    this.placeInFrontOfUser();
    this.state.open = true;
    this.panel.visible = true;
  }

  close() {
    this.state.open = false;
    this.panel.visible = false;
  }

  /**
   * Puts the panel 0.45 m ahead of the eyes along the head's horizontal
   * heading and 0.2 m below eye height, upright, its front turned towards the
   * user. It then stays there (in world space) until it is opened again.
   */
  placeInFrontOfUser() {
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    const eye = new THREE.Vector3();
    const quaternion = new THREE.Quaternion();
    camera.matrixWorld.decompose(eye, quaternion, new THREE.Vector3());
    // Heading (yaw) of the view direction, independent of pitch and roll:
    // with the Y-X-Z Euler order, yaw is applied last around world up.
    const yaw = new THREE.Euler().setFromQuaternion(quaternion, 'YXZ').y;
    const heading = new THREE.Vector3(-Math.sin(yaw), 0, -Math.cos(yaw));

    this.panel.position.copy(eye).addScaledVector(heading, MENU_AHEAD);
    this.panel.position.y -= MENU_BELOW;
    // Upright, and its +Z (front) pointing back at the user horizontally.
    this.panel.rotation.set(0, yaw, 0);
    this.panel.updateMatrixWorld(true);
  }

  press(label) {
    if (!this.state.open) return;  // a closed menu's buttons cannot be pressed
    this.state.choice = label;
    this.buttonA.setChosen(label === 'A');
    this.buttonB.setChosen(label === 'B');
  }

  dispose() {
    if (this.gestures) {
      this.gestures.removeEventListener('gesturestart', this.onGestureStart);
      this.gestures.removeEventListener('gestureend', this.onGestureEnd);
    }
    super.dispose?.();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new FistMenu());
  const options = new xb.Options();
  options.enableGestures();
  xb.init(options);
});
