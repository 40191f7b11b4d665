import * as THREE from 'three';
import * as xb from 'xrblocks';

class ProximityWarning extends xb.Script {
  init() {
    this.entries = new Map();
  }

  update() {
    const head = new THREE.Vector3();
    xb.core.camera.getWorldPosition(head);
    for (const plane of xb.world.planes.get('wall')) {
      let entry = this.entries.get(plane);
      if (!entry) {
        entry = this.create(plane);
        this.entries.set(plane, entry);
      }
      const d = Math.abs(entry.surface.distanceToPoint(head));
      if (d < 0.6) entry.mesh.visible = true;
      else if (d > 0.7) entry.mesh.visible = false;
    }
  }

  create(plane) {
    plane.updateMatrixWorld(true);
    const box = new THREE.Box2();
    for (const p of plane.simulatorPlane.polygon) box.expandByPoint(p);
    const size = box.getSize(new THREE.Vector2());
    const centre = box.getCenter(new THREE.Vector2());
    const geometry = new THREE.PlaneGeometry(size.x, size.y);
    geometry.rotateX(-Math.PI / 2);
    geometry.translate(centre.x, 0.005, centre.y);
    const mesh = new THREE.Mesh(
      geometry,
      new THREE.MeshBasicMaterial({color: 0xff0000, transparent: true, opacity: 0.4, side: THREE.DoubleSide})
    );
    plane.matrixWorld.decompose(mesh.position, mesh.quaternion, mesh.scale);
    mesh.visible = false;
    mesh.userData.xrblocksDevtools = {tag: 'wall-warning'};
    this.add(mesh);
    const normal = new THREE.Vector3(0, 1, 0).applyQuaternion(mesh.quaternion);
    const surface = new THREE.Plane().setFromNormalAndCoplanarPoint(normal, mesh.position);
    return {mesh, surface};
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ProximityWarning());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
