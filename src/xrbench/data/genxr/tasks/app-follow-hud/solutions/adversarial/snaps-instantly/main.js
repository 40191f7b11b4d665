import * as THREE from 'three';
import * as xb from 'xrblocks';

const AHEAD = 0.6;   // metres in front of the eyes
const BELOW = 0.15;  // metres under eye height
const RATE = 8;      // 1/s: exponential smoothing rate

/** A HUD panel that eases towards a point in front of and below the eyes and faces the user. */
class FollowHud extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const canvas = document.createElement('canvas');
    canvas.width = 256;
    canvas.height = 128;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#102030';
    ctx.fillRect(0, 0, 256, 128);
    ctx.fillStyle = '#7fdbff';
    ctx.font = 'bold 64px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('HUD', 128, 64);
    const texture = new THREE.CanvasTexture(canvas);
    texture.colorSpace = THREE.SRGBColorSpace;

    this.hud = new THREE.Mesh(
      new THREE.PlaneGeometry(0.3, 0.15),
      new THREE.MeshBasicMaterial({map: texture}));
    this.hud.userData.xrblocksDevtools = {tag: 'hud', state: {}};
    this.add(this.hud);

    this.head = new THREE.Vector3();
    this.heading = new THREE.Vector3();
    this.goal = new THREE.Vector3();
    this.placed = false;
  }

  update() {
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    this.head.setFromMatrixPosition(camera.matrixWorld);
    this.heading.set(0, 0, -1).transformDirection(camera.matrixWorld);
    this.heading.y = 0;
    if (this.heading.lengthSq() < 1e-8) this.heading.set(0, 0, -1);
    this.heading.normalize();
    this.goal.copy(this.head).addScaledVector(this.heading, AHEAD);
    this.goal.y -= BELOW;

    // Frame-rate independent easing; the first frame places the HUD outright.
    // Wrong: no easing; the HUD is glued to the head and jumps with every motion.
    const alpha = 1;
    this.placed = true;
    this.hud.position.lerp(this.goal, alpha);
    this.hud.lookAt(this.head);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new FollowHud());
  xb.init(new xb.Options());
});
