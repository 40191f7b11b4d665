// Room Surfaces: shows the surfaces plane detection has found, tinted by their label (floor, table,
// wall, ...), and drops a pin where a hand's (or controller's) ray meets one of them when the user
// selects. Objects carry semantic tags (`userData.xrblocksDevtools = {tag, state}`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

const TINTS = {floor: 0x3f7fbf, table: 0x4caf50, wall: 0xb0a089, couch: 0xab47bc};

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

class RoomSurfaces extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.pins = new THREE.Group();
    this.pins.name = 'pins';
    this.add(this.pins);
    this.missed = new THREE.Group();
    this.missed.name = 'missed-pins';
    this.missed.visible = false;
    this.add(this.missed);
    this.shown = new WeakSet();
    this.log = new THREE.Object3D();
    this.log.name = 'surface-log';
    this.state = tag(this.log, 'surface-log', {planes: 0, tables: 0, walls: 0, placed: 0, misses: 0});
    this.add(this.log);
  }

  update() {
    const planes = xb.world?.planes;
    if (!planes) return;
    for (const plane of planes.get()) {
      if (this.shown.has(plane)) continue;
      this.shown.add(plane);
      // Tint the surface by its label, seen from either side.
      plane.material = new THREE.MeshBasicMaterial({
        color: TINTS[plane.label] ?? 0xffc107,
        transparent: true,
        opacity: 0.35,
        side: THREE.DoubleSide,
        depthWrite: false,
      });
      tag(plane, 'detected-plane', {label: plane.label ?? null, orientation: plane.orientation ?? null});
    }
    this.state.planes = planes.get().length;
    this.state.tables = planes.get('table').length;
    this.state.walls = planes.get('wall').length;
  }

  makePin(hand) {
    const pin = new THREE.Group();
    const body = new THREE.Mesh(
      new THREE.ConeGeometry(0.04, 0.12, 16),
      new THREE.MeshStandardMaterial({color: hand === 'left' ? 0x3366ff : 0xff3355}));
    body.position.y = 0.06;  // the pin's origin is the centre of its base
    pin.add(body);
    pin.position.set(0, 2.4, -1.0);  // waits above the room until it is placed
    return pin;
  }

  onSelectStart(event) {
    const controller = event.source?.controller;
    if (!controller || !xb.world?.planes) return;
    const hand = event.source.handedness;
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
  xb.add(new RoomSurfaces());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
