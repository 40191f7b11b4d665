import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A vase on the table: waits for XR Blocks' plane detection to report a
 * table, then places a virtual vase once, upright at the centre of the table
 * nearest to the user's head, and leaves it there.
 */

const VASE_HEIGHT = 0.25; // metres
const VASE_MAX_RADIUS = 0.075; // 0.15 m wide at its widest

/** Builds the vase: a group whose origin is the centre of its base. */
function createVase() {
  const vase = new THREE.Group();
  vase.name = 'vase';

  // Profile (radius, height) of the body, from the closed base to the lip.
  const profile = [
    [0.0, 0.0],
    [0.045, 0.0],
    [0.06, 0.02],
    [0.072, 0.06],
    [VASE_MAX_RADIUS, 0.09],
    [0.068, 0.13],
    [0.05, 0.165],
    [0.032, 0.195],
    [0.028, 0.22],
    [0.034, 0.24],
    [0.04, VASE_HEIGHT],
  ].map(([r, y]) => new THREE.Vector2(r, y));
  const body = new THREE.Mesh(
    new THREE.LatheGeometry(profile, 48),
    new THREE.MeshStandardMaterial({
      color: 0x2f6db5,
      roughness: 0.35,
      metalness: 0.1,
      side: THREE.DoubleSide,
    })
  );
  body.name = 'vase-body';
  vase.add(body);

  // A decorative band around the widest part (inside the body's silhouette).
  const band = new THREE.Mesh(
    new THREE.CylinderGeometry(0.0752, 0.0752, 0.012, 48, 1, true),
    new THREE.MeshStandardMaterial({
      color: 0xf2c14e,
      roughness: 0.4,
      side: THREE.DoubleSide,
    })
  );
  band.name = 'vase-band';
  band.position.y = 0.09;
  vase.add(band);

  vase.userData.xrblocksDevtools = {tag: 'vase', state: {placed: false}};
  vase.visible = false; // not shown until a table has been found
  return vase;
}

class TableVaseScene extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const sun = new THREE.DirectionalLight(0xffffff, 1.5);
    sun.position.set(1, 3, 2);
    this.add(sun);

    this.vase = createVase();
    this.add(this.vase);
    this.placed = false;
    this._head = new THREE.Vector3();
    this._centre = new THREE.Vector3();
  }

  /** Looks for tables every frame until the vase has been placed. */
  update() {
    if (this.placed) return;
    const planes = xb.world?.planes;
    if (!planes) return;

    const tables = planes
      .get()
      .filter((plane) => (plane.label || '').toLowerCase() === 'table');
    if (tables.length === 0) return;

    xb.core.camera.updateWorldMatrix(true, false);
    xb.core.camera.getWorldPosition(this._head);

    let nearest = null;
    let nearestDistance = Infinity;
    const centre = new THREE.Vector3();
    for (const table of tables) {
      table.updateWorldMatrix(true, false);
      table.getWorldPosition(centre);
      const distance = centre.distanceTo(this._head);
      if (distance < nearestDistance) {
        nearestDistance = distance;
        nearest = table;
        this._centre.copy(centre);
      }
    }
    if (nearest) this.placeVase(this._centre);
  }

  /** Stands the vase upright with its base on the table top at `centre`. */
  placeVase(centre) {
    // The vase is a child of this script; convert the world point to local.
    this.updateWorldMatrix(true, false);
    const local = this.worldToLocal(centre.clone());
    this.vase.position.copy(local);
    this.vase.quaternion.identity();
    this.vase.visible = true;
    this.vase.updateMatrixWorld(true);
    this.placed = true;
    this.vase.userData.xrblocksDevtools.state.placed = true;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.add(new TableVaseScene());
  xb.init(options);
});
