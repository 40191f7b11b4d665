import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Depth reticle: a small ring on the real surface straight ahead of the
 * user's head, 1 cm in front of it and facing the user, read every frame from
 * the depth at the centre of the view. Hidden without depth data, where the
 * depth is unknown, or where the surface is farther than 3 m.
 */

const MAX_RANGE = 3.0; // metres
const STANDOFF = 0.01; // metres in front of the surface

class DepthReticle extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.ring = new THREE.Mesh(
      new THREE.RingGeometry(0.014, 0.02, 40),
      new THREE.MeshBasicMaterial({color: 0x00e5ff, side: THREE.DoubleSide})
    );
    this.ring.name = 'Depth reticle';
    this.ring.visible = false;
    this.ring.userData.xrblocksDevtools = {tag: 'depth-reticle', state: {}};
    this.add(this.ring);
    this.eye = new THREE.Vector3();
    this.forward = new THREE.Vector3();
    this.orientation = new THREE.Quaternion();
  }

  update() {
    const depth = xb.core.depth;
    const camera = xb.core.camera;
    const d = depth && depth.depthArray && depth.depthArray[0] ? depth.getDepth(0.5, 0.5) : 0;
    if (!(d > 0) || d > MAX_RANGE) {
      this.ring.visible = false;
      return;
    }
    camera.updateMatrixWorld(true);
    camera.getWorldPosition(this.eye);
    camera.getWorldQuaternion(this.orientation);
    this.forward.set(0, 0, -1).applyQuaternion(this.orientation);
    this.ring.position.copy(this.eye).addScaledVector(this.forward, d - STANDOFF);
    // The ring lies in its local x-y plane; the camera's orientation makes it
    // face the user.
    this.ring.quaternion.copy(this.orientation);
    this.ring.visible = true;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  xb.add(new DepthReticle());
  xb.init(options);
});
