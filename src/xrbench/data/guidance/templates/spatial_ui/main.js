import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A world-space card with a title, placed in front of the user. UI components (`UICard`,
 * `UIPanel`, `UIText`, `UIButton`, ...) are imported from `xrblocks`; the built-in UI starts
 * on its own.
 */
class CardScene extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.card = new xb.UICard({
      name: 'welcome-card',
      size: {width: 0.5, height: 'auto'},
      style: {padding: 24, gap: 12, flexDirection: 'column'},
    });
    this.card.add(new xb.UIText({text: 'Hello, XR Blocks', style: {fontSize: 32}}));
    this.card.position.set(0, xb.user.height - 0.2, -xb.user.panelDistance);
    this.add(this.card);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new CardScene());
  xb.init(new xb.Options());
});
