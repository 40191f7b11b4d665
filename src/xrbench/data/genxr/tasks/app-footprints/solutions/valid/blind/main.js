import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Footprints: as the user walks around the room, a trail of footprints is left on the real
 * floor behind them. The floor is the largest horizontal plane labelled `floor` that XR Blocks'
 * plane detection reports; nothing but a light is added until it is found.
 */

const STEP_LENGTH = 0.5; // metres between footprints, measured horizontally
const MAX_FOOTPRINTS = 12;
const LIFT = 0.004; // how far above the floor the flat mark lies, in metres

// One shared shoe-print outline: a sole and a heel, drawn in the XY plane with the toe
// towards +y, then laid flat so that the toe points along the footprint's local -z.
// Overall 0.275 m long, 0.11 m wide, centred on the footprint's origin.
function ellipse(cx, cy, rx, ry, segments = 32) {
  const shape = new THREE.Shape();
  shape.absellipse(cx, cy, rx, ry, 0, Math.PI * 2, false, 0);
  return shape;
}

function createFootprintGeometry() {
  const sole = ellipse(0, 0.055, 0.055, 0.085);
  const heel = ellipse(0, -0.09, 0.042, 0.045);
  const geometry = new THREE.ShapeGeometry([sole, heel], 24);
  geometry.rotateX(-Math.PI / 2); // shape +y -> world -z (forward), normal -> +y (up)
  geometry.computeBoundingBox();
  geometry.computeBoundingSphere();
  return geometry;
}

function planeArea(plane) {
  if (plane.simulatorPlane && Number.isFinite(plane.simulatorPlane.area)) {
    return plane.simulatorPlane.area;
  }
  const polygon = plane.xrPlane?.polygon;
  if (polygon && polygon.length >= 3) {
    let sum = 0;
    for (let i = 0; i < polygon.length; i++) {
      const a = polygon[i];
      const b = polygon[(i + 1) % polygon.length];
      sum += a.x * b.z - b.x * a.z;
    }
    return Math.abs(sum) / 2;
  }
  if (plane.geometry) {
    if (!plane.geometry.boundingBox) plane.geometry.computeBoundingBox();
    const size = plane.geometry.boundingBox.getSize(new THREE.Vector3());
    return size.x * size.z;
  }
  return 0;
}

class Footprints extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.footprintGeometry = createFootprintGeometry();
    this.footprintMaterial = new THREE.MeshBasicMaterial({
      color: 0x5d4037,
      side: THREE.DoubleSide,
      transparent: true,
      opacity: 0.85,
      polygonOffset: true,
      polygonOffsetFactor: -2,
      polygonOffsetUnits: -2,
    });

    /** Footprints, oldest first. */
    this.footprints = [];
    this.headPosition = new THREE.Vector3();
    this.headQuaternion = new THREE.Quaternion();
    this.headEuler = new THREE.Euler();
    this.planePosition = new THREE.Vector3();
  }

  /** The detected floor: the largest horizontal plane labelled `floor`, or null. */
  findFloor() {
    const planes = xb.world?.planes;
    if (!planes) return null;
    let best = null;
    let bestArea = -Infinity;
    for (const plane of planes.get()) {
      if (!plane || String(plane.label ?? '').toLowerCase() !== 'floor') continue;
      const orientation = String(plane.orientation ?? 'horizontal').toLowerCase();
      if (orientation !== 'horizontal') continue;
      const area = planeArea(plane);
      if (area > bestArea) {
        best = plane;
        bestArea = area;
      }
    }
    return best;
  }

  update() {
    const floor = this.findFloor();
    if (!floor) return;
    floor.updateWorldMatrix(true, false);
    const floorY = floor.getWorldPosition(this.planePosition).y;

    const camera = xb.core.camera;
    camera.updateWorldMatrix(true, false);
    camera.getWorldPosition(this.headPosition);
    const x = this.headPosition.x;
    const z = this.headPosition.z;

    const newest = this.footprints[this.footprints.length - 1];
    if (!newest) {
      // First footprint: under the user, along the horizontal direction they face.
      camera.getWorldQuaternion(this.headQuaternion);
      this.headEuler.setFromQuaternion(this.headQuaternion, 'YXZ');
      this.placeFootprint(x, floorY, z, this.headEuler.y);
      return;
    }

    const dx = x - newest.position.x;
    const dz = z - newest.position.z;
    if (Math.hypot(dx, dz) >= STEP_LENGTH) {
      // Pointing along the step from the previous footprint to this one.
      this.placeFootprint(x, floorY, z, Math.atan2(-dx, -dz));
    }
  }

  /** Adds a footprint centred at (x, z) on the floor, its toe turned by `yaw` about +y. */
  placeFootprint(x, floorY, z, yaw) {
    const footprint = new THREE.Group();
    footprint.name = `footprint-${this.footprintCount ?? 0}`;
    this.footprintCount = (this.footprintCount ?? 0) + 1;
    footprint.position.set(x, floorY, z);
    footprint.rotation.set(0, yaw, 0);
    footprint.userData.xrblocksDevtools = {tag: 'footprint', state: {}};

    const mark = new THREE.Mesh(this.footprintGeometry, this.footprintMaterial);
    mark.position.y = LIFT;
    mark.renderOrder = 1;
    footprint.add(mark);

    this.add(footprint);
    this.footprints.push(footprint);

    while (this.footprints.length > MAX_FOOTPRINTS) {
      const oldest = this.footprints.shift();
      oldest.removeFromParent();
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Footprints());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
