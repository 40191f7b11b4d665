import * as THREE from 'three';
import * as xb from 'xrblocks';

const SHOW_BELOW = 0.6; // metres
const HIDE_ABOVE = 0.7; // metres

/** The plane's boundary polygon in its local x/z plane, as [x, z] pairs. */
function polygonOf(plane) {
  if (plane.xrPlane && plane.xrPlane.polygon) {
    return plane.xrPlane.polygon.map((p) => [p.x, p.z]);
  }
  if (plane.simulatorPlane && plane.simulatorPlane.polygon) {
    return plane.simulatorPlane.polygon.map((p) => [p.x, p.y]);
  }
  return [];
}

function insidePolygon(x, z, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, zi] = poly[i];
    const [xj, zj] = poly[j];
    if (zi > z !== zj > z && x < ((xj - xi) * (z - zi)) / (zj - zi) + xi) {
      inside = !inside;
    }
  }
  return inside;
}

function distanceToEdges(x, z, poly) {
  let best = Infinity;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [ax, az] = poly[j];
    const [bx, bz] = poly[i];
    const dx = bx - ax;
    const dz = bz - az;
    const len2 = dx * dx + dz * dz;
    let t = len2 > 0 ? ((x - ax) * dx + (z - az) * dz) / len2 : 0;
    t = Math.max(0, Math.min(1, t));
    const px = ax + t * dx - x;
    const pz = az + t * dz - z;
    best = Math.min(best, Math.hypot(px, pz));
  }
  return best;
}

/** Shortest distance from a point in the plane's local frame to the filled polygon. */
function distanceToPolygon(local, poly) {
  if (poly.length < 3) return Infinity;
  const off = Math.abs(local.y);
  if (insidePolygon(local.x, local.z, poly)) return off;
  const edge = distanceToEdges(local.x, local.z, poly);
  return Math.hypot(off, edge);
}

/** What identifies a detected plane across updates: its WebXR or simulator plane. */
function sourceOf(plane) {
  return plane.xrPlane || plane.simulatorPlane || plane;
}

function polygonKey(poly) {
  return poly.map(([x, z]) => `${x.toFixed(4)},${z.toFixed(4)}`).join(';');
}

class WallProximityGuard extends xb.Script {
  init() {
    // Source of a detected plane (its XRPlane or simulator plane) -> {plane, mesh, key, shown}
    this.overlays = new Map();
    this.head = new THREE.Vector3();
    this.local = new THREE.Vector3();
    this.inverse = new THREE.Matrix4();
    this.parentInverse = new THREE.Matrix4();
    this.meshMatrix = new THREE.Matrix4();
  }

  makeOverlay(poly) {
    const shape = new THREE.Shape(poly.map(([x, z]) => new THREE.Vector2(x, z)));
    const geometry = new THREE.ShapeGeometry(shape);
    // Shape points (x, z) lie in the XY plane; turn them into the plane's local x/z plane.
    geometry.rotateX(Math.PI / 2);
    return geometry;
  }

  walls() {
    const planes = xb.world?.planes;
    if (!planes) return [];
    return planes.get().filter((p) => p.label === 'wall');
  }

  update() {
    const walls = this.walls();
    const present = new Set(walls.map(sourceOf));
    for (const [source, entry] of this.overlays) {
      if (!present.has(source)) {
        this.remove(entry.mesh);
        entry.mesh.geometry.dispose();
        entry.mesh.material.dispose();
        this.overlays.delete(source);
      }
    }
    xb.core.camera.getWorldPosition(this.head);
    this.updateWorldMatrix(true, false);
    this.parentInverse.copy(this.matrixWorld).invert();
    for (const plane of walls) {
      const poly = polygonOf(plane);
      if (poly.length < 3) continue;
      const source = sourceOf(plane);
      let entry = this.overlays.get(source);
      const key = polygonKey(poly);
      if (!entry) {
        const material = new THREE.MeshBasicMaterial({
          color: 0xff0000,
          transparent: true,
          opacity: 0.4,
          side: THREE.DoubleSide,
          depthWrite: false,
        });
        const mesh = new THREE.Mesh(this.makeOverlay(poly), material);
        mesh.name = 'wall-warning';
        mesh.visible = false;
        mesh.userData.xrblocksDevtools = {tag: 'wall-warning'};
        this.add(mesh);
        entry = {mesh, key, shown: false};
        this.overlays.set(source, entry);
      } else if (entry.key !== key) {
        entry.mesh.geometry.dispose();
        entry.mesh.geometry = this.makeOverlay(poly);
        entry.key = key;
      }
      plane.updateWorldMatrix(true, false);
      // The overlay sits exactly on the wall's plane, with the wall's pose.
      this.meshMatrix.multiplyMatrices(this.parentInverse, plane.matrixWorld);
      this.meshMatrix.decompose(entry.mesh.position, entry.mesh.quaternion, entry.mesh.scale);
      this.inverse.copy(plane.matrixWorld).invert();
      this.local.copy(this.head).applyMatrix4(this.inverse);
      const d = distanceToPolygon(this.local, poly);
      if (!entry.shown && d < SHOW_BELOW) entry.shown = true;
      else if (entry.shown && d > HIDE_ABOVE) entry.shown = false;
      entry.mesh.visible = entry.shown;
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.add(new WallProximityGuard());
  xb.init(options);
});
