import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Flags on the floor. A THREE.Ray from each pinching hand's controller is intersected with the
 * floor plane; the flag (a thin box pole and a cone pennant) is planted at the hit.
 */
class Flags extends xb.Script {
  init() {
    this.add(new THREE.AmbientLight(0xffffff, 1.5));
    this.floor = new THREE.Plane(new THREE.Vector3(0, 1, 0), 0);
    this.planted = new THREE.Group();
    this.add(this.planted);
  }

  plant(point) {
    const flag = new THREE.Group();
    flag.userData.xrblocksDevtools = {tag: 'floor-flag', state: {}};
    const pole = new THREE.Mesh(new THREE.BoxGeometry(0.01, 0.3, 0.01), new THREE.MeshLambertMaterial({color: 0x795548}));
    pole.position.y = 0.15;
    const pennant = new THREE.Mesh(new THREE.ConeGeometry(0.03, 0.1, 12), new THREE.MeshLambertMaterial({color: 0xffc107}));
    pennant.rotation.z = -Math.PI / 2;
    pennant.position.set(0.05, 0.26, 0);
    flag.add(pole, pennant);
    flag.position.copy(point);
    this.planted.add(flag);
    if (this.planted.children.length > 5) this.planted.remove(this.planted.children[0]);
  }

  onSelectStart(event) {
    const c = event.source.controller;
    const ray = new THREE.Ray(
      c.getWorldPosition(new THREE.Vector3()),
      new THREE.Vector3(0, 0, -1).applyQuaternion(c.getWorldQuaternion(new THREE.Quaternion()))
    );
    const hit = ray.intersectPlane(this.floor, new THREE.Vector3());
    if (hit && hit.distanceTo(ray.origin) <= 5) this.plant(hit);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new Flags());
  xb.init(options);
});
