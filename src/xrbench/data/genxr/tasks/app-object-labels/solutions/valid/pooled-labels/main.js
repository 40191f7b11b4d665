import * as THREE from 'three';
import * as xb from 'xrblocks';

// A pool of label panels kept for the objects detection reports. Detection is asked for again as
// soon as each run finishes; detections are paired with the labels of the last run, closest first,
// and a label that has not been paired for a while is hidden and returned to the pool.
const WIDTH = 0.16;
const HEIGHT = 0.05;
const LIFT = 0.13;  // label centre above the estimated top of its object
const SAME_OBJECT = 0.3;  // metres: a detection this close to a label of its name is that label's object
const GRACE_MS = 400;  // how long a label outlives its last detection

function drawName(canvas, text) {
  const g = canvas.getContext('2d');
  g.clearRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = '#f5f1e6';
  g.beginPath();
  g.roundRect(2, 2, canvas.width - 4, canvas.height - 4, 18);
  g.fill();
  g.fillStyle = '#1d2433';
  g.font = '600 52px system-ui, sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(text, canvas.width / 2, canvas.height / 2 + 2, canvas.width - 24);
}

class LabelPanel {
  constructor(parent) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = 320;
    this.canvas.height = 100;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
    this.mesh = new THREE.Mesh(
      new THREE.PlaneGeometry(WIDTH, HEIGHT),
      new THREE.MeshBasicMaterial({map: this.texture, transparent: true}));
    this.mesh.visible = false;
    this.mesh.userData.xrblocksDevtools = {tag: 'object-label', state: {label: ''}};
    parent.add(this.mesh);
    this.name = null;
    this.target = new THREE.Vector3();
    this.seenAt = 0;
  }

  show(name, now) {
    if (name !== this.name) {
      this.name = name;
      drawName(this.canvas, name);
      this.texture.needsUpdate = true;
      this.mesh.userData.xrblocksDevtools.state = {label: name};
    }
    this.seenAt = now;
    this.mesh.visible = true;
  }

  hide() {
    this.mesh.visible = false;
    this.name = null;
    this.mesh.userData.xrblocksDevtools.state = {label: ''};
  }
}

/** The top of a detected object, estimated at the depth of its detected point. */
function topOf(detection, camera) {
  const point = detection.getWorldPosition(new THREE.Vector3());
  const box = detection.detection2DBoundingBox;
  if (!box || !(box.max.y > box.min.y)) return point;
  const ndc = point.clone().project(camera);
  const edge = new THREE.Vector3((box.min.x + box.max.x) - 1, 1 - 2 * box.min.y, ndc.z).unproject(camera);
  return new THREE.Vector3(point.x, Math.max(point.y, edge.y), point.z);
}

class ObjectLabelsApp extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.pool = [];
    this.busy = false;
  }

  panel() {
    return this.pool.find((p) => !p.mesh.visible) ?? (this.pool.push(new LabelPanel(this)), this.pool.at(-1));
  }

  update() {
    const objects = xb.world?.objects;
    if (objects && !this.busy) {
      this.busy = true;
      objects.runDetection()
        .then((found) => this.apply(found ?? []))
        .catch(() => {})
        .finally(() => { this.busy = false; });
    }
    this.expire();
    this.placeAndFace();
  }

  apply(found) {
    const now = performance.now();
    const camera = xb.core.camera;
    const seen = found.map((d) => ({name: d.label, at: topOf(d, camera)}));
    const pairs = [];
    for (const [i, s] of seen.entries()) {
      for (const p of this.pool) {
        if (!p.mesh.visible || p.name !== s.name) continue;
        const gap = Math.hypot(p.target.x - s.at.x, p.target.z - s.at.z);
        if (gap < SAME_OBJECT) pairs.push({i, p, gap});
      }
    }
    pairs.sort((a, b) => a.gap - b.gap);
    const usedSeen = new Set();
    const usedPanels = new Set();
    for (const {i, p} of pairs) {
      if (usedSeen.has(i) || usedPanels.has(p)) continue;
      usedSeen.add(i);
      usedPanels.add(p);
      p.target.copy(seen[i].at);
      p.show(seen[i].name, now);
    }
    for (const [i, s] of seen.entries()) {
      if (usedSeen.has(i)) continue;
      const p = this.panel();
      p.target.copy(s.at);
      p.show(s.name, now);
      usedPanels.add(p);
    }
    for (const p of this.pool) {
      if (!p.mesh.visible || usedPanels.has(p)) continue;
      if (now - p.seenAt > GRACE_MS) p.hide();
    }
    this.placeAndFace();
  }

  expire() {
    const now = performance.now();
    for (const p of this.pool) {
      if (p.mesh.visible && now - p.seenAt > GRACE_MS) p.hide();
    }
  }

  placeAndFace() {
    const eye = new THREE.Vector3();
    xb.core.camera.getWorldPosition(eye);
    for (const p of this.pool) {
      if (!p.mesh.visible) continue;
      p.mesh.position.set(p.target.x, p.target.y + LIFT, p.target.z);
      p.mesh.lookAt(eye);  // front (+Z) towards the eyes, tilted back as needed
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableObjectDetection();
  options.world.objects.simulatorOverride = true;
  options.enableAI();
  xb.add(new ObjectLabelsApp());
  xb.init(options);
});
