import * as THREE from 'three';
import * as xb from 'xrblocks';

const BEAT = 0.5; // seconds between beats (120 BPM)
const PITCHES = [1760, 880, 880, 880]; // Hz, one bar of 4: the downbeat high
const CLICK_LENGTH = 0.05; // seconds

/**
 * Watches both hands' select state every frame; a new pinch toggles the metronome. Time comes
 * from XR Blocks' timer: the time since the last beat is accumulated and a beat's worth is taken
 * off at each click, so the remainder carries over and nothing drifts. Each click is an
 * oscillator of its own, stopped by this script once CLICK_LENGTH has passed.
 */
class PollingMetronome extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.wasPinching = [false, false];
    this.running = false;
    this.sinceBeat = 0;
    this.beat = 0;
    this.clock = 0;
    this.sounding = [];
    this.audio = null;
  }

  update() {
    const dt = xb.core.timer.getDelta();
    this.clock += dt;
    let toggled = false;
    xb.core.input.controllers.slice(0, 2).forEach((controller, i) => {
      const pinching = controller?.userData?.selected === true;
      if (pinching && !this.wasPinching[i]) toggled = !toggled;
      this.wasPinching[i] = pinching;
    });
    if (this.running) this.sinceBeat += dt;
    if (toggled) {
      this.running = !this.running;
      if (this.running) {
        this.beat = 0;
        this.sinceBeat = BEAT; // the first click right now
      }
    }
    if (this.running) {
      while (this.sinceBeat >= BEAT - 1e-9) {
        this.sinceBeat -= BEAT;
        this.click(PITCHES[this.beat % PITCHES.length]);
        this.beat++;
      }
    }
    this.sounding = this.sounding.filter(({osc, at}) => {
      if (this.clock - at < CLICK_LENGTH - 1e-9) return true;
      osc.stop();
      return false;
    });
  }

  click(frequency) {
    if (!this.audio) this.audio = new AudioContext();
    const osc = this.audio.createOscillator();
    osc.type = 'square';
    osc.frequency.value = frequency;
    const gain = this.audio.createGain();
    gain.gain.value = 0.2;
    osc.connect(gain).connect(this.audio.destination);
    osc.start();
    this.sounding.push({osc, at: this.clock});
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PollingMetronome());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
