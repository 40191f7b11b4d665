import * as THREE from 'three';
import * as xb from 'xrblocks';

/** Ignores plane detection: spheres on the living room's four corners, from the start. */
class FixedCorners extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const geometry = new THREE.SphereGeometry(0.05, 24, 16);
    const material = new THREE.MeshStandardMaterial({color: 0xff7043});
    for (const [x, z] of [[-3, -4], [3, -4], [-3, 2], [3, 2]]) {
      const sphere = new THREE.Mesh(geometry, material);
      sphere.position.set(x, 0, z);
      sphere.userData.xrblocksDevtools = {tag: 'room-corner'};
      this.add(sphere);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new FixedCorners());
  xb.init(new xb.Options());
});
