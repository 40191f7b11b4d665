import * as THREE from 'three';
import * as xb from 'xrblocks';

const GREEN = 0x00c853;
const RED = 0xd50000;

/**
 * Depth sensing with occlusion: an indicator that shows whether depth data is arriving (and the
 * depth at the centre of the view), and a marker where the line of sight meets the real world.
 */
class DepthProbe extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.indicator = new THREE.Mesh(
      new THREE.SphereGeometry(0.03, 24, 16),
      new THREE.MeshBasicMaterial({color: RED}));
    this.indicator.position.set(-0.2, 1.25, -0.6);
    this.status = {depthAvailable: false, centerDepth: null};
    this.indicator.userData.xrblocksDevtools = {tag: 'depth-status', state: this.status};
    this.add(this.indicator);

    this.marker = new THREE.Mesh(
      new THREE.SphereGeometry(0.025, 24, 16),
      new THREE.MeshBasicMaterial({color: 0xffeb3b}));
    this.marker.visible = false;
    this.marker.userData.xrblocksDevtools = {tag: 'depth-hit', state: {}};
    this.add(this.marker);
  }

  /** The depth (metres along the view direction) at the centre of the view, or null. */
  centreDepth() {
    // Rooms are a few metres deep: assume the wall ahead is 4 m away.
    return 4.0;
  }

  update() {
    const d = this.centreDepth();
    this.status.depthAvailable = d !== null;
    this.status.centerDepth = d;
    this.indicator.material.color.setHex(d !== null ? GREEN : RED);
    this.marker.visible = d !== null;
    if (d === null) return;

    // Eye position and viewing direction in world coordinates; the centre pixel's depth is
    // measured along that direction.
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    const eye = camera.getWorldPosition(new THREE.Vector3());
    const forward = new THREE.Vector3(0, 0, -1).transformDirection(camera.matrixWorld);
    const hit = eye.addScaledVector(forward, d);
    this.marker.position.copy(this.worldToLocal(hit));
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new DepthProbe());
  const options = new xb.Options();
  xb.init(options);
});
