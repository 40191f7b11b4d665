// Tap to Light: a lamp whose button toggles a light, and a cube you can grab.
//
// Written like any XR Blocks app (plain `new xb.Options()`, CDN import map). For tests it
//   - tags its objects with `userData.xrblocksDevtools = {tag, state}` (the XR Blocks DevTools
//     convention), so a test finds them by tag and reads their state;
//   - records every interaction in `window.__events` as {type, handedness, target, frame};
//   - counts update() calls in `window.__updates`.
import * as THREE from 'three';
import * as xb from 'xrblocks';

const OFF_COLOR = 0x666a70;
const ON_COLOR = 0xffcc33;

window.__events = [];
window.__updates = 0;

function handednessOf(event) {
  return event?.source?.handedness ?? 'none';
}

function record(type, event, target) {
  window.__events.push({type, handedness: handednessOf(event), target, frame: window.__updates});
}

function tag(object, name, state) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

/** A push button on a stand, a bulb, and the light it switches. */
class Lamp extends xb.Script {
  init() {
    this.position.set(-0.3, 1.2, -1.0);
    this.state = tag(this, 'lamp', {on: false, toggles: 0});

    this.button = new THREE.Mesh(
      new THREE.CylinderGeometry(0.07, 0.07, 0.04, 32),
      new THREE.MeshStandardMaterial({color: OFF_COLOR, roughness: 0.5}));
    this.button.rotation.x = Math.PI / 2;  // face the user
    this.button.name = 'lamp-button';
    this.buttonState = tag(this.button, 'lamp-button', {pressed: false});
    this.add(this.button);

    this.bulb = new THREE.Mesh(
      new THREE.SphereGeometry(0.06, 24, 16),
      new THREE.MeshStandardMaterial({color: 0xdddddd, emissive: 0x000000}));
    this.bulb.position.set(0, 0.2, 0);
    this.bulb.name = 'lamp-bulb';
    tag(this.bulb, 'lamp-bulb', {});
    this.add(this.bulb);

    this.light = new THREE.PointLight(0xffe0a0, 0, 3);
    this.light.position.set(0, 0.2, 0.05);
    this.light.name = 'lamp-light';
    this.add(this.light);
  }

  toggle(cause, event) {
    record(cause, event, 'lamp');
    // XR Blocks reports a direct touch as a touch *and* a select in the same frame: toggle once.
    if (this.lastToggleFrame === window.__updates) return;
    this.lastToggleFrame = window.__updates;
    this.state.on = !this.state.on;
    this.state.toggles += 1;
    this.button.material.color.setHex(this.state.on ? ON_COLOR : OFF_COLOR);
    this.bulb.material.emissive.setHex(this.state.on ? 0xffdd66 : 0x000000);
    this.light.intensity = this.state.on ? 2 : 0;
    record(this.state.on ? 'lightOn' : 'lightOff', event, 'lamp');
  }

  onObjectSelectStart(event) {
    this.buttonState.pressed = true;
    this.toggle('select', event);
  }

  onObjectSelectEnd(event) {
    this.buttonState.pressed = false;
    record('selectEnd', event, 'lamp');
  }

  onObjectTouchStart(event) {
    this.buttonState.pressed = true;
    this.toggle('touch', event);
  }

  onObjectTouchEnd(event) {
    this.buttonState.pressed = false;
    record('touchEnd', event, 'lamp');
  }

  onHoverEnter(event) {
    record('hoverEnter', event, 'lamp');
  }
}

/** A cube that follows the hand while grabbed and spins slowly otherwise. */
class GrabCube extends xb.Script {
  init() {
    this.cube = new THREE.Mesh(
      new THREE.BoxGeometry(0.2, 0.2, 0.2),
      new THREE.MeshStandardMaterial({color: 0x3388ff, roughness: 0.4}));
    this.cube.name = 'grab-cube';
    this.cube.position.set(0.3, 1.2, -1.0);
    this.state = tag(this.cube, 'cube', {grabbed: false, selected: false, grabs: 0, angle: 0});
    this.add(this.cube);
    this.offset = new THREE.Vector3();
  }

  update() {
    window.__updates += 1;
    if (!this.state.grabbed) {
      // Driven by the frame delta, so virtual time (stepFrame) fully determines the angle.
      this.state.angle += 0.5 * xb.getDeltaTime();
      this.cube.rotation.y = this.state.angle;
    }
  }

  onObjectSelectStart(event) {
    this.state.selected = true;
    this.cube.material.color.setHex(0xff5533);
    record('select', event, 'cube');
  }

  onObjectSelectEnd(event) {
    this.state.selected = false;
    this.cube.material.color.setHex(0x3388ff);
    record('selectEnd', event, 'cube');
  }

  onObjectGrabStart(event) {
    this.state.grabbed = true;
    this.state.grabs += 1;
    this.offset.copy(this.cube.position).sub(event.touchPosition);
    record('grabStart', event, 'cube');
  }

  onObjectGrabbing(event) {
    this.cube.position.copy(event.touchPosition).add(this.offset);
  }

  onObjectGrabEnd(event) {
    this.state.grabbed = false;
    record('grabEnd', event, 'cube');
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2.5));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Room());
  xb.add(new Lamp());
  xb.add(new GrabCube());
  xb.init(new xb.Options());
});
