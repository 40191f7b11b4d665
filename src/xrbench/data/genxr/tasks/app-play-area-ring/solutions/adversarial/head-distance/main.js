import * as THREE from 'three';
import * as xb from 'xrblocks';

// Play-area ring: a thin RingGeometry on the floor around the starting point. It turns red past
// 1.2 m from the centre (along the floor) and back to teal within 1.0 m.
const CALM = new THREE.Color(0x26a69a);
const WARN = new THREE.Color(0xff3b30);

class PlayArea extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2));
    this.ring = new THREE.Mesh(
      new THREE.RingGeometry(1.48, 1.52, 96),
      new THREE.MeshBasicMaterial({color: CALM.clone(), side: THREE.DoubleSide})
    );
    this.ring.rotation.x = -Math.PI / 2;
    this.ring.position.y = 0.005;
    this.ring.userData.xrblocksDevtools = {tag: 'play-area-ring', state: {}};
    this.add(this.ring);
    this.warning = false;
  }

  update() {
    const eyes = xb.core.camera.getWorldPosition(new THREE.Vector3());
    // how far the user is from the ring's centre
    const strayed = eyes.distanceTo(this.ring.position);
    if (!this.warning && strayed > 1.2) this.warning = true;
    else if (this.warning && strayed < 1.0) this.warning = false;
    this.ring.material.color.copy(this.warning ? WARN : CALM);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PlayArea());
  xb.init(new xb.Options());
});
