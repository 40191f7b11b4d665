import * as THREE from 'three';
import * as xb from 'xrblocks';

const TARGETS = [
  ['A', -0.30, 1.70, -1.20],
  ['B', 0.00, 1.75, -1.60],
  ['C', 0.30, 1.70, -1.20],
  ['D', -0.30, 1.35, -1.00],
  ['E', 0.00, 1.30, -1.40],
  ['F', 0.30, 1.35, -1.00],
];
const GLOW = 0xffcc00;
const MIN_LENGTH = 0.15;  // metres of fingertip path
const FADE_MS = 1000;  // the lasso line disappears this long after the release
const MAX_POINTS = 4096;
const STEP = 0.004;

/** The count panel: a plane with a canvas texture. */
class CountPanel {
  constructor() {
    this.canvas = document.createElement('canvas');
    this.canvas.width = 512;
    this.canvas.height = 256;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
    this.mesh = new THREE.Mesh(
      new THREE.PlaneGeometry(0.3, 0.15),
      new THREE.MeshBasicMaterial({map: this.texture}));
    this.mesh.position.set(0, 1.05, -1.2);
    this.state = {count: 0};
    this.mesh.userData.xrblocksDevtools = {tag: 'count-panel', state: this.state};
    this.show(0);
  }

  show(count) {
    this.state.count = count;
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = '#263238';
    ctx.fillRect(0, 0, 512, 256);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 110px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(`Selected: ${count}`, 256, 128, 480);
    this.texture.needsUpdate = true;
  }
}

/** One lasso line, in world coordinates. */
class Lasso {
  constructor(hand) {
    this.positions = new Float32Array(MAX_POINTS * 3);
    this.geometry = new THREE.BufferGeometry();
    this.geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    this.geometry.setDrawRange(0, 0);
    this.line = new THREE.Line(this.geometry, new THREE.LineBasicMaterial({color: 0x80deea}));
    this.line.frustumCulled = false;
    this.line.userData.xrblocksDevtools = {tag: 'lasso', state: {hand}};
    this.points = [];
    this.length = 0;
  }

  add(p) {
    const last = this.points[this.points.length - 1];
    if (last && last.distanceTo(p) < STEP) return;
    if (this.points.length >= MAX_POINTS - 1) return;
    if (last) this.length += last.distanceTo(p);
    p.toArray(this.positions, this.points.length * 3);
    this.points.push(p.clone());
    this.geometry.setDrawRange(0, this.points.length);
    this.geometry.attributes.position.needsUpdate = true;
    this.geometry.computeBoundingSphere();
  }

  close() {
    if (this.points.length < 2) return;
    this.points[0].toArray(this.positions, this.points.length * 3);
    this.geometry.setDrawRange(0, this.points.length + 1);
    this.geometry.attributes.position.needsUpdate = true;
  }
}

function insidePolygon(x, y, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i], [xj, yj] = poly[j];
    if ((yi > y) !== (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

class LassoSelect extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.targets = TARGETS.map(([name, x, y, z]) => {
      const mesh = new THREE.Mesh(
        new THREE.SphereGeometry(0.03, 24, 16),
        new THREE.MeshStandardMaterial({color: 0x90a4ae, emissive: 0x000000}));
      mesh.position.set(x, y, z);
      mesh.userData.xrblocksDevtools = {tag: 'lasso-target', state: {name, selected: false}};
      this.add(mesh);
      return mesh;
    });
    this.panel = new CountPanel();
    this.add(this.panel.mesh);
    this.active = new Map();
    this.startCamera = null;
  }

  fingertip(hand) {
    const tip = xb.core.input.hands[hand === 'left' ? 0 : 1]?.joints?.['index-finger-tip'];
    return tip ? tip.getWorldPosition(new THREE.Vector3()) : null;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (hand !== 'left' && hand !== 'right') return;
    const old = this.active.get(hand);
    if (old) this.finish(hand, old);
    const lasso = new Lasso(hand);
    this.add(lasso.line);
    const tip = this.fingertip(hand);
    if (tip) lasso.add(tip);
    this.active.set(hand, lasso);
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    const lasso = this.active.get(hand);
    if (!lasso) return;
    const tip = this.fingertip(hand);
    if (tip) lasso.add(tip);
    this.finish(hand, lasso);
  }

  finish(hand, lasso) {
    this.active.delete(hand);
    lasso.close();
    if (lasso.length >= MIN_LENGTH && lasso.points.length >= 3) this.select(lasso.points);
    setTimeout(() => {
      lasso.line.removeFromParent();
      lasso.geometry.dispose();
    }, FADE_MS);
  }

  select(points) {
    if (!this.startCamera) {
      this.startCamera = new THREE.PerspectiveCamera(90, 1, 0.01, 100);
      this.startCamera.position.set(0, xb.user.height, 0);
      this.startCamera.updateMatrixWorld(true);
    }
    const camera = this.startCamera;
    const project = (p) => {
      const v = p.clone().project(camera);
      return [v.x, v.y];
    };
    const polygon = points.map(project);
    let count = 0;
    for (const mesh of this.targets) {
      const [x, y] = project(mesh.getWorldPosition(new THREE.Vector3()));
      const selected = insidePolygon(x, y, polygon);
      mesh.material.emissive.setHex(selected ? GLOW : 0x000000);
      mesh.userData.xrblocksDevtools.state.selected = selected;
      if (selected) count += 1;
    }
    this.panel.show(count);
  }

  update() {
    for (const [hand, lasso] of this.active) {
      const tip = this.fingertip(hand);
      if (tip) lasso.add(tip);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new LassoSelect());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
