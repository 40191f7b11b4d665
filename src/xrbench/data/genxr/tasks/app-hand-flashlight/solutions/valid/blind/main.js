import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A flashlight in each hand: a pinch switches that hand's flashlight on or off, and while it is
 * on it shines along the hand's ray (from the hand's controller, along its -Z axis).
 */

const HANDS = ['left', 'right']; // xb.core.input.controllers[0] is the left hand, [1] the right.
const BEAM_HALF_ANGLE = THREE.MathUtils.degToRad(15);
const ON_INTENSITY = 30; // candela (three.js physically based lights)

const rayOrigin = new THREE.Vector3();
const rayDirection = new THREE.Vector3();
const localPoint = new THREE.Vector3();

class Flashlight {
  constructor(parent, handedness) {
    this.handedness = handedness;
    this.on = false;

    this.light = new THREE.SpotLight(0xfff2d6, 0, 0, BEAM_HALF_ANGLE, 0.25, 2);
    this.light.name = `flashlight-${handedness}`;
    this.light.visible = false;
    this.state = {hand: handedness, on: false, switches: 0};
    this.light.userData.xrblocksDevtools = {tag: 'flashlight', state: this.state};

    // The light shines towards its target, which must be in the scene to follow the hand.
    this.target = new THREE.Object3D();
    this.target.name = `flashlight-${handedness}-target`;
    this.light.target = this.target;

    parent.add(this.light);
    parent.add(this.target);
  }

  toggle() {
    this.on = !this.on;
    this.light.visible = this.on;
    this.light.intensity = this.on ? ON_INTENSITY : 0;
    this.state.on = this.on;
    this.state.switches += 1;
  }

  /** Puts the light at the start of the hand's ray, aimed along it. */
  follow(controller, parent) {
    if (!controller) return;
    controller.updateWorldMatrix(true, false);
    rayOrigin.setFromMatrixPosition(controller.matrixWorld);
    rayDirection.set(0, 0, -1).transformDirection(controller.matrixWorld);

    parent.updateWorldMatrix(true, false);
    this.light.position.copy(parent.worldToLocal(localPoint.copy(rayOrigin)));
    this.target.position.copy(
      parent.worldToLocal(localPoint.copy(rayOrigin).add(rayDirection))
    );
    this.light.updateMatrixWorld(true);
    this.target.updateMatrixWorld(true);
  }
}

class FlashlightsScene extends xb.Script {
  init() {
    // A soft light to see the room by (not a flashlight).
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 1.5));

    this.flashlights = HANDS.map((handedness) => new Flashlight(this, handedness));
    this.wasPinching = [false, false];
  }

  controller(index) {
    return xb.core.input?.controllers?.[index];
  }

  isPinching(index) {
    return this.controller(index)?.userData?.selected === true;
  }

  /** Switches a hand's flashlight once per pinch, when the pinch starts. */
  pinchState(index, pinching) {
    if (pinching && !this.wasPinching[index]) {
      this.flashlights[index].toggle();
      this.flashlights[index].follow(this.controller(index), this);
    }
    this.wasPinching[index] = pinching;
  }

  update() {
    for (let index = 0; index < HANDS.length; index++) {
      this.pinchState(index, this.isPinching(index));
      this.flashlights[index].follow(this.controller(index), this);
    }
  }

  handIndex(event) {
    const controller = event?.source?.controller ?? event?.target;
    if (!controller) return -1;
    const index = xb.core.input.controllers.indexOf(controller);
    return index === 0 || index === 1 ? index : -1;
  }

  // The select events back the polling above up (a pinch it did not see); a pinch is counted once.
  onSelectStart(event) {
    const index = this.handIndex(event);
    if (index >= 0) this.pinchState(index, true);
  }

  onSelectEnd(event) {
    const index = this.handIndex(event);
    if (index >= 0 && !this.isPinching(index)) this.wasPinching[index] = false;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new FlashlightsScene());
  xb.init(options);
});
