import * as THREE from 'three';
import * as xb from 'xrblocks';

class WallRayGuard extends xb.Script {
  init() {
    this.overlays = new Map();
    this.raycaster = new THREE.Raycaster();
  }

  update() {
    const walls = xb.world.planes.get().filter((p) => p.label === 'wall');
    for (const wall of walls) {
      if (!this.overlays.has(wall)) {
        const mesh = new THREE.Mesh(
          wall.geometry.clone(),
          new THREE.MeshBasicMaterial({color: '#ff0000', transparent: true, opacity: 0.4, side: THREE.DoubleSide})
        );
        wall.updateMatrixWorld(true);
        wall.matrixWorld.decompose(mesh.position, mesh.quaternion, mesh.scale);
        mesh.visible = false;
        mesh.userData.xrblocksDevtools = {tag: 'wall-warning'};
        this.add(mesh);
        this.overlays.set(wall, mesh);
      }
    }
    const camera = xb.core.camera;
    const origin = camera.getWorldPosition(new THREE.Vector3());
    const direction = camera.getWorldDirection(new THREE.Vector3());
    this.raycaster.set(origin, direction);
    const distances = new Map();
    for (const wall of walls) {
      wall.material.side = THREE.DoubleSide;
      const hit = this.raycaster.intersectObject(wall, false)[0];
      distances.set(wall, hit ? hit.distance : Infinity);
    }
    for (const [wall, mesh] of this.overlays) {
      const d = distances.get(wall) ?? Infinity;
      if (d < 0.6) mesh.visible = true;
      else if (d > 0.7) mesh.visible = false;
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new WallRayGuard());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
