import * as THREE from 'three';
import * as xb from 'xrblocks';

/** A lathed vase whose origin is the centre of its base (so it stands on `position`). */
function makeVase() {
  const profile = [
    [0.0, 0.0], [0.055, 0.0], [0.07, 0.05], [0.075, 0.11], [0.055, 0.17],
    [0.03, 0.2], [0.028, 0.23], [0.04, 0.25],
  ].map(([r, y]) => new THREE.Vector2(r, y));
  const vase = new THREE.Group();
  const body = new THREE.Mesh(
    new THREE.LatheGeometry(profile, 32),
    new THREE.MeshStandardMaterial({color: 0x2a7fba, roughness: 0.3, side: THREE.DoubleSide}));
  vase.add(body);
  return vase;
}

/** Waits for plane detection to find a table, then stands the vase on the nearest one. */
class TableVase extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.vase = makeVase();
    this.vase.visible = false;  // until a table is found
    this.state = {placed: false};
    this.vase.userData.xrblocksDevtools = {tag: 'vase', state: this.state};
    this.add(this.vase);
    this.head = new THREE.Vector3();
    this.planePosition = new THREE.Vector3();
  }

  update() {
    if (this.state.placed) return;
    // Planes arrive after start-up: look every frame until a table shows up.
    const tables = (xb.world?.planes?.get() ?? []).filter((p) => p.label === 'table');
    if (!tables.length) return;
    xb.core.camera.getWorldPosition(this.head);
    let nearest = null;
    let best = Infinity;
    for (const table of tables) {
      const d = table.getWorldPosition(this.planePosition).distanceTo(this.head);
      if (d < best) {
        best = d;
        nearest = table;
      }
    }
    // The plane's origin is the centre of the table top; the vase's origin is its base.
    nearest.getWorldPosition(this.vase.position);
    this.vase.visible = true;
    this.state.placed = true;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new TableVase());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
