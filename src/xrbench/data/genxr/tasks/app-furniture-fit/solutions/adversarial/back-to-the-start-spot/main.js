import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Furniture fit: a virtual cabinet stands on the detected floor. Point a hand's
 * ray at it and pinch to drag it along the floor; it shows green where its
 * footprint fits and red where it overlaps a detected table or crosses a wall.
 * Let go on red and it goes back to the last spot where it fitted.
 */

const WIDTH = 0.6; // along x
const HEIGHT = 0.8;
const DEPTH = 0.4; // along z
const START = new THREE.Vector2(1.2, -0.7); // footprint centre (x, z)
const GREEN = 0x2ecc40;
const RED = 0xe53935;

/** The outline of a detected plane in world x/z (from its mesh's boundary). */
function outlineXZ(plane) {
  plane.updateMatrixWorld(true);
  const points = [];
  const src = plane.simulatorPlane?.polygon;
  const xr = plane.xrPlane?.polygon;
  const v = new THREE.Vector3();
  if (xr) {
    for (const p of xr) {
      v.set(p.x, 0, p.z).applyMatrix4(plane.matrixWorld);
      points.push(new THREE.Vector2(v.x, v.z));
    }
  } else if (src) {
    for (const p of src) {
      v.set(p.x, 0, p.y).applyMatrix4(plane.matrixWorld);
      points.push(new THREE.Vector2(v.x, v.z));
    }
  }
  return points;
}

function cross(o, a, b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/** Whether the open segments p1-p2 and q1-q2 properly cross. */
function segmentsCross(p1, p2, q1, q2) {
  const d1 = cross(q1, q2, p1);
  const d2 = cross(q1, q2, p2);
  const d3 = cross(p1, p2, q1);
  const d4 = cross(p1, p2, q2);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

function insidePolygon(pt, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i];
    const b = poly[j];
    if (a.y > pt.y !== b.y > pt.y &&
        pt.x < ((b.x - a.x) * (pt.y - a.y)) / (b.y - a.y) + a.x) {
      inside = !inside;
    }
  }
  return inside;
}

function strictlyInsideRect(pt, rect) {
  return pt.x > rect.minX && pt.x < rect.maxX && pt.y > rect.minZ && pt.y < rect.maxZ;
}

function rectCorners(rect) {
  return [
    new THREE.Vector2(rect.minX, rect.minZ), new THREE.Vector2(rect.maxX, rect.minZ),
    new THREE.Vector2(rect.maxX, rect.maxZ), new THREE.Vector2(rect.minX, rect.maxZ),
  ];
}

function polygonsOverlap(rect, poly) {
  if (poly.length < 3) return false;
  const corners = rectCorners(rect);
  for (const c of corners) if (insidePolygon(c, poly)) return true;
  for (const p of poly) if (strictlyInsideRect(p, rect)) return true;
  const centre = new THREE.Vector2((rect.minX + rect.maxX) / 2, (rect.minZ + rect.maxZ) / 2);
  if (insidePolygon(centre, poly)) return true;
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < poly.length; j++) {
      if (segmentsCross(corners[i], corners[(i + 1) % 4], poly[j], poly[(j + 1) % poly.length])) return true;
    }
  }
  return false;
}

/** A wall's base on the floor: the two outline points farthest apart. */
function wallSegment(plane) {
  const pts = outlineXZ(plane);
  let best = null;
  let far = -1;
  for (let i = 0; i < pts.length; i++) {
    for (let j = i + 1; j < pts.length; j++) {
      const d = pts[i].distanceToSquared(pts[j]);
      if (d > far) {
        far = d;
        best = [pts[i], pts[j]];
      }
    }
  }
  return best;
}

function segmentCrossesRect(seg, rect) {
  const [a, b] = seg;
  if (strictlyInsideRect(a, rect) || strictlyInsideRect(b, rect)) return true;
  const corners = rectCorners(rect);
  for (let i = 0; i < 4; i++) {
    if (segmentsCross(a, b, corners[i], corners[(i + 1) % 4])) return true;
  }
  // A segment running through opposite corners or along the inside.
  const mid = new THREE.Vector2().addVectors(a, b).multiplyScalar(0.5);
  return strictlyInsideRect(mid, rect);
}

class FurnitureFit extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.cabinet = new THREE.Mesh(
      new THREE.BoxGeometry(WIDTH, HEIGHT, DEPTH),
      new THREE.MeshStandardMaterial({color: GREEN, roughness: 0.6}));
    this.cabinet.visible = false;
    this.state = {held: false};
    this.cabinet.userData.xrblocksDevtools = {tag: 'cabinet', state: this.state};
    this.add(this.cabinet);
    this.floorY = null;
    this.lastFit = new THREE.Vector2();
    this.holder = null;
    this.grabY = 0;
    this.offset = new THREE.Vector2();
    this.raycaster = new THREE.Raycaster();
  }

  planes(label) {
    return (xb.world?.planes?.get() ?? []).filter((p) => p.label === label);
  }

  fits(x, z) {
    const rect = {minX: x - WIDTH / 2, maxX: x + WIDTH / 2, minZ: z - DEPTH / 2, maxZ: z + DEPTH / 2};
    for (const table of this.planes('table')) {
      if (polygonsOverlap(rect, outlineXZ(table))) return false;
    }
    for (const wall of this.planes('wall')) {
      const seg = wallSegment(wall);
      if (seg && segmentCrossesRect(seg, rect)) return false;
    }
    return true;
  }

  ray(controller) {
    controller.updateMatrixWorld(true);
    const origin = new THREE.Vector3().setFromMatrixPosition(controller.matrixWorld);
    const direction = new THREE.Vector3(0, 0, -1).transformDirection(controller.matrixWorld);
    return {origin, direction};
  }

  update() {
    if (this.floorY === null) {
      const floor = this.planes('floor')[0];
      if (!floor) return;
      this.floorY = floor.getWorldPosition(new THREE.Vector3()).y;
      this.cabinet.position.set(START.x, this.floorY + HEIGHT / 2, START.y);
      this.lastFit.copy(START);
      this.cabinet.visible = true;
    }
    if (this.holder) {
      const {origin, direction} = this.ray(this.holder);
      if (Math.abs(direction.y) > 1e-4) {
        const t = (this.grabY - origin.y) / direction.y;
        if (t > 0 && t < 30) {
          this.cabinet.position.x = origin.x + direction.x * t + this.offset.x;
          this.cabinet.position.z = origin.z + direction.z * t + this.offset.y;
        }
      }
    }
    const {x, z} = this.cabinet.position;
    const ok = this.fits(x, z);
    this.cabinet.material.color.setHex(ok ? GREEN : RED);
  }

  onSelectStart(event) {
    if (this.holder || !this.cabinet.visible) return;
    const controller = event?.source?.controller ?? event?.target;
    if (!controller?.matrixWorld) return;
    const {origin, direction} = this.ray(controller);
    this.raycaster.set(origin, direction);
    const hit = this.raycaster.intersectObject(this.cabinet, false)[0];
    if (!hit) return;
    this.holder = controller;
    this.grabY = hit.point.y;
    this.offset.set(this.cabinet.position.x - hit.point.x, this.cabinet.position.z - hit.point.z);
    this.state.held = true;
  }

  onSelectEnd(event) {
    const controller = event?.source?.controller ?? event?.target;
    if (!this.holder || controller !== this.holder) return;
    this.holder = null;
    this.state.held = false;
    const {x, z} = this.cabinet.position;
    if (!this.fits(x, z)) {
      this.cabinet.position.x = this.lastFit.x;
      this.cabinet.position.z = this.lastFit.y;
      this.cabinet.material.color.setHex(GREEN);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new FurnitureFit());
  xb.init(options);
});
