import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Gesture board: every thumbs-up adds a star on the side of the hand that made it, and a lamp
 * stays lit for as long as a hand holds a fist.
 *
 * Objects carry XR Blocks DevTools tags (`userData.xrblocksDevtools`) with their state.
 */
function tag(object, name, state) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

class GestureBoard extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.board = new THREE.Mesh(
      new THREE.BoxGeometry(0.6, 0.4, 0.02),
      new THREE.MeshStandardMaterial({color: 0x334455}));
    this.board.position.set(0, 1.45, -1.4);
    this.board.name = 'gesture-board';
    this.boardState = tag(this.board, 'gesture-board', {stars: {left: 0, right: 0}, events: 0});
    this.add(this.board);

    this.lamp = new THREE.Mesh(
      new THREE.SphereGeometry(0.05, 24, 16),
      new THREE.MeshStandardMaterial({color: 0x777777, emissive: 0x000000}));
    this.lamp.position.set(0, 1.75, -1.4);
    this.lamp.name = 'fist-lamp';
    this.lampState = tag(this.lamp, 'fist-lamp', {lit: false, heldBy: []});
    this.add(this.lamp);
    this.fists = new Set();

    this.stars = new THREE.Group();
    this.add(this.stars);

    const gestures = xb.core.gestureRecognition;
    gestures.addEventListener('gesturestart', (event) => this.onGestureStart(event.detail));
    gestures.addEventListener('gestureend', (event) => this.onGestureEnd(event.detail));
  }

  onGestureStart({name, hand}) {
    this.boardState.events += 1;
    if (name === 'thumbs-up') this.addStar(hand);
    if (name === 'fist') {
      this.fists.add(hand);
      this.updateLamp();
    }
  }

  onGestureEnd({name, hand}) {
    this.boardState.events += 1;
    if (name === 'fist') {
      this.fists.delete(hand);
      this.updateLamp();
    }
  }

  updateLamp() {
    const lit = this.fists.size > 0;
    this.lampState.lit = lit;
    this.lampState.heldBy = [...this.fists].sort();
    this.lamp.material.emissive.setHex(lit ? 0xffcc33 : 0x000000);
  }

  addStar(hand) {
    const count = this.boardState.stars[hand] ?? 0;
    const star = new THREE.Mesh(
      new THREE.OctahedronGeometry(0.025),
      new THREE.MeshStandardMaterial({color: 0xffd700, emissive: 0x443300}));
    star.position.set(hand === 'left' ? -0.2 : 0.2, 1.3 + 0.06 * count, -1.38);
    star.name = 'star';
    tag(star, 'star', {hand, index: count});
    this.stars.add(star);
    this.boardState.stars[hand] = count + 1;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new GestureBoard());
  const options = new xb.Options();
  options.enableGestures();
  xb.init(options);
});
