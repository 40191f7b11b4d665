import * as THREE from 'three';
import * as xb from 'xrblocks';

const COLORS = [0xe53935, 0x1e88e5];

class ColorCube extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.cube = new THREE.Mesh(
      new THREE.BoxGeometry(0.3, 0.3, 0.3),
      new THREE.MeshPhongMaterial({color: COLORS[0]}));
    this.cube.position.set(0, xb.user.height - 0.1, -1.2);
    this.cube.userData.xrblocksDevtools = {tag: 'color-cube', state: {color: '#e53935'}};
    this.add(this.cube);
    this.elapsed = 0;
  }

  update() {
    // Wrong: flips colour every second whatever the user does.
    this.elapsed += xb.getDeltaTime();
    const color = COLORS[Math.floor(this.elapsed) % COLORS.length];
    this.cube.material.color.setHex(color);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ColorCube());
  xb.init(new xb.Options());
});
