import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A closed line on the floor marks a 1.5 m play area; it warns in red once the user strays more
 * than 1.2 m from its centre and calms down again inside 1.0 m.
 */
class Guardian extends xb.Script {
  init() {
    const points = [];
    for (let i = 0; i < 128; i++) {
      const a = (i / 128) * Math.PI * 2;
      points.push(new THREE.Vector3(1.5 * Math.cos(a), 0.01, 1.5 * Math.sin(a)));
    }
    this.line = new THREE.LineLoop(
      new THREE.BufferGeometry().setFromPoints(points),
      new THREE.LineBasicMaterial({color: 0x4fc3f7})
    );
    this.line.userData.xrblocksDevtools = {tag: 'play-area-ring', state: {}};
    this.add(this.line);
    this.red = false;
  }

  update() {
    const p = new THREE.Vector3().setFromMatrixPosition(xb.core.camera.matrixWorld);
    const d = new THREE.Vector2(p.x, p.z).length();
    if (d > 1.2) this.red = true;
    if (d < 1.0) this.red = false;
    this.line.material.color.set(this.red ? 0xff1744 : 0x4fc3f7);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Guardian());
  xb.init(new xb.Options());
});
