import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * The arrow rides on a holder group parented to the camera, 0.5 m down its -z axis; each frame the
 * beacon is taken into camera space, and the cone is rolled about the view axis towards it.
 */
class Indicator extends xb.Script {
  init() {
    this.add(new THREE.AmbientLight(0xffffff, 1.5));
    const beacon = new THREE.Mesh(new THREE.IcosahedronGeometry(0.1, 4), new THREE.MeshPhongMaterial({color: 0xff4081}));
    beacon.position.set(1.5, 1.2, 1.0);
    beacon.userData.xrblocksDevtools = {tag: 'beacon', state: {}};
    this.add(beacon);
    this.beacon = beacon;

    this.holder = new THREE.Group();
    this.holder.position.set(0, 0, -0.5);
    this.arrow = new THREE.Mesh(new THREE.ConeGeometry(0.025, 0.08, 12), new THREE.MeshBasicMaterial({color: 0xffffff}));
    this.arrow.userData.xrblocksDevtools = {tag: 'offscreen-arrow', state: {}};
    this.holder.add(this.arrow);
    this.attached = false;
    this.visibleNow = true;
  }

  update() {
    const camera = xb.core.camera;
    if (!this.attached) {
      camera.add(this.holder);
      this.attached = true;
    }
    camera.updateMatrixWorld(true);
    const local = camera.worldToLocal(this.beacon.getWorldPosition(new THREE.Vector3()));
    // In camera space the view is -z: the angle off the view, and the roll towards the beacon.
    const off = THREE.MathUtils.radToDeg(Math.atan2(Math.hypot(local.x, local.y), -local.z));
    if (off > 35) this.visibleNow = true;
    else if (off < 25) this.visibleNow = false;
    this.holder.visible = this.visibleNow;
    // Tip (+y) turned by the roll angle about the view axis.
    this.arrow.rotation.z = Math.atan2(-local.x, local.y);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Indicator());
  xb.init(new xb.Options());
});
