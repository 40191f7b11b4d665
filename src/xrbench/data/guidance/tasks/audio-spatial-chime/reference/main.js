import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A sphere 1.5 m to the user's left; selecting it plays a soft chime from its position
 * (positional audio fed by an oscillator through XR Blocks' audio listener) and it glows.
 */
class Chime extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.sphere = new THREE.Mesh(
      new THREE.SphereGeometry(0.1, 32, 16),
      new THREE.MeshPhongMaterial({color: 0x4fc3f7, emissive: 0x000000}));
    this.sphere.position.set(-1.5, xb.user.height, -0.5);
    this.add(this.sphere);

    this.audio = new THREE.PositionalAudio(xb.core.sound.getAudioListener());
    this.audio.setRefDistance(0.5);
    const context = this.audio.context;
    this.oscillator = context.createOscillator();
    this.oscillator.type = 'sine';
    this.oscillator.frequency.value = 880;
    this.envelope = context.createGain();
    this.envelope.gain.value = 0;
    this.oscillator.connect(this.envelope);
    this.oscillator.start();
    this.audio.setNodeSource(this.envelope);
    this.sphere.add(this.audio);
    this.glow = 0;
  }

  onObjectSelectStart(event) {
    if (event.surface !== this.sphere) return;
    const context = this.audio.context;
    if (context.state === 'suspended') context.resume();
    const now = context.currentTime;
    const gain = this.envelope.gain;
    gain.cancelScheduledValues(now);
    gain.setValueAtTime(0, now);
    gain.linearRampToValueAtTime(0.3, now + 0.02);
    gain.exponentialRampToValueAtTime(0.0001, now + 1.2);
    this.glow = 1.2;
  }

  update() {
    if (this.glow <= 0) return;
    this.glow = Math.max(0, this.glow - xb.getDeltaTime());
    this.sphere.material.emissive.setRGB(0.3 * this.glow, 0.3 * this.glow, 0.3 * this.glow);
  }

  dispose() {
    this.oscillator.stop();
    this.oscillator.disconnect();
    this.envelope.disconnect();
    this.audio.disconnect();
    this.sphere.remove(this.audio);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Chime());
  xb.init(new xb.Options());
});
