import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Draw in the air: while a hand pinches (XR Blocks reports the pinch of a
 * tracked hand as a select), a line follows the tip of that hand's index
 * finger in world coordinates. Each pinch draws its own stroke; strokes stay
 * in the room for the rest of the session.
 */

// Add a point once the fingertip has moved this far from the last point...
const MIN_STEP = 0.002; // 2 mm
// ...and never leave a gap longer than this between two points.
const MAX_STEP = 0.008; // 8 mm (the instruction asks for at most 1 cm)
const INITIAL_CAPACITY = 256;

const HAND_COLORS = {left: 0xff8a3d, right: 0x3dd6ff};

const tmpTip = new THREE.Vector3();

/** One stroke: a THREE.Line whose vertex buffer grows as points are added. */
class Stroke {
  constructor(hand) {
    this.hand = hand;
    this.count = 0;
    this.capacity = INITIAL_CAPACITY;
    this.last = new THREE.Vector3();
    this.geometry = new THREE.BufferGeometry();
    this.positions = new Float32Array(this.capacity * 3);
    const attribute = new THREE.BufferAttribute(this.positions, 3);
    attribute.setUsage(THREE.DynamicDrawUsage);
    this.geometry.setAttribute('position', attribute);
    this.geometry.setDrawRange(0, 0);
    this.geometry.boundingBox = new THREE.Box3();
    this.geometry.boundingSphere = new THREE.Sphere();

    const material = new THREE.LineBasicMaterial({color: HAND_COLORS[hand]});
    this.line = new THREE.Line(this.geometry, material);
    this.line.name = `stroke-${hand}`;
    // The line's vertices are world positions; it never moves.
    this.line.frustumCulled = false;
    this.line.matrixAutoUpdate = false;
    this.line.updateMatrix();
    this.line.xb = {pointerEvents: 'none'};
    this.line.userData.xrblocksDevtools = {
      tag: 'stroke',
      state: {hand, points: 0},
    };
  }

  grow() {
    this.capacity *= 2;
    const positions = new Float32Array(this.capacity * 3);
    positions.set(this.positions.subarray(0, this.count * 3));
    this.positions = positions;
    const attribute = new THREE.BufferAttribute(positions, 3);
    attribute.setUsage(THREE.DynamicDrawUsage);
    this.geometry.setAttribute('position', attribute);
  }

  pushPoint(p) {
    if (this.count >= this.capacity) this.grow();
    const i = this.count * 3;
    this.positions[i] = p.x;
    this.positions[i + 1] = p.y;
    this.positions[i + 2] = p.z;
    this.count++;
    this.last.copy(p);
    this.geometry.boundingBox.expandByPoint(p);
  }

  /**
   * Records the fingertip position p: adds it when the fingertip moved enough,
   * with evenly spaced points in between when it moved far in one frame.
   */
  addPoint(p, force = false) {
    if (this.count === 0) {
      this.pushPoint(p);
    } else {
      const distance = this.last.distanceTo(p);
      if (distance < MIN_STEP && !(force && distance > 1e-5)) return;
      const steps = Math.max(1, Math.ceil(distance / MAX_STEP));
      const start = this.last.clone();
      const point = new THREE.Vector3();
      for (let s = 1; s <= steps; s++) {
        point.lerpVectors(start, p, s / steps);
        this.pushPoint(point);
      }
    }
    this.commit();
  }

  commit() {
    const attribute = this.geometry.getAttribute('position');
    attribute.needsUpdate = true;
    this.geometry.setDrawRange(0, this.count);
    this.geometry.boundingBox.getBoundingSphere(this.geometry.boundingSphere);
    this.line.userData.xrblocksDevtools.state.points = this.count;
  }
}

class AirDrawing extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // Strokes live in world space, directly in the scene: neither the head
    // nor the hands move them.
    this.strokes = new THREE.Group();
    this.strokes.name = 'strokes';
    this.strokes.xb = {pointerEvents: 'none'};
    xb.core.scene.add(this.strokes);

    /** Active stroke per hand index (0 = left, 1 = right). */
    this.active = [null, null];

    const input = xb.core.input;
    input.bindSelectStart((event) => this.onRawSelectStart(event));
    input.bindSelectEnd((event) => this.onRawSelectEnd(event));
  }

  /** Returns 0 (left) or 1 (right) for a hand's select event, else -1. */
  handIndexOf(event) {
    const controller = event?.target;
    const controllers = xb.core.input.controllers;
    const index = controllers.indexOf(controller);
    if (index !== 0 && index !== 1) return -1;
    return index;
  }

  handednessOf(index, event) {
    const fromEvent = event?.data?.handedness;
    if (fromEvent === 'left' || fromEvent === 'right') return fromEvent;
    const controller = xb.core.input.controllers[index];
    const fromSource = controller?.inputSource?.handedness;
    if (fromSource === 'left' || fromSource === 'right') return fromSource;
    return index === 0 ? 'left' : 'right';
  }

  /** World position of hand `index`'s index fingertip (or its controller). */
  fingertip(index, target) {
    const hand = xb.core.input.hands[index];
    const tip = hand?.joints?.['index-finger-tip'];
    if (tip) {
      tip.getWorldPosition(target);
      return target;
    }
    const controller = xb.core.input.controllers[index];
    if (controller) {
      controller.getWorldPosition(target);
      return target;
    }
    return null;
  }

  startStroke(index, event) {
    this.endStroke(index);
    const stroke = new Stroke(this.handednessOf(index, event));
    this.strokes.add(stroke.line);
    this.active[index] = stroke;
    const p = this.fingertip(index, tmpTip);
    if (p) stroke.addPoint(p);
  }

  endStroke(index) {
    const stroke = this.active[index];
    if (!stroke) return;
    const p = this.fingertip(index, tmpTip);
    if (p) stroke.addPoint(p, true);
    this.active[index] = null;
  }

  onRawSelectStart(event) {
    const index = this.handIndexOf(event);
    if (index >= 0) this.startStroke(index, event);
  }

  onRawSelectEnd(event) {
    const index = this.handIndexOf(event);
    if (index >= 0) this.endStroke(index);
  }

  update() {
    const controllers = xb.core.input.controllers;
    for (let index = 0; index < 2; index++) {
      const controller = controllers[index];
      const selected = !!controller?.userData?.selected;
      // Safety net in case a release was missed (e.g. the hand was lost).
      if (!selected && this.active[index]) this.endStroke(index);
      const stroke = this.active[index];
      if (!stroke) continue;
      const p = this.fingertip(index, tmpTip);
      if (p) stroke.addPoint(p);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new AirDrawing());
  xb.init(options);
});
