import * as THREE from 'three';
import * as xb from 'xrblocks';

/** Draws a closed loop through the world-space corners of each wall's and the floor's polygon. */
class RoomOutlines extends xb.Script {
  init() {
    this.seen = new WeakSet();
    this.wallMaterial = new THREE.LineBasicMaterial({color: new THREE.Color('#00ffff')});
    this.floorMaterial = new THREE.LineBasicMaterial({color: new THREE.Color('#ff8000')});
  }

  outline(plane) {
    // The boundary of the plane's ShapeGeometry: the polygon's points, in world coordinates.
    const position = plane.geometry.getAttribute('position');
    const index = plane.geometry.getIndex();
    const edges = new Map();
    const tri = index ? index.array : [...Array(position.count).keys()];
    for (let i = 0; i < tri.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        const a = tri[i + k], b = tri[i + (k + 1) % 3];
        const key = a < b ? `${a},${b}` : `${b},${a}`;
        edges.set(key, (edges.get(key) || 0) + 1);
      }
    }
    const points = [];
    for (const [key, count] of edges) {
      if (count !== 1) continue;  // shared by two triangles: inside the polygon
      for (const i of key.split(',').map(Number)) {
        points.push(new THREE.Vector3().fromBufferAttribute(position, i).applyMatrix4(plane.matrixWorld));
      }
    }
    const line = new THREE.LineSegments(
      new THREE.BufferGeometry().setFromPoints(points),
      plane.label === 'wall' ? this.wallMaterial : this.floorMaterial);
    line.userData.xrblocksDevtools = {tag: plane.label === 'wall' ? 'wall-outline' : 'floor-outline'};
    return line;
  }

  update() {
    for (const plane of xb.world?.planes?.get() ?? []) {
      if (this.seen.has(plane)) continue;
      if (plane.label !== 'wall' && plane.label !== 'floor') continue;
      this.seen.add(plane);
      plane.updateMatrixWorld(true);
      xb.core.scene.add(this.outline(plane));
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new RoomOutlines());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
