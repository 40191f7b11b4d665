import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A 20 cm box placed on a horizontal surface (a table before the floor) by XR Blocks' placement
 * helper; when no surface is found it floats in front of the user, semi-transparent.
 */
class PlaceBox extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.box = new THREE.Mesh(
      new THREE.BoxGeometry(0.2, 0.2, 0.2),
      new THREE.MeshPhongMaterial({color: 0x8d6e63, transparent: true, opacity: 1}));
    this.box.position.set(0, xb.user.height, -1);
    this.add(this.box);
    // Placement retries frame by frame: start it, but do not hold up initialisation on it.
    this.place();
  }

  async place() {
    let placed = false;
    try {
      placed = await xb.world.placeOnHorizontalSurface(this.box, {seconds: 3});
    } catch (error) {
      console.warn('placement failed:', error);
    }
    if (!placed) {
      this.box.position.set(0, xb.user.height, -1);
      this.box.material.opacity = 0.4;
    }
  }
}

const options = new xb.Options();
options.enablePlaneDetection();

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PlaceBox());
  xb.init(options);
});
