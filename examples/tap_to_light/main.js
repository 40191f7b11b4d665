// Tap to Light: a lamp whose button toggles a light, a cube you can grab, and a few companions
// that give every kind of XR test something to check.
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
const CUBE_HOME = new THREE.Vector3(0.3, 1.2, -1.0);

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

/** The user's head (the main camera) in world coordinates. */
function headPose() {
  const camera = xb.core.camera;
  camera.updateMatrixWorld(true);
  const position = new THREE.Vector3().setFromMatrixPosition(camera.matrixWorld);
  const forward = new THREE.Vector3(0, 0, -1).transformDirection(camera.matrixWorld);
  forward.y = 0;  // level: UI stays upright when the user looks up or down
  if (forward.lengthSq() < 1e-8) forward.set(0, 0, -1);
  return {position, forward: forward.normalize()};
}

/** A point `ahead` metres in front of the head (level) and `below` metres under the eyes. */
function inFrontOfHead(ahead, below) {
  const {position, forward} = headPose();
  return position.addScaledVector(forward, ahead).add(new THREE.Vector3(0, -below, 0));
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

  setOn(on) {
    this.state.on = on;
    this.button.material.color.setHex(on ? ON_COLOR : OFF_COLOR);
    this.bulb.material.emissive.setHex(on ? 0xffdd66 : 0x000000);
    this.light.intensity = on ? 2 : 0;
  }

  toggle(cause, event) {
    record(cause, event, 'lamp');
    // XR Blocks reports a direct touch as a touch *and* a select in the same frame: toggle once.
    if (this.lastToggleFrame === window.__updates) return;
    this.lastToggleFrame = window.__updates;
    this.setOn(!this.state.on);
    this.state.toggles += 1;
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
    this.cube.position.copy(CUBE_HOME);
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

  goHome() {
    this.cube.position.copy(CUBE_HOME);
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

/** A potted plant set on the room's table once plane detection finds it (else on the floor). */
class Plant extends xb.Script {
  init() {
    this.name = 'plant';
    const pot = new THREE.Mesh(
      new THREE.CylinderGeometry(0.07, 0.055, 0.12, 24),
      new THREE.MeshStandardMaterial({color: 0xb5651d}));
    pot.position.y = 0.06;  // the group's origin is the bottom of the pot
    const leaves = new THREE.Mesh(
      new THREE.SphereGeometry(0.08, 16, 12),
      new THREE.MeshStandardMaterial({color: 0x2e8b57}));
    leaves.position.y = 0.18;
    this.add(pot, leaves);
    this.state = tag(this, 'plant', {surface: null});
    this.visible = false;  // until placed
  }

  update() {
    if (this.state.surface) return;
    const planes = xb.world?.planes?.get() ?? [];
    if (!planes.length) return;
    const head = headPose().position;
    // The table nearest to the user; the kitchen has two surfaces labelled 'table'.
    const tables = planes.filter((p) => p.label === 'table')
      .sort((a, b) => a.position.distanceTo(head) - b.position.distanceTo(head));
    if (tables.length) {
      // Left of the table's centre, leaving the centre free for other things.
      this.position.copy(tables[0].position).add(new THREE.Vector3(-0.25, 0, 0));
      this.state.surface = 'table';
    } else {
      const floor = planes.find((p) => p.label === 'floor');
      this.position.set(head.x, floor ? floor.position.y : 0, head.z - 1.0);
      this.state.surface = 'floor';
    }
    this.visible = true;
  }
}

/** An info panel that lazily follows the head and always faces the user. */
class Panel extends xb.Script {
  init() {
    this.panel = new THREE.Mesh(
      new THREE.BoxGeometry(0.3, 0.18, 0.01),
      new THREE.MeshStandardMaterial({color: 0x223344}));
    this.panel.name = 'panel';
    this.panel.xb = {pointerEvents: 'none'};  // display only: rays and touches pass through
    this.state = tag(this.panel, 'panel', {following: true});
    this.add(this.panel);
    this.placed = false;
  }

  update() {
    const target = inFrontOfHead(0.55, 0.2);
    // Exponential smoothing in app time: the same virtual time gives the same position. The
    // first frame places it outright (the simulator sets the head height after init()).
    const alpha = this.placed ? 1 - Math.exp(-6 * xb.getDeltaTime()) : 1;
    this.placed = true;
    this.panel.position.lerp(target, alpha);
    this.panel.lookAt(headPose().position);  // +Z towards the user
  }
}

/** A menu that a squeeze opens and closes in front of the user, with a reset button. */
class Menu extends xb.Script {
  /** `targets`: the app's {cube, lamp, stars}, which the reset button puts back. */
  constructor(targets) {
    super();
    this.targets = targets;
  }

  init() {
    this.board = new THREE.Mesh(
      new THREE.BoxGeometry(0.3, 0.16, 0.01),
      new THREE.MeshStandardMaterial({color: 0xeeeeee}));
    this.board.name = 'menu';
    this.state = tag(this.board, 'menu', {open: false, resets: 0});
    this.reset = new THREE.Mesh(
      new THREE.CylinderGeometry(0.04, 0.04, 0.02, 24),
      new THREE.MeshStandardMaterial({color: 0xcc3333}));
    this.reset.rotation.x = Math.PI / 2;
    this.reset.position.z = 0.015;
    this.reset.name = 'menu-reset';
    tag(this.reset, 'menu-reset', {});
    this.board.add(this.reset);
    this.board.visible = false;
    this.add(this.board);
  }

  onSqueezeStart() {
    this.state.open = !this.state.open;
    if (this.state.open) {
      this.board.position.copy(inFrontOfHead(0.45, 0.05));
      this.board.lookAt(headPose().position);
    }
    this.board.visible = this.state.open;
  }

  onObjectSelectStart(event) {
    // `event.target` is this script (the nearest object with a handler); `surface` is what was hit.
    if (!this.state.open || event.surface !== this.reset) return;
    this.state.resets += 1;
    this.targets.cube.goHome();
    this.targets.lamp.setOn(false);
    this.targets.stars.clear();
    record('reset', event, 'menu');
  }
}

/** A star above the lamp for every thumbs-up (XR Blocks' heuristic gesture recogniser). */
class Stars extends xb.Script {
  init() {
    xb.core.gestureRecognition?.addEventListener('gesturestart', (event) => {
      if (event.detail.name === 'thumbs-up') this.addStar(event.detail.hand);
    });
  }

  addStar(hand) {
    const star = new THREE.Mesh(
      new THREE.OctahedronGeometry(0.03),
      new THREE.MeshStandardMaterial({color: 0xffd700, emissive: 0x554400}));
    star.position.set(-0.3, 1.55 + 0.08 * this.children.length, -1.0);
    star.name = 'star';
    tag(star, 'star', {hand});
    this.add(star);
    window.__events.push({type: 'star', handedness: hand, target: 'stars', frame: window.__updates});
  }

  clear() {
    for (const star of [...this.children]) this.remove(star);
  }
}

/** Small dots on both index fingertips, shown while the hand is tracked. */
class FingertipCursors extends xb.Script {
  init() {
    this.cursors = ['left', 'right'].map((hand) => {
      const dot = new THREE.Mesh(
        new THREE.SphereGeometry(0.008, 12, 8),
        new THREE.MeshBasicMaterial({color: 0x00e5ff}));
      dot.name = `tip-cursor-${hand}`;
      dot.xb = {pointerEvents: 'none'};  // never in the way of a ray
      tag(dot, `tip-cursor-${hand}`, {hand});
      dot.visible = false;
      this.add(dot);
      return dot;
    });
  }

  update() {
    const hands = xb.core.input.hands;
    this.cursors.forEach((dot, i) => {
      const tip = hands[i]?.joints?.['index-finger-tip'];
      dot.visible = !!tip && hands[i].visible !== false;
      if (tip) tip.getWorldPosition(dot.position);
    });
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2.5));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const lamp = new Lamp();
  const cube = new GrabCube();
  const stars = new Stars();
  xb.add(new Room());
  xb.add(lamp);
  xb.add(cube);
  xb.add(new Plant());
  xb.add(new Panel());
  xb.add(stars);
  xb.add(new Menu({cube, lamp, stars}));
  xb.add(new FingertipCursors());

  const options = new xb.Options();
  options.enablePlaneDetection();  // the plant looks for a table
  options.enableGestures();        // thumbs-up adds a star
  xb.init(options);
});
