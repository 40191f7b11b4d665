import * as THREE from 'three';
import * as xb from 'xrblocks';

const floor = new THREE.Plane(new THREE.Vector3(0, 1, 0), 0);

class FloorGaze extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.status = {depthAvailable: true, centerDepth: null};
    this.indicator = new THREE.Mesh(
      new THREE.SphereGeometry(0.03, 24, 16), new THREE.MeshStandardMaterial({color: 0x00c853}));
    this.indicator.position.set(-0.2, 1.25, -0.6);
    this.indicator.userData.xrblocksDevtools = {tag: 'depth-status', state: this.status};
    this.add(this.indicator);
    this.marker = new THREE.Mesh(
      new THREE.SphereGeometry(0.025, 24, 16), new THREE.MeshBasicMaterial({color: 0xffeb3b}));
    this.marker.userData.xrblocksDevtools = {tag: 'depth-hit', state: {}};
    this.add(this.marker);
    this.ray = new THREE.Ray();
  }

  update() {
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    this.ray.origin.setFromMatrixPosition(camera.matrixWorld);
    this.ray.direction.set(0, 0, -1).transformDirection(camera.matrixWorld);
    const hit = this.ray.intersectPlane(floor, new THREE.Vector3());
    if (hit) {
      this.marker.position.copy(hit);
      this.status.centerDepth = hit.distanceTo(this.ray.origin);
    } else {
      // Looking above the horizon: put the marker 4 m ahead.
      this.marker.position.copy(this.ray.at(4, new THREE.Vector3()));
      this.status.centerDepth = 4;
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableDepth();
  options.depth.occlusion.enabled = true;
  xb.add(new FloorGaze());
  xb.init(options);
});
