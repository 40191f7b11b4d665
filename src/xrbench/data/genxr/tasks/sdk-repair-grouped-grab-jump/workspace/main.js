import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A small shelf with a jar on it, and a loose block. XR Blocks' built-in manipulation moves the
 * jar and the block (grab with the fingertip and pinch, or point a hand ray and pinch, then move
 * the hand). The shelf is a group turned a quarter turn about the vertical and drawn at half size;
 * the jar is one of its children. The app only records the manipulation events it receives (how
 * many, which hand) in each object's DevTools tag state.
 *
 * Objects carry XR Blocks DevTools tags (`userData.xrblocksDevtools`) with their state.
 */
function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

/** Records the translate events XR Blocks sends for a mesh it moves by itself. */
function movable(name, mesh) {
  mesh.name = name;
  mesh.xb = {manipulation: {actions: {translate: true}}};
  const state = tag(mesh, name, {manipulating: false, starts: 0, ends: 0, hand: null});
  return state;
}

class Shelf extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // The shelf: a group at (0, 1.0, -0.6), turned 90 degrees about +Y, at half scale.
    const shelf = new THREE.Group();
    shelf.name = 'shelf';
    shelf.position.set(0, 1.0, -0.6);
    shelf.rotation.y = Math.PI / 2;
    shelf.scale.setScalar(0.5);
    tag(shelf, 'shelf');
    const board = new THREE.Mesh(
        new THREE.BoxGeometry(1.0, 0.04, 0.5),
        new THREE.MeshStandardMaterial({color: 0x886644}));
    board.position.set(-0.3, 0.2, -0.2);
    shelf.add(board);
    this.add(shelf);

    // The jar stands on the board (in the shelf's own coordinates).
    this.jar = new THREE.Mesh(
        new THREE.BoxGeometry(0.16, 0.16, 0.16),
        new THREE.MeshStandardMaterial({color: 0x3399cc}));
    this.jar.position.set(-0.3, 0.3, -0.2);
    this.jarState = movable('jar', this.jar);
    shelf.add(this.jar);

    // A loose block, straight in the scene.
    this.block = new THREE.Mesh(
        new THREE.BoxGeometry(0.08, 0.08, 0.08),
        new THREE.MeshStandardMaterial({color: 0xcc5533}));
    this.block.position.set(0.12, 1.25, -0.45);
    this.blockState = movable('block', this.block);
    this.add(this.block);
  }

  onObjectManipulate(event) {
    if (event.action !== 'translate') return;
    const state = event.owner === this.jar ? this.jarState :
        event.owner === this.block ? this.blockState : null;
    if (!state) return;
    if (event.phase === 'start') {
      state.manipulating = true;
      state.starts += 1;
      state.hand = event.source?.handedness ?? null;
    } else if (event.phase === 'end' || event.phase === 'cancel') {
      state.manipulating = false;
      state.ends += 1;
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Shelf());
  xb.init(new xb.Options());
});
