import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Volume card: a world-space card with one horizontal slider (0 to 1, step 0.01) and, below it,
 * a small card with a Mute button that sets the volume to 0.
 *
 * The slider card is 0.44 m wide and centred at (0, 1.4, -0.8); the slider fills it except for
 * the card's padding. Objects carry XR Blocks DevTools tags (`userData.xrblocksDevtools`) with
 * their state.
 */
function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

class VolumeCard extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const state = {value: 0.3, inputs: 0, changes: 0, lastChange: null};
    this.sliderCard = new xb.UICard({size: {width: 0.44, height: 'auto'}});
    this.sliderCard.position.set(0, 1.4, -0.8);
    tag(this.sliderCard, 'volume-card');
    this.slider = new xb.UISlider({
      ariaLabel: 'Volume',
      min: 0,
      max: 1,
      step: 0.01,
      value: state.value,
      style: {width: '100%', height: 48},
      onInput: (value) => {
        state.value = value;
        state.inputs += 1;
      },
      onChange: (value) => {
        state.changes += 1;
        state.lastChange = value;
      },
    });
    tag(this.slider, 'volume-slider', state);
    this.sliderCard.add(this.slider);
    this.add(this.sliderCard);

    const muteState = {clicks: 0};
    this.buttonCard = new xb.UICard({size: {width: 0.16, height: 'auto'}});
    this.buttonCard.position.set(0, 1.25, -0.8);
    this.mute = new xb.UIButton({
      label: 'Mute',
      style: {width: '100%'},
      onClick: () => {
        muteState.clicks += 1;
        this.slider.value = 0;
        state.value = this.slider.value;
      },
    });
    tag(this.mute, 'mute-button', muteState);
    this.buttonCard.add(this.mute);
    this.add(this.buttonCard);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new VolumeCard());
  xb.init(new xb.Options());
});
