import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A photo frame and a globe the user resizes with both hands through XR Blocks' built-in scale
 * manipulation: point one hand's ray at an object and pinch, then pinch with the other hand and
 * change the distance between the hands. Each object has a smallest and a largest scale (per side
 * for the frame). The app only records the scale events it receives in each object's DevTools tag
 * state.
 *
 * Both meshes are 1 m across before scaling (a 1 m box, a sphere of radius 0.5 m), so an object's
 * scale is its size in metres.
 */
function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function scalable(name, geometry, color, size, position, limits) {
  const mesh = new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({color}));
  mesh.name = name;
  mesh.position.set(...position);
  mesh.scale.set(...size);
  mesh.xb = {manipulation: {actions: {scale: limits}}};
  const state = tag(mesh, name, {scaling: false, starts: 0, ends: 0});
  return {mesh, state};
}

class Resizing extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // A photo frame 40 x 30 cm and 1.5 cm deep: at least 20 x 12 x 1 cm, at most 80 x 50 x 3 cm.
    this.frame = scalable('frame', new THREE.BoxGeometry(1, 1, 1), 0x8d6e63, [0.4, 0.3, 0.015],
        [-0.35, 1.4, -1.3], {
          minScale: {x: 0.2, y: 0.12, z: 0.01},
          maxScale: {x: 0.8, y: 0.5, z: 0.03},
        });
    // A globe 24 cm across; between 12 and 36 cm.
    this.globe = scalable('globe', new THREE.SphereGeometry(0.5, 32, 16), 0x1e88e5,
        [0.24, 0.24, 0.24], [0.4, 1.5, -1.3], {minScale: 0.12, maxScale: 0.36});
    this.add(this.frame.mesh);
    this.add(this.globe.mesh);
  }

  onObjectManipulate(event) {
    if (event.action !== 'scale') return;
    const item = [this.frame, this.globe].find((i) => i.mesh === event.owner);
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
  xb.add(new Resizing());
  xb.init(new xb.Options());
});
