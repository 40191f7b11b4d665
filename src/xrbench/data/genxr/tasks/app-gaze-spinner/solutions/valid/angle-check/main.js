import * as THREE from 'three';
import * as xb from 'xrblocks';

// A cube that spins at 90 degrees a second while the view direction is within 10 degrees of it.
const SPEED = THREE.MathUtils.degToRad(90);
const CONE = THREE.MathUtils.degToRad(10);

class GazeSpinner extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.cube = new THREE.Mesh(new THREE.BoxGeometry(0.3, 0.3, 0.3), new THREE.MeshStandardMaterial({color: 0x7e57c2}));
    this.cube.position.set(0, 1.5, -1.5);
    this.cube.userData.xrblocksDevtools = {tag: 'gaze-spinner', state: {}};
    this.add(this.cube);
    this.last = performance.now();
  }

  update() {
    const now = performance.now();
    const dt = (now - this.last) / 1000;
    this.last = now;
    const camera = xb.core.camera;
    const eyes = camera.getWorldPosition(new THREE.Vector3());
    const view = camera.getWorldDirection(new THREE.Vector3());
    const toCube = this.cube.position.clone().sub(eyes);
    if (view.angleTo(toCube) <= CONE) this.cube.rotation.y += SPEED * dt;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new GazeSpinner());
  xb.init(new xb.Options());
});
