import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * An icosahedron on a plinth group; an always-transparent material whose opacity is a piecewise
 * linear function of the horizontal distance between the camera and the sculpture.
 */
function fade(distance) {
  if (distance >= 1.6) return 1;
  if (distance <= 0.6) return 0.25;
  return 0.25 + 0.75 * (distance - 0.6);
}

class Gallery extends xb.Script {
  init() {
    this.add(new THREE.DirectionalLight(0xffffff, 2));
    this.add(new THREE.AmbientLight(0xffffff, 0.6));
    this.plinth = new THREE.Group();
    this.plinth.position.set(0, 1.3, -2);
    this.add(this.plinth);
    this.statue = new THREE.Mesh(
      new THREE.IcosahedronGeometry(0.2, 1),
      new THREE.MeshPhongMaterial({color: 0x4fc3f7, transparent: true, opacity: 1, depthWrite: false})
    );
    this.statue.userData.xrblocksDevtools = {tag: 'sculpture', state: {}};
    this.plinth.add(this.statue);
  }

  update() {
    const cam = new THREE.Vector3();
    const here = new THREE.Vector3();
    xb.core.camera.getWorldPosition(cam);
    this.statue.getWorldPosition(here);
    const flat = new THREE.Vector2(cam.x - here.x, cam.z - here.z);
    this.statue.material.opacity = fade(flat.length());
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Gallery());
  xb.init(new xb.Options());
});
