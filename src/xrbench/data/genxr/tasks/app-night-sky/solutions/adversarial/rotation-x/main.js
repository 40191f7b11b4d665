import * as THREE from 'three';
import * as xb from 'xrblocks';

// A star dome that follows the eyes (position only) and shows while the user looks up: above 40
// degrees it appears, below 30 it hides, in between it keeps its state.
const RADIUS = 8;
const SHOW_ABOVE = 40;
const HIDE_BELOW = 30;

function makeStars(count) {
  const positions = new Float32Array(count * 3);
  let seed = 42;
  const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let i = 0; i < count; i++) {
    // elevation 15..88 degrees, any azimuth
    const el = THREE.MathUtils.degToRad(15 + 73 * Math.sqrt(rand()));
    const az = 2 * Math.PI * rand();
    positions.set([RADIUS * Math.cos(el) * Math.sin(az), RADIUS * Math.sin(el), RADIUS * Math.cos(el) * Math.cos(az)], 3 * i);
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  return new THREE.Points(geometry, new THREE.PointsMaterial({color: 0xffffff, size: 0.06}));
}

class NightSky extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2));
    this.stars = makeStars(400);
    this.stars.userData.xrblocksDevtools = {tag: 'night-sky', state: {}};
    this.stars.visible = false;
    this.add(this.stars);
  }

  update() {
    const camera = xb.core.camera;
    camera.updateWorldMatrix(true, false);
    this.stars.position.setFromMatrixPosition(camera.matrixWorld);
    // the head's pitch, read from its Euler angles
    const up = THREE.MathUtils.radToDeg(camera.rotation.x);
    if (up > SHOW_ABOVE) this.stars.visible = true;
    else if (up < HIDE_BELOW) this.stars.visible = false;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new NightSky());
  xb.init(new xb.Options());
});
