import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A light switch on the nearest wall: once walls are detected, a switch plate
 * is put on the wall nearest to the user's head, 1.1 m above the wall's foot,
 * straight across from the head; touching it with an index fingertip toggles
 * a lamp hanging above it.
 */

const PLATE = {w: 0.08, h: 0.12, d: 0.02};
const SWITCH_HEIGHT = 1.1; // above the foot of the wall.
const BULB_RADIUS = 0.06;
const LAMP_ABOVE = 0.6; // bulb centre above the switch's centre.
const LAMP_OUT = 0.12; // bulb centre out from the wall.
const COLORS = {
  bulbOff: 0x334155,
  bulbOn: 0xfde68a,
  plateOff: 0x64748b,
  plateOn: 0x22c55e,
};
const LIGHT_ON_INTENSITY = 3;

const _up = new THREE.Vector3(0, 1, 0);
const _head = new THREE.Vector3();
const _origin = new THREE.Vector3();
const _normal = new THREE.Vector3();
const _point = new THREE.Vector3();
const _tip = new THREE.Vector3();
const _local = new THREE.Vector3();
const _inverse = new THREE.Matrix4();

/** The plane's outline points in world coordinates. */
function worldOutline(plane) {
  plane.updateWorldMatrix(true, false);
  let local = [];
  if (plane.simulatorPlane?.polygon?.length >= 3) {
    local = plane.simulatorPlane.polygon.map((p) => new THREE.Vector3(p.x, 0, p.y));
  } else if (plane.xrPlane?.polygon?.length >= 3) {
    local = Array.from(plane.xrPlane.polygon, (p) => new THREE.Vector3(p.x, 0, p.z));
  } else {
    const position = plane.geometry?.attributes?.position;
    if (position) {
      for (let i = 0; i < position.count; i++) {
        local.push(new THREE.Vector3(position.getX(i), 0, position.getZ(i)));
      }
    }
  }
  return local.map((p) => p.applyMatrix4(plane.matrixWorld));
}

class LightSwitch extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2));

    this.plate = new THREE.Mesh(
      new THREE.BoxGeometry(PLATE.w, PLATE.h, PLATE.d),
      new THREE.MeshStandardMaterial({color: COLORS.plateOff, roughness: 0.5})
    );
    this.plate.name = 'light-switch';
    this.plate.userData.xrblocksDevtools = {tag: 'light-switch'};
    this.plate.visible = false;
    this.add(this.plate);

    this.bulb = new THREE.Mesh(
      new THREE.SphereGeometry(BULB_RADIUS, 32, 16),
      new THREE.MeshStandardMaterial({
        color: COLORS.bulbOff,
        emissive: 0x000000,
        roughness: 0.3,
      })
    );
    this.bulb.name = 'lamp-bulb';
    this.bulb.userData.xrblocksDevtools = {tag: 'lamp-bulb'};
    this.bulb.visible = false;
    this.add(this.bulb);

    this.light = new THREE.PointLight(0xffe8a0, 0, 6, 2);
    this.light.name = 'lamp-light';
    this.light.userData.xrblocksDevtools = {tag: 'lamp-light'};
    this.light.visible = false;
    this.add(this.light);

    this.placed = false;
    this.on = false;
    this.inside = [false, false]; // per hand: fingertip inside the plate last frame
  }

  /** The walls known now: {plane, origin, normal (into the room), footY}. */
  walls(head) {
    const detector = xb.world?.planes;
    if (!detector || typeof detector.get !== 'function') return [];
    const walls = [];
    for (const plane of detector.get('wall') || []) {
      plane.updateWorldMatrix(true, false);
      const normal = _normal.copy(_up).transformDirection(plane.matrixWorld).clone();
      if (Math.abs(normal.y) > 0.7) continue; // not vertical
      normal.y = 0;
      if (normal.lengthSq() < 1e-10) continue;
      normal.normalize();
      const origin = new THREE.Vector3().setFromMatrixPosition(plane.matrixWorld);
      // Face the side the user is on (walls' normals point into the room).
      if (normal.dot(_point.copy(head).sub(origin)) < 0) normal.negate();
      const outline = worldOutline(plane);
      const footY = outline.length
        ? Math.min(...outline.map((p) => p.y))
        : origin.y;
      const distance = Math.abs(normal.dot(_point.copy(head).sub(origin)));
      walls.push({plane, origin, normal, footY, distance});
    }
    return walls;
  }

  tryPlace() {
    const camera = xb.core?.camera;
    if (!camera) return false;
    camera.updateMatrixWorld(true);
    camera.getWorldPosition(_head);
    const walls = this.walls(_head);
    if (!walls.length) return false;
    walls.sort((a, b) => a.distance - b.distance);
    const wall = walls[0];

    // The point of the wall's plane nearest to the head, at 1.1 m above the foot.
    const centre = _head.clone().addScaledVector(
      wall.normal,
      -wall.normal.dot(_point.copy(_head).sub(wall.origin))
    );
    centre.y = wall.footY + SWITCH_HEIGHT;
    // Back face on the wall, front facing into the room.
    centre.addScaledVector(wall.normal, PLATE.d / 2);
    const xAxis = new THREE.Vector3().crossVectors(_up, wall.normal).normalize();
    const basis = new THREE.Matrix4().makeBasis(xAxis, _up, wall.normal);
    this.plate.quaternion.setFromRotationMatrix(basis);
    this.plate.position.copy(centre);
    this.plate.updateMatrixWorld(true);

    // The lamp hangs above the switch, a little out from the wall.
    this.bulb.position
      .copy(centre)
      .addScaledVector(_up, LAMP_ABOVE)
      .addScaledVector(wall.normal, LAMP_OUT - PLATE.d / 2);
    this.light.position.copy(this.bulb.position);

    this.plate.visible = true;
    this.bulb.visible = true;
    this.placed = true;
    this.showState();
    return true;
  }

  showState() {
    this.plate.material.color.setHex(this.on ? COLORS.plateOn : COLORS.plateOff);
    this.bulb.material.color.setHex(this.on ? COLORS.bulbOn : COLORS.bulbOff);
    this.bulb.material.emissive.setHex(this.on ? 0x806a2a : 0x000000);
    this.light.intensity = this.on ? LIGHT_ON_INTENSITY : 0;
    this.light.visible = this.on;
  }

  /** Whether the world point lies in the plate's box. */
  inPlate(point) {
    _inverse.copy(this.plate.matrixWorld).invert();
    _local.copy(point).applyMatrix4(_inverse);
    return (
      Math.abs(_local.x) <= PLATE.w / 2 &&
      Math.abs(_local.y) <= PLATE.h / 2 &&
      Math.abs(_local.z) <= PLATE.d / 2
    );
  }

  update() {
    if (!this.placed && !this.tryPlace()) return;

    const hands = xb.core?.input?.hands || [];
    for (let i = 0; i < 2; i++) {
      const hand = hands[i];
      const joint = hand?.joints?.['index-finger-tip'];
      let inside = false;
      if (joint && hand.visible !== false) {
        joint.updateWorldMatrix(true, false);
        joint.getWorldPosition(_tip);
        inside = this.inPlate(_tip);
      }
      if (inside && !this.inside[i]) {
        this.on = !this.on;
        this.showState();
      }
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
