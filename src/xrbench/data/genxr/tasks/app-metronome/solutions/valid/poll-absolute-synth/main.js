import * as THREE from 'three';
import * as xb from 'xrblocks';

/** 120 beats per minute: one beat every 0.5 s (in ms, on performance.now()'s clock). */
const BEAT_MS = 60000 / 120;
const BEATS_PER_BAR = 4;
const ACCENT_HZ = 1760;
const BEAT_HZ = 880;
const CLICK_SECONDS = 0.05;
const CLICK_VOLUME = 0.4;

/**
 * Pinch metronome: a pinch of either hand starts it, the next pinch stops it. Beat n sounds
 * n * 0.5 s after the starting pinch, counted from the start (no drift), the first beat of
 * every bar of 4 higher than the others. Pinches are read from the hands' select state at the
 * start of update(), so a stopping pinch silences the beat due in its own frame (XR Blocks calls
 * onSelectStart only after the frame's update()).
 */
class Metronome extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const geometry = new THREE.CylinderGeometry(0.2, 0.2, 0.4, 32);
    const material = new THREE.MeshPhongMaterial({color: 0xffffff});
    this.cylinder = new THREE.Mesh(geometry, material);
    this.cylinder.position.set(0, xb.user.height - 0.5, -xb.user.objectDistance);
    this.add(this.cylinder);
    this.running = false;
    this.startMs = 0;
    this.nextBeat = 0;
    this.pinching = new Map();
  }

  /** Each new pinch of either hand toggles the metronome. */
  toggle() {
    if (this.running) {
      this.running = false;
      return;
    }
    this.running = true;
    this.startMs = performance.now();
    this.nextBeat = 0;
    this.playDueBeats();
  }

  update() {
    for (const controller of xb.core.input.controllers.slice(0, 2)) {
      const now = controller?.userData?.selected === true;
      if (now && !this.pinching.get(controller)) this.toggle();
      this.pinching.set(controller, now);
    }
    if (this.running) this.playDueBeats();
  }

  /** Plays every beat whose moment has come (normally at most one). */
  playDueBeats() {
    const now = performance.now();
    while (now >= this.startMs + this.nextBeat * BEAT_MS) {
      const accent = this.nextBeat % BEATS_PER_BAR === 0;
      this.click(accent ? ACCENT_HZ : BEAT_HZ);
      this.nextBeat++;
    }
  }

  click(frequency) {
    const synth = xb.core.sound.soundSynthesizer;
    synth.playTone(frequency, CLICK_SECONDS, CLICK_VOLUME, 'sine');
    const context = synth.audioContext;
    if (context && context.state === 'suspended') context.resume().catch(() => {});
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Metronome());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
