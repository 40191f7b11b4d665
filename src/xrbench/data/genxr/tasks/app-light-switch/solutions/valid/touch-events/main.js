import * as THREE from 'three';
import * as xb from 'xrblocks';

const COLORS = {
  plate: {off: '#64748b', on: '#22c55e'},
  bulb: {off: '#334155', on: '#fde68a'},
};

/** The plate: XR Blocks' direct touch reports an index fingertip entering it. */
class Plate extends xb.MeshScript {
  constructor(onTouch) {
    super(
      new THREE.BoxGeometry(0.08, 0.12, 0.02),
      new THREE.MeshPhongMaterial({color: COLORS.plate.off})
    );
    this.onTouch = onTouch;
  }

  onObjectTouchStart() {
    this.onTouch();
  }
}

/** The switch plate and the lamp. */
class SwitchAndLamp extends xb.Script {
  init() {
    this.add(new THREE.AmbientLight(0xffffff, 0.5));
    this.group = new THREE.Group();
    this.group.visible = false;
    this.add(this.group);

    this.plate = new Plate(() => this.toggle());
    this.plate.userData.xrblocksDevtools = {tag: 'light-switch'};
    this.group.add(this.plate);

    this.bulb = new THREE.Mesh(
      new THREE.IcosahedronGeometry(0.06, 3),
      new THREE.MeshBasicMaterial({color: COLORS.bulb.off})
    );
    this.bulb.userData.xrblocksDevtools = {tag: 'lamp-bulb'};
    this.group.add(this.bulb);

    this.lamp = new THREE.PointLight('#fff2cc', 2, 8);
    this.lamp.visible = false;
    this.lamp.userData.xrblocksDevtools = {tag: 'lamp-light'};
    this.bulb.add(this.lamp);

    this.on = false;
    this.done = false;
  }

  update() {
    if (this.done) return;
    const walls = (xb.world?.planes?.get?.() ?? []).filter((p) => p.label === 'wall');
    if (walls.length === 0) return;
    const head = new THREE.Vector3();
    xb.core.camera.getWorldPosition(head);
    let nearest = null;
    for (const wall of walls) {
      wall.updateWorldMatrix(true, false);
      const normal = new THREE.Vector3(0, 1, 0).transformDirection(wall.matrixWorld);
      const plane = new THREE.Plane().setFromNormalAndCoplanarPoint(
        normal,
        new THREE.Vector3().setFromMatrixPosition(wall.matrixWorld)
      );
      const d = Math.abs(plane.distanceToPoint(head));
      if (!nearest || d < nearest.d) nearest = {wall, plane, d};
    }
    const {wall, plane} = nearest;
    const onWall = plane.projectPoint(head, new THREE.Vector3());
    const corners = wall.simulatorPlane?.polygon ?? wall.xrPlane?.polygon ?? [];
    const foot = corners.length
      ? Math.min(
          ...corners.map((c) =>
            new THREE.Vector3(c.x, 0, c.y ?? c.z).applyMatrix4(wall.matrixWorld).y
          )
        )
      : 0;
    // The group sits on the wall at the switch's height, its +Z pointing into the room.
    this.group.position.set(onWall.x, foot + 1.1, onWall.z);
    this.group.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), plane.normal);
    this.plate.position.set(0, 0, 0.01);
    this.bulb.position.set(0, 0.6, 0.15);
    this.group.visible = true;
    this.done = true;
  }

  toggle() {
    this.on = !this.on;
    const state = this.on ? 'on' : 'off';
    this.plate.material.color.set(COLORS.plate[state]);
    this.bulb.material.color.set(COLORS.bulb[state]);
    this.lamp.visible = this.on;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new SwitchAndLamp());
  xb.init(options);
});
