import * as THREE from 'three';
import * as xb from 'xrblocks';

const MAX_POINTS = 4096;
const MIN_STEP = 0.004;  // metres of fingertip movement between points
const COLORS = ['#ff0000', '#00ff00', '#0000ff'];

/** One stroke: a THREE.Line in world space whose points are appended while its pinch lasts. */
class Stroke {
  constructor(color) {
    this.positions = new Float32Array(MAX_POINTS * 3);
    this.count = 0;
    this.geometry = new THREE.BufferGeometry();
    this.geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    this.geometry.setDrawRange(0, 0);
    this.line = new THREE.Line(this.geometry, new THREE.LineBasicMaterial({color}));
    this.line.frustumCulled = false;
    this.line.raycast = () => {};  // strokes never catch the rays aimed at the swatches
    this.line.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
    this.last = null;
  }

  add(point) {
    if (this.count >= MAX_POINTS) return;
    if (this.last && this.last.distanceTo(point) < MIN_STEP) return;
    point.toArray(this.positions, this.count * 3);
    this.count += 1;
    this.last = point.clone();
    this.geometry.setDrawRange(0, this.count);
    this.geometry.attributes.position.needsUpdate = true;
    this.geometry.computeBoundingSphere();
  }
}

/**
 * A palette of three swatches 0.6 m ahead and 0.3 m below the eyes; a pinch aimed at a swatch
 * picks its colour, any other pinch draws a stroke in the current colour along the index tip.
 */
class PaletteDrawing extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.color = COLORS[0];
    this.active = new Map();  // 'left' | 'right' -> Stroke being drawn
    this.picking = new Set();  // hands whose pinch picked a colour

    this.palette = new THREE.Mesh(new THREE.PlaneGeometry(0.34, 0.14),
                                  new THREE.MeshBasicMaterial({color: 0x37474f}));
    this.palette.position.set(0, xb.user.height - 0.3, -0.6);
    this.palette.userData.xrblocksDevtools = {tag: 'palette', state: {}};
    this.add(this.palette);
    this.swatches = COLORS.map((color, i) => {
      const swatch = new THREE.Mesh(new THREE.PlaneGeometry(0.08, 0.08),
                                    new THREE.MeshBasicMaterial({color}));
      swatch.position.set((i - 1) * 0.1, 0, 0.005);
      swatch.userData.xrblocksDevtools = {tag: 'swatch', state: {color}};
      this.palette.add(swatch);
      return swatch;
    });
  }

  fingertip(hand) {
    const index = hand === 'left' ? 0 : 1;
    const tip = xb.core.input.hands[index]?.joints?.['index-finger-tip'];
    return tip ? tip.getWorldPosition(new THREE.Vector3()) : null;
  }

  swatchOf(object) {
    for (let o = object; o; o = o.parent) {
      const i = this.swatches.indexOf(o);
      if (i >= 0) return i;
    }
    return -1;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    const picked = this.swatchOf(event.surface ?? event.target);
    if (picked >= 0) {
      this.color = COLORS[picked];
      this.picking.add(hand);
    }
    const tip = this.fingertip(hand);
    if (!tip) return;
    const stroke = new Stroke(this.color);
    xb.core.scene.add(stroke.line);
    stroke.add(tip);
    this.active.set(hand, stroke);
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    this.picking.delete(hand);
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
  xb.add(new PaletteDrawing());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
