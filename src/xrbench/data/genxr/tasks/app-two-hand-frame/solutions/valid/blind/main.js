import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Frame a rectangle in the air with both hands.
 *
 * While both hands pinch, a live amber frame spans between the two index
 * fingertips (upright rectangle, opposite corners at the pinch points). When
 * either pinch is released the frame freezes and turns light blue; frames
 * smaller than 5 cm in width or height are discarded and at most 4 ended frames
 * are kept (the oldest is removed first).
 */

const LIVE_COLOR = 0xffc107;
const KEPT_COLOR = 0x4fc3f7;
const BORDER = 0.01;       // strip width (m), centred on the rectangle's sides
const DEPTH = 0.005;       // strip depth (m), at most 1 cm
const MIN_SIZE = 0.05;     // frames narrower or lower than this are not kept
const MAX_KEPT = 4;
const HANDS = ['left', 'right'];

const unitBox = new THREE.BoxGeometry(1, 1, 1);

/** World position of a hand's index fingertip, or null when not tracked. */
function pinchPoint(handedness, target) {
  const index = HANDS.indexOf(handedness);
  const hands = xb.core?.input?.hands ?? [];
  let joint = null;
  // Prefer a hand whose reported handedness matches; else the slot order (left, right).
  for (const hand of hands) {
    const h = hand?.userData?.handedness ?? hand?.handedness;
    if (h === handedness && hand?.joints?.['index-finger-tip']) {
      joint = hand.joints['index-finger-tip'];
      break;
    }
  }
  if (!joint) joint = hands[index]?.joints?.['index-finger-tip'] ?? null;
  if (!joint) {
    const enumValue = handedness === 'left' ? xb.Handedness.LEFT : xb.Handedness.RIGHT;
    joint = xb.user?.hands?.getIndexTip?.(enumValue) ?? null;
  }
  if (!joint) return null;
  return joint.getWorldPosition(target);
}

/** World position of the user's head (the main camera). */
function headPosition(target) {
  const camera = xb.core?.camera;
  if (!camera) return target.set(0, 1.5, 0);
  camera.updateMatrixWorld(true);
  return target.setFromMatrixPosition(camera.matrixWorld);
}

/** One rectangular frame: a group holding four thin boxes. */
class AirFrame extends THREE.Group {
  constructor() {
    super();
    this.name = 'air-frame';
    this.material = new THREE.MeshBasicMaterial({color: LIVE_COLOR});
    this.bars = [0, 1, 2, 3].map((i) => {
      const bar = new THREE.Mesh(unitBox, this.material);
      bar.name = `air-frame-bar-${i}`;
      bar.frustumCulled = false;
      bar.xb = {pointerEvents: 'none'};
      this.add(bar);
      return bar;
    });
    this.xb = {pointerEvents: 'none'};
    this.width = 0;
    this.height = 0;
    this.state = {live: true};
    this.userData.xrblocksDevtools = {tag: 'air-frame', state: this.state};
    this._a = new THREE.Vector3();
    this._b = new THREE.Vector3();
    this._head = new THREE.Vector3();
  }

  /** Spans the frame between two world points (opposite corners). */
  span(a, b) {
    const dx = b.x - a.x;
    const dz = b.z - a.z;
    const width = Math.hypot(dx, dz);
    const height = Math.abs(b.y - a.y);
    const center = this._a.copy(a).add(b).multiplyScalar(0.5);
    const toHead = headPosition(this._head).sub(center);

    // Local +x runs along the horizontal line between the points, local +z
    // (the frame's normal) towards the user's side.
    let theta;
    if (width > 1e-6) {
      theta = Math.atan2(-dz, dx);
      const nx = Math.sin(theta);
      const nz = Math.cos(theta);
      if (nx * toHead.x + nz * toHead.z < 0) theta += Math.PI;
    } else {
      // Vertically aligned points: face the head.
      theta = Math.atan2(toHead.x, toHead.z);
      if (!Number.isFinite(theta)) theta = 0;
    }

    const parent = this.parent;
    if (parent) {
      parent.updateMatrixWorld(true);
      parent.worldToLocal(center);
    }
    this.position.copy(center);
    this.rotation.set(0, theta, 0);

    const [top, bottom, left, right] = this.bars;
    top.position.set(0, height / 2, 0);
    top.scale.set(width + BORDER, BORDER, DEPTH);
    bottom.position.set(0, -height / 2, 0);
    bottom.scale.set(width + BORDER, BORDER, DEPTH);
    left.position.set(-width / 2, 0, 0);
    left.scale.set(BORDER, height + BORDER, DEPTH);
    right.position.set(width / 2, 0, 0);
    right.scale.set(BORDER, height + BORDER, DEPTH);

    this.width = width;
    this.height = height;
    this.updateMatrixWorld(true);
  }

  /** Freezes the frame as a kept frame. */
  freeze() {
    this.state.live = false;
    this.material.color.setHex(KEPT_COLOR);
  }

  dispose() {
    this.material.dispose();
  }
}

class TwoHandFrames extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.pinching = {left: false, right: false};
    this.live = null;
    this.kept = [];
    this._a = new THREE.Vector3();
    this._b = new THREE.Vector3();
    this.hookRender();
  }

  /**
   * Hands can move after scripts update within a frame: refresh the live frame
   * again right before the scene is drawn, so it matches what the user sees.
   */
  hookRender() {
    const scene = xb.core?.scene;
    if (!scene || scene.userData.airFrameHooked) return;
    scene.userData.airFrameHooked = true;
    const previous = scene.onBeforeRender;
    const self = this;
    scene.onBeforeRender = function (...args) {
      if (typeof previous === 'function') previous.apply(this, args);
      self.updateLive();
    };
  }

  handOf(event) {
    const h = event?.source?.handedness;
    return h === 'left' || h === 'right' ? h : null;
  }

  onSelectStart(event) {
    const hand = this.handOf(event);
    if (!hand) return;
    this.pinching[hand] = true;
    if (this.pinching.left && this.pinching.right && !this.live) {
      this.live = new AirFrame();
      this.add(this.live);
      this.updateLive();
    }
  }

  onSelectEnd(event) {
    const hand = this.handOf(event);
    if (!hand) return;
    this.pinching[hand] = false;
    if (this.live) this.endLive();
  }

  /** Keeps the live frame's corners on the current pinch points. */
  updateLive() {
    if (!this.live) return;
    const a = pinchPoint('left', this._a);
    const b = pinchPoint('right', this._b);
    if (!a || !b) return;
    this.live.span(a, b);
  }

  endLive() {
    const frame = this.live;
    this.live = null;
    if (frame.width < MIN_SIZE || frame.height < MIN_SIZE) {
      this.remove(frame);
      frame.dispose();
      return;
    }
    frame.freeze();
    this.kept.push(frame);
    while (this.kept.length > MAX_KEPT) {
      const oldest = this.kept.shift();
      this.remove(oldest);
      oldest.dispose();
    }
  }

  update() {
    this.updateLive();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const app = new TwoHandFrames();
  xb.add(app);
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
