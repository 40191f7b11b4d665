import * as THREE from 'three';
import * as xb from 'xrblocks';

// Floor tiles in a frame lined up with the room's longest wall. The tiles live in a group whose
// local x runs along the reference wall and whose local z runs away from it, with its origin on
// the wall's foot below its middle: in that frame every cell is the square
// [i, i + 1] x [j, j + 1] (times 0.5 m), and the floor's polygon is clipped against it there.

const CELL = 0.5;
const SIDE = 0.48;
const ABOVE_FLOOR = 0.004;
const EPS = 0.001;
const COLORS = {off: new THREE.Color('#3b82f6'), on: new THREE.Color('#f59e0b')};

function planeWorldPoints(plane) {
  plane.updateMatrixWorld(true);
  const src = plane.simulatorPlane
    ? plane.simulatorPlane.polygon.map((p) => new THREE.Vector3(p.x, 0, p.y))
    : (plane.xrPlane?.polygon ?? []).map((p) => new THREE.Vector3(p.x, p.y, p.z));
  return src.map((v) => v.applyMatrix4(plane.matrixWorld));
}

// Whether segment a-b passes through the open box (lo, hi) in 2D (Liang-Barsky clipping).
function segmentEntersBox(a, b, lo, hi) {
  let t0 = 0;
  let t1 = 1;
  const d = [b[0] - a[0], b[1] - a[1]];
  for (let k = 0; k < 2; k++) {
    if (Math.abs(d[k]) < 1e-12) {
      if (a[k] <= lo[k] || a[k] >= hi[k]) return false;
      continue;
    }
    let ta = (lo[k] - a[k]) / d[k];
    let tb = (hi[k] - a[k]) / d[k];
    if (ta > tb) [ta, tb] = [tb, ta];
    t0 = Math.max(t0, ta);
    t1 = Math.min(t1, tb);
    if (t0 >= t1) return false;
  }
  return true;
}

function windingContains(poly, x, y) {
  let wn = 0;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i];
    const b = poly[(i + 1) % poly.length];
    const side = (b[0] - a[0]) * (y - a[1]) - (x - a[0]) * (b[1] - a[1]);
    if (a[1] <= y && b[1] > y && side > 0) wn++;
    else if (a[1] > y && b[1] <= y && side < 0) wn--;
  }
  return wn !== 0;
}

class FramedTiles extends xb.Script {
  init() {
    this.root = new THREE.Group();
    this.root.userData.xrblocksDevtools = {tag: 'floor-grid', state: {tiles: 0, marked: 0}};
    this.add(this.root);
    this.frame = null;
    this.refLength = -Infinity;
    this.floorSignature = '';
    this.raycaster = new THREE.Raycaster();
  }

  /** Length, direction, normal and foot-middle point of a wall. */
  measureWall(wall) {
    const normal = new THREE.Vector3(0, 1, 0).transformDirection(wall.matrixWorld);
    normal.y = 0;
    if (normal.lengthSq() < 1e-8) return null;
    normal.normalize();
    const dir = new THREE.Vector3(0, 1, 0).cross(normal).normalize();
    const pts = planeWorldPoints(wall);
    if (!pts.length) return null;
    const along = pts.map((p) => p.dot(dir));
    const lo = Math.min(...along);
    const hi = Math.max(...along);
    const across = pts[0].dot(normal);
    const foot = dir.clone().multiplyScalar((lo + hi) / 2).addScaledVector(normal, across);
    return {length: hi - lo, dir, normal, foot};
  }

  update() {
    const detected = xb.world?.planes?.get() ?? [];
    let floor = null;
    let best = null;
    for (const plane of detected) {
      if (plane.label === 'floor') floor = plane;
      if (plane.label !== 'wall') continue;
      plane.updateMatrixWorld(true);
      const m = this.measureWall(plane);
      if (m && (!best || m.length > best.length)) best = m;
    }
    if (!floor || !best) return;
    const floorPts = planeWorldPoints(floor);
    const signature = floorPts.map((p) => `${p.x.toFixed(3)} ${p.y.toFixed(3)} ${p.z.toFixed(3)}`).join('|');
    const longer = best.length > this.refLength + 0.01;
    if (!longer && signature === this.floorSignature) return;
    if (longer) {
      this.reference = best;
      this.refLength = best.length;
    }
    this.floorSignature = signature;
    this.relay(floorPts);
  }

  relay(floorPts) {
    if (this.frame) {
      this.root.remove(this.frame);
      this.frame.traverse((o) => o.material?.dispose?.());
    }
    const {dir, normal, foot} = this.reference;
    const floorY = floorPts.reduce((s, p) => s + p.y, 0) / floorPts.length;
    this.frame = new THREE.Group();
    // Local x -> dir, local z -> normal, local y -> up.
    const basis = new THREE.Matrix4().makeBasis(dir, new THREE.Vector3(0, 1, 0), normal);
    this.frame.quaternion.setFromRotationMatrix(basis);
    this.frame.position.set(foot.x, floorY + ABOVE_FLOOR, foot.z);
    this.root.add(this.frame);
    const poly = floorPts.map((p) => {
      const d = new THREE.Vector3(p.x - foot.x, 0, p.z - foot.z);
      return [d.dot(dir) / CELL, d.dot(normal) / CELL];
    });
    const xs = poly.map((p) => p[0]);
    const ys = poly.map((p) => p[1]);
    const e = EPS / CELL;
    const geometry = new THREE.PlaneGeometry(SIDE, SIDE);
    geometry.rotateX(-Math.PI / 2);
    for (let i = Math.floor(Math.min(...xs)); i < Math.ceil(Math.max(...xs)); i++) {
      for (let j = Math.floor(Math.min(...ys)); j < Math.ceil(Math.max(...ys)); j++) {
        const lo = [i + e, j + e];
        const hi = [i + 1 - e, j + 1 - e];
        if (!windingContains(poly, i + 0.5, j + 0.5)) continue;
        let crossed = false;
        for (let k = 0; k < poly.length && !crossed; k++) {
          crossed = segmentEntersBox(poly[k], poly[(k + 1) % poly.length], lo, hi);
        }
        if (crossed) continue;
        const tile = new THREE.Mesh(geometry, new THREE.MeshLambertMaterial({color: COLORS.off}));
        tile.position.set((i + 0.5) * CELL, 0, (j + 0.5) * CELL);
        tile.userData.xrblocksDevtools = {tag: 'floor-tile'};
        tile.userData.on = false;
        this.frame.add(tile);
      }
    }
    this.publish();
  }

  publish() {
    const tiles = this.frame ? this.frame.children : [];
    this.root.userData.xrblocksDevtools.state = {
      tiles: tiles.length,
      marked: tiles.filter((t) => t.userData.on).length,
    };
  }

  /** Every selection (either hand): the tile its ray hits first, if any, is toggled. */
  onSelectStart(event) {
    if (!this.frame) return;
    const controller = event?.source?.controller ?? event?.target;
    if (!controller?.matrixWorld) return;
    controller.updateMatrixWorld(true);
    const origin = new THREE.Vector3().setFromMatrixPosition(controller.matrixWorld);
    const direction = new THREE.Vector3(0, 0, -1).transformDirection(controller.matrixWorld);
    this.raycaster.set(origin, direction);
    const hit = this.raycaster.intersectObjects(this.frame.children, false)[0];
    if (!hit) return;
    const tile = hit.object;
    tile.userData.on = !tile.userData.on;
    tile.material.color.copy(tile.userData.on ? COLORS.on : COLORS.off);
    this.publish();
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new FramedTiles());
  xb.init(options);
});
