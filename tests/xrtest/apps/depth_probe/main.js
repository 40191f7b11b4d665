// Reads XR Blocks' depth every frame: the depth at the centre of the view and how many pixels
// read more than 0, published on a tagged object's state (what a depth app would see).
import * as THREE from 'three';
import * as xb from 'xrblocks';

class DepthProbe extends xb.Script {
  init() {
    this.marker = new THREE.Object3D();
    this.marker.userData.xrblocksDevtools = {tag: 'depth-probe', state: {centre: 0, known: 0}};
    this.add(this.marker);
  }

  update() {
    const depth = xb.core.depth;
    const pixels = depth.depthArray[0];
    let known = 0;
    if (pixels) for (const v of pixels) if (v > 0) known++;
    this.marker.userData.xrblocksDevtools.state = {centre: depth.getDepth(0.5, 0.5), known};
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableDepth();
  xb.add(new DepthProbe());
  xb.init(options);
});
