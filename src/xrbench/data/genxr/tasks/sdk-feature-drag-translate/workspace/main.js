// Move Things: a crate on a shelf unit and a signpost that can be moved with XR Blocks' automatic
// manipulation (point and pinch to drag along the ray, or touch and pinch to carry it), and a
// bell that only rings. Objects carry semantic tags (`userData.xrblocksDevtools = {tag, state}`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

/** Counts the manipulation phases that reach an object. */
class Movable extends xb.Script {
  constructor(name, mesh, manipulation) {
    super();
    this.mesh = mesh;
    this.mesh.name = name;
    this.mesh.xb = {manipulation};
    this.state = tag(this.mesh, name, {moving: false, moves: 0, updates: 0});
    this.add(this.mesh);
  }

  onObjectManipulate(event) {
    if (event.action !== 'translate') return;
    if (event.phase === 'start') {
      this.state.moving = true;
      this.state.moves += 1;
    } else if (event.phase === 'update') {
      this.state.updates += 1;
    } else {
      this.state.moving = false;
    }
  }
}

class Bell extends xb.Script {
  init() {
    this.bell = new THREE.Mesh(
      new THREE.SphereGeometry(0.07, 24, 16),
      new THREE.MeshStandardMaterial({color: 0xddbb33}));
    this.bell.name = 'bell';
    this.bell.position.set(0.0, 1.5, -1.1);
    this.state = tag(this.bell, 'bell', {rings: 0});
    this.add(this.bell);
  }

  onObjectSelectStart() {
    this.state.rings += 1;
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  // The shelf unit is a group standing 0.3 m right of and 0.2 m behind the origin, raised 0.1 m:
  // the crate's own position is relative to it.
  const shelf = new THREE.Group();
  shelf.name = 'shelf';
  shelf.position.set(0.3, 0.1, -0.2);
  const crate = new THREE.Mesh(
    new THREE.BoxGeometry(0.16, 0.16, 0.16),
    new THREE.MeshStandardMaterial({color: 0x996633}));
  const crateScript = new Movable('crate', crate, {actions: {translate: true}});
  crateScript.position.set(0.0, 1.1, -0.6);  // world (0.3, 1.2, -0.8)
  shelf.add(crateScript);

  // A signpost that turns to face the user while it is moved.
  const sign = new THREE.Mesh(
    new THREE.BoxGeometry(0.24, 0.16, 0.02),
    new THREE.MeshStandardMaterial({color: 0x33aa77}));
  const signScript = new Movable('signpost', sign, {
    actions: {translate: {faceCamera: true, mode: 'cylindrical', smoothing: 1}},
  });
  signScript.position.set(-0.35, 1.3, -0.9);
  sign.rotation.y = THREE.MathUtils.degToRad(60);  // turned away at first

  xb.add(new Room());
  xb.add(shelf);
  xb.add(signScript);
  xb.add(new Bell());
  xb.init(new xb.Options());
});
