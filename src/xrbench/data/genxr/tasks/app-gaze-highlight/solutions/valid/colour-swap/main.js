import * as THREE from 'three';
import * as xb from 'xrblocks';

const DISTANCE = 1.5;                    // metres, horizontally from the start position
const COS_LIMIT = Math.cos(THREE.MathUtils.degToRad(10));
const IDLE = new THREE.Color(0x9e9e9e);  // grey
const LIT = new THREE.Color(0x00e5ff);   // cyan

/**
 * Three targets placed directly in the scene (world coordinates). Every frame, the target whose
 * centre is best aligned with the view direction (cosine at least cos 10 degrees) turns cyan.
 */
class GazeHighlight extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.targets = [-40, 0, 40].map((deg) => {
      const a = THREE.MathUtils.degToRad(deg);
      const mesh = new THREE.Mesh(
        new THREE.SphereGeometry(0.1, 24, 12),
        new THREE.MeshPhongMaterial({color: IDLE}));
      mesh.name = `gaze-target-${deg}`;
      mesh.position.set(DISTANCE * Math.sin(a), xb.user.height, -DISTANCE * Math.cos(a));
      mesh.userData.xrblocksDevtools = {tag: 'gaze-target', state: {highlighted: false}};
      this.add(mesh);
      return mesh;
    });
    this.eye = new THREE.Vector3();
    this.view = new THREE.Vector3();
    this.to = new THREE.Vector3();
  }

  update() {
    const camera = xb.core.camera;
    camera.getWorldPosition(this.eye);
    camera.getWorldDirection(this.view);
    let chosen = null;
    let bestCos = COS_LIMIT;
    for (const mesh of this.targets) {
      this.to.copy(mesh.position).sub(this.eye).normalize();
      const c = this.to.dot(this.view);
      if (c >= bestCos) {
        bestCos = c;
        chosen = mesh;
      }
    }
    for (const mesh of this.targets) {
      const lit = mesh === chosen;
      mesh.material.color.copy(lit ? LIT : IDLE);
      mesh.userData.xrblocksDevtools.state.highlighted = lit;
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new GazeHighlight());
  xb.init(new xb.Options());
});
