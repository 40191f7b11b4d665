import * as THREE from 'three';
import * as xb from 'xrblocks';

const WARN_AT = 0.6;
const CLEAR_AT = 0.7;

/**
 * One detected wall: its polygon in world coordinates, its plane, and a
 * translucent red overlay built from the same points that is added to the
 * scene while the head is near and taken out of it when the head leaves.
 */
class GuardedWall {
  constructor(plane, parent) {
    this.plane = plane;
    this.parent = parent;
    plane.updateWorldMatrix(true, false);
    const raw = plane.simulatorPlane
      ? plane.simulatorPlane.polygon.map((p) => new THREE.Vector3(p.x, 0, p.y))
      : Array.from(plane.xrPlane.polygon, (p) => new THREE.Vector3(p.x, 0, p.z));
    this.points = raw.map((p) => p.clone().applyMatrix4(plane.matrixWorld));
    this.normal = new THREE.Vector3(0, 1, 0)
      .applyQuaternion(plane.getWorldQuaternion(new THREE.Quaternion()))
      .normalize();
    this.surface = new THREE.Plane().setFromNormalAndCoplanarPoint(this.normal, this.points[0]);
    // A 2D frame in the wall: u along the first edge, v across it.
    this.u = this.points[1].clone().sub(this.points[0]).normalize();
    this.v = new THREE.Vector3().crossVectors(this.normal, this.u).normalize();
    this.flat = this.points.map((p) => this.to2d(p));
    this.edges = this.points.map(
      (p, i) => new THREE.Line3(p, this.points[(i + 1) % this.points.length])
    );
    this.mesh = this.buildMesh();
    this.near = false;
  }

  to2d(p) {
    const d = p.clone().sub(this.points[0]);
    return new THREE.Vector2(d.dot(this.u), d.dot(this.v));
  }

  buildMesh() {
    const lift = this.normal.clone().multiplyScalar(0.005);
    const triangles = THREE.ShapeUtils.triangulateShape(this.flat, []);
    const positions = [];
    for (const tri of triangles) {
      for (const i of tri) {
        const p = this.points[i].clone().add(lift);
        positions.push(p.x, p.y, p.z);
      }
    }
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
    geometry.computeVertexNormals();
    const material = new THREE.MeshBasicMaterial({
      color: '#ff0000',
      transparent: true,
      opacity: 0.4,
      side: THREE.DoubleSide,
      depthWrite: false,
    });
    const mesh = new THREE.Mesh(geometry, material);
    mesh.name = 'wall warning';
    mesh.userData.xrblocksDevtools = {tag: 'wall-warning'};
    return mesh;
  }

  /** Shortest distance from `head` to the polygon as a flat surface. */
  distanceTo(head) {
    const foot = this.surface.projectPoint(head, new THREE.Vector3());
    if (this.contains(this.to2d(foot))) return Math.abs(this.surface.distanceToPoint(head));
    let best = Infinity;
    const closest = new THREE.Vector3();
    for (const edge of this.edges) {
      edge.closestPointToPoint(head, true, closest);
      best = Math.min(best, closest.distanceTo(head));
    }
    return best;
  }

  contains(q) {
    let inside = false;
    const f = this.flat;
    for (let i = 0, j = f.length - 1; i < f.length; j = i++) {
      const crosses = f[i].y > q.y !== f[j].y > q.y;
      if (crosses && q.x < f[i].x + ((f[j].x - f[i].x) * (q.y - f[i].y)) / (f[j].y - f[i].y)) {
        inside = !inside;
      }
    }
    return inside;
  }

  update(head) {
    const d = this.distanceTo(head);
    if (!this.near && d < WARN_AT) {
      this.near = true;
      this.parent.add(this.mesh);
    } else if (this.near && d > CLEAR_AT) {
      this.near = false;
      this.parent.remove(this.mesh);
    }
  }

  dispose() {
    this.parent.remove(this.mesh);
    this.mesh.geometry.dispose();
    this.mesh.material.dispose();
  }
}

class WallGuard extends xb.Script {
  init() {
    this.guarded = new Map();
  }

  update() {
    const planes = xb.world?.planes ? xb.world.planes.get() : [];
    const current = new Set();
    for (const plane of planes) {
      if (plane.label !== 'wall') continue;
      current.add(plane);
      if (!this.guarded.has(plane)) this.guarded.set(plane, new GuardedWall(plane, this));
    }
    for (const [plane, wall] of this.guarded) {
      if (!current.has(plane)) {
        wall.dispose();
        this.guarded.delete(plane);
      }
    }
    const head = xb.core.camera.getWorldPosition(new THREE.Vector3());
    for (const wall of this.guarded.values()) wall.update(head);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new WallGuard());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
