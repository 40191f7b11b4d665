import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Night sky: stars on a Fibonacci lattice over the upper sky, in a rig that tracks the eyes'
 * position. The head's pitch comes from its world rotation as YXZ Euler angles.
 */
class Sky extends xb.Script {
  init() {
    const n = 300;
    const points = [];
    for (let i = 0; i < n; i++) {
      // heights spread evenly in sin(elevation) from sin(12 deg) to 1
      const s = Math.sin(THREE.MathUtils.degToRad(12)) + (1 - Math.sin(THREE.MathUtils.degToRad(12))) * ((i + 0.5) / n);
      const r = Math.sqrt(1 - s * s);
      const a = i * 2.399963229728653;
      points.push(new THREE.Vector3(r * Math.cos(a), s, r * Math.sin(a)).multiplyScalar(8));
    }
    const geometry = new THREE.BufferGeometry().setFromPoints(points);
    this.sky = new THREE.Points(geometry, new THREE.PointsMaterial({color: 0xfff8e1, size: 3, sizeAttenuation: false}));
    this.sky.userData.xrblocksDevtools = {tag: 'night-sky', state: {}};
    this.rig = new THREE.Group();
    this.rig.add(this.sky);
    this.add(this.rig);
    this.shown = false;
    this.sky.visible = false;
  }

  update() {
    const q = xb.core.camera.getWorldQuaternion(new THREE.Quaternion());
    const pitch = THREE.MathUtils.radToDeg(new THREE.Euler().setFromQuaternion(q, 'YXZ').x);
    if (!this.shown && pitch > 40) this.shown = true;
    if (this.shown && pitch < 30) this.shown = false;
    this.sky.visible = this.shown;
    xb.core.camera.getWorldPosition(this.rig.position);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Sky());
  xb.init(new xb.Options());
});
