import * as THREE from 'three';
import * as xb from 'xrblocks';

const BALL = new THREE.Vector3(0, 1.5, -1.5);
const LIMIT = THREE.MathUtils.degToRad(10);

/** A small ball that chimes (660 Hz, 0.3 s) each time the gaze comes onto it. */
class LookChime extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const ball = new THREE.Mesh(
      new THREE.SphereGeometry(0.05, 24, 16),
      new THREE.MeshPhongMaterial({color: 0xffdd66, emissive: 0x664400})
    );
    ball.position.copy(BALL);
    this.add(ball);
    this.head = new THREE.Vector3();
    this.forward = new THREE.Vector3();
    this.toBall = new THREE.Vector3();
    this.looking = false;
  }

  update() {
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    this.head.setFromMatrixPosition(camera.matrixWorld);
    this.forward.set(0, 0, -1).transformDirection(camera.matrixWorld);
    this.toBall.copy(BALL).sub(this.head).normalize();
    const looking = this.forward.angleTo(this.toBall) <= LIMIT;
    if (looking && !this.looking) {
      xb.core.sound.soundSynthesizer.playTone(660, 0.3, 0.4, 'sine');
    }
    this.looking = looking;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new LookChime());
  xb.init(new xb.Options());
});
