import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Marks the bottom ends of each detected wall (its bounding box, merging ends that coincide): in a room
 * whose wall outlines end at the corners that looks like the corners, but a single wall gets two
 * spheres, the floor plays no part, and the height is the walls' bottom edge.
 */
class WallEnds extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.geometry = new THREE.SphereGeometry(0.05, 24, 16);
    this.material = new THREE.MeshStandardMaterial({color: 0xff7043});
    this.seen = new Set();
    this.points = [];
  }

  update() {
    const walls = (xb.world?.planes?.get() ?? []).filter((p) => p.label === 'wall');
    for (const wall of walls) {
      if (this.seen.has(wall)) continue;
      this.seen.add(wall);
      wall.updateMatrixWorld(true);
      const box = new THREE.Box3().setFromObject(wall);
      if (box.isEmpty()) { this.seen.delete(wall); continue; }
      // An axis-aligned wall's two bottom ends: the box's opposite corners at its lowest height.
      for (const world of [
        new THREE.Vector3(box.min.x, box.min.y, box.min.z),
        new THREE.Vector3(box.max.x, box.min.y, box.max.z),
      ]) {
        if (this.points.some((p) => p.distanceTo(world) < 0.05)) continue;
        this.points.push(world);
        const sphere = new THREE.Mesh(this.geometry, this.material);
        sphere.position.copy(world);
        sphere.userData.xrblocksDevtools = {tag: 'room-corner'};
        this.add(sphere);
      }
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new WallEnds());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
