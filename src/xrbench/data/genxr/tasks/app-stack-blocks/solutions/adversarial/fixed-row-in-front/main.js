import * as THREE from 'three';
import * as xb from 'xrblocks';

// Wrong on purpose: ignores plane detection. The blocks are shown from the start in a row at a
// fixed height in front of the user, and a released block stays where it was let go.
class Block extends xb.Script {
  constructor(id, x) {
    super();
    this.blockId = id;
    this.x = x;
  }

  init() {
    this.mesh = new THREE.Mesh(new THREE.BoxGeometry(0.08, 0.08, 0.08), new THREE.MeshNormalMaterial());
    this.mesh.position.set(this.x, 0.79, -1.5);
    this.mesh.userData.xrblocksDevtools = {tag: 'block', state: {id: this.blockId, restingOn: 'table', held: false}};
    this.add(this.mesh);
    if (this.blockId === 'B') this.add(new THREE.HemisphereLight(0xffffff, 0x444444, 3));
    this.from = null;
  }

  onObjectGrabStart(event) {
    this.from = {hand: event.touchPosition.clone(), block: this.mesh.position.clone()};
    Object.assign(this.mesh.userData.xrblocksDevtools.state, {held: true, restingOn: null});
  }

  onObjectGrabbing(event) {
    if (!this.from) return;
    this.mesh.position.copy(this.from.block).add(event.touchPosition.clone().sub(this.from.hand));
  }

  onObjectGrabEnd() {
    this.from = null;
    this.mesh.userData.xrblocksDevtools.state.held = false;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Block('A', -0.15), new Block('B', 0), new Block('C', 0.15));
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
