import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Spawns a sphere between the thumb and index fingertips whenever XR Blocks' gesture
 * recogniser reports a pinch, for either hand.
 */
class GesturePinchSpawner extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.spheres = new THREE.Group();
    this.add(this.spheres);
    xb.core.gestureRecognition?.addEventListener('gesturestart', (event) => {
      if (event.detail?.name === 'pinch') this.spawn(event.detail.hand);
    });
  }

  spawn(handedness) {
    const hand = xb.core.input.hands[handedness === 'left' ? 0 : 1];
    const index = hand?.joints?.['index-finger-tip'];
    const thumb = hand?.joints?.['thumb-tip'];
    if (!index || !thumb) return;
    const a = index.getWorldPosition(new THREE.Vector3());
    const b = thumb.getWorldPosition(new THREE.Vector3());
    const sphere = new THREE.Mesh(
      new THREE.SphereGeometry(0.02, 16, 12),
      new THREE.MeshStandardMaterial({color: 0x66bb6a}));
    // The group sits at the origin, so world and local positions agree.
    sphere.position.copy(a).add(b).multiplyScalar(0.5);
    sphere.userData.xrblocksDevtools = {tag: 'pinch-sphere', state: {hand: handedness}};
    this.spheres.add(sphere);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new GesturePinchSpawner());
  const options = new xb.Options();
  options.enableHands();
  options.enableGestures();
  xb.init(options);
});
