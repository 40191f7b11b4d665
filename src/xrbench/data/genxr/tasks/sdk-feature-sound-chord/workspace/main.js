import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Chord pads: two pads that play a chord through XR Blocks' sound synthesizer
 * (`xb.core.sound.soundSynthesizer.playChord`) when pressed with a ray pinch of either hand.
 *
 * - The warm pad (left) plays a C major triad (C4, E4, G4) for 0.4 s.
 * - The open pad (right) plays a bare fifth (A3, E4) for 0.25 s.
 *
 * Each pad carries an XR Blocks DevTools tag (`userData.xrblocksDevtools`) with its press count.
 */
const CHORDS = {
  'warm-pad': {x: -0.12, color: 0xe08a3c, notes: [261.63, 329.63, 392.0], duration: 0.4},
  'open-pad': {x: 0.12, color: 0x3c8ae0, notes: [220.0, 329.63], duration: 0.25},
};

class ChordPad extends xb.Script {
  constructor(tag) {
    super();
    this.tag = tag;
    this.chord = CHORDS[tag];
  }

  init() {
    this.mesh = new THREE.Mesh(
      new THREE.BoxGeometry(0.16, 0.16, 0.04),
      new THREE.MeshStandardMaterial({color: this.chord.color}));
    this.mesh.position.set(this.chord.x, 1.35, -0.8);
    this.state = {presses: 0};
    this.mesh.userData.xrblocksDevtools = {tag: this.tag, state: this.state};
    this.add(this.mesh);
  }

  onObjectSelectStart() {
    this.state.presses += 1;
    xb.core.sound.soundSynthesizer.playChord(this.chord.notes, this.chord.duration, 0.4, 'triangle');
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Room());
  xb.add(new ChordPad('warm-pad'));
  xb.add(new ChordPad('open-pad'));
  xb.init(new xb.Options());
});
