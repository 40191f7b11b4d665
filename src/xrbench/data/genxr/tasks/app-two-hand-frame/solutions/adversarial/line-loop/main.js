import * as THREE from 'three';
import * as xb from 'xrblocks';

/** Frames drawn as line loops through the rectangle's four corners. */
class LineFrames extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.pinching = {left: false, right: false};
    this.live = null;
    this.kept = [];
  }

  tip(i) {
    const j = xb.core.input.hands[i]?.joints?.['index-finger-tip'];
    return j ? j.getWorldPosition(new THREE.Vector3()) : null;
  }

  reshape() {
    const a = this.tip(0), b = this.tip(1);
    if (!a || !b) return;
    const pts = [a, new THREE.Vector3(b.x, a.y, b.z), b, new THREE.Vector3(a.x, b.y, a.z)];
    this.live.line.geometry.setFromPoints(pts);
    this.live.w = Math.hypot(b.x - a.x, b.z - a.z);
    this.live.h = Math.abs(b.y - a.y);
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    this.pinching[hand] = true;
    if (this.pinching.left && this.pinching.right && !this.live) {
      const line = new THREE.LineLoop(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({color: 0xffc107}));
      line.frustumCulled = false;
      line.userData.xrblocksDevtools = {tag: 'air-frame', state: {live: true}};
      this.live = {line, w: 0, h: 0};
      this.reshape();
      this.add(line);
    }
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    this.pinching[hand] = false;
    const f = this.live;
    if (!f) return;
    this.live = null;
    if (f.w < 0.05 || f.h < 0.05) { this.remove(f.line); return; }
    f.line.material.color.setHex(0x4fc3f7);
    f.line.userData.xrblocksDevtools.state.live = false;
    this.kept.push(f);
    if (this.kept.length > 4) this.remove(this.kept.shift().line);
  }

  update() {
    if (this.live) this.reshape();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new LineFrames());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
