import * as THREE from 'three';
import * as xb from 'xrblocks';

const MAX_DEPTH = 3.0; // metres
const STANDOFF = 0.01; // metres in front of the surface

/** A 4 cm ring that sits on the real surface straight ahead of the user's head. */
class DepthReticle extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const geometry = new THREE.RingGeometry(0.012, 0.02, 32);
    const material = new THREE.MeshBasicMaterial({color: 0x00e5ff, side: THREE.DoubleSide});
    this.ring = new THREE.Mesh(geometry, material);
    this.ring.name = 'depth-reticle';
    this.ring.visible = false;
    this.ring.userData.xrblocksDevtools = {tag: 'depth-reticle', state: {}};
    this.add(this.ring);
    this.eye = new THREE.Vector3();
    this.forward = new THREE.Vector3();
    this.headRotation = new THREE.Quaternion();
  }

  update() {
    const depth = xb.core.depth;
    const d = depth && depth.depthArray && depth.depthArray[0] ? depth.getDepth(0.5, 0.5) : 0;
    if (!(d > 0) || d > MAX_DEPTH) {
      this.ring.visible = false;
      return;
    }
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    camera.getWorldPosition(this.eye);
    camera.getWorldQuaternion(this.headRotation);
    this.forward.set(0, 0, -1).applyQuaternion(this.headRotation).normalize();
    this.ring.position.copy(this.eye).addScaledVector(this.forward, d - STANDOFF);
    // The ring's local z axis along the ray: it faces the user.
    this.ring.quaternion.copy(this.headRotation);
    this.ring.visible = true;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  xb.add(new DepthReticle());
  xb.init(options);
});
