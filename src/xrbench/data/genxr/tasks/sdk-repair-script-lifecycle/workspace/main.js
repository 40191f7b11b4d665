import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Bubble board: pinch the green button to blow a bubble, pinch a bubble to pop it.
 *
 * Every bubble is its own Script, and it relies on XR Blocks' Script lifecycle: `init()` places it
 * in the first free slot and puts its marker on the board, `update()` makes it bob and spin and
 * shows its age on its marker, and `dispose()` (called by XR Blocks once the bubble has left the
 * scene) takes the marker off the board again. Popped bubbles are kept in a pool and blown again
 * by later presses of the button.
 *
 * Objects carry XR Blocks DevTools tags (`userData.xrblocksDevtools`) with their state.
 */
const SLOTS = 5;
const SLOT_SPACING = 0.18;  // metres between two slots (bubbles and markers)
const BUBBLE_HEIGHT = 1.5;
const BUBBLE_DEPTH = -1.0;
const BOB = 0.03;  // metres up and down
const BOB_PERIOD = 2;  // seconds
const SPIN = 1;  // radians per second

function tag(object, name, state) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function slotX(slot) {
  return (slot - (SLOTS - 1) / 2) * SLOT_SPACING;
}

/** The board under the bubbles: one marker per bubble that is out. */
class Board extends THREE.Group {
  constructor() {
    super();
    this.name = 'bubble-board';
    const panel = new THREE.Mesh(
      new THREE.BoxGeometry(0.95, 0.16, 0.02),
      new THREE.MeshStandardMaterial({color: 0x223344}));
    panel.xb = {pointerEvents: 'none'};
    this.add(panel);
    this.position.set(0, 1.12, BUBBLE_DEPTH);
    this.markers = new Map();  // slot -> marker
    this.state = tag(this, 'bubble-board', {alive: 0, popped: 0, slots: []});
  }

  freeSlot() {
    for (let slot = 0; slot < SLOTS; slot++) {
      if (!this.markers.has(slot)) return slot;
    }
    return -1;
  }

  addMarker(slot) {
    const marker = new THREE.Mesh(
      new THREE.CylinderGeometry(0.03, 0.03, 0.01, 24),
      new THREE.MeshStandardMaterial({color: 0x88ccff, emissive: 0x113355}));
    marker.rotation.x = Math.PI / 2;
    marker.position.set(slotX(slot), 0, 0.015);
    marker.name = 'bubble-marker';
    marker.xb = {pointerEvents: 'none'};
    const state = tag(marker, 'bubble-marker', {slot, age: 0});
    this.add(marker);
    this.markers.set(slot, marker);
    this.refresh();
    return state;
  }

  removeMarker(slot) {
    const marker = this.markers.get(slot);
    if (!marker) return;
    marker.removeFromParent();
    this.markers.delete(slot);
    this.state.popped += 1;
    this.refresh();
  }

  refresh() {
    this.state.alive = this.markers.size;
    this.state.slots = [...this.markers.keys()].sort((a, b) => a - b);
  }
}

class Bubble extends xb.MeshScript {
  constructor(game) {
    super(
      new THREE.SphereGeometry(0.06, 32, 16),
      new THREE.MeshStandardMaterial({
        color: 0xaaddff, transparent: true, opacity: 0.8, roughness: 0.1}));
    this.game = game;
    this.name = 'bubble';
    this.inits = 0;
    this.state = tag(this, 'bubble', {slot: -1, age: 0, inits: 0});
  }

  init() {
    this.inits += 1;
    this.slot = this.game.board.freeSlot();
    this.age = 0;
    this.rotation.set(0, 0, 0);
    this.position.set(slotX(this.slot), BUBBLE_HEIGHT, BUBBLE_DEPTH);
    this.marker = this.game.board.addMarker(this.slot);
    Object.assign(this.state, {slot: this.slot, age: 0, inits: this.inits});
  }

  update() {
    this.age += xb.getDeltaTime();
    this.position.y = BUBBLE_HEIGHT + BOB * Math.sin(2 * Math.PI * this.age / BOB_PERIOD);
    this.rotation.y = SPIN * this.age;
    this.state.age = this.age;
    this.marker.age = this.age;
  }

  onObjectSelectStart() {
    this.game.pop(this);
  }

  dispose() {
    this.game.board.removeMarker(this.slot);
  }
}

class SpawnButton extends xb.MeshScript {
  constructor(game) {
    super(
      new THREE.BoxGeometry(0.12, 0.06, 0.12),
      new THREE.MeshStandardMaterial({color: 0x33aa55}));
    this.game = game;
    this.name = 'spawn-button';
    this.position.set(0, 0.95, -0.7);
    this.state = tag(this, 'spawn-button', {presses: 0});
  }

  onObjectSelectStart() {
    this.state.presses += 1;
    this.game.spawn();
  }
}

class BubbleGame extends xb.Script {
  init() {
    this.name = 'bubble-game';
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.board = new Board();
    this.add(this.board);
    this.add(new SpawnButton(this));
    this.bubbles = new THREE.Group();
    this.bubbles.name = 'bubbles';
    this.add(this.bubbles);
    this.pool = [];  // popped bubbles, blown again by later presses
  }

  spawn() {
    if (this.board.freeSlot() < 0 || this.bubbles.children.length >= SLOTS) return;
    const bubble = this.pool.shift() ?? new Bubble(this);
    this.bubbles.add(bubble);
  }

  pop(bubble) {
    bubble.removeFromParent();
    this.pool.push(bubble);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new BubbleGame());
  xb.init(new xb.Options());
});
