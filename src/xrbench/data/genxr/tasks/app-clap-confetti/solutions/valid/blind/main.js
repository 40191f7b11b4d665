import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Clap for confetti: with tracked hands, bringing the two palm centres within
 * 10 cm of each other is a clap. Each clap throws a burst of confetti out from
 * between the palms and plays a short, synthesised clap sound. A new clap is
 * counted only after the palms have been more than 25 cm apart again.
 */

const PALM_JOINT = 'middle-finger-metacarpal';
const CLAP_DISTANCE = 0.1; // metres: palms closer than this clap.
const REARM_DISTANCE = 0.25; // metres: palms must part beyond this to re-arm.

const PIECE_COUNT = 36;
const BURST_LIFETIME_MS = 1500;
const MIN_SPEED = 1.7; // m/s at launch.
const MAX_SPEED = 2.3;
const DRAG = 1.5; // 1/s, exponential slow-down of the flight speed.
const LAUNCH_RATE = 20; // 1/s, how fast a piece gets up to speed (~50 ms).
const GRAVITY = 0.8; // m/s^2, a gentle drift down (confetti is light).
const SPIN_SPEED = 10; // rad/s, at most.

const CONFETTI_COLORS = [
  0xff3344, // red
  0xffd21f, // yellow
  0x2e7dff, // blue
  0x22cc55, // green
  0xff4fd8, // magenta
  0xff8a1c, // orange
];

const CLAP_SOUND_SECONDS = 0.12;

class ClapConfetti extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // Shared, never disposed: bursts only reference them.
    this.pieceGeometry = new THREE.BoxGeometry(0.014, 0.009, 0.0015);
    this.pieceMaterials = CONFETTI_COLORS.map(
      (color) =>
        new THREE.MeshBasicMaterial({color, side: THREE.DoubleSide})
    );

    this.bursts = [];
    // Armed: the next time the palms come together it is a clap.
    this.armed = true;

    this.leftPalm = new THREE.Vector3();
    this.rightPalm = new THREE.Vector3();
    this.midpoint = new THREE.Vector3();

    this.audioContext = null;
    this.noiseBuffer = null;
    // Browsers start audio only after a user gesture: resume on the first one.
    const unlock = () => this.ensureAudio();
    window.addEventListener('pointerdown', unlock, {once: true});
    window.addEventListener('keydown', unlock, {once: true});
  }

  onXRSessionStarted() {
    this.ensureAudio();
  }

  /** Reads the world position of a hand's palm centre; false if not tracked. */
  readPalm(hand, target) {
    if (!hand || hand.visible === false || !hand.joints) return false;
    const joint = hand.joints[PALM_JOINT];
    if (!joint || joint.visible === false) return false;
    joint.getWorldPosition(target);
    return true;
  }

  update() {
    const now = performance.now();
    this.detectClap(now);
    this.animateBursts(now);
  }

  detectClap(now) {
    const hands = xb.core.input.hands;
    if (!hands || hands.length < 2) return;
    const haveLeft = this.readPalm(hands[0], this.leftPalm);
    const haveRight = this.readPalm(hands[1], this.rightPalm);
    if (!haveLeft || !haveRight) return; // A clap takes both hands.

    const distance = this.leftPalm.distanceTo(this.rightPalm);
    if (this.armed) {
      if (distance < CLAP_DISTANCE) {
        this.armed = false;
        this.midpoint.addVectors(this.leftPalm, this.rightPalm).multiplyScalar(0.5);
        this.spawnBurst(this.midpoint, now);
        this.playClapSound();
      }
    } else if (distance > REARM_DISTANCE) {
      this.armed = true;
    }
  }

  spawnBurst(center, now) {
    const burst = new THREE.Group();
    burst.name = 'confetti-burst';
    burst.position.copy(center);
    burst.userData.xrblocksDevtools = {tag: 'confetti-burst', state: {}};

    const pieces = [];
    // Directions spread evenly over the whole sphere (a Fibonacci spiral with a
    // random twist and a little jitter), so the burst reaches every side.
    const golden = Math.PI * (3 - Math.sqrt(5));
    const twist = Math.random() * Math.PI * 2;
    for (let i = 0; i < PIECE_COUNT; i++) {
      const y = 1 - (2 * (i + 0.5)) / PIECE_COUNT;
      const r = Math.sqrt(1 - y * y);
      const theta = golden * i + twist;
      const direction = new THREE.Vector3(
        Math.cos(theta) * r,
        y,
        Math.sin(theta) * r
      );
      direction
        .add(
          new THREE.Vector3(
            Math.random() - 0.5,
            Math.random() - 0.5,
            Math.random() - 0.5
          ).multiplyScalar(0.15)
        )
        .normalize();

      const mesh = new THREE.Mesh(
        this.pieceGeometry,
        this.pieceMaterials[i % this.pieceMaterials.length]
      );
      mesh.name = 'confetti-piece';
      mesh.rotation.set(
        Math.random() * Math.PI * 2,
        Math.random() * Math.PI * 2,
        Math.random() * Math.PI * 2
      );
      mesh.userData.confetti = {
        direction,
        speed: MIN_SPEED + Math.random() * (MAX_SPEED - MIN_SPEED),
        spin: new THREE.Vector3(
          (Math.random() * 2 - 1) * SPIN_SPEED,
          (Math.random() * 2 - 1) * SPIN_SPEED,
          (Math.random() * 2 - 1) * SPIN_SPEED
        ),
        startRotation: mesh.rotation.clone(),
      };
      mesh.position.set(0, 0, 0); // Starts at the midpoint between the palms.
      burst.add(mesh);
      pieces.push(mesh);
    }

    this.add(burst);
    this.bursts.push({group: burst, pieces, startTime: now});
  }

  animateBursts(now) {
    for (let b = this.bursts.length - 1; b >= 0; b--) {
      const burst = this.bursts[b];
      const age = now - burst.startTime;
      if (age >= BURST_LIFETIME_MS) {
        burst.group.removeFromParent();
        burst.group.visible = false;
        this.bursts.splice(b, 1);
        continue;
      }
      const t = Math.max(0, age) / 1000;
      // Distance flown: the speed builds up over the first ~50 ms, then drag
      // slows it down (the integral of speed * (1 - e^(-L t)) * e^(-D t)),
      // plus a gentle fall.
      const travel =
        (1 - Math.exp(-DRAG * t)) / DRAG -
        (1 - Math.exp(-(DRAG + LAUNCH_RATE) * t)) / (DRAG + LAUNCH_RATE);
      const fall = 0.5 * GRAVITY * t * t;
      for (const piece of burst.pieces) {
        const c = piece.userData.confetti;
        piece.position
          .copy(c.direction)
          .multiplyScalar(c.speed * travel);
        piece.position.y -= fall;
        piece.rotation.set(
          c.startRotation.x + c.spin.x * t,
          c.startRotation.y + c.spin.y * t,
          c.startRotation.z + c.spin.z * t
        );
      }
    }
  }

  ensureAudio() {
    try {
      if (!this.audioContext) {
        const AudioContextClass =
          window.AudioContext || window.webkitAudioContext;
        if (!AudioContextClass) return null;
        this.audioContext = new AudioContextClass();
      }
      if (this.audioContext.state === 'suspended') {
        this.audioContext.resume().catch(() => {});
      }
    } catch (e) {
      return null;
    }
    return this.audioContext;
  }

  /** Builds a short burst of white noise with a sharp attack and quick decay. */
  getNoiseBuffer(ctx) {
    if (this.noiseBuffer && this.noiseBuffer.sampleRate === ctx.sampleRate) {
      return this.noiseBuffer;
    }
    const length = Math.floor(ctx.sampleRate * CLAP_SOUND_SECONDS);
    const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < length; i++) {
      const t = i / ctx.sampleRate;
      const envelope = Math.exp(-t * 45);
      data[i] = (Math.random() * 2 - 1) * envelope;
    }
    this.noiseBuffer = buffer;
    return buffer;
  }

  /** One short clap: filtered noise, made in code with the Web Audio API. */
  playClapSound() {
    const ctx = this.ensureAudio();
    if (!ctx) return;
    const source = ctx.createBufferSource();
    source.buffer = this.getNoiseBuffer(ctx);
    const filter = ctx.createBiquadFilter();
    filter.type = 'bandpass';
    filter.frequency.value = 1500;
    filter.Q.value = 0.8;
    const gain = ctx.createGain();
    gain.gain.value = 0.8;
    source.connect(filter);
    filter.connect(gain);
    gain.connect(ctx.destination);
    const startAt = ctx.currentTime;
    source.start(startAt);
    source.stop(startAt + CLAP_SOUND_SECONDS);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new ClapConfetti());
  xb.init(options);
});
