import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Drag the crate: XR Blocks' built-in manipulation moves a crate with a hand ray (pinch while
 * pointing at it, then aim or move the hand) and a ball with a direct grab (fingertip inside,
 * pinch, move the hand). The app only records the manipulation events it receives (how many,
 * which hand, and the `point` of the latest one).
 *
 * Objects carry XR Blocks DevTools tags (`userData.xrblocksDevtools`) with their state.
 */
function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

/** A mesh that XR Blocks translates by itself; the Script only keeps score. */
class Movable extends xb.Script {
  constructor(name, mesh, position) {
    super();
    this.mesh = mesh;
    this.mesh.name = name;
    this.mesh.position.copy(position);
    this.mesh.xb = {manipulation: {actions: {translate: true}}};
    this.state = tag(this.mesh, name, {
      manipulating: false, starts: 0, updates: 0, hand: null, point: null,
    });
    this.add(this.mesh);
  }

  onObjectManipulate(event) {
    if (event.action !== 'translate') return;
    if (event.phase === 'start') {
      this.state.manipulating = true;
      this.state.starts += 1;
      this.state.hand = event.source?.handedness ?? null;
      this.state.point = event.point.toArray();
    } else if (event.phase === 'update') {
      this.state.updates += 1;
      this.state.point = event.point.toArray();
    } else {
      this.state.manipulating = false;
    }
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Room());
  xb.add(new Movable(
    'crate',
    new THREE.Mesh(new THREE.BoxGeometry(0.2, 0.2, 0.2),
                   new THREE.MeshStandardMaterial({color: 0xaa7744})),
    new THREE.Vector3(0, 1.3, -1.2)));
  xb.add(new Movable(
    'ball',
    new THREE.Mesh(new THREE.SphereGeometry(0.05, 24, 16),
                   new THREE.MeshStandardMaterial({color: 0xcc3355})),
    new THREE.Vector3(0, 1.2, -0.5)));
  xb.init(new xb.Options());
});
