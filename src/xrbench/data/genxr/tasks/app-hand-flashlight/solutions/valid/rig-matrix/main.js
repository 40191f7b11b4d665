import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A flashlight in each hand: a spot light in a rig that takes its hand controller's world matrix
 * every frame (the controller itself is hidden, and three.js skips lights under hidden parents);
 * each pinch of that hand switches it on or off.
 */
class Flashlights extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 1));
    this.lights = [];
    // controllers[0] and [1] are the hands; later entries are mouse and gamepads
    xb.core.input.controllers.slice(0, 2).forEach((controller, i) => {
      const light = new THREE.SpotLight(0xfff2d0, 0, 0, THREE.MathUtils.degToRad(15), 0.3, 2);
      light.position.set(0, 0, 0); // a SpotLight starts one metre up
      light.target.position.set(0, 0, -1);
      light.add(light.target);
      light.userData.xrblocksDevtools = {tag: 'flashlight', state: {}};
      const rig = new THREE.Group();
      rig.matrixAutoUpdate = false;
      rig.add(light);
      this.add(rig);
      this.lights[i] = {light, rig, controller};
    });
  }

  update() {
    for (const {rig, controller} of this.lights) {
      controller.updateWorldMatrix(true, false);
      rig.matrix.copy(controller.matrixWorld);
      rig.matrixWorldNeedsUpdate = true;
    }
  }

  onSelectStart(event) {
    const i = xb.core.input.controllers.indexOf(event.source.controller);
    const light = this.lights[i]?.light;
    if (light) light.intensity = light.intensity > 0 ? 0 : 8;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new Flashlights());
  xb.init(options);
});
