import * as THREE from 'three';
import * as xb from 'xrblocks';

const SHOW_WITHIN = 0.6; // metres: shown when the head is nearer than this
const HIDE_BEYOND = 0.7; // metres: hidden again when the head is farther than this
const LIFT = 0.01; // metres in front of the wall, so the overlay does not flicker with it

/** The polygon of a detected plane in its local x/z, as [x, z] pairs. */
function localPolygon(plane) {
  if (plane.simulatorPlane?.polygon) {
    return plane.simulatorPlane.polygon.map((p) => [p.x, p.y]);
  }
  if (plane.xrPlane?.polygon) {
    return Array.from(plane.xrPlane.polygon, (p) => [p.x, p.z]);
  }
  return null;
}

/** Whether (x, z) is inside the polygon (even-odd rule). */
function inside(polygon, x, z) {
  let hit = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, zi] = polygon[i];
    const [xj, zj] = polygon[j];
    if (zi > z !== zj > z && x < ((xj - xi) * (z - zi)) / (zj - zi) + xi) hit = !hit;
  }
  return hit;
}

/** Distance in the plane from (x, z) to the polygon's boundary. */
function toBoundary(polygon, x, z) {
  let best = Infinity;
  for (let i = 0; i < polygon.length; i++) {
    const [ax, az] = polygon[i];
    const [bx, bz] = polygon[(i + 1) % polygon.length];
    const dx = bx - ax, dz = bz - az;
    const len2 = dx * dx + dz * dz;
    const t = len2 > 0 ? Math.max(0, Math.min(1, ((x - ax) * dx + (z - az) * dz) / len2)) : 0;
    best = Math.min(best, Math.hypot(x - (ax + t * dx), z - (az + t * dz)));
  }
  return best;
}

/**
 * Warns the user near a wall: every detected wall gets a translucent red
 * overlay over its polygon, shown while the head is within 0.6 m of the
 * polygon and hidden again once it is more than 0.7 m away.
 *
 * The head is brought into each wall's local frame, where the wall's normal is
 * +Y and its polygon lies in x/z: the height above the plane and the distance
 * within the plane to the polygon (zero inside it) give the distance to the
 * polygon.
 */
class WallProximity extends xb.Script {
  init() {
    this.overlays = new Map(); // DetectedPlane -> {mesh, polygon}
    this.material = new THREE.MeshBasicMaterial({
      color: 0xff0000,
      transparent: true,
      opacity: 0.4,
      side: THREE.DoubleSide,
      depthWrite: false,
    });
    this.head = new THREE.Vector3();
    this.local = new THREE.Vector3();
    this.inverse = new THREE.Matrix4();
  }

  update() {
    const planes = xb.world?.planes?.get?.() ?? [];
    const walls = new Set(planes.filter((p) => p.label === 'wall'));
    for (const [plane, entry] of this.overlays) {
      if (!walls.has(plane)) {
        this.remove(entry.mesh);
        this.overlays.delete(plane);
      }
    }
    xb.core.camera.getWorldPosition(this.head);
    for (const wall of walls) {
      let entry = this.overlays.get(wall);
      if (!entry) {
        entry = this.makeOverlay(wall);
        if (!entry) continue;
        this.overlays.set(wall, entry);
      }
      wall.updateWorldMatrix(true, false);
      this.local.copy(this.head).applyMatrix4(this.inverse.copy(wall.matrixWorld).invert());
      const across = inside(entry.polygon, this.local.x, this.local.z)
        ? 0
        : toBoundary(entry.polygon, this.local.x, this.local.z);
      const distance = Math.hypot(this.local.y, across);
      if (distance < SHOW_WITHIN) entry.mesh.visible = true;
      else if (distance > HIDE_BEYOND) entry.mesh.visible = false;
    }
  }

  makeOverlay(wall) {
    const polygon = localPolygon(wall);
    if (!polygon || polygon.length < 3) return null;
    const shape = new THREE.Shape(polygon.map(([x, z]) => new THREE.Vector2(x, z)));
    const geometry = new THREE.ShapeGeometry(shape);
    geometry.rotateX(Math.PI / 2); // shape x/y -> plane x/z
    geometry.translate(0, LIFT, 0); // towards the wall's normal, into the room
    const mesh = new THREE.Mesh(geometry, this.material);
    wall.updateWorldMatrix(true, false);
    wall.matrixWorld.decompose(mesh.position, mesh.quaternion, mesh.scale);
    mesh.visible = false;
    mesh.userData.xrblocksDevtools = {tag: 'wall-warning'};
    this.add(mesh);
    return {mesh, polygon};
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new WallProximity());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
