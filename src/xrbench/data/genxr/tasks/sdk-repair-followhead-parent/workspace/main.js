import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Gallery: exhibits live in groups anchored to spots of the room (moved, turned, scaled, nested),
 * and small panels follow the user's head with `xb.FollowHead`:
 *   - `hud-clock`, a panel added directly to the app (its parent sits at the origin);
 *   - `stage-hud`, the stage's own info panel, which stays part of the stage group;
 *   - `shelf-label`, the label of a half-size shelf that is itself part of the stage;
 *   - `turntable-hud`, the info panel of a turntable that turns a quarter turn every 4 seconds.
 *
 * Objects carry XR Blocks DevTools tags (`userData.xrblocksDevtools`) with their state.
 */
export const CLOCK_OFFSET = new THREE.Vector3(0.25, -0.2, -0.6);
export const STAGE_HUD_OFFSET = new THREE.Vector3(-0.2, -0.15, -0.6);
export const SHELF_LABEL_OFFSET = new THREE.Vector3(0.2, 0.12, -0.7);
export const TURNTABLE_HUD_OFFSET = new THREE.Vector3(-0.2, 0.12, -0.7);
const TURN_PERIOD = 4;  // seconds between the starts of two quarter turns
const TURN_TIME = 1;  // seconds a quarter turn takes

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

function headPanel(color, name, offset, width, height) {
  const mesh = panel(color, width, height);
  mesh.name = name;
  tag(mesh, name, {offset: offset.toArray()});
  mesh.add(new xb.FollowHead({offset, smoothing: 0.2}));
  return mesh;
}

class Gallery extends xb.Script {
  init() {
    this.name = 'gallery';
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // A head-locked clock, straight in the app.
    this.clock = headPanel(0x224466, 'hud-clock', CLOCK_OFFSET);
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
    this.stageHud = headPanel(0x664422, 'stage-hud', STAGE_HUD_OFFSET, 0.24, 0.14);
    this.stage.add(this.stageHud);

    // A shelf on the stage, at half size, turned and tilted within the stage.
    this.shelf = new THREE.Group();
    this.shelf.name = 'shelf';
    this.shelf.position.set(-0.6, 1.1, -0.5);  // in the stage's frame
    this.shelf.rotation.set(0, THREE.MathUtils.degToRad(-60), THREE.MathUtils.degToRad(10));
    this.shelf.scale.setScalar(0.5);
    tag(this.shelf, 'shelf');
    this.stage.add(this.shelf);

    this.vase = new THREE.Mesh(
      new THREE.CylinderGeometry(0.1, 0.14, 0.4, 24),
      new THREE.MeshStandardMaterial({color: 0x3366aa}));
    this.vase.position.set(0.3, 0.2, 0);  // in the shelf's frame
    this.vase.name = 'shelf-vase';
    tag(this.vase, 'shelf-vase');
    this.shelf.add(this.vase);

    // The shelf's label: part of the shelf, following the head.
    this.shelfLabel = headPanel(0x226644, 'shelf-label', SHELF_LABEL_OFFSET, 0.16, 0.08);
    this.shelf.add(this.shelfLabel);

    // A turntable 1 m to the left and 1.4 m ahead: a quarter turn (in 1 s) every 4 s.
    this.turntable = new THREE.Group();
    this.turntable.name = 'turntable';
    this.turntable.position.set(-1.0, 0, -1.4);
    tag(this.turntable, 'turntable');
    this.add(this.turntable);

    this.figure = new THREE.Mesh(
      new THREE.BoxGeometry(0.2, 0.5, 0.2),
      new THREE.MeshStandardMaterial({color: 0xaa3366}));
    this.figure.position.set(0.4, 0.25, 0);  // in the turntable's frame
    this.figure.name = 'turntable-figure';
    tag(this.figure, 'turntable-figure');
    this.turntable.add(this.figure);

    // The turntable's info panel: part of the turntable, following the head.
    this.turntableHud = headPanel(0x444466, 'turntable-hud', TURNTABLE_HUD_OFFSET, 0.2, 0.1);
    this.turntable.add(this.turntableHud);

    this.elapsed = 0;
  }

  update() {
    this.elapsed += xb.getDeltaTime();
    // Rest, then turn: the turn of each period takes its last TURN_TIME seconds.
    const period = Math.floor(this.elapsed / TURN_PERIOD);
    const into = this.elapsed - period * TURN_PERIOD - (TURN_PERIOD - TURN_TIME);
    const within = THREE.MathUtils.clamp(into / TURN_TIME, 0, 1);
    this.turntable.rotation.y = (period + within) * Math.PI / 2;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Gallery());
  xb.init(new xb.Options());
});
