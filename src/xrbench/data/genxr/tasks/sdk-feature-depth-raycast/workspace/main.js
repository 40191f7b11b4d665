import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Depth raycast: three rays, cast every frame against the real world with
 * xb.core.depth.raycast(ray), each marked by a dot where it meets the room.
 *
 * - 'gaze': from the eyes, straight ahead.
 * - 'left' and 'right': along each hand's pointing ray, starting 25 cm ahead of the hand (past the
 *   fingertips, which the depth camera sees too).
 *
 * A dot is hidden while raycast answers null. Each dot is tagged 'ray-hit' (XR Blocks DevTools
 * convention, `userData.xrblocksDevtools`) with its ray's name in its state; the group tagged
 * 'depth-raycast' records whether depth has arrived (`available`).
 */
const RAYS = ['gaze', 'left', 'right'];
const COLORS = {gaze: 0xffffff, left: 0x35c2ff, right: 0xff5ac8};

class DepthRaycast extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.state = {available: false};
    this.userData.xrblocksDevtools = {tag: 'depth-raycast', state: this.state};
    const geometry = new THREE.SphereGeometry(0.025, 16, 8);
    this.dots = {};
    for (const name of RAYS) {
      const dot = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({color: COLORS[name]}));
      dot.name = `ray-hit-${name}`;
      dot.visible = false;
      dot.userData.xrblocksDevtools = {tag: 'ray-hit', state: {ray: name, hit: null}};
      this.add(dot);
      this.dots[name] = dot;
    }
    this.ray = new THREE.Ray();
  }

  castFrom(name, object, ahead) {
    const dot = this.dots[name];
    const depth = xb.core.depth;
    let hit = null;
    if (object && depth && depth.enabled) {
      object.updateMatrixWorld(true);
      object.getWorldPosition(this.ray.origin);
      this.ray.direction.set(0, 0, -1).transformDirection(object.matrixWorld);
      this.ray.origin.addScaledVector(this.ray.direction, ahead);
      hit = depth.raycast(this.ray);
    }
    dot.visible = !!hit;
    dot.userData.xrblocksDevtools.state.hit = hit ? hit.toArray() : null;
    if (hit) {
      this.updateMatrixWorld(true);
      dot.position.copy(this.worldToLocal(hit.clone()));
    }
  }

  update() {
    const depth = xb.core.depth;
    this.state.available = !!(depth && depth.enabled && depth.depthArray[0]);
    this.castFrom('gaze', xb.core.camera, 0);
    const controllers = xb.core.input.controllers;
    this.castFrom('left', controllers[0], 0.25);
    this.castFrom('right', controllers[1], 0.25);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new DepthRaycast());
  const options = new xb.Options();
  options.enableDepth();
  xb.init(options);
});
