import * as THREE from 'three';
import * as xb from 'xrblocks';

const CUBE_SIZE = 0.2;

/**
 * A cube that two hands resize: while both hands hold it (touch + pinch), its scale is the
 * scale it had when the second hand grabbed it times the ratio of the current to the initial
 * distance between the two grabbing fingertips, in world coordinates.
 */
class ScalableCube extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.cube = new THREE.Mesh(
      new THREE.BoxGeometry(CUBE_SIZE, CUBE_SIZE, CUBE_SIZE),
      new THREE.MeshStandardMaterial({color: 0x7e57c2, roughness: 0.6}));
    this.cube.position.set(0, 1.3, -0.5);
    this.state = {hands: 0, scale: 1};
    this.cube.userData.xrblocksDevtools = {tag: 'scalable-cube', state: this.state};
    this.add(this.cube);

    /** Grabbing controller -> its fingertip in world coordinates. */
    this.grips = new Map();
    this.startDistance = 0;
    this.startScale = 1;
  }

  onObjectGrabStart(event) {
    // Grab points relative to the cube.
    this.grips.set(event.source.controller, this.cube.worldToLocal(event.touchPosition.clone()));
    this.onGripsChanged();
  }

  onObjectGrabbing(event) {
    const point = this.grips.get(event.source.controller);
    if (point) point.copy(this.cube.worldToLocal(event.touchPosition.clone()));
  }

  onObjectGrabEnd(event) {
    this.grips.delete(event.source.controller);
    this.onGripsChanged();
  }

  onGripsChanged() {
    this.state.hands = this.grips.size;
    if (this.grips.size === 2) {
      const [a, b] = [...this.grips.values()];
      this.startDistance = Math.max(a.distanceTo(b), 1e-3);
      this.startScale = this.cube.scale.x;
    }
  }

  update() {
    if (this.grips.size !== 2) return;
    const [a, b] = [...this.grips.values()];
    const scale = this.startScale * a.distanceTo(b) / this.startDistance;
    this.cube.scale.setScalar(THREE.MathUtils.clamp(scale, 0.1, 10));
    this.state.scale = this.cube.scale.x;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ScalableCube());
  xb.init(new xb.Options());
});
