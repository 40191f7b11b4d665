import * as THREE from 'three';
import * as xb from 'xrblocks';

const BAR_WIDTH = 0.2;
const TICK_HZ = 1000;
const ALARM_HZ = 660;

/**
 * A countdown panel: pinch "3 s" or "5 s" to start a countdown (the same button again cancels
 * it, the other restarts with its length); a bar shrinks with the time left, a tick sounds every
 * whole second and an alarm at the end. Timed on performance.now(), XR Blocks' frame clock.
 */
class Countdown extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.panel = new THREE.Group();
    this.panel.position.set(0, xb.user.height - 0.3, -0.7);
    this.add(this.panel);
    this.buttons = new Map();
    for (const [seconds, x] of [[3, -0.06], [5, 0.06]]) {
      const button = new THREE.Mesh(new THREE.PlaneGeometry(0.09, 0.06),
                                    new THREE.MeshBasicMaterial({color: 0x3f51b5}));
      button.position.set(x, -0.04, 0);
      button.userData.xrblocksDevtools = {tag: 'countdown-button', state: {seconds}};
      this.panel.add(button);
      this.buttons.set(button, seconds);
    }
    // The bar's geometry starts at its left end, so scaling x shrinks it towards the left.
    const geometry = new THREE.PlaneGeometry(BAR_WIDTH, 0.025).translate(BAR_WIDTH / 2, 0, 0);
    this.bar = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({color: 0xffc107}));
    this.bar.position.set(-BAR_WIDTH / 2, 0.05, 0);
    this.bar.visible = false;
    this.bar.userData.xrblocksDevtools = {tag: 'countdown-bar', state: {}};
    this.panel.add(this.bar);
    this.running = null;  // {seconds, start (ms), ticks played}
  }

  onSelectStart(event) {
    const seconds = this.buttons.get(event.surface ?? event.target);
    if (!seconds) return;
    if (this.running && this.running.seconds === seconds) {
      this.stop();
      return;
    }
    this.running = {seconds, start: performance.now(), ticks: seconds};
    const synth = xb.core.sound.soundSynthesizer;
    synth.audioContext ??= new AudioContext();
    const context = synth.audioContext;
    for (let k = 1; k <= seconds; k++) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      gain.gain.value = 0.3;
      osc.frequency.value = k < seconds ? TICK_HZ : ALARM_HZ;
      osc.connect(gain).connect(context.destination);
      osc.start(context.currentTime + k);
      osc.stop(context.currentTime + k + (k < seconds ? 0.05 : 0.5));
    }
    this.bar.visible = true;
    this.bar.scale.x = 1;
  }

  stop() {
    this.running = null;
    this.bar.visible = false;
  }

  update() {
    const run = this.running;
    if (!run) return;
    const elapsed = (performance.now() - run.start) / 1000;
    while (run.ticks + 1 < run.seconds && elapsed >= run.ticks + 1) {
      run.ticks += 1;
      this.tone(TICK_HZ, 0.05);
    }
    if (elapsed >= run.seconds) {
      this.stop();
      return;
    }
    this.bar.scale.x = Math.max(1e-4, 1 - elapsed / run.seconds);
  }

  tone(frequency, seconds) {
    const synth = xb.core.sound.soundSynthesizer;
    synth.playTone(frequency, seconds, 0.4, 'sine');
    const context = synth.audioContext;
    if (context && context.state === 'suspended') context.resume().catch(() => {});
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Countdown());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
