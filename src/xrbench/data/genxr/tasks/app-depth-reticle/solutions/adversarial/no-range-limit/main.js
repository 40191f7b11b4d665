import * as THREE from 'three';
import * as xb from 'xrblocks';

// The reticle rides on the camera and is pushed out to the depth ahead.

class CameraReticle extends xb.Script {
  init() {
    this.ring = new THREE.Mesh(
      new THREE.TorusGeometry(0.018, 0.002, 8, 40),
      new THREE.MeshBasicMaterial({color: 0x76ff03})
    );
    this.ring.userData.xrblocksDevtools = {tag: 'depth-reticle', state: {}};
    this.ring.visible = false;
    xb.core.camera.add(this.ring);
  }

  update() {
    const d = xb.core.depth ? xb.core.depth.getDepth(0.5, 0.5) : 0;
    this.ring.visible = d > 0;
    if (d > 0) this.ring.position.set(0, 0, -(d - 0.01));
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  xb.add(new CameraReticle());
  xb.init(options);
});
