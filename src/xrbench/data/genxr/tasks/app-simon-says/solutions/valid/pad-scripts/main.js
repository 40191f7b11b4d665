import * as THREE from 'three';
import * as xb from 'xrblocks';

const SEQUENCE = ['green', 'yellow', 'red', 'blue', 'blue', 'red', 'yellow', 'green'];

let ctx = null;

/** A sine tone of `seconds` on an OscillatorNode, started now. */
function beep(hz, seconds, type = 'sine') {
  ctx ??= new AudioContext();
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.value = hz;
  gain.gain.value = 0.2;
  osc.connect(gain).connect(ctx.destination);
  osc.start();
  osc.stop(ctx.currentTime + seconds);
}

/** One pad: a box that glows (emissive) while it plays. */
class Pad extends THREE.Mesh {
  constructor(colour, position, dim, lit, hz) {
    super(
      new THREE.BoxGeometry(0.11, 0.02, 0.11),
      new THREE.MeshPhongMaterial({color: dim, emissive: 0x000000}));
    this.colour = colour;
    this.hz = hz;
    this.dim = dim;
    this.lit = lit;
    this.glowEnd = 0;
    this.position.copy(position);
    this.userData.xrblocksDevtools = {tag: 'simon-pad', state: {colour}};
    this.fingersIn = new Set();
  }

  play(t) {
    beep(this.hz, 0.4);
    this.glowEnd = t + 400;
  }

  /** Shows the pad lit (colour and glow) or dark at time t (ms). */
  show(t) {
    const on = t < this.glowEnd;
    this.material.color.setHex(on ? this.lit : this.dim);
    this.material.emissive.setHex(on ? this.lit : 0x000000);
  }

  /** Whether a world point lies inside the pad's box. */
  holds(point) {
    const p = this.worldToLocal(point.clone());
    return Math.abs(p.x) <= 0.055 && Math.abs(p.y) <= 0.01 && Math.abs(p.z) <= 0.055;
  }
}

class ScorePanel extends THREE.Mesh {
  constructor() {
    const canvas = document.createElement('canvas');
    canvas.width = 400;
    canvas.height = 200;
    const texture = new THREE.CanvasTexture(canvas);
    texture.colorSpace = THREE.SRGBColorSpace;
    super(new THREE.PlaneGeometry(0.4, 0.2), new THREE.MeshBasicMaterial({map: texture}));
    this.canvas = canvas;
    this.texture = texture;
    this.scores = {best: 0, last: 0};
    this.userData.xrblocksDevtools = {tag: 'score-panel', state: this.scores};
    this.position.set(0, 1.45, -0.7);
    this.redraw();
  }

  set(best, last) {
    if (best === this.scores.best && last === this.scores.last) return;
    this.scores.best = best;
    this.scores.last = last;
    this.redraw();
  }

  redraw() {
    const g = this.canvas.getContext('2d');
    g.fillStyle = '#222222';
    g.fillRect(0, 0, 400, 200);
    g.fillStyle = '#ffd54f';
    g.font = '56px monospace';
    g.fillText(`Best: ${this.scores.best}`, 30, 80);
    g.fillText(`Last: ${this.scores.last}`, 30, 165);
    this.texture.needsUpdate = true;
  }
}

/**
 * The game as a list of timed events: a playback is scheduled as events on the app's clock
 * (update's time, ms); the user's turn opens with the last one.
 */
class Simon extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.5));
    this.add(new THREE.DirectionalLight(0xffffff, 1));
    const specs = [
      ['green', -0.065, -0.465, 0x1b5e20, 0x4cff4c, 392.0],
      ['red', 0.065, -0.465, 0x8b1a1a, 0xff4040, 329.63],
      ['yellow', -0.065, -0.335, 0x7a6a00, 0xffee33, 261.63],
      ['blue', 0.065, -0.335, 0x0d3b66, 0x40a0ff, 196.0],
    ];
    this.pads = {};
    for (const [colour, x, z, dim, lit, hz] of specs) {
      const pad = new Pad(colour, new THREE.Vector3(x, 1.0, z), dim, lit, hz);
      this.pads[colour] = pad;
      this.add(pad);
    }
    const table = new THREE.Mesh(
      new THREE.BoxGeometry(0.5, 0.04, 0.4),
      new THREE.MeshPhongMaterial({color: 0x6d4c41}));
    table.position.set(0, 0.97, -0.4);
    this.add(table);
    this.panel = new ScorePanel();
    this.add(this.panel);
    this.events = [];
    this.best = 0;
    this.last = 0;
    this.clock = null;
    this.tip = new THREE.Vector3();
  }

  schedulePlayback(from, n) {
    this.userTurn = false;
    this.length = n;
    this.progress = 0;
    for (let k = 0; k < n; k++) {
      const colour = SEQUENCE[k % SEQUENCE.length];
      this.events.push({at: from + 600 * k, run: (t) => this.pads[colour].play(t)});
    }
    this.events.push({at: from + 600 * (n - 1) + 400, run: () => { this.userTurn = true; }});
  }

  update(time) {
    if (this.clock === null) {
      this.clock = time;
      this.schedulePlayback(time + 1000, 1);
    }
    const t = time;
    const due = this.events.filter((e) => e.at <= t);
    this.events = this.events.filter((e) => e.at > t);
    for (const e of due) e.run(t);

    for (const [i, hand] of xb.core.input.hands.entries()) {
      const joint = hand?.joints?.['index-finger-tip'];
      for (const pad of Object.values(this.pads)) {
        const inside = !!joint && pad.holds(joint.getWorldPosition(this.tip));
        if (inside && !pad.fingersIn.has(i)) {
          pad.fingersIn.add(i);
          this.onTouch(pad, t);
        } else if (!inside && pad.fingersIn.has(i)) {
          pad.fingersIn.delete(i);
        }
      }
    }
    for (const pad of Object.values(this.pads)) pad.show(t);
    this.panel.set(this.best, this.last);
  }

  onTouch(pad, t) {
    if (!this.userTurn) return;
    if (pad.colour !== SEQUENCE[this.progress % SEQUENCE.length]) {
      beep(110, 0.8, 'square');
      this.last = this.length - 1;
      this.schedulePlayback(t + 2000, 1);
      return;
    }
    pad.play(t);
    this.progress += 1;
    if (this.progress === this.length) {
      this.best = Math.max(this.best, this.length);
      this.schedulePlayback(t + 1000, this.length + 1);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Simon());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
