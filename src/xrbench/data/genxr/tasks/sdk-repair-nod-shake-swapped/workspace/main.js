import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Yes or no: a question card that the user answers with their head. A nod answers "yes" (the
 * lamp on the left of the card turns green), a shake answers "no" (the lamp on the right turns
 * red). Every head-gesture event the app receives is also logged as a small marker under the
 * card: a green ball for `nod`, a red cube for `shake`, and a grey arrow for the directional
 * events (`nod-up`, `nod-down`, `shake-left`, `shake-right`) pointing the way the head went first.
 *
 * Objects carry XR Blocks DevTools tags (`userData.xrblocksDevtools`) with their state.
 */
function tag(object, name, state) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

const ARROW_ROTATION = {up: 0, left: Math.PI / 2, down: Math.PI, right: -Math.PI / 2};

class YesNoCard extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.card = new THREE.Mesh(
      new THREE.BoxGeometry(0.7, 0.4, 0.02),
      new THREE.MeshStandardMaterial({color: 0x2a3b4c}));
    this.card.position.set(0, 1.5, -1.3);
    this.card.name = 'question-card';
    this.cardState = tag(this.card, 'question-card', {answer: null, gestures: 0});
    this.add(this.card);

    this.yesLamp = this.makeLamp('yes-lamp', -0.25);
    this.noLamp = this.makeLamp('no-lamp', 0.25);

    this.log = new THREE.Group();
    this.log.name = 'gesture-log';
    this.log.position.set(-0.3, -0.28, 0.02);
    this.card.add(this.log);

    const headGestures = xb.core.input.headGestures;
    headGestures.addEventListener('gesture', (event) => this.onHeadGesture(event.detail));
  }

  makeLamp(name, x) {
    const lamp = new THREE.Mesh(
      new THREE.SphereGeometry(0.04, 24, 16),
      new THREE.MeshStandardMaterial({color: 0x777777}));
    lamp.position.set(x, 0.1, 0.03);
    lamp.name = name;
    lamp.userData.state = tag(lamp, name, {lit: false});
    this.card.add(lamp);
    return lamp;
  }

  onHeadGesture({name, confidence, data}) {
    const direction = data?.initialDirection ?? null;
    const index = this.cardState.gestures++;
    this.addMarker(name, direction, confidence, index);
    if (name === 'nod') this.answer('yes');
    if (name === 'shake') this.answer('no');
  }

  answer(value) {
    this.cardState.answer = value;
    this.yesLamp.userData.state.lit = value === 'yes';
    this.noLamp.userData.state.lit = value === 'no';
    this.yesLamp.material.color.setHex(value === 'yes' ? 0x33dd55 : 0x777777);
    this.noLamp.material.color.setHex(value === 'no' ? 0xee3333 : 0x777777);
  }

  addMarker(name, direction, confidence, index) {
    let marker;
    if (name === 'nod') {
      marker = new THREE.Mesh(
        new THREE.SphereGeometry(0.015, 16, 12),
        new THREE.MeshStandardMaterial({color: 0x33dd55}));
    } else if (name === 'shake') {
      marker = new THREE.Mesh(
        new THREE.BoxGeometry(0.025, 0.025, 0.025),
        new THREE.MeshStandardMaterial({color: 0xee3333}));
    } else {
      marker = new THREE.Mesh(
        new THREE.ConeGeometry(0.012, 0.03, 12),
        new THREE.MeshStandardMaterial({color: 0xaaaaaa}));
      marker.rotation.z = ARROW_ROTATION[direction] ?? 0;
    }
    marker.position.set((index % 16) * 0.04, -Math.floor(index / 16) * 0.04, 0);
    marker.name = 'head-gesture';
    tag(marker, 'head-gesture', {name, direction, confidence, index});
    this.log.add(marker);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new YesNoCard());
  const options = new xb.Options();
  options.enableHeadGestures();
  xb.init(options);
});
