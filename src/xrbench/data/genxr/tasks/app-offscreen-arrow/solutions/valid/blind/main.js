import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Off-screen arrow: a beacon stands in the room; while it is far out of view,
 * a small cone 0.5 m in front of the eyes, flat in the view, points the way
 * to it. Shown above 35 degrees off the view, hidden below 25 (hysteresis).
 */

const BEACON_CENTRE = new THREE.Vector3(1.5, 1.2, 1.0);
const BEACON_RADIUS = 0.1;
const ARROW_DISTANCE = 0.5; // metres in front of the eyes.
const ARROW_LENGTH = 0.07;
const ARROW_RADIUS = 0.015;
const SHOW_ANGLE = THREE.MathUtils.degToRad(35);
const HIDE_ANGLE = THREE.MathUtils.degToRad(25);

const _eyes = new THREE.Vector3();
const _view = new THREE.Vector3();
const _toBeacon = new THREE.Vector3();
const _pointing = new THREE.Vector3();
const _yAxis = new THREE.Vector3(0, 1, 0);

class OffscreenArrow extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.beacon = new THREE.Mesh(
      new THREE.SphereGeometry(BEACON_RADIUS, 32, 16),
      new THREE.MeshStandardMaterial({
        color: 0xffb300,
        emissive: 0x664400,
        roughness: 0.4,
      })
    );
    this.beacon.name = 'beacon';
    this.beacon.position.copy(BEACON_CENTRE);
    this.beacon.userData.xrblocksDevtools = {tag: 'beacon', state: {}};
    this.add(this.beacon);

    // The cone's tip is its local +y.
    this.arrow = new THREE.Mesh(
      new THREE.ConeGeometry(ARROW_RADIUS, ARROW_LENGTH, 16),
      new THREE.MeshBasicMaterial({color: 0xff5252, depthTest: false})
    );
    this.arrow.name = 'offscreen-arrow';
    this.arrow.renderOrder = 999;
    this.arrow.raycast = () => {};
    this.arrow.userData.xrblocksDevtools = {tag: 'offscreen-arrow', state: {}};
    this.add(this.arrow);

    this.shown = true; // the beacon starts far out of view
    this.lastPointing = new THREE.Vector3(1, 0, 0);
  }

  update() {
    const camera = xb.core?.camera;
    if (!camera) return;
    camera.updateMatrixWorld(true);
    camera.getWorldPosition(_eyes);
    camera.getWorldDirection(_view).normalize();

    // The beacon stays put.
    this.beacon.position.copy(BEACON_CENTRE);

    _toBeacon.copy(BEACON_CENTRE).sub(_eyes);
    const distance = _toBeacon.length();
    const angle = distance > 1e-9 ? _view.angleTo(_toBeacon) : 0;
    if (angle > SHOW_ANGLE) this.shown = true;
    else if (angle < HIDE_ANGLE) this.shown = false;
    this.arrow.visible = this.shown;
    if (!this.shown) return;

    // Direction to the beacon, flat in the view.
    _pointing.copy(_toBeacon).addScaledVector(_view, -_toBeacon.dot(_view));
    if (_pointing.lengthSq() < 1e-10 * Math.max(1, distance * distance)) {
      // Straight behind (or ahead): keep the last direction, made flat in the view.
      _pointing.copy(this.lastPointing).addScaledVector(_view, -this.lastPointing.dot(_view));
      if (_pointing.lengthSq() < 1e-10) {
        _pointing.set(0, 1, 0).applyQuaternion(camera.getWorldQuaternion(new THREE.Quaternion()));
      }
    }
    _pointing.normalize();
    this.lastPointing.copy(_pointing);

    this.arrow.quaternion.setFromUnitVectors(_yAxis, _pointing);
    // ConeGeometry is centred on its origin (its bounding box is symmetric),
    // so the box's centre is the mesh's position: 0.5 m ahead of the eyes.
    this.arrow.position.copy(_eyes).addScaledVector(_view, ARROW_DISTANCE);
    this.arrow.updateMatrixWorld(true);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new OffscreenArrow());
  xb.init(new xb.Options());
});
