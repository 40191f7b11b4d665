import * as THREE from 'three';
import * as xb from 'xrblocks';

const SEQUENCE = [
  [-0.4, 1.5, -1.5],
  [0.4, 1.7, -1.5],
  [0.0, 1.3, -1.2],
  [0.5, 1.4, -1.3],
  [-0.5, 1.6, -1.3],
];

/** A canvas texture holding one line of centred text; `draw` repaints it. */
class TextTexture {
  constructor(width, height, background) {
    this.canvas = document.createElement('canvas');
    this.canvas.width = width;
    this.canvas.height = height;
    this.background = background;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
  }

  draw(text) {
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = this.background;
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    ctx.fillStyle = '#ffffff';
    ctx.font = `bold ${Math.round(this.canvas.height * 0.5)}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, this.canvas.width / 2, this.canvas.height / 2);
    this.texture.needsUpdate = true;
  }
}

/** The start button: selecting it (re)starts the game. */
class StartButton extends xb.Script {
  constructor(game) {
    super();
    this.game = game;
  }

  init() {
    const label = new TextTexture(256, 128, '#2e7d32');
    label.draw('Start');
    const white = new THREE.MeshStandardMaterial({color: 0x2e7d32});
    this.mesh = new THREE.Mesh(
      new THREE.BoxGeometry(0.2, 0.1, 0.04),
      [white, white, white, white, new THREE.MeshBasicMaterial({map: label.texture}), white]);
    this.mesh.position.set(0, 1.1, -0.7);
    this.mesh.userData.xrblocksDevtools = {tag: 'start-button', state: {}};
    this.add(this.mesh);
  }

  onObjectSelectStart() {
    this.game.start();
  }
}

/** The target: selecting it scores a point. */
class Target extends xb.Script {
  constructor(game) {
    super();
    this.game = game;
  }

  init() {
    this.mesh = new THREE.Mesh(
      new THREE.SphereGeometry(0.1, 32, 16),
      new THREE.MeshStandardMaterial({color: 0xff7043, emissive: 0x331100}));
    this.mesh.userData.xrblocksDevtools = {tag: 'whack-target', state: {}};
    this.mesh.visible = false;
    this.add(this.mesh);
  }

  moveTo(index) {
    // Wrong: a new target for every position; the ones already hit stay in the scene.
    if (this.mesh.visible) {
      this.mesh = this.mesh.clone();
      this.add(this.mesh);
    }
    this.mesh.position.fromArray(SEQUENCE[index]);
    this.mesh.visible = true;
  }

  onObjectSelectStart() {
    this.game.hit();
  }
}

/** Game state and the score panel. */
class Game extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.text = new TextTexture(512, 200, '#1a237e');
    this.panel = new THREE.Mesh(
      new THREE.PlaneGeometry(0.5, 0.2),
      new THREE.MeshBasicMaterial({map: this.text.texture}));
    this.panel.position.set(0, 2.0, -2.0);
    this.panel.lookAt(0, 1.5, 0);
    this.state = {score: 0, running: false};
    this.panel.userData.xrblocksDevtools = {tag: 'score-panel', state: this.state};
    this.add(this.panel);
    this.index = 0;
    this.render();
  }

  render() {
    this.text.draw(`Score: ${this.state.score}`);
  }

  start() {
    this.state.running = true;
    this.state.score = 0;
    this.index = 0;
    this.target.moveTo(this.index);
    this.render();
  }

  hit() {
    if (!this.state.running) return;
    this.state.score += 1;
    this.index = (this.index + 1) % SEQUENCE.length;
    this.target.moveTo(this.index);
    this.render();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const game = new Game();
  game.target = new Target(game);
  xb.add(game);
  xb.add(new StartButton(game));
  xb.add(game.target);
  xb.init(new xb.Options());
});
