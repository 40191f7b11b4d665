import * as THREE from 'three';
import * as xb from 'xrblocks';

const WIDTH = 0.4;
const HEIGHT = 0.3;

/**
 * A counter panel 0.75 m ahead, a little below the eyes and tilted back 10 degrees towards the
 * user. The number is drawn on the left of the panel's face; the "+1" button is a round cylinder
 * on the right. A selection of the button counts when it is released with the ray still on it.
 */
class CounterApp extends xb.Script {
  init() {
    this.add(new THREE.AmbientLight(0xffffff, 1.0));

    this.count = 0;
    this.canvas = document.createElement('canvas');
    this.canvas.width = 400;
    this.canvas.height = 300;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;

    // A thin box: its front face (+Z) carries the number.
    const faces = new THREE.MeshBasicMaterial({color: 0x263238});
    const front = new THREE.MeshBasicMaterial({map: this.texture});
    this.panel = new THREE.Mesh(new THREE.BoxGeometry(WIDTH, HEIGHT, 0.01),
                                [faces, faces, faces, faces, front, faces]);
    this.panel.position.set(0, xb.user.height - 0.1, -0.75);
    this.panel.rotation.x = -THREE.MathUtils.degToRad(10);
    this.panel.userData.xrblocksDevtools = {tag: 'counter-panel', state: {count: 0}};
    this.add(this.panel);

    // The "+1" button: a cylinder turned so that its round face looks at the user.
    const label = document.createElement('canvas');
    label.width = label.height = 128;
    const ctx = label.getContext('2d');
    ctx.fillStyle = '#43a047';
    ctx.fillRect(0, 0, 128, 128);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 64px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('+1', 64, 64);
    const labelTexture = new THREE.CanvasTexture(label);
    labelTexture.colorSpace = THREE.SRGBColorSpace;
    const side = new THREE.MeshBasicMaterial({color: 0x2e7d32});
    const top = new THREE.MeshBasicMaterial({map: labelTexture});
    this.button = new THREE.Mesh(new THREE.CylinderGeometry(0.06, 0.06, 0.03, 32), [side, top, side]);
    this.button.rotation.x = Math.PI / 2;  // the cylinder's top (+Y) now faces the panel's front (+Z)
    this.button.position.set(0.1, 0, 0.02);
    this.button.userData.xrblocksDevtools = {tag: 'plus-button', state: {}};
    this.panel.add(this.button);

    this.draw();
  }

  draw() {
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = '#263238';
    ctx.fillRect(0, 0, 400, 300);
    ctx.fillStyle = '#ffeb3b';
    ctx.font = 'bold 110px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(String(this.count), 110, 150);
    this.texture.needsUpdate = true;
    this.panel.userData.xrblocksDevtools.state.count = this.count;
  }

  onObjectSelectEnd(event) {
    // Only a completed click on the button counts (released while still pointing at it).
    if (event.surface !== this.button || event.completed === false) return;
    this.count += 1;
    this.draw();
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new CounterApp());
  xb.init(new xb.Options());
});
