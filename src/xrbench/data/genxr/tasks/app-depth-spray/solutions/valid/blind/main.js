import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Depth spray: while a tracked hand pinches, its ray is cast into the real
 * room as XR Blocks' depth sensing sees it, and a trail of paint dots (about
 * 3 cm apart) is left where the ray meets the real surfaces.
 */

const MIN_RANGE = 0.3; // metres from the hand: skip the hand itself.
const MAX_RANGE = 5.0; // metres from the hand.
const MARCH_STEP = 0.005; // metres between samples along the ray.
const REFINE_ITERATIONS = 14;
const DOT_SPACING = 0.03; // a new dot only this far from the pinch's last one.
const DOT_RADIUS = 0.01;
// Depth pixels whose surface lies this close to a tracked hand's bones show
// the user's hand, not the room: they are neither a surface nor a hit.
const HAND_MARGIN = 0.045;

const HAND_COLORS = {left: 0x00e5ff, right: 0xffd600};
const HANDS = ['left', 'right'];
const HAND_INDEX = {left: 0, right: 1};

const FINGERS = [
  [
    'thumb-metacarpal',
    'thumb-phalanx-proximal',
    'thumb-phalanx-distal',
    'thumb-tip',
  ],
  ...['index', 'middle', 'ring', 'pinky'].map((f) => [
    `${f}-finger-metacarpal`,
    `${f}-finger-phalanx-proximal`,
    `${f}-finger-phalanx-intermediate`,
    `${f}-finger-phalanx-distal`,
    `${f}-finger-tip`,
  ]),
];
// Bone segments of a hand, as pairs of joint names.
const HAND_SEGMENTS = [];
for (const chain of FINGERS) {
  HAND_SEGMENTS.push(['wrist', chain[0]]);
  for (let i = 0; i + 1 < chain.length; i++) {
    HAND_SEGMENTS.push([chain[i], chain[i + 1]]);
  }
}
// Across the palm, between neighbouring knuckles and metacarpals.
for (let f = 1; f + 1 < FINGERS.length; f++) {
  HAND_SEGMENTS.push([FINGERS[f][0], FINGERS[f + 1][0]]);
  HAND_SEGMENTS.push([FINGERS[f][1], FINGERS[f + 1][1]]);
}

const _point = new THREE.Vector3();
const _view = new THREE.Vector3();
const _clip = new THREE.Vector3();
const _surface = new THREE.Vector3();
const _closest = new THREE.Vector3();
const _segment = new THREE.Line3();
const _origin = new THREE.Vector3();
const _direction = new THREE.Vector3();

class DepthSpray extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.dotGeometry = new THREE.SphereGeometry(DOT_RADIUS, 16, 12);
    this.dotMaterials = {
      left: new THREE.MeshBasicMaterial({color: HAND_COLORS.left}),
      right: new THREE.MeshBasicMaterial({color: HAND_COLORS.right}),
    };

    // All dots live here, in world coordinates (the group stays at the origin).
    this.dots = new THREE.Group();
    this.dots.name = 'spray-dots';
    this.add(this.dots);

    // One entry per hand: is it pinching, and the last dot of this pinch.
    this.pinches = {
      left: {active: false, lastDot: null},
      right: {active: false, lastDot: null},
    };

    this.handSegments = []; // World-space bone segments of tracked hands.
    this.cameraInverse = new THREE.Matrix4();
  }

  /** Which hand ('left'/'right') a select event comes from, or null. */
  handOf(event) {
    const source = event?.source;
    if (source?.handedness === 'left' || source?.handedness === 'right') {
      return source.handedness;
    }
    const controllers = xb.core.input.controllers;
    const controller = source?.controller ?? event?.target;
    if (controller && controller === controllers[0]) return 'left';
    if (controller && controller === controllers[1]) return 'right';
    return null;
  }

  onSelectStart(event) {
    const hand = this.handOf(event);
    if (!hand) return;
    const pinch = this.pinches[hand];
    pinch.active = true;
    pinch.lastDot = null; // A new pinch starts with a new first dot.
    // XR Blocks reports the select after the scripts' update: spray the
    // first dot now, in the frame of the pinch.
    this.spray(hand);
  }

  onSelectEnd(event) {
    const hand = this.handOf(event);
    if (!hand) return;
    this.pinches[hand].active = false;
    this.pinches[hand].lastDot = null;
  }

  update() {
    for (const hand of HANDS) {
      if (this.pinches[hand].active) this.spray(hand);
    }
  }

  /** Casts the hand's ray into the depth data and sprays a dot if due. */
  spray(hand) {
    const controller = xb.core.input.controllers[HAND_INDEX[hand]];
    if (!controller) return;
    controller.updateWorldMatrix(true, false);
    _origin.setFromMatrixPosition(controller.matrixWorld);
    _direction.set(0, 0, -1).transformDirection(controller.matrixWorld);

    const hit = this.castIntoDepth(_origin, _direction);
    if (!hit) return;

    const pinch = this.pinches[hand];
    if (pinch.lastDot && pinch.lastDot.distanceTo(hit) < DOT_SPACING) return;
    this.addDot(hand, hit);
    pinch.lastDot = hit.clone();
  }

  addDot(hand, position) {
    const dot = new THREE.Mesh(this.dotGeometry, this.dotMaterials[hand]);
    dot.name = `spray-dot-${hand}`;
    dot.position.copy(position);
    dot.userData.xrblocksDevtools = {tag: 'spray-dot', state: {hand}};
    this.dots.add(dot);
    dot.updateMatrixWorld(true);
  }

  /** Gathers the bone segments of the tracked hands, in world space. */
  updateHandSegments() {
    this.handSegments.length = 0;
    const hands = xb.core.input.hands;
    if (!hands) return;
    for (const handSpace of hands) {
      if (!handSpace || handSpace.visible === false || !handSpace.joints) {
        continue;
      }
      const positions = {};
      for (const name in handSpace.joints) {
        const joint = handSpace.joints[name];
        if (!joint || joint.visible === false) continue;
        positions[name] = joint.getWorldPosition(new THREE.Vector3());
      }
      for (const [a, b] of HAND_SEGMENTS) {
        if (positions[a] && positions[b]) {
          this.handSegments.push(new THREE.Line3(positions[a], positions[b]));
        }
      }
    }
  }

  isOnHand(worldPoint) {
    for (const segment of this.handSegments) {
      _segment.copy(segment).closestPointToPoint(worldPoint, true, _closest);
      if (_closest.distanceTo(worldPoint) < HAND_MARGIN) return true;
    }
    return false;
  }

  /**
   * Classifies the point of the ray at distance t from its origin:
   * 1 = at or behind the real surface the depth data shows there (a hit),
   * 0 = in front of it, -1 = unknown (out of view, no depth, or the user's
   * hand hides what is there).
   */
  classify(origin, direction, t, result) {
    const depth = xb.core.depth;
    _point.copy(direction).multiplyScalar(t).add(origin);
    _view.copy(_point).applyMatrix4(depth.depthViewMatrices[0]);
    const pointDepth = -_view.z;
    if (pointDepth <= 1e-4) return -1; // Behind the depth camera.
    _clip.copy(_view).applyMatrix4(depth.depthProjectionMatrices[0]);
    if (
      !(Math.abs(_clip.x) <= 1) ||
      !(Math.abs(_clip.y) <= 1)
    ) {
      return -1; // Out of view.
    }
    const u = 0.5 * (_clip.x + 1);
    const v = 0.5 * (_clip.y + 1);
    const surfaceDepth = this.readDepth(u, v);
    if (!(surfaceDepth > 0)) return -1; // Unknown depth.
    if (pointDepth < surfaceDepth) return 0;
    // The surface seen there, in the world: is it the user's own hand?
    if (this.handSegments.length) {
      _surface
        .copy(_point)
        .sub(this.depthCameraPosition)
        .multiplyScalar(surfaceDepth / pointDepth)
        .add(this.depthCameraPosition);
      if (this.isOnHand(_surface)) return -1;
    }
    if (result) {
      result.point.copy(_point);
      result.pointDepth = pointDepth;
      result.surfaceDepth = surfaceDepth;
    }
    return 1;
  }

  /** Depth in metres at depth-image coordinates (u, v), as getDepth reads it. */
  readDepth(u, v) {
    const depth = xb.core.depth;
    const data = depth.depthArray[0];
    const width = depth.width;
    const height = depth.height;
    const x = Math.round(THREE.MathUtils.clamp(u * width, 0, width - 1));
    const y = Math.round(
      THREE.MathUtils.clamp((1 - v) * height, 0, height - 1)
    );
    return depth.rawValueToMeters * data[y * width + x];
  }

  /**
   * The first point of the ray, between MIN_RANGE and MAX_RANGE from its
   * origin, that lies at or behind the real surface the depth data shows
   * there; null if there is none (or no depth data yet).
   */
  castIntoDepth(origin, direction) {
    const depth = xb.core.depth;
    if (
      !depth ||
      !depth.depthArray ||
      !depth.depthArray[0] ||
      !depth.depthViewMatrices?.[0] ||
      !depth.depthProjectionMatrices?.[0]
    ) {
      return null;
    }
    this.cameraInverse.copy(depth.depthViewMatrices[0]).invert();
    this.depthCameraPosition = new THREE.Vector3().setFromMatrixPosition(
      this.cameraInverse
    );
    this.updateHandSegments();

    const hit = {point: new THREE.Vector3(), pointDepth: 0, surfaceDepth: 0};
    let lastFront = null; // Last t known to be in front of the surface.
    const steps = Math.ceil((MAX_RANGE - MIN_RANGE) / MARCH_STEP);
    for (let i = 0; i <= steps; i++) {
      const t = Math.min(MIN_RANGE + i * MARCH_STEP, MAX_RANGE);
      const state = this.classify(origin, direction, t, hit);
      if (state === 0) {
        lastFront = t;
        continue;
      }
      if (state === -1) {
        lastFront = null;
        continue;
      }
      // At or behind the surface.
      if (lastFront === null) {
        // No sample in front of it just before: the ray starts behind the
        // surface (or comes out from behind a hand or the edge of the view).
        // This point is the first one at or behind the surface if it is on
        // it; one far behind it would not lie on any surface.
        const tolerance = 0.02 + 0.01 * hit.surfaceDepth;
        if (hit.pointDepth - hit.surfaceDepth <= tolerance) {
          return hit.point.clone();
        }
        continue;
      }
      // Refine between the last point in front and this one.
      let front = lastFront;
      let behind = t;
      const best = hit.point.clone();
      for (let k = 0; k < REFINE_ITERATIONS; k++) {
        const mid = 0.5 * (front + behind);
        if (this.classify(origin, direction, mid, hit) === 1) {
          behind = mid;
          best.copy(hit.point);
        } else {
          front = mid;
        }
      }
      return best;
    }
    return null;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  xb.add(new DepthSpray());
  xb.init(options);
});
