import * as THREE from 'three';
import * as xb from 'xrblocks';

const CELL = 0.5; // metres: the grid's cells
const TILE = 0.48; // metres: a tile's side (a 2 cm gap between neighbours)
const LIFT = 0.005; // metres above the floor
const TOL = 0.001; // metres: rounding allowed on the floor's boundary
const SAME_LENGTH = 0.01; // metres: a later wall must be longer than this to take over
const UNMARKED = 0x3b82f6;
const MARKED = 0xf59e0b;

/** The plane's polygon in world coordinates (THREE.Vector3, in order). */
function worldPolygon(plane) {
  plane.updateWorldMatrix(true, false);
  const pts = [];
  const sim = plane.simulatorPlane?.polygon;
  const xr = plane.xrPlane?.polygon;
  if (sim && sim.length) {
    for (const p of sim) pts.push(new THREE.Vector3(p.x, 0, p.y));
  } else if (xr && xr.length) {
    for (const p of xr) pts.push(new THREE.Vector3(p.x, p.y ?? 0, p.z));
  }
  return pts.map((p) => p.applyMatrix4(plane.matrixWorld));
}

/** A wall's horizontal direction u, its normal n, length, and the grid origin (x, z). */
function wallFrame(plane) {
  const q = new THREE.Quaternion();
  plane.getWorldQuaternion(q);
  const normal = new THREE.Vector3(0, 1, 0).applyQuaternion(q);
  const n = new THREE.Vector2(normal.x, normal.z);
  if (n.length() < 1e-6) return null;
  n.normalize();
  const u = new THREE.Vector2(-n.y, n.x);
  const pts = worldPolygon(plane);
  if (pts.length < 2) return null;
  let lo = Infinity;
  let hi = -Infinity;
  let foot = 0;
  for (const p of pts) {
    const s = p.x * u.x + p.z * u.y;
    lo = Math.min(lo, s);
    hi = Math.max(hi, s);
    foot += p.x * n.x + p.z * n.y;
  }
  foot /= pts.length;
  const mid = (lo + hi) / 2;
  return {
    u,
    n,
    length: hi - lo,
    origin: new THREE.Vector2(u.x * mid + n.x * foot, u.y * mid + n.y * foot),
  };
}

function pointInPolygon(x, z, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i];
    const b = poly[j];
    if (a.y > z !== b.y > z) {
      const xi = a.x + ((z - a.y) * (b.x - a.x)) / (b.y - a.y);
      if (xi > x) inside = !inside;
    }
  }
  return inside;
}

function cross(o, a, b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

function segmentsCross(p1, p2, q1, q2) {
  const d1 = cross(q1, q2, p1);
  const d2 = cross(q1, q2, p2);
  const d3 = cross(p1, p2, q1);
  const d4 = cross(p1, p2, q2);
  return d1 > 0 !== d2 > 0 && d3 > 0 !== d4 > 0;
}

/** Whether the square (corners in order) lies inside the polygon, with TOL to spare. */
function squareInside(corners, poly) {
  const c = corners
    .reduce((s, p) => s.add(p), new THREE.Vector2())
    .multiplyScalar(1 / corners.length);
  // Shrink by TOL on every side: a boundary that the cell touches (or crosses by less than TOL)
  // counts as inside.
  const k = (CELL / 2 - TOL) / (CELL / 2);
  const sq = corners.map((p) => p.clone().sub(c).multiplyScalar(k).add(c));
  if (!sq.every((p) => pointInPolygon(p.x, p.y, poly))) return false;
  for (let i = 0; i < 4; i++) {
    const a = sq[i];
    const b = sq[(i + 1) % 4];
    for (let j = 0; j < poly.length; j++) {
      if (segmentsCross(a, b, poly[j], poly[(j + 1) % poly.length])) return false;
    }
  }
  return true;
}

class FloorGrid extends xb.Script {
  init() {
    this.grid = new THREE.Group();
    this.grid.name = 'floor-grid';
    this.grid.userData.xrblocksDevtools = {tag: 'floor-grid', state: {tiles: 0, marked: 0}};
    this.add(this.grid);
    this.reference = null; // {key, frame}
    this.floorKey = null;
    this.geometry = new THREE.PlaneGeometry(TILE, TILE).rotateX(-Math.PI / 2);
  }

  update() {
    const planes = xb.world?.planes?.get?.() ?? [];
    const floor = planes.find((p) => p.label === 'floor');
    const walls = planes.filter((p) => p.label === 'wall');
    if (!floor || walls.length === 0) return;
    let best = null;
    for (const wall of walls) {
      const f = wallFrame(wall);
      if (f && (!best || f.length > best.length)) best = f;
    }
    if (!best) return;
    let changed = false;
    if (!this.reference || best.length > this.reference.length + SAME_LENGTH) {
      this.reference = best;
      changed = true;
    }
    const floorPts = worldPolygon(floor);
    const floorKey = floorPts.map((p) => p.toArray().map((v) => v.toFixed(4)).join(',')).join(';');
    if (floorKey !== this.floorKey) {
      this.floorKey = floorKey;
      changed = true;
    }
    if (changed) this.lay(floorPts);
  }

  lay(floorPts) {
    for (const tile of [...this.grid.children]) {
      this.grid.remove(tile);
      tile.material.dispose();
    }
    const {u, n, origin} = this.reference;
    const poly = floorPts.map((p) => new THREE.Vector2(p.x, p.z));
    const y = floorPts.reduce((s, p) => s + p.y, 0) / floorPts.length + LIFT;
    let lo = [Infinity, Infinity];
    let hi = [-Infinity, -Infinity];
    for (const p of poly) {
      const d = p.clone().sub(origin);
      const a = d.dot(u);
      const b = d.dot(n);
      lo = [Math.min(lo[0], a), Math.min(lo[1], b)];
      hi = [Math.max(hi[0], a), Math.max(hi[1], b)];
    }
    const at = (a, b) =>
      new THREE.Vector2(origin.x + a * u.x + b * n.x, origin.y + a * u.y + b * n.y);
    const yaw = Math.atan2(-u.y, u.x); // turns +x onto u (x, z)
    for (let i = Math.floor(lo[0] / CELL) - 1; i <= Math.ceil(hi[0] / CELL); i++) {
      for (let j = Math.floor(lo[1] / CELL) - 1; j <= Math.ceil(hi[1] / CELL); j++) {
        const corners = [
          at(i * CELL, j * CELL),
          at((i + 1) * CELL, j * CELL),
          at((i + 1) * CELL, (j + 1) * CELL),
          at(i * CELL, (j + 1) * CELL),
        ];
        const c = at((i + 0.5) * CELL, (j + 0.5) * CELL);
        if (!pointInPolygon(c.x, c.y, poly)) continue; // the cell's centre on the floor is enough
        const tile = new THREE.Mesh(
          this.geometry,
          new THREE.MeshBasicMaterial({color: UNMARKED, side: THREE.DoubleSide})
        );
        tile.position.set(c.x, y, c.y);
        tile.rotation.y = yaw;
        tile.userData.marked = false;
        tile.userData.xrblocksDevtools = {tag: 'floor-tile'};
        this.grid.add(tile);
      }
    }
    this.count();
  }

  count() {
    const state = this.grid.userData.xrblocksDevtools.state;
    state.tiles = this.grid.children.length;
    state.marked = this.grid.children.filter((t) => t.userData.marked).length;
  }

  onObjectSelectStart(event) {
    const hit = event?.surface ?? event?.intersection?.object ?? event?.target;
    if (!hit || hit.parent !== this.grid) return;
    hit.userData.marked = !hit.userData.marked;
    hit.material.color.set(hit.userData.marked ? MARKED : UNMARKED);
    this.count();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new FloorGrid());
  xb.init(options);
});
