import * as THREE from 'three';
import * as xb from 'xrblocks';

const BOX_SIZE = 0.12;
const BOX_HOME = new THREE.Vector3(0, 1.3, -0.55);

/**
 * A box that either hand grabs by touching it and pinching. While held it keeps its offset to
 * the grabbing fingertip; released, it stays where it is.
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

    this.holder = null;  // the input source holding the box
    this.offset = new THREE.Vector3();  // box position minus the grab point, in world space
  }

  worldPosition() {
    return this.box.getWorldPosition(new THREE.Vector3());
  }

  setWorldPosition(world) {
    const local = world.clone();
    this.box.parent.worldToLocal(local);
    this.box.position.copy(local);
  }

  onObjectGrabStart(event) {
    if (this.holder) return;  // already held by the other hand
    this.holder = event.source;
    this.offset.copy(this.worldPosition()).sub(event.touchPosition);
    this.state.grabbed = true;
    this.box.material.color.setHex(0xff9800);
  }

  onObjectGrabbing(event) {
    if (event.source !== this.holder) return;
    this.setWorldPosition(event.touchPosition.clone().add(this.offset));
  }

  onObjectGrabEnd(event) {
    if (event.source !== this.holder) return;
    this.holder = null;
    this.state.grabbed = false;
    this.box.material.color.setHex(0x2196f3);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new GrabBox());
  xb.init(new xb.Options());
});
