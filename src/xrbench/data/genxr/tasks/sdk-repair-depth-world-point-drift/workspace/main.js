import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Occlusion checker: asks XR Blocks' depth sensing which real surface lies behind (or in front of)
 * a few virtual orbs, the way an app decides whether the room hides them.
 *
 * For each orb, every frame:
 *   surface  xb.core.depth.getProjectedDepthViewPositionFromWorldPosition(orb centre): the point,
 *            in the depth camera's frame, where the line of sight from the eyes through the orb
 *            meets the room; taken to the world with the depth camera's pose
 *            (depthCameraPositions[0], depthCameraRotations[0]) and marked with a small cyan dot;
 *   hidden   that surface is nearer than the orb (compared along the depth camera's -z): the orb
 *            turns grey, otherwise yellow.
 * A thin line joins each orb to its dot: it should point straight at your eyes.
 *
 * Everything is recorded in the tagged state of the 'occlusion-checker' group (XR Blocks DevTools
 * convention, `userData.xrblocksDevtools`), rounded to the millimetre.
 */
const ORBS = [
  {name: 'orb-ahead', position: [0.0, 1.5, -2.0]},
  {name: 'orb-table', position: [0.0, 0.85, -1.3]},
  {name: 'orb-left', position: [-1.2, 1.0, -2.6]},
  {name: 'orb-right', position: [1.4, 1.6, -1.8]},
  {name: 'orb-low', position: [0.3, 0.55, -2.2]},
];
const VISIBLE_COLOR = 0xffd600;
const HIDDEN_COLOR = 0x616161;

const round = (x) => Math.round(x * 1000) / 1000;
const vec = (v) => (v ? [round(v.x), round(v.y), round(v.z)] : null);

class OcclusionChecker extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.state = {available: false, orbs: []};
    this.userData.xrblocksDevtools = {tag: 'occlusion-checker', state: this.state};
    this.orbs = ORBS.map(({name, position}) => {
      const mesh = new THREE.Mesh(
        new THREE.SphereGeometry(0.06, 24, 16),
        new THREE.MeshBasicMaterial({color: VISIBLE_COLOR}));
      mesh.position.fromArray(position);
      mesh.userData.xrblocksDevtools = {tag: name, state: {hidden: false}};
      this.add(mesh);
      const dot = new THREE.Mesh(
        new THREE.SphereGeometry(0.025, 12, 8),
        new THREE.MeshBasicMaterial({color: 0x00e5ff}));
      dot.visible = false;
      this.add(dot);
      const line = new THREE.Line(
        new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]),
        new THREE.LineBasicMaterial({color: 0x00e5ff}));
      line.visible = false;
      this.add(line);
      return {name, mesh, dot, line};
    });
  }

  update() {
    const depth = xb.core.depth;
    const available = !!(depth && depth.enabled && depth.depthArray[0]);
    this.state.available = available;
    if (!available) {
      this.state.orbs = [];
      return;
    }
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    const eye = camera.getWorldPosition(new THREE.Vector3());
    const depthPose = new THREE.Matrix4().compose(
      depth.depthCameraPositions[0], depth.depthCameraRotations[0], new THREE.Vector3(1, 1, 1));
    const depthPoseInverse = depthPose.clone().invert();

    this.state.orbs = this.orbs.map(({name, mesh, dot, line}) => {
      const centre = mesh.getWorldPosition(new THREE.Vector3());
      const surface = depth.getProjectedDepthViewPositionFromWorldPosition(centre, new THREE.Vector3());
      const orbInDepthView = centre.clone().applyMatrix4(depthPoseInverse);
      const valid = Number.isFinite(surface.z) && surface.z < 0;
      const hidden = valid && -surface.z < -orbInDepthView.z;
      mesh.material.color.setHex(hidden ? HIDDEN_COLOR : VISIBLE_COLOR);
      mesh.userData.xrblocksDevtools.state.hidden = hidden;
      const surfaceWorld = valid ? surface.clone().applyMatrix4(depthPose) : null;
      dot.visible = line.visible = !!surfaceWorld;
      if (surfaceWorld) {
        dot.position.copy(this.worldToLocal(surfaceWorld.clone()));
        line.geometry.setFromPoints([mesh.position, dot.position]);
      }
      return {
        name,
        hidden,
        surface: vec(surfaceWorld),
        surfaceDepth: valid ? round(-surface.z) : null,
        orbDepth: round(-orbInDepthView.z),
        eye: vec(eye),
      };
    });
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new OcclusionChecker());
  const options = new xb.Options();
  options.enableDepth();
  xb.init(options);
});
