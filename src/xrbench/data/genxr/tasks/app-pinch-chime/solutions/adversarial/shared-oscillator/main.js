import * as THREE from 'three';
import * as xb from 'xrblocks';

const PITCH = {left: 440, right: 660};

/** A single-voice chime: each pinch replaces whatever tone is playing. */
class SingleVoiceChime extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.ctx = null;
    this.voice = null;
  }

  onSelectStart(event) {
    const frequency = PITCH[event.source?.handedness];
    if (!frequency) return;
    if (!this.ctx) this.ctx = new AudioContext();
    if (this.voice) this.voice.stop();
    const osc = this.ctx.createOscillator();
    osc.frequency.value = frequency;
    osc.connect(this.ctx.destination);
    osc.start();
    osc.stop(this.ctx.currentTime + 0.25);
    this.voice = osc;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new SingleVoiceChime());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
