import * as THREE from 'three';
import * as xb from 'xrblocks';

/** A canvas texture that shows `text` centred on a dark background. */
class Label {
  constructor(width, height) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = width;
    this.canvas.height = height;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
  }

  draw(text, {background = '#1f2a36', color = '#ffffff', size = 120} = {}) {
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.fillStyle = color;
    ctx.font = `bold ${size}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, this.canvas.width / 2, this.canvas.height / 2);
    this.texture.needsUpdate = true;
  }
}

/**
 * A 0.4 x 0.3 m panel 0.8 m in front of the user at eye height: a counter on top and a "+1"
 * button below it. Selecting the button (either hand) adds one.
 */
class CounterPanel extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.label = new Label(512, 384);
    this.panel = new THREE.Mesh(
      new THREE.PlaneGeometry(0.4, 0.3),
      new THREE.MeshBasicMaterial({map: this.label.texture}));
    // Wrong: +Z is behind the user at the start (XR Blocks looks down -Z); turned to face them.
    this.panel.position.set(0, xb.user.height, 0.8);
    this.panel.rotation.y = Math.PI;
    this.state = {count: 0};
    this.panel.userData.xrblocksDevtools = {tag: 'counter-panel', state: this.state};
    this.add(this.panel);

    const buttonLabel = new Label(256, 256);
    buttonLabel.draw('+1', {background: '#1e88e5', size: 140});
    this.button = new THREE.Mesh(
      new THREE.BoxGeometry(0.12, 0.08, 0.02),
      new THREE.MeshBasicMaterial({map: buttonLabel.texture}));
    this.button.position.set(0, -0.08, 0.01);  // lower half of the panel, just in front of it
    this.button.userData.xrblocksDevtools = {tag: 'plus-button', state: {}};
    this.panel.add(this.button);

    this.render();
  }

  render() {
    // The count in the upper half of the panel (the button covers the lower half).
    const ctx = this.label.canvas.getContext('2d');
    this.label.draw('', {});
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 140px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(String(this.state.count), 256, 110);
    this.label.texture.needsUpdate = true;
  }

  onObjectSelectStart(event) {
    // The panel and the button share this script: count only hits on the button.
    if (event.surface !== this.button) return;
    this.state.count += 1;
    this.render();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new CounterPanel());
  xb.init(new xb.Options());
});
