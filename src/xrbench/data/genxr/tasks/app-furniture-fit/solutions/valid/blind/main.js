import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Will the cabinet fit here? A virtual cabinet stands on the detected floor;
 * drag it with a hand's ray (pinch while pointing at it). It is green where
 * its footprint clears every detected table top and wall, red where not; let
 * go on a red spot and it returns to the last spot where it fitted.
 */

const WIDTH = 0.6; // x
const HEIGHT = 0.8; // y
const DEPTH = 0.4; // z
const START = {x: 1.2, z: -0.7};
const GREEN = 0x2ecc40;
const RED = 0xe53935;
const MAX_RAY_DISTANCE = 50; // metres: a ray crossing farther is treated as not crossing.
const EDGE_EPSILON = 1e-4; // touching is not overlapping.

const _up = new THREE.Vector3(0, 1, 0);
const _p = new THREE.Vector3();
const _n = new THREE.Vector3();
const _origin = new THREE.Vector3();
const _direction = new THREE.Vector3();

// --- 2D geometry on the floor (x, z) ------------------------------------------------------

/** Whether point (x, z) lies inside the polygon of {x, z} points (even-odd). */
function pointInPolygon(x, z, polygon) {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i];
    const b = polygon[j];
    if (a.z > z !== b.z > z && x < ((b.x - a.x) * (z - a.z)) / (b.z - a.z) + a.x) {
      inside = !inside;
    }
  }
  return inside;
}

/** Whether segment a-b meets the closed axis-aligned rectangle (Liang-Barsky). */
function segmentHitsRect(a, b, rect) {
  let t0 = 0;
  let t1 = 1;
  const dx = b.x - a.x;
  const dz = b.z - a.z;
  const checks = [
    [-dx, a.x - rect.minX],
    [dx, rect.maxX - a.x],
    [-dz, a.z - rect.minZ],
    [dz, rect.maxZ - a.z],
  ];
  for (const [p, q] of checks) {
    if (Math.abs(p) < 1e-12) {
      if (q < 0) return false;
    } else {
      const r = q / p;
      if (p < 0) {
        if (r > t1) return false;
        if (r > t0) t0 = r;
      } else {
        if (r < t0) return false;
        if (r < t1) t1 = r;
      }
    }
  }
  return t0 <= t1;
}

/** The footprint rectangle of a cabinet centred at (x, z), shrunk by EDGE_EPSILON. */
function footprint(x, z) {
  const e = EDGE_EPSILON;
  return {
    minX: x - WIDTH / 2 + e,
    maxX: x + WIDTH / 2 - e,
    minZ: z - DEPTH / 2 + e,
    maxZ: z + DEPTH / 2 - e,
  };
}

/** Whether the rectangle and the polygon (floor outline of a table) overlap. */
function rectOverlapsPolygon(rect, polygon) {
  if (polygon.length < 3) return false;
  for (const p of polygon) {
    if (p.x >= rect.minX && p.x <= rect.maxX && p.z >= rect.minZ && p.z <= rect.maxZ) {
      return true;
    }
  }
  const corners = [
    [rect.minX, rect.minZ],
    [rect.maxX, rect.minZ],
    [rect.maxX, rect.maxZ],
    [rect.minX, rect.maxZ],
  ];
  for (const [x, z] of corners) {
    if (pointInPolygon(x, z, polygon)) return true;
  }
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    if (segmentHitsRect(polygon[j], polygon[i], rect)) return true;
  }
  return false;
}

// --- Planes ---------------------------------------------------------------------------------

/** The plane's outline points in its local x/z, as Vector3 (x, 0, z). */
function localOutline(plane) {
  if (plane.simulatorPlane?.polygon?.length >= 3) {
    return plane.simulatorPlane.polygon.map((p) => new THREE.Vector3(p.x, 0, p.y));
  }
  if (plane.xrPlane?.polygon?.length >= 3) {
    return Array.from(plane.xrPlane.polygon, (p) => new THREE.Vector3(p.x, 0, p.z));
  }
  const position = plane.geometry?.attributes?.position;
  const points = [];
  if (position) {
    for (let i = 0; i < position.count; i++) {
      points.push(new THREE.Vector3(position.getX(i), 0, position.getZ(i)));
    }
  }
  return points;
}

/** The plane's outline in world coordinates. */
function worldOutline(plane) {
  plane.updateWorldMatrix(true, false);
  return localOutline(plane).map((p) => p.applyMatrix4(plane.matrixWorld));
}

/** The plane's world normal (its local +Y). */
function worldNormal(plane, target) {
  plane.updateWorldMatrix(true, false);
  return target.copy(_up).transformDirection(plane.matrixWorld).normalize();
}

class FurnitureFit extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const sun = new THREE.DirectionalLight(0xffffff, 1.0);
    sun.position.set(1, 3, 2);
    this.add(sun);

    this.cabinet = new THREE.Mesh(
      new THREE.BoxGeometry(WIDTH, HEIGHT, DEPTH),
      new THREE.MeshStandardMaterial({color: GREEN, roughness: 0.6})
    );
    this.cabinet.name = 'cabinet';
    this.cabinet.visible = false;
    this.cabinet.userData.xrblocksDevtools = {tag: 'cabinet', state: {held: false}};
    this.add(this.cabinet);

    this.placed = false; // whether it has been put on the floor yet
    this.x = START.x; // footprint centre
    this.z = START.z;
    this.lastFit = null; // {x, z} on the last frame it fitted
    this.fits = true;

    this.holder = null; // {controller, offset: Vector3 (spot - cabinet centre)}
    this.raycaster = new THREE.Raycaster();
  }

  // --- The room ---------------------------------------------------------------------------

  planes(label) {
    const detector = xb.world?.planes;
    if (!detector || typeof detector.get !== 'function') return [];
    return detector.get(label) || [];
  }

  /** The floor: {point, normal} of the plane labelled 'floor', or null. */
  floor() {
    const plane = this.planes('floor')[0];
    if (!plane) return null;
    plane.updateWorldMatrix(true, false);
    const point = new THREE.Vector3().setFromMatrixPosition(plane.matrixWorld);
    const normal = worldNormal(plane, new THREE.Vector3());
    if (normal.y < 0) normal.negate();
    return {point, normal};
  }

  floorHeightAt(floor, x, z) {
    const {point: p, normal: n} = floor;
    if (Math.abs(n.y) < 1e-6) return p.y;
    return p.y - (n.x * (x - p.x) + n.z * (z - p.z)) / n.y;
  }

  /** Outlines of the table tops seen from above: arrays of {x, z}. */
  tableOutlines() {
    return this.planes('table').map((plane) =>
      worldOutline(plane).map((p) => ({x: p.x, z: p.z}))
    );
  }

  /** Floor lines of the walls: [{x, z}, {x, z}] segments. */
  wallSegments() {
    const segments = [];
    for (const plane of this.planes('wall')) {
      worldNormal(plane, _n);
      if (Math.abs(_n.y) > 0.7) continue; // not a vertical plane
      const outline = worldOutline(plane);
      if (outline.length < 2) continue;
      plane.updateWorldMatrix(true, false);
      _p.setFromMatrixPosition(plane.matrixWorld);
      // Along the wall, horizontally.
      let ax = -_n.z;
      let az = _n.x;
      const len = Math.hypot(ax, az);
      if (len < 1e-9) continue;
      ax /= len;
      az /= len;
      let min = Infinity;
      let max = -Infinity;
      for (const q of outline) {
        const s = (q.x - _p.x) * ax + (q.z - _p.z) * az;
        min = Math.min(min, s);
        max = Math.max(max, s);
      }
      // All outline points lie in the wall's plane: its floor line runs
      // through the plane's origin, as far as the outline reaches.
      segments.push([
        {x: _p.x + ax * min, z: _p.z + az * min},
        {x: _p.x + ax * max, z: _p.z + az * max},
      ]);
    }
    return segments;
  }

  /** Whether a footprint centred at (x, z) fits among the known tables and walls. */
  fitsAt(x, z) {
    const rect = footprint(x, z);
    for (const outline of this.tableOutlines()) {
      if (rectOverlapsPolygon(rect, outline)) return false;
    }
    for (const [a, b] of this.wallSegments()) {
      if (segmentHitsRect(a, b, rect)) return false;
    }
    return true;
  }

  // --- Input ------------------------------------------------------------------------------

  controllerOf(event) {
    const source = event?.source;
    const controllers = xb.core?.input?.controllers || [];
    if (source?.controller?.isObject3D) return source.controller;
    if (source?.handedness === 'left' && controllers[0]) return controllers[0];
    if (source?.handedness === 'right' && controllers[1]) return controllers[1];
    if (event?.target?.isObject3D && controllers.includes(event.target)) return event.target;
    return null;
  }

  readRay(controller) {
    controller.updateWorldMatrix(true, false);
    _origin.setFromMatrixPosition(controller.matrixWorld);
    _direction.set(0, 0, -1).transformDirection(controller.matrixWorld);
    return _direction.lengthSq() > 0;
  }

  onSelectStart(event) {
    if (this.holder || !this.cabinet.visible) return;
    const controller = this.controllerOf(event);
    if (!controller || !this.readRay(controller)) return;
    this.cabinet.updateMatrixWorld(true);
    this.raycaster.set(_origin, _direction);
    const hits = this.raycaster.intersectObject(this.cabinet, false);
    if (!hits.length) return;
    const spot = hits[0].point;
    this.holder = {
      controller,
      offset: spot.clone().sub(this.cabinet.position),
    };
    this.cabinet.userData.xrblocksDevtools.state.held = true;
  }

  onSelectEnd(event) {
    if (!this.holder) return;
    const controller = this.controllerOf(event);
    if (controller !== this.holder.controller) return; // the other hand: nothing
    this.holder = null;
    this.cabinet.userData.xrblocksDevtools.state.held = false;
    if (!this.fitsAt(this.x, this.z) && this.lastFit) {
      // Released on a red spot: back to the last spot where it fitted.
      this.x = this.lastFit.x;
      this.z = this.lastFit.z;
    }
    const floor = this.floor();
    if (floor) this.place(floor);
  }

  /** Moves the held cabinet so that the grabbed spot stays on the ray. */
  drag() {
    const {controller, offset} = this.holder;
    if (!this.readRay(controller)) return;
    const spotY = this.cabinet.position.y + offset.y;
    if (Math.abs(_direction.y) < 1e-9) return;
    const t = (spotY - _origin.y) / _direction.y;
    if (!(t > 0) || t > MAX_RAY_DISTANCE) return;
    this.x = _origin.x + _direction.x * t - offset.x;
    this.z = _origin.z + _direction.z * t - offset.z;
  }

  /** Puts the cabinet at (this.x, this.z), upright on the floor, coloured by its fit. */
  place(floor) {
    const y = this.floorHeightAt(floor, this.x, this.z) + HEIGHT / 2;
    this.cabinet.position.set(this.x, y, this.z);
    this.cabinet.rotation.set(0, 0, 0);
    this.cabinet.updateMatrixWorld(true);
    this.fits = this.fitsAt(this.x, this.z);
    if (this.fits) this.lastFit = {x: this.x, z: this.z};
    this.cabinet.material.color.setHex(this.fits ? GREEN : RED);
  }

  update() {
    const floor = this.floor();
    if (!floor) {
      this.cabinet.visible = false;
      return;
    }
    if (!this.placed) {
      this.placed = true;
      this.x = START.x;
      this.z = START.z;
    }
    this.cabinet.visible = true;
    if (this.holder) this.drag();
    this.place(floor);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new FurnitureFit());
  xb.init(options);
});
