import * as THREE from 'three';
import * as xb from 'xrblocks';

const STEP = 0.5;  // metres of walking between footprints
const KEEP = 12;  // footprints kept
const LENGTH = 0.26;
const WIDTH = 0.11;

/**
 * Footprints: a trail of flat prints on the detected floor, one under the user when the floor is
 * found and one more every half metre walked, each pointing along the step that made it.
 */
class Footprints extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.prints = [];
    this.last = null;  // the ground point of the last footprint
    this.head = new THREE.Vector3();
    this.geometry = new THREE.CircleGeometry(0.5, 24).rotateX(-Math.PI / 2).scale(WIDTH, 1, LENGTH);
    this.material = new THREE.MeshBasicMaterial({color: 0x8d6e63});
  }

  floorHeight() {
    const floors = (xb.world?.planes?.get() ?? []).filter(
        (p) => (p.label || '').toLowerCase() === 'floor');
    if (!floors.length) return null;
    let best = floors[0];
    for (const f of floors) if ((f.area ?? 0) > (best.area ?? 0)) best = f;
    best.updateWorldMatrix(true, false);
    return new THREE.Vector3().setFromMatrixPosition(best.matrixWorld).y;
  }

  update() {
    const y = this.floorHeight();
    if (y === null) return;
    xb.core.camera.updateWorldMatrix(true, false);
    xb.core.camera.getWorldPosition(this.head);
    const ground = new THREE.Vector3(this.head.x, y, this.head.z);
    let heading;
    if (!this.last) {
      const f = new THREE.Vector3();
      xb.core.camera.getWorldDirection(f);
      heading = Math.atan2(f.x, f.z);
    } else {
      const dx = ground.x - this.last.x, dz = ground.z - this.last.z;
      if (Math.hypot(dx, dz) < STEP) return;
      heading = Math.atan2(dx, dz);
    }
    this.place(ground, heading);
  }

  place(ground, heading) {
    const print = new THREE.Mesh(this.geometry, this.material);
    print.position.copy(ground).add(new THREE.Vector3(0, 0.002, 0));
    print.rotation.y = heading;  // the print's length (local z) along the step
    print.userData.xrblocksDevtools = {tag: 'footprint', state: {}};
    xb.core.scene.add(print);
    this.prints.push(print);
    this.last = ground.clone();
    while (this.prints.length > KEEP) {
      const old = this.prints.shift();
      old.removeFromParent();
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.add(new Footprints());
  xb.init(options);
});
