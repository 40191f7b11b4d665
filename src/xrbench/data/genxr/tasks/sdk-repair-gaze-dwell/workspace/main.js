import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A hands-free menu: buttons the user selects by looking at them (XR Blocks' gaze dwell).
 *
 * - A card 0.56 m wide centred at (0, 1.5, -1.2), facing the user, holds two buttons side by
 *   side: Lights (left) and Music (right).
 * - A second card 0.3 m wide centred at (0.8, 1.2, -0.8), turned 45 degrees towards the user,
 *   holds a Door button.
 *
 * Each button carries an XR Blocks DevTools tag (`userData.xrblocksDevtools`) whose state counts
 * its clicks and keeps the time (performance.now(), ms) of each.
 */
function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function gazeButton(card, name, label, style) {
  const state = {clicks: 0, clickTimes: []};
  const button = new xb.UIButton({
    label,
    style,
    onClick: () => {
      state.clicks += 1;
      state.clickTimes.push(performance.now());
      console.log(`${label} selected by gaze`);
    },
  });
  tag(button, name, state);
  card.add(button);
  return button;
}

class GazeMenu extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // The gaze ray follows the camera; give the controller its camera before its first update.
    const gaze = xb.core.input.gazeController;
    gaze.init({camera: xb.core.camera});
    xb.core.input.enableGazeController();

    const menu = new xb.UICard({
      size: {width: 0.56, height: 'auto'},
      style: {flexDirection: 'row', gap: 20},
    });
    menu.position.set(0, 1.5, -1.2);
    tag(menu, 'menu-card');
    gazeButton(menu, 'lights-button', 'Lights', {width: 240, height: 140});
    gazeButton(menu, 'music-button', 'Music', {width: 240, height: 140});
    this.add(menu);

    const side = new xb.UICard({size: {width: 0.3, height: 'auto'}});
    side.position.set(0.8, 1.2, -0.8);
    side.rotation.y = THREE.MathUtils.degToRad(-45);
    tag(side, 'door-card');
    gazeButton(side, 'door-button', 'Door', {width: '100%', height: 140});
    this.add(side);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new GazeMenu());
  xb.init(new xb.Options());
});
