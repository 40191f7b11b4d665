import * as THREE from 'three';
import * as xb from 'xrblocks';

const COLOURS = {wall: 0x00ffff, floor: 0xff8000};

/** Outlines every detected wall and the floor with the edges of the plane's own geometry. */
class RoomOutlines extends xb.Script {
  init() {
    this.outlined = new Set();
  }

  update() {
    const planes = xb.world?.planes?.get() ?? [];
    for (const plane of planes) {
      if (this.outlined.has(plane)) continue;
      const colour = COLOURS[plane.label];
      if (colour === undefined) continue;
      this.outlined.add(plane);
      plane.updateMatrixWorld(true);
      const outline = new THREE.LineSegments(
        new THREE.EdgesGeometry(plane.geometry),
        new THREE.LineBasicMaterial({color: colour}));
      plane.matrixWorld.decompose(outline.position, outline.quaternion, outline.scale);
      outline.userData.xrblocksDevtools = {tag: `${plane.label}-outline`};
      this.add(outline);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new RoomOutlines());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
