import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Off-screen indicator: a cone placed 0.5 m ahead of the eyes each frame, its tip turned from +y
 * onto the beacon's direction projected onto the view plane; shown above 35 degrees off the
 * view, hidden below 25.
 */
const BEACON = new THREE.Vector3(1.5, 1.2, 1.0);
const UP = new THREE.Vector3(0, 1, 0);

class OffscreenArrow extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.beacon = new THREE.Mesh(
      new THREE.SphereGeometry(0.1, 24, 16),
      new THREE.MeshStandardMaterial({color: 0xffa000, emissive: 0x663300})
    );
    this.beacon.position.copy(BEACON);
    this.beacon.userData.xrblocksDevtools = {tag: 'beacon', state: {}};
    this.add(this.beacon);

    this.arrow = new THREE.Mesh(new THREE.ConeGeometry(0.02, 0.06, 16), new THREE.MeshBasicMaterial({color: 0x00e5ff}));
    this.arrow.userData.xrblocksDevtools = {tag: 'offscreen-arrow', state: {}};
    this.add(this.arrow);
    this.shown = true;
    this.eye = new THREE.Vector3();
    this.forward = new THREE.Vector3();
    this.toBeacon = new THREE.Vector3();
  }

  update() {
    const camera = xb.core.camera;
    camera.getWorldPosition(this.eye);
    camera.getWorldDirection(this.forward);
    this.toBeacon.subVectors(BEACON, this.eye);
    // Off-screen means outside the camera's frustum.
    camera.updateMatrixWorld(true);
    const frustum = new THREE.Frustum().setFromProjectionMatrix(
      new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse)
    );
    this.shown = !frustum.containsPoint(BEACON);
    this.arrow.visible = this.shown;
    if (!this.shown) return;
    this.arrow.position.copy(this.eye).addScaledVector(this.forward, 0.5);
    const flat = this.toBeacon.clone().addScaledVector(this.forward, -this.toBeacon.dot(this.forward));
    if (flat.lengthSq() < 1e-8) {
      // Straight behind: any direction in the view plane; take the camera's up.
      flat.set(0, 1, 0).applyQuaternion(camera.getWorldQuaternion(new THREE.Quaternion()));
    }
    this.arrow.quaternion.setFromUnitVectors(UP, flat.normalize());
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new OffscreenArrow());
  xb.init(new xb.Options());
});
