import * as THREE from 'three';
import * as xb from 'xrblocks';

const MIN_LENGTH = 0.02;  // metres: shorter lines are discarded at release
const COLORS = {left: 0x42a5f5, right: 0xffa726};

/**
 * Straight lines: a pinch starts a line at the index fingertip; while held, its end follows the
 * fingertip (rubber band); the release commits it, unless it is shorter than 2 cm.
 */
class LineTool extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.active = new Map();  // 'left' | 'right' -> THREE.Line being drawn
  }

  fingertip(hand) {
    const tip = xb.core.input.hands[hand === 'left' ? 0 : 1]?.joints?.['index-finger-tip'];
    return tip ? tip.getWorldPosition(new THREE.Vector3()) : null;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    const tip = this.fingertip(hand);
    if (!tip) return;
    const geometry = new THREE.BufferGeometry().setFromPoints([tip, tip.clone()]);
    const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({color: COLORS[hand]}));
    line.frustumCulled = false;
    line.userData.xrblocksDevtools = {tag: 'line', state: {hand, committed: false}};
    this.add(line);
    this.active.set(hand, line);
  }

  setEnd(line, point) {
    const pos = line.geometry.attributes.position;
    pos.setXYZ(1, point.x, point.y, point.z);
    pos.needsUpdate = true;
    line.geometry.computeBoundingSphere();
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    const line = this.active.get(hand);
    if (!line) return;
    this.active.delete(hand);
    const pos = line.geometry.attributes.position;
    const start = new THREE.Vector3().fromBufferAttribute(pos, 0);
    const end = new THREE.Vector3().fromBufferAttribute(pos, 1);
    if (start.distanceTo(end) < MIN_LENGTH) {
      line.removeFromParent();
      line.geometry.dispose();
      return;
    }
    line.userData.xrblocksDevtools.state.committed = true;
  }

  update() {
    for (const [hand, line] of this.active) {
      const tip = this.fingertip(hand);
      if (tip) this.setEnd(line, tip);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new LineTool());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
