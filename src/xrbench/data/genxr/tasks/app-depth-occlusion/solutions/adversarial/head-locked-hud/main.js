import * as THREE from 'three';
import * as xb from 'xrblocks';

/** A head-up display: a status light in the corner of the view and a gaze dot ahead. */
class DepthHud extends xb.Script {
  init() {
    const camera = xb.core.camera;
    this.light = new THREE.Mesh(
      new THREE.SphereGeometry(0.03, 16, 12), new THREE.MeshBasicMaterial({color: 0xd50000}));
    this.light.position.set(-0.2, -0.25, -0.6);
    this.state = {depthAvailable: false, centerDepth: null};
    this.light.userData.xrblocksDevtools = {tag: 'depth-status', state: this.state};
    camera.add(this.light);

    this.dot = new THREE.Mesh(
      new THREE.SphereGeometry(0.025, 16, 12), new THREE.MeshBasicMaterial({color: 0x00e5ff}));
    this.dot.position.set(0, 0, -1.5);
    this.dot.visible = false;
    this.dot.userData.xrblocksDevtools = {tag: 'depth-hit', state: {}};
    camera.add(this.dot);
    if (!camera.parent) xb.core.scene.add(camera);
  }

  update() {
    const depth = xb.core.depth;
    const ok = !!depth?.depthArray?.[0];
    this.state.depthAvailable = ok;
    this.state.centerDepth = ok ? depth.getDepth(0.5, 0.5) : null;
    this.light.material.color.setHex(ok ? 0x00c853 : 0xd50000);
    this.dot.visible = ok;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableDepth();
  options.depth.occlusion.enabled = true;
  xb.add(new DepthHud());
  xb.init(options);
});
