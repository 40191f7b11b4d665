import * as THREE from 'three';
import * as xb from 'xrblocks';

const CELL = 0.25; // metres: the grid's cells
const SIZE = new THREE.Vector3(0.2, 0.3, 0.2); // the crate: width, height, depth
const CARRY = 0.1; // metres: the held crate's bottom above the floor
const GRID_LIFT = 0.003; // metres: the grid lines above the floor
const START = new THREE.Vector2(-0.6, -0.7); // the crate starts on the cell holding this point

/** The plane's polygon in world coordinates. */
function worldPolygon(plane) {
  plane.updateWorldMatrix(true, false);
  const sim = plane.simulatorPlane?.polygon;
  const xr = plane.xrPlane?.polygon;
  let pts = [];
  if (sim && sim.length) pts = sim.map((p) => new THREE.Vector3(p.x, 0, p.y));
  else if (xr && xr.length) pts = xr.map((p) => new THREE.Vector3(p.x, p.y ?? 0, p.z));
  return pts.map((p) => p.applyMatrix4(plane.matrixWorld));
}

function inside(x, z, poly) {
  let hit = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i];
    const b = poly[j];
    if (a.z > z !== b.z > z && a.x + ((z - a.z) * (b.x - a.x)) / (b.z - a.z) > x) hit = !hit;
  }
  return hit;
}

const cellCentre = (v) => (Math.floor(v / CELL) + 0.5) * CELL;

class SnapGrid extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.crate = new THREE.Mesh(
      new THREE.BoxGeometry(SIZE.x, SIZE.y, SIZE.z),
      new THREE.MeshStandardMaterial({color: 0xa0703c})
    );
    this.crate.userData.xrblocksDevtools = {tag: 'crate'};
    this.crate.visible = false;
    this.add(this.crate);
    this.floor = null; // {y, poly}
    this.holder = -1; // index of the controller that holds the crate
    this.home = new THREE.Vector3();
    this.wasSelected = [false, false];
    this.raycaster = new THREE.Raycaster();
  }

  findFloor() {
    const planes = xb.world?.planes?.get?.() ?? [];
    const plane = planes.find((p) => p.label === 'floor');
    if (!plane) return;
    const poly = worldPolygon(plane);
    if (poly.length < 3) return;
    const y = poly.reduce((s, p) => s + p.y, 0) / poly.length;
    this.floor = {y, poly};
    this.drawGrid();
    this.rest(cellCentre(START.x), cellCentre(START.y));
    this.crate.visible = true;
  }

  drawGrid() {
    const {y, poly} = this.floor;
    const lo = new THREE.Vector2(Infinity, Infinity);
    const hi = new THREE.Vector2(-Infinity, -Infinity);
    for (const p of poly) {
      lo.min(new THREE.Vector2(p.x, p.z));
      hi.max(new THREE.Vector2(p.x, p.z));
    }
    const x0 = Math.floor(lo.x / CELL) * CELL;
    const x1 = Math.ceil(hi.x / CELL) * CELL;
    const z0 = Math.floor(lo.y / CELL) * CELL;
    const z1 = Math.ceil(hi.y / CELL) * CELL;
    const h = y + GRID_LIFT;
    const v = [];
    for (let i = Math.round(x0 / CELL); i <= Math.round(x1 / CELL); i++) {
      v.push(i * CELL, h, z0, i * CELL, h, z1);
    }
    for (let j = Math.round(z0 / CELL); j <= Math.round(z1 / CELL); j++) {
      v.push(x0, h, j * CELL, x1, h, j * CELL);
    }
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.Float32BufferAttribute(v, 3));
    this.grid = new THREE.LineSegments(geometry, new THREE.LineBasicMaterial({color: 0x88ccff}));
    this.grid.userData.xrblocksDevtools = {tag: 'floor-grid'};
    this.add(this.grid);
  }

  rest(x, z) {
    this.crate.position.set(x, this.floor.y + SIZE.y / 2, z);
    this.crate.rotation.set(0, 0, 0);
  }

  ray(controller) {
    controller.updateMatrixWorld(true);
    const origin = new THREE.Vector3().setFromMatrixPosition(controller.matrixWorld);
    const direction = new THREE.Vector3(0, 0, -1).transformDirection(controller.matrixWorld);
    return new THREE.Ray(origin, direction);
  }

  /** Where the controller's ray meets the detected floor (inside its polygon), or null. */
  floorPoint(controller) {
    const ray = this.ray(controller);
    if (ray.direction.y > -1e-6) return null;
    const t = (this.floor.y - ray.origin.y) / ray.direction.y;
    if (t <= 0) return null;
    const p = ray.at(t, new THREE.Vector3());
    return inside(p.x, p.z, this.floor.poly) ? p : null;
  }

  pointsAtCrate(controller) {
    const ray = this.ray(controller);
    this.raycaster.set(ray.origin, ray.direction);
    return this.raycaster.intersectObject(this.crate, false).length > 0;
  }

  update() {
    if (!this.floor) this.findFloor();
    if (!this.floor) return;
    const controllers = xb.core.input.controllers;
    for (let i = 0; i < 2; i++) {
      const c = controllers[i];
      const selected = c?.userData?.selected === true;
      if (c && selected && !this.wasSelected[i] && this.holder < 0 && this.pointsAtCrate(c)) {
        this.holder = i;
        this.home.copy(this.crate.position);
        // Carry the crate like a stick: at the distance it was grabbed from, along the ray.
        this.distance = this.ray(c).origin.distanceTo(this.crate.position);
      }
      if (c && !selected && this.wasSelected[i] && this.holder === i) {
        // Drop it onto the cell below wherever it was let go.
        const p = this.crate.position;
        this.rest(cellCentre(p.x), cellCentre(p.z));
        this.holder = -1;
      }
      this.wasSelected[i] = selected;
    }
    if (this.holder >= 0) {
      const ray = this.ray(controllers[this.holder]);
      ray.at(this.distance, this.crate.position);
      this.crate.position.y = Math.max(this.crate.position.y, this.floor.y + SIZE.y / 2);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new SnapGrid());
  xb.init(options);
});
