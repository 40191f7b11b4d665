import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Two objects the user resizes with both hands through XR Blocks' built-in scale manipulation:
 * point one hand's ray at an object and pinch, then pinch with the other hand and change the
 * distance between the hands. A flat notice board and a cube; each has a smallest and a largest
 * size per side (minScale / maxScale). The app only records the scale events it receives in each
 * object's DevTools tag state.
 *
 * Both meshes use a 1 m box, so an object's scale is its size in metres.
 */
function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function scalable(name, color, size, position, limits) {
  const mesh = new THREE.Mesh(
      new THREE.BoxGeometry(1, 1, 1),
      new THREE.MeshStandardMaterial({color}));
  mesh.name = name;
  mesh.position.set(...position);
  mesh.scale.set(...size);
  mesh.xb = {manipulation: {actions: {scale: limits}}};
  const state = tag(mesh, name, {scaling: false, starts: 0, ends: 0});
  return {mesh, state};
}

class Scaling extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // A notice board 60 x 40 cm and 2 cm thick, with limits per side: at least 15 x 12 x 1 cm,
    // at most 120 x 60 x 5 cm.
    this.board = scalable('board', 0x3366aa, [0.6, 0.4, 0.02], [-0.4, 1.45, -1.4], {
      minScale: {x: 0.15, y: 0.12, z: 0.01},
      maxScale: {x: 1.2, y: 0.6, z: 0.05},
    });
    // A 20 cm cube; no side shorter than 10 cm or longer than 40 cm.
    this.cube = scalable('cube', 0xcc7733, [0.2, 0.2, 0.2], [0.4, 1.45, -1.4],
        {minScale: 0.1, maxScale: 0.4});
    this.add(this.board.mesh);
    this.add(this.cube.mesh);
  }

  onObjectManipulate(event) {
    if (event.action !== 'scale') return;
    const item = [this.board, this.cube].find((i) => i.mesh === event.owner);
    if (!item) return;
    if (event.phase === 'start') {
      item.state.scaling = true;
      item.state.starts += 1;
    } else if (event.phase === 'end' || event.phase === 'cancel') {
      item.state.scaling = false;
      item.state.ends += 1;
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Scaling());
  xb.init(new xb.Options());
});
