// A card with a title and two buttons, built with XR Blocks UI. The buttons' tag states count
// clicks; nothing publishes where the buttons are drawn: the harness reads their laid-out
// rectangles itself (SceneNode.ui_rect).
import * as THREE from 'three';
import * as xb from 'xrblocks';

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

class Card extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const yesState = {clicks: 0}, noState = {clicks: 0};
    const yes = new xb.UIButton({label: 'Yes', style: {width: 200, height: 100}, onClick: () => yesState.clicks++});
    const no = new xb.UIButton({label: 'No', style: {width: 120, height: 100}, onClick: () => noState.clicks++});
    tag(yes, 'yes-button', yesState);
    tag(no, 'no-button', noState);
    const title = new xb.UIText({text: 'Continue?', style: {fontSize: 40}});
    tag(title, 'title');
    this.card = new xb.UICard({
      size: {width: 0.6, height: 0.3},
      style: {padding: 20, gap: 20, flexDirection: 'column', alignItems: 'center'},
      children: [title, new xb.UIPanel({style: {flexDirection: 'row', gap: 40}, children: [yes, no]})],
    });
    this.card.position.set(0.1, 1.3, -0.8);
    tag(this.card, 'card');
    this.add(this.card);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Card());
  xb.init(new xb.Options());
});
