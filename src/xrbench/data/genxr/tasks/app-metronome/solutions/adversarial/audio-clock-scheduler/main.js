import * as THREE from 'three';
import * as xb from 'xrblocks';

const SECONDS_PER_BEAT = 0.5;
const LOOKAHEAD = 0.1; // seconds of clicks scheduled ahead

/** Look-ahead scheduler: every frame, schedule the clicks due within the next 0.1 s. */
class ScheduledMetronome extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.ctx = null;
    this.running = false;
  }

  onSelectStart() {
    if (!this.ctx) this.ctx = new AudioContext();
    this.running = !this.running;
    if (this.running) {
      this.beat = 0;
      this.nextTime = this.ctx.currentTime + 0.02;
      this.schedule();
    }
  }

  update() {
    if (this.running) this.schedule();
  }

  schedule() {
    while (this.nextTime < this.ctx.currentTime + LOOKAHEAD) {
      const osc = this.ctx.createOscillator();
      osc.frequency.value = this.beat % 4 === 0 ? 1760 : 880;
      osc.connect(this.ctx.destination);
      osc.start(this.nextTime);
      osc.stop(this.nextTime + 0.05);
      this.nextTime += SECONDS_PER_BEAT;
      this.beat++;
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ScheduledMetronome());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
