import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A play-area ring: a ring on the floor around where the user starts, which
 * turns red when the user walks too close to its edge.
 */

const RING_RADIUS = 1.5; // metres, the ring's middle line.
const RING_WIDTH = 0.06; // metres, from the inner to the outer edge.
const RING_HEIGHT = 0.005; // metres above the floor (avoids z-fighting).
const WARN_BEYOND = 1.2; // metres from the centre: turn red beyond this...
const CALM_WITHIN = 1.0; // ...and calm again only within this.

const CALM_COLOR = 0x33ccff; // A calm light blue.
const WARNING_COLOR = 0xff2a2a; // Red.

const _eyes = new THREE.Vector3();

class PlayAreaRing extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const geometry = new THREE.RingGeometry(
      RING_RADIUS - RING_WIDTH / 2,
      RING_RADIUS + RING_WIDTH / 2,
      128,
      1
    );
    // RingGeometry lies in the XY plane: lay it flat on the floor.
    geometry.rotateX(-Math.PI / 2);
    this.material = new THREE.MeshBasicMaterial({
      color: CALM_COLOR,
      side: THREE.DoubleSide,
    });
    this.ring = new THREE.Mesh(geometry, this.material);
    this.ring.name = 'play-area-ring';
    this.ring.position.set(0, RING_HEIGHT, 0);
    // A marker, not something to point at.
    this.ring.raycast = () => {};
    this.ring.userData.xrblocksDevtools = {
      tag: 'play-area-ring',
      state: {warning: false},
    };
    this.add(this.ring);

    this.warning = false;
  }

  update() {
    const camera = xb.core.camera;
    if (!camera || !this.ring) return;
    camera.updateMatrixWorld();
    camera.getWorldPosition(_eyes);
    // Distance along the floor from the ring's centre (0, 0, 0).
    const strayed = Math.hypot(_eyes.x, _eyes.z);
    if (!this.warning && strayed > WARN_BEYOND) {
      this.setWarning(true);
    } else if (this.warning && strayed < CALM_WITHIN) {
      this.setWarning(false);
    }
  }

  setWarning(warning) {
    this.warning = warning;
    this.material.color.setHex(warning ? WARNING_COLOR : CALM_COLOR);
    this.ring.userData.xrblocksDevtools.state.warning = warning;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PlayAreaRing());
  xb.init(new xb.Options());
});
