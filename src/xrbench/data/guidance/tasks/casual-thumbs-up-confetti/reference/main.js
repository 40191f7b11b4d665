import * as THREE from 'three';
import * as xb from 'xrblocks';

const PIECES = 60;
const LIFETIME_S = 3;

/**
 * A thumbs-up throws a burst of colourful confetti in front of the user; it tumbles down and
 * disappears.
 */
class Confetti extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.geometry = new THREE.PlaneGeometry(0.03, 0.03);
    this.pieces = [];
    this.onGesture = (event) => {
      if (event.detail.name === 'thumbs-up') this.burst();
    };
    this.gestures = xb.core.gestureRecognition;
    this.gestures?.addEventListener('gesturestart', this.onGesture);
  }

  burst() {
    const origin = new THREE.Vector3(0, xb.user.height, -xb.user.objectDistance);
    for (let i = 0; i < PIECES; i++) {
      const piece = new THREE.Mesh(
        this.geometry,
        new THREE.MeshBasicMaterial({
          color: new THREE.Color().setHSL(Math.random(), 0.9, 0.6),
          side: THREE.DoubleSide,
          transparent: true,
        }));
      piece.position.copy(origin);
      piece.userData.velocity = new THREE.Vector3(
        (Math.random() - 0.5) * 1.5, Math.random() * 1.5 + 0.5, (Math.random() - 0.5) * 1.5);
      piece.userData.spin = new THREE.Vector3(Math.random() * 8, Math.random() * 8, 0);
      piece.userData.age = 0;
      this.add(piece);
      this.pieces.push(piece);
    }
  }

  update() {
    const dt = xb.getDeltaTime();
    for (const piece of [...this.pieces]) {
      const {velocity, spin} = piece.userData;
      velocity.y -= 2.5 * dt;
      piece.position.addScaledVector(velocity, dt);
      piece.rotation.x += spin.x * dt;
      piece.rotation.y += spin.y * dt;
      piece.userData.age += dt;
      piece.material.opacity = Math.max(0, 1 - piece.userData.age / LIFETIME_S);
      if (piece.userData.age >= LIFETIME_S) {
        piece.removeFromParent();
        piece.material.dispose();
        this.pieces.splice(this.pieces.indexOf(piece), 1);
      }
    }
  }

  dispose() {
    this.gestures?.removeEventListener('gesturestart', this.onGesture);
    for (const piece of this.pieces) piece.material.dispose();
    this.geometry.dispose();
  }
}

const options = new xb.Options();
options.enableHands();
options.enableGestures();

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Confetti());
  xb.init(options);
});
