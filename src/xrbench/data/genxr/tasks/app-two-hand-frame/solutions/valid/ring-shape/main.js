import * as THREE from 'three';
import * as xb from 'xrblocks';

const HALF = 0.005;  // half the border's width
const LIVE = '#ffc107';
const KEPT = '#4fc3f7';

/** A flat rectangular ring (outer rectangle minus the inner one), w x h centred on the origin. */
function ringGeometry(w, h) {
  const ow = w / 2 + HALF, oh = h / 2 + HALF;
  const shape = new THREE.Shape();
  shape.moveTo(-ow, -oh);
  shape.lineTo(ow, -oh);
  shape.lineTo(ow, oh);
  shape.lineTo(-ow, oh);
  shape.closePath();
  const iw = w / 2 - HALF, ih = h / 2 - HALF;
  if (iw > 0 && ih > 0) {
    const hole = new THREE.Path();
    hole.moveTo(-iw, -ih);
    hole.lineTo(-iw, ih);
    hole.lineTo(iw, ih);
    hole.lineTo(iw, -ih);
    hole.closePath();
    shape.holes.push(hole);
  }
  return new THREE.ShapeGeometry(shape);
}

class FrameMaker extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.down = new Set();  // handedness of the hands now pinching
    this.live = null;  // {mesh, w, h}
    this.kept = [];  // oldest first
  }

  tip(index) {
    const joint = xb.core.input.hands[index]?.joints?.['index-finger-tip'];
    return joint ? joint.getWorldPosition(new THREE.Vector3()) : null;
  }

  /** Rebuilds the live ring between the two fingertips (left = hand 0, right = hand 1). */
  reshape() {
    const a = this.tip(0), b = this.tip(1);
    if (!a || !b) return;
    const across = new THREE.Vector3(b.x - a.x, 0, b.z - a.z);
    const w = across.length();
    const h = Math.abs(b.y - a.y);
    const u = w > 1e-6 ? across.divideScalar(w) : new THREE.Vector3(1, 0, 0);
    const up = new THREE.Vector3(0, 1, 0);
    const normal = new THREE.Vector3().crossVectors(u, up);
    const centre = a.clone().add(b).multiplyScalar(0.5);
    const mesh = this.live.mesh;
    mesh.geometry.dispose();
    mesh.geometry = ringGeometry(w, h);
    mesh.matrix.makeBasis(u, up, normal).setPosition(centre);
    mesh.matrixWorldNeedsUpdate = true;
    this.live.w = w;
    this.live.h = h;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    this.down.add(hand);
    if (this.down.size < 2 || this.live) return;
    const mesh = new THREE.Mesh(
        new THREE.BufferGeometry(),
        new THREE.MeshBasicMaterial({color: LIVE, side: THREE.DoubleSide}));
    mesh.matrixAutoUpdate = false;
    mesh.userData.xrblocksDevtools = {tag: 'air-frame', state: {live: true}};
    this.live = {mesh, w: 0, h: 0};
    this.reshape();
    this.add(mesh);
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    this.down.delete(hand);
    const frame = this.live;
    if (!frame) return;
    this.live = null;
    if (Math.min(frame.w, frame.h) < 0.05) {
      this.remove(frame.mesh);
      frame.mesh.geometry.dispose();
      return;
    }
    frame.mesh.material.color.set(KEPT);
    frame.mesh.userData.xrblocksDevtools.state.live = false;
    this.kept.push(frame);
    if (this.kept.length > 4) {
      const oldest = this.kept.shift();
      this.remove(oldest.mesh);
    }
  }

  update() {
    if (this.live) this.reshape();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new FrameMaker());
  xb.init(new xb.Options().enableHands());
});
