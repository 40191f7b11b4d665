import * as THREE from 'three';
import * as xb from 'xrblocks';

const CELL = 0.25;
const WIDTH = 0.2;
const HEIGHT = 0.3;
const DEPTH = 0.2;
const HANG = 0.1; // the carried crate's bottom above the floor

const snap = (v) => (Math.floor(v / CELL) + 0.5) * CELL;

/** Plane detection's floor, seen as a plane in the world and a polygon in its own x/z. */
class Floor {
  constructor(plane) {
    this.object = plane;
    plane.updateWorldMatrix(true, false);
    this.toLocal = plane.matrixWorld.clone().invert();
    const normal = new THREE.Vector3(0, 1, 0).transformDirection(plane.matrixWorld);
    const origin = new THREE.Vector3().setFromMatrixPosition(plane.matrixWorld);
    this.plane = new THREE.Plane().setFromNormalAndCoplanarPoint(normal, origin);
    const polygon = plane.simulatorPlane?.polygon ?? [];
    const local = polygon.length
      ? polygon.map((p) => new THREE.Vector2(p.x, p.y))
      : (plane.xrPlane?.polygon ?? []).map((p) => new THREE.Vector2(p.x, p.z));
    this.local = local;
    this.world = local.map((p) => new THREE.Vector3(p.x, 0, p.y).applyMatrix4(plane.matrixWorld));
    this.y = origin.y;
  }

  contains(point) {
    const q = point.clone().applyMatrix4(this.toLocal);
    let odd = false;
    const poly = this.local;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const a = poly[i];
      const b = poly[j];
      if (a.y > q.z !== b.y > q.z) {
        const x = a.x + ((q.z - a.y) / (b.y - a.y)) * (b.x - a.x);
        if (x > q.x) odd = !odd;
      }
    }
    return odd;
  }

  /** Where a ray meets the floor, or null. */
  hit(ray) {
    const p = ray.intersectPlane(this.plane, new THREE.Vector3());
    return p && this.contains(p) ? p : null;
  }
}

class CrateOnGrid extends xb.Script {
  init() {
    this.add(new THREE.DirectionalLight(0xffffff, 2));
    this.add(new THREE.AmbientLight(0xffffff, 0.6));
    this.crate = new THREE.Mesh(
      new THREE.BoxGeometry(WIDTH, HEIGHT, DEPTH),
      new THREE.MeshLambertMaterial({color: 0xb5835a})
    );
    this.crate.name = 'crate';
    this.crate.userData.xrblocksDevtools = {tag: 'crate'};
    this.floor = null;
    this.held = null; // {controller, from}
    this.ray = new THREE.Ray();
    this.raycaster = new THREE.Raycaster();
  }

  rayOf(controller) {
    controller.updateMatrixWorld(true);
    this.ray.origin.setFromMatrixPosition(controller.matrixWorld);
    this.ray.direction.set(0, 0, -1).transformDirection(controller.matrixWorld);
    return this.ray;
  }

  placeOnCell(x, z) {
    this.crate.position.set(snap(x), this.floor.y + HEIGHT / 2, snap(z));
    this.crate.quaternion.identity();
  }

  setUp(plane) {
    this.floor = new Floor(plane);
    let reach = 0;
    for (const p of this.floor.world) reach = Math.max(reach, Math.abs(p.x), Math.abs(p.z));
    const half = Math.ceil(reach / CELL) * CELL + CELL;
    const grid = new THREE.GridHelper(2 * half, Math.round((2 * half) / CELL), 0xffffff, 0xffffff);
    grid.position.y = this.floor.y + 0.004;
    grid.userData.xrblocksDevtools = {tag: 'floor-grid'};
    this.add(grid);
    this.placeOnCell(-0.6, -0.7);
    this.add(this.crate);
  }

  update() {
    if (!this.floor) {
      const plane = (xb.world?.planes?.get?.() ?? []).find((p) => p.label === 'floor');
      if (plane) this.setUp(plane);
      return;
    }
    if (this.held) {
      const p = this.floor.hit(this.rayOf(this.held.controller));
      if (p) this.crate.position.set(p.x, this.floor.y + HANG + HEIGHT / 2, p.z);
    }
  }

  onSelectStart(event) {
    const controller = event?.source?.controller;
    if (!this.floor || this.held || !controller) return;
    const ray = this.rayOf(controller);
    this.raycaster.set(ray.origin, ray.direction);
    if (this.raycaster.intersectObject(this.crate).length === 0) return;
    this.held = {controller, from: this.crate.position.clone()};
  }

  onSelectEnd(event) {
    const controller = event?.source?.controller;
    if (!this.held || controller !== this.held.controller) return;
    const p = this.floor.hit(this.rayOf(controller));
    if (p) this.placeOnCell(p.x, p.z);
    else this.crate.position.copy(this.held.from);
    this.held = null;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new CrateOnGrid());
  xb.init(options);
});
