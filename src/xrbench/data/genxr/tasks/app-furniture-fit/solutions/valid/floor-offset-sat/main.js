import * as THREE from 'three';
import * as xb from 'xrblocks';

// A cabinet you drag along the real floor with a hand ray to see where it fits.
// Footprint tests use separating axes on convex outlines read from the
// detected planes' meshes (their vertices in world space).

const SIZE = {w: 0.6, h: 0.8, d: 0.4};
const HOME = {x: 1.2, z: -0.7};
const FITS_COLOR = new THREE.Color('#2ecc40');
const BLOCKED_COLOR = new THREE.Color('#e53935');
const RETURN_SECONDS = 0.25;

function hull(points) {
  const pts = points.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  upper.pop();
  lower.pop();
  return lower.concat(upper);
}

/** World x/z of a plane mesh's vertices. */
function footprintOf(plane) {
  plane.updateWorldMatrix(true, false);
  const pos = plane.geometry?.attributes?.position;
  if (!pos) return [];
  const v = new THREE.Vector3();
  const out = [];
  for (let i = 0; i < pos.count; i++) {
    v.fromBufferAttribute(pos, i).applyMatrix4(plane.matrixWorld);
    out.push([v.x, v.z]);
  }
  return out;
}

function axesOf(poly) {
  const axes = [];
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i];
    const b = poly[(i + 1) % poly.length];
    const nx = a[1] - b[1];
    const nz = b[0] - a[0];
    const len = Math.hypot(nx, nz);
    if (len > 1e-9) axes.push([nx / len, nz / len]);
  }
  return axes;
}

function separated(a, b) {
  for (const [ax, az] of [...axesOf(a), ...axesOf(b)]) {
    let amin = Infinity, amax = -Infinity, bmin = Infinity, bmax = -Infinity;
    for (const p of a) {
      const s = p[0] * ax + p[1] * az;
      amin = Math.min(amin, s);
      amax = Math.max(amax, s);
    }
    for (const p of b) {
      const s = p[0] * ax + p[1] * az;
      bmin = Math.min(bmin, s);
      bmax = Math.max(bmax, s);
    }
    if (amax <= bmin || bmax <= amin) return true;
  }
  return false;
}

/** A wall's foot on the floor as a very thin quadrilateral. */
function wallFoot(plane) {
  const pts = footprintOf(plane);
  let a = null, b = null, far = -1;
  for (let i = 0; i < pts.length; i++) {
    for (let j = i + 1; j < pts.length; j++) {
      const d = Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]);
      if (d > far) {
        far = d;
        a = pts[i];
        b = pts[j];
      }
    }
  }
  if (!a || far < 1e-6) return null;
  const nx = (-(b[1] - a[1]) / far) * 1e-4;
  const nz = ((b[0] - a[0]) / far) * 1e-4;
  return [[a[0] - nx, a[1] - nz], [b[0] - nx, b[1] - nz], [b[0] + nx, b[1] + nz], [a[0] + nx, a[1] + nz]];
}

class Cabinet extends xb.MeshScript {
  constructor() {
    super(
      new THREE.BoxGeometry(SIZE.w, SIZE.h, SIZE.d),
      new THREE.MeshStandardMaterial({color: FITS_COLOR, roughness: 0.7, metalness: 0.1})
    );
    this.visible = false;
    this.state = {held: false};
    this.userData.xrblocksDevtools = {tag: 'cabinet', state: this.state};
    this.floor = null;
    this.hand = null; // the controller holding it
    this.dragPlane = new THREE.Plane(new THREE.Vector3(0, 1, 0), 0);
    this.grabOffset = new THREE.Vector3();
    this.lastGood = new THREE.Vector3();
    this.returning = null;
    this.ray = new THREE.Ray();
    this.tmp = new THREE.Vector3();
  }

  init() {
    xb.core.scene.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }

  knownPlanes() {
    return xb.world?.planes?.get?.() ?? [];
  }

  footprintFits(x, z) {
    const rect = [
      [x - SIZE.w / 2, z - SIZE.d / 2], [x + SIZE.w / 2, z - SIZE.d / 2],
      [x + SIZE.w / 2, z + SIZE.d / 2], [x - SIZE.w / 2, z + SIZE.d / 2],
    ];
    for (const plane of this.knownPlanes()) {
      if (plane.label === 'table') {
        const outline = hull(footprintOf(plane));
        if (outline.length >= 3 && !separated(rect, outline)) return false;
      } else if (plane.label === 'wall') {
        const foot = wallFoot(plane);
        if (foot && !separated(rect, foot)) return false;
      }
    }
    return true;
  }

  update() {
    if (!this.floor) {
      this.floor = this.knownPlanes().find((p) => p.label === 'floor') ?? null;
      if (!this.floor) return;
      const y = this.floor.getWorldPosition(this.tmp).y;
      this.position.set(HOME.x, y + SIZE.h / 2, HOME.z);
      this.lastGood.copy(this.position);
      this.visible = true;
    }
    const dt = xb.getDeltaTime ? xb.getDeltaTime() : 1 / 60;
    if (this.hand) {
      const m = this.hand.matrixWorld;
      this.ray.origin.setFromMatrixPosition(m);
      this.ray.direction.set(0, 0, -1).transformDirection(m);
      const hit = this.ray.intersectPlane(this.dragPlane, this.tmp);
      if (hit && hit.distanceTo(this.ray.origin) < 25) {
        this.position.x = hit.x + this.grabOffset.x;
        this.position.z = hit.z + this.grabOffset.z;
      }
    } else if (this.returning) {
      const r = this.returning;
      r.t = Math.min(1, r.t + dt / RETURN_SECONDS);
      this.position.lerpVectors(r.from, r.to, r.t);
      if (r.t >= 1) this.returning = null;
    }
    const fits = this.footprintFits(this.position.x, this.position.z);
    if (fits && !this.returning) this.lastGood.copy(this.position);
    this.material.color.copy(fits ? FITS_COLOR : BLOCKED_COLOR);
  }

  onObjectSelectStart(event) {
    const controller = event.source?.controller;
    const point = event.intersection?.point;
    if (this.hand || !controller || !point || !this.visible) return;
    this.hand = controller;
    this.returning = null;
    this.dragPlane.set(new THREE.Vector3(0, 1, 0), -point.y);
    this.grabOffset.set(this.position.x - point.x, 0, this.position.z - point.z);
    this.state.held = true;
  }

  onSelectEnd(event) {
    if (!this.hand || event.source?.controller !== this.hand) return;
    this.hand = null;
    this.state.held = false;
    if (!this.footprintFits(this.position.x, this.position.z)) {
      this.returning = {from: this.position.clone(), to: this.lastGood.clone(), t: 0};
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new Cabinet());
  xb.init(options);
});
