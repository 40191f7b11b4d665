import * as THREE from 'three';
import * as xb from 'xrblocks';

const COLORS = [0xe53935, 0x1e88e5, 0x43a047, 0xfdd835];

function hex(color) {
  return '#' + color.toString(16).padStart(6, '0');
}

/**
 * A 0.3 m cube 1.2 m in front of the user that moves to the next colour on every selection.
 */
class ColorCube extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.index = 0;
    this.cube = new THREE.Mesh(
      new THREE.BoxGeometry(0.3, 0.3, 0.3),
      new THREE.MeshPhongMaterial({color: COLORS[0]}));
    this.cube.position.set(0, xb.user.height - 0.1, -1.2);
    this.cube.userData.xrblocksDevtools = {tag: 'color-cube', state: {color: hex(COLORS[0])}};
    this.add(this.cube);
  }

  onObjectSelectStart(event) {
    if (event.surface !== this.cube) return;
    this.index = (this.index + 1) % COLORS.length;
    this.cube.material.color.setHex(COLORS[this.index]);
    this.cube.userData.xrblocksDevtools.state.color = hex(COLORS[this.index]);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ColorCube());
  xb.init(new xb.Options());
});
