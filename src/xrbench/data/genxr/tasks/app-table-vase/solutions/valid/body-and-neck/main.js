import * as THREE from 'three';
import * as xb from 'xrblocks';

const TABLE = 'table';

/**
 * A vase from two meshes: a squashed sphere for the body and a flared cylinder for the neck
 * (0.15 m wide, 0.25 m tall). The group's origin is the bottom of the vase.
 */
function makeVase() {
  const vase = new THREE.Group();
  vase.name = 'vase';
  const glaze = new THREE.MeshStandardMaterial({color: 0xc0562f, roughness: 0.45});
  const body = new THREE.Mesh(new THREE.SphereGeometry(0.075, 32, 16), glaze);
  body.scale.y = 0.085 / 0.075;  // 0.17 m tall, 0.15 m wide
  body.position.y = 0.085;
  const neck = new THREE.Mesh(new THREE.CylinderGeometry(0.04, 0.025, 0.09, 24, 1, true), glaze);
  neck.position.y = 0.205;  // from 0.16 to 0.25 m
  vase.add(body, neck);
  // Where the meshes really start: the bottom of the group's box sits on the table.
  vase.updateMatrixWorld(true);
  const box = new THREE.Box3().setFromObject(vase);
  vase.userData.bottom = box.min.y;
  return vase;
}

class VaseOnTable extends xb.Script {
  init() {
    this.add(new THREE.DirectionalLight(0xffffff, 2));
    this.add(new THREE.AmbientLight(0xffffff, 0.6));
    this.vase = makeVase();
    this.vase.visible = false;
    this.vase.userData.xrblocksDevtools = {tag: 'vase', state: {placed: false}};
    this.add(this.vase);
  }

  /** The detected table whose centre is closest to the user's head, or null. */
  nearestTable() {
    const tables = xb.world.planes ? xb.world.planes.get(TABLE) : [];
    const head = new THREE.Vector3();
    xb.core.camera.getWorldPosition(head);
    let nearest = null;
    let nearestDistance = Infinity;
    const centre = new THREE.Vector3();
    for (const table of tables) {
      const d = table.getWorldPosition(centre).distanceToSquared(head);
      if (d < nearestDistance) {
        nearestDistance = d;
        nearest = table;
      }
    }
    return nearest;
  }

  update() {
    const state = this.vase.userData.xrblocksDevtools.state;
    if (state.placed) return;  // placed once, for good
    const table = this.nearestTable();
    if (!table) return;  // no table yet: keep looking next frame
    const top = table.getWorldPosition(new THREE.Vector3());
    this.vase.position.set(top.x, top.y - this.vase.userData.bottom, top.z);
    this.vase.visible = true;
    state.placed = true;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.add(new VaseOnTable());
  xb.init(options);
});
