import * as THREE from 'three';
import * as xb from 'xrblocks';

const BOX_SIZE = 0.12;
const BOX_HOME = new THREE.Vector3(0, 1.3, -0.55);

/**
 * A box that follows whichever hand pinches, keeping its offset to the hand, and stays where
 * it is when the pinch ends.
 */
class GrabBox extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.box = new THREE.Mesh(
      new THREE.BoxGeometry(BOX_SIZE, BOX_SIZE, BOX_SIZE),
      new THREE.MeshStandardMaterial({color: 0x2196f3, roughness: 0.5}));
    this.box.position.copy(BOX_HOME);
    this.state = {grabbed: false};
    this.box.userData.xrblocksDevtools = {tag: 'grab-box', state: this.state};
    this.add(this.box);

    this.controller = null;
    this.offset = new THREE.Vector3();
  }

  onSelectStart(event) {
    if (this.controller) return;
    this.controller = event.source.controller;
    const hand = this.controller.getWorldPosition(new THREE.Vector3());
    this.offset.copy(this.box.position).sub(hand);
    this.state.grabbed = true;
  }

  onSelectEnd(event) {
    if (event.source.controller !== this.controller) return;
    this.controller = null;
    this.state.grabbed = false;
  }

  update() {
    if (!this.controller) return;
    const hand = this.controller.getWorldPosition(new THREE.Vector3());
    this.box.position.copy(hand).add(this.offset);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new GrabBox());
  xb.init(new xb.Options());
});
