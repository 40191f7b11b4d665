import * as THREE from 'three';
import * as xb from 'xrblocks';

// A decal reticle lying on the real surface: the surface normal is estimated
// from three depth samples around the centre of the view.

const STEP = 0.02; // in view coordinates

class DecalReticle extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.ring = new THREE.Mesh(
      new THREE.RingGeometry(0.014, 0.02, 32),
      new THREE.MeshBasicMaterial({color: 0xff4081, side: THREE.DoubleSide})
    );
    this.ring.userData.xrblocksDevtools = {tag: 'depth-reticle', state: {}};
    this.ring.visible = false;
    this.add(this.ring);
  }

  // World point seen at view coordinates (u, v), or null.
  pointAt(u, v) {
    const depth = xb.core.depth;
    const d = depth.getDepth(u, v);
    if (!(d > 0)) return null;
    const cam = xb.core.camera;
    const ndc = new THREE.Vector3(2 * u - 1, 2 * v - 1, 0.5).unproject(cam);
    const eye = cam.getWorldPosition(new THREE.Vector3());
    const dir = ndc.sub(eye);
    const fwd = cam.getWorldDirection(new THREE.Vector3());
    return eye.addScaledVector(dir, d / dir.dot(fwd));
  }

  update() {
    const depth = xb.core.depth;
    if (!depth || !depth.depthArray || !depth.depthArray[0]) {
      this.ring.visible = false;
      return;
    }
    const c = this.pointAt(0.5, 0.5);
    const r = this.pointAt(0.5 + STEP, 0.5);
    const t = this.pointAt(0.5, 0.5 + STEP);
    const eye = xb.core.camera.getWorldPosition(new THREE.Vector3());
    if (!c || !r || !t || c.distanceTo(eye) > 3) {
      this.ring.visible = false;
      return;
    }
    const normal = new THREE.Vector3().crossVectors(r.clone().sub(c), t.clone().sub(c)).normalize();
    if (normal.dot(eye.clone().sub(c)) < 0) normal.negate();
    this.ring.position.copy(c).addScaledVector(normal, 0.01);
    this.ring.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), normal);
    this.ring.visible = true;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  xb.add(new DecalReticle());
  xb.init(options);
});
