import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * The cylinder turns green while either hand holds a thumbs-up.
 */
class ThumbsUp extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.cylinder = new THREE.Mesh(
      new THREE.CylinderGeometry(0.2, 0.2, 0.4, 32),
      new THREE.MeshPhongMaterial({color: 0xffffff}));
    this.cylinder.position.set(0, xb.user.height - 0.5, -xb.user.objectDistance);
    this.add(this.cylinder);

    this.onGestureStart = (event) => {
      if (event.detail.name !== 'thumbs-up') return;
      console.log(`thumbs-up from the ${event.detail.hand} hand`);
      this.cylinder.material.color.setHex(0x43a047);
    };
    this.onGestureEnd = (event) => {
      if (event.detail.name !== 'thumbs-up') return;
      this.cylinder.material.color.setHex(0xffffff);
    };
    this.gestures = xb.core.gestureRecognition;
    this.gestures?.addEventListener('gesturestart', this.onGestureStart);
    this.gestures?.addEventListener('gestureend', this.onGestureEnd);
  }

  dispose() {
    this.gestures?.removeEventListener('gesturestart', this.onGestureStart);
    this.gestures?.removeEventListener('gestureend', this.onGestureEnd);
  }
}

const options = new xb.Options();
options.enableHands();
options.enableGestures();

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ThumbsUp());
  xb.init(options);
});
