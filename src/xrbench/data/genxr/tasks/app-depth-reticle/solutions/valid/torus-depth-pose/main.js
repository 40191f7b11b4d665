import * as THREE from 'three';
import * as xb from 'xrblocks';

// A gaze reticle that rests on the real surface ahead, seen through the depth
// sensor. The ring is a thin torus; it is added to the scene only while the
// depth at the centre of the view is known and within reach.

const REACH = 3.0;
const GAP = 0.008;

const tmpEye = new THREE.Vector3();
const tmpAhead = new THREE.Vector3();

class Reticle extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const torus = new THREE.TorusGeometry(0.0175, 0.0025, 12, 48);
    this.ring = new THREE.Mesh(
      torus,
      new THREE.MeshStandardMaterial({color: '#ffd600', emissive: '#ffd600', emissiveIntensity: 0.6})
    );
    this.ring.name = 'reticle';
    this.ring.userData.xrblocksDevtools = {tag: 'depth-reticle', state: {}};
    this.onScene = false;
  }

  centreDepth() {
    const depth = xb.core.depth;
    if (!depth || !depth.depthArray || !depth.depthArray[0]) return null;
    const d = depth.getDepth(0.5, 0.5);
    return Number.isFinite(d) && d > 0 ? d : null;
  }

  show(on) {
    if (on && !this.onScene) this.add(this.ring);
    if (!on && this.onScene) this.remove(this.ring);
    this.onScene = on;
  }

  update() {
    const d = this.centreDepth();
    if (d === null || d > REACH) {
      this.show(false);
      return;
    }
    const camera = xb.core.camera;
    camera.updateMatrixWorld();
    tmpEye.setFromMatrixPosition(camera.matrixWorld);
    tmpAhead.set(0, 0, -1).transformDirection(camera.matrixWorld);
    this.ring.position.copy(tmpEye).add(tmpAhead.multiplyScalar(d - GAP));
    // A torus lies in its local x-y plane: turn its z axis towards the eyes.
    this.ring.lookAt(tmpEye);
    this.show(true);
    this.ring.updateMatrixWorld(true);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options().enableDepth();
  xb.add(new Reticle());
  xb.init(options);
});
