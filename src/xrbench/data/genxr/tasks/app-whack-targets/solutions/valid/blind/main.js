import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Whack the targets: a small XR Blocks game.
 *
 * - A "Start" button (box) starts or restarts a game.
 * - A score panel shows "Score: N" on a canvas texture.
 * - One target sphere jumps through a fixed sequence of positions; each
 *   selection of it scores one point.
 *
 * Selections come from XR Blocks' interaction system: for every ray source
 * (tracked hands, controllers, the desktop simulator's mouse) it raycasts the
 * scene each frame and reports, once per press, the nearest surface the ray
 * hits in `onSelectStart(event)` (`event.surface`). A press counts where it
 * starts, so holding it (however long) never scores again, and each hand or
 * controller has its own press, independent of the other.
 */

// All positions in world coordinates (metres, y up).
const START_BUTTON_POSITION = new THREE.Vector3(0, 1.1, -0.7);
const START_BUTTON_SIZE = {width: 0.2, height: 0.1, depth: 0.04};

const SCORE_PANEL_POSITION = new THREE.Vector3(0, 2.0, -2.0);
const SCORE_PANEL_SIZE = {width: 0.5, height: 0.2};
// Where the user's head is at the start (origin, eyes 1.5 m above the floor).
const USER_HEAD_POSITION = new THREE.Vector3(0, 1.5, 0);

const TARGET_RADIUS = 0.1;
const TARGET_SEQUENCE = [
  new THREE.Vector3(-0.4, 1.5, -1.5),
  new THREE.Vector3(0.4, 1.7, -1.5),
  new THREE.Vector3(0.0, 1.3, -1.2),
  new THREE.Vector3(0.5, 1.4, -1.3),
  new THREE.Vector3(-0.5, 1.6, -1.3),
];

/** Returns true when `object` is `ancestor` or one of its descendants. */
function isWithin(object, ancestor) {
  for (let current = object; current; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}

/** Makes a canvas texture with one centred line of text. */
function makeLabelCanvas(widthPx, heightPx) {
  const canvas = document.createElement('canvas');
  canvas.width = widthPx;
  canvas.height = heightPx;
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.anisotropy = 4;
  return {canvas, texture};
}

function drawCenteredText(canvas, text, {background, color, border}) {
  const ctx = canvas.getContext('2d');
  const w = canvas.width;
  const h = canvas.height;
  ctx.clearRect(0, 0, w, h);
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, w, h);
  if (border) {
    const lw = Math.max(2, Math.round(h * 0.04));
    ctx.strokeStyle = border;
    ctx.lineWidth = lw;
    ctx.strokeRect(lw / 2, lw / 2, w - lw, h - lw);
  }
  // Largest font that keeps the whole text inside the canvas.
  let fontSize = Math.floor(h * 0.62);
  const maxWidth = w * 0.86;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (;;) {
    ctx.font = `bold ${fontSize}px sans-serif`;
    if (ctx.measureText(text).width <= maxWidth || fontSize <= 8) break;
    fontSize -= 2;
  }
  ctx.fillStyle = color;
  ctx.fillText(text, w / 2, h / 2);
}

class WhackTargetsGame extends xb.Script {
  init() {
    this.score = 0;
    this.running = false;
    this.targetIndex = 0;

    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.createStartButton();
    this.createScorePanel();
    this.createTarget();
    this.updateScorePanel();
  }

  createStartButton() {
    const {width, height, depth} = START_BUTTON_SIZE;
    const button = new THREE.Mesh(
      new THREE.BoxGeometry(width, height, depth),
      new THREE.MeshPhongMaterial({color: 0x2e7d32})
    );
    button.name = 'StartButton';
    button.position.copy(START_BUTTON_POSITION);
    button.userData.xrblocksDevtools = {tag: 'start-button', state: {}};

    // The "Start" label lies on the front face (+Z, towards the user), flush
    // with it (polygon offset instead of a gap, so the box keeps its size).
    const {canvas, texture} = makeLabelCanvas(256, 128);
    drawCenteredText(canvas, 'Start', {
      background: '#2e7d32',
      color: '#ffffff',
      border: '#a5d6a7',
    });
    const label = new THREE.Mesh(
      new THREE.PlaneGeometry(width, height),
      new THREE.MeshBasicMaterial({
        map: texture,
        polygonOffset: true,
        polygonOffsetFactor: -1,
        polygonOffsetUnits: -4,
      })
    );
    label.name = 'StartButtonLabel';
    label.position.set(0, 0, depth / 2);
    button.add(label);

    this.startButton = button;
    this.add(button);
  }

  createScorePanel() {
    const {width, height} = SCORE_PANEL_SIZE;
    const {canvas, texture} = makeLabelCanvas(1024, 410);
    this.scoreCanvas = canvas;
    this.scoreTexture = texture;
    const panel = new THREE.Mesh(
      new THREE.PlaneGeometry(width, height),
      new THREE.MeshBasicMaterial({map: texture, side: THREE.DoubleSide})
    );
    panel.name = 'ScorePanel';
    panel.position.copy(SCORE_PANEL_POSITION);
    // Front (+Z, the side with the text) towards the user. The panel hangs
    // above eye level, so it is tilted down towards the user's head, but only
    // half-way (about 7 degrees off the exact direction): it stays nearly
    // upright and flat in world space while still facing the user.
    const toHead = USER_HEAD_POSITION.clone().sub(SCORE_PANEL_POSITION);
    const tiltToHead = Math.atan2(-toHead.y, toHead.z);
    panel.rotation.set(tiltToHead / 2, 0, 0);
    panel.userData.xrblocksDevtools = {
      tag: 'score-panel',
      state: {score: 0, running: false},
    };
    this.scorePanel = panel;
    this.add(panel);
  }

  createTarget() {
    const target = new THREE.Mesh(
      new THREE.SphereGeometry(TARGET_RADIUS, 48, 24),
      new THREE.MeshPhongMaterial({color: 0xe53935, emissive: 0x330000})
    );
    target.name = 'WhackTarget';
    target.visible = false; // Not shown before the first game.
    target.position.copy(TARGET_SEQUENCE[0]);
    target.userData.xrblocksDevtools = {tag: 'whack-target', state: {}};
    this.target = target;
    this.add(target);
  }

  updateScorePanel() {
    drawCenteredText(this.scoreCanvas, `Score: ${this.score}`, {
      background: '#102030',
      color: '#ffffff',
      border: '#4fc3f7',
    });
    this.scoreTexture.needsUpdate = true;
    this.scorePanel.userData.xrblocksDevtools.state = {
      score: this.score,
      running: this.running,
    };
  }

  placeTarget(index) {
    this.targetIndex = index % TARGET_SEQUENCE.length;
    // Jump at once (no animation) and refresh the world matrix right away,
    // so a ray cast before the next render already sees the new position.
    this.target.position.copy(TARGET_SEQUENCE[this.targetIndex]);
    this.target.updateMatrixWorld(true);
    this.target.userData.xrblocksDevtools.state = {
      index: this.targetIndex,
    };
  }

  startGame() {
    this.score = 0;
    this.running = true;
    this.placeTarget(0);
    this.target.visible = true;
    this.updateScorePanel();
  }

  hitTarget() {
    this.score += 1;
    this.placeTarget(this.targetIndex + 1);
    this.updateScorePanel();
  }

  /**
   * Called once when a press (pinch, trigger or simulator click) begins, for
   * each hand / controller separately. `event.surface` is the nearest object
   * the pressing source's ray hits, if any.
   */
  onSelectStart(event) {
    const surface = event?.surface;
    if (!surface) return;
    if (isWithin(surface, this.startButton)) {
      this.startGame();
    } else if (
      this.running &&
      this.target.visible &&
      isWithin(surface, this.target)
    ) {
      this.hitTarget();
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new WhackTargetsGame());
  xb.init(new xb.Options());
});
