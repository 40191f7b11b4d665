import * as THREE from 'three';
import * as xb from 'xrblocks';

// Assumes the floor is the plane y = 0 everywhere: no plane detection needed.
const CELL = 0.25;
const cellCentre = (v) => (Math.floor(v / CELL) + 0.5) * CELL;

class SnapGrid extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const grid = new THREE.GridHelper(20, 80, 0x88ccff, 0x88ccff);
    grid.position.y = 0.002;
    grid.userData.xrblocksDevtools = {tag: 'floor-grid'};
    this.add(grid);
    this.crate = new THREE.Mesh(
      new THREE.BoxGeometry(0.2, 0.3, 0.2),
      new THREE.MeshStandardMaterial({color: 0xa0703c})
    );
    this.crate.userData.xrblocksDevtools = {tag: 'crate'};
    this.crate.position.set(cellCentre(-0.6), 0.15, cellCentre(-0.7));
    this.add(this.crate);
    this.holder = -1;
    this.home = new THREE.Vector3();
    this.was = [false, false];
    this.raycaster = new THREE.Raycaster();
  }

  ray(c) {
    c.updateMatrixWorld(true);
    const o = new THREE.Vector3().setFromMatrixPosition(c.matrixWorld);
    const d = new THREE.Vector3(0, 0, -1).transformDirection(c.matrixWorld);
    return new THREE.Ray(o, d);
  }

  floorPoint(c) {
    return this.ray(c).intersectPlane(new THREE.Plane(new THREE.Vector3(0, 1, 0), 0), new THREE.Vector3());
  }

  update() {
    const cs = xb.core.input.controllers;
    for (let i = 0; i < 2; i++) {
      const c = cs[i];
      const sel = c?.userData?.selected === true;
      if (c && sel && !this.was[i] && this.holder < 0) {
        const r = this.ray(c);
        this.raycaster.set(r.origin, r.direction);
        if (this.raycaster.intersectObject(this.crate).length) {
          this.holder = i;
          this.home.copy(this.crate.position);
        }
      }
      if (c && !sel && this.was[i] && this.holder === i) {
        const p = this.floorPoint(c);
        if (p) this.crate.position.set(cellCentre(p.x), 0.15, cellCentre(p.z));
        else this.crate.position.copy(this.home);
        this.holder = -1;
      }
      this.was[i] = sel;
    }
    if (this.holder >= 0) {
      const p = this.floorPoint(cs[this.holder]);
      if (p) this.crate.position.set(p.x, 0.25, p.z);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new SnapGrid());
  xb.init(options);
});
