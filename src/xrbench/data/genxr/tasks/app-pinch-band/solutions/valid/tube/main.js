import * as THREE from 'three';
import * as xb from 'xrblocks';

// A band (a thin cylinder) between the two index fingertips while both hands pinch; green under
// 40 cm, red from 40 cm. Pinch state comes from the controllers' select flags each frame.
const LIMIT = 0.4;

function tip(i) {
  const joint = xb.core.input.hands?.[i]?.joints?.['index-finger-tip'];
  return joint ? joint.getWorldPosition(new THREE.Vector3()) : null;
}

class PinchBand extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2));
    this.band = new THREE.Mesh(
      new THREE.CylinderGeometry(0.004, 0.004, 1, 12).translate(0, 0.5, 0),
      new THREE.MeshBasicMaterial({color: 0x00c853})
    );
    this.band.userData.xrblocksDevtools = {tag: 'pinch-band', state: {}};
    this.band.visible = false;
    this.add(this.band);
  }

  place() {
    const a = tip(0);
    const b = tip(1);
    const both = xb.core.input.controllers[0]?.userData.selected && xb.core.input.controllers[1]?.userData.selected;
    this.band.visible = Boolean(both && a && b);
    if (!this.band.visible) return;
    const d = b.clone().sub(a);
    const length = d.length();
    this.band.position.copy(a);
    this.band.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), d.normalize());
    this.band.scale.set(1, Math.max(length, 1e-4), 1);
    this.band.material.color.set(length < LIMIT ? 0x00c853 : 0xd50000);
  }

  update() {
    this.place();
  }

  onSelectStart() {
    this.place();
  }

  onSelectEnd() {
    this.place();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new PinchBand());
  xb.init(options);
});
