import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Pinch to spawn spheres.
 *
 * Every pinch of a tracked hand (XR Blocks reports it as a select) leaves a
 * 4 cm sphere at that hand's index fingertip, where thumb and index meet. The
 * spheres stay in the room; moving the hand afterwards does not move them.
 *
 * A device reports the select once the fingers touch. XR Blocks' simulator
 * reports it as the fingers start to close, so a new sphere keeps to the
 * fingertip *in the frame of the hand as it was at the pinch* while the fingers
 * finish closing (a fraction of a second at most), then stays put for good. The
 * hand's own motion never carries a sphere along.
 */

const SPHERE_RADIUS = 0.02; // 4 cm across
const COLORS = {left: 0x36c5f0, right: 0xff5fa2};

// How a new sphere settles onto the point where the fingers meet.
const SETTLE_MAX_SECONDS = 0.6;
const SETTLE_STILL_METRES = 0.0005; // fingertip motion per frame that counts as closed
const HAND_MOVED_METRES = 0.005; // the hand itself moving ends settling at once
const HAND_TURNED_RADIANS = THREE.MathUtils.degToRad(3);

/** The two hand controllers; XR Blocks pairs controller i with hand i. */
function handControllers() {
  return (xb.core.input?.controllers ?? []).slice(0, 2);
}

function isPinching(controller) {
  return controller?.userData?.selected === true;
}

class PinchSpheres extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2.5));
    const sun = new THREE.DirectionalLight(0xffffff, 1.0);
    sun.position.set(0.5, 2.5, 1);
    this.add(sun);

    // Spheres live in the room (the scene), never under a hand.
    this.spheres = new THREE.Group();
    this.spheres.name = 'pinch-spheres';
    this.add(this.spheres);

    this.geometry = new THREE.SphereGeometry(SPHERE_RADIUS, 24, 16);
    this.materials = {
      left: new THREE.MeshStandardMaterial({
        color: COLORS.left,
        emissive: COLORS.left,
        emissiveIntensity: 0.25,
        roughness: 0.35,
      }),
      right: new THREE.MeshStandardMaterial({
        color: COLORS.right,
        emissive: COLORS.right,
        emissiveIntensity: 0.25,
        roughness: 0.35,
      }),
    };

    /** Controllers whose current pinch has already made its sphere. */
    this.pinchesHeld = new Set();
    /** Spheres still settling onto the closed pinch, one per hand at most. */
    this.settling = new Map();

    this.tmp = {
      point: new THREE.Vector3(),
      wristPosition: new THREE.Vector3(),
      wristQuaternion: new THREE.Quaternion(),
      inverse: new THREE.Matrix4(),
    };
  }

  onSelectStart(event) {
    const controller = event.source?.controller;
    const index = handControllers().indexOf(controller);
    if (index < 0) return; // not a hand (mouse, gaze, gamepad)
    if (this.pinchesHeld.has(controller)) return; // one pinch, one sphere
    this.pinchesHeld.add(controller);
    this.spawn(controller, index, this.handednessOf(event.source, index));
  }

  onSelectEnd(event) {
    const controller = event.source?.controller;
    this.pinchesHeld.delete(controller);
    this.finishSettling(controller);
  }

  update() {
    for (const controller of [...this.pinchesHeld]) {
      if (!isPinching(controller)) this.pinchesHeld.delete(controller);
    }
    const dt = xb.getDeltaTime();
    for (const [controller, entry] of this.settling) {
      entry.age += dt;
      this.settle(controller, entry);
    }
  }

  handednessOf(source, index) {
    const reported =
      source?.handedness ?? source?.controller?.inputSource?.handedness;
    if (reported === 'left' || reported === 'right') return reported;
    return index === 0 ? 'left' : 'right';
  }

  /** The hand's joints, when the hand is tracked. */
  jointsOf(index) {
    return xb.core.input?.hands?.[index]?.joints ?? null;
  }

  /** World position where the new sphere goes: the index fingertip. */
  fingertip(index, controller, target) {
    const tip = this.jointsOf(index)?.['index-finger-tip'];
    if (tip) return tip.getWorldPosition(target);
    return controller.getWorldPosition(target); // no hand data: the controller
  }

  spawn(controller, index, hand) {
    const sphere = new THREE.Mesh(this.geometry, this.materials[hand]);
    sphere.name = `pinch-sphere-${this.spheres.children.length + 1}`;
    sphere.xb = {pointerEvents: 'none'}; // rays and touches pass through it
    sphere.userData.xrblocksDevtools = {tag: 'pinch-sphere', state: {hand}};
    this.placeAtWorld(sphere, this.fingertip(index, controller, this.tmp.point));
    this.spheres.add(sphere);

    // Let it settle where the fingers meet, relative to the hand at the pinch.
    this.finishSettling(controller);
    const wrist = this.jointsOf(index)?.['wrist'];
    if (!wrist) return;
    wrist.updateWorldMatrix(true, false);
    this.settling.set(controller, {
      sphere,
      index,
      wrist,
      age: 0,
      handAtPinch: wrist.matrixWorld.clone(),
      wristPosition: wrist.getWorldPosition(new THREE.Vector3()),
      wristQuaternion: wrist.getWorldQuaternion(new THREE.Quaternion()),
      last: sphere.getWorldPosition(new THREE.Vector3()),
    });
  }

  settle(controller, entry) {
    const {wrist} = entry;
    const tmp = this.tmp;
    const tip = this.jointsOf(entry.index)?.['index-finger-tip'];
    if (
      !tip ||
      !isPinching(controller) ||
      entry.age > SETTLE_MAX_SECONDS ||
      !entry.sphere.parent
    ) {
      this.finishSettling(controller);
      return;
    }
    wrist.updateWorldMatrix(true, false);
    wrist.getWorldPosition(tmp.wristPosition);
    wrist.getWorldQuaternion(tmp.wristQuaternion);
    if (
      tmp.wristPosition.distanceTo(entry.wristPosition) > HAND_MOVED_METRES ||
      tmp.wristQuaternion.angleTo(entry.wristQuaternion) > HAND_TURNED_RADIANS
    ) {
      // The hand is on its way elsewhere: the sphere stays where it is.
      this.finishSettling(controller);
      return;
    }
    // Fingertip in the hand's frame now, placed with the hand as it was at the
    // pinch: only the closing of the fingers moves the sphere.
    tip.getWorldPosition(tmp.point);
    tmp.point.applyMatrix4(tmp.inverse.copy(wrist.matrixWorld).invert());
    tmp.point.applyMatrix4(entry.handAtPinch);
    const step = tmp.point.distanceTo(entry.last);
    this.placeAtWorld(entry.sphere, tmp.point);
    entry.last.copy(tmp.point);
    if (step < SETTLE_STILL_METRES) this.finishSettling(controller);
  }

  finishSettling(controller) {
    this.settling.delete(controller);
  }

  placeAtWorld(object, worldPoint) {
    const local = worldPoint.clone();
    this.spheres.updateWorldMatrix(true, false);
    this.spheres.worldToLocal(local);
    object.position.copy(local);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PinchSpheres());
  const options = new xb.Options();
  options.enableHands(); // spheres come from tracked hands' pinches
  xb.init(options);
});
