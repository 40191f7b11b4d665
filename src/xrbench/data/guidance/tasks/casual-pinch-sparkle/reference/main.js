import * as THREE from 'three';
import * as xb from 'xrblocks';

const LIFETIME_S = 2.5;

/**
 * A pinch pops a small glowing star where the thumb and index finger meet; it fades out.
 */
class Sparkles extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.geometry = new THREE.OctahedronGeometry(0.02);
    this.stars = [];
    this.tip = new THREE.Vector3();
  }

  onSelectStart(event) {
    const handedness = event.source?.handedness === 'left' ? xb.Handedness.LEFT : xb.Handedness.RIGHT;
    const tip = xb.user.hands?.getIndexTip(handedness);
    if (!tip) return;
    tip.getWorldPosition(this.tip);
    const star = new THREE.Mesh(
      this.geometry,
      new THREE.MeshBasicMaterial({color: 0xfff176, transparent: true, opacity: 1}));
    star.position.copy(this.tip);
    star.userData.age = 0;
    this.add(star);
    this.stars.push(star);
  }

  update() {
    const dt = xb.getDeltaTime();
    for (const star of [...this.stars]) {
      star.userData.age += dt;
      star.rotation.y += dt * 3;
      star.material.opacity = Math.max(0, 1 - star.userData.age / LIFETIME_S);
      if (star.userData.age >= LIFETIME_S) {
        star.removeFromParent();
        star.material.dispose();
        this.stars.splice(this.stars.indexOf(star), 1);
      }
    }
  }

  dispose() {
    for (const star of this.stars) star.material.dispose();
    this.geometry.dispose();
  }
}

const options = new xb.Options();
options.enableHands();

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Sparkles());
  xb.init(options);
});
