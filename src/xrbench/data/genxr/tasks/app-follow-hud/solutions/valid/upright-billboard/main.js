import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A HUD that stays upright: it eases towards 0.6 m ahead of / 0.15 m below the eyes with a
 * per-frame lerp and turns about the vertical axis only, towards the user.
 */
class Hud extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.panel = new THREE.Mesh(
      new THREE.BoxGeometry(0.3, 0.15, 0.01),
      new THREE.MeshStandardMaterial({color: 0x37474f}));
    this.panel.userData.xrblocksDevtools = {tag: 'hud', state: {}};
    this.add(this.panel);
    this.started = false;
  }

  update() {
    const camera = xb.core.camera;
    const eyes = camera.getWorldPosition(new THREE.Vector3());
    const forward = camera.getWorldDirection(new THREE.Vector3());
    forward.y = 0;
    forward.normalize();
    const goal = eyes.clone().addScaledVector(forward, 0.6);
    goal.y -= 0.15;
    if (!this.started) {
      this.panel.position.copy(goal);
      this.started = true;
    } else {
      this.panel.position.lerp(goal, 0.12);
    }
    // Yaw only: the panel stays vertical.
    this.panel.rotation.set(0, Math.atan2(eyes.x - this.panel.position.x, eyes.z - this.panel.position.z), 0);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Hud());
  xb.init(new xb.Options());
});
