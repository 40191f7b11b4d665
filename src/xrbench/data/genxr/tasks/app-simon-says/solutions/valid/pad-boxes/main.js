import * as THREE from 'three';
import * as xb from 'xrblocks';

// The four pads: name, centre, dim and lit colours, tone (Hz).
const PADS = [
  {name: 'green', x: -0.065, z: -0.465, dim: 0x1b5e20, lit: 0x4cff4c, hz: 392.0},
  {name: 'red', x: 0.065, z: -0.465, dim: 0x8b1a1a, lit: 0xff4040, hz: 329.63},
  {name: 'yellow', x: -0.065, z: -0.335, dim: 0x7a6a00, lit: 0xffee33, hz: 261.63},
  {name: 'blue', x: 0.065, z: -0.335, dim: 0x0d3b66, lit: 0x40a0ff, hz: 196.0},
];
const PAD_SIZE = new THREE.Vector3(0.11, 0.02, 0.11);
const PAD_Y = 1.0;
const ORDER = ['green', 'yellow', 'red', 'blue', 'blue', 'red', 'yellow', 'green'];
const TONE = 0.4;  // s: a step's tone and light
const STEP = 0.6;  // s: from one step to the next
const FIRST_PAUSE = 1.0;  // s: before the first round of a game, and after a full repeat
const GAME_OVER_PAUSE = 2.0;  // s: from a wrong pad to the new game's first round
const ERROR_HZ = 110;
const ERROR_LENGTH = 0.8;

function tone(frequency, seconds, type = 'sine') {
  xb.core.sound.soundSynthesizer.playTone(frequency, seconds, 0.3, type);
}

function now() {
  return performance.now() / 1000;
}

class SimonSays extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.pads = PADS.map((spec) => {
      const material = new THREE.MeshStandardMaterial({color: spec.dim, roughness: 0.6});
      const mesh = new THREE.Mesh(
        new THREE.BoxGeometry(PAD_SIZE.x, PAD_SIZE.y, PAD_SIZE.z), material);
      mesh.position.set(spec.x, PAD_Y, spec.z);
      mesh.userData.xrblocksDevtools = {tag: 'simon-pad', state: {colour: spec.name}};
      this.add(mesh);
      const box = new THREE.Box3().setFromCenterAndSize(mesh.position.clone(), PAD_SIZE);
      return {...spec, mesh, material, box, inside: [false, false], litUntil: -1};
    });
    this.byName = Object.fromEntries(this.pads.map((p) => [p.name, p]));

    const canvas = document.createElement('canvas');
    canvas.width = 512;
    canvas.height = 256;
    this.canvas = canvas;
    this.texture = new THREE.CanvasTexture(canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
    this.panel = new THREE.Mesh(
      new THREE.PlaneGeometry(0.4, 0.2),
      new THREE.MeshBasicMaterial({map: this.texture}));
    this.panel.position.set(0, 1.45, -0.7);
    this.panelState = {best: 0, last: 0};
    this.panel.userData.xrblocksDevtools = {tag: 'score-panel', state: this.panelState};
    this.add(this.panel);
    this.drawPanel();
    this.started = false;
  }

  drawPanel() {
    const g = this.canvas.getContext('2d');
    g.fillStyle = '#102030';
    g.fillRect(0, 0, 512, 256);
    g.fillStyle = '#ffffff';
    g.font = 'bold 80px sans-serif';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(`Best: ${this.panelState.best}`, 256, 80);
    g.fillText(`Last: ${this.panelState.last}`, 256, 185);
    this.texture.needsUpdate = true;
  }

  newGame(t, pause) {
    this.length = 1;
    this.startRound(t, pause);
  }

  startRound(t, pause) {
    this.playStart = t + pause;
    this.played = 0;  // steps of the playback started so far
    this.turn = false;
    this.typed = 0;
  }

  fingertips() {
    const tips = [];
    for (const i of [0, 1]) {
      const joint = xb.core.input.hands[i]?.joints?.['index-finger-tip'];
      tips.push(joint ? joint.getWorldPosition(new THREE.Vector3()) : null);
    }
    return tips;
  }

  update() {
    const t = now();
    if (!this.started) {
      // The first game's clock starts with the first frame.
      this.started = true;
      this.newGame(t, FIRST_PAUSE);
    }
    // Playback: each step starts on its moment.
    if (!this.turn) {
      while (this.played < this.length && t >= this.playStart + this.played * STEP) {
        const pad = this.byName[ORDER[this.played % ORDER.length]];
        tone(pad.hz, TONE);
        pad.litUntil = this.playStart + this.played * STEP + TONE;
        this.played += 1;
      }
      if (this.played === this.length &&
          t >= this.playStart + (this.length - 1) * STEP + TONE) {
        this.turn = true;
      }
    }
    // Touches: a fingertip entering a pad's box.
    const tips = this.fingertips();
    for (const pad of this.pads) {
      for (const i of [0, 1]) {
        const tip = tips[i];
        const was = pad.inside[i];
        const outer = pad.box.clone().expandByScalar(0.003);
        const is = tip ? (was ? outer.containsPoint(tip) : pad.box.containsPoint(tip)) : false;
        pad.inside[i] = is;
        if (is && !was) this.touched(pad, t);
      }
    }
    for (const pad of this.pads) {
      pad.material.color.setHex(t < pad.litUntil ? pad.lit : pad.dim);
    }
  }

  touched(pad, t) {
    if (!this.turn) return;
    const expected = ORDER[this.typed % ORDER.length];
    if (pad.name !== expected) {
      tone(ERROR_HZ, ERROR_LENGTH, 'sawtooth');
      this.panelState.last = this.length - 1;
      this.drawPanel();
      this.newGame(t, GAME_OVER_PAUSE);
      return;
    }
    tone(pad.hz, TONE);
    pad.litUntil = t + TONE;
    this.typed += 1;
    if (this.typed === this.length) {
      if (this.length > this.panelState.best) {
        this.panelState.best = this.length;
        this.drawPanel();
      }
      this.length += 1;
      this.startRound(t, FIRST_PAUSE);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new SimonSays());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
