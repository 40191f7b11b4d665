import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * The settings card on the current UI (XR Blocks 0.20+): a world-space UICard with a title and
 * an "OK" button that turns the cube green. The built-in UI starts on its own.
 */
class SettingsPanel extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.cube = new THREE.Mesh(
      new THREE.BoxGeometry(0.2, 0.2, 0.2),
      new THREE.MeshPhongMaterial({color: 0x888888}));
    this.cube.position.set(0.4, xb.user.height - 0.3, -1.2);
    this.add(this.cube);

    const card = new xb.UICard({
      name: 'settings',
      size: {width: 0.6, height: 0.4},
      style: {padding: 24, gap: 16, flexDirection: 'column', alignItems: 'center', justifyContent: 'center'},
    });
    card.add(
      new xb.UIText({text: 'Settings', style: {fontSize: 40}}),
      new xb.UIButton({
        label: 'OK',
        onClick: () => {
          this.cube.material.color.setHex(0x34a853);
        },
      }),
    );
    card.position.set(-0.2, xb.user.height - 0.2, -1.2);
    this.add(card);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new SettingsPanel());
  xb.init(new xb.Options());
});
