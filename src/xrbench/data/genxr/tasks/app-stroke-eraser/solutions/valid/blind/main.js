import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Air drawing with tracked hands.
 *
 * - A pinch (reported by XR Blocks as a select of that hand) starts a new
 *   stroke; while the pinch is held the stroke follows the tip of that hand's
 *   index finger, in world coordinates; releasing the pinch ends it.
 * - A fist (XR Blocks' gesture recogniser, gesture `fist`) with either hand
 *   erases every stroke at once, including strokes still being drawn.
 */

// A new point is recorded once the fingertip has moved this far from the last
// recorded point (metres).
const MIN_POINT_SPACING = 0.002;
// Longer jumps between two frames are filled in with points at most this far
// apart, so the stroke holds a point at least every centimetre of movement.
const MAX_POINT_SPACING = 0.008;
const INITIAL_CAPACITY = 256;

const HAND_COLORS = {left: 0x4fc3f7, right: 0xffb74d};

/** One stroke: a THREE.Line whose draw range grows over a position buffer. */
class Stroke {
  constructor(hand) {
    this.hand = hand;
    this.count = 0;
    this.capacity = INITIAL_CAPACITY;
    this.positions = new Float32Array(this.capacity * 3);
    this.geometry = new THREE.BufferGeometry();
    this.attribute = new THREE.BufferAttribute(this.positions, 3);
    this.attribute.setUsage(THREE.DynamicDrawUsage);
    this.geometry.setAttribute('position', this.attribute);
    this.geometry.setDrawRange(0, 0);
    this.material = new THREE.LineBasicMaterial({
      color: HAND_COLORS[hand] ?? 0xffffff,
    });
    this.line = new THREE.Line(this.geometry, this.material);
    this.line.name = `stroke-${hand}`;
    // The buffer is in world coordinates and grows every frame: never cull.
    this.line.frustumCulled = false;
    this.line.userData.xrblocksDevtools = {
      tag: 'stroke',
      state: {hand, points: 0},
    };
    this.last = new THREE.Vector3();
  }

  /** Records the fingertip position `p` (world coordinates). */
  addPosition(p) {
    if (this.count === 0) {
      this.pushPoint(p);
      return;
    }
    const distance = this.last.distanceTo(p);
    if (distance < MIN_POINT_SPACING) return;
    const steps = Math.max(1, Math.ceil(distance / MAX_POINT_SPACING));
    const start = this.last.clone();
    const point = new THREE.Vector3();
    for (let i = 1; i <= steps; i++) {
      point.lerpVectors(start, p, i / steps);
      this.pushPoint(point);
    }
  }

  pushPoint(p) {
    if (this.count >= this.capacity) this.grow();
    this.positions[this.count * 3] = p.x;
    this.positions[this.count * 3 + 1] = p.y;
    this.positions[this.count * 3 + 2] = p.z;
    this.count++;
    this.last.copy(p);
    this.attribute.needsUpdate = true;
    this.geometry.setDrawRange(0, this.count);
    this.geometry.computeBoundingSphere();
    this.geometry.computeBoundingBox();
    this.line.userData.xrblocksDevtools.state.points = this.count;
  }

  grow() {
    this.capacity *= 2;
    const positions = new Float32Array(this.capacity * 3);
    positions.set(this.positions);
    this.positions = positions;
    this.attribute = new THREE.BufferAttribute(this.positions, 3);
    this.attribute.setUsage(THREE.DynamicDrawUsage);
    this.geometry.setAttribute('position', this.attribute);
  }

  dispose() {
    this.line.removeFromParent();
    this.line.visible = false;
    this.geometry.dispose();
    this.material.dispose();
  }
}

class StrokeEraser extends xb.Script {
  constructor() {
    super();
    /** Every stroke not erased yet. */
    this.strokes = [];
    /** The stroke each hand is drawing now, or null. */
    this.active = {left: null, right: null};
    /** Controller index of the pinch driving each hand's stroke. */
    this.activeIndex = {left: -1, right: -1};
    /** Whether the recogniser currently reports a fist for each hand. */
    this.fist = {left: false, right: false};
    this.tip = new THREE.Vector3();
    this.onGestureStart = this.onGestureStart.bind(this);
    this.onGestureEnd = this.onGestureEnd.bind(this);
  }

  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    // Strokes hang in a group at the world origin, so their points (world
    // coordinates) stay where they were drawn whatever the user does.
    this.strokeGroup = new THREE.Group();
    this.strokeGroup.name = 'strokes';
    xb.core.scene.add(this.strokeGroup);

    this.gestures = xb.core.gestureRecognition;
    if (this.gestures) {
      this.gestures.addEventListener('gesturestart', this.onGestureStart);
      this.gestures.addEventListener('gestureend', this.onGestureEnd);
    } else {
      console.warn('Gesture recognition unavailable: fists cannot erase.');
    }
  }

  /** Resolves the hand ('left'/'right') and controller index of a select. */
  handOf(event) {
    const controller = event?.source?.controller;
    if (!controller) return null;
    const id = controller.userData?.id;
    // Only the two tracked hands draw (not the mouse, gaze or gamepad).
    if (id !== 0 && id !== 1) return null;
    let hand = event.source.handedness;
    if (hand !== 'left' && hand !== 'right') {
      hand = controller.inputSource?.handedness;
    }
    if (hand !== 'left' && hand !== 'right') {
      hand = id === 0 ? 'left' : 'right';
    }
    return {hand, id};
  }

  /** The world position of `hand`'s index fingertip, or null. */
  fingertip(hand, id) {
    let joint = null;
    const handSpace = xb.core.input?.hands?.[id];
    if (handSpace?.joints) joint = handSpace.joints['index-finger-tip'];
    if (!joint) {
      joint = xb.user.hands?.getIndexTip(
        hand === 'left' ? xb.Handedness.LEFT : xb.Handedness.RIGHT
      );
    }
    if (!joint) return null;
    joint.getWorldPosition(this.tip);
    if (!Number.isFinite(this.tip.x + this.tip.y + this.tip.z)) return null;
    return this.tip;
  }

  onSelectStart(event) {
    const who = this.handOf(event);
    if (!who) return;
    const {hand, id} = who;
    // A closed hand does not draw.
    if (this.fist[hand]) return;
    // Each pinch starts a new, separate stroke.
    this.active[hand] = null;
    const stroke = new Stroke(hand);
    this.strokes.push(stroke);
    this.strokeGroup.add(stroke.line);
    this.active[hand] = stroke;
    this.activeIndex[hand] = id;
  }

  onSelectEnd(event) {
    const who = this.handOf(event);
    if (!who) return;
    const {hand, id} = who;
    const stroke = this.active[hand];
    if (!stroke || this.activeIndex[hand] !== id) return;
    // Record where the fingertip was when the pinch ended, then stop.
    const tip = this.fingertip(hand, id);
    if (tip) stroke.addPosition(tip);
    this.active[hand] = null;
    this.activeIndex[hand] = -1;
  }

  update() {
    for (const hand of ['left', 'right']) {
      const stroke = this.active[hand];
      if (!stroke) continue;
      const tip = this.fingertip(hand, this.activeIndex[hand]);
      if (tip) stroke.addPosition(tip);
    }
  }

  onGestureStart(event) {
    const detail = event?.detail;
    if (!detail || detail.name !== 'fist') return;
    const hand = detail.hand;
    if (this.fist[hand]) return; // Still the same fist: erase only once.
    this.fist[hand] = true;
    this.eraseAll();
  }

  onGestureEnd(event) {
    const detail = event?.detail;
    if (!detail || detail.name !== 'fist') return;
    this.fist[detail.hand] = false;
  }

  /** Erases every stroke at once, strokes being drawn included. */
  eraseAll() {
    for (const stroke of this.strokes) stroke.dispose();
    this.strokes = [];
    // A hand that was drawing draws again only with its next pinch.
    this.active.left = null;
    this.active.right = null;
    this.activeIndex.left = -1;
    this.activeIndex.right = -1;
  }

  dispose() {
    if (this.gestures) {
      this.gestures.removeEventListener('gesturestart', this.onGestureStart);
      this.gestures.removeEventListener('gestureend', this.onGestureEnd);
    }
    this.eraseAll();
    super.dispose?.();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enableGestures();
  xb.add(new StrokeEraser());
  xb.init(options);
});
