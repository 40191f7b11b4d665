// Point Lamps: point with the index finger to light a lamp. Each hand has a lamp on the board that
// turns yellow while that hand's `point` gesture is held, and the board counts the points made.
// Objects carry semantic tags (`userData.xrblocksDevtools = {tag, state}`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

const IDLE = 0x555555;
const LIT = 0xffcc22;

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

class PointLamps extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.board = new THREE.Mesh(
      new THREE.BoxGeometry(0.5, 0.3, 0.02),
      new THREE.MeshStandardMaterial({color: 0x333344}));
    this.board.position.set(0, 1.5, -1.2);
    this.counts = tag(this.board, 'point-board', {points: 0, gestures: []});
    this.add(this.board);

    this.lamps = {};
    this.lampState = {};
    for (const [hand, x] of [['left', -0.15], ['right', 0.15]]) {
      const lamp = new THREE.Mesh(
        new THREE.SphereGeometry(0.04, 20, 12),
        new THREE.MeshStandardMaterial({color: IDLE}));
      lamp.position.set(x, 0.05, 0.03);
      this.lampState[hand] = tag(lamp, `${hand}-lamp`, {hand, pointing: false});
      this.lamps[hand] = lamp;
      this.board.add(lamp);
    }

    const gestures = xb.core.gestureRecognition;
    gestures.addEventListener('gesturestart', (e) => this.onGesture(e.detail, true));
    gestures.addEventListener('gestureend', (e) => this.onGesture(e.detail, false));
  }

  onGesture({name, hand}, started) {
    const state = this.lampState[hand];
    if (!state) return;
    if (started) this.counts.gestures.push(`${hand}:${name}`);
    if (name !== 'point') return;
    if (started) this.counts.points += 1;
    state.pointing = started;
    this.lamps[hand].material.color.setHex(started ? LIT : IDLE);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new PointLamps());
  const options = new xb.Options();
  options.enableGestures();
  // The built-in `point` gesture is off unless an app turns it on.
  options.gestures.setGestureEnabled('point', true);
  xb.init(options);
});
