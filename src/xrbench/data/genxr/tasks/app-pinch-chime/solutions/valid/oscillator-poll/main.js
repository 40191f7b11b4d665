import * as THREE from 'three';
import * as xb from 'xrblocks';

// Each hand's tone: the left hand is controller 0, the right hand controller 1.
const HANDS = [
  {name: 'left', frequency: 440},
  {name: 'right', frequency: 660},
];
const LENGTH = 0.25;  // seconds

/**
 * Watches each hand's select state every frame and, on the frame it turns on, plays a short
 * oscillator tone of its own (no XR Blocks synthesizer).
 */
class ChimeWatcher extends xb.Script {
  init() {
    this.wasSelected = [false, false];
    this.context = null;
    const cylinder = new THREE.Mesh(
      new THREE.CylinderGeometry(0.2, 0.2, 0.4, 32),
      new THREE.MeshPhongMaterial({color: 0xffffff}));
    cylinder.position.set(0, xb.user.height - 0.5, -xb.user.objectDistance);
    this.add(cylinder);
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }

  update() {
    const controllers = xb.core.input.controllers;
    HANDS.forEach((hand, i) => {
      const selected = controllers[i]?.userData?.selected === true;
      if (selected && !this.wasSelected[i]) this.chime(hand.frequency);
      this.wasSelected[i] = selected;
    });
  }

  chime(frequency) {
    if (!this.context) this.context = new AudioContext();
    const ctx = this.context;
    const osc = ctx.createOscillator();
    osc.type = 'triangle';
    osc.frequency.value = frequency;
    const gain = ctx.createGain();
    gain.gain.value = 0.3;
    osc.connect(gain).connect(ctx.destination);
    const now = ctx.currentTime;
    osc.start(now);
    osc.stop(now + LENGTH);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ChimeWatcher());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
