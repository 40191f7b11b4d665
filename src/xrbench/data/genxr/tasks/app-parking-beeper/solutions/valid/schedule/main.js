import * as xb from 'xrblocks';

/**
 * A proximity beeper with its own oscillators: time since the last beep is summed from the frame
 * deltas, and a beep starts when it reaches the interval for this frame's distance ahead.
 */
function intervalFor(distance) {
  if (distance < 0.4) return 0.15;
  if (distance < 0.7) return 0.3;
  return 0.6;
}

class Beeper extends xb.Script {
  init() {
    this.context = null;
    this.beeping = false;
    this.sinceLast = 0;
  }

  beep(frequency) {
    if (!this.context) this.context = new AudioContext();
    const osc = this.context.createOscillator();
    const gain = this.context.createGain();
    osc.type = 'sine';
    osc.frequency.value = frequency;
    gain.gain.value = 0.3;
    osc.connect(gain).connect(this.context.destination);
    const t = this.context.currentTime;
    osc.start(t);
    osc.stop(t + 0.05);
  }

  update() {
    const dt = xb.core.timer.getDelta();
    const depth = xb.core.depth;
    const d = depth && depth.depthArray && depth.depthArray[0] ? depth.getDepth(0.5, 0.5) : 0;
    if (d <= 0 || d >= 1.2) {
      this.beeping = false;
      return;
    }
    if (!this.beeping) {
      this.beeping = true;
      this.sinceLast = 0;
      this.beep(d < 0.4 ? 1760 : 880);
      return;
    }
    this.sinceLast += dt;
    if (this.sinceLast >= intervalFor(d) - 1e-6) {
      this.sinceLast = 0;
      this.beep(d < 0.4 ? 1760 : 880);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  xb.add(new Beeper());
  xb.init(options);
});
