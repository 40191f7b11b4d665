import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Watched spinner: the cube's yaw grows at a quarter turn a second while the head faces it (the
 * cosine of the angle to it at least cos 10 degrees); the yaw is kept as an angle of its own.
 */
class Spinner extends xb.Script {
  init() {
    this.add(new THREE.DirectionalLight(0xffffff, 2));
    this.add(new THREE.AmbientLight(0xffffff, 0.5));
    this.box = new THREE.Mesh(new THREE.BoxGeometry(0.3, 0.3, 0.3), new THREE.MeshLambertMaterial({color: 0x26c6da}));
    this.box.position.set(0, 1.5, -1.5);
    this.box.userData.xrblocksDevtools = {tag: 'gaze-spinner', state: {}};
    this.add(this.box);
    this.yaw = 0;
    this.minCos = Math.cos(Math.PI / 18);
  }

  update() {
    const now = performance.now();
    const dt = this.before === undefined ? 0 : (now - this.before) / 1000;
    this.before = now;
    const cam = xb.core.camera;
    cam.updateWorldMatrix(true, false);
    const eye = new THREE.Vector3().setFromMatrixPosition(cam.matrixWorld);
    const forward = new THREE.Vector3(0, 0, -1).transformDirection(cam.matrixWorld);
    const to = this.box.position.clone().sub(eye).normalize();
    if (forward.dot(to) >= this.minCos) {
      this.yaw = (this.yaw + (Math.PI / 2) * dt) % (2 * Math.PI);
      this.box.quaternion.setFromAxisAngle(new THREE.Vector3(0, 1, 0), this.yaw);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Spinner());
  xb.init(new xb.Options());
});
