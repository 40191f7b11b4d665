import * as THREE from 'three';
import * as xb from 'xrblocks';

const RADIUS = 0.05;

/** A wall's horizontal normal (nx, nz) and offset d, so that nx * x + nz * z = d on it. */
function wallLine(wall) {
  wall.updateMatrixWorld(true);
  const normal = new THREE.Vector3(0, 1, 0).applyQuaternion(
    wall.getWorldQuaternion(new THREE.Quaternion()));
  const point = wall.getWorldPosition(new THREE.Vector3());
  const n = new THREE.Vector2(normal.x, normal.z).normalize();
  return {n, d: n.x * point.x + n.y * point.z};
}

/** Marks every corner where two detected walls meet the detected floor with a small sphere. */
class RoomCorners extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.geometry = new THREE.SphereGeometry(RADIUS, 24, 16);
    this.material = new THREE.MeshStandardMaterial({color: 0xff7043});
    this.ids = new Map();  // plane -> small integer, to name wall pairs
    this.marked = new Set();  // 'i:j' of wall pairs already marked (or found parallel)
  }

  idOf(plane) {
    if (!this.ids.has(plane)) this.ids.set(plane, this.ids.size);
    return this.ids.get(plane);
  }

  /** One sphere per corner: a wall detected in pieces meets another wall on the same line twice. */
  add(object) {
    const isCorner = (o) => o.userData.xrblocksDevtools?.tag === 'room-corner';
    const at = object.position;
    const taken = isCorner(object) && this.children.some(
        (c) => isCorner(c) && Math.hypot(c.position.x - at.x, c.position.z - at.z) < 0.03);
    return taken ? this : super.add(object);
  }

  update() {
    const planes = xb.world?.planes?.get() ?? [];
    const floor = planes.find((p) => p.label === 'floor');
    if (!floor) return;
    const floorY = floor.getWorldPosition(new THREE.Vector3()).y;
    const walls = planes.filter((p) => p.label === 'wall');
    for (let i = 0; i < walls.length; i++) {
      for (let j = i + 1; j < walls.length; j++) {
        const a = this.idOf(walls[i]), b = this.idOf(walls[j]);
        const key = a < b ? `${a}:${b}` : `${b}:${a}`;
        if (this.marked.has(key)) continue;
        this.marked.add(key);
        const l1 = wallLine(walls[i]), l2 = wallLine(walls[j]);
        const det = l1.n.x * l2.n.y - l1.n.y * l2.n.x;
        if (Math.abs(det) < 1e-3) continue;  // parallel walls never meet
        const x = (l1.d * l2.n.y - l2.d * l1.n.y) / det;
        const z = (l1.n.x * l2.d - l2.n.x * l1.d) / det;
        const sphere = new THREE.Mesh(this.geometry, this.material);
        sphere.position.set(x, floorY, z);
        sphere.userData.xrblocksDevtools = {tag: 'room-corner'};
        this.add(sphere);
      }
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new RoomCorners());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
