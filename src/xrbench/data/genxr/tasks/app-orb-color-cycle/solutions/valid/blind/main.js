import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * An orb in front of the user that advances to the next colour of its palette
 * each time the user selects it (a pinch or trigger press of either hand or
 * controller while its ray points at the orb).
 */

// Clearly different colours: any two differ by at least 0x40 in some channel.
const PALETTE = ['#e53935', '#43a047', '#1e88e5', '#fdd835', '#8e24aa'];

const ORB_DIAMETER = 0.3;
const ORB_POSITION = new THREE.Vector3(0, 1.5, -1.0);

class OrbScene extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.colorIndex = 0;
    const geometry = new THREE.SphereGeometry(ORB_DIAMETER / 2, 48, 32);
    const material = new THREE.MeshPhongMaterial({color: PALETTE[0]});
    this.orb = new THREE.Mesh(geometry, material);
    this.orb.name = 'color-orb';
    this.orb.position.copy(ORB_POSITION);
    this.orb.userData.xrblocksDevtools = {
      tag: 'color-orb',
      state: {color: PALETTE[0], index: 0},
    };
    this.add(this.orb);
    this.updateState();
  }

  /** Keeps the tag's state in step with the orb's material colour. */
  updateState() {
    const state = this.orb.userData.xrblocksDevtools.state;
    state.color = '#' + this.orb.material.color.getHexString().toLowerCase();
    state.index = this.colorIndex;
  }

  /**
   * Called by XR Blocks once per selection (per hand or controller) whose ray
   * hits an object of this script: the orb is the only one, but check anyway.
   */
  onObjectSelectStart(event) {
    const hit = event?.surface ?? event?.intersection?.object;
    if (hit && hit !== this.orb) return;
    this.colorIndex = (this.colorIndex + 1) % PALETTE.length;
    this.orb.material.color.set(PALETTE[this.colorIndex]);
    this.updateState();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new OrbScene());
  xb.init(options);
});
