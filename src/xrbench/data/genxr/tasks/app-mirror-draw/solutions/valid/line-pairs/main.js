import * as THREE from 'three';
import * as xb from 'xrblocks';

const MAX_POINTS = 4096;
const MIN_STEP = 0.004;  // metres of fingertip movement between points
const ON = '#33cc66';
const OFF = '#666666';

/** One drawn line in world space whose points are appended while its pinch lasts. */
class Line {
  constructor(color) {
    this.positions = new Float32Array(MAX_POINTS * 3);
    this.count = 0;
    this.geometry = new THREE.BufferGeometry();
    this.geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    this.geometry.setDrawRange(0, 0);
    this.object = new THREE.Line(this.geometry, new THREE.LineBasicMaterial({color}));
    this.object.frustumCulled = false;
    this.object.raycast = () => {};  // strokes never catch the ray aimed at the button
    this.object.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
  }

  push(point) {
    if (this.count >= MAX_POINTS) return;
    point.toArray(this.positions, this.count * 3);
    this.count += 1;
    this.geometry.setDrawRange(0, this.count);
    this.geometry.attributes.position.needsUpdate = true;
    this.geometry.computeBoundingSphere();
  }
}

/** A stroke and, when mirroring was on as its pinch started, its reflection across x = 0. */
class Stroke {
  constructor(mirrored) {
    this.line = new Line('#ffffff');
    this.twin = mirrored ? new Line('#88ccff') : null;
    this.last = null;
  }

  objects() {
    return this.twin ? [this.line.object, this.twin.object] : [this.line.object];
  }

  add(point) {
    if (this.last && this.last.distanceTo(point) < MIN_STEP) return;
    this.last = point.clone();
    this.line.push(point);
    // The mirror is the vertical plane of the user's starting line of sight: x = 0 in the room.
    if (this.twin) this.twin.push(new THREE.Vector3(-point.x, point.y, point.z));
  }
}

/**
 * Mirror drawing: a pinch draws a stroke along the index fingertip and, while mirroring is on, its
 * reflection across the room's x = 0 plane. A pinch aimed at the button toggles mirroring.
 */
class MirrorDrawing extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.mirror = true;
    this.active = new Map();  // 'left' | 'right' -> Stroke being drawn
    this.button = new THREE.Mesh(new THREE.PlaneGeometry(0.12, 0.06),
                                 new THREE.MeshBasicMaterial({color: ON}));
    this.button.position.set(0, xb.user.height - 0.3, -0.6);
    this.button.userData.xrblocksDevtools = {tag: 'mirror-button', state: {}};
    this.add(this.button);
  }

  fingertip(hand) {
    const index = hand === 'left' ? 0 : 1;
    const tip = xb.core.input.hands[index]?.joints?.['index-finger-tip'];
    return tip ? tip.getWorldPosition(new THREE.Vector3()) : null;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    const target = event.surface ?? event.target;
    if (target === this.button) {
      this.mirror = !this.mirror;
      this.button.material.color.set(this.mirror ? ON : OFF);
      return;
    }
    const tip = this.fingertip(hand);
    if (!tip) return;
    const stroke = new Stroke(this.mirror);
    for (const o of stroke.objects()) xb.core.scene.add(o);
    stroke.add(tip);
    this.active.set(hand, stroke);
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    const stroke = this.active.get(hand);
    if (!stroke) return;
    const tip = this.fingertip(hand);
    if (tip) stroke.add(tip);
    this.active.delete(hand);
  }

  update() {
    for (const [hand, stroke] of this.active) {
      const tip = this.fingertip(hand);
      if (tip) stroke.add(tip);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new MirrorDrawing());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
