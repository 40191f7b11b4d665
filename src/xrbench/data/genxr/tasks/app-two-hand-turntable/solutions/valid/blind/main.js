import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Two-hand turntable: grab the model car with both hands (point a hand ray at
 * it and pinch) and turn it about the vertical axis like a steering wheel,
 * following the horizontal direction from the left wrist to the right wrist.
 */

const CAR_CENTER = new THREE.Vector3(0, 1.2, -0.7);
const CAR_SIZE = new THREE.Vector3(0.3, 0.1, 0.16);

const HANDS = ['left', 'right'];

const _wrist = new THREE.Vector3();
const _origin = new THREE.Vector3();
const _direction = new THREE.Vector3();

/** Wraps an angle to (-PI, PI]. */
function wrapAngle(angle) {
  angle = (angle + Math.PI) % (2 * Math.PI);
  if (angle < 0) angle += 2 * Math.PI;
  return angle - Math.PI;
}

class TwoHandTurntable extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const geometry = new THREE.BoxGeometry(CAR_SIZE.x, CAR_SIZE.y, CAR_SIZE.z);
    this.material = new THREE.MeshStandardMaterial({
      color: 0xd8322a,
      roughness: 0.4,
      metalness: 0.2,
      emissive: 0x000000,
    });
    this.car = new THREE.Mesh(geometry, this.material);
    this.car.name = 'model-car';
    this.car.position.copy(CAR_CENTER);
    this.car.rotation.set(0, 0, 0);
    this.car.userData.xrblocksDevtools = {
      tag: 'turntable-model',
      state: {hands: 0},
    };
    this.add(this.car);

    this.raycaster = new THREE.Raycaster();
    this.holding = {left: false, right: false};
    // Set while both hands hold the car: where the turn started from.
    this.turn = null;
  }

  /** 'left' or 'right' for a select event of a hand, else null. */
  handOf(event) {
    const source = event?.source;
    if (source?.handedness === 'left' || source?.handedness === 'right') {
      return source.handedness;
    }
    const controller = source?.controller ?? event?.target;
    const index = xb.core.input.controllers.indexOf(controller);
    if (index === 0 || index === 1) return this.handednessOfIndex(index);
    return null;
  }

  /** Handedness of input slot `index` (controllers[i] and hands[i]). */
  handednessOfIndex(index) {
    const handedness =
      xb.core.input.controllers[index]?.inputSource?.handedness;
    if (handedness === 'left' || handedness === 'right') return handedness;
    return index === 0 ? 'left' : 'right';
  }

  /** The controller (ray) and hand space of a hand. */
  slotOf(hand) {
    for (const index of [0, 1]) {
      if (this.handednessOfIndex(index) === hand) {
        return {
          controller: xb.core.input.controllers[index],
          handSpace: xb.core.input.hands?.[index],
        };
      }
    }
    return {controller: undefined, handSpace: undefined};
  }

  /** Whether the hand's ray (its controller's -Z) is on the car now. */
  rayIsOnCar(hand, event) {
    if (event?.target && this.isCar(event.target)) return true;
    if (event?.intersection?.object && this.isCar(event.intersection.object)) {
      return true;
    }
    const controller = event?.source?.controller ?? this.slotOf(hand).controller;
    if (!controller) return false;
    controller.updateWorldMatrix(true, false);
    _origin.setFromMatrixPosition(controller.matrixWorld);
    _direction.set(0, 0, -1).transformDirection(controller.matrixWorld);
    this.raycaster.set(_origin, _direction);
    this.car.updateWorldMatrix(true, false);
    return this.raycaster.intersectObject(this.car, false).length > 0;
  }

  isCar(object) {
    for (let o = object; o; o = o.parent) {
      if (o === this.car) return true;
    }
    return false;
  }

  /** World position of a hand's wrist, or null when it is not tracked. */
  wristOf(hand, target) {
    const handSpace = this.slotOf(hand).handSpace;
    const wrist = handSpace?.joints?.wrist;
    if (!wrist) return null;
    wrist.getWorldPosition(target);
    return target;
  }

  /** Yaw (about +y) of the horizontal direction from left to right wrist. */
  wristDirectionYaw() {
    const left = this.wristOf('left', new THREE.Vector3());
    const right = this.wristOf('right', new THREE.Vector3());
    if (!left || !right) return null;
    const dx = right.x - left.x;
    const dz = right.z - left.z;
    if (dx * dx + dz * dz < 1e-8) return null;
    // Rotating +x by a yaw of `a` about +y gives (cos a, 0, -sin a).
    return Math.atan2(-dz, dx);
  }

  onSelectStart(event) {
    const hand = this.handOf(event);
    if (!hand || this.holding[hand]) return;
    if (!this.rayIsOnCar(hand, event)) return;
    this.holding[hand] = true;
    this.onHoldingChanged();
  }

  onSelectEnd(event) {
    const hand = this.handOf(event);
    if (!hand || !this.holding[hand]) return;
    // Keep the angle the car has now.
    if (this.turn) this.applyTurn();
    this.holding[hand] = false;
    this.onHoldingChanged();
  }

  onHoldingChanged() {
    const count = HANDS.filter((h) => this.holding[h]).length;
    this.car.userData.xrblocksDevtools.state.hands = count;
    this.material.emissive.setHex(count === 2 ? 0x442200 : count ? 0x221100 : 0);
    if (count === 2) {
      // The second hand grabbed: start turning from here.
      const wristYaw = this.wristDirectionYaw();
      this.turn =
        wristYaw === null
          ? null
          : {carYaw: this.car.rotation.y, wristYaw};
    } else {
      this.turn = null;
    }
  }

  applyTurn() {
    const wristYaw = this.wristDirectionYaw();
    if (wristYaw === null) return;
    const yaw = wrapAngle(
      this.turn.carYaw + wrapAngle(wristYaw - this.turn.wristYaw)
    );
    // Only ever about the vertical axis through the car's centre.
    this.car.rotation.set(0, yaw, 0);
    this.car.position.copy(CAR_CENTER);
  }

  update() {
    if (this.holding.left && this.holding.right) {
      if (!this.turn) {
        // Wrists were not tracked when the second hand grabbed.
        const wristYaw = this.wristDirectionYaw();
        if (wristYaw !== null) {
          this.turn = {carYaw: this.car.rotation.y, wristYaw};
        }
      } else {
        this.applyTurn();
      }
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new TwoHandTurntable());
  xb.init(new xb.Options().enableHands());
});
