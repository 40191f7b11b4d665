import * as THREE from 'three';
import * as xb from 'xrblocks';

/** A vase of a body and a neck whose origin is the centre of its base. */
function makeVase() {
  const vase = new THREE.Group();
  const material = new THREE.MeshStandardMaterial({color: 0x6a4c93, roughness: 0.4});
  const body = new THREE.Mesh(new THREE.CylinderGeometry(0.06, 0.075, 0.17, 32), material);
  body.position.y = 0.085;
  const neck = new THREE.Mesh(new THREE.CylinderGeometry(0.035, 0.03, 0.08, 32), material);
  neck.position.y = 0.21;
  vase.add(body, neck);
  return vase;
}

/** Stands the vase on "the table": where the table is in the living room. */
class TableVase extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.vase = makeVase();
    this.vase.position.set(0, 0.75, -1.5);
    this.vase.userData.xrblocksDevtools = {tag: 'vase', state: {placed: true}};
    this.add(this.vase);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new TableVase());
  xb.init(new xb.Options());
});
