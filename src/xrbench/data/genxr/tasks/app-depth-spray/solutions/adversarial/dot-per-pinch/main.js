import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Depth spray: spray dots of paint along the real room with a pinch.
 *
 * While a hand pinches, every frame its ray is cast into XR Blocks' depth data (a march along the
 * ray in 1 cm steps, refined by bisection); where it meets a real surface a dot is sprayed, as
 * soon as the point is 3 cm or more from the last dot that pinch sprayed.
 */

const MIN_RANGE = 0.3; // metres from the hand: the hand itself shows in the depth data
const MAX_RANGE = 5.0;
const STEP = 0.01;
const SPACING = 0.03;
const DOT_RADIUS = 0.01;
const COLOURS = {left: 0x00e5ff, right: 0xffd600};

class DepthSpray extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.dotGeometry = new THREE.SphereGeometry(DOT_RADIUS, 16, 10);
    this.materials = {
      left: new THREE.MeshBasicMaterial({color: COLOURS.left}),
      right: new THREE.MeshBasicMaterial({color: COLOURS.right}),
    };
    // hand -> {controller, last} for every pinch being held.
    this.spraying = new Map();
  }

  handOf(controller) {
    const controllers = xb.core.input.controllers;
    if (controller === controllers[0]) return 'left';
    if (controller === controllers[1]) return 'right';
    return null;
  }

  onSelectStart(event) {
    const controller = event?.source?.controller ?? event?.target;
    const hand = this.handOf(controller);
    if (!hand || this.spraying.has(hand)) return;
    const pinch = {controller, last: null};
    this.spraying.set(hand, pinch);
    // onSelectStart comes after this frame's update(): spray the pinch's first frame here.
    this.spray(hand, pinch);
  }

  onSelectEnd(event) {
    const controller = event?.source?.controller ?? event?.target;
    const hand = this.handOf(controller);
    if (hand) this.spraying.delete(hand);
  }

  update() {}

  spray(hand, pinch) {
    const controller = pinch.controller;
    controller.updateMatrixWorld(true);
    const origin = controller.getWorldPosition(new THREE.Vector3());
    const direction = new THREE.Vector3(0, 0, -1)
      .applyQuaternion(controller.getWorldQuaternion(new THREE.Quaternion()))
      .normalize();
    const hit = this.castIntoDepth(origin, direction);
    if (!hit) return;
    if (pinch.last && pinch.last.distanceTo(hit) < SPACING) return;
    pinch.last = hit;
    const dot = new THREE.Mesh(this.dotGeometry, this.materials[hand]);
    dot.name = `spray-dot-${hand}`;
    dot.position.copy(hit);
    dot.userData.xrblocksDevtools = {tag: 'spray-dot', state: {hand}};
    this.add(dot);
  }

  /** The depth of world point p along the depth camera's view, and the depth data's depth of the
   * real surface seen there; null outside the view or where the depth is unknown. */
  sample(p) {
    const depth = xb.core.depth;
    const view = p.clone().applyMatrix4(depth.depthViewMatrices[0]);
    const z = -view.z;
    if (z <= 0) return null;
    const clip = view.applyMatrix4(depth.depthProjectionMatrices[0]);
    if (Math.abs(clip.x) > 1 || Math.abs(clip.y) > 1) return null;
    const surface = depth.getDepth(0.5 * (clip.x + 1), 0.5 * (clip.y + 1));
    if (!(surface > 0)) return null;
    return {z, surface};
  }

  castIntoDepth(origin, direction) {
    const depth = xb.core.depth;
    if (!depth || !depth.depthArray?.[0] || !depth.depthViewMatrices?.[0]) return null;
    const at = (s) => origin.clone().addScaledVector(direction, s);
    let before = MIN_RANGE;
    for (let s = MIN_RANGE; s <= MAX_RANGE + 1e-9; s += STEP) {
      const q = this.sample(at(s));
      if (q && q.z >= q.surface) {
        if (s === MIN_RANGE) return at(s);
        let lo = before, hi = s;
        for (let i = 0; i < 12; i++) {
          const mid = 0.5 * (lo + hi);
          const m = this.sample(at(mid));
          if (m && m.z >= m.surface) hi = mid; else lo = mid;
        }
        return at(hi);
      }
      before = s;
    }
    return null;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new DepthSpray());
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  xb.init(options);
});
