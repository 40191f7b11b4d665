import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Bimanual scaling: a 0.2 m cube floats at (0, 1.3, -0.5). Each hand grabs it
 * by pinching while its index fingertip touches the cube and holds it until
 * the pinch opens. While both hands hold it, the cube is resized uniformly
 * about its own centre so that its size stays proportional to the distance
 * between the two index fingertips (relative to the size and distance at the
 * moment the second hand grabbed). The cube never moves or rotates.
 */

const CUBE_SIZE = 0.2; // metres, edge length at scale 1
const CUBE_CENTER = new THREE.Vector3(0, 1.3, -0.5);
// A fingertip touches the cube when it is inside the cube's box or within
// this distance of its surface (about the radius of a fingertip).
const TOUCH_MARGIN = 0.01;
// Below this reference distance between the fingertips the ratio is
// meaningless; resizing waits until the two tips are apart.
const MIN_REFERENCE_DISTANCE = 1e-4;

const COLOR_IDLE = 0xffffff;
const COLOR_ONE_HAND = 0x7fb8ff;
const COLOR_TWO_HANDS = 0x66dd88;

const _box = new THREE.Box3();
const _tipA = new THREE.Vector3();
const _tipB = new THREE.Vector3();

class BimanualScaleScene extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const geometry = new THREE.BoxGeometry(CUBE_SIZE, CUBE_SIZE, CUBE_SIZE);
    this.material = new THREE.MeshPhongMaterial({color: COLOR_IDLE});
    this.cube = new THREE.Mesh(geometry, this.material);
    this.cube.name = 'ScalableCube';
    this.cube.position.copy(CUBE_CENTER);
    this.cube.userData.xrblocksDevtools = {
      tag: 'scalable-cube',
      state: {hands: 0, scale: 1},
    };
    this.add(this.cube);

    // Hand indices (0, 1: the two tracked hands) currently holding the cube,
    // in the order they grabbed it.
    this.holders = [];
    // Set while both hands hold the cube: the scale and the fingertip
    // distance at the moment the second hand grabbed.
    this.resize = null;

    this.onHandSelectStart = (event) => this.handleSelectStart(event);
    this.onHandSelectEnd = (event) => this.handleSelectEnd(event);
    // Raw input events: they arrive at the moment the pinch starts, with the
    // fingertip where it was when the user pinched.
    xb.core.input.bindSelectStart(this.onHandSelectStart);
    xb.core.input.bindSelectEnd(this.onHandSelectEnd);

    this.applyScale(1);
  }

  /** Index (0 or 1) of the tracked hand behind a controller event, or -1. */
  handIndexOf(event) {
    const controllers = xb.core.input.controllers;
    const index = controllers.indexOf(event?.target);
    return index === 0 || index === 1 ? index : -1;
  }

  /** World position of a hand's index fingertip, or null if not tracked. */
  getIndexTip(handIndex, target) {
    const hand = xb.core.input.hands?.[handIndex];
    const tip = hand?.joints?.['index-finger-tip'];
    if (!tip) return null;
    return tip.getWorldPosition(target);
  }

  isTouchingCube(point) {
    this.cube.updateWorldMatrix(true, false);
    _box.setFromObject(this.cube).expandByScalar(TOUCH_MARGIN);
    return _box.containsPoint(point);
  }

  handleSelectStart(event) {
    const handIndex = this.handIndexOf(event);
    if (handIndex < 0 || this.holders.includes(handIndex)) return;
    const tip = this.getIndexTip(handIndex, _tipA);
    if (!tip || !this.isTouchingCube(tip)) return; // pinch in the air
    this.holders.push(handIndex);
    if (this.holders.length === 2) this.startResize();
    this.updateState();
  }

  handleSelectEnd(event) {
    const handIndex = this.handIndexOf(event);
    const at = this.holders.indexOf(handIndex);
    if (at < 0) return;
    // Apply the last fingertip positions first, then freeze the size.
    if (this.resize) this.updateResize();
    this.holders.splice(at, 1);
    this.resize = null;
    this.updateState();
  }

  startResize() {
    const distance = this.fingertipDistance();
    this.resize = {
      startScale: this.cube.scale.x,
      startDistance: distance ?? 0,
    };
  }

  fingertipDistance() {
    if (this.holders.length !== 2) return null;
    const a = this.getIndexTip(this.holders[0], _tipA);
    const b = this.getIndexTip(this.holders[1], _tipB);
    if (!a || !b) return null;
    return a.distanceTo(b);
  }

  updateResize() {
    const distance = this.fingertipDistance();
    if (distance === null) return;
    if (this.resize.startDistance < MIN_REFERENCE_DISTANCE) {
      // The tips were on top of each other when the second hand grabbed:
      // take the first usable distance as the reference instead.
      if (distance >= MIN_REFERENCE_DISTANCE) {
        this.resize.startScale = this.cube.scale.x;
        this.resize.startDistance = distance;
      }
      return;
    }
    this.applyScale(
      (this.resize.startScale * distance) / this.resize.startDistance
    );
  }

  applyScale(scale) {
    this.cube.scale.setScalar(scale);
    // Scale about its own centre; never moved or turned by the hands.
    this.cube.position.copy(CUBE_CENTER);
    this.cube.quaternion.identity();
    this.cube.updateMatrixWorld(true);
    this.updateState();
  }

  updateState() {
    const state = this.cube.userData.xrblocksDevtools.state;
    state.hands = this.holders.length;
    state.scale = this.cube.scale.x;
    this.material.color.setHex(
      this.holders.length === 2
        ? COLOR_TWO_HANDS
        : this.holders.length === 1
          ? COLOR_ONE_HAND
          : COLOR_IDLE
    );
  }

  update() {
    // A hand that is no longer selecting (tracking lost, missed event) lets go.
    const controllers = xb.core.input.controllers;
    for (const handIndex of [...this.holders]) {
      if (controllers[handIndex]?.userData?.selected !== true) {
        this.handleSelectEnd({target: controllers[handIndex]});
      }
    }
    if (this.resize && this.holders.length === 2) this.updateResize();
  }

  dispose() {
    xb.core.input.unbindListener?.('selectstart', this.onHandSelectStart);
    xb.core.input.unbindListener?.('selectend', this.onHandSelectEnd);
    super.dispose?.();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new BimanualScaleScene());
  xb.init(options);
});
