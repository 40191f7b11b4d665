import * as THREE from 'three';
import * as xb from 'xrblocks';

const CENTRE = new THREE.Vector3(0, 1.2, -0.7);
const UP = new THREE.Vector3(0, 1, 0);

/** The left-to-right wrist vector, flattened onto the floor and normalised (null if untracked). */
function wristAxis() {
  const points = [];
  for (const hand of xb.core.input.hands) {
    const wrist = hand && hand.joints && hand.joints.wrist;
    if (!wrist) return null;
    wrist.updateWorldMatrix(true, false);
    points.push(new THREE.Vector3().setFromMatrixPosition(wrist.matrixWorld));
  }
  if (points.length < 2) return null;
  const axis = points[1].sub(points[0]);
  axis.y = 0;
  return axis.lengthSq() > 1e-8 ? axis.normalize() : null;
}

/** A model car on a virtual turntable; both hands' ray pinches steer it. */
class SteeringTurntable extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.car = new THREE.Mesh(
      new THREE.BoxGeometry(0.3, 0.1, 0.16),
      new THREE.MeshStandardMaterial({color: 0x1565c0, roughness: 0.4}));
    this.carState = {hands: 0};
    this.car.userData.xrblocksDevtools = {tag: 'turntable-model', state: this.carState};
    this.car.position.copy(CENTRE);
    this.add(this.car);

    this.heldBy = {left: false, right: false};
    this.wheel = null; // {axis, quaternion} at the second grab
  }

  onObjectSelectStart(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    this.heldBy[hand] = true;
    this.regrip();
  }

  onObjectSelectEnd(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    this.heldBy[hand] = false;
    this.regrip();
  }

  regrip() {
    const count = Number(this.heldBy.left) + Number(this.heldBy.right);
    this.carState.hands = count;
    const axis = count === 2 ? wristAxis() : null;
    this.wheel = axis ? {axis, quaternion: this.car.quaternion.clone()} : null;
  }

  update() {
    if (!this.wheel) return;
    const axis = wristAxis();
    if (!axis) return;
    const delta = new THREE.Quaternion().setFromUnitVectors(this.wheel.axis, axis);
    // Keep only the turn about the vertical axis (the vectors are horizontal; guard against flips).
    const angle = Math.atan2(
      new THREE.Vector3().crossVectors(this.wheel.axis, axis).dot(UP), this.wheel.axis.dot(axis));
    delta.setFromAxisAngle(UP, angle);
    this.car.quaternion.copy(delta.multiply(this.wheel.quaternion));
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new SteeringTurntable());
  xb.init(new xb.Options());
});
