import * as THREE from 'three';
import * as xb from 'xrblocks';

// A footprint is a sole and a heel, two thin boxes in a group whose local -z points forward.
const SOLE = new THREE.BoxGeometry(0.1, 0.006, 0.16);
const HEEL = new THREE.BoxGeometry(0.08, 0.006, 0.08);
const INK = new THREE.MeshStandardMaterial({color: 0x37474f});

function makePrint() {
  const group = new THREE.Group();
  const sole = new THREE.Mesh(SOLE, INK);
  sole.position.set(0, 0.003, -0.05);
  const heel = new THREE.Mesh(HEEL, INK);
  heel.position.set(0, 0.003, 0.09);
  group.add(sole, heel);
  group.userData.xrblocksDevtools = {tag: 'footprint', state: {}};
  return group;
}

class Trail extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.trail = new THREE.Group();
    xb.core.scene.add(this.trail);
    this.anchor = null;  // THREE.Vector2 (x, z) of the newest print
    this.eye = new THREE.Vector3();
  }

  floor() {
    let best = null;
    for (const plane of xb.world?.planes?.get('floor') ?? []) {
      if (plane.orientation && String(plane.orientation).toLowerCase() !== 'horizontal') continue;
      if (!best || (plane.area ?? 0) > (best.area ?? 0)) best = plane;
    }
    return best;
  }

  update() {
    const plane = this.floor();
    if (!plane) return;
    const height = plane.getWorldPosition(new THREE.Vector3()).y;
    xb.core.camera.getWorldPosition(this.eye);
    const here = new THREE.Vector2(this.eye.x, this.eye.z);
    let forward;
    if (this.anchor === null) {
      const view = xb.core.camera.getWorldDirection(new THREE.Vector3());
      forward = new THREE.Vector2(view.x, view.z);
    } else {
      if (here.distanceTo(this.anchor) < 0.5) return;
      forward = here.clone().sub(this.anchor);
    }
    const print = makePrint();
    print.position.set(here.x, height, here.y);
    // Local -z (the toes) along the walking direction.
    print.rotation.y = Math.atan2(-forward.x, -forward.y);
    this.trail.add(print);
    this.anchor = here;
    if (this.trail.children.length > 12) this.trail.remove(this.trail.children[0]);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.add(new Trail());
  xb.init(options);
});
