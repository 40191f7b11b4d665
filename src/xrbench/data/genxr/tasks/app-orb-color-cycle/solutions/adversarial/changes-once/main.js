import * as THREE from 'three';
import * as xb from 'xrblocks';

const FIRST = 0xe53935;
const SELECTED = 0x1e88e5;

function hex(color) {
  return '#' + color.toString(16).padStart(6, '0');
}

/** An orb that turns blue when selected. */
class ColorOrb extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.orb = new THREE.Mesh(
      new THREE.SphereGeometry(0.15, 32, 16),
      new THREE.MeshStandardMaterial({color: FIRST, roughness: 0.4}));
    this.orb.position.set(0, xb.user.height, -1.0);
    this.state = {color: hex(FIRST), index: 0};
    this.orb.userData.xrblocksDevtools = {tag: 'color-orb', state: this.state};
    this.add(this.orb);
  }

  onObjectSelectStart() {
    // Wrong: sets one fixed "selected" colour instead of stepping through a palette, so only
    // the first selection changes anything.
    this.orb.material.color.setHex(SELECTED);
    this.state.index = 1;
    this.state.color = hex(SELECTED);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ColorOrb());
  xb.init(new xb.Options());
});
