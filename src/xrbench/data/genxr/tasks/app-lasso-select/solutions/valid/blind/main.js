import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Lasso select: pinch and move a hand to draw a lasso along the index
 * fingertip's path; releasing closes the loop and selects the spheres whose
 * centres, seen from the user's eye, lie inside it.
 */

const SPHERE_RADIUS = 0.03;
const TARGETS = [
  {name: 'A', centre: [-0.3, 1.7, -1.2]},
  {name: 'B', centre: [0.0, 1.75, -1.6]},
  {name: 'C', centre: [0.3, 1.7, -1.2]},
  {name: 'D', centre: [-0.3, 1.35, -1.0]},
  {name: 'E', centre: [0.0, 1.3, -1.4]},
  {name: 'F', centre: [0.3, 1.35, -1.0]},
];
const GLOW = 0xffcc00;
const NO_GLOW = 0x000000;

const PANEL_WIDTH = 0.3;
const PANEL_HEIGHT = 0.15;
const PANEL_CENTRE = new THREE.Vector3(0, 1.05, -1.2);

const MIN_LASSO_LENGTH = 0.15; // metres travelled by the fingertip.
const LINE_LIFETIME = 1.0; // seconds after the release.
const MIN_POINT_SPACING = 0.002; // metres between stored points.
const HANDS = {left: 0, right: 1};

const _tip = new THREE.Vector3();
const _view = new THREE.Vector3();

/** Whether the 2D point (x, y) lies inside the polygon of [x, y] points. */
function pointInPolygon(x, y, polygon) {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) {
      inside = !inside;
    }
  }
  return inside;
}

/** App time in seconds. */
function now() {
  return performance.now() / 1000;
}

class LassoSelect extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const sun = new THREE.DirectionalLight(0xffffff, 1.0);
    sun.position.set(1, 3, 2);
    this.add(sun);

    const geometry = new THREE.SphereGeometry(SPHERE_RADIUS, 24, 16);
    this.targets = TARGETS.map(({name, centre}) => {
      const mesh = new THREE.Mesh(
        geometry,
        new THREE.MeshStandardMaterial({
          color: 0x90a4ae,
          emissive: NO_GLOW,
          roughness: 0.4,
        })
      );
      mesh.name = `lasso-target-${name}`;
      mesh.position.set(...centre);
      mesh.userData.xrblocksDevtools = {
        tag: 'lasso-target',
        state: {name, selected: false},
      };
      this.add(mesh);
      return {name, mesh, centre: new THREE.Vector3(...centre), selected: false};
    });

    this.createPanel();

    this.drawing = {}; // hand -> active lasso
    this.fading = []; // released lassos waiting to disappear
  }

  createPanel() {
    this.canvas = document.createElement('canvas');
    this.canvas.width = 256;
    this.canvas.height = 128;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
    this.panel = new THREE.Mesh(
      new THREE.PlaneGeometry(PANEL_WIDTH, PANEL_HEIGHT),
      new THREE.MeshBasicMaterial({map: this.texture})
    );
    this.panel.name = 'count-panel';
    this.panel.position.copy(PANEL_CENTRE);
    this.panel.userData.xrblocksDevtools = {tag: 'count-panel', state: {count: 0}};
    this.add(this.panel);
    this.showCount(0);
  }

  showCount(count) {
    const ctx = this.canvas.getContext('2d');
    if (ctx) {
      const {width, height} = this.canvas;
      ctx.fillStyle = '#20262e';
      ctx.fillRect(0, 0, width, height);
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 96px sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(String(count), width / 2, height / 2 + 4);
    }
    this.texture.needsUpdate = true;
    this.panel.userData.xrblocksDevtools.state.count = count;
  }

  handOf(event) {
    const handedness = event?.source?.handedness;
    if (handedness in HANDS) return handedness;
    const controllers = xb.core?.input?.controllers || [];
    const controller = event?.source?.controller ?? event?.target;
    if (controller && controller === controllers[0]) return 'left';
    if (controller && controller === controllers[1]) return 'right';
    return null;
  }

  fingertip(hand, target) {
    const joint = xb.core?.input?.hands?.[HANDS[hand]]?.joints?.['index-finger-tip'];
    if (!joint) return false;
    joint.updateWorldMatrix(true, false);
    joint.getWorldPosition(target);
    return true;
  }

  onSelectStart(event) {
    const hand = this.handOf(event);
    if (!hand || this.drawing[hand]) return;
    const capacity = 1024;
    const geometry = new THREE.BufferGeometry();
    const positions = new Float32Array(capacity * 3);
    geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
    geometry.setDrawRange(0, 0);
    const line = new THREE.Line(
      geometry,
      new THREE.LineBasicMaterial({color: hand === 'left' ? 0x4fc3f7 : 0xff8a65})
    );
    line.name = `lasso-${hand}`;
    line.frustumCulled = false;
    line.raycast = () => {};
    line.userData.xrblocksDevtools = {tag: 'lasso', state: {hand}};
    this.add(line);
    const lasso = {hand, line, points: [], length: 0, lastTip: null};
    this.drawing[hand] = lasso;
    if (this.fingertip(hand, _tip)) this.track(lasso, _tip);
  }

  /** Adds the fingertip's position of this frame to the lasso. */
  track(lasso, tip) {
    if (lasso.lastTip) lasso.length += tip.distanceTo(lasso.lastTip);
    else lasso.lastTip = new THREE.Vector3();
    lasso.lastTip.copy(tip);
    const last = lasso.points[lasso.points.length - 1];
    if (last && last.distanceTo(tip) < MIN_POINT_SPACING) return;
    lasso.points.push(tip.clone());
    this.writeLine(lasso, false);
  }

  /** Copies the lasso's points (closed: plus its start) into its line. */
  writeLine(lasso, closed) {
    const points = closed && lasso.points.length > 1
      ? [...lasso.points, lasso.points[0]]
      : lasso.points;
    let attribute = lasso.line.geometry.getAttribute('position');
    if (points.length > attribute.count) {
      let capacity = attribute.count;
      while (capacity < points.length) capacity *= 2;
      attribute = new THREE.BufferAttribute(new Float32Array(capacity * 3), 3);
      lasso.line.geometry.setAttribute('position', attribute);
    }
    points.forEach((p, i) => attribute.setXYZ(i, p.x, p.y, p.z));
    attribute.needsUpdate = true;
    lasso.line.geometry.setDrawRange(0, points.length);
    lasso.line.geometry.computeBoundingSphere();
    lasso.line.geometry.computeBoundingBox();
  }

  onSelectEnd(event) {
    const hand = this.handOf(event);
    const lasso = hand && this.drawing[hand];
    if (!lasso) return;
    delete this.drawing[hand];
    if (this.fingertip(hand, _tip)) this.track(lasso, _tip);
    this.writeLine(lasso, true);
    lasso.removeAt = now() + LINE_LIFETIME;
    this.fading.push(lasso);
    if (lasso.length >= MIN_LASSO_LENGTH && lasso.points.length >= 3) {
      this.select(lasso.points);
    }
  }

  /** Projects a world point into the eye's view plane ([x, y] at depth 1), or null. */
  project(camera, point) {
    _view.copy(point).applyMatrix4(camera.matrixWorldInverse);
    if (_view.z > -1e-6) return null; // at or behind the eye
    return [_view.x / -_view.z, _view.y / -_view.z];
  }

  select(points) {
    const camera = xb.core?.camera;
    if (!camera) return;
    camera.updateMatrixWorld(true);
    const polygon = [];
    for (const p of points) {
      const q = this.project(camera, p);
      if (q) polygon.push(q);
    }
    let count = 0;
    for (const target of this.targets) {
      const q = polygon.length >= 3 ? this.project(camera, target.centre) : null;
      const selected = !!q && pointInPolygon(q[0], q[1], polygon);
      target.selected = selected;
      target.mesh.material.emissive.setHex(selected ? GLOW : NO_GLOW);
      target.mesh.userData.xrblocksDevtools.state.selected = selected;
      if (selected) count++;
    }
    this.showCount(count);
  }

  update() {
    for (const hand of Object.keys(this.drawing)) {
      const lasso = this.drawing[hand];
      if (this.fingertip(hand, _tip)) this.track(lasso, _tip);
    }
    const t = now();
    this.fading = this.fading.filter((lasso) => {
      if (t < lasso.removeAt) return true;
      lasso.line.removeFromParent();
      lasso.line.geometry.dispose();
      lasso.line.material.dispose();
      return false;
    });
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new LassoSelect());
  xb.init(options);
});
