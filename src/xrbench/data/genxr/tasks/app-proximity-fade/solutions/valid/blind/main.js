import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A sculpture that turns see-through up close: a torus knot stands in the
 * room, and its opacity follows the user's horizontal (floor) distance to it.
 * At 1.6 m or more it is fully opaque; at 0.6 m or less its opacity is 0.25;
 * in between the opacity changes linearly with the distance.
 */

const SCULPTURE_CENTER = new THREE.Vector3(0, 1.3, -2);
const NEAR_DISTANCE = 0.6; // metres: at or below this, minimum opacity.
const FAR_DISTANCE = 1.6; // metres: at or beyond this, fully opaque.
const MIN_OPACITY = 0.25;
const MAX_OPACITY = 1.0;
const SCULPTURE_SIZE = 0.4; // metres along its longest side.

const _eyes = new THREE.Vector3();

/** Opacity for a horizontal distance (metres) from the eyes to the sculpture. */
function opacityForDistance(distance) {
  const t = THREE.MathUtils.clamp(
    (distance - NEAR_DISTANCE) / (FAR_DISTANCE - NEAR_DISTANCE),
    0,
    1
  );
  return MIN_OPACITY + t * (MAX_OPACITY - MIN_OPACITY);
}

class ProximityFade extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const sun = new THREE.DirectionalLight(0xffffff, 1.5);
    sun.position.set(1, 3, 2);
    this.add(sun);

    // A torus knot, re-centred so that its bounding box is centred on its
    // origin, and scaled so that its longest side is SCULPTURE_SIZE.
    const geometry = new THREE.TorusKnotGeometry(0.12, 0.04, 160, 20);
    geometry.center();
    geometry.computeBoundingBox();
    const size = new THREE.Vector3();
    geometry.boundingBox.getSize(size);
    const scale = SCULPTURE_SIZE / Math.max(size.x, size.y, size.z);
    geometry.scale(scale, scale, scale);
    geometry.center();
    geometry.computeBoundingBox();
    geometry.computeBoundingSphere();

    const material = new THREE.MeshStandardMaterial({
      color: 0x4fc3f7,
      roughness: 0.35,
      metalness: 0.2,
      transparent: false,
      opacity: 1.0,
    });
    this.sculpture = new THREE.Mesh(geometry, material);
    this.sculpture.name = 'sculpture';
    this.sculpture.position.copy(SCULPTURE_CENTER);
    this.sculpture.userData.xrblocksDevtools = {
      tag: 'sculpture',
      state: {opacity: 1.0, distance: null},
    };
    this.add(this.sculpture);
  }

  /** Horizontal distance from the user's eyes to the sculpture's centre. */
  floorDistance() {
    const camera = xb.core.camera;
    if (!camera) return Infinity;
    camera.updateMatrixWorld();
    camera.getWorldPosition(_eyes);
    const dx = _eyes.x - SCULPTURE_CENTER.x;
    const dz = _eyes.z - SCULPTURE_CENTER.z;
    return Math.hypot(dx, dz);
  }

  update() {
    // The sculpture never moves, turns or changes size.
    this.sculpture.position.copy(SCULPTURE_CENTER);
    this.sculpture.rotation.set(0, 0, 0);
    this.sculpture.scale.set(1, 1, 1);

    const distance = this.floorDistance();
    const opacity = opacityForDistance(distance);
    const material = this.sculpture.material;
    const transparent = opacity < 1;
    if (material.transparent !== transparent) {
      material.transparent = transparent;
      // Avoid the see-through sculpture hiding what is behind it in depth.
      material.depthWrite = !transparent;
      material.needsUpdate = true;
    }
    material.opacity = opacity;

    const state = this.sculpture.userData.xrblocksDevtools.state;
    state.opacity = opacity;
    state.distance = Number.isFinite(distance) ? distance : null;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ProximityFade());
  xb.init(new xb.Options());
});
