import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A model car that two hands turn about the vertical axis like a steering wheel seen from
 * above: each hand grabs it by pinching while its ray points at it; while both hold it, its yaw
 * follows the change of the horizontal direction from the left wrist to the right wrist.
 */
class Turntable extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.car = new THREE.Mesh(
      new THREE.BoxGeometry(0.3, 0.1, 0.16),
      new THREE.MeshStandardMaterial({color: 0xd84315, roughness: 0.5}));
    this.car.position.set(0, 1.2, -0.7);
    this.state = {hands: 0};
    this.car.userData.xrblocksDevtools = {tag: 'turntable-model', state: this.state};
    this.add(this.car);

    /** Controllers holding the car. */
    this.holders = new Set();
    this.turning = false;
    this.startAngle = 0;
    this.startYaw = 0;
  }

  onObjectSelectStart(event) {
    this.holders.add(event.source.controller);
    this.changed();
  }

  onObjectSelectEnd(event) {
    this.holders.delete(event.source.controller);
    this.changed();
  }

  /** Horizontal direction (radians, counter-clockwise seen from above) from left to right wrist. */
  wristAngle() {
    const hands = xb.core.input.hands;
    const l = hands[0]?.joints?.['wrist'];
    const r = hands[1]?.joints?.['wrist'];
    if (!l || !r) return null;
    const a = new THREE.Vector3().setFromMatrixPosition(l.matrixWorld);
    const b = new THREE.Vector3().setFromMatrixPosition(r.matrixWorld);
    return Math.atan2(-(b.z - a.z), b.x - a.x);
  }

  changed() {
    this.state.hands = this.holders.size;
    this.turning = false;
    if (this.holders.size === 2) {
      const angle = this.wristAngle();
      if (angle !== null) {
        this.turning = true;
        this.startAngle = angle;
        this.startYaw = this.car.rotation.y;
      }
    }
  }

  /** Direction of the wrist of the only holding hand around the car's centre. */
  orbitAngle() {
    const [controller] = this.holders;
    const index = controller?.userData?.handedness === 'left' || controller?.handedness === 'left' ? 0 : 1;
    const wrist = xb.core.input.hands[index]?.joints?.['wrist'];
    if (!wrist) return null;
    const p = new THREE.Vector3().setFromMatrixPosition(wrist.matrixWorld).sub(this.car.position);
    return Math.atan2(-p.z, p.x);
  }

  update() {
    if (this.holders.size === 1) {
      const angle = this.orbitAngle();
      if (angle === null) return;
      if (this.orbitStart === undefined) {
        this.orbitStart = angle;
        this.orbitYaw = this.car.rotation.y;
      }
      this.car.rotation.y = this.orbitYaw + (angle - this.orbitStart);
      return;
    }
    this.orbitStart = undefined;
    if (!this.turning) return;
    const angle = this.wristAngle();
    if (angle === null) return;
    let delta = angle - this.startAngle;
    delta = Math.atan2(Math.sin(delta), Math.cos(delta));
    this.car.rotation.y = this.startYaw + delta;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Turntable());
  xb.init(new xb.Options());
});
