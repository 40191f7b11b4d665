import * as THREE from 'three';
import * as xb from 'xrblocks';

const PLATE = new THREE.Vector3(0.08, 0.12, 0.02); // width, height, depth
const SWITCH_HEIGHT = 1.1; // metres above the foot of the wall
const OFF = 0x64748b;
const ON = 0x22c55e;
const BULB_OFF = 0x334155;
const BULB_ON = 0xfde68a;

class LightSwitch extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x444444, 0.8));
    this.plate = new THREE.Mesh(
      new THREE.BoxGeometry(PLATE.x, PLATE.y, PLATE.z),
      new THREE.MeshStandardMaterial({color: OFF})
    );
    this.plate.userData.xrblocksDevtools = {tag: 'light-switch'};
    this.plate.visible = false;
    this.add(this.plate);
    this.bulb = new THREE.Mesh(
      new THREE.SphereGeometry(0.06, 24, 16),
      new THREE.MeshBasicMaterial({color: BULB_OFF})
    );
    this.bulb.userData.xrblocksDevtools = {tag: 'lamp-bulb'};
    this.bulb.visible = false;
    this.add(this.bulb);
    this.light = new THREE.PointLight(0xffe9b0, 0, 6);
    this.light.userData.xrblocksDevtools = {tag: 'lamp-light'};
    this.add(this.light);
    this.placed = false;
    this.on = false;
    this.inside = [false, false];
  }

  place(walls) {
    const head = xb.core.camera.getWorldPosition(new THREE.Vector3());
    let best = null;
    for (const wall of walls) {
      wall.updateWorldMatrix(true, false);
      const n = new THREE.Vector3(0, 1, 0).transformDirection(wall.matrixWorld);
      const origin = new THREE.Vector3().setFromMatrixPosition(wall.matrixWorld);
      const distance = n.dot(head.clone().sub(origin));
      if (!best || Math.abs(distance) < Math.abs(best.distance)) best = {wall, n, origin, distance};
    }
    const {wall, n, distance} = best;
    const polygon = wall.simulatorPlane?.polygon ?? [];
    let foot = Infinity;
    for (const p of polygon) foot = Math.min(foot, new THREE.Vector3(p.x, 0, p.y).applyMatrix4(wall.matrixWorld).y);
    if (!Number.isFinite(foot)) foot = 0;
    const centre = head.clone().addScaledVector(n, -distance).addScaledVector(n, PLATE.z / 2);
    centre.y = foot + SWITCH_HEIGHT;
    this.plate.position.copy(centre);
    this.plate.lookAt(centre.clone().add(n));
    this.plate.visible = true;
    const lamp = centre.clone().addScaledVector(n, 0.2);
    lamp.y += 0.6;
    this.bulb.position.copy(lamp);
    this.light.position.copy(lamp);
    this.bulb.visible = true;
    this.placed = true;
  }

  toggle() {
    this.on = !this.on;
    this.plate.material.color.setHex(this.on ? ON : OFF);
    this.bulb.material.color.setHex(this.on ? BULB_ON : BULB_OFF);
    this.light.intensity = this.on ? 3 : 0;
  }

  update() {
    if (!this.placed) {
      // No wall needed: the switch stands 0.6 m in front of the user, at 1.1 m.
      this.plate.position.set(0, 1.1, -0.6);
      this.plate.visible = true;
      this.bulb.position.set(0, 1.7, -0.6);
      this.light.position.copy(this.bulb.position);
      this.bulb.visible = true;
      this.placed = true;
      return;
    }
    this.plate.updateMatrixWorld(true);
    const hands = xb.core.input.hands ?? [];
    for (let i = 0; i < 2; i++) {
      const tip = hands[i]?.joints?.['index-finger-tip'];
      let inside = false;
      if (tip) {
        const p = this.plate.worldToLocal(tip.getWorldPosition(new THREE.Vector3()));
        inside =
          Math.abs(p.x) <= PLATE.x / 2 && Math.abs(p.y) <= PLATE.y / 2 && Math.abs(p.z) <= PLATE.z / 2;
      }
      if (inside && !this.inside[i]) this.toggle();
      this.inside[i] = inside;
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new LightSwitch());
  xb.init(options);
});
