import * as THREE from 'three';
import * as xb from 'xrblocks';

// Gaze reticle with smoothing: it glides to the surface point ahead so that it
// does not jitter with the depth data.

class SmoothReticle extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.ring = new THREE.Mesh(
      new THREE.RingGeometry(0.015, 0.02, 32),
      new THREE.MeshBasicMaterial({color: 0xffffff, side: THREE.DoubleSide})
    );
    this.ring.userData.xrblocksDevtools = {tag: 'depth-reticle', state: {}};
    this.ring.visible = false;
    this.add(this.ring);
    this.goal = new THREE.Vector3();
  }

  update() {
    const depth = xb.core.depth;
    const d = depth?.depthArray?.[0] ? depth.getDepth(0.5, 0.5) : 0;
    if (!(d > 0) || d > 3) {
      this.ring.visible = false;
      return;
    }
    const cam = xb.core.camera;
    const eye = cam.getWorldPosition(new THREE.Vector3());
    const dir = cam.getWorldDirection(new THREE.Vector3());
    this.goal.copy(eye).addScaledVector(dir, d - 0.01);
    if (this.ring.visible) this.ring.position.lerp(this.goal, 0.25);
    else this.ring.position.copy(this.goal);
    this.ring.quaternion.slerp(cam.getWorldQuaternion(new THREE.Quaternion()), 0.25);
    this.ring.visible = true;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  xb.add(new SmoothReticle());
  xb.init(options);
});
