import * as THREE from 'three';
import * as xb from 'xrblocks';

// Pinch with a hand's ray on the floor (y = 0, within 5 m) to plant a flag there; five at most.
const MAX_FLAGS = 5;
const REACH = 5;

function makeFlag() {
  const flag = new THREE.Group();
  const pole = new THREE.Mesh(new THREE.CylinderGeometry(0.005, 0.005, 0.3, 8), new THREE.MeshStandardMaterial({color: 0xdddddd}));
  pole.position.y = 0.15;
  const pennant = new THREE.Mesh(new THREE.BoxGeometry(0.08, 0.05, 0.004), new THREE.MeshStandardMaterial({color: 0xe53935}));
  pennant.position.set(0.04, 0.27, 0);
  flag.add(pole, pennant);
  flag.userData.xrblocksDevtools = {tag: 'floor-flag', state: {}};
  return flag;
}

class FloorFlags extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.flags = [];
  }

  onSelectStart(event) {
    const controller = event.source.controller;
    controller.updateWorldMatrix(true, false);
    const origin = new THREE.Vector3().setFromMatrixPosition(controller.matrixWorld);
    const dir = new THREE.Vector3(0, 0, -1).transformDirection(controller.matrixWorld);
    if (dir.y >= -1e-6) return;
    const t = -origin.y / dir.y;
    if (t < 0 || t > REACH) return;
    const flag = makeFlag();
    flag.position.copy(origin.addScaledVector(dir, t)).setY(0);
    this.add(flag);
    this.flags.push(flag);
    while (this.flags.length > MAX_FLAGS) this.remove(this.flags.shift());
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new FloorFlags());
  xb.init(options);
});
