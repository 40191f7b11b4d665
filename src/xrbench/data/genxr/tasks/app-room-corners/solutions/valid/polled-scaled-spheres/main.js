import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Room corners: every 15 frames, intersects the detected walls pairwise (as 2D lines on
 * the floor) and drops a unit sphere scaled to 5 cm on each corner not marked yet.
 */
class CornerMarkers extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.5));
    this.group = new THREE.Group();
    this.add(this.group);
    this.clock = 0;
    this.corners = [];  // {x, z} already marked
    this.floorY = null;
  }

  update() {
    if (++this.clock % 15) return;  // a quarter of a second at 60 frames a second
    this.refresh();
  }

  refresh() {
    const planes = xb.world?.planes?.get() ?? [];
    if (this.floorY === null) {
      const floor = planes.find((p) => p.label === 'floor');
      if (!floor) return;
      floor.updateMatrixWorld(true);
      this.floorY = new THREE.Vector3().setFromMatrixPosition(floor.matrixWorld).y;
    }
    const lines = planes.filter((p) => p.label === 'wall').map((w) => {
      w.updateMatrixWorld(true);
      const m = w.matrixWorld.elements;
      const nx = m[4], nz = m[6];  // the plane's local +Y in world space
      const len = Math.hypot(nx, nz);
      return {nx: nx / len, nz: nz / len, d: (nx * m[12] + nz * m[14]) / len};
    });
    for (let i = 0; i < lines.length; i++) {
      for (let j = 0; j < i; j++) {
        const a = lines[i], b = lines[j];
        const det = a.nx * b.nz - a.nz * b.nx;
        if (Math.abs(det) < 0.05) continue;
        const x = (a.d * b.nz - b.d * a.nz) / det;
        const z = (a.nx * b.d - b.nx * a.d) / det;
        if (this.corners.some((c) => Math.hypot(c.x - x, c.z - z) < 0.05)) continue;
        this.corners.push({x, z});
        const ball = new THREE.Mesh(
          new THREE.SphereGeometry(1, 20, 12),
          new THREE.MeshPhongMaterial({color: 0x29b6f6}));
        ball.scale.setScalar(0.05);
        ball.position.set(x, this.floorY, z);
        ball.userData.xrblocksDevtools = {tag: 'room-corner'};
        this.group.add(ball);
      }
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new CornerMarkers());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
