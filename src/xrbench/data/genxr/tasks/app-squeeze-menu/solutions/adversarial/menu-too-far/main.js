import * as THREE from 'three';
import * as xb from 'xrblocks';

const AHEAD = 2.0;  // Wrong: 2 m away, out of reach (the panel is scaled up to stay readable)
const BELOW = 0.2;   // metres under eye height

/** A square canvas texture with a centred label. */
function labelTexture(text, background) {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 128;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, 128, 128);
  ctx.fillStyle = '#ffffff';
  ctx.font = 'bold 80px sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, 64, 68);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

/** The head's position and level heading in world coordinates. */
function headPose() {
  const camera = xb.core.camera;
  camera.updateMatrixWorld(true);
  const position = new THREE.Vector3().setFromMatrixPosition(camera.matrixWorld);
  const heading = new THREE.Vector3(0, 0, -1).transformDirection(camera.matrixWorld);
  heading.y = 0;
  if (heading.lengthSq() < 1e-8) heading.set(0, 0, -1);
  return {position, heading: heading.normalize()};
}

/**
 * A push button: its own script, so that XR Blocks' direct touch (which tests each script's
 * bounds) and ray selection both report it, not the panel behind it.
 */
class PushButton extends xb.Script {
  constructor(label, color, onPress) {
    super();
    this.label = label;
    this.onPress = onPress;
    this.mesh = new THREE.Mesh(
      new THREE.BoxGeometry(0.07, 0.07, 0.02),
      new THREE.MeshStandardMaterial({map: labelTexture(label, color)}));
    this.mesh.userData.xrblocksDevtools = {tag: `menu-button-${label.toLowerCase()}`, state: {}};
    this.add(this.mesh);
  }

  onObjectSelectStart() {
    this.onPress(this.label);
  }

  onObjectTouchStart() {
    this.onPress(this.label);
  }
}

/** A two-button menu that a fist (either hand) opens in front of the user and closes again. */
class FistMenu extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.panel = new THREE.Mesh(
      new THREE.BoxGeometry(0.3, 0.2, 0.01),
      new THREE.MeshStandardMaterial({color: 0x263238}));
    this.state = {open: false, choice: null};
    this.panel.userData.xrblocksDevtools = {tag: 'gesture-menu', state: this.state};
    this.panel.visible = false;
    this.panel.scale.setScalar(3);
    this.add(this.panel);

    for (const [label, x, color] of [['A', -0.07, '#1e88e5'], ['B', 0.07, '#e53935']]) {
      const button = new PushButton(label, color, (chosen) => this.press(chosen));
      button.position.set(x, 0, 0.015);  // on the front (+Z) of the panel
      this.panel.add(button);
    }

    xb.core.gestureRecognition?.addEventListener('gesturestart', (event) => {
      if (event.detail?.name === 'fist') this.toggle();
    });
  }

  toggle() {
    this.state.open = !this.state.open;
    if (this.state.open) {
      const {position, heading} = headPose();
      this.panel.position.copy(position).addScaledVector(heading, AHEAD);
      this.panel.position.y -= BELOW;
      // Face the head, but stay upright: look at a point level with the panel.
      this.panel.lookAt(position.x, this.panel.position.y, position.z);
    }
    this.panel.visible = this.state.open;
  }

  press(label) {
    if (this.state.open) this.state.choice = label;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new FistMenu());
  const options = new xb.Options();
  options.enableHands();
  options.enableGestures();
  xb.init(options);
});
