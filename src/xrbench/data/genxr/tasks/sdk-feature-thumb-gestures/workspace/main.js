// Thumb Votes: vote with a thumbs-up or a thumbs-down, with either hand. Each hand has a lamp
// that turns green while its thumbs-up is held and red while its thumbs-down is held, and the
// board counts the votes. Objects carry semantic tags (`userData.xrblocksDevtools = {tag, state}`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

const IDLE = 0x777777;
const COLORS = {'thumbs-up': 0x22cc44, 'thumbs-down': 0xdd3322};

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

class ThumbVotes extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.board = new THREE.Mesh(
      new THREE.BoxGeometry(0.5, 0.3, 0.02),
      new THREE.MeshStandardMaterial({color: 0x333344}));
    this.board.position.set(0, 1.5, -1.2);
    this.votes = tag(this.board, 'vote-board', {up: 0, down: 0, gestures: []});
    this.add(this.board);

    this.lamps = {};
    this.lampState = {};
    for (const [hand, x] of [['left', -0.15], ['right', 0.15]]) {
      const lamp = new THREE.Mesh(
        new THREE.SphereGeometry(0.04, 20, 12),
        new THREE.MeshStandardMaterial({color: IDLE}));
      lamp.position.set(x, 0.05, 0.03);
      this.lampState[hand] = tag(lamp, `${hand}-lamp`, {hand, active: []});
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
    if (started) {
      state.active.push(name);
      this.votes.gestures.push(`${hand}:${name}`);
      if (name === 'thumbs-up') this.votes.up += 1;
      if (name === 'thumbs-down') this.votes.down += 1;
    } else {
      state.active = state.active.filter((n) => n !== name);
    }
    const shown = [...state.active].reverse().find((n) => n in COLORS);
    this.lamps[hand].material.color.setHex(shown ? COLORS[shown] : IDLE);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new ThumbVotes());
  const options = new xb.Options();
  options.enableGestures();
  xb.init(options);
});
