import * as THREE from 'three';
import * as xb from 'xrblocks';

const ABOVE_THUMB = 0.15;

/** A star appears 15 cm above the thumb of the hand that makes a thumbs-up. */
class ThumbsUpStars extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.geometry = new THREE.OctahedronGeometry(0.025);
    xb.core.gestureRecognition?.addEventListener('gesturestart', (event) => {
      const {name, hand} = event.detail;
      if (name === 'thumbs-up') this.addStar(hand);
    });
  }

  thumbTip(hand) {
    const joint = xb.core.input.hands[hand === 'left' ? 0 : 1]?.joints?.['thumb-tip'];
    return joint ? joint.getWorldPosition(new THREE.Vector3()) : null;
  }

  addStar(hand) {
    // Stars line up in the sky in front of the user.
    const count = this.children.filter((c) => c.isMesh).length;
    const tip = new THREE.Vector3(-0.3 + 0.1 * count, 1.5, -0.8);
    const star = new THREE.Mesh(
      this.geometry,
      new THREE.MeshStandardMaterial({color: 0xffd54f, emissive: 0x6d4c00}));
    star.position.copy(this.worldToLocal(tip.add(new THREE.Vector3(0, ABOVE_THUMB, 0))));
    star.userData.xrblocksDevtools = {tag: 'star', state: {hand}};
    this.add(star);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ThumbsUpStars());
  const options = new xb.Options();
  options.enableHands();
  options.enableGestures();
  xb.init(options);
});
