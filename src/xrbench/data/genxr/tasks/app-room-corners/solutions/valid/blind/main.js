import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * The room's corners: marks every vertical line where two detected,
 * non-parallel walls meet with a small sphere at the height of the detected
 * floor.
 *
 * Planes come from XR Blocks' plane detection (`xb.world.planes`) and may
 * arrive at any time, one after the other, in any order. Every frame the app
 * looks at the planes currently detected, computes the corners they define
 * and adds a sphere for each corner that does not have one yet. A sphere,
 * once shown, is never moved.
 */

/** Radius of a corner sphere, in metres. */
const SPHERE_RADIUS = 0.05;

/**
 * Two walls whose horizontal normals make an angle below this (sine of the
 * angle) are taken as parallel: they never meet. About 2 degrees.
 */
const PARALLEL_SINE = Math.sin(THREE.MathUtils.degToRad(2));

/** A wall counts as vertical when its normal's y is below this (about 10°). */
const VERTICAL_NORMAL_MAX_Y = Math.sin(THREE.MathUtils.degToRad(10));

/**
 * Two corners closer than this (horizontally, in metres) are the same
 * vertical line, e.g. when a wall was detected as two coplanar pieces that
 * both meet the same cross wall.
 */
const SAME_CORNER_DISTANCE = 0.03;

const _normal = new THREE.Vector3();
const _point = new THREE.Vector3();
const _quaternion = new THREE.Quaternion();
const _scale = new THREE.Vector3();

class RoomCorners extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.sphereGeometry = new THREE.SphereGeometry(SPHERE_RADIUS, 24, 16);
    this.sphereMaterial = new THREE.MeshPhongMaterial({
      color: 0xff5533,
      emissive: 0x441100,
    });

    /** Corners already marked: {x, z, mesh}. */
    this.corners = [];
  }

  /**
   * World pose of a detected plane: a point on it and its normal (local +Y).
   * @param {THREE.Object3D} plane
   */
  planePose(plane) {
    plane.updateWorldMatrix(true, false);
    const point = new THREE.Vector3();
    plane.matrixWorld.decompose(point, _quaternion, _scale);
    const normal = new THREE.Vector3(0, 1, 0).applyQuaternion(_quaternion);
    return {point, normal};
  }

  /** The currently detected planes, or an empty list. */
  detectedPlanes() {
    const detector = xb.world?.planes;
    if (!detector || typeof detector.get !== 'function') return [];
    return detector.get() || [];
  }

  update() {
    const planes = this.detectedPlanes();
    if (planes.length === 0) return;

    // The floor: the detected plane labelled 'floor'. If several are
    // reported, take the lowest one.
    let floorY = null;
    const walls = [];
    for (const plane of planes) {
      if (plane.label === 'floor') {
        const {point} = this.planePose(plane);
        if (floorY === null || point.y < floorY) floorY = point.y;
      } else if (plane.label === 'wall') {
        const {point, normal} = this.planePose(plane);
        if (Math.abs(normal.y) > VERTICAL_NORMAL_MAX_Y) continue;
        // Each wall as an unbounded vertical plane: a horizontal unit normal
        // n and offset d, with n.x * x + n.z * z = d.
        _normal.set(normal.x, 0, normal.z);
        if (_normal.lengthSq() < 1e-12) continue;
        _normal.normalize();
        walls.push({
          nx: _normal.x,
          nz: _normal.z,
          d: _normal.x * point.x + _normal.z * point.z,
        });
      }
    }

    // Until a floor has been detected, no corner is shown.
    if (floorY === null) return;

    for (let i = 0; i < walls.length; i++) {
      for (let j = i + 1; j < walls.length; j++) {
        const a = walls[i];
        const b = walls[j];
        const det = a.nx * b.nz - a.nz * b.nx; // sine of the angle between
        if (Math.abs(det) < PARALLEL_SINE) continue; // parallel walls
        const x = (a.d * b.nz - b.d * a.nz) / det;
        const z = (a.nx * b.d - b.nx * a.d) / det;
        if (!Number.isFinite(x) || !Number.isFinite(z)) continue;
        this.markCorner(x, floorY, z);
      }
    }
  }

  /** Adds a sphere at (x, y, z) unless that corner is already marked. */
  markCorner(x, y, z) {
    for (const corner of this.corners) {
      if (Math.hypot(corner.x - x, corner.z - z) < SAME_CORNER_DISTANCE) {
        return; // Already shown: it stays exactly where it is.
      }
    }
    const sphere = new THREE.Mesh(this.sphereGeometry, this.sphereMaterial);
    sphere.name = `room-corner-${this.corners.length + 1}`;
    sphere.position.set(x, y, z);
    sphere.userData.xrblocksDevtools = {tag: 'room-corner'};
    // Added to the scene itself, so that the sphere's world position is the
    // corner, whatever happens to this script's own transform.
    xb.scene.add(sphere);
    sphere.updateMatrixWorld(true);
    this.corners.push({x, z, mesh: sphere});
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.add(new RoomCorners());
  xb.init(options);
});
