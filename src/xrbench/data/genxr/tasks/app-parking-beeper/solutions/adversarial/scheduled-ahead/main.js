import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Parking sensor: the depth at the centre of the view picks a band (interval and pitch); a beep
 * sounds when the band's interval has passed since the last one, timed on XR Blocks' timer.
 */
const ZONE = 1.2; // metres
const BANDS = [
  {from: 0.7, interval: 0.6, pitch: 880},
  {from: 0.4, interval: 0.3, pitch: 880},
  {from: 0.0, interval: 0.15, pitch: 1760},
];

class ParkingSensor extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.lastBeep = null; // seconds on the app's clock; null while silent
  }

  distanceAhead() {
    const depth = xb.core.depth;
    if (!depth || !depth.depthArray || !depth.depthArray[0]) return 0;
    return depth.getDepth(0.5, 0.5);
  }

  update() {
    const now = xb.core.timer.getElapsed();
    const d = this.distanceAhead();
    if (!(d > 0) || d >= ZONE) {
      this.lastBeep = null;
      return;
    }
    const band = BANDS.find((b) => d >= b.from);
    if (this.lastBeep === null || now - this.lastBeep >= band.interval - 1e-6) {
      // Queue the beep on the audio clock a band interval ahead, for sample-accurate rhythm.
      const synth = xb.core.sound.soundSynthesizer;
      synth._initAudioContext();
      const ctx = synth.audioContext;
      const osc = ctx.createOscillator();
      osc.frequency.value = band.pitch;
      osc.connect(ctx.destination);
      const at = ctx.currentTime + (this.lastBeep === null ? 0 : band.interval);
      osc.start(at);
      osc.stop(at + 0.05);
      this.lastBeep = now + (this.lastBeep === null ? 0 : band.interval);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  xb.add(new ParkingSensor());
  xb.init(options);
});
