import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Gallery stage: the exhibit lives in a "stage" group anchored to a spot of the room (moved and
 * turned), and two small panels follow the user's head with `xb.FollowHead`:
 *   - `hud-clock`, a panel added directly to the app (its parent sits at the origin);
 *   - `stage-hud`, the stage's own info panel, which stays part of the stage group.
 *
 * Objects carry XR Blocks DevTools tags (`userData.xrblocksDevtools`) with their state.
 */
export const CLOCK_OFFSET = new THREE.Vector3(0.25, -0.2, -0.6);
export const STAGE_HUD_OFFSET = new THREE.Vector3(-0.2, -0.15, -0.6);

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function panel(color, width = 0.2, height = 0.12) {
  const mesh = new THREE.Mesh(
    new THREE.BoxGeometry(width, height, 0.01),
    new THREE.MeshStandardMaterial({color}));
  mesh.xb = {pointerEvents: 'none'};  // display only
  return mesh;
}

class Gallery extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // A head-locked clock, straight in the app.
    this.clock = panel(0x224466);
    this.clock.name = 'hud-clock';
    tag(this.clock, 'hud-clock', {offset: CLOCK_OFFSET.toArray()});
    this.clock.add(new xb.FollowHead({offset: CLOCK_OFFSET, smoothing: 0.2}));
    this.add(this.clock);

    // The stage: anchored 1.2 m to the right and 0.8 m ahead, turned 35 degrees.
    this.stage = new THREE.Group();
    this.stage.name = 'stage';
    this.stage.position.set(1.2, 0, -0.8);
    this.stage.rotation.y = THREE.MathUtils.degToRad(35);
    tag(this.stage, 'stage');
    this.add(this.stage);

    this.pedestal = new THREE.Mesh(
      new THREE.CylinderGeometry(0.2, 0.2, 0.9, 24),
      new THREE.MeshStandardMaterial({color: 0xdddddd}));
    this.pedestal.position.set(0, 0.45, -1.0);  // in the stage's frame
    this.pedestal.name = 'pedestal';
    tag(this.pedestal, 'pedestal');
    this.stage.add(this.pedestal);

    // The stage's info panel: part of the stage, but it keeps following the head.
    this.stageHud = panel(0x664422, 0.24, 0.14);
    this.stageHud.name = 'stage-hud';
    tag(this.stageHud, 'stage-hud', {offset: STAGE_HUD_OFFSET.toArray()});
    this.stageHud.add(new xb.FollowHead({offset: STAGE_HUD_OFFSET, smoothing: 0.2}));
    this.stage.add(this.stageHud);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Gallery());
  xb.init(new xb.Options());
});
