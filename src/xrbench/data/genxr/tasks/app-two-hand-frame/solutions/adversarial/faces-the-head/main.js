import * as THREE from 'three';
import * as xb from 'xrblocks';

const BORDER = 0.01;  // metres: the border strip's width and depth
const MIN_SIZE = 0.05;  // metres: narrower or lower frames are not kept
const MAX_KEPT = 4;
const LIVE_COLOR = 0xffc107;
const KEPT_COLOR = 0x4fc3f7;
const HANDS = ['left', 'right'];

/** One frame: four unit boxes, scaled into the bars of an upright rectangle. */
class Frame {
  constructor() {
    this.material = new THREE.MeshBasicMaterial({color: LIVE_COLOR});
    this.group = new THREE.Group();
    this.bars = [];
    const unit = new THREE.BoxGeometry(1, 1, 1);
    for (let i = 0; i < 4; i++) {
      const bar = new THREE.Mesh(unit, this.material);
      this.bars.push(bar);
      this.group.add(bar);
    }
    this.state = {live: true};
    this.group.userData.xrblocksDevtools = {tag: 'air-frame', state: this.state};
    this.width = 0;
    this.height = 0;
  }

  /** Spans the rectangle between world points a and b (diagonally opposite corners). */
  span(a, b) {
    const dx = b.x - a.x, dz = b.z - a.z;
    this.width = Math.hypot(dx, dz);
    this.height = Math.abs(b.y - a.y);
    this.group.position.addVectors(a, b).multiplyScalar(0.5);
    // Face the user: turn the frame towards the head and project the corners onto that plane.
    const head = xb.core.camera.getWorldPosition(new THREE.Vector3());
    const yaw = Math.atan2(head.x - this.group.position.x, head.z - this.group.position.z);
    this.group.rotation.set(0, yaw, 0);
    const across = new THREE.Vector3(Math.cos(yaw), 0, -Math.sin(yaw));
    this.width = Math.abs(across.dot(new THREE.Vector3(dx, 0, dz)));
    const w = this.width, h = this.height;
    const [top, bottom, left, right] = this.bars;
    top.scale.set(w + BORDER, BORDER, BORDER);
    top.position.set(0, h / 2, 0);
    bottom.scale.set(w + BORDER, BORDER, BORDER);
    bottom.position.set(0, -h / 2, 0);
    left.scale.set(BORDER, h + BORDER, BORDER);
    left.position.set(-w / 2, 0, 0);
    right.scale.set(BORDER, h + BORDER, BORDER);
    right.position.set(w / 2, 0, 0);
  }

  keep() {
    this.state.live = false;
    this.material.color.setHex(KEPT_COLOR);
  }
}

/**
 * Two-handed framing: while both hands pinch, a live frame spans between their index
 * fingertips; releasing either ends it (kept if at least 5 cm wide and high, at most 4 kept).
 */
class TwoHandFrame extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.pinching = {left: false, right: false};
    this.live = null;
    this.kept = [];
  }

  fingertip(hand) {
    const tip = xb.core.input.hands[HANDS.indexOf(hand)]?.joints?.['index-finger-tip'];
    return tip ? tip.getWorldPosition(new THREE.Vector3()) : null;
  }

  spanLive() {
    const a = this.fingertip('left'), b = this.fingertip('right');
    if (a && b) this.live.span(a, b);
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (!HANDS.includes(hand)) return;
    this.pinching[hand] = true;
    if (this.pinching.left && this.pinching.right && !this.live) {
      this.live = new Frame();
      this.spanLive();
      this.add(this.live.group);
    }
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    if (!HANDS.includes(hand)) return;
    this.pinching[hand] = false;
    if (!this.live) return;
    const frame = this.live;
    this.live = null;
    if (frame.width < MIN_SIZE || frame.height < MIN_SIZE) {
      frame.group.removeFromParent();
      return;
    }
    frame.keep();
    this.kept.push(frame);
    while (this.kept.length > MAX_KEPT) this.kept.shift().group.removeFromParent();
  }

  update() {
    if (this.live) this.spanLive();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new TwoHandFrame());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
