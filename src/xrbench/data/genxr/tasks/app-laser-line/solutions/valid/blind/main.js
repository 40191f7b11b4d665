import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Straight lines by pinching: a pinch starts a line at the index fingertip,
 * a rubber-band preview follows the fingertip while the pinch is held, and
 * releasing commits the line (lines shorter than 2 cm are discarded).
 * Either hand draws, both at the same time if they like.
 */

const MIN_LENGTH = 0.02; // metres
const HAND_NAMES = ['left', 'right']; // xb.core.input.hands[0] is the left hand.
const PREVIEW_COLORS = {left: 0x80d8ff, right: 0xff80ab};
const COMMITTED_COLORS = {left: 0x2979ff, right: 0xff4081};

class StraightLines extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // Lines live directly in the scene, in world coordinates.
    this.lines = new THREE.Group();
    this.lines.name = 'lines';
    (xb.core.scene || this).add(this.lines);

    this.active = [null, null]; // The line each hand is drawing.
    this.tip = new THREE.Vector3();
  }

  /** The hand index (0 left, 1 right) of a select event, or -1. */
  handOf(event) {
    const source = event?.source;
    const controller = source?.controller;
    const controllers = xb.core.input?.controllers || [];
    if (controller) {
      const index = controllers.indexOf(controller);
      if (index === 0 || index === 1) return index;
      if (controller === xb.core.input?.mouseController) return -1;
    }
    const handedness =
      source?.handedness ?? controller?.inputSource?.handedness ?? null;
    if (handedness === 'left') return 0;
    if (handedness === 'right') return 1;
    return -1;
  }

  /** The world position of a hand's index fingertip, or null. */
  indexTip(hand, target) {
    const joint = xb.core.input?.hands?.[hand]?.joints?.['index-finger-tip'];
    if (!joint) return null;
    return joint.getWorldPosition(target);
  }

  createLine(hand, start) {
    const name = HAND_NAMES[hand];
    const geometry = new THREE.BufferGeometry();
    const positions = new Float32Array([
      start.x, start.y, start.z,
      start.x, start.y, start.z,
    ]);
    geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
    const line = new THREE.Line(
      geometry,
      new THREE.LineBasicMaterial({color: PREVIEW_COLORS[name]})
    );
    line.name = `line-${name}`;
    line.frustumCulled = false;
    line.raycast = () => {};
    line.userData.start = start.clone();
    line.userData.end = start.clone();
    line.userData.xrblocksDevtools = {tag: 'line', state: {hand: name}};
    this.lines.add(line);
    return line;
  }

  setEnd(line, end) {
    line.userData.end.copy(end);
    const position = line.geometry.getAttribute('position');
    position.setXYZ(1, end.x, end.y, end.z);
    position.needsUpdate = true;
    line.geometry.computeBoundingSphere();
  }

  removeLine(line) {
    line.visible = false;
    line.removeFromParent();
    line.geometry.dispose();
    line.material.dispose();
  }

  onSelectStart(event) {
    const hand = this.handOf(event);
    if (hand < 0) return;
    if (this.active[hand]) this.finish(hand);
    const start = this.indexTip(hand, this.tip);
    if (!start) return;
    this.active[hand] = this.createLine(hand, start);
  }

  onSelectEnd(event) {
    const hand = this.handOf(event);
    if (hand < 0) return;
    this.finish(hand);
  }

  /** Commits the hand's line as its preview is now, or discards it. */
  finish(hand) {
    const line = this.active[hand];
    this.active[hand] = null;
    if (!line) return;
    const length = line.userData.start.distanceTo(line.userData.end);
    if (length < MIN_LENGTH) {
      this.removeLine(line);
      return;
    }
    line.material.color.setHex(COMMITTED_COLORS[HAND_NAMES[hand]]);
  }

  update() {
    for (let hand = 0; hand < 2; hand++) {
      const line = this.active[hand];
      if (!line) continue;
      const tip = this.indexTip(hand, this.tip);
      if (tip) this.setEnd(line, tip);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new StraightLines());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
