import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A sphere in front of the user that lights up while it is selected (a pinch, a controller
 * trigger or a click in the desktop simulator). Hands are enabled for direct interaction.
 */
class InteractionScene extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.sphere = new THREE.Mesh(
      new THREE.SphereGeometry(0.12, 32, 16),
      new THREE.MeshPhongMaterial({color: 0x4285f4}));
    this.sphere.position.set(0, xb.user.height - 0.3, -xb.user.objectDistance);
    this.add(this.sphere);
  }

  onObjectSelectStart(event) {
    if (event.surface === this.sphere) this.sphere.material.emissive.setHex(0x333333);
  }

  onObjectSelectEnd(event) {
    if (event.surface === this.sphere) this.sphere.material.emissive.setHex(0x000000);
  }
}

const options = new xb.Options();
options.enableHands();

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new InteractionScene());
  xb.init(options);
});
