import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Depth inspector: asks XR Blocks' depth sensing about the room in every way an app does.
 *
 * - Nine depth probes at fixed points of the view (u and v of 0.2, 0.5 and 0.8; u from the left
 *   edge, v from the bottom edge). For each, every frame:
 *     depth   xb.core.depth.getDepth(u, v): metres along the viewing direction;
 *     point   where that depth puts the surface: on the line of sight through (u, v), in world
 *             coordinates (a small cyan sphere marks it);
 *     vertex  xb.core.depth.getVertex(u, v), taken from the depth camera's frame to the world with
 *             the depth camera's pose (a small magenta sphere marks it);
 *     mesh    where the same line of sight meets XR Blocks' depth mesh (a raycast), in the world.
 * - Three orbs floating in the room. Each asks
 *   xb.core.depth.getProjectedDepthViewPositionFromWorldPosition(orb centre) for the real surface on
 *   the line of sight through it; the orb turns grey while that surface is in front of it (the orb
 *   is hidden by the room) and yellow while it is not. Its state has the surface point in the
 *   world.
 *
 * Everything is recorded in the tagged state of the 'depth-inspector' group (XR Blocks DevTools
 * convention, `userData.xrblocksDevtools`), rounded to the millimetre.
 */
const GRID = [0.2, 0.5, 0.8];
const ORBS = [
  {name: 'orb-left', position: [-1.2, 1.0, -2.6]},
  {name: 'orb-centre', position: [0.3, 0.55, -2.2]},
  {name: 'orb-right', position: [1.4, 1.6, -1.8]},
];
const VISIBLE_COLOR = 0xffd600;
const HIDDEN_COLOR = 0x616161;

const round = (x) => Math.round(x * 1000) / 1000;
const vec = (v) => (v ? [round(v.x), round(v.y), round(v.z)] : null);

class DepthInspector extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.state = {available: false, updates: 0, probes: [], orbs: []};
    this.userData.xrblocksDevtools = {tag: 'depth-inspector', state: this.state};
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
        this.probes.push({u, v, pointDot: dot(0x00e5ff), vertexDot: dot(0xff00ff)});
      }
    }
    this.orbs = ORBS.map(({name, position}) => {
      const mesh = new THREE.Mesh(
        new THREE.SphereGeometry(0.06, 24, 16),
        new THREE.MeshBasicMaterial({color: VISIBLE_COLOR}));
      mesh.position.fromArray(position);
      mesh.userData.xrblocksDevtools = {tag: name, state: {hidden: false}};
      this.add(mesh);
      return {name, mesh};
    });
  }

  update() {
    const depth = xb.core.depth;
    const available = !!(depth && depth.enabled && depth.depthArray[0]);
    this.state.available = available;
    if (!available) {
      this.state.probes = [];
      this.state.orbs = [];
      return;
    }
    this.state.updates++;
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    const eye = camera.getWorldPosition(new THREE.Vector3());
    const depthPose = new THREE.Matrix4().compose(
      depth.depthCameraPositions[0], depth.depthCameraRotations[0], new THREE.Vector3(1, 1, 1));
    const depthPoseInverse = depthPose.clone().invert();

    this.state.probes = this.probes.map(({u, v, pointDot, vertexDot}) => {
      const d = depth.getDepth(u, v);
      // The line of sight through (u, v), in the camera's frame, scaled to that depth.
      const inCamera = new THREE.Vector3(2 * u - 1, 2 * v - 1, 0.5)
        .applyMatrix4(camera.projectionMatrixInverse);
      const point = d > 0 ? inCamera.multiplyScalar(d / -inCamera.z).applyMatrix4(camera.matrixWorld) : null;
      const vertex = depth.getVertex(u, v);
      const vertexWorld = vertex ? vertex.clone().applyMatrix4(depthPose) : null;
      this.raycaster.setFromCamera(new THREE.Vector2(2 * u - 1, 2 * v - 1), camera);
      const hits = depth.depthMesh ? this.raycaster.intersectObject(depth.depthMesh, false) : [];
      const mesh = hits.length ? hits[0].point : null;
      this.place(pointDot, point);
      this.place(vertexDot, vertexWorld);
      return {u, v, depth: round(d), point: vec(point), vertex: vec(vertex), vertexWorld: vec(vertexWorld), mesh: vec(mesh)};
    });

    this.state.orbs = this.orbs.map(({name, mesh}) => {
      const centre = mesh.getWorldPosition(new THREE.Vector3());
      const surface = depth.getProjectedDepthViewPositionFromWorldPosition(centre, new THREE.Vector3());
      const orbInDepthView = centre.clone().applyMatrix4(depthPoseInverse);
      const valid = Number.isFinite(surface.z) && surface.z < 0;
      const hidden = valid && -surface.z < -orbInDepthView.z;
      mesh.material.color.setHex(hidden ? HIDDEN_COLOR : VISIBLE_COLOR);
      mesh.userData.xrblocksDevtools.state.hidden = hidden;
      const surfaceWorld = valid ? surface.clone().applyMatrix4(depthPose) : null;
      return {name, hidden, surface: vec(surfaceWorld), orbDistance: round(centre.distanceTo(eye))};
    });
  }

  place(dot, position) {
    dot.visible = !!position;
    if (position) dot.position.copy(this.worldToLocal(position.clone()));
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new DepthInspector());
  const options = new xb.Options();
  options.enableDepth();
  xb.init(options);
});
