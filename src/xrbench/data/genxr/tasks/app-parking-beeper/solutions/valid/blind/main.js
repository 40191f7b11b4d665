import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Parking sensor for walking: beeps faster (and higher, very close) as the
 * real surface at the centre of the view comes closer, read from XR Blocks'
 * depth sensing every frame. Silent at 1.2 m or more, or while depth is
 * unknown.
 */

const SILENT_DISTANCE = 1.2; // metres: at or beyond this, no sound.
const BANDS = [
  // [below this distance, interval in seconds, pitch in Hz], nearest first.
  {below: 0.4, interval: 0.15, frequency: 1760},
  {below: 0.7, interval: 0.3, frequency: 880},
  {below: SILENT_DISTANCE, interval: 0.6, frequency: 880},
];
const BEEP_DURATION = 0.05; // seconds.
const BEEP_VOLUME = 0.3;
const TIME_EPSILON = 1e-6; // floating-point slack on the app clock (s).

/** The band for a distance under SILENT_DISTANCE. */
function bandFor(distance) {
  for (const band of BANDS) {
    if (distance < band.below) return band;
  }
  return null;
}

class ParkingBeeper extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.beeping = false; // whether the distance was under 1.2 m last frame
    this.lastBeep = -Infinity; // app time of the last beep (s)
    this.distance = 0;
  }

  /** App clock in seconds: XR Blocks' timer (advanced once per frame). */
  clock(time) {
    const timer = xb.core?.timer;
    if (timer && typeof timer.getElapsed === 'function') return timer.getElapsed();
    return typeof time === 'number' ? time / 1000 : performance.now() / 1000;
  }

  /** This frame's depth at the centre of the view (m), or 0 when unknown. */
  readDistance() {
    const depth = xb.core?.depth;
    if (!depth || !depth.depthArray || !depth.depthArray[0]) return 0;
    const d = depth.getDepth(0.5, 0.5);
    return Number.isFinite(d) && d > 0 ? d : 0;
  }

  beep(frequency) {
    const synth = xb.core?.sound?.soundSynthesizer;
    if (synth && typeof synth.playTone === 'function') {
      synth.playTone(frequency, BEEP_DURATION, BEEP_VOLUME, 'sine');
    }
  }

  update(time) {
    const t = this.clock(time);
    const distance = this.readDistance();
    this.distance = distance;
    const band = distance > 0 ? bandFor(distance) : null;

    if (!band) {
      // Unknown, or 1.2 m or more: silent, and the next time under 1.2 m
      // beeps at once.
      this.beeping = false;
      return;
    }

    if (!this.beeping) {
      this.beeping = true;
      this.beep(band.frequency);
      this.lastBeep = t;
      return;
    }

    if (t - this.lastBeep >= band.interval - TIME_EPSILON) {
      this.beep(band.frequency);
      this.lastBeep = t;
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  xb.add(new ParkingBeeper());
  xb.init(options);
});
