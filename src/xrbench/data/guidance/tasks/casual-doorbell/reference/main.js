import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A doorbell button floating to the user's right: pressing it plays "ding-dong" from the button
 * (two oscillator tones through a positional audio source on the button).
 */
class Doorbell extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const plate = new THREE.Mesh(
      new THREE.BoxGeometry(0.14, 0.2, 0.02),
      new THREE.MeshPhongMaterial({color: 0xd7ccc8}));
    plate.position.set(0.5, xb.user.height - 0.2, -0.8);
    this.button = new THREE.Mesh(
      new THREE.CylinderGeometry(0.04, 0.04, 0.02, 32),
      new THREE.MeshPhongMaterial({color: 0xffb300}));
    this.button.rotation.x = Math.PI / 2;
    this.button.position.z = 0.02;
    plate.add(this.button);
    this.add(plate);

    this.audio = new THREE.PositionalAudio(xb.core.sound.getAudioListener());
    this.output = this.audio.context.createGain();
    this.audio.setNodeSource(this.output);
    this.button.add(this.audio);
  }

  onObjectSelectStart(event) {
    if (event.surface !== this.button) return;
    this.button.position.z = 0.012;
    this.ring();
  }

  onObjectSelectEnd(event) {
    if (event.surface === this.button) this.button.position.z = 0.02;
  }

  ring() {
    const context = this.audio.context;
    if (context.state === 'suspended') context.resume();
    const start = context.currentTime;
    [[659.25, 0], [523.25, 0.45]].forEach(([frequency, offset]) => {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.4, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.9);
      osc.connect(gain).connect(this.output);
      osc.start(start + offset);
      osc.stop(start + offset + 1);
      osc.onended = () => gain.disconnect();
    });
  }

  dispose() {
    this.output.disconnect();
    this.button.remove(this.audio);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Doorbell());
  xb.init(new xb.Options());
});
