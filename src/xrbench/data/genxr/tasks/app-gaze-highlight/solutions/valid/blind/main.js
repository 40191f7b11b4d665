import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Gaze highlight: three spherical targets on an arc in front of the user's
 * starting place. The target the user is looking at (within 10 degrees of the
 * head's view direction, full 3-D angle) lights up; at most one at a time.
 */

const EYE_HEIGHT = 1.5; // metres; targets' centres sit at the starting eye height
const ARC_RADIUS = 1.5; // metres, measured horizontally from the starting place
const TARGET_DIAMETER = 0.2; // metres
const SIDE_ANGLE_DEG = 40;
const GAZE_LIMIT_RAD = THREE.MathUtils.degToRad(10);
const ANGLE_EPSILON = 1e-9; // "at most 10 degrees" includes 10 degrees exactly

const NORMAL_COLOR = new THREE.Color(0x4a6fa5);
const NORMAL_EMISSIVE = new THREE.Color(0x000000);
const NORMAL_EMISSIVE_INTENSITY = 1;
const HIGHLIGHT_COLOR = new THREE.Color(0xffd54a);
const HIGHLIGHT_EMISSIVE = new THREE.Color(0xffaa00);
const HIGHLIGHT_EMISSIVE_INTENSITY = 1;

class GazeHighlightScene extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const sun = new THREE.DirectionalLight(0xffffff, 1);
    sun.position.set(1, 3, 2);
    this.add(sun);

    this.targets = [];
    this.highlighted = null;
    this._headPos = new THREE.Vector3();
    this._viewDir = new THREE.Vector3();
    this._toTarget = new THREE.Vector3();
    this._targetPos = new THREE.Vector3();

    const geometry = new THREE.SphereGeometry(TARGET_DIAMETER / 2, 32, 16);
    const side = THREE.MathUtils.degToRad(SIDE_ANGLE_DEG);
    const angles = [-side, 0, side]; // left, ahead, right
    for (const a of angles) {
      // Each target gets its own material so only one lights up.
      const material = new THREE.MeshStandardMaterial({
        color: NORMAL_COLOR.clone(),
        emissive: NORMAL_EMISSIVE.clone(),
        emissiveIntensity: NORMAL_EMISSIVE_INTENSITY,
        roughness: 0.5,
        metalness: 0.0,
      });
      const target = new THREE.Mesh(geometry, material);
      target.position.set(
        ARC_RADIUS * Math.sin(a),
        EYE_HEIGHT,
        -ARC_RADIUS * Math.cos(a)
      );
      target.userData.xrblocksDevtools = {
        tag: 'gaze-target',
        state: {highlighted: false},
      };
      this.add(target);
      this.targets.push(target);
    }
    this.updateHighlight();
  }

  update() {
    this.updateHighlight();
  }

  /** Picks the target closest to the view direction, if within 10 degrees. */
  findLookedAtTarget() {
    const camera = xb.core.camera;
    if (!camera) return null;
    camera.updateWorldMatrix(true, false);
    camera.getWorldPosition(this._headPos);
    camera.getWorldDirection(this._viewDir); // camera's forward (-z) in world
    let best = null;
    let bestAngle = Infinity;
    for (const target of this.targets) {
      target.updateWorldMatrix(true, false);
      target.getWorldPosition(this._targetPos);
      this._toTarget.subVectors(this._targetPos, this._headPos);
      if (this._toTarget.lengthSq() === 0) continue;
      const angle = this._viewDir.angleTo(this._toTarget);
      if (angle <= GAZE_LIMIT_RAD + ANGLE_EPSILON && angle < bestAngle) {
        best = target;
        bestAngle = angle;
      }
    }
    return best;
  }

  updateHighlight() {
    if (!this.targets) return;
    const looked = this.findLookedAtTarget();
    for (const target of this.targets) {
      this.setHighlighted(target, target === looked);
    }
    this.highlighted = looked;
  }

  setHighlighted(target, on) {
    const material = target.material;
    if (on) {
      material.color.copy(HIGHLIGHT_COLOR);
      material.emissive.copy(HIGHLIGHT_EMISSIVE);
      material.emissiveIntensity = HIGHLIGHT_EMISSIVE_INTENSITY;
    } else {
      material.color.copy(NORMAL_COLOR);
      material.emissive.copy(NORMAL_EMISSIVE);
      material.emissiveIntensity = NORMAL_EMISSIVE_INTENSITY;
    }
    target.userData.xrblocksDevtools.state.highlighted = on;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new GazeHighlightScene());
  xb.init(new xb.Options());
});
