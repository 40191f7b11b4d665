import * as THREE from 'three';
import * as xb from 'xrblocks';
import {LipsyncMouth} from 'xrblocks/addons/lipsync/index.js';

/**
 * A talking head: selecting it starts or stops a synthetic voice (oscillators, no files, no
 * microphone) whose MediaStream drives the head's mouth through the lipsync addon.
 */
class TalkingHead extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.talking = false;

    this.head = new THREE.Mesh(
      new THREE.SphereGeometry(0.1, 32, 16),
      new THREE.MeshPhongMaterial({color: 0xffcc80}));
    this.head.position.set(0, xb.user.height - 0.1, -1.2);
    this.head.rotation.y = Math.PI;  // the face sits on the head's local -Z: turn it to the user
    this.head.userData.xrblocksDevtools = {tag: 'talking-head', state: {talking: false}};
    this.add(this.head);

    this.face = new xb.StylizedFace({headRadius: 0.1});
    this.head.add(this.face);

    // The voice: a buzzy tone with a wobbling pitch, into a MediaStream.
    this.audioContext = THREE.AudioContext.getContext();
    this.voice = this.audioContext.createMediaStreamDestination();
  }

  onObjectSelectStart(event) {
    if (!xb.objectIsDescendantOf(event.surface, this.head)) return;
    if (this.talking) this.stopTalking();
    else this.startTalking();
  }

  startTalking() {
    const ctx = this.audioContext;
    ctx.resume();
    this.oscillator = ctx.createOscillator();
    this.oscillator.type = 'sawtooth';
    this.oscillator.frequency.value = 180;
    this.wobble = ctx.createOscillator();
    this.wobble.frequency.value = 3;
    const depth = ctx.createGain();
    depth.gain.value = 40;
    this.wobble.connect(depth).connect(this.oscillator.frequency);
    this.gain = ctx.createGain();
    this.gain.gain.value = 0.3;
    this.oscillator.connect(this.gain);
    this.gain.connect(this.voice);
    this.gain.connect(ctx.destination);
    this.oscillator.start();
    this.wobble.start();

    this.mouth = new LipsyncMouth(this.voice.stream, {target: this.face, audioContext: ctx});
    this.head.add(this.mouth);
    this.setTalking(true);
  }

  stopTalking() {
    this.oscillator?.stop();
    this.wobble?.stop();
    this.gain?.disconnect();
    this.oscillator = this.wobble = this.gain = undefined;
    if (this.mouth) {
      this.mouth.dispose();  // resets the face to its rest pose
      this.mouth.removeFromParent();
      this.mouth = undefined;
    }
    this.setTalking(false);
  }

  setTalking(talking) {
    this.talking = talking;
    this.head.userData.xrblocksDevtools.state.talking = talking;
  }

  dispose() {
    this.stopTalking();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new TalkingHead());
  xb.init(new xb.Options());
});
