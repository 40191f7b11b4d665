import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Poke & grab: a round button you press with a fingertip (or a ray click) and a small cube you
 * grab with a pinch while your fingertip is inside it.
 *
 * The button turns blue when the LEFT hand pressed it last and orange when the RIGHT hand did.
 * Both objects carry XR Blocks DevTools tags (`userData.xrblocksDevtools`) with their state,
 * including what each touch, grab and select event said about its hand (`log`, `frames`, `last`).
 */
const HAND_NAMES = ['left', 'right'];
const HAND_COLORS = {left: 0x3399ff, right: 0xff8800, none: 0x888888};
const LOG_LENGTH = 60;

function tag(object, name, state) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

const round = (v) => Math.round(v * 10000) / 10000;

/** What an interaction event says about its hand. */
function handInfo(event) {
  const info = {
    handIndex: event.handIndex ?? null,
    source: event.source?.handedness ?? null,
    tip: null,
    wrist: null,
  };
  if (event.touchPosition?.isVector3) info.tip = event.touchPosition.toArray().map(round);
  if (event.hand?.isObject3D) {
    info.wrist = event.hand.getWorldPosition(new THREE.Vector3()).toArray().map(round);
  }
  return info;
}

/** Records every touch, grab and select event an object receives into its tagged state. */
function newRecord(state) {
  state.log = [];  // one entry per start/end event: {hook, handIndex, source, tip, wrist}
  state.frames = {onObjectTouching: [0, 0], onObjectGrabbing: [0, 0]};  // per-frame calls by handIndex
  state.last = {onObjectTouching: [null, null], onObjectGrabbing: [null, null]};
  return state;
}

function record(state, hook, event) {
  const info = handInfo(event);
  if (hook in state.frames) {
    const i = info.handIndex === 0 || info.handIndex === 1 ? info.handIndex : null;
    if (i === null) {
      state.log.push({hook, ...info});
    } else {
      state.frames[hook][i] += 1;
      state.last[hook][i] = info;
    }
  } else {
    state.log.push({hook, ...info});
  }
  if (state.log.length > LOG_LENGTH) state.log.splice(0, state.log.length - LOG_LENGTH);
}

/** A Script that records every touch, grab and select event it receives. */
class RecordingScript extends xb.Script {
  onObjectTouchStart(event) { record(this.state, 'onObjectTouchStart', event); }
  onObjectTouching(event) { record(this.state, 'onObjectTouching', event); }
  onObjectTouchEnd(event) { record(this.state, 'onObjectTouchEnd', event); }
  onObjectGrabStart(event) { record(this.state, 'onObjectGrabStart', event); }
  onObjectGrabbing(event) { record(this.state, 'onObjectGrabbing', event); }
  onObjectGrabEnd(event) { record(this.state, 'onObjectGrabEnd', event); }
  onObjectSelectStart(event) { record(this.state, 'onObjectSelectStart', event); }
}

class PokeButton extends RecordingScript {
  init() {
    this.button = new THREE.Mesh(
      new THREE.CylinderGeometry(0.06, 0.06, 0.03, 32),
      new THREE.MeshStandardMaterial({color: HAND_COLORS.none}));
    this.button.rotation.x = Math.PI / 2;  // its face looks at the user
    this.button.position.set(-0.12, 1.3, -0.6);
    this.button.name = 'poke-button';
    this.state = tag(this.button, 'poke-button', newRecord({presses: 0, lastHand: null, via: null}));
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
    super.onObjectTouchStart(event);
    this.touchFrame = this.frame;
    this.press(HAND_NAMES[event.handIndex] ?? 'none', 'touch');
  }

  onObjectSelectStart(event) {
    super.onObjectSelectStart(event);
    // XR Blocks also selects what a fingertip touches, in the same frame: count that once.
    if (this.touchFrame === this.frame) return;
    this.press(event.source?.handedness ?? 'none', 'ray');
  }
}

class GrabCube extends RecordingScript {
  init() {
    this.cube = new THREE.Mesh(
      new THREE.BoxGeometry(0.1, 0.1, 0.1),
      new THREE.MeshStandardMaterial({color: 0x44bb66}));
    this.cube.position.set(0.12, 1.3, -0.6);
    this.cube.name = 'grab-cube';
    this.state = tag(this.cube, 'grab-cube', newRecord({grabbed: false, grabs: 0, hand: null}));
    this.add(this.cube);
    this.offset = new THREE.Vector3();
  }

  onObjectGrabStart(event) {
    super.onObjectGrabStart(event);
    this.state.grabbed = true;
    this.state.grabs += 1;
    this.state.hand = HAND_NAMES[event.handIndex] ?? 'none';
    this.offset.copy(this.cube.position).sub(event.touchPosition);
  }

  onObjectGrabbing(event) {
    super.onObjectGrabbing(event);
    this.cube.position.copy(event.touchPosition).add(this.offset);
  }

  onObjectGrabEnd(event) {
    super.onObjectGrabEnd(event);
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
