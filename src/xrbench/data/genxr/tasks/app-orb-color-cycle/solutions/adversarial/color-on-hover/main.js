import * as THREE from 'three';
import * as xb from 'xrblocks';

const PALETTE = [0xe53935, 0x1e88e5, 0x43a047, 0xfdd835];

function hex(color) {
  return '#' + color.toString(16).padStart(6, '0');
}

/** An orb that steps through its palette as the user's ray reaches it. */
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

  // Wrong: the colour advances when a ray enters the orb (hover), not when the user selects it.
  onHoverEnter() {
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
