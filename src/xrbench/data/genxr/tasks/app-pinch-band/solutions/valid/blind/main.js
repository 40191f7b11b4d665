import * as THREE from 'three';
import * as xb from 'xrblocks';

const BAND_RADIUS = 0.004; // 4 mm thin tube
const LONG_LENGTH = 0.4; // 40 cm
const GREEN = new THREE.Color(0x22dd33);
const RED = new THREE.Color(0xff2020);
const HAND_INDEX = {left: 0, right: 1};

/**
 * While both hands pinch, a straight band stretches between the two pinch
 * points (index finger tips): green while shorter than 40 cm, red from 40 cm.
 */
class PinchBand extends xb.Script {
  constructor() {
    super();
    this.pinching = {left: false, right: false};
    this.tipA = new THREE.Vector3();
    this.tipB = new THREE.Vector3();
    this.dir = new THREE.Vector3();
    this.up = new THREE.Vector3(0, 1, 0);
  }

  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // Unit-height cylinder along +y, centred at the origin; scaled in y to the
    // band's length and oriented along the segment each frame.
    const geometry = new THREE.CylinderGeometry(BAND_RADIUS, BAND_RADIUS, 1, 12);
    const material = new THREE.MeshBasicMaterial({color: GREEN.clone()});
    const band = new THREE.Mesh(geometry, material);
    band.name = 'pinch-band';
    band.visible = false;
    band.frustumCulled = false;
    band.userData.xrblocksDevtools = {tag: 'pinch-band', state: {}};
    // Re-sync with the hands right before drawing, in case the hand joints
    // were updated after this script's update in the frame.
    band.onBeforeRender = () => {
      if (this.bothPinching()) this.placeBand();
    };
    this.band = band;
    this.add(band);
  }

  bothPinching() {
    return this.pinching.left && this.pinching.right;
  }

  handednessOf(event) {
    const source = event?.source;
    let h = source?.handedness;
    if (h === 'left' || h === 'right') return h;
    const controller = source?.controller ?? event?.target;
    h = controller?.inputSource?.handedness ?? event?.data?.handedness;
    if (h === 'left' || h === 'right') return h;
    const controllers = xb.core?.input?.controllers ?? [];
    const i = controllers.indexOf(controller);
    if (i === 0) return 'left';
    if (i === 1) return 'right';
    return null;
  }

  onSelectStart(event) {
    const h = this.handednessOf(event);
    if (!h) return;
    this.pinching[h] = true;
    this.refresh();
  }

  onSelectEnd(event) {
    const h = this.handednessOf(event);
    if (!h) return;
    this.pinching[h] = false;
    this.refresh();
  }

  getTip(handedness, target) {
    const hand = xb.core?.input?.hands?.[HAND_INDEX[handedness]];
    const joint = hand?.joints?.['index-finger-tip'];
    if (!joint) return null;
    joint.updateWorldMatrix(true, false);
    return joint.getWorldPosition(target);
  }

  /** Places the band between the two pinch points; returns false if none. */
  placeBand() {
    const a = this.getTip('left', this.tipA);
    const b = this.getTip('right', this.tipB);
    if (!a || !b) return false;
    const band = this.band;
    const length = a.distanceTo(b);
    band.material.color.copy(length >= LONG_LENGTH ? RED : GREEN);
    band.userData.xrblocksDevtools.state = {
      length,
      long: length >= LONG_LENGTH,
    };

    // Position in world coordinates, converted into the parent's frame.
    const mid = new THREE.Vector3().addVectors(a, b).multiplyScalar(0.5);
    const quat = new THREE.Quaternion();
    if (length > 1e-6) {
      this.dir.subVectors(b, a).divideScalar(length);
      quat.setFromUnitVectors(this.up, this.dir);
    }
    const worldMatrix = new THREE.Matrix4().compose(
      mid,
      quat,
      new THREE.Vector3(1, Math.max(length, 1e-4), 1)
    );
    const parent = band.parent;
    if (parent) {
      parent.updateWorldMatrix(true, false);
      worldMatrix.premultiply(new THREE.Matrix4().copy(parent.matrixWorld).invert());
    }
    worldMatrix.decompose(band.position, band.quaternion, band.scale);
    band.updateMatrixWorld(true);
    return true;
  }

  refresh() {
    if (!this.band) return;
    const show = this.bothPinching() && this.placeBand();
    this.band.visible = !!show;
  }

  update() {
    this.refresh();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new PinchBand());
  xb.init(options);
});
