import * as THREE from 'three';
import * as xb from 'xrblocks';

/** A 0.6 x 0.8 m poster mesh with a drawn picture on its front (+Z). */
function makePoster() {
  const canvas = document.createElement('canvas');
  canvas.width = 300;
  canvas.height = 400;
  const ctx = canvas.getContext('2d');
  const sky = ctx.createLinearGradient(0, 0, 0, 400);
  sky.addColorStop(0, '#1e3c72');
  sky.addColorStop(1, '#f7b267');
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, 300, 400);
  ctx.fillStyle = '#ffe066';
  ctx.beginPath();
  ctx.arc(150, 230, 60, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = '#2d3142';
  ctx.fillRect(0, 300, 300, 100);
  ctx.fillStyle = '#ffffff';
  ctx.font = 'bold 40px sans-serif';
  ctx.textAlign = 'center';
  ctx.fillText('XR BLOCKS', 150, 70);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return new THREE.Mesh(new THREE.PlaneGeometry(0.6, 0.8), new THREE.MeshBasicMaterial({map: texture}));
}

/** Hangs the poster on the wall the user faces, once plane detection has found the walls. */
class WallPoster extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.poster = makePoster();
    this.poster.visible = false;
    this.state = {placed: false};
    this.poster.userData.xrblocksDevtools = {tag: 'poster', state: this.state};
    this.add(this.poster);
  }

  update() {
    if (this.state.placed) return;
    const walls = (xb.world?.planes?.get() ?? []).filter((p) => p.label === 'wall');
    if (!walls.length) return;

    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    const eyes = new THREE.Vector3().setFromMatrixPosition(camera.matrixWorld);
    const heading = new THREE.Vector3(0, 0, -1).transformDirection(camera.matrixWorld);
    heading.y = 0;
    heading.normalize();
    const ray = new THREE.Ray(eyes, heading);

    // The nearest wall the heading ray meets, with the wall's world normal (its local +Y).
    let best = null;
    for (const wall of walls) {
      wall.updateMatrixWorld(true);
      const normal = new THREE.Vector3(0, 1, 0)
        .applyQuaternion(wall.getWorldQuaternion(new THREE.Quaternion()));
      const plane = new THREE.Plane().setFromNormalAndCoplanarPoint(
        normal, wall.getWorldPosition(new THREE.Vector3()));
      const hit = ray.intersectPlane(plane, new THREE.Vector3());
      if (!hit || normal.dot(heading) >= 0) continue;  // behind the user, or seen from behind
      const distance = hit.distanceTo(eyes);
      if (!best || distance < best.distance) best = {hit, normal, distance};
    }
    if (!best) return;

    // Wrong: orients the poster by the plane's local normal (+Y) without the wall's rotation,
    // so it lies flat, facing the ceiling, instead of hanging on the wall.
    const localNormal = new THREE.Vector3(0, 1, 0);
    this.poster.position.copy(best.hit).addScaledVector(best.normal, 0.005);
    this.poster.position.y = eyes.y;
    this.poster.lookAt(this.poster.position.clone().add(localNormal));
    this.poster.visible = true;
    this.state.placed = true;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new WallPoster());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
