import * as THREE from 'three';
import * as xb from 'xrblocks';

class WallFade extends xb.Script {
  init() {
    this.overlays = new Map();
  }

  update() {
    const head = xb.core.camera.position;
    for (const plane of xb.world.planes.get()) {
      if (plane.orientation !== 'vertical') continue;
      let overlay = this.overlays.get(plane);
      if (!overlay) {
        overlay = new THREE.Mesh(
          plane.geometry.clone(),
          new THREE.MeshBasicMaterial({color: 0xff0000, transparent: true, opacity: 0, side: THREE.DoubleSide})
        );
        overlay.position.copy(plane.position);
        overlay.quaternion.copy(plane.quaternion);
        overlay.userData.xrblocksDevtools = {tag: 'wall-warning'};
        this.add(overlay);
        this.overlays.set(plane, overlay);
      }
      const local = plane.worldToLocal(head.clone());
      const box = new THREE.Box3().setFromBufferAttribute(plane.geometry.attributes.position);
      const nearest = box.clampPoint(local, new THREE.Vector3());
      const d = nearest.distanceTo(local);
      overlay.material.opacity = d < 0.6 ? 0.4 : 0;
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new WallFade());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
