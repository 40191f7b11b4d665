import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Grab a box and move it.
 *
 * A 12 cm cube floats within arm's reach. Touch it with an index fingertip and
 * pinch while touching to pick it up with that hand (left or right); it then
 * follows the hand, keeping the offset it had when the grab began, and stays
 * exactly where it is let go when the pinch opens.
 *
 * XR Blocks resolves the contact: a hand grabbing the box (fingertip inside it
 * and pinching) reaches `onObjectGrabStart`. From then on the grab belongs to
 * the pinch, not to the contact: the box follows that hand every frame until
 * its pinch is released, even if the fingertip slips out of the box while the
 * fingers close or the hand moves quickly.
 */

const BOX_SIZE = 0.12; // metres, each side
const BOX_HOME = new THREE.Vector3(0, 1.3, -0.55);

const COLOR_IDLE = 0x4f8df7;
const COLOR_TOUCHED = 0x7fb0ff;
const COLOR_GRABBED = 0xffb340;

/** The controllers that carry the two hands (XR Blocks pairs them by index). */
function handControllers() {
  return (xb.core.input?.controllers ?? []).slice(0, 2);
}

/** 'left' or 'right' for an interaction source, or null when it is not a hand. */
function handednessOf(source) {
  const controller = source?.controller;
  const index = handControllers().indexOf(controller);
  if (index < 0) return null;
  const reported = source?.handedness ?? controller?.inputSource?.handedness;
  if (reported === 'left' || reported === 'right') return reported;
  return index === 0 ? 'left' : 'right';
}

/** Whether a hand's controller reports a held pinch (select). */
function isPinching(controller) {
  return controller?.userData?.selected === true;
}

/** The box: itself the tagged mesh and the Script that owns its grab. */
class GrabBox extends xb.MeshScript {
  constructor() {
    super(
      new THREE.BoxGeometry(BOX_SIZE, BOX_SIZE, BOX_SIZE),
      new THREE.MeshStandardMaterial({
        color: COLOR_IDLE,
        roughness: 0.45,
        metalness: 0.05,
      })
    );
    this.name = 'grab-box';
    this.position.copy(BOX_HOME);
    this.state = {grabbed: false, hand: null, grabs: 0};
    this.userData.xrblocksDevtools = {tag: 'grab-box', state: this.state};

    /** The controller holding the box, and the box's offset from it. */
    this.holder = null;
    this.holdOffset = new THREE.Vector3();
    /** Per hand controller: frame its current pinch began, frame its touch began. */
    this.frame = 0;
    this.pinchStartFrame = new Map();
    this.touchStartFrame = new Map();
    this.touching = new Set();
    this.handPosition = new THREE.Vector3();
  }

  init() {
    this.updateLook();
  }

  update() {
    this.frame += 1;
    // Note when each hand's pinch began; XR Blocks' interaction pass runs after
    // script updates, so a pinch seen here precedes any grab it causes.
    for (const controller of handControllers()) {
      if (!controller) continue;
      if (isPinching(controller)) {
        if (!this.pinchStartFrame.has(controller)) {
          this.pinchStartFrame.set(controller, this.frame);
        }
      } else {
        this.pinchStartFrame.delete(controller);
      }
    }

    if (!this.holder) return;
    if (!isPinching(this.holder) || this.holder.userData.connected === false) {
      this.release(); // the box stays exactly where it is
      return;
    }
    this.followHolder();
  }

  onObjectTouchStart(event) {
    const controller = event.source?.controller;
    if (!controller) return;
    this.touching.add(controller);
    this.touchStartFrame.set(controller, this.frame);
    this.updateLook();
  }

  onObjectTouchEnd(event) {
    this.touching.delete(event.source?.controller);
    this.updateLook();
  }

  onObjectGrabStart(event) {
    const controller = event.source?.controller;
    const hand = handednessOf(event.source);
    if (!controller || !hand || controller === this.holder) return;
    // Only a pinch made while touching grabs: a hand that was already pinching
    // before its fingertip reached the box sweeps through it without taking it.
    const pinchFrame = this.pinchStartFrame.get(controller) ?? this.frame;
    const touchFrame = this.touchStartFrame.get(controller) ?? this.frame;
    if (pinchFrame < touchFrame) return;
    this.grab(controller, hand);
  }

  onObjectGrabEnd(event) {
    // The grab ends when the pinch opens (see update()); losing contact while
    // still pinching, e.g. as the fingers close, keeps the box in hand.
    const controller = event.source?.controller;
    if (controller === this.holder && !isPinching(controller)) this.release();
  }

  grab(controller, hand) {
    this.holder = controller;
    controller.getWorldPosition(this.handPosition);
    // Keep the current offset: the box does not jump into the hand.
    this.updateWorldMatrix(true, false);
    this.getWorldPosition(this.holdOffset).sub(this.handPosition);
    this.state.grabbed = true;
    this.state.hand = hand;
    this.state.grabs += 1;
    this.updateLook();
  }

  release() {
    this.holder = null;
    this.state.grabbed = false;
    this.state.hand = null;
    this.updateLook();
  }

  followHolder() {
    this.holder.getWorldPosition(this.handPosition);
    const target = this.handPosition.add(this.holdOffset);
    if (this.parent) {
      this.parent.updateWorldMatrix(true, false);
      this.parent.worldToLocal(target);
    }
    this.position.copy(target);
  }

  updateLook() {
    const color = this.state.grabbed
      ? COLOR_GRABBED
      : this.touching.size > 0
        ? COLOR_TOUCHED
        : COLOR_IDLE;
    this.material.color.setHex(color);
    this.material.emissive.setHex(this.state.grabbed ? 0x3a2200 : 0x000000);
  }
}

class Lights extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2.5));
    const sun = new THREE.DirectionalLight(0xffffff, 1.2);
    sun.position.set(0.5, 2.5, 1);
    this.add(sun);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Lights());
  xb.add(new GrabBox());
  const options = new xb.Options();
  options.enableHands(); // direct touch and grab need tracked hands
  xb.init(options);
});
