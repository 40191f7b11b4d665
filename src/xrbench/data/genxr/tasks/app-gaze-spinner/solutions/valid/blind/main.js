import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Gaze spinner: a cube that turns on the spot, anticlockwise seen from above
 * at 90 degrees per second, only while the user looks at it.
 */

const CUBE_CENTER = new THREE.Vector3(0, 1.5, -1.5);
const CUBE_SIZE = 0.3;
const LOOK_ANGLE = THREE.MathUtils.degToRad(10);
const SPIN_SPEED = THREE.MathUtils.degToRad(90); // radians per second.

const _eyes = new THREE.Vector3();
const _forward = new THREE.Vector3();
const _toCube = new THREE.Vector3();

class GazeSpinner extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const geometry = new THREE.BoxGeometry(CUBE_SIZE, CUBE_SIZE, CUBE_SIZE);
    // Differently coloured faces so the turning shows.
    const colors = [0xff7043, 0xffca28, 0x66bb6a, 0x42a5f5, 0xab47bc, 0x26c6da];
    const materials = colors.map(
      (color) => new THREE.MeshStandardMaterial({color, roughness: 0.6})
    );
    this.cube = new THREE.Mesh(geometry, materials);
    this.cube.name = 'gaze-spinner';
    this.cube.position.copy(CUBE_CENTER);
    this.cube.userData.xrblocksDevtools = {
      tag: 'gaze-spinner',
      state: {looking: false},
    };
    this.add(this.cube);

    this.yaw = 0;
    this.lastTime = null;
    this.looking = false;
  }

  /** Whether the head's view direction is within 10 degrees of the cube. */
  isLookedAt() {
    const camera = xb.core.camera;
    if (!camera) return false;
    camera.updateMatrixWorld();
    camera.getWorldPosition(_eyes);
    camera.getWorldDirection(_forward);
    this.cube.getWorldPosition(_toCube).sub(_eyes);
    if (_toCube.lengthSq() < 1e-10) return false;
    return _forward.angleTo(_toCube) <= LOOK_ANGLE;
  }

  update() {
    const now = performance.now();
    const dt = this.lastTime === null ? 0 : Math.max(0, now - this.lastTime) / 1000;
    this.lastTime = now;

    const looking = this.isLookedAt();
    if (looking !== this.looking) {
      this.looking = looking;
      this.cube.userData.xrblocksDevtools.state.looking = looking;
    }
    if (looking) {
      // Anticlockwise seen from above: a positive turn about +y.
      this.yaw = (this.yaw + SPIN_SPEED * dt) % (2 * Math.PI);
    }
    // Only ever about its own vertical axis; the centre never moves.
    this.cube.rotation.set(0, this.yaw, 0);
    this.cube.position.copy(CUBE_CENTER);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new GazeSpinner());
  xb.init(new xb.Options());
});
