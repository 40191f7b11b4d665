import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Floor flags: point a hand at the floor and pinch to plant a little flag
 * where the hand's ray meets it. At most five flags stand at once.
 */

const MAX_RANGE = 5; // metres along the ray from the hand.
const MAX_FLAGS = 5;

const FLAG_HEIGHT = 0.3; // metres, from the foot to the top.
const POLE_RADIUS = 0.006;
const KNOB_RADIUS = 0.012;
const POLE_HEIGHT = FLAG_HEIGHT - KNOB_RADIUS; // The knob's top is the flag's top.
const PENNANT_LENGTH = 0.1;
const PENNANT_HEIGHT = 0.07;

const PENNANT_COLORS = [0xff4040, 0xffc21a, 0x3dd66b, 0x3b8bff, 0xc65bff];

const _origin = new THREE.Vector3();
const _direction = new THREE.Vector3();
const _toUser = new THREE.Vector3();

class FloorFlags extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // Shared by all flags.
    this.poleGeometry = new THREE.CylinderGeometry(
      POLE_RADIUS,
      POLE_RADIUS,
      POLE_HEIGHT,
      12
    );
    this.poleGeometry.translate(0, POLE_HEIGHT / 2, 0); // Foot at y = 0.
    this.knobGeometry = new THREE.SphereGeometry(KNOB_RADIUS, 12, 8);
    const pennantShape = new THREE.Shape();
    pennantShape.moveTo(0, 0);
    pennantShape.lineTo(PENNANT_LENGTH, PENNANT_HEIGHT / 2);
    pennantShape.lineTo(0, PENNANT_HEIGHT);
    pennantShape.closePath();
    this.pennantGeometry = new THREE.ShapeGeometry(pennantShape);
    this.poleMaterial = new THREE.MeshStandardMaterial({
      color: 0xdddddd,
      roughness: 0.5,
      metalness: 0.3,
    });
    this.pennantMaterials = PENNANT_COLORS.map(
      (color) =>
        new THREE.MeshStandardMaterial({
          color,
          side: THREE.DoubleSide,
          roughness: 0.8,
        })
    );

    this.flags = []; // Oldest first.
    this.planted = 0;
  }

  /** 'left' or 'right' for a select of a hand, else null. */
  handOf(event) {
    const source = event?.source;
    if (source?.handedness === 'left' || source?.handedness === 'right') {
      return source.handedness;
    }
    const controllers = xb.core.input.controllers;
    const controller = source?.controller ?? event?.target;
    if (controller && controller === controllers[0]) return 'left';
    if (controller && controller === controllers[1]) return 'right';
    return null;
  }

  onSelectStart(event) {
    const hand = this.handOf(event);
    if (!hand) return;
    const controller = xb.core.input.controllers[hand === 'left' ? 0 : 1];
    if (!controller) return;
    controller.updateWorldMatrix(true, false);
    _origin.setFromMatrixPosition(controller.matrixWorld);
    _direction.set(0, 0, -1).transformDirection(controller.matrixWorld);

    // Where the ray meets the floor plane y = 0, if within range.
    if (!(_direction.y < -1e-6) || _origin.y < 0) return;
    const distance = -_origin.y / _direction.y;
    if (distance > MAX_RANGE) return;
    const foot = _origin.clone().addScaledVector(_direction, distance);
    foot.y = 0;
    this.plantFlag(foot, _origin);
  }

  plantFlag(foot, from) {
    const flag = new THREE.Group();
    flag.name = 'floor-flag';
    flag.position.copy(foot);
    // Upright; turned about the vertical only, so the pennant is seen from
    // the side by whoever planted it.
    _toUser.subVectors(from, foot);
    const yaw = Math.atan2(_toUser.x, _toUser.z);
    flag.rotation.set(0, yaw, 0);
    flag.userData.xrblocksDevtools = {tag: 'floor-flag', state: {}};

    const pole = new THREE.Mesh(this.poleGeometry, this.poleMaterial);
    const knob = new THREE.Mesh(this.knobGeometry, this.poleMaterial);
    knob.position.y = POLE_HEIGHT;
    const pennant = new THREE.Mesh(
      this.pennantGeometry,
      this.pennantMaterials[this.planted % this.pennantMaterials.length]
    );
    pennant.position.set(POLE_RADIUS, POLE_HEIGHT - PENNANT_HEIGHT - 0.005, 0);
    for (const part of [pole, knob, pennant]) {
      part.raycast = () => {}; // Flags never block the hands' rays.
      flag.add(part);
    }
    this.planted++;

    this.add(flag);
    flag.updateMatrixWorld(true);
    this.flags.push(flag);
    while (this.flags.length > MAX_FLAGS) {
      this.flags.shift().removeFromParent();
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new FloorFlags());
  xb.init(new xb.Options().enableHands());
});
