import * as THREE from 'three';
import * as xb from 'xrblocks';

const PITCH = {left: 440, right: 660};

/** Plays a tone whenever the gesture recogniser reports a pinch of a hand. */
class GestureChime extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    xb.core.gestureRecognition?.addEventListener('gesturestart', (event) => {
      const {name, hand} = event.detail ?? {};
      if (name !== 'pinch' || !PITCH[hand]) return;
      xb.core.sound.soundSynthesizer.playTone(PITCH[hand], 0.25, 0.4, 'sine');
    });
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new GestureChime());
  const options = new xb.Options();
  options.enableHands();
  options.enableGestures();
  xb.init(options);
});
