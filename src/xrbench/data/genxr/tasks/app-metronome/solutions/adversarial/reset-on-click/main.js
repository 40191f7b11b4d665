import * as THREE from 'three';
import * as xb from 'xrblocks';

class DriftingMetronome extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.running = false;
    this.elapsed = 0;
    this.count = 0;
  }

  onSelectStart() {
    this.running = !this.running;
    if (this.running) {
      this.count = 0;
      this.elapsed = 0;
      this.tick();
    }
  }

  update() {
    if (!this.running) return;
    this.elapsed += xb.core.timer.getDelta();
    if (this.elapsed >= 0.5) {
      this.elapsed = 0;
      this.tick();
    }
  }

  tick() {
    const frequency = this.count % 4 === 0 ? 1760 : 880;
    xb.core.sound.soundSynthesizer.playTone(frequency, 0.05, 0.5, 'square');
    this.count++;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new DriftingMetronome());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
