import * as THREE from 'three';
import * as xb from 'xrblocks';

const MAX_CUBES = 20;

/**
 * Each pinch spawns a 5 cm cube at the pinching hand's index tip (or at the selecting
 * controller when the tip is not tracked); the oldest cube goes once there are more than 20.
 */
class PinchSpawner extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.geometry = new THREE.BoxGeometry(0.05, 0.05, 0.05);
    this.cubes = [];
    this.point = new THREE.Vector3();
  }

  onSelectStart(event) {
    const handedness = event.source?.handedness === 'left' ? xb.Handedness.LEFT : xb.Handedness.RIGHT;
    const tip = xb.user.hands?.getIndexTip(handedness);
    if (tip) {
      tip.getWorldPosition(this.point);
    } else if (event.source?.controller) {
      event.source.controller.getWorldPosition(this.point);
    } else {
      return;
    }
    const cube = new THREE.Mesh(
      this.geometry,
      new THREE.MeshPhongMaterial({color: new THREE.Color().setHSL(Math.random(), 0.7, 0.55)}));
    cube.position.copy(this.point);
    this.add(cube);
    this.cubes.push(cube);
    if (this.cubes.length > MAX_CUBES) {
      const oldest = this.cubes.shift();
      oldest.removeFromParent();
      oldest.material.dispose();
    }
  }

  dispose() {
    for (const cube of this.cubes) cube.material.dispose();
    this.geometry.dispose();
  }
}

const options = new xb.Options();
options.enableHands();

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PinchSpawner());
  xb.init(options);
});
