import * as THREE from 'three';
import * as xb from 'xrblocks';

// Two hand flashlights. Each lives in the scene and copies its hand's controller pose every frame
// while it is on; a pinch adds it to the scene or takes it out.
const HALF_ANGLE = Math.PI / 12;

class Flashlight {
  constructor(handedness) {
    this.on = false;
    this.light = new THREE.SpotLight(0xffffff, 5, 8, HALF_ANGLE, 0.2, 1.5);
    this.light.userData.xrblocksDevtools = {tag: 'flashlight', state: {hand: handedness}};
  }

  follow(controller) {
    controller.updateWorldMatrix(true, false);
    const pos = new THREE.Vector3();
    const quat = new THREE.Quaternion();
    controller.matrixWorld.decompose(pos, quat, new THREE.Vector3());
    this.light.position.copy(pos);
    const ahead = new THREE.Vector3(0, 0, -3).applyQuaternion(quat).add(pos);
    this.light.target.position.copy(ahead);
  }
}

class HandFlashlights extends xb.Script {
  init() {
    this.add(new THREE.AmbientLight(0xffffff, 0.6));
    this.flashlights = {left: new Flashlight('left'), right: new Flashlight('right')};
  }

  onSelectStart(event) {
    const index = event.source.handedness === 'left' ? 0 : 1;
    const f = this.flashlights[index === 0 ? 'left' : 'right'];
    f.on = !f.on;
    if (f.on) {
      f.follow(xb.core.input.controllers[index]);
      this.add(f.light);
      this.add(f.light.target);
    } else {
      this.remove(f.light);
      this.remove(f.light.target);
    }
  }

  update() {
    ['left', 'right'].forEach((side, index) => {
      const f = this.flashlights[side];
      if (f.on) f.follow(xb.core.input.controllers[index]);
    });
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new HandFlashlights());
  xb.init(options);
});
