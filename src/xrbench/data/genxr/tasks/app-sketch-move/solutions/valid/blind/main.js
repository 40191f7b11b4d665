import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Sketch in the air, then move the strokes by hand.
 *
 * Draw mode: a pinch (not aimed at a mode button) draws a stroke that follows the tip of that
 * hand's index finger until the pinch opens. Move mode: a pinch that starts with the index
 * fingertip within 3 cm of a stroke grabs the nearest such stroke, which then moves rigidly with
 * the hand (translation only) until the pinch opens. A floating panel with "Draw" and "Move"
 * buttons switches the mode; either hand can do everything, both at once.
 */

const ACTIVE_COLOR = 0xffcc00;
const IDLE_COLOR = 0x666666;
const GRAB_RADIUS = 0.03; // metres from the fingertip to a stroke's line
const MIN_POINT_SPACING = 0.002; // metres between consecutive stroke points
const STROKE_COLORS = [0x4fc3f7, 0xff8a65, 0xaed581, 0xba68c8, 0xfff176, 0x4db6ac];

function labelTexture(text) {
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 128;
  const ctx = canvas.getContext('2d');
  if (ctx) {
    // White background so that the material colour shows as the button's colour.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#111111';
    ctx.font = 'bold 64px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, canvas.width / 2, canvas.height / 2 + 4);
  }
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

class SketchMove extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.mode = 'draw';
    /** Every stroke (a THREE.Line tagged 'stroke'), oldest first. */
    this.strokes = [];
    /** What each controller's current pinch does, keyed by the controller object. */
    this.pinches = new Map();
    this.raycaster = new THREE.Raycaster();
    this.tip = new THREE.Vector3();
    this.handPosition = new THREE.Vector3();
    this.segment = new THREE.Line3();
    this.closest = new THREE.Vector3();
    this.pointA = new THREE.Vector3();
    this.pointB = new THREE.Vector3();

    // Strokes live in a group fixed in the room (world frame).
    this.strokeRoot = new THREE.Group();
    this.strokeRoot.name = 'strokes';
    this.add(this.strokeRoot);

    this.createPanel();
    this.updateButtons();
  }

  createPanel() {
    const eyeHeight = xb.user.height ?? 1.5;
    const panel = new THREE.Group();
    panel.name = 'mode-panel';
    panel.position.set(0, eyeHeight - 0.25, -0.6);
    panel.lookAt(new THREE.Vector3(0, eyeHeight, 0)); // face the user's eyes
    panel.userData.xrblocksDevtools = {tag: 'mode-panel', state: {}};

    const backing = new THREE.Mesh(
      new THREE.PlaneGeometry(0.26, 0.1),
      new THREE.MeshBasicMaterial({color: 0x263238, side: THREE.DoubleSide})
    );
    backing.name = 'mode-panel-backing';
    backing.position.z = -0.004;
    panel.add(backing);

    this.buttons = [];
    const geometry = new THREE.PlaneGeometry(0.1, 0.065);
    for (const [mode, label, x] of [
      ['draw', 'Draw', -0.06],
      ['move', 'Move', 0.06],
    ]) {
      const button = new THREE.Mesh(
        geometry,
        new THREE.MeshBasicMaterial({
          color: IDLE_COLOR,
          map: labelTexture(label),
          side: THREE.DoubleSide,
        })
      );
      button.name = `${mode}-button`;
      button.position.set(x, 0, 0);
      button.userData.mode = mode;
      button.userData.xrblocksDevtools = {tag: 'mode-button', state: {mode}};
      panel.add(button);
      this.buttons.push(button);
    }
    this.panel = panel;
    this.add(panel);
  }

  updateButtons() {
    for (const button of this.buttons) {
      button.material.color.setHex(
        button.userData.mode === this.mode ? ACTIVE_COLOR : IDLE_COLOR
      );
      button.userData.xrblocksDevtools.state = {
        mode: button.userData.mode,
        active: button.userData.mode === this.mode,
      };
    }
    this.panel.userData.xrblocksDevtools.state = {mode: this.mode};
  }

  // --- input helpers ----------------------------------------------------------------------

  /** The controller behind a select event (XR Blocks: event.source.controller). */
  controllerOf(event) {
    return event?.source?.controller ?? null;
  }

  /** Index of the hand behind a controller (0 or 1), or -1. */
  handIndexOf(controller) {
    const id = controller?.userData?.id;
    if (id === 0 || id === 1) return id;
    const controllers = xb.core?.input?.controllers ?? [];
    const index = controllers.indexOf(controller);
    return index === 0 || index === 1 ? index : -1;
  }

  /** World position of the index fingertip of the controller's hand, or null. */
  fingertip(controller, target) {
    const index = this.handIndexOf(controller);
    if (index < 0) return null;
    const joint = xb.core?.input?.hands?.[index]?.joints?.['index-finger-tip'];
    if (joint) {
      joint.updateWorldMatrix(true, false);
      return joint.getWorldPosition(target);
    }
    return null;
  }

  /** World position of the controller (the hand's grip, where its ray starts). */
  gripPosition(controller, target) {
    controller.updateWorldMatrix(true, false);
    return controller.getWorldPosition(target);
  }

  /** The mode button a select aims at, whatever lies in front of it, or null. */
  buttonFor(event, controller) {
    for (const hit of [event?.surface, event?.target]) {
      for (let o = hit; o; o = o.parent) {
        if (this.buttons.includes(o)) return o;
      }
    }
    // Cast the source's own ray at the buttons only (strokes never block it).
    const rays = [];
    const controllers = xb.user?.controllers;
    const id = controllers ? controllers.indexOf(controller) : -1;
    if (id >= 0) {
      const ray = xb.user.getRay(id, new THREE.Ray());
      if (ray && ray.direction.lengthSq() > 0.5) rays.push(ray);
    }
    if (controller?.matrixWorld) {
      controller.updateWorldMatrix(true, false);
      const origin = new THREE.Vector3().setFromMatrixPosition(controller.matrixWorld);
      const direction = new THREE.Vector3(0, 0, -1)
        .transformDirection(controller.matrixWorld)
        .normalize();
      rays.push(new THREE.Ray(origin, direction));
    }
    this.panel.updateMatrixWorld(true);
    for (const ray of rays) {
      this.raycaster.ray.copy(ray);
      this.raycaster.near = 0;
      this.raycaster.far = Infinity;
      const hits = this.raycaster.intersectObjects(this.buttons, false);
      if (hits.length > 0) return hits[0].object;
    }
    return null;
  }

  // --- events -----------------------------------------------------------------------------

  onSelectStart(event) {
    const controller = this.controllerOf(event);
    if (!controller) return;

    const button = this.buttonFor(event, controller);
    if (button) {
      if (this.mode !== button.userData.mode) {
        this.mode = button.userData.mode;
      }
      this.updateButtons();
      this.pinches.set(controller, {type: 'button'});
      return;
    }

    const tip = this.fingertip(controller, new THREE.Vector3());
    if (!tip) {
      this.pinches.set(controller, {type: 'none'});
      return;
    }

    if (this.mode === 'draw') {
      const stroke = this.createStroke(tip);
      this.pinches.set(controller, {type: 'draw', stroke});
      return;
    }

    // Move mode: grab the nearest stroke within reach of the fingertip, if any.
    const stroke = this.nearestStroke(tip, controller);
    if (!stroke) {
      this.pinches.set(controller, {type: 'none'});
      return;
    }
    const grip = this.gripPosition(controller, new THREE.Vector3());
    this.pinches.set(controller, {
      type: 'move',
      stroke,
      offset: stroke.position.clone().sub(grip),
    });
  }

  onSelectEnd(event) {
    const controller = this.controllerOf(event);
    if (!controller) return;
    const pinch = this.pinches.get(controller);
    if (pinch) this.updatePinch(controller, pinch);
    this.pinches.delete(controller);
  }

  update() {
    for (const [controller, pinch] of this.pinches) {
      this.updatePinch(controller, pinch);
    }
  }

  updatePinch(controller, pinch) {
    if (pinch.type === 'draw') {
      const tip = this.fingertip(controller, this.tip);
      if (tip) this.appendPoint(pinch.stroke, tip);
    } else if (pinch.type === 'move') {
      const grip = this.gripPosition(controller, this.handPosition);
      pinch.stroke.position.copy(grip).add(pinch.offset);
      pinch.stroke.updateMatrixWorld(true);
    }
  }

  // --- strokes ----------------------------------------------------------------------------

  createStroke(start) {
    const capacity = 256;
    const geometry = new THREE.BufferGeometry();
    const positions = new THREE.BufferAttribute(new Float32Array(capacity * 3), 3);
    positions.setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute('position', positions);
    geometry.setDrawRange(0, 0);
    const material = new THREE.LineBasicMaterial({
      color: STROKE_COLORS[this.strokes.length % STROKE_COLORS.length],
    });
    const line = new THREE.Line(geometry, material);
    line.name = `stroke-${this.strokes.length}`;
    line.frustumCulled = false;
    // Strokes must never get in the way of rays aimed at the buttons.
    line.raycast = () => {};
    line.userData.points = []; // in the line's local frame
    line.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
    this.strokeRoot.add(line);
    line.updateMatrixWorld(true);
    this.strokes.push(line);
    this.appendPoint(line, start, true);
    // A second copy of the first point gives the line a drawable segment at once.
    this.appendPoint(line, start, true);
    return line;
  }

  appendPoint(line, worldPoint, force = false) {
    line.updateMatrixWorld(true);
    const local = line.worldToLocal(worldPoint.clone());
    const points = line.userData.points;
    const last = points[points.length - 1];
    if (!force && last && last.distanceTo(local) < MIN_POINT_SPACING) return;
    points.push(local);

    let attribute = line.geometry.getAttribute('position');
    if (points.length > attribute.count) {
      // Grow the buffer: a new geometry twice as large, holding every point so far.
      const capacity = attribute.count * 2;
      const array = new Float32Array(capacity * 3);
      array.set(attribute.array);
      const old = line.geometry;
      const geometry = new THREE.BufferGeometry();
      attribute = new THREE.BufferAttribute(array, 3);
      attribute.setUsage(THREE.DynamicDrawUsage);
      geometry.setAttribute('position', attribute);
      line.geometry = geometry;
      old.dispose();
    }
    const i = points.length - 1;
    attribute.setXYZ(i, local.x, local.y, local.z);
    attribute.needsUpdate = true;
    line.geometry.setDrawRange(0, points.length);
    line.geometry.computeBoundingSphere();
  }

  /** Distance from a world point to a stroke's polyline. */
  distanceToStroke(stroke, point) {
    const points = stroke.userData.points;
    stroke.updateMatrixWorld(true);
    const m = stroke.matrixWorld;
    let best = Infinity;
    for (let i = 0; i < points.length; i++) {
      this.pointA.copy(points[i]).applyMatrix4(m);
      if (i === 0) {
        best = Math.min(best, this.pointA.distanceTo(point));
        continue;
      }
      this.pointB.copy(points[i - 1]).applyMatrix4(m);
      this.segment.set(this.pointB, this.pointA);
      this.segment.closestPointToPoint(point, true, this.closest);
      best = Math.min(best, this.closest.distanceTo(point));
    }
    return best;
  }

  /** The nearest stroke within GRAB_RADIUS of `point` that no other hand holds. */
  nearestStroke(point, controller) {
    const held = new Set();
    for (const [other, pinch] of this.pinches) {
      if (other !== controller && pinch.type === 'move') held.add(pinch.stroke);
    }
    let best = null;
    let bestDistance = Infinity;
    for (const stroke of this.strokes) {
      if (held.has(stroke)) continue;
      const d = this.distanceToStroke(stroke, point);
      if (d <= GRAB_RADIUS && d < bestDistance) {
        best = stroke;
        bestDistance = d;
      }
    }
    return best;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new SketchMove());
  xb.init(options);
});
