import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A poster on the wall: waits for XR Blocks' plane detection to report the
 * wall in front of the user (the first wall hit by a horizontal ray from the
 * user's eyes along the direction they face), then hangs a 0.6 m x 0.8 m
 * poster flat on that wall, centred where the ray meets it, once.
 */

const POSTER_WIDTH = 0.6; // metres
const POSTER_HEIGHT = 0.8;
// Gap between the wall surface and the poster, to avoid z-fighting.
const WALL_GAP = 0.004;

/** Draws the poster's picture on a canvas: a small landscape with a title. */
function createPosterTexture() {
  const canvas = document.createElement('canvas');
  canvas.width = 600;
  canvas.height = 800;
  const ctx = canvas.getContext('2d');

  // Paper and frame.
  ctx.fillStyle = '#f4ecd8';
  ctx.fillRect(0, 0, 600, 800);
  ctx.strokeStyle = '#3b2f2a';
  ctx.lineWidth = 24;
  ctx.strokeRect(12, 12, 576, 776);

  // Sky with a sun.
  const sky = ctx.createLinearGradient(0, 60, 0, 520);
  sky.addColorStop(0, '#3a7bd5');
  sky.addColorStop(1, '#f9d29d');
  ctx.fillStyle = sky;
  ctx.fillRect(50, 60, 500, 460);
  ctx.fillStyle = '#ffd23f';
  ctx.beginPath();
  ctx.arc(410, 200, 60, 0, Math.PI * 2);
  ctx.fill();

  // Mountains.
  ctx.fillStyle = '#4a5d7e';
  ctx.beginPath();
  ctx.moveTo(50, 520);
  ctx.lineTo(210, 270);
  ctx.lineTo(330, 420);
  ctx.lineTo(430, 330);
  ctx.lineTo(550, 470);
  ctx.lineTo(550, 520);
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = '#2e7d32';
  ctx.fillRect(50, 470, 500, 50);

  // Title.
  ctx.fillStyle = '#3b2f2a';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = 'bold 64px sans-serif';
  ctx.fillText('XR Blocks', 300, 610);
  ctx.font = '36px sans-serif';
  ctx.fillText('Hello, wall!', 300, 700);

  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

/** The plane's boundary in its local (x, z) coordinates, if known. */
function localPolygon(plane) {
  if (plane.simulatorPlane?.polygon?.length) {
    return plane.simulatorPlane.polygon.map((p) => new THREE.Vector2(p.x, p.y));
  }
  if (plane.xrPlane?.polygon?.length) {
    return plane.xrPlane.polygon.map((p) => new THREE.Vector2(p.x, p.z));
  }
  return null;
}

function pointInPolygon(point, polygon) {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i];
    const b = polygon[j];
    if (
      a.y > point.y !== b.y > point.y &&
      point.x < ((b.x - a.x) * (point.y - a.y)) / (b.y - a.y) + a.x
    ) {
      inside = !inside;
    }
  }
  return inside;
}

/** Distance from a point to the polygon's boundary (for edge tolerance). */
function distanceToPolygonEdge(point, polygon) {
  let best = Infinity;
  const ab = new THREE.Vector2();
  const ap = new THREE.Vector2();
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[j];
    const b = polygon[i];
    ab.subVectors(b, a);
    ap.subVectors(point, a);
    const t = THREE.MathUtils.clamp(ap.dot(ab) / Math.max(ab.lengthSq(), 1e-12), 0, 1);
    best = Math.min(best, ap.sub(ab.multiplyScalar(t)).length());
  }
  return best;
}

/** Whether a world point on the plane lies within the plane's extent. */
function planeContains(plane, worldPoint) {
  const local = plane.worldToLocal(worldPoint.clone());
  const point = new THREE.Vector2(local.x, local.z);
  const polygon = localPolygon(plane);
  if (polygon && polygon.length >= 3) {
    return (
      pointInPolygon(point, polygon) ||
      distanceToPolygonEdge(point, polygon) < 0.005
    );
  }
  // Fall back to the plane mesh's geometry bounds.
  const geometry = plane.geometry;
  if (!geometry) return false;
  if (!geometry.boundingBox) geometry.computeBoundingBox();
  const box = geometry.boundingBox;
  return (
    local.x >= box.min.x - 0.005 &&
    local.x <= box.max.x + 0.005 &&
    local.z >= box.min.z - 0.005 &&
    local.z <= box.max.z + 0.005
  );
}

class WallPosterScene extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const geometry = new THREE.PlaneGeometry(POSTER_WIDTH, POSTER_HEIGHT);
    const material = new THREE.MeshBasicMaterial({map: createPosterTexture()});
    this.poster = new THREE.Mesh(geometry, material);
    this.poster.name = 'poster';
    this.poster.userData.xrblocksDevtools = {
      tag: 'poster',
      state: {placed: false},
    };
    this.poster.visible = false; // hidden until it hangs on the wall
    this.add(this.poster);
    this.placed = false;
  }

  update() {
    if (this.placed) return;
    const planes = xb.world?.planes;
    if (!planes) return;
    const walls = planes
      .get()
      .filter((plane) => (plane.label || '').toLowerCase() === 'wall');
    if (walls.length === 0) return;

    const hit = this.findWallInFront(walls);
    if (hit) this.hangPoster(hit);
  }

  /**
   * Casts a horizontal ray from the user's eyes along the direction they face
   * (the view direction without its up/down tilt) and returns the first wall
   * it hits: {point, normal} with the normal pointing towards the user.
   */
  findWallInFront(walls) {
    const camera = xb.core.camera;
    camera.updateWorldMatrix(true, false);
    const eye = camera.getWorldPosition(new THREE.Vector3());
    const quaternion = camera.getWorldQuaternion(new THREE.Quaternion());

    const direction = new THREE.Vector3(0, 0, -1).applyQuaternion(quaternion);
    direction.y = 0;
    if (direction.lengthSq() < 1e-6) {
      // Looking straight up or down: take the heading from the head's yaw.
      const euler = new THREE.Euler().setFromQuaternion(quaternion, 'YXZ');
      direction.set(-Math.sin(euler.y), 0, -Math.cos(euler.y));
    }
    direction.normalize();

    let best = null;
    const normal = new THREE.Vector3();
    const origin = new THREE.Vector3();
    const wallQuaternion = new THREE.Quaternion();
    for (const wall of walls) {
      wall.updateWorldMatrix(true, false);
      wall.getWorldPosition(origin);
      wall.getWorldQuaternion(wallQuaternion);
      normal.set(0, 1, 0).applyQuaternion(wallQuaternion).normalize();
      const denominator = direction.dot(normal);
      if (Math.abs(denominator) < 1e-6) continue; // ray parallel to the wall
      const t = origin.clone().sub(eye).dot(normal) / denominator;
      if (!(t > 0)) continue;
      if (best && t >= best.t) continue;
      const point = eye.clone().addScaledVector(direction, t);
      if (!planeContains(wall, point)) continue;
      // The poster's front faces into the room: along the wall's normal
      // (towards the user, who stands in the room).
      const front = normal.clone();
      if (denominator > 0) front.negate();
      best = {t, point, normal: front, wall};
    }
    return best;
  }

  hangPoster({point, normal}) {
    // Front (+Z) along the wall's normal, kept horizontal; up is world up.
    const front = new THREE.Vector3(normal.x, 0, normal.z);
    if (front.lengthSq() < 1e-9) return; // not a vertical wall
    front.normalize();
    const up = new THREE.Vector3(0, 1, 0);
    const right = new THREE.Vector3().crossVectors(up, front).normalize();
    const rotation = new THREE.Matrix4().makeBasis(right, up, front);

    const worldPosition = point.clone().addScaledVector(normal, WALL_GAP);
    const worldQuaternion = new THREE.Quaternion().setFromRotationMatrix(
      rotation
    );

    // Convert the world pose into this script's frame (normally identity).
    this.updateWorldMatrix(true, false);
    const parentQuaternion = this.getWorldQuaternion(new THREE.Quaternion());
    this.poster.position.copy(this.worldToLocal(worldPosition));
    this.poster.quaternion.copy(parentQuaternion.invert().multiply(worldQuaternion));
    this.poster.visible = true;
    this.poster.updateMatrixWorld(true);

    this.placed = true;
    this.poster.userData.xrblocksDevtools.state.placed = true;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.add(new WallPosterScene());
  xb.init(options);
});
