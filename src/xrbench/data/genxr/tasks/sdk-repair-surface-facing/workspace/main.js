// Room Signs: point a hand (or a controller) at a surface of the room (the floor, a table, a wall)
// and select to put up a sign there with `xb.world.placeOnSurface`. A sign is a flat board: its
// back lies on the surface, its printed face (+Y) looks out of the surface, and its yellow edge
// (+Z, the edge nearest the reader) turns towards the user. Objects carry semantic tags
// (`userData.xrblocksDevtools = {tag, state}`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

class RoomSigns extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.signs = new THREE.Group();
    this.signs.name = 'signs';
    this.add(this.signs);
    // Signs whose ray met no surface are kept out of sight, as the SDK left them.
    this.missed = new THREE.Group();
    this.missed.name = 'missed-signs';
    this.missed.visible = false;
    this.add(this.missed);
    this.log = new THREE.Object3D();
    this.log.name = 'sign-log';
    this.state = tag(this.log, 'sign-log', {attempts: 0, placed: 0, misses: 0, planes: 0});
    this.add(this.log);
  }

  makeSign(hand) {
    const sign = new THREE.Group();
    sign.name = 'sign';
    // The board, 32 x 20 cm and 2 cm thick; the sign's origin is the centre of its back.
    const board = new THREE.Mesh(
      new THREE.BoxGeometry(0.32, 0.02, 0.2),
      new THREE.MeshStandardMaterial({color: hand === 'left' ? 0x2f6fd6 : 0xd63a4a}));
    board.position.y = 0.01;
    // The printed face, on the board's +Y side.
    const face = new THREE.Mesh(
      new THREE.BoxGeometry(0.28, 0.004, 0.16),
      new THREE.MeshStandardMaterial({color: 0xf4f4f4}));
    face.position.y = 0.022;
    // The yellow reading edge along the face's +Z side: it should be nearest to the user.
    const edge = new THREE.Mesh(
      new THREE.BoxGeometry(0.28, 0.006, 0.025),
      new THREE.MeshStandardMaterial({color: 0xffd21f}));
    edge.position.set(0, 0.024, 0.0875);
    sign.add(board, face, edge);
    sign.xb = {pointerEvents: 'none'};
    // A new sign waits, tilted, high above the room until it is placed.
    sign.position.set(-0.3, 2.3, -1.8);
    sign.rotation.set(-0.4, 0.6, 0.25);
    return sign;
  }

  update() {
    const planes = xb.world?.planes?.get() ?? [];
    // Detected plane meshes are one-sided; the app makes them two-sided so that the pointing ray
    // meets a surface from whichever side the user points at it.
    for (const plane of planes) plane.material.side = THREE.DoubleSide;
    this.state.planes = planes.length;
  }

  onSelectStart(event) {
    const controller = event.source?.controller;
    if (!controller) return;
    const hand = event.source.handedness;
    this.state.attempts += 1;
    const sign = this.makeSign(hand);
    if (xb.world.placeOnSurface(sign, controller)) {
      tag(sign, 'sign', {hand, index: this.state.placed});
      this.signs.add(sign);
      this.state.placed += 1;
    } else {
      tag(sign, 'missed-sign', {hand, index: this.state.misses});
      this.missed.add(sign);
      this.state.misses += 1;
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new RoomSigns());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
