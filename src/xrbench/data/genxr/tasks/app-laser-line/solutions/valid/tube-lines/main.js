import * as THREE from 'three';
import * as xb from 'xrblocks';

const RADIUS = 0.003;
const SHORTEST = 0.02;
const UP = new THREE.Vector3(0, 1, 0);

// A unit cylinder from y = 0 to y = 1, stretched between two points.
const UNIT = new THREE.CylinderGeometry(RADIUS, RADIUS, 1, 10, 1).translate(0, 0.5, 0);

function tipOf(handedness) {
  const hand = xb.core.input.hands[handedness === 'left' ? 0 : 1];
  const joint = hand && hand.joints && hand.joints['index-finger-tip'];
  if (!joint) return null;
  joint.updateWorldMatrix(true, false);
  return new THREE.Vector3().setFromMatrixPosition(joint.matrixWorld);
}

class Tube extends THREE.Mesh {
  constructor(handedness, from) {
    super(UNIT, new THREE.MeshStandardMaterial({color: handedness === 'left' ? 0x66bb6a : 0xef5350}));
    this.from = from.clone();
    this.to = from.clone();
    this.userData.xrblocksDevtools = {tag: 'line', state: {hand: handedness}};
    this.stretch(from);
  }

  stretch(to) {
    this.to.copy(to);
    const dir = new THREE.Vector3().subVectors(to, this.from);
    const length = dir.length();
    this.position.copy(this.from);
    if (length > 1e-6) this.quaternion.setFromUnitVectors(UP, dir.divideScalar(length));
    this.scale.set(1, Math.max(length, 1e-5), 1);
  }

  length() {
    return this.from.distanceTo(this.to);
  }
}

class StraightLines extends xb.Script {
  init() {
    this.add(new THREE.DirectionalLight(0xffffff, 2));
    this.add(new THREE.AmbientLight(0xffffff, 0.6));
    this.drawing = {left: null, right: null};
  }

  onSelectStart(event) {
    const side = event.source && event.source.handedness;
    if (!(side in this.drawing)) return;
    const from = tipOf(side);
    if (!from) return;
    const tube = new Tube(side, from);
    xb.core.scene.add(tube);
    this.drawing[side] = tube;
  }

  onSelectEnd(event) {
    const side = event.source && event.source.handedness;
    const tube = this.drawing[side];
    if (!tube) return;
    this.drawing[side] = null;
    if (tube.length() < SHORTEST) {
      xb.core.scene.remove(tube);
      tube.material.dispose();
    }
  }

  update() {
    for (const side of ['left', 'right']) {
      const tube = this.drawing[side];
      const to = tube && tipOf(side);
      if (to) tube.stretch(to);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new StraightLines());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
