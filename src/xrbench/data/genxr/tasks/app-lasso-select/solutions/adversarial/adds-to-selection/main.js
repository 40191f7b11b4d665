import * as THREE from 'three';
import * as xb from 'xrblocks';

// Lasso selection: the loop and the sphere centres are taken into the camera's frame, turned into
// view directions, and a sphere is inside when the loop winds around its direction.

const SPHERES = {
  A: [-0.30, 1.70, -1.20],
  B: [0.00, 1.75, -1.60],
  C: [0.30, 1.70, -1.20],
  D: [-0.30, 1.35, -1.00],
  E: [0.00, 1.30, -1.40],
  F: [0.30, 1.35, -1.00],
};
const SELECTED_GLOW = new THREE.Color('#ffcc00');
const SHORTEST = 0.15;
const LINGER = 1.0;  // seconds the line stays after the release

function makePanel() {
  const group = new THREE.Group();
  group.position.set(0, 1.05, -1.2);
  const back = new THREE.Mesh(new THREE.PlaneGeometry(0.3, 0.15),
                              new THREE.MeshBasicMaterial({color: 0x102030}));
  group.add(back);
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 128;
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const face = new THREE.Mesh(new THREE.PlaneGeometry(0.26, 0.13),
                              new THREE.MeshBasicMaterial({map: texture, transparent: true}));
  face.position.z = 0.002;
  group.add(face);
  const state = {count: 0};
  group.userData.xrblocksDevtools = {tag: 'count-panel', state};
  const render = () => {
    const g = canvas.getContext('2d');
    g.clearRect(0, 0, 256, 128);
    g.fillStyle = '#ffe082';
    g.font = 'bold 96px monospace';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(String(state.count), 128, 68);
    texture.needsUpdate = true;
  };
  render();
  return {group, setCount(n) { state.count = n; render(); }};
}

class Loop {
  constructor(hand, parent) {
    this.hand = hand;
    this.pts = [];
    this.travel = 0;
    this.buffer = new Float32Array(3 * 5000);
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(this.buffer, 3));
    geometry.setDrawRange(0, 0);
    this.line = new THREE.Line(geometry, new THREE.LineBasicMaterial({color: 0xffffff}));
    this.line.frustumCulled = false;
    this.line.userData.xrblocksDevtools = {tag: 'lasso', state: {hand}};
    parent.add(this.line);
    this.age = -1;  // seconds since release; -1 while drawing
  }

  push(p) {
    const n = this.pts.length;
    if (n && this.pts[n - 1].distanceToSquared(p) < 0.003 * 0.003) return;
    if (n >= 4999) return;
    if (n) this.travel += this.pts[n - 1].distanceTo(p);
    this.pts.push(p);
    this.buffer.set([p.x, p.y, p.z], 3 * n);
    const g = this.line.geometry;
    g.attributes.position.needsUpdate = true;
    g.setDrawRange(0, n + 1);
    g.computeBoundingSphere();
  }
}

/** Sum of the signed angles the loop turns through around `dir` (2π inside, 0 outside). */
function winding(dirs, dir) {
  const basisX = new THREE.Vector3(), basisY = new THREE.Vector3();
  basisX.copy(Math.abs(dir.y) < 0.9 ? new THREE.Vector3(0, 1, 0) : new THREE.Vector3(1, 0, 0))
      .cross(dir).normalize();
  basisY.copy(dir).cross(basisX);
  let total = 0;
  let prev = null;
  for (const d of [...dirs, dirs[0]]) {
    const a = Math.atan2(d.dot(basisY), d.dot(basisX));
    if (prev !== null) {
      let step = a - prev;
      while (step > Math.PI) step -= 2 * Math.PI;
      while (step < -Math.PI) step += 2 * Math.PI;
      total += step;
    }
    prev = a;
  }
  return total;
}

class LassoApp extends xb.Script {
  init() {
    this.add(new THREE.DirectionalLight(0xffffff, 2));
    this.add(new THREE.AmbientLight(0xffffff, 0.6));
    this.spheres = Object.entries(SPHERES).map(([name, xyz]) => {
      const s = new THREE.Mesh(new THREE.IcosahedronGeometry(0.03, 3),
                               new THREE.MeshPhongMaterial({color: 0x6d8cff}));
      s.position.fromArray(xyz);
      s.userData.xrblocksDevtools = {tag: 'lasso-target', state: {name, selected: false}};
      this.add(s);
      return s;
    });
    this.panel = makePanel();
    this.add(this.panel.group);
    this.drawing = {left: null, right: null};
    this.fading = [];
  }

  tip(hand) {
    const joints = xb.core.input.hands[hand === 'left' ? 0 : 1]?.joints;
    const j = joints && joints['index-finger-tip'];
    return j ? new THREE.Vector3().setFromMatrixPosition(j.matrixWorld) : null;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    if (!(hand in this.drawing)) return;
    const loop = new Loop(hand, this);
    const p = this.tip(hand);
    if (p) loop.push(p);
    this.drawing[hand] = loop;
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    const loop = this.drawing[hand];
    if (!loop) return;
    this.drawing[hand] = null;
    const p = this.tip(hand);
    if (p) loop.push(p);
    loop.age = 0;
    this.fading.push(loop);
    if (loop.travel >= SHORTEST) this.applyLoop(loop.pts);
  }

  applyLoop(points) {
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    const toView = camera.matrixWorldInverse;
    const dirs = points.map((p) => p.clone().applyMatrix4(toView).normalize());
    let count = 0;
    for (const s of this.spheres) {
      const dir = s.getWorldPosition(new THREE.Vector3()).applyMatrix4(toView).normalize();
      const inside = s.userData.xrblocksDevtools.state.selected || Math.abs(winding(dirs, dir)) > Math.PI;
      s.material.emissive.copy(inside ? SELECTED_GLOW : new THREE.Color(0, 0, 0));
      s.userData.xrblocksDevtools.state.selected = inside;
      count += inside ? 1 : 0;
    }
    this.panel.setCount(count);
  }

  update() {
    for (const hand of ['left', 'right']) {
      const loop = this.drawing[hand];
      const p = loop && this.tip(hand);
      if (p) loop.push(p);
    }
    const dt = xb.getDeltaTime();
    this.fading = this.fading.filter((loop) => {
      loop.age += dt;
      if (loop.age < LINGER) return true;
      loop.line.visible = false;
      return false;
    });
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new LassoApp());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
