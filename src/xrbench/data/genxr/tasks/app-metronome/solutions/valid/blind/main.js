import * as THREE from 'three';
import * as xb from 'xrblocks';

/** Tempo and sound of the metronome. */
const BPM = 120;
const BEAT_MS = 60000 / BPM; // 500 ms per beat
const BEATS_PER_BAR = 4;
const HIGH_HZ = 1760; // first beat of every bar
const LOW_HZ = 880; // the other beats
const CLICK_S = 0.05; // length of one click
const CLICK_VOLUME = 0.5;
// A beat is due once the frame time has passed its moment by more than this
// (ms): frame times are sums of floating-point steps, so a frame that falls
// exactly on a beat may read a hair early or late; such a beat then clicks in
// the next frame rather than possibly before its moment.
const EPSILON_MS = 1e-3;

/**
 * A pinch metronome: a pinch (select) of either hand starts it, the next pinch
 * stops it. While running it clicks at 120 BPM, timed by the frame time that
 * XR Blocks passes to update(), counted from the starting pinch (beat n at
 * n x 0.5 s), with a high click on the first beat of every bar of 4.
 */
class Metronome extends xb.Script {
  running = false;
  /** Frame time (ms) of the starting pinch: the moment of beat 0. */
  startTime = 0;
  /** Index of the next beat to click. */
  nextBeat = 0;
  /** Time (ms) of the latest frame, as passed to update(). */
  frameTime = null;
  /** Number of pinches that toggled the metronome. */
  toggles = 0;
  /** Whether each controller was selecting at the previous update. */
  wasSelected = new Map();

  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const geometry = new THREE.CylinderGeometry(0.2, 0.2, 0.4, 32);
    this.material = new THREE.MeshPhongMaterial({color: 0xffffff});
    this.cylinder = new THREE.Mesh(geometry, this.material);
    this.cylinder.position.set(
      0,
      xb.user.height - 0.5,
      -xb.user.objectDistance
    );
    this.add(this.cylinder);
    this.publishState();
  }

  /**
   * Whether a controller began selecting since the last update: XR Blocks
   * reports such a pinch (onSelectStart) later in this same frame, after the
   * scripts' updates.
   */
  pinchStartsThisFrame() {
    let starts = false;
    const controllers = xb.core?.input?.controllers ?? [];
    for (const controller of controllers) {
      const selected =
        controller?.userData?.connected === true &&
        controller.userData.selected === true;
      if (selected && this.wasSelected.get(controller) !== true) starts = true;
      this.wasSelected.set(controller, selected);
    }
    return starts;
  }

  update(time) {
    const now = typeof time === 'number' ? time : performance.now();
    this.frameTime = now;
    const pinchComing = this.pinchStartsThisFrame();
    if (!this.running) return;
    // Click every beat whose moment has come. When a pinch is about to be
    // reported in this frame it will stop the metronome, and no click may
    // start in the frame of the stopping pinch: then wait for it; if it does
    // not come, the click starts in the next frame.
    while (
      !pinchComing &&
      now - (this.startTime + this.nextBeat * BEAT_MS) > EPSILON_MS
    ) {
      this.click(this.nextBeat);
      this.nextBeat++;
    }
  }

  onSelectStart() {
    this.toggles++;
    if (this.running) {
      // Stop: no click starts from now on (a sounding one may finish).
      this.running = false;
    } else {
      // Start afresh, with the first click (beat 0, a downbeat) at once.
      this.running = true;
      this.startTime =
        this.frameTime !== null ? this.frameTime : performance.now();
      this.nextBeat = 0;
      this.click(0);
      this.nextBeat = 1;
    }
    this.publishState();
  }

  click(beat) {
    const frequency = beat % BEATS_PER_BAR === 0 ? HIGH_HZ : LOW_HZ;
    playClick(frequency);
    this.lastBeat = beat;
    this.publishState();
    if (this.material) {
      this.material.color.set(frequency === HIGH_HZ ? 0xffcc33 : 0x66aaff);
    }
  }

  publishState() {
    if (!this.cylinder) return;
    if (!this.running && this.material) this.material.color.set(0xffffff);
    this.cylinder.userData.xrblocksDevtools = {
      tag: 'metronome',
      state: {
        running: this.running,
        toggles: this.toggles,
        beat: this.running ? (this.lastBeat ?? 0) : null,
        bpm: BPM,
      },
    };
  }
}

let fallbackContext = null;

/** Starts a short sine tone now (nothing scheduled ahead on the audio clock). */
function playClick(frequency) {
  const synth = xb.core?.sound?.soundSynthesizer;
  if (synth && typeof synth.playTone === 'function') {
    synth.playTone(frequency, CLICK_S, CLICK_VOLUME, 'sine');
    return;
  }
  fallbackContext ??= new AudioContext();
  const ctx = fallbackContext;
  const oscillator = ctx.createOscillator();
  oscillator.type = 'sine';
  oscillator.frequency.setValueAtTime(frequency, ctx.currentTime);
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(CLICK_VOLUME, ctx.currentTime);
  oscillator.connect(gain);
  gain.connect(ctx.destination);
  oscillator.start();
  oscillator.stop(ctx.currentTime + CLICK_S);
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new Metronome());
  xb.init(options);
});
