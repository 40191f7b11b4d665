import * as THREE from 'three';
import * as xb from 'xrblocks';

/** A potted plant made of primitives: a terracotta pot, soil and a few leaves. */
function makePlant() {
  const plant = new THREE.Group();
  const pot = new THREE.Mesh(
    new THREE.CylinderGeometry(0.07, 0.05, 0.1, 24),
    new THREE.MeshPhongMaterial({color: 0xc1683c}));
  pot.position.y = 0.05;
  const soil = new THREE.Mesh(
    new THREE.CylinderGeometry(0.065, 0.065, 0.01, 24),
    new THREE.MeshPhongMaterial({color: 0x4e342e}));
  soil.position.y = 0.1;
  plant.add(pot, soil);
  const leafMaterial = new THREE.MeshPhongMaterial({color: 0x43a047});
  for (let i = 0; i < 6; i++) {
    const leaf = new THREE.Mesh(new THREE.SphereGeometry(0.04, 12, 8), leafMaterial);
    leaf.scale.set(0.5, 1.6, 0.25);
    const angle = (i / 6) * Math.PI * 2;
    leaf.position.set(Math.cos(angle) * 0.03, 0.16, Math.sin(angle) * 0.03);
    leaf.rotation.set(Math.sin(angle) * 0.5, 0, -Math.cos(angle) * 0.5);
    plant.add(leaf);
  }
  return plant;
}

/** Puts the plant on a table (or the floor) found by plane detection. */
class PlantOnTable extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.plant = makePlant();
    this.plant.position.set(0, xb.user.height - 0.5, -xb.user.objectDistance);
    this.add(this.plant);
    this.place();
  }

  async place() {
    const placed = await xb.world.placeOnHorizontalSurface(this.plant, {seconds: 3}).catch(() => false);
    if (!placed) console.info('No surface found yet: the plant stays in front of you.');
  }
}

const options = new xb.Options();
options.enablePlaneDetection();

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PlantOnTable());
  xb.init(options);
});
