// Surface Pins: point a hand (or controller) at a detected surface of the room and select to drop
// a pin there. Pins stand upright on the surface and turn their front (+Z, the yellow nose)
// towards the user. Objects carry semantic tags (`userData.xrblocksDevtools = {tag, state}`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

class SurfacePins extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.pins = new THREE.Group();
    this.pins.name = 'pins';
    this.add(this.pins);
    // Pins that found no surface are kept out of sight, as they were handed over.
    this.missed = new THREE.Group();
    this.missed.name = 'missed-pins';
    this.missed.visible = false;
    this.add(this.missed);
    // A log of what happened, readable by tools.
    this.log = new THREE.Object3D();
    this.log.name = 'placement-log';
    this.state = tag(this.log, 'placement-log', {attempts: 0, placed: 0, misses: 0, planes: 0});
    this.add(this.log);
  }

  makePin(hand) {
    const pin = new THREE.Group();
    pin.name = 'pin';
    const body = new THREE.Mesh(
      new THREE.ConeGeometry(0.04, 0.12, 16),
      new THREE.MeshStandardMaterial({color: hand === 'left' ? 0x3366ff : 0xff3355}));
    body.position.y = 0.06;  // the pin's origin is the centre of its base
    const nose = new THREE.Mesh(
      new THREE.BoxGeometry(0.015, 0.015, 0.05),
      new THREE.MeshStandardMaterial({color: 0xffdd00}));
    nose.position.set(0, 0.03, 0.05);  // points along the pin's +Z (its front)
    pin.add(body, nose);
    pin.xb = {pointerEvents: 'none'};  // pins never block the next placement ray
    // A new pin waits, tilted, above the room until it is placed.
    pin.position.set(0.4, 2.2, -2.0);
    pin.rotation.set(0.3, 0.8, 0.2);
    return pin;
  }

  update() {
    this.state.planes = xb.world?.planes?.get().length ?? 0;
  }

  onSelectStart(event) {
    const controller = event.source?.controller;
    if (!controller) return;
    const hand = event.source.handedness;
    this.state.attempts += 1;
    const pin = this.makePin(hand);
    if (xb.world.placeOnSurface(pin, controller)) {
      tag(pin, 'pin', {hand, index: this.state.placed});
      this.pins.add(pin);
      this.state.placed += 1;
    } else {
      tag(pin, 'missed-pin', {hand, index: this.state.misses});
      this.missed.add(pin);
      this.state.misses += 1;
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new SurfacePins());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
