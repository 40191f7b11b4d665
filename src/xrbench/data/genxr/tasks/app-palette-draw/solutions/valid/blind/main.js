import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Air drawing with a colour palette: pinch while a hand's ray points at a
 * swatch to pick its colour; any other pinch draws a stroke that follows the
 * index fingertip of that hand, in the colour current when the pinch started.
 */

const SWATCHES = [
  {name: 'red', color: '#ff0000'},
  {name: 'green', color: '#00ff00'},
  {name: 'blue', color: '#0000ff'},
];
const SWATCH_SIZE = 0.08; // metres, square
const SWATCH_GAP = 0.03; // metres between swatches
const PALETTE_DISTANCE = 0.6; // metres ahead of the user
const PALETTE_DROP = 0.3; // metres below eye height
const MIN_STEP = 0.001; // metres between recorded stroke points

class PaletteDraw extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const root = xb.core.scene || this;

    // The palette: a small board facing the user with three swatches.
    this.palette = new THREE.Group();
    this.palette.name = 'palette';
    this.palette.position.set(0, xb.user.height - PALETTE_DROP, -PALETTE_DISTANCE);
    this.palette.userData.xrblocksDevtools = {tag: 'palette', state: {}};
    root.add(this.palette);

    const width = SWATCHES.length * SWATCH_SIZE + (SWATCHES.length + 1) * SWATCH_GAP;
    const height = SWATCH_SIZE + 2 * SWATCH_GAP;
    const board = new THREE.Mesh(
      new THREE.PlaneGeometry(width, height),
      new THREE.MeshBasicMaterial({color: 0x333333, side: THREE.DoubleSide})
    );
    board.name = 'palette-board';
    board.position.z = -0.005;
    this.palette.add(board);

    this.swatches = [];
    SWATCHES.forEach((spec, i) => {
      const swatch = new THREE.Mesh(
        new THREE.PlaneGeometry(SWATCH_SIZE, SWATCH_SIZE),
        new THREE.MeshBasicMaterial({color: spec.color, side: THREE.DoubleSide})
      );
      swatch.name = `swatch-${spec.name}`;
      swatch.position.x = (i - (SWATCHES.length - 1) / 2) * (SWATCH_SIZE + SWATCH_GAP);
      swatch.userData.color = spec.color;
      swatch.userData.xrblocksDevtools = {tag: 'swatch', state: {color: spec.color}};
      this.palette.add(swatch);
      this.swatches.push(swatch);
    });

    this.currentColor = '#ff0000';

    // Strokes live directly in the scene, in world coordinates.
    this.strokes = new THREE.Group();
    this.strokes.name = 'strokes';
    root.add(this.strokes);

    // Per hand (0 left, 1 right): null, {mode: 'pick'} or {mode: 'draw', stroke}.
    this.active = [null, null];
    this.raycaster = new THREE.Raycaster();
    this.tip = new THREE.Vector3();
  }

  /** The hand index (0 left, 1 right) of a select event, or -1. */
  handOf(event) {
    const source = event?.source;
    const controller = source?.controller ?? event?.target;
    const controllers = xb.core.input?.controllers || [];
    if (controller) {
      if (controller === xb.core.input?.mouseController) return -1;
      const index = controllers.indexOf(controller);
      if (index === 0 || index === 1) return index;
    }
    const handedness =
      source?.handedness ?? controller?.inputSource?.handedness ?? null;
    if (handedness === 'left') return 0;
    if (handedness === 'right') return 1;
    return -1;
  }

  controllerOf(hand, event) {
    const controller = event?.source?.controller;
    if (controller && controller !== xb.core.input?.mouseController) return controller;
    return xb.core.input?.controllers?.[hand] ?? null;
  }

  /** The world position of a hand's index fingertip, or null. */
  indexTip(hand, target) {
    const joint = xb.core.input?.hands?.[hand]?.joints?.['index-finger-tip'];
    if (!joint) return null;
    joint.updateWorldMatrix(true, false);
    return joint.getWorldPosition(target);
  }

  /** The swatch the controller's ray points at (strokes ignored), or null. */
  swatchUnderRay(controller) {
    if (!controller) return null;
    controller.updateWorldMatrix(true, false);
    const origin = new THREE.Vector3();
    const quaternion = new THREE.Quaternion();
    controller.getWorldPosition(origin);
    controller.getWorldQuaternion(quaternion);
    const direction = new THREE.Vector3(0, 0, -1).applyQuaternion(quaternion).normalize();
    this.raycaster.set(origin, direction);
    this.raycaster.near = 0;
    this.raycaster.far = Infinity;
    this.palette.updateMatrixWorld(true);
    const hits = this.raycaster.intersectObjects(this.swatches, false);
    return hits.length ? hits[0].object : null;
  }

  createStroke(hand, color, start) {
    const geometry = new THREE.BufferGeometry();
    const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({color}));
    line.name = `stroke-${hand === 0 ? 'left' : 'right'}`;
    line.frustumCulled = false;
    line.raycast = () => {};
    line.userData.points = [];
    line.userData.color = color;
    line.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
    this.strokes.add(line);
    this.addPoint(line, start, true);
    return line;
  }

  addPoint(line, point, force = false) {
    const points = line.userData.points;
    const last = points[points.length - 1];
    if (!force && last && last.distanceTo(point) < MIN_STEP) return;
    points.push(point.clone());
    // A single point is drawn as a zero-length segment so the stroke shows
    // (and has geometry) from the first moment.
    const drawn = points.length === 1 ? [points[0], points[0]] : points;
    const positions = new Float32Array(drawn.length * 3);
    drawn.forEach((p, i) => p.toArray(positions, i * 3));
    line.geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
    line.geometry.computeBoundingSphere();
  }

  onSelectStart(event) {
    const hand = this.handOf(event);
    if (hand < 0) return;
    if (this.active[hand]) this.finish(hand);
    const swatch = this.swatchUnderRay(this.controllerOf(hand, event));
    if (swatch) {
      this.currentColor = swatch.userData.color;
      this.active[hand] = {mode: 'pick'};
      return;
    }
    const start = this.indexTip(hand, this.tip);
    if (!start) return;
    const stroke = this.createStroke(hand, this.currentColor, start);
    this.active[hand] = {mode: 'draw', stroke};
  }

  onSelectEnd(event) {
    const hand = this.handOf(event);
    if (hand < 0) return;
    this.finish(hand);
  }

  finish(hand) {
    this.active[hand] = null;
  }

  update() {
    for (let hand = 0; hand < 2; hand++) {
      const state = this.active[hand];
      if (!state || state.mode !== 'draw') continue;
      const tip = this.indexTip(hand, this.tip);
      if (tip) this.addPoint(state.stroke, tip);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PaletteDraw());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
