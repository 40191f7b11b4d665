import * as THREE from 'three';
import * as xb from 'xrblocks';

const WIDTH = 0.6;
const HEIGHT = 0.8;
const STANDOFF = 0.012;  // the picture's distance from the wall; the frame fills the gap behind it

/** A canvas with a title and a few shapes: the poster's picture. */
function drawPicture() {
  const canvas = document.createElement('canvas');
  canvas.width = 384;
  canvas.height = 512;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#f4efe6';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const colours = ['#e63946', '#457b9d', '#2a9d8f', '#e9c46a'];
  colours.forEach((colour, i) => {
    ctx.fillStyle = colour;
    ctx.fillRect(40 + i * 80, 120 + (i % 2) * 60, 64, 220);
  });
  ctx.fillStyle = '#1d3557';
  ctx.font = 'bold 44px sans-serif';
  ctx.textAlign = 'center';
  ctx.fillText('SPATIAL', canvas.width / 2, 70);
  ctx.font = '28px sans-serif';
  ctx.fillText('exhibition 2026', canvas.width / 2, 460);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

/** The poster: a picture plane (front +Z) with a thin frame behind it, as its child. */
function makePoster() {
  const poster = new THREE.Mesh(
    new THREE.PlaneGeometry(WIDTH, HEIGHT),
    new THREE.MeshStandardMaterial({map: drawPicture(), roughness: 0.8}));
  const frame = new THREE.Mesh(
    new THREE.BoxGeometry(WIDTH + 0.02, HEIGHT + 0.02, STANDOFF - 0.002),
    new THREE.MeshStandardMaterial({color: 0x222222}));
  frame.position.z = -(STANDOFF - 0.002) / 2 - 0.001;
  poster.add(frame);
  return poster;
}

class PosterApp extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x888888, 2.5));
    this.poster = makePoster();
    this.poster.visible = false;
    this.poster.userData.xrblocksDevtools = {tag: 'poster', state: {placed: false}};
    this.add(this.poster);
  }

  /**
   * The wall ahead: for each detected wall, the ray from the eyes along the horizontal view
   * direction is taken into the wall's own frame, where the wall is the plane y = 0 and the room
   * is y > 0. Returns {wall, hit (world), distance} of the closest wall the ray reaches.
   */
  wallAhead(eyes, heading) {
    let best = null;
    for (const wall of xb.world.planes.get('wall')) {
      wall.updateMatrixWorld(true);
      const inverse = wall.matrixWorld.clone().invert();
      const origin = eyes.clone().applyMatrix4(inverse);
      const direction = heading.clone().transformDirection(inverse);
      if (origin.y <= 0 || direction.y >= -1e-6) continue;  // behind the wall, or not towards it
      const t = -origin.y / direction.y;
      const local = origin.clone().addScaledVector(direction, t);
      const hit = local.applyMatrix4(wall.matrixWorld);
      const distance = hit.distanceTo(eyes);
      if (!best || distance < best.distance) best = {wall, hit, distance};
    }
    return best;
  }

  update() {
    const state = this.poster.userData.xrblocksDevtools.state;
    if (state.placed || !xb.world.planes) return;
    const camera = xb.core.camera;
    const eyes = camera.getWorldPosition(new THREE.Vector3());
    const heading = camera.getWorldDirection(new THREE.Vector3()).setY(0);
    if (heading.lengthSq() < 1e-8) return;  // looking straight up or down: wait for a heading
    heading.normalize();
    const ahead = this.wallAhead(eyes, heading);
    if (!ahead) return;

    const normal = new THREE.Vector3(0, 1, 0).applyQuaternion(
      ahead.wall.getWorldQuaternion(new THREE.Quaternion())).normalize();
    const up = new THREE.Vector3(0, 1, 0);
    const right = new THREE.Vector3().crossVectors(up, normal).normalize();
    this.poster.quaternion.setFromRotationMatrix(new THREE.Matrix4().makeBasis(right, up, normal));
    this.poster.position.copy(ahead.hit).addScaledVector(normal, STANDOFF);
    this.poster.position.y = eyes.y;
    this.poster.visible = true;
    state.placed = true;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.add(new PosterApp());
  xb.init(options);
});
