import * as THREE from 'three';
import * as xb from 'xrblocks';

// HUD panel size (metres).
const HUD_WIDTH = 0.3;
const HUD_HEIGHT = 0.15;
// Resting place relative to the eyes.
const HUD_DISTANCE = 0.6; // in front, along the horizontal heading
const HUD_DROP = 0.15; // below the eyes
// Lazy follow: exponential ease with rate K (1/s).
const FOLLOW_RATE = 8;
// Never cover more than this fraction of the remaining way in one frame
// (only matters for unusually long frames).
const MAX_FRACTION_PER_FRAME = 0.25;
// Longest frame time taken into account (s).
const MAX_DT = 0.1;
// Below this remaining distance (m) the HUD snaps onto its resting place.
const SNAP_DISTANCE = 0.0005;

function makeHudTexture() {
  const canvas = document.createElement('canvas');
  canvas.width = 512;
  canvas.height = 256;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'rgba(20, 40, 70, 1)';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = '#7fd4ff';
  ctx.lineWidth = 12;
  ctx.strokeRect(6, 6, canvas.width - 12, canvas.height - 12);
  ctx.fillStyle = '#ffffff';
  ctx.font = 'bold 150px sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText('HUD', canvas.width / 2, canvas.height / 2);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

/**
 * A small HUD panel that lazily follows the user's head and always faces it.
 */
class FollowHud extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const geometry = new THREE.PlaneGeometry(HUD_WIDTH, HUD_HEIGHT);
    const material = new THREE.MeshBasicMaterial({
      map: makeHudTexture(),
      side: THREE.DoubleSide,
    });
    this.hud = new THREE.Mesh(geometry, material);
    this.hud.name = 'hud';
    this.hud.userData.xrblocksDevtools = {tag: 'hud', state: {}};
    this.add(this.hud);

    this.headPosition = new THREE.Vector3();
    this.headQuaternion = new THREE.Quaternion();
    this.viewDirection = new THREE.Vector3();
    this.heading = new THREE.Vector3(0, 0, -1);
    this.restWorld = new THREE.Vector3();
    this.restLocal = new THREE.Vector3();
    this.euler = new THREE.Euler(0, 0, 0, 'YXZ');

    // Re-aim at the head right before drawing too, in case anything moved the
    // camera after this script's update in the same frame.
    this.hud.onBeforeRender = () => this.faceHead();

    this.needsSnap = true;
    this.update();
  }

  onSimulatorStarted() {
    // The simulator places the head when it starts: appear at the new resting
    // place directly instead of gliding there from the pre-start pose.
    this.needsSnap = true;
  }

  /** Reads the head (camera) world pose into headPosition / heading. */
  readHead() {
    const camera = xb.core.camera;
    if (!camera) return false;
    camera.updateWorldMatrix(true, false);
    camera.matrixWorld.decompose(
      this.headPosition,
      this.headQuaternion,
      this.viewDirection // scale, overwritten below
    );
    // View direction: the camera looks along its local -Z.
    this.viewDirection.set(0, 0, -1).applyQuaternion(this.headQuaternion);
    const hx = this.viewDirection.x;
    const hz = this.viewDirection.z;
    const len = Math.hypot(hx, hz);
    if (len > 1e-4) {
      this.heading.set(hx / len, 0, hz / len);
    } else {
      // Looking straight up or down: take the yaw of the head's orientation.
      this.euler.setFromQuaternion(this.headQuaternion, 'YXZ');
      const yaw = this.euler.y;
      this.heading.set(-Math.sin(yaw), 0, -Math.cos(yaw));
    }
    return true;
  }

  /** World position of the HUD's resting place for the current head pose. */
  computeRestingPlace() {
    this.restWorld
      .copy(this.headPosition)
      .addScaledVector(this.heading, HUD_DISTANCE);
    this.restWorld.y = this.headPosition.y - HUD_DROP;
    return this.restWorld;
  }

  /**
   * Turns the HUD about the vertical axis so that its front (+Z) points at
   * the head horizontally.
   */
  faceHead() {
    if (!this.hud) return;
    const camera = xb.core.camera;
    if (!camera) return;
    camera.updateWorldMatrix(true, false);
    const head = this.headPosition.setFromMatrixPosition(camera.matrixWorld);
    this.hud.updateWorldMatrix(true, false);
    const hudPos = new THREE.Vector3().setFromMatrixPosition(
      this.hud.matrixWorld
    );
    // Stay upright: aim at the head projected to the HUD's own height, so the
    // front points at the head horizontally.
    const target = new THREE.Vector3(head.x, hudPos.y, head.z);
    if (target.distanceToSquared(hudPos) < 1e-8) return;
    // Object3D.lookAt points a non-camera object's +Z at the target.
    this.hud.lookAt(target);
    this.hud.updateMatrixWorld(true);
  }

  update() {
    if (!this.hud || !this.readHead()) return;
    const rest = this.computeRestingPlace();
    // Work in the HUD parent's frame (identity in practice).
    const parent = this.hud.parent;
    this.restLocal.copy(rest);
    if (parent) {
      parent.updateWorldMatrix(true, false);
      parent.worldToLocal(this.restLocal);
    }

    if (this.needsSnap) {
      this.hud.position.copy(this.restLocal);
      this.needsSnap = false;
    } else {
      let dt = xb.getDeltaTime();
      if (!Number.isFinite(dt) || dt < 0) dt = 0;
      dt = Math.min(dt, MAX_DT);
      const fraction = Math.min(
        1 - Math.exp(-FOLLOW_RATE * dt),
        MAX_FRACTION_PER_FRAME
      );
      const remaining = this.hud.position.distanceTo(this.restLocal);
      if (remaining <= SNAP_DISTANCE) {
        this.hud.position.copy(this.restLocal);
      } else {
        this.hud.position.lerp(this.restLocal, fraction);
      }
    }
    this.faceHead();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new FollowHud());
  xb.init(new xb.Options());
});
