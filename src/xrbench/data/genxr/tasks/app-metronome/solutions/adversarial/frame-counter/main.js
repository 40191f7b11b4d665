import * as THREE from 'three';
import * as xb from 'xrblocks';

const FRAMES_PER_BEAT = 30; // 0.5 s at 60 frames per second
const PITCH = [1760, 880, 880, 880];

class FrameMetronome extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.running = false;
    this.frames = 0;
    this.beat = 0;
  }

  onSelectStart() {
    this.running = !this.running;
    if (this.running) {
      this.frames = 0;
      this.beat = 0;
      this.click();
    }
  }

  update() {
    if (!this.running) return;
    this.frames++;
    if (this.frames % FRAMES_PER_BEAT === 0) this.click();
  }

  click() {
    xb.core.sound.soundSynthesizer.playTone(PITCH[this.beat % 4], 0.05, 0.4, 'sine');
    this.beat++;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new FrameMetronome());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
