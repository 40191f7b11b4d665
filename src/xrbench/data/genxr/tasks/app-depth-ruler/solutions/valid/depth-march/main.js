import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Depth ruler: a measuring tape for the real room.
 *
 * Each pinch casts the pinching hand's ray into XR Blocks' depth data and drops a pin where the
 * ray first meets a real surface (a march along the ray, in 1 cm steps, refined by bisection).
 * Two pins make a measurement: a line joins them and a label shows the distance. The next pinch
 * starts a new measurement.
 */

const MIN_RANGE = 0.3; // metres from the hand: the hand itself shows in the depth data
const MAX_RANGE = 5.0; // metres: the ruler's reach
const STEP = 0.01; // metres per march step
const PIN_RADIUS = 0.01;
const PIN_COLOUR = 0xff9100;

class DepthRuler extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.pinGeometry = new THREE.SphereGeometry(PIN_RADIUS, 20, 12);
    this.pinMaterial = new THREE.MeshBasicMaterial({color: PIN_COLOUR});
    this.pins = [];
    this.line = null;
    this.label = null;
    this.held = new Set();
  }

  /** 'left' or 'right' for a hand's controller, or null for anything else (mouse, gaze). */
  handOf(controller) {
    const controllers = xb.core.input.controllers;
    if (controller === controllers[0]) return 'left';
    if (controller === controllers[1]) return 'right';
    return null;
  }

  onSelectStart(event) {
    const controller = event?.source?.controller ?? event?.target;
    const hand = this.handOf(controller);
    if (!hand || this.held.has(controller)) return;
    this.held.add(controller);
    controller.updateMatrixWorld(true);
    const origin = controller.getWorldPosition(new THREE.Vector3());
    const direction = new THREE.Vector3(0, 0, -1)
      .applyQuaternion(controller.getWorldQuaternion(new THREE.Quaternion()))
      .normalize();
    const hit = this.castIntoDepth(origin, direction);
    if (hit) this.dropPin(hit, hand);
  }

  onSelectEnd(event) {
    const controller = event?.source?.controller ?? event?.target;
    this.held.delete(controller);
  }

  /** The depth (metres along the depth camera's view) of world point p, and the depth data's
   * depth of the real surface seen there; null outside the view or without data. */
  sample(p) {
    const depth = xb.core.depth;
    const view = p.clone().applyMatrix4(depth.depthViewMatrices[0]);
    const z = -view.z;
    if (z <= 0) return null;
    const clip = view.applyMatrix4(depth.depthProjectionMatrices[0]);
    if (Math.abs(clip.x) > 1 || Math.abs(clip.y) > 1) return null;
    const surface = depth.getDepth(0.5 * (clip.x + 1), 0.5 * (clip.y + 1));
    if (!(surface > 0)) return null;
    return {z, surface};
  }

  castIntoDepth(origin, direction) {
    const depth = xb.core.depth;
    if (!depth || !depth.depthArray?.[0] || !depth.depthViewMatrices?.[0]) return null;
    const at = (s) => origin.clone().addScaledVector(direction, s);
    let before = MIN_RANGE;
    for (let s = MIN_RANGE; s <= MAX_RANGE + 1e-9; s += STEP) {
      const q = this.sample(at(s));
      if (q && q.z >= q.surface) {
        // Bisect between the last point in front of the surface and this one.
        let lo = Math.max(MIN_RANGE, before), hi = s;
        if (s === MIN_RANGE) return at(s);
        for (let i = 0; i < 12; i++) {
          const mid = 0.5 * (lo + hi);
          const m = this.sample(at(mid));
          if (m && m.z >= m.surface) hi = mid; else lo = mid;
        }
        return at(hi);
      }
      before = s;
    }
    return null;
  }

  clearMeasurement() {
    for (const pin of this.pins) this.remove(pin);
    this.pins = [];
    if (this.line) {
      this.remove(this.line);
      this.line.geometry.dispose();
      this.line = null;
    }
    if (this.label) {
      this.remove(this.label);
      this.label.material.map.dispose();
      this.label.material.dispose();
      this.label = null;
    }
  }

  dropPin(point, hand) {
    if (this.pins.length >= 2) this.clearMeasurement();
    const pin = new THREE.Mesh(this.pinGeometry, this.pinMaterial);
    pin.name = `ruler-pin-${this.pins.length + 1}`;
    pin.position.copy(point);
    pin.userData.xrblocksDevtools = {tag: 'ruler-pin', state: {hand}};
    this.add(pin);
    this.pins.push(pin);
    if (this.pins.length === 2) this.joinPins();
  }

  joinPins() {
    const [a, b] = this.pins.map((p) => p.position.clone());
    const distance = a.distanceTo(b);
    const geometry = new THREE.BufferGeometry().setFromPoints([a, b]);
    this.line = new THREE.Line(geometry, new THREE.LineBasicMaterial({color: 0xffffff}));
    this.line.name = 'ruler-line';
    this.line.userData.xrblocksDevtools = {tag: 'ruler-line', state: {distance}};
    this.add(this.line);

    const text = `${distance.toFixed(2)} m`;
    this.label = this.makeLabel(text);
    this.label.position.copy(a).lerp(b, 0.5);
    this.label.position.y += 0.05;
    this.label.userData.xrblocksDevtools = {tag: 'ruler-label', state: {text}};
    this.add(this.label);
  }

  makeLabel(text) {
    const canvas = document.createElement('canvas');
    canvas.width = 256;
    canvas.height = 96;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = 'rgba(0, 0, 0, 0.7)';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 56px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, canvas.width / 2, canvas.height / 2);
    const texture = new THREE.CanvasTexture(canvas);
    const sprite = new THREE.Sprite(new THREE.SpriteMaterial({map: texture, depthTest: false}));
    sprite.scale.set(0.16, 0.06, 1);
    sprite.name = 'ruler-label';
    return sprite;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new DepthRuler());
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  xb.init(options);
});
