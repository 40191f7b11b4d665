// Turn Things: a turntable and a dial that can be turned with XR Blocks' automatic manipulation
// (point at one and pinch, then move the hand sideways), a crate that can be moved, and a lamp that
// only switches. Objects carry semantic tags (`userData.xrblocksDevtools = {tag, state}`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

/** Counts the manipulation phases of one kind that reach an object. */
class Handled extends xb.Script {
  constructor(name, mesh, manipulation, action) {
    super();
    this.action = action;
    this.mesh = mesh;
    this.mesh.name = name;
    this.mesh.xb = {manipulation};
    this.state = tag(this.mesh, name, {active: false, starts: 0, updates: 0});
    this.add(this.mesh);
  }

  onObjectManipulate(event) {
    if (event.action !== this.action) return;
    if (event.phase === 'start') {
      this.state.active = true;
      this.state.starts += 1;
    } else if (event.phase === 'update') {
      this.state.updates += 1;
    } else {
      this.state.active = false;
    }
  }
}

class Lamp extends xb.Script {
  init() {
    this.lamp = new THREE.Mesh(
      new THREE.SphereGeometry(0.07, 24, 16),
      new THREE.MeshStandardMaterial({color: 0xddbb33}));
    this.lamp.name = 'lamp';
    this.lamp.position.set(0.0, 1.55, -1.1);
    this.state = tag(this.lamp, 'lamp', {on: false, switches: 0});
    this.add(this.lamp);
  }

  onObjectSelectStart() {
    this.state.on = !this.state.on;
    this.state.switches += 1;
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

function box(w, h, d, color) {
  return new THREE.Mesh(
    new THREE.BoxGeometry(w, h, d), new THREE.MeshStandardMaterial({color}));
}

document.addEventListener('DOMContentLoaded', () => {
  // A turntable on a stand: it turns about the vertical (world Y: the default axis, in world
  // space), 10 radians per metre of sideways hand movement (the default sensitivity). The stand is
  // a group turned 25 degrees about Y and tipped 15 degrees towards the user, so the turntable's
  // own transform is relative to it.
  const stand = new THREE.Group();
  stand.name = 'stand';
  stand.position.set(0.05, 1.05, -0.67);
  stand.rotation.set(THREE.MathUtils.degToRad(15), THREE.MathUtils.degToRad(25), 0);
  const turntable = box(0.3, 0.06, 0.22, 0x4477aa);
  const turntableScript = new Handled('turntable', turntable, {actions: {rotate: true}}, 'rotate');
  turntableScript.position.set(0.0, 0.1, 0.0);
  stand.add(turntableScript);

  // A dial on a control panel that leans back 30 degrees: it turns about its own Z axis (its
  // face's normal), 5 radians per metre of sideways hand movement.
  const panel = new THREE.Group();
  panel.name = 'panel';
  panel.position.set(-0.3, 1.25, -0.75);
  panel.rotation.x = THREE.MathUtils.degToRad(-30);
  const dial = box(0.18, 0.18, 0.04, 0xaa5533);
  const dialScript = new Handled(
    'dial', dial, {actions: {rotate: {axis: 'z', space: 'local', sensitivity: 5}}}, 'rotate');
  panel.add(dialScript);

  // A crate that is moved, not turned.
  const crate = box(0.14, 0.14, 0.14, 0x996633);
  const crateScript = new Handled('crate', crate, {actions: {translate: true}}, 'translate');
  crateScript.position.set(0.05, 1.0, -0.85);

  xb.add(new Room());
  xb.add(stand);
  xb.add(panel);
  xb.add(crateScript);
  xb.add(new Lamp());
  xb.init(new xb.Options());
});
