import * as THREE from 'three';
import * as xb from 'xrblocks';

// Depth sensing app built from two scripts that share one reading of the depth data per frame:
// a status light fixed in the room and a gaze marker placed with a ray from the camera.

const STATUS_GREEN = new THREE.Color('#00c853');
const STATUS_RED = new THREE.Color('#d50000');
const SCREEN_CENTRE = new THREE.Vector2(0, 0);  // normalized device coordinates

/** Reads the depth at the centre of the view, or null when XR Blocks holds no depth image. */
function readCentreDepth() {
  const depth = xb.core.depth;
  const image = depth && depth.depthArray ? depth.depthArray[0] : undefined;
  if (!image) return null;
  const metres = depth.getDepth(0.5, 0.5);
  return metres > 0 && Number.isFinite(metres) ? metres : null;
}

class StatusLight extends xb.Script {
  constructor() {
    super();
    this.report = {depthAvailable: false, centerDepth: null};
  }

  init() {
    const anchor = new THREE.Group();
    anchor.position.set(-0.2, 1.25, -0.6);
    this.bulb = new THREE.Mesh(
      new THREE.SphereGeometry(0.03, 20, 12),
      new THREE.MeshLambertMaterial({color: STATUS_RED.clone()}));
    this.bulb.userData.xrblocksDevtools = {tag: 'depth-status', state: this.report};
    anchor.add(this.bulb);
    this.add(anchor);
  }

  update() {
    const metres = readCentreDepth();
    this.report.depthAvailable = metres !== null;
    this.report.centerDepth = metres;
    this.bulb.material.color.copy(metres === null ? STATUS_RED : STATUS_GREEN);
  }
}

class GazeMarker extends xb.Script {
  init() {
    this.raycaster = new THREE.Raycaster();
    this.dot = new THREE.Mesh(
      new THREE.IcosahedronGeometry(0.025, 3),
      new THREE.MeshBasicMaterial({color: 0xff6d00}));
    this.dot.visible = false;
    this.dot.userData.xrblocksDevtools = {tag: 'depth-hit', state: {}};
    xb.core.scene.add(this.dot);  // directly in the world, not under this script
  }

  update() {
    const metres = readCentreDepth();
    if (metres === null) {
      this.dot.visible = false;
      return;
    }
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    // The ray through the centre of the view; at the centre the depth along the viewing
    // direction is also the distance along the ray.
    this.raycaster.setFromCamera(SCREEN_CENTRE, camera);
    this.raycaster.ray.at(metres, this.dot.position);
    this.dot.visible = true;
  }
}

function start() {
  const options = new xb.Options();
  options.enableDepth();
  options.depth.occlusion.enabled = true;
  xb.add(new StatusLight());
  xb.add(new GazeMarker());
  xb.init(options);
}

document.addEventListener('DOMContentLoaded', start);
