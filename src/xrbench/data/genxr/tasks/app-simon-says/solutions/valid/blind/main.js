import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Simon says: the app plays a growing sequence of coloured pads; the user
 * repeats it by touching the pads with an index fingertip. A wrong pad ends
 * the game (error tone) and a new game starts; the panel shows Best and Last.
 */

const PAD_SIZE = {x: 0.11, y: 0.02, z: 0.11};
const PADS = {
  green: {centre: [-0.065, 1.0, -0.465], dim: 0x1b5e20, lit: 0x4cff4c, tone: 392},
  red: {centre: [0.065, 1.0, -0.465], dim: 0x8b1a1a, lit: 0xff4040, tone: 329.63},
  yellow: {centre: [-0.065, 1.0, -0.335], dim: 0x7a6a00, lit: 0xffee33, tone: 261.63},
  blue: {centre: [0.065, 1.0, -0.335], dim: 0x0d3b66, lit: 0x40a0ff, tone: 196},
};
const SEQUENCE = ['green', 'yellow', 'red', 'blue', 'blue', 'red', 'yellow', 'green'];

const PLAY_DURATION = 0.4; // seconds a pad is lit and its tone lasts.
const STEP_INTERVAL = 0.6; // seconds between the starts of two playback steps.
const FIRST_DELAY = 1.0; // first playback after the app opens.
const NEXT_ROUND_DELAY = 1.0; // after a full repeat.
const NEW_GAME_DELAY = 2.0; // after a wrong pad.
const ERROR_TONE = {frequency: 110, duration: 0.8};
const VOLUME = 0.35;

const PANEL_WIDTH = 0.4;
const PANEL_HEIGHT = 0.2;
const PANEL_CENTRE = new THREE.Vector3(0, 1.45, -0.7);

const _tip = new THREE.Vector3();

/** The colour name of step k of the (endless) sequence. */
function stepColour(k) {
  return SEQUENCE[k % SEQUENCE.length];
}

/** The app's clock in seconds. */
function now() {
  return performance.now() / 1000;
}

class SimonSays extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const sun = new THREE.DirectionalLight(0xffffff, 1.0);
    sun.position.set(1, 3, 2);
    this.add(sun);

    const geometry = new THREE.BoxGeometry(PAD_SIZE.x, PAD_SIZE.y, PAD_SIZE.z);
    this.pads = {};
    for (const [name, spec] of Object.entries(PADS)) {
      const mesh = new THREE.Mesh(
        geometry,
        new THREE.MeshStandardMaterial({
          color: spec.dim,
          emissive: 0x000000,
          roughness: 0.5,
        })
      );
      mesh.name = `simon-pad-${name}`;
      mesh.position.set(...spec.centre);
      mesh.userData.xrblocksDevtools = {tag: 'simon-pad', state: {colour: name}};
      this.add(mesh);
      this.pads[name] = {
        name,
        mesh,
        spec,
        centre: new THREE.Vector3(...spec.centre),
        litFrom: -Infinity,
        litUntil: -Infinity,
        lit: null,
      };
    }

    this.createPanel();

    this.best = 0;
    this.last = 0;
    this.score = 0; // of the game being played
    this.phase = 'starting'; // 'playback' | 'turn'
    this.roundLength = 1;
    this.playbackStart = 0;
    this.stepsPlayed = 0;
    this.nextIndex = 0;
    // Per hand, per pad: whether that index fingertip was inside the pad.
    this.inside = [{}, {}];
  }

  createPanel() {
    this.canvas = document.createElement('canvas');
    this.canvas.width = 512;
    this.canvas.height = 256;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
    this.panel = new THREE.Mesh(
      new THREE.PlaneGeometry(PANEL_WIDTH, PANEL_HEIGHT),
      new THREE.MeshBasicMaterial({map: this.texture})
    );
    this.panel.name = 'score-panel';
    this.panel.position.copy(PANEL_CENTRE);
    this.panel.userData.xrblocksDevtools = {tag: 'score-panel', state: {best: 0, last: 0}};
    this.add(this.panel);
    this.drawPanel(0, 0);
  }

  drawPanel(best, last) {
    const ctx = this.canvas.getContext('2d');
    if (ctx) {
      const {width, height} = this.canvas;
      ctx.fillStyle = '#1c1f26';
      ctx.fillRect(0, 0, width, height);
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 72px sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(`Best: ${best}`, width / 2, height * 0.3);
      ctx.fillText(`Last: ${last}`, width / 2, height * 0.72);
    }
    this.texture.needsUpdate = true;
    const state = this.panel.userData.xrblocksDevtools.state;
    state.best = best;
    state.last = last;
    this.shownBest = best;
    this.shownLast = last;
  }

  tone(frequency, duration) {
    const synth = xb.core?.sound?.soundSynthesizer;
    if (synth && typeof synth.playTone === 'function') {
      synth.playTone(frequency, duration, VOLUME, 'sine');
    }
  }

  /** Plays a pad: lit from `start` for 0.4 s, its tone started now. */
  playPad(name, start) {
    const pad = this.pads[name];
    pad.litFrom = start;
    pad.litUntil = start + PLAY_DURATION;
    this.tone(pad.spec.tone, PLAY_DURATION);
  }

  scheduleRound(length, start) {
    this.phase = 'playback';
    this.roundLength = length;
    this.playbackStart = start;
    this.stepsPlayed = 0;
    this.nextIndex = 0;
  }

  updatePlayback(t) {
    const n = this.roundLength;
    while (this.stepsPlayed < n) {
      const start = this.playbackStart + this.stepsPlayed * STEP_INTERVAL;
      if (t < start) break;
      this.playPad(stepColour(this.stepsPlayed), start);
      this.stepsPlayed++;
    }
    const end = this.playbackStart + (n - 1) * STEP_INTERVAL + PLAY_DURATION;
    if (this.stepsPlayed >= n && t >= end) {
      this.phase = 'turn';
      this.nextIndex = 0;
    }
  }

  /** Pads entered this frame by an index fingertip (in hand order). */
  touches() {
    const entered = [];
    const hands = xb.core?.input?.hands || [];
    for (let h = 0; h < 2; h++) {
      const hand = hands[h];
      const joint = hand?.joints?.['index-finger-tip'];
      const tracked = !!joint && hand.visible !== false;
      if (tracked) {
        joint.updateWorldMatrix(true, false);
        joint.getWorldPosition(_tip);
      }
      for (const pad of Object.values(this.pads)) {
        const inside =
          tracked &&
          Math.abs(_tip.x - pad.centre.x) <= PAD_SIZE.x / 2 &&
          Math.abs(_tip.y - pad.centre.y) <= PAD_SIZE.y / 2 &&
          Math.abs(_tip.z - pad.centre.z) <= PAD_SIZE.z / 2;
        if (inside && !this.inside[h][pad.name]) entered.push(pad.name);
        this.inside[h][pad.name] = inside;
      }
    }
    return entered;
  }

  onTouch(name, t) {
    if (this.phase !== 'turn') return; // outside the user's turn: ignored
    const expected = stepColour(this.nextIndex);
    if (name === expected) {
      this.playPad(name, t);
      this.nextIndex++;
      if (this.nextIndex >= this.roundLength) {
        // A full repeat.
        this.score = this.roundLength;
        if (this.score > this.best) this.best = this.score;
        this.scheduleRound(this.roundLength + 1, t + NEXT_ROUND_DELAY);
      }
    } else {
      // A wrong pad ends the game.
      this.tone(ERROR_TONE.frequency, ERROR_TONE.duration);
      this.last = this.score;
      this.score = 0;
      this.scheduleRound(1, t + NEW_GAME_DELAY);
    }
  }

  updatePads(t) {
    for (const pad of Object.values(this.pads)) {
      const lit = t >= pad.litFrom && t < pad.litUntil;
      if (lit === pad.lit) continue;
      pad.lit = lit;
      const material = pad.mesh.material;
      if (lit) {
        material.color.setHex(pad.spec.lit);
        material.emissive.setHex(pad.spec.lit);
        material.emissiveIntensity = 0.6;
      } else {
        material.color.setHex(pad.spec.dim);
        material.emissive.setHex(0x000000);
      }
    }
  }

  update() {
    const t = now();
    if (this.phase === 'starting') {
      // The app opens: the first game's playback a second later.
      this.scheduleRound(1, t + FIRST_DELAY);
    }
    if (this.phase === 'playback') this.updatePlayback(t);
    for (const name of this.touches()) this.onTouch(name, t);
    // A touch may have started a playback due at once (never, with the delays), or ended one.
    if (this.phase === 'playback') this.updatePlayback(t);
    this.updatePads(t);
    if (this.best !== this.shownBest || this.last !== this.shownLast) {
      this.drawPanel(this.best, this.last);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new SimonSays());
  xb.init(options);
});
