import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Place the vase: a vase waits beside the user; a pinch (or click) asks XR Blocks to place it on
 * a horizontal surface of the room with `xb.world.placeOnHorizontalSurface`. The vase has a
 * front (a yellow label on its +Z side), which should face the user once placed.
 *
 * Objects carry XR Blocks DevTools tags (`userData.xrblocksDevtools`) with their state.
 */
function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

class Vase extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // The vase: its origin at the bottom, +Y up, the label on its front (+Z).
    this.vase = new THREE.Group();
    this.vase.name = 'vase';
    const body = new THREE.Mesh(
      new THREE.CylinderGeometry(0.05, 0.07, 0.22, 24),
      new THREE.MeshStandardMaterial({color: 0x3366cc}));
    body.position.y = 0.11;
    const label = new THREE.Mesh(
      new THREE.BoxGeometry(0.05, 0.05, 0.01),
      new THREE.MeshStandardMaterial({color: 0xffdd33}));
    label.position.set(0, 0.1, 0.065);
    this.vase.add(body, label);
    this.vase.position.set(0.35, 1.0, -0.5);  // waiting beside the user
    this.state = tag(this.vase, 'vase', {placed: false, attempts: 0, busy: false});
    this.add(this.vase);

    // What plane detection reports (for the app's own status display).
    this.status = new THREE.Object3D();
    this.status.name = 'plane-status';
    this.statusState = tag(this.status, 'plane-status', {planes: 0, horizontal: [], normals: {}});
    this.add(this.status);
  }

  update() {
    const planes = xb.world?.planes?.get() ?? [];
    if (planes.length === this.statusState.planes) return;
    this.statusState.planes = planes.length;
    this.statusState.horizontal = planes
      .filter((p) => String(p.orientation).toLowerCase() === 'horizontal')
      .map((p) => p.label)
      .sort();
    const normals = {};
    for (const plane of planes) {
      const normal = new THREE.Vector3(0, 1, 0)
        .applyQuaternion(plane.getWorldQuaternion(new THREE.Quaternion()));
      normals[plane.label] = normal.toArray().map((v) => Math.round(v * 1000) / 1000);
    }
    this.statusState.normals = normals;
  }

  async onSelectStart() {
    if (this.state.busy) return;
    this.state.busy = true;
    this.state.attempts += 1;
    try {
      this.state.placed = await xb.world.placeOnHorizontalSurface(this.vase, {milliseconds: 1000});
    } finally {
      this.state.busy = false;
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Vase());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
