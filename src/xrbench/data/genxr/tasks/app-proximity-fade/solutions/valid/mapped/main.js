import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A torus knot at (0, 1.3, -2) whose opacity is mapped from the eyes' distance on the floor; the
 * material turns transparent only while it is see-through.
 */
const CENTRE = new THREE.Vector3(0, 1.3, -2);

class FadingSculpture extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const geometry = new THREE.TorusKnotGeometry(0.14, 0.04, 96, 12);
    geometry.computeBoundingBox();
    this.material = new THREE.MeshStandardMaterial({color: 0xd4af37, metalness: 0.4, roughness: 0.4});
    this.sculpture = new THREE.Mesh(geometry, this.material);
    this.sculpture.position.copy(CENTRE);
    this.sculpture.userData.xrblocksDevtools = {tag: 'sculpture', state: {}};
    this.add(this.sculpture);
    this.eye = new THREE.Vector3();
  }

  update() {
    xb.core.camera.getWorldPosition(this.eye);
    const d = Math.hypot(this.eye.x - CENTRE.x, this.eye.z - CENTRE.z);
    const opacity = THREE.MathUtils.clamp(THREE.MathUtils.mapLinear(d, 0.6, 1.6, 0.25, 1), 0.25, 1);
    const transparent = opacity < 1;
    if (transparent !== this.material.transparent) {
      this.material.transparent = transparent;
      this.material.needsUpdate = true;
    }
    this.material.opacity = opacity;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new FadingSculpture());
  xb.init(new xb.Options());
});
