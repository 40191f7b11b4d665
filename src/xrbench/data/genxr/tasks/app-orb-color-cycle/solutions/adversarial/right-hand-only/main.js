import * as THREE from 'three';
import * as xb from 'xrblocks';

const PALETTE = [0xe53935, 0x1e88e5, 0x43a047, 0xfdd835];

function hex(color) {
  return '#' + color.toString(16).padStart(6, '0');
}

/** An orb that steps through its palette when selected (by the right hand). */
class ColorOrb extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.orb = new THREE.Mesh(
      new THREE.SphereGeometry(0.15, 32, 16),
      new THREE.MeshStandardMaterial({color: PALETTE[0], roughness: 0.4}));
    this.orb.position.set(0, xb.user.height, -1.0);
    this.state = {color: hex(PALETTE[0]), index: 0};
    this.orb.userData.xrblocksDevtools = {tag: 'color-orb', state: this.state};
    this.add(this.orb);
  }

  onObjectSelectStart(event) {
    // Wrong: assumes the user is right-handed; the left hand's selections are ignored.
    if (event.source?.handedness !== 'right') return;
    this.state.index = (this.state.index + 1) % PALETTE.length;
    const color = PALETTE[this.state.index];
    this.orb.material.color.setHex(color);
    this.state.color = hex(color);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ColorOrb());
  xb.init(new xb.Options());
});
