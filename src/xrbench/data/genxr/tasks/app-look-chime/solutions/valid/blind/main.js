import * as THREE from 'three';
import * as xb from 'xrblocks';

const BALL_POSITION = new THREE.Vector3(0, 1.5, -1.5);
const BALL_RADIUS = 0.05; // 0.1 m across.
const LOOK_ANGLE_DEG = 10;
const CHIME_FREQUENCY = 660; // Hz
const CHIME_DURATION = 0.3; // seconds
const CHIME_VOLUME = 0.5;

/**
 * A small glowing ball hangs in front of the user; a short chime plays each
 * time the user's gaze comes onto it.
 */
class LookChime extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const geometry = new THREE.SphereGeometry(BALL_RADIUS, 32, 16);
    const material = new THREE.MeshStandardMaterial({
      color: 0xffe080,
      emissive: 0xffcc33,
      emissiveIntensity: 1.5,
    });
    this.ball = new THREE.Mesh(geometry, material);
    this.ball.position.copy(BALL_POSITION);
    this.ball.name = 'ball';
    this.ball.userData.xrblocksDevtools = {tag: 'ball'};
    this.add(this.ball);

    this.wasLooking = false;
    this._headPosition = new THREE.Vector3();
    this._viewDirection = new THREE.Vector3();
    this._toBall = new THREE.Vector3();
    this._ballWorld = new THREE.Vector3();
    this._cosThreshold = Math.cos(THREE.MathUtils.degToRad(LOOK_ANGLE_DEG));
  }

  /** Whether the head's view direction is within 10 degrees of the ball. */
  isLookingAtBall() {
    const camera = xb.core.camera;
    if (!camera || !this.ball) return false;
    camera.updateMatrixWorld();
    camera.getWorldPosition(this._headPosition);
    // For a camera, getWorldDirection returns its forward (-Z) axis.
    camera.getWorldDirection(this._viewDirection);
    this.ball.getWorldPosition(this._ballWorld);
    this._toBall.subVectors(this._ballWorld, this._headPosition);
    if (this._toBall.lengthSq() < 1e-12) return true;
    this._toBall.normalize();
    const cos = this._viewDirection.normalize().dot(this._toBall);
    // Small epsilon so an angle of exactly 10 degrees counts as looked at.
    return cos >= this._cosThreshold - 1e-9;
  }

  playChime() {
    xb.core.sound.soundSynthesizer.playTone(
      CHIME_FREQUENCY,
      CHIME_DURATION,
      CHIME_VOLUME,
      'sine'
    );
  }

  update() {
    const looking = this.isLookingAtBall();
    if (looking && !this.wasLooking) {
      this.playChime();
    }
    this.wasLooking = looking;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new LookChime());
  xb.init(new xb.Options());
});
