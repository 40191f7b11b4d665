import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Floor tiles aligned to the room.
 *
 * Covers the detected floor with a grid of 0.5 m square cells lined up with
 * the longest detected wall (one family of cell edges along the foot of the
 * wall, the other through the wall's middle). Every cell that lies wholly
 * inside the floor polygon gets a 0.48 m tile. Pinching either hand while its
 * ray points at a tile toggles the tile between blue (unmarked) and amber
 * (marked).
 */

const CELL = 0.5; // Cell side, metres.
const TILE = 0.48; // Tile side, metres (2 cm gap between neighbours).
const TILE_LIFT = 0.005; // Height of the tiles above the floor plane.
const WALL_EPS = 0.01; // A wall must be longer by more than this to win.
const INSIDE_EPS = 0.001; // Tolerance of the inside-the-floor test.
const MAX_CELLS = 200000; // Safety cap on the number of cells examined.

const UNMARKED_COLOR = '#3b82f6';
const MARKED_COLOR = '#f59e0b';

const UP = new THREE.Vector3(0, 1, 0);

/**
 * Returns the boundary of a detected plane in its local frame, as points of
 * its local x/z plane.
 * @param {xb.DetectedPlane} plane
 * @returns {THREE.Vector3[]}
 */
function localPolygon(plane) {
  const points = [];
  const sim = plane.simulatorPlane;
  if (sim && Array.isArray(sim.polygon) && sim.polygon.length) {
    // Simulator planes: Vector2(x, z) in the plane's local x/z plane.
    for (const p of sim.polygon) {
      points.push(new THREE.Vector3(p.x, 0, p.y));
    }
    return points;
  }
  const xrPolygon = plane.xrPlane?.polygon;
  if (xrPolygon && xrPolygon.length) {
    for (const p of xrPolygon) {
      points.push(new THREE.Vector3(p.x, p.y || 0, p.z));
    }
    return points;
  }
  // Fallback: the vertices of the plane's geometry (local x/z plane).
  const position = plane.geometry?.attributes?.position;
  if (position) {
    for (let i = 0; i < position.count; i++) {
      points.push(
        new THREE.Vector3(position.getX(i), position.getY(i), position.getZ(i))
      );
    }
  }
  return points;
}

/**
 * World pose and boundary of a detected plane.
 * @param {xb.DetectedPlane} plane
 */
function worldPlane(plane) {
  plane.updateWorldMatrix(true, false);
  const matrix = plane.matrixWorld;
  const position = new THREE.Vector3();
  const quaternion = new THREE.Quaternion();
  const scale = new THREE.Vector3();
  matrix.decompose(position, quaternion, scale);
  const normal = UP.clone().applyQuaternion(quaternion).normalize();
  const polygon = localPolygon(plane).map((p) => p.applyMatrix4(matrix));
  return {position, normal, polygon};
}

/**
 * Direction, length, middle and foot of a wall plane, or null when the plane
 * is not usable as a wall (no boundary, or a horizontal normal is missing).
 * @param {xb.DetectedPlane} plane
 */
function wallInfo(plane) {
  const {position, normal, polygon} = worldPlane(plane);
  const nh = Math.hypot(normal.x, normal.z);
  if (nh < 1e-6 || polygon.length < 2) return null;
  // Horizontal unit normal (x, z) and the direction along the wall.
  const nx = normal.x / nh;
  const nz = normal.z / nh;
  const dx = -nz;
  const dz = nx;
  let min = Infinity;
  let max = -Infinity;
  for (const p of polygon) {
    const t = p.x * dx + p.z * dz;
    if (t < min) min = t;
    if (t > max) max = t;
  }
  return {
    length: max - min,
    middle: (min + max) / 2, // Coordinate of the middle along the direction.
    dir: {x: dx, z: dz},
    nrm: {x: nx, z: nz},
    normal: normal.clone(),
    position: position.clone(),
  };
}

function polygonArea2D(points) {
  let area = 0;
  for (let i = 0, n = points.length; i < n; i++) {
    const a = points[i];
    const b = points[(i + 1) % n];
    area += a.x * b.z - b.x * a.z;
  }
  return Math.abs(area) / 2;
}

/** Whether point (u, v) lies inside polygon poly ([{u, v}]), ray casting. */
function pointInPolygon(u, v, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i];
    const b = poly[j];
    if (a.v > v !== b.v > v) {
      const uCross = a.u + ((v - a.v) * (b.u - a.u)) / (b.v - a.v);
      if (u < uCross) inside = !inside;
    }
  }
  return inside;
}

/**
 * Whether segment a-b passes through the open rectangle
 * (u0, u1) x (v0, v1) over a positive length (Liang-Barsky clipping).
 */
function segmentEntersRect(a, b, u0, u1, v0, v1) {
  const du = b.u - a.u;
  const dv = b.v - a.v;
  let t0 = 0;
  let t1 = 1;
  const ps = [-du, du, -dv, dv];
  const qs = [a.u - u0, u1 - a.u, a.v - v0, v1 - a.v];
  for (let k = 0; k < 4; k++) {
    const p = ps[k];
    const q = qs[k];
    if (Math.abs(p) < 1e-15) {
      if (q <= 0) return false; // Parallel, outside or on the boundary line.
      continue;
    }
    const r = q / p;
    if (p < 0) {
      if (r > t0) t0 = r;
    } else if (r < t1) {
      t1 = r;
    }
    if (t0 >= t1) return false;
  }
  return t1 - t0 > 1e-12;
}

/**
 * Whether the square [u0, u1] x [v0, v1] lies wholly inside the polygon,
 * allowing INSIDE_EPS for rounding.
 */
function cellInsidePolygon(u0, u1, v0, v1, poly) {
  const a0 = u0 + INSIDE_EPS;
  const a1 = u1 - INSIDE_EPS;
  const b0 = v0 + INSIDE_EPS;
  const b1 = v1 - INSIDE_EPS;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    if (segmentEntersRect(poly[j], poly[i], a0, a1, b0, b1)) return false;
  }
  return pointInPolygon((u0 + u1) / 2, (v0 + v1) / 2, poly);
}

class FloorGrid extends xb.Script {
  init() {
    this.grid = new THREE.Group();
    this.grid.name = 'FloorGrid';
    this.grid.userData.xrblocksDevtools = {
      tag: 'floor-grid',
      state: {tiles: 0, marked: 0},
    };
    this.add(this.grid);

    this.tileGeometry = new THREE.PlaneGeometry(TILE, TILE);
    /** @type {Map<string, THREE.Mesh>} Tiles by cell key "i,j". */
    this.tiles = new Map();
    /** Reference wall (kept even if the plane object goes away). */
    this.refWall = null;
    /** Current floor description and its key. */
    this.floor = null;
    this.floorKey = null;
    /** Key of the grid the tiles were laid for. */
    this.laidWallId = 0;
    this.laidFloorKey = null;
    this.wallId = 0;
    this.raycaster = new THREE.Raycaster();
  }

  update() {
    this.refreshPlanes();
  }

  /** Looks at the detected planes and updates the tiles when needed. */
  refreshPlanes() {
    const detector = xb.world?.planes;
    if (!detector || typeof detector.get !== 'function') return;
    const planes = detector.get() || [];

    let longest = null;
    let bestFloor = null;
    let bestFloorArea = -1;
    for (const plane of planes) {
      if (plane.label === 'wall') {
        const info = wallInfo(plane);
        if (info && (!longest || info.length > longest.length)) {
          longest = info;
        }
      } else if (plane.label === 'floor') {
        const floor = worldPlane(plane);
        if (floor.polygon.length < 3) continue;
        const area = polygonArea2D(floor.polygon);
        if (area > bestFloorArea) {
          bestFloorArea = area;
          bestFloor = floor;
        }
      }
    }

    if (
      longest &&
      (!this.refWall || longest.length > this.refWall.length + WALL_EPS)
    ) {
      this.refWall = longest;
      this.wallId++;
    }

    if (bestFloor) {
      const key = this.makeFloorKey(bestFloor);
      if (key !== this.floorKey) {
        this.floor = bestFloor;
        this.floorKey = key;
      }
    }

    if (!this.refWall || !this.floor) return;
    if (this.wallId !== this.laidWallId) {
      // A new grid: lay all tiles again, unmarked.
      this.layTiles(/* keepExisting= */ false);
    } else if (this.floorKey !== this.laidFloorKey) {
      // Same grid, new floor: keep the tiles (and marks) of cells that stay.
      this.layTiles(/* keepExisting= */ true);
    }
  }

  makeFloorKey(floor) {
    const r = (x) => Math.round(x * 1e4);
    const parts = [
      r(floor.position.y),
      r(floor.normal.x),
      r(floor.normal.y),
      r(floor.normal.z),
    ];
    for (const p of floor.polygon) parts.push(r(p.x), r(p.y), r(p.z));
    return parts.join(',');
  }

  /** Height of the floor plane at world (x, z). */
  floorHeightAt(x, z) {
    const {position, normal} = this.floor;
    if (Math.abs(normal.y) < 1e-6) return position.y;
    return (
      position.y -
      (normal.x * (x - position.x) + normal.z * (z - position.z)) / normal.y
    );
  }

  /** Computes the cells of the current grid that get a tile. */
  computeCells() {
    const wall = this.refWall;
    const floor = this.floor;
    const d = wall.dir;
    const n = wall.nrm;
    // Foot of the wall: where the wall's plane meets the floor's height.
    const floorY = floor.position.y;
    const wn = wall.normal;
    const nh = Math.hypot(wn.x, wn.z);
    const footV =
      (wn.dot(wall.position) - wn.y * floorY) / (nh > 1e-9 ? nh : 1);
    const midU = wall.middle;

    // Floor polygon seen from above, in (u along wall, v along normal).
    const poly = floor.polygon.map((p) => ({
      u: p.x * d.x + p.z * d.z,
      v: p.x * n.x + p.z * n.z,
    }));
    let umin = Infinity;
    let umax = -Infinity;
    let vmin = Infinity;
    let vmax = -Infinity;
    for (const p of poly) {
      umin = Math.min(umin, p.u);
      umax = Math.max(umax, p.u);
      vmin = Math.min(vmin, p.v);
      vmax = Math.max(vmax, p.v);
    }
    const i0 = Math.floor((umin - midU) / CELL) - 1;
    const i1 = Math.ceil((umax - midU) / CELL) + 1;
    const j0 = Math.floor((vmin - footV) / CELL) - 1;
    const j1 = Math.ceil((vmax - footV) / CELL) + 1;
    const cells = [];
    if ((i1 - i0) * (j1 - j0) > MAX_CELLS) return cells;
    for (let i = i0; i < i1; i++) {
      const u0 = midU + i * CELL;
      const u1 = u0 + CELL;
      for (let j = j0; j < j1; j++) {
        const v0 = footV + j * CELL;
        const v1 = v0 + CELL;
        if (!cellInsidePolygon(u0, u1, v0, v1, poly)) continue;
        const uc = (u0 + u1) / 2;
        const vc = (v0 + v1) / 2;
        const x = uc * d.x + vc * n.x;
        const z = uc * d.z + vc * n.z;
        cells.push({key: `${i},${j}`, x, z});
      }
    }
    return cells;
  }

  createTile() {
    const material = new THREE.MeshBasicMaterial({
      color: UNMARKED_COLOR,
      side: THREE.DoubleSide,
    });
    const tile = new THREE.Mesh(this.tileGeometry, material);
    tile.name = 'FloorTile';
    tile.userData.marked = false;
    tile.userData.xrblocksDevtools = {
      tag: 'floor-tile',
      state: {marked: false},
    };
    return tile;
  }

  placeTile(tile, cell) {
    const d = this.refWall.dir;
    const yaw = Math.atan2(-d.z, d.x);
    const y = this.floorHeightAt(cell.x, cell.z) + TILE_LIFT;
    const world = new THREE.Vector3(cell.x, y, cell.z);
    // Tiles live in the grid group; convert from world coordinates.
    this.grid.updateWorldMatrix(true, false);
    this.grid.worldToLocal(world);
    tile.position.copy(world);
    // Laid flat (+Z of the plane geometry up), edges along the wall.
    const qYaw = new THREE.Quaternion().setFromAxisAngle(UP, yaw);
    const qFlat = new THREE.Quaternion().setFromAxisAngle(
      new THREE.Vector3(1, 0, 0),
      -Math.PI / 2
    );
    tile.quaternion.copy(qYaw.multiply(qFlat));
    tile.updateMatrix();
  }

  removeTile(tile) {
    this.grid.remove(tile);
    tile.material.dispose();
  }

  /** Lays the tiles for the current grid and floor. */
  layTiles(keepExisting) {
    const cells = this.computeCells();
    const next = new Map();
    for (const cell of cells) {
      let tile = keepExisting ? this.tiles.get(cell.key) : undefined;
      if (tile) {
        this.tiles.delete(cell.key);
      } else {
        tile = this.createTile();
        this.grid.add(tile);
      }
      this.placeTile(tile, cell);
      next.set(cell.key, tile);
    }
    // Whatever is left belongs to the old grid (or to cells that went away).
    for (const tile of this.tiles.values()) this.removeTile(tile);
    this.tiles = next;
    this.laidWallId = this.wallId;
    this.laidFloorKey = this.floorKey;
    this.updateState();
  }

  setMarked(tile, marked) {
    tile.userData.marked = marked;
    tile.material.color.set(marked ? MARKED_COLOR : UNMARKED_COLOR);
    tile.userData.xrblocksDevtools.state = {marked};
  }

  updateState() {
    let marked = 0;
    for (const tile of this.tiles.values()) {
      if (tile.userData.marked) marked++;
    }
    this.grid.userData.xrblocksDevtools.state = {
      tiles: this.tiles.size,
      marked,
    };
  }

  /** Returns the tile the controller's ray points at, if any. */
  tileUnderRay(controller) {
    if (!controller || this.tiles.size === 0) return null;
    controller.updateWorldMatrix(true, false);
    const origin = new THREE.Vector3();
    const orientation = new THREE.Quaternion();
    controller.getWorldPosition(origin);
    controller.getWorldQuaternion(orientation);
    const direction = new THREE.Vector3(0, 0, -1)
      .applyQuaternion(orientation)
      .normalize();
    this.raycaster.set(origin, direction);
    this.grid.updateMatrixWorld(true);
    const hits = this.raycaster.intersectObjects(
      Array.from(this.tiles.values()),
      false
    );
    return hits.length ? hits[0].object : null;
  }

  onSelectStart(event) {
    // Make sure the tiles reflect every plane detected so far.
    this.refreshPlanes();
    const controller = event?.source?.controller;
    const tile = this.tileUnderRay(controller);
    if (!tile) return;
    this.setMarked(tile, !tile.userData.marked);
    this.updateState();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enablePlaneDetection();
  options.enableHands();
  xb.add(new FloorGrid());
  xb.init(options);
});
