import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Poke & grab: a round button you press with a fingertip (or a ray click) and a small cube you
 * grab with a pinch while your fingertip is inside it.
 *
 * The button turns blue when the LEFT hand pressed it last and orange when the RIGHT hand did.
 * Both objects carry XR Blocks DevTools tags (`userData.xrblocksDevtools`) with their state.
 */
const HAND_NAMES = ['left', 'right'];
const HAND_COLORS = {left: 0x3399ff, right: 0xff8800, none: 0x888888};

function tag(object, name, state) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

class PokeButton extends xb.Script {
  init() {
    this.button = new THREE.Mesh(
      new THREE.CylinderGeometry(0.06, 0.06, 0.03, 32),
      new THREE.MeshStandardMaterial({color: HAND_COLORS.none}));
    this.button.rotation.x = Math.PI / 2;  // its face looks at the user
    this.button.position.set(-0.12, 1.3, -0.6);
    this.button.name = 'poke-button';
    this.state = tag(this.button, 'poke-button', {presses: 0, lastHand: null, via: null});
    this.add(this.button);
    this.frame = 0;
    this.touchFrame = -1;
  }

  update() {
    this.frame += 1;
  }

  press(hand, via) {
    this.state.presses += 1;
    this.state.lastHand = hand;
    this.state.via = via;
    this.button.material.color.setHex(HAND_COLORS[hand] ?? HAND_COLORS.none);
  }

  onObjectTouchStart(event) {
    // A poke: which hand is the touch event's hand index.
    this.touchFrame = this.frame;
    this.press(HAND_NAMES[event.handIndex] ?? 'none', 'touch');
  }

  onObjectSelectStart(event) {
    // XR Blocks also selects what a fingertip touches, in the same frame: count that once.
    if (this.touchFrame === this.frame) return;
    this.press(event.source?.handedness ?? 'none', 'ray');
  }
}

class GrabCube extends xb.Script {
  init() {
    this.cube = new THREE.Mesh(
      new THREE.BoxGeometry(0.1, 0.1, 0.1),
      new THREE.MeshStandardMaterial({color: 0x44bb66}));
    this.cube.position.set(0.12, 1.3, -0.6);
    this.cube.name = 'grab-cube';
    this.state = tag(this.cube, 'grab-cube', {grabbed: false, grabs: 0, hand: null});
    this.add(this.cube);
    this.offset = new THREE.Vector3();
  }

  onObjectGrabStart(event) {
    this.state.grabbed = true;
    this.state.grabs += 1;
    this.state.hand = HAND_NAMES[event.handIndex] ?? 'none';
    this.offset.copy(this.cube.position).sub(event.touchPosition);
  }

  onObjectGrabbing(event) {
    this.cube.position.copy(event.touchPosition).add(this.offset);
  }

  onObjectGrabEnd() {
    this.state.grabbed = false;
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Room());
  xb.add(new PokeButton());
  xb.add(new GrabCube());
  xb.init(new xb.Options());
});
