// Handles: objects that XR Blocks' automatic manipulation moves, turns or resizes, with parts that
// decide what a grab on them does. Objects carry semantic tags (`userData.xrblocksDevtools = {tag,
// state}`); each manipulable object counts the manipulation phases it receives.
import * as THREE from 'three';
import * as xb from 'xrblocks';

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function box(w, h, d, color) {
  return new THREE.Mesh(
    new THREE.BoxGeometry(w, h, d), new THREE.MeshStandardMaterial({color}));
}

/** Wraps a manipulable object and counts the manipulation phases that reach it. */
class Counted extends xb.Script {
  constructor(name, mesh, manipulation) {
    super();
    this.mesh = mesh;
    this.mesh.name = name;
    this.mesh.xb = {manipulation};
    this.state = tag(this.mesh, name, {
      active: false,
      action: '',
      translateStarts: 0,
      rotateStarts: 0,
      scaleStarts: 0,
      ends: 0,
    });
    this.add(this.mesh);
  }

  onObjectManipulate(event) {
    if (event.phase === 'start') {
      this.state.active = true;
      this.state.action = event.action;
      this.state[`${event.action}Starts`] += 1;
    } else if (event.phase === 'end' || event.phase === 'cancel') {
      this.state.active = false;
      this.state.ends += 1;
    }
  }
}

/** A part of an object, with its own tag and its own handle option (or none). */
function part(parent, name, mesh, position, handle) {
  mesh.name = name;
  mesh.position.set(...position);
  if (handle !== undefined) mesh.xb = {manipulationHandle: handle};
  tag(mesh, name);
  parent.add(mesh);
  return mesh;
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  // A cabinet that can be moved and turned: grabbing its body moves it; its knob (with the pin on
  // it) is a handle that turns it (about the world vertical, 10 radians per metre of sideways hand
  // movement); its name plaque grabs nothing.
  const cabinet = new Counted('cabinet', box(0.24, 0.24, 0.16, 0x8a6a4a), {
    actions: {translate: true, rotate: true},
    handle: {action: 'translate'},
  });
  cabinet.position.set(-0.4, 1.3, -1.1);
  const knob = part(cabinet.mesh, 'knob', box(0.06, 0.06, 0.06, 0xd0a040), [0.07, 0.06, 0.11],
                    {action: 'rotate'});
  // A brass pin on the knob: a plain part of the knob, so it turns the cabinet too.
  part(knob, 'pin', box(0.03, 0.03, 0.02, 0xb08d57), [0, 0, 0.04]);
  part(cabinet.mesh, 'plaque', box(0.1, 0.04, 0.015, 0xeeeeee), [-0.05, -0.07, 0.0875],
       'none');

  // A safe that is only moved by its grip: its body grabs nothing, and the lock on the grip
  // grabs nothing either.
  const safe = new Counted('safe', box(0.2, 0.2, 0.2, 0x556677), {
    actions: {translate: true},
    handle: {action: 'none'},
  });
  safe.position.set(0.4, 1.3, -1.1);
  const grip = part(safe.mesh, 'grip', box(0.1, 0.04, 0.04, 0x222222), [0, 0.05, 0.12],
                    {action: 'translate'});
  part(grip, 'lock', box(0.03, 0.03, 0.03, 0xcc3333), [0.08, 0, 0.01], 'none');

  // A desk lamp that can only be moved: its shade asks to turn it, which the lamp does not allow.
  const lamp = new Counted('lamp', box(0.14, 0.08, 0.14, 0x447744), {
    actions: {translate: true},
  });
  lamp.position.set(0.0, 1.05, -0.85);
  part(lamp.mesh, 'shade',
       new THREE.Mesh(new THREE.CylinderGeometry(0.04, 0.07, 0.08, 24),
                      new THREE.MeshStandardMaterial({color: 0xeeddaa})),
       [0, 0.1, 0], {action: 'rotate'});

  // A picture frame that can be moved and resized with two hands: its corner grip only resizes.
  const frame = new Counted('frame', box(0.3, 0.2, 0.02, 0x996633), {
    actions: {translate: true, scale: {minScale: 0.5, maxScale: 2}},
  });
  frame.position.set(0.0, 1.62, -1.25);
  part(frame.mesh, 'corner', box(0.04, 0.04, 0.04, 0xffcc66), [0.13, 0.08, 0.03],
       {action: 'scale'});

  // A globe that may be moved and turned, with no handle option: a grab cannot tell which.
  const globe = new Counted('globe',
    new THREE.Mesh(new THREE.SphereGeometry(0.1, 32, 16),
                   new THREE.MeshStandardMaterial({color: 0x3366cc})),
    {actions: {translate: true, rotate: true}});
  globe.position.set(-0.25, 0.85, -0.9);

  xb.add(new Room());
  xb.add(cabinet);
  xb.add(safe);
  xb.add(lamp);
  xb.add(frame);
  xb.add(globe);
  xb.init(new xb.Options());
});
