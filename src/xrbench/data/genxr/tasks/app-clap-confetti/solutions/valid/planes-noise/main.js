import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Confetti on a clap. A Burst owns its pieces (small coloured squares) and their motion; the app
 * watches the distance between the palms and plays a burst of noise through Web Audio per clap.
 */
const PALETTE = ['#ff5252', '#ffeb3b', '#00e676', '#40c4ff'];

class Burst extends THREE.Group {
  constructor(origin, index) {
    super();
    this.userData.xrblocksDevtools = {tag: 'confetti-burst', state: {}};
    this.position.copy(origin);
    this.born = performance.now();
    this.velocities = [];
    const n = 30;
    for (let i = 0; i < n; i++) {
      // spread directions evenly over the sphere (a Fibonacci lattice), turned per burst
      const y = 1 - (2 * (i + 0.5)) / n;
      const r = Math.sqrt(1 - y * y);
      const a = i * 2.399963 + index;
      const dir = new THREE.Vector3(r * Math.cos(a), y, r * Math.sin(a));
      const piece = new THREE.Mesh(
        new THREE.PlaneGeometry(0.025, 0.015),
        new THREE.MeshBasicMaterial({color: PALETTE[i % PALETTE.length], side: THREE.DoubleSide})
      );
      this.add(piece);
      this.velocities.push(dir.multiplyScalar(0.9 + (i % 3) * 0.2));
    }
  }

  /** Moves the pieces to where they are `t` seconds after the clap. */
  place(t) {
    this.children.forEach((piece, i) => {
      piece.position.copy(this.velocities[i]).multiplyScalar(t);
      piece.rotation.set(3 * t + i, 2 * t, 0);
    });
  }
}

class Claps extends xb.Script {
  init() {
    this.ready = true;
    this.count = 0;
  }

  palms() {
    const hands = xb.core.input.hands;
    const at = [];
    for (const i of [0, 1]) {
      const j = hands && hands[i] && hands[i].joints && hands[i].joints['middle-finger-metacarpal'];
      if (!j) return null;
      j.updateWorldMatrix(true, false);
      at.push(new THREE.Vector3().setFromMatrixPosition(j.matrixWorld));
    }
    return at;
  }

  clapSound() {
    const ctx = xb.core.sound.getAudioListener().context;
    const length = Math.round(0.15 * ctx.sampleRate);
    const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
    const data = buffer.getChannelData(0);
    let s = 7;
    for (let i = 0; i < length; i++) {
      s = (s * 16807) % 2147483647;
      data[i] = ((s / 2147483647) * 2 - 1) * Math.exp(-i / (0.03 * ctx.sampleRate));
    }
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(ctx.destination);
    source.start();
  }

  update() {
    const now = performance.now();
    for (const burst of this.children.filter((c) => c instanceof Burst)) {
      const t = (now - burst.born) / 1000;
      if (t >= 1.5) this.remove(burst);
      else burst.place(t);
    }
    const palms = this.palms();
    if (!palms) return;
    const d = palms[0].distanceTo(palms[1]);
    if (d > 0.25) this.ready = true;
    if (this.ready && d <= 0.1) {
      this.ready = false;
      this.add(new Burst(palms[0].clone().lerp(palms[1], 0.5), this.count++));
      this.clapSound();
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new Claps());
  xb.init(options);
});
