import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Depth mesh viewer: shows what XR Blocks' depth mesh makes of the room.
 *
 * - Gaze dots: every frame, the lines of sight through a 5 x 5 grid of points of the view (u and
 *   v of 0.1, 0.3, 0.5, 0.7 and 0.9; u from the left edge, v from the bottom edge) are raycast
 *   against the depth mesh (`xb.core.depth.depthMesh`). A small cyan dot sits where each one hits
 *   it, and is hidden while it hits nothing. Once the depth mesh works, the dots lie on the room.
 * - Snapshots: each select (a pinch with either hand, a click) asks XR Blocks to rebuild the
 *   full-resolution depth mesh from the latest depth image
 *   (`xb.core.depth.updateFullResolutionDepthMesh()`) and shows it as a cloud of small orange
 *   points, frozen where the room was at that moment, until the next select.
 *
 * Everything is recorded in the tagged state of the 'depth-mesh-viewer' group (XR Blocks
 * DevTools convention, `userData.xrblocksDevtools`), rounded to the millimetre: `available`
 * (a depth image has arrived), `hits` (per grid point: u, v and the hit in the world, or null),
 * `snapshots` (how many selects asked for the full-resolution mesh).
 */
const GRID = [0.1, 0.3, 0.5, 0.7, 0.9];

const round = (x) => Math.round(x * 1000) / 1000;
const vec = (v) => (v ? [round(v.x), round(v.y), round(v.z)] : null);

class DepthMeshViewer extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.state = {available: false, hits: [], snapshots: 0};
    this.userData.xrblocksDevtools = {tag: 'depth-mesh-viewer', state: this.state};
    this.raycaster = new THREE.Raycaster();

    this.dots = [];
    for (const v of [...GRID].reverse()) {
      for (const u of GRID) {
        const dot = new THREE.Mesh(
          new THREE.SphereGeometry(0.015, 10, 6),
          new THREE.MeshBasicMaterial({color: 0x00e5ff}));
        dot.visible = false;
        this.add(dot);
        this.dots.push({u, v, dot});
      }
    }

    this.snapshot = new THREE.Points(
      new THREE.BufferGeometry(),
      new THREE.PointsMaterial({color: 0xff9100, size: 0.01}));
    this.snapshot.visible = false;
    this.snapshot.userData.xrblocksDevtools = {tag: 'depth-snapshot', state: {points: 0}};
    this.add(this.snapshot);
  }

  onSelectStart() {
    const depth = xb.core.depth;
    if (!depth || !depth.depthMesh) return;
    depth.updateFullResolutionDepthMesh();
    this.state.snapshots++;
    // Freeze the full-resolution mesh where it is now, in the world.
    const mesh = depth.depthMesh;
    mesh.updateMatrixWorld(true);
    const positions = mesh.geometry.attributes.position;
    const world = new Float32Array(positions.count * 3);
    const p = new THREE.Vector3();
    for (let i = 0; i < positions.count; i++) {
      p.fromBufferAttribute(positions, i).applyMatrix4(mesh.matrixWorld);
      world.set([p.x, p.y, p.z], 3 * i);
    }
    this.snapshot.geometry.dispose();
    this.snapshot.geometry = new THREE.BufferGeometry();
    this.snapshot.geometry.setAttribute('position', new THREE.BufferAttribute(world, 3));
    this.snapshot.visible = true;
    this.snapshot.userData.xrblocksDevtools.state.points = positions.count;
  }

  update() {
    const depth = xb.core.depth;
    const available = !!(depth && depth.enabled && depth.depthArray[0]);
    this.state.available = available;
    if (!available || !depth.depthMesh) {
      this.state.hits = [];
      for (const {dot} of this.dots) dot.visible = false;
      return;
    }
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    this.state.hits = this.dots.map(({u, v, dot}) => {
      this.raycaster.setFromCamera(new THREE.Vector2(2 * u - 1, 2 * v - 1), camera);
      const hits = this.raycaster.intersectObject(depth.depthMesh, false);
      const hit = hits.length ? hits[0].point : null;
      dot.visible = !!hit;
      if (hit) dot.position.copy(this.worldToLocal(hit.clone()));
      return {u, v, hit: vec(hit)};
    });
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new DepthMeshViewer());
  const options = new xb.Options();
  options.enableDepth();
  xb.init(options);
});
