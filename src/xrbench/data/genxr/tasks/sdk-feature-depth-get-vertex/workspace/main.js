import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Depth vertices: pins a marker on the room at a grid of points of the view, with
 * xb.core.depth.getVertex.
 *
 * Every frame, for each (u, v) of a 5 x 5 grid (u and v of 0, 0.25, 0.5, 0.75 and 1; u from the
 * left edge of the view, v from the bottom edge), the app asks xb.core.depth.getVertex(u, v) for
 * the point of the real surface seen there, in the depth camera's frame, takes it to the world
 * with the depth camera's pose (depthCameraPositions[0], depthCameraRotations[0]) and puts a small
 * cyan marker there. A marker is hidden while getVertex gives nothing (no depth yet).
 *
 * Each marker is tagged 'vertex-marker' (XR Blocks DevTools convention, `userData.xrblocksDevtools`)
 * with its `u` and `v` in its state; the group tagged 'depth-vertices' records whether depth has
 * arrived (`available`).
 */
const GRID = [0, 0.25, 0.5, 0.75, 1];

class DepthVertices extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.state = {available: false};
    this.userData.xrblocksDevtools = {tag: 'depth-vertices', state: this.state};
    const geometry = new THREE.SphereGeometry(0.015, 12, 8);
    const material = new THREE.MeshBasicMaterial({color: 0x00e5ff});
    this.markers = [];
    for (const v of [...GRID].reverse()) {
      for (const u of GRID) {
        const marker = new THREE.Mesh(geometry, material);
        marker.name = `vertex-${u}-${v}`;
        marker.visible = false;
        marker.userData.xrblocksDevtools = {tag: 'vertex-marker', state: {u, v}};
        this.add(marker);
        this.markers.push({u, v, marker});
      }
    }
  }

  update() {
    const depth = xb.core.depth;
    this.state.available = !!(depth && depth.enabled && depth.depthArray[0]);
    if (!depth || !depth.enabled) return;
    const pose = depth.depthCameraPositions[0] && depth.depthCameraRotations[0]
      ? new THREE.Matrix4().compose(
          depth.depthCameraPositions[0], depth.depthCameraRotations[0], new THREE.Vector3(1, 1, 1))
      : null;
    this.updateMatrixWorld(true);
    for (const {u, v, marker} of this.markers) {
      const vertex = depth.getVertex(u, v);
      marker.visible = !!(vertex && pose);
      if (marker.visible) {
        marker.position.copy(this.worldToLocal(vertex.clone().applyMatrix4(pose)));
      }
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new DepthVertices());
  const options = new xb.Options();
  options.enableDepth();
  xb.init(options);
});
