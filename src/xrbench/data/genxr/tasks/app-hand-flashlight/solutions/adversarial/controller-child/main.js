import * as THREE from 'three';
import * as xb from 'xrblocks';

// Each flashlight is a child of its hand's controller: it follows the ray for free, but XR Blocks
// keeps the hands' controller objects hidden, so three.js never renders these lights.
class Flashlights extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 1));
    this.lights = xb.core.input.controllers.slice(0, 2).map((controller) => {
      const light = new THREE.SpotLight(0xffffff, 0, 0, Math.PI / 12);
      light.position.set(0, 0, 0);
      light.target.position.set(0, 0, -1);
      light.add(light.target);
      light.userData.xrblocksDevtools = {tag: 'flashlight', state: {}};
      controller.add(light);
      return light;
    });
  }

  onSelectStart(event) {
    const light = this.lights[xb.core.input.controllers.indexOf(event.source.controller)];
    if (light) light.intensity = light.intensity > 0 ? 0 : 6;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new Flashlights());
  xb.init(options);
});
