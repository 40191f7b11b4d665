import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Two world-space cards with one horizontal slider each, and a Mute button.
 *
 * - Volume: a card 0.44 m wide centred at (0, 1.4, -0.8), facing the user, with a slider from 0 to
 *   1 (step 0.01, starting at 0.3). Below it, a small card centred at (0, 1.25, -0.8) holds a
 *   Mute button that sets the volume to 0.
 * - Brightness: a card 0.36 m wide centred at (0.42, 1.3, -0.6), turned 35 degrees towards the
 *   user and tilted back 25 degrees, with a slider from 20 to 100 (step 5, starting at 60).
 *
 * Each slider fills its card except for the card's padding. Objects carry XR Blocks DevTools tags
 * (`userData.xrblocksDevtools`) with their state; each slider's state keeps every value its
 * `onInput` and `onChange` reported, in order.
 */
function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function sliderCard(script, {name, width, position, rotation, min, max, step, value}) {
  const state = {value, inputs: 0, changes: 0, lastChange: null, inputValues: [], changeValues: []};
  const card = new xb.UICard({size: {width, height: 'auto'}});
  card.position.set(...position);
  if (rotation) card.rotation.set(...rotation);
  tag(card, `${name}-card`);
  const slider = new xb.UISlider({
    ariaLabel: name,
    min,
    max,
    step,
    value,
    style: {width: '100%', height: 48},
    onInput: (next) => {
      state.value = next;
      state.inputs += 1;
      state.inputValues.push(next);
    },
    onChange: (next) => {
      state.changes += 1;
      state.lastChange = next;
      state.changeValues.push(next);
    },
  });
  tag(slider, `${name}-slider`, state);
  card.add(slider);
  script.add(card);
  return {card, slider, state};
}

class SliderCards extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.volume = sliderCard(this, {
      name: 'volume',
      width: 0.44,
      position: [0, 1.4, -0.8],
      min: 0,
      max: 1,
      step: 0.01,
      value: 0.3,
    });
    this.brightness = sliderCard(this, {
      name: 'brightness',
      width: 0.36,
      position: [0.42, 1.3, -0.6],
      rotation: [THREE.MathUtils.degToRad(-25), THREE.MathUtils.degToRad(-35), 0, 'YXZ'],
      min: 20,
      max: 100,
      step: 5,
      value: 60,
    });

    const muteState = {clicks: 0};
    this.buttonCard = new xb.UICard({size: {width: 0.16, height: 'auto'}});
    this.buttonCard.position.set(0, 1.25, -0.8);
    this.mute = new xb.UIButton({
      label: 'Mute',
      style: {width: '100%'},
      onClick: () => {
        muteState.clicks += 1;
        this.volume.slider.value = 0;
        this.volume.state.value = this.volume.slider.value;
      },
    });
    tag(this.mute, 'mute-button', muteState);
    this.buttonCard.add(this.mute);
    this.add(this.buttonCard);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new SliderCards());
  xb.init(new xb.Options());
});
