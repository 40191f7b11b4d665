import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A hands-free lamp switch: the user looks at a button for 1.5 s to press it (XR Blocks' gaze
 * dwell). Reproduction app for the gaze controller at start-up.
 *
 * - A card 0.5 m wide centred at (0, 1.5, -1.2), facing the start, holds two buttons side by
 *   side: On (left) and Off (right).
 * - A second card 0.3 m wide centred at (-0.9, 1.2, -0.9), turned 45 degrees towards the
 *   start, holds a Dim button.
 *
 * Where the app turns the gaze controller on is chosen by the page (`<body data-gaze-start>`):
 * `script-init` (index.html): in the Script's init(); `before-init` (before-init.html): before
 * xb.init(); `off` (gaze-off.html): not at all (the app may turn it on later at run time).
 *
 * Each button carries an XR Blocks DevTools tag (`userData.xrblocksDevtools`) whose state counts
 * its clicks.
 */
const START = document.body.dataset.gazeStart || 'script-init';

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function lampButton(card, name, label, style) {
  const state = {clicks: 0};
  const button = new xb.UIButton({
    label,
    style,
    onClick: () => {
      state.clicks += 1;
      console.log(`${label} pressed`);
    },
  });
  tag(button, name, state);
  card.add(button);
  return button;
}

class GazeLamp extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    if (START === 'script-init') {
      xb.core.input.enableGazeController();
    }

    const panel = new xb.UICard({
      size: {width: 0.5, height: 'auto'},
      style: {flexDirection: 'row', gap: 20},
    });
    panel.position.set(0, 1.5, -1.2);
    tag(panel, 'lamp-card');
    lampButton(panel, 'on-button', 'On', {width: 220, height: 140});
    lampButton(panel, 'off-button', 'Off', {width: 220, height: 140});
    this.add(panel);

    const side = new xb.UICard({size: {width: 0.3, height: 'auto'}});
    side.position.set(-0.9, 1.2, -0.9);
    side.rotation.y = THREE.MathUtils.degToRad(45);
    tag(side, 'dim-card');
    lampButton(side, 'dim-button', 'Dim', {width: '100%', height: 140});
    this.add(side);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new GazeLamp());
  if (START === 'before-init') {
    xb.core.input.enableGazeController();
  }
  xb.init(new xb.Options());
});
