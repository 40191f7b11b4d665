import * as THREE from 'three';
import * as xb from 'xrblocks';

const RADIUS = 1.5;          // metres from the start position
const ANGLES = [40, 0, -40];  // degrees to the left (+) / right (-) of straight ahead
const MAX_ANGLE = THREE.MathUtils.degToRad(10);
const NORMAL = 0x5c6bc0;
const GLOW = 0xffc400;

/**
 * Three targets on an arc around the start position. Every frame, the one closest to the
 * head's view direction (within 10 degrees) glows; the others stay normal.
 */
class GazeTargets extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // The arc is a group centred on the user: the targets' positions are local to it.
    this.arc = new THREE.Group();
    this.arc.position.set(0, xb.user.height, 0);
    this.add(this.arc);
    this.targets = ANGLES.map((deg) => {
      const a = THREE.MathUtils.degToRad(deg);
      const target = new THREE.Mesh(
        new THREE.SphereGeometry(0.1, 32, 16),
        new THREE.MeshStandardMaterial({color: NORMAL, emissive: 0x000000}));
      target.position.set(-Math.sin(a) * RADIUS, 0, -Math.cos(a) * RADIUS);
      target.userData.xrblocksDevtools = {tag: 'gaze-target', state: {highlighted: false}};
      this.arc.add(target);
      return target;
    });

    this.head = new THREE.Vector3();
    this.forward = new THREE.Vector3();
    this.toTarget = new THREE.Vector3();
  }

  update() {
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    this.head.setFromMatrixPosition(camera.matrixWorld);
    this.forward.set(0, 0, -1).transformDirection(camera.matrixWorld);

    let best = null;
    let bestAngle = MAX_ANGLE;
    for (const target of this.targets) {
      // World positions: the targets live in a group, so `position` alone is not enough.
      target.getWorldPosition(this.toTarget).sub(this.head);
      const angle = this.forward.angleTo(this.toTarget);
      if (angle <= bestAngle) {
        best = target;
        bestAngle = angle;
      }
    }
    for (const target of this.targets) {
      const on = target === best;
      target.material.emissive.setHex(on ? GLOW : 0x000000);
      target.userData.xrblocksDevtools.state.highlighted = on;
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new GazeTargets());
  xb.init(new xb.Options());
});
