import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Depth normals: lays a small disc flat on the room at a grid of points of the view, with
 * xb.core.depth.getVertex (where) and xb.core.depth.getNormal (which way the surface faces).
 *
 * Every frame, for each (u, v) of a 3 x 3 grid (u and v of 0.2, 0.5 and 0.8; u from the left edge
 * of the view, v from the bottom edge), the app asks for the point and the normal of the real
 * surface seen there, both in the depth camera's frame, takes them to the world with the depth
 * camera's pose (depthCameraPositions[0], depthCameraRotations[0]) and puts an orange disc there,
 * its face turned along the normal. A disc is hidden while either answer is null.
 *
 * Each disc is tagged 'normal-marker' (XR Blocks DevTools convention, `userData.xrblocksDevtools`)
 * with its `u` and `v` in its state; the group tagged 'depth-normals' records whether depth has
 * arrived (`available`).
 */
const GRID = [0.2, 0.5, 0.8];
const UP = new THREE.Vector3(0, 0, 1);

class DepthNormals extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.state = {available: false};
    this.userData.xrblocksDevtools = {tag: 'depth-normals', state: this.state};
    // A disc in the xy plane: its face looks along +z, turned onto the normal below.
    const geometry = new THREE.CircleGeometry(0.04, 24);
    const material = new THREE.MeshBasicMaterial({color: 0xff8a00, side: THREE.DoubleSide});
    this.markers = [];
    for (const v of [...GRID].reverse()) {
      for (const u of GRID) {
        const marker = new THREE.Mesh(geometry, material);
        marker.name = `normal-${u}-${v}`;
        marker.visible = false;
        marker.userData.xrblocksDevtools = {tag: 'normal-marker', state: {u, v}};
        this.add(marker);
        this.markers.push({u, v, marker});
      }
    }
  }

  update() {
    const depth = xb.core.depth;
    this.state.available = !!(depth && depth.enabled && depth.depthArray[0]);
    if (!depth || !depth.enabled) return;
    const position = depth.depthCameraPositions[0];
    const rotation = depth.depthCameraRotations[0];
    this.updateMatrixWorld(true);
    const parentRotation = this.getWorldQuaternion(new THREE.Quaternion()).invert();
    for (const {u, v, marker} of this.markers) {
      const vertex = depth.getVertex(u, v);
      const normal = depth.getNormal(u, v);
      marker.visible = !!(vertex && normal && position && rotation);
      if (!marker.visible) continue;
      const world = vertex.clone().applyQuaternion(rotation).add(position);
      // Lifted 5 mm off the surface so that it is not hidden in it.
      const worldNormal = normal.clone().applyQuaternion(rotation);
      world.addScaledVector(worldNormal, 0.005);
      marker.position.copy(this.worldToLocal(world));
      marker.quaternion.setFromUnitVectors(UP, worldNormal).premultiply(parentRotation);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new DepthNormals());
  const options = new xb.Options();
  options.enableDepth();
  xb.init(options);
});
