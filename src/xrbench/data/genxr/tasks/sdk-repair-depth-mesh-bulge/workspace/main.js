import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Depth mesh check: compares XR Blocks' depth mesh with the depth image it is built from.
 *
 * A 5 x 5 grid of points of the view (u and v of 0.1, 0.3, 0.5, 0.7 and 0.9; u from the left
 * edge, v from the bottom edge). For each, every frame:
 *   depth      xb.core.depth.getDepth(u, v): the depth of the surface seen there, in metres along
 *              the viewing direction; a small cyan sphere marks that point on the line of sight;
 *   meshDepth  where the same line of sight meets XR Blocks' depth mesh (a raycast, as apps do to
 *              put things on real surfaces), measured the same way; a small orange sphere marks it;
 *   gap        meshDepth - depth, in metres (0 when the mesh lies where the depth image says).
 *
 * Everything is recorded in the tagged state of the 'depth-mesh-check' group (XR Blocks DevTools
 * convention, `userData.xrblocksDevtools`), rounded to the millimetre.
 */
const GRID = [0.1, 0.3, 0.5, 0.7, 0.9];

const round = (x) => Math.round(x * 1000) / 1000;
const vec = (v) => (v ? [round(v.x), round(v.y), round(v.z)] : null);

class DepthMeshCheck extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.state = {available: false, probes: [], worstGap: null};
    this.userData.xrblocksDevtools = {tag: 'depth-mesh-check', state: this.state};
    this.raycaster = new THREE.Raycaster();

    const dot = (color) => {
      const mesh = new THREE.Mesh(
        new THREE.SphereGeometry(0.02, 12, 8),
        new THREE.MeshBasicMaterial({color}));
      mesh.visible = false;
      this.add(mesh);
      return mesh;
    };
    this.probes = [];
    for (const v of [...GRID].reverse()) {
      for (const u of GRID) {
        this.probes.push({u, v, depthDot: dot(0x00e5ff), meshDot: dot(0xff8f00)});
      }
    }
  }

  update() {
    const depth = xb.core.depth;
    const available = !!(depth && depth.enabled && depth.depthArray[0] && depth.depthMesh);
    this.state.available = available;
    if (!available) {
      this.state.probes = [];
      this.state.worstGap = null;
      return;
    }
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    const eye = camera.getWorldPosition(new THREE.Vector3());
    const forward = new THREE.Vector3(0, 0, -1).transformDirection(camera.matrixWorld);
    let worst = 0;

    this.state.probes = this.probes.map(({u, v, depthDot, meshDot}) => {
      const d = depth.getDepth(u, v);
      // The line of sight through (u, v), in the camera's frame, scaled to that depth.
      const inCamera = new THREE.Vector3(2 * u - 1, 2 * v - 1, 0.5)
        .applyMatrix4(camera.projectionMatrixInverse);
      const point = d > 0 ? inCamera.multiplyScalar(d / -inCamera.z).applyMatrix4(camera.matrixWorld) : null;
      this.raycaster.setFromCamera(new THREE.Vector2(2 * u - 1, 2 * v - 1), camera);
      const hits = this.raycaster.intersectObject(depth.depthMesh, false);
      const hit = hits.length ? hits[0].point : null;
      const meshDepth = hit ? hit.clone().sub(eye).dot(forward) : null;
      const gap = hit && d > 0 ? meshDepth - d : null;
      if (gap !== null && Math.abs(gap) > Math.abs(worst)) worst = gap;
      this.place(depthDot, point);
      this.place(meshDot, hit);
      return {u, v, depth: round(d), meshDepth: meshDepth === null ? null : round(meshDepth),
              gap: gap === null ? null : round(gap), point: vec(point), meshPoint: vec(hit)};
    });
    this.state.worstGap = round(worst);
  }

  place(dot, position) {
    dot.visible = !!position;
    if (position) dot.position.copy(this.worldToLocal(position.clone()));
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new DepthMeshCheck());
  const options = new xb.Options();
  options.enableDepth();
  xb.init(options);
});
