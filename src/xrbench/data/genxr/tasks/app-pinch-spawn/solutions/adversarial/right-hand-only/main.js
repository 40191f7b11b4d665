import * as THREE from 'three';
import * as xb from 'xrblocks';

const COLORS = {left: 0x4fc3f7, right: 0xffb74d};

/**
 * Every pinch (select) of either hand drops a 4 cm sphere at that hand's index fingertip. The
 * spheres stay where they were made.
 */
class PinchSpawner extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.geometry = new THREE.SphereGeometry(0.02, 16, 12);
    this.count = 0;
  }

  onSelectStart(event) {
    const handedness = event.source?.handedness;
    // Wrong: listens to the right hand only (the usual dominant hand).
    if (handedness !== 'right') return;
    const hand = xb.core.input.hands[1];
    const tip = hand?.joints?.['index-finger-tip'];
    if (!tip) return;

    const sphere = new THREE.Mesh(
      this.geometry, new THREE.MeshStandardMaterial({color: COLORS[handedness]}));
    // World position of the fingertip; the sphere goes into the scene (not under the hand), so
    // it stays where it was made.
    tip.getWorldPosition(sphere.position);
    this.count += 1;
    sphere.userData.xrblocksDevtools = {tag: 'pinch-sphere', state: {hand: handedness, index: this.count}};
    xb.core.scene.add(sphere);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PinchSpawner());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
