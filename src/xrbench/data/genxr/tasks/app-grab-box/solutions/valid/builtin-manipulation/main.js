import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A box moved by XR Blocks' built-in manipulation (`object.xb.manipulation`): a touch and a
 * pinch drags it with the fingertip. The script mirrors the manipulation into the tag's state
 * and refuses manipulations that do not start with a direct touch (a pinch aimed with the hand's
 * ray), since only a direct grab may move the box.
 */
class GrabBoxScene extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const box = new THREE.Mesh(
      new THREE.BoxGeometry(0.12, 0.12, 0.12),
      new THREE.MeshStandardMaterial({color: 0x4caf50}));
    box.position.set(0, 1.3, -0.55);
    box.xb = {manipulation: {actions: {translate: true}}};
    box.userData.xrblocksDevtools = {tag: 'grab-box', state: {grabbed: false}};
    this.box = box;
    this.add(box);
  }

  onObjectManipulate(event) {
    if (event.source?.type !== 'direct-touch') {
      // A pinch aimed with the hand's ray from afar is not a grab: keep the box where it is.
      if (event.phase === 'start') event.preventDefault();
      return;
    }
    const state = this.box.userData.xrblocksDevtools.state;
    if (event.phase === 'start') state.grabbed = true;
    if (event.phase === 'end' || event.phase === 'cancel') state.grabbed = false;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new GrabBoxScene());
  xb.init(new xb.Options());
});
