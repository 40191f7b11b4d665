import * as THREE from 'three';
import * as xb from 'xrblocks';

const PITCH = {left: 440, right: 660};  // Hz
const TONE_SECONDS = 0.25;

/** Every pinch (a select of a tracked hand) plays one short tone; the pitch says which hand. */
class PinchChime extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    const frequency = PITCH[hand];
    if (!frequency) return;
    xb.core.sound.soundSynthesizer.playTone(frequency, TONE_SECONDS, 0.4, 'sine');
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PinchChime());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
