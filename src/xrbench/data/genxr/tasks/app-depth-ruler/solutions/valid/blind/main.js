import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Depth ruler: a measuring tape for the real room.
 *
 * Each pinch of a tracked hand casts that hand's ray into the real room and,
 * using the depth data only, drops a small orange pin where the ray first
 * meets a real surface. Two pins make a measurement: a line joins them and a
 * label shows their distance in metres. The next pin starts a new
 * measurement.
 */

const PIN_RADIUS = 0.01;
const PIN_COLOR = '#ff9100';
// The first 0.3 m of the ray are skipped: the user's own hands show there.
const MIN_RAY_DISTANCE = 0.3;
const MAX_RAY_DISTANCE = 5.0;
// Ray-marching step along the ray, and refinement iterations.
const MARCH_STEP = 0.002;
const REFINE_ITERATIONS = 24;
const HANDS = ['left', 'right'];

const viewPoint = new THREE.Vector3();
const clipPoint = new THREE.Vector3();
const samplePoint = new THREE.Vector3();

class DepthRuler extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.pinGeometry = new THREE.SphereGeometry(PIN_RADIUS, 24, 16);
    this.pinMaterial = new THREE.MeshBasicMaterial({color: PIN_COLOR});

    /** Pins of the current measurement (at most two). */
    this.pins = [];
    this.line = null;
    this.label = null;
    /** Whether each hand (0 left, 1 right) is in a pinch already counted. */
    this.handPinching = [false, false];
  }

  update() {
    // A pinch that has been released (even if its end was not reported as a
    // select end) may count again on its next start.
    const controllers = xb.core.input.controllers;
    for (let i = 0; i < 2; i++) {
      if (controllers[i] && controllers[i].userData.selected !== true) {
        this.handPinching[i] = false;
      }
    }
  }

  /** Returns 0 for the left hand, 1 for the right hand, or -1. */
  handIndexOf(event) {
    const controller = event?.source?.controller ?? event?.target;
    const controllers = xb.core.input.controllers;
    if (controller) {
      if (controller === controllers[0]) return 0;
      if (controller === controllers[1]) return 1;
    }
    return -1;
  }

  onSelectStart(event) {
    const handIndex = this.handIndexOf(event);
    if (handIndex < 0) return;
    // One pinch drops at most one pin, however long it is held.
    if (this.handPinching[handIndex]) return;
    this.handPinching[handIndex] = true;
    this.dropPin(handIndex);
  }

  onSelectEnd(event) {
    const handIndex = this.handIndexOf(event);
    if (handIndex < 0) return;
    this.handPinching[handIndex] = false;
  }

  /**
   * Casts the hand's ray into the depth data and drops a pin where it meets
   * the real surface. Does nothing if it meets none.
   */
  dropPin(handIndex) {
    const controller = xb.core.input.controllers[handIndex];
    if (!controller) return;
    const origin = new THREE.Vector3();
    const orientation = new THREE.Quaternion();
    controller.getWorldPosition(origin);
    controller.getWorldQuaternion(orientation);
    const direction = new THREE.Vector3(0, 0, -1)
      .applyQuaternion(orientation)
      .normalize();

    const hit = this.castIntoDepth(origin, direction);
    if (!hit) return;

    // A complete measurement is cleared by the pin that starts a new one.
    if (this.pins.length >= 2) this.clearMeasurement();

    const pin = new THREE.Mesh(this.pinGeometry, this.pinMaterial);
    pin.name = 'Ruler pin';
    pin.position.copy(hit);
    pin.userData.xrblocksDevtools = {
      tag: 'ruler-pin',
      state: {hand: HANDS[handIndex]},
    };
    this.add(pin);
    pin.updateMatrixWorld(true);
    this.pins.push(pin);

    if (this.pins.length === 2) this.completeMeasurement();
  }

  /**
   * Whether the world point lies at or behind the real surface the depth data
   * shows at that point of the view. Returns false when the point is out of
   * the depth view or no depth is known there.
   */
  isAtOrBehindSurface(depth, point) {
    viewPoint.copy(point).applyMatrix4(depth.depthViewMatrices[0]);
    const pointDepth = -viewPoint.z;
    if (!(pointDepth > 1e-4)) return false; // Behind the depth camera.
    clipPoint.copy(viewPoint).applyMatrix4(depth.depthProjectionMatrices[0]);
    const u = 0.5 * (clipPoint.x + 1.0);
    const v = 0.5 * (clipPoint.y + 1.0);
    if (!(u >= 0 && u <= 1 && v >= 0 && v <= 1)) return false;
    const surfaceDepth = depth.getDepth(u, v);
    if (!(surfaceDepth > 0) || !Number.isFinite(surfaceDepth)) return false;
    return pointDepth >= surfaceDepth;
  }

  /**
   * Finds the first point along the ray, between 0.3 m and 5 m from its
   * origin, that lies at or behind the real surface in the depth data.
   */
  castIntoDepth(origin, direction) {
    const depth = xb.core.depth;
    if (
      !depth ||
      !depth.depthArray?.[0] ||
      !depth.depthViewMatrices?.[0] ||
      !depth.depthProjectionMatrices?.[0]
    ) {
      return null;
    }
    const test = (t) =>
      this.isAtOrBehindSurface(
        depth,
        samplePoint.copy(direction).multiplyScalar(t).add(origin)
      );

    const steps = Math.ceil((MAX_RAY_DISTANCE - MIN_RAY_DISTANCE) / MARCH_STEP);
    let previous = MIN_RAY_DISTANCE;
    for (let i = 0; i <= steps; i++) {
      const t = Math.min(MIN_RAY_DISTANCE + i * MARCH_STEP, MAX_RAY_DISTANCE);
      if (test(t)) {
        let hitT = t;
        if (i > 0) {
          // Refine between the last point in front and this one.
          let lo = previous;
          let hi = t;
          for (let k = 0; k < REFINE_ITERATIONS; k++) {
            const mid = 0.5 * (lo + hi);
            if (test(mid)) hi = mid;
            else lo = mid;
          }
          hitT = hi;
        }
        return direction.clone().multiplyScalar(hitT).add(origin);
      }
      previous = t;
    }
    return null;
  }

  completeMeasurement() {
    const [a, b] = this.pins;
    const distance = a.position.distanceTo(b.position);
    const text = `${distance.toFixed(2)} m`;

    const lineGeometry = new THREE.BufferGeometry().setFromPoints([
      a.position.clone(),
      b.position.clone(),
    ]);
    const line = new THREE.Line(
      lineGeometry,
      new THREE.LineBasicMaterial({color: PIN_COLOR})
    );
    line.name = 'Ruler line';
    line.userData.xrblocksDevtools = {tag: 'ruler-line', state: {distance}};
    this.add(line);
    line.updateMatrixWorld(true);
    this.line = line;

    const label = this.createLabel(text);
    label.name = 'Ruler label';
    label.position
      .copy(a.position)
      .add(b.position)
      .multiplyScalar(0.5)
      .add(new THREE.Vector3(0, 0.03, 0));
    label.userData.xrblocksDevtools = {tag: 'ruler-label', state: {text}};
    this.add(label);
    label.updateMatrixWorld(true);
    this.label = label;
  }

  /** A camera-facing text sprite. */
  createLabel(text) {
    const canvas = document.createElement('canvas');
    canvas.width = 256;
    canvas.height = 96;
    const ctx = canvas.getContext('2d');
    if (ctx) {
      ctx.fillStyle = 'rgba(0, 0, 0, 0.7)';
      ctx.beginPath();
      if (ctx.roundRect) ctx.roundRect(4, 4, 248, 88, 24);
      else ctx.rect(4, 4, 248, 88);
      ctx.fill();
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 56px sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(text, 128, 50);
    }
    const texture = new THREE.CanvasTexture(canvas);
    texture.colorSpace = THREE.SRGBColorSpace;
    const material = new THREE.SpriteMaterial({
      map: texture,
      depthTest: false,
      transparent: true,
    });
    const sprite = new THREE.Sprite(material);
    sprite.scale.set(0.16, 0.06, 1);
    sprite.renderOrder = 10;
    return sprite;
  }

  /** Removes the previous measurement's pins, line and label. */
  clearMeasurement() {
    for (const pin of this.pins) pin.removeFromParent();
    this.pins = [];
    if (this.line) {
      this.line.removeFromParent();
      this.line.geometry.dispose();
      this.line.material.dispose();
      this.line = null;
    }
    if (this.label) {
      this.label.removeFromParent();
      this.label.material.map?.dispose();
      this.label.material.dispose();
      this.label = null;
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  xb.add(new DepthRuler());
  xb.init(options);
});
