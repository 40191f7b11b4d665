import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Floor snap grid: a 25 cm grid is drawn on the detected floor, and a wooden
 * crate can be dragged across the floor with either hand's ray (pinch while
 * pointing at it). When let go over the floor it snaps into the grid cell
 * under it; when let go pointing off the floor it returns to where it was.
 */

const CELL = 0.25; // metres, grid cell side.
const CRATE_WIDTH = 0.2; // x
const CRATE_HEIGHT = 0.3; // y
const CRATE_DEPTH = 0.2; // z
const HOVER_GAP = 0.1; // bottom of a held crate above the floor.
const GRID_LIFT = 0.003; // grid lines this far above the floor.
const START_POINT = {x: -0.6, z: -0.7}; // the crate starts on this point's cell.

const _up = new THREE.Vector3(0, 1, 0);
const _origin = new THREE.Vector3();
const _direction = new THREE.Vector3();
const _hit = new THREE.Vector3();
const _local = new THREE.Vector3();
const _inverse = new THREE.Matrix4();

/** Centre coordinate of the cell holding the coordinate v (along one axis). */
function cellCentre(v) {
  return (Math.floor(v / CELL) + 0.5) * CELL;
}

/** Whether the 2D point (x, y) lies inside (or on) the polygon of {x, y} points. */
function pointInPolygon(x, y, polygon) {
  let inside = false;
  const n = polygon.length;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = polygon[i].x;
    const yi = polygon[i].y;
    const xj = polygon[j].x;
    const yj = polygon[j].y;
    // On an edge counts as inside.
    const cross = (x - xi) * (yj - yi) - (y - yi) * (xj - xi);
    if (
      Math.abs(cross) < 1e-9 &&
      x >= Math.min(xi, xj) - 1e-9 &&
      x <= Math.max(xi, xj) + 1e-9 &&
      y >= Math.min(yi, yj) - 1e-9 &&
      y <= Math.max(yi, yj) + 1e-9
    ) {
      return true;
    }
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) {
      inside = !inside;
    }
  }
  return inside;
}

/** A small wood-like canvas texture for the crate. */
function woodTexture() {
  const canvas = document.createElement('canvas');
  canvas.width = 128;
  canvas.height = 128;
  const ctx = canvas.getContext('2d');
  if (ctx) {
    ctx.fillStyle = '#a0703c';
    ctx.fillRect(0, 0, 128, 128);
    ctx.strokeStyle = '#7a5128';
    ctx.lineWidth = 3;
    for (let y = 8; y < 128; y += 16) {
      ctx.beginPath();
      ctx.moveTo(0, y);
      ctx.lineTo(128, y + 4);
      ctx.stroke();
    }
    ctx.strokeStyle = '#5c3b1a';
    ctx.lineWidth = 10;
    ctx.strokeRect(5, 5, 118, 118);
  }
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

class FloorSnapGrid extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const sun = new THREE.DirectionalLight(0xffffff, 1.2);
    sun.position.set(1, 3, 2);
    this.add(sun);

    // The grid: rebuilt whenever the floor (or its pose or outline) changes.
    this.grid = new THREE.LineSegments(
      new THREE.BufferGeometry(),
      new THREE.LineBasicMaterial({color: 0x80deea})
    );
    this.grid.name = 'floor-grid';
    this.grid.userData.xrblocksDevtools = {tag: 'floor-grid'};
    this.grid.raycast = () => {}; // Never blocks a ray.
    this.grid.frustumCulled = false;
    this.grid.visible = false;
    this.add(this.grid);

    // The crate.
    this.crate = new THREE.Mesh(
      new THREE.BoxGeometry(CRATE_WIDTH, CRATE_HEIGHT, CRATE_DEPTH),
      new THREE.MeshStandardMaterial({map: woodTexture(), roughness: 0.8})
    );
    this.crate.name = 'crate';
    this.crate.userData.xrblocksDevtools = {tag: 'crate'};
    this.crate.visible = false;
    this.add(this.crate);

    // The floor as last seen: plane object, world matrix, outline.
    this.floor = null;
    this.floorMatrix = new THREE.Matrix4();
    this.floorPolygonKey = '';
    this.floorPoint = new THREE.Vector3(); // a point of the floor plane (world)
    this.floorNormal = new THREE.Vector3(0, 1, 0); // its normal (world)
    this.floorPolygon = []; // outline in the plane's local x/z, as {x, y}

    // Where the crate rests: a cell centre (x, z), or null before the floor.
    this.restCell = null;
    // The controller holding the crate, and the cell it was grabbed from.
    this.holder = null;
    this.grabCell = null;

    this.raycaster = new THREE.Raycaster();
  }

  // --- The floor ------------------------------------------------------------

  /** The detected plane labelled 'floor', or null. */
  findFloorPlane() {
    const planes = xb.world?.planes;
    if (!planes || typeof planes.get !== 'function') return null;
    const floors = planes.get('floor');
    return floors && floors.length ? floors[0] : null;
  }

  /** The plane's outline in its local x/z plane, as {x, y} points (y = local z). */
  planePolygon(plane) {
    if (plane.simulatorPlane?.polygon?.length >= 3) {
      return plane.simulatorPlane.polygon.map((p) => ({x: p.x, y: p.y}));
    }
    if (plane.xrPlane?.polygon?.length >= 3) {
      return Array.from(plane.xrPlane.polygon, (p) => ({x: p.x, y: p.z}));
    }
    // Fall back on the mesh's own vertices (in the plane's local x/z).
    const position = plane.geometry?.attributes?.position;
    if (!position) return [];
    const points = [];
    for (let i = 0; i < position.count; i++) {
      points.push({x: position.getX(i), y: position.getZ(i)});
    }
    // Vertices of a triangulation: use their convex hull as the outline.
    return convexHull(points);
  }

  /** Re-reads the floor; returns whether there is one. Rebuilds the grid on change. */
  refreshFloor() {
    const plane = this.findFloorPlane();
    if (!plane) {
      if (this.floor) {
        this.floor = null;
        this.floorPolygonKey = '';
      }
      return false;
    }
    plane.updateWorldMatrix(true, false);
    const polygon = this.planePolygon(plane);
    const key = polygon.map((p) => `${p.x},${p.y}`).join(';');
    if (
      plane !== this.floor ||
      !plane.matrixWorld.equals(this.floorMatrix) ||
      key !== this.floorPolygonKey
    ) {
      this.floor = plane;
      this.floorMatrix.copy(plane.matrixWorld);
      this.floorPolygonKey = key;
      this.floorPolygon = polygon;
      this.floorPoint.setFromMatrixPosition(plane.matrixWorld);
      this.floorNormal
        .copy(_up)
        .transformDirection(plane.matrixWorld)
        .normalize();
      if (this.floorNormal.y < 0) this.floorNormal.negate();
      this.buildGrid();
    }
    return polygon.length >= 3;
  }

  /** Height of the floor plane above the world point (x, z). */
  floorHeightAt(x, z) {
    const n = this.floorNormal;
    const p = this.floorPoint;
    if (Math.abs(n.y) < 1e-6) return p.y;
    return p.y - (n.x * (x - p.x) + n.z * (z - p.z)) / n.y;
  }

  /** Whether a world point of the floor plane lies inside the floor's outline. */
  insideFloor(point) {
    _inverse.copy(this.floorMatrix).invert();
    _local.copy(point).applyMatrix4(_inverse);
    return pointInPolygon(_local.x, _local.z, this.floorPolygon);
  }

  /** Draws grid lines every CELL metres over the floor's outline (seen from above). */
  buildGrid() {
    let minX = Infinity;
    let maxX = -Infinity;
    let minZ = Infinity;
    let maxZ = -Infinity;
    for (const p of this.floorPolygon) {
      _local.set(p.x, 0, p.y).applyMatrix4(this.floorMatrix);
      minX = Math.min(minX, _local.x);
      maxX = Math.max(maxX, _local.x);
      minZ = Math.min(minZ, _local.z);
      maxZ = Math.max(maxZ, _local.z);
    }
    const positions = [];
    if (Number.isFinite(minX)) {
      const x0 = Math.floor(minX / CELL) - 1;
      const x1 = Math.ceil(maxX / CELL) + 1;
      const z0 = Math.floor(minZ / CELL) - 1;
      const z1 = Math.ceil(maxZ / CELL) + 1;
      const lift = (x, z) => this.floorHeightAt(x, z) + GRID_LIFT;
      // Lines along z, one at every multiple of CELL in x.
      for (let i = x0; i <= x1; i++) {
        const x = i * CELL;
        const za = z0 * CELL;
        const zb = z1 * CELL;
        positions.push(x, lift(x, za), za, x, lift(x, zb), zb);
      }
      // Lines along x, one at every multiple of CELL in z.
      for (let k = z0; k <= z1; k++) {
        const z = k * CELL;
        const xa = x0 * CELL;
        const xb = x1 * CELL;
        positions.push(xa, lift(xa, z), z, xb, lift(xb, z), z);
      }
    }
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute(
      'position',
      new THREE.Float32BufferAttribute(positions, 3)
    );
    geometry.computeBoundingBox();
    geometry.computeBoundingSphere();
    this.grid.geometry.dispose();
    this.grid.geometry = geometry;
  }

  // --- Rays -----------------------------------------------------------------

  /** The controller (ray source) of a select event, or null. */
  controllerOf(event) {
    const source = event?.source;
    const controllers = xb.core?.input?.controllers || [];
    if (source?.controller?.isObject3D) return source.controller;
    if (source?.handedness === 'left' && controllers[0]) return controllers[0];
    if (source?.handedness === 'right' && controllers[1]) return controllers[1];
    if (event?.target?.isObject3D && controllers.includes(event.target)) {
      return event.target;
    }
    return null;
  }

  /** Sets _origin and _direction to the controller's ray (its -Z axis). */
  readRay(controller) {
    controller.updateWorldMatrix(true, false);
    _origin.setFromMatrixPosition(controller.matrixWorld);
    _direction.set(0, 0, -1).transformDirection(controller.matrixWorld);
    return _direction.lengthSq() > 0;
  }

  /** Where the controller's ray meets the floor inside its outline (into _hit), or null. */
  floorHit(controller) {
    if (!this.floor || !this.readRay(controller)) return null;
    const n = this.floorNormal;
    const denom = n.dot(_direction);
    if (Math.abs(denom) < 1e-9) return null;
    const t = n.dot(_hit.copy(this.floorPoint).sub(_origin)) / denom;
    if (!(t > 0)) return null;
    _hit.copy(_origin).addScaledVector(_direction, t);
    return this.insideFloor(_hit) ? _hit : null;
  }

  /** Whether the controller's ray points at the crate. */
  pointsAtCrate(controller) {
    if (!this.crate.visible || !this.readRay(controller)) return false;
    this.raycaster.set(_origin, _direction);
    this.crate.updateMatrixWorld(true);
    return this.raycaster.intersectObject(this.crate, false).length > 0;
  }

  // --- The crate ------------------------------------------------------------

  restOn(cell) {
    this.restCell = cell;
    const y = this.floorHeightAt(cell.x, cell.z) + CRATE_HEIGHT / 2;
    this.crate.position.set(cell.x, y, cell.z);
    this.crate.rotation.set(0, 0, 0);
    this.crate.updateMatrixWorld(true);
  }

  hangAbove(point) {
    const y =
      this.floorHeightAt(point.x, point.z) + HOVER_GAP + CRATE_HEIGHT / 2;
    this.crate.position.set(point.x, y, point.z);
    this.crate.rotation.set(0, 0, 0);
    this.crate.updateMatrixWorld(true);
  }

  onSelectStart(event) {
    if (this.holder || !this.floor || !this.restCell) return;
    const controller = this.controllerOf(event);
    if (!controller || !this.pointsAtCrate(controller)) return;
    this.holder = controller;
    this.grabCell = {...this.restCell};
    const hit = this.floorHit(controller);
    if (hit) this.hangAbove(hit);
  }

  onSelectEnd(event) {
    if (!this.holder) return;
    const controller = this.controllerOf(event);
    if (controller !== this.holder) return; // the other hand changes nothing
    this.release();
  }

  release() {
    const controller = this.holder;
    this.holder = null;
    const hit = this.floor ? this.floorHit(controller) : null;
    if (hit) {
      this.restOn({x: cellCentre(hit.x), z: cellCentre(hit.z)});
    } else {
      this.restOn(this.grabCell || this.restCell);
    }
    this.grabCell = null;
  }

  update() {
    const hasFloor = this.refreshFloor();
    if (!hasFloor) {
      // Not (or no longer) detected: show neither the grid nor the crate.
      this.grid.visible = false;
      this.crate.visible = false;
      if (this.holder) {
        this.holder = null;
        this.grabCell = null;
      }
      return;
    }
    this.grid.visible = true;
    this.crate.visible = true;
    if (!this.restCell) {
      this.restCell = {x: cellCentre(START_POINT.x), z: cellCentre(START_POINT.z)};
    }

    if (this.holder) {
      const hit = this.floorHit(this.holder);
      if (hit) this.hangAbove(hit);
      // Off the floor: it stays where it last hung.
    } else {
      // At rest (also follows the floor if its height changes).
      this.restOn(this.restCell);
    }
  }
}

/** Convex hull (monotone chain) of {x, y} points. */
function convexHull(points) {
  const pts = points
    .slice()
    .sort((a, b) => (a.x === b.x ? a.y - b.y : a.x - b.x));
  if (pts.length < 3) return pts;
  const cross = (o, a, b) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) {
      lower.pop();
    }
    lower.push(p);
  }
  const upper = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) {
      upper.pop();
    }
    upper.push(p);
  }
  upper.pop();
  lower.pop();
  return lower.concat(upper);
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new FloorSnapGrid());
  xb.init(options);
});
