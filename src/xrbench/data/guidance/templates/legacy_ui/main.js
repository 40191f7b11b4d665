import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A settings panel written for XR Blocks 0.15 (before the v0.20 UI rewrite): a spatial panel
 * with a title and an "OK" button that turns the cube green.
 */
class SettingsPanel extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.cube = new THREE.Mesh(
      new THREE.BoxGeometry(0.2, 0.2, 0.2),
      new THREE.MeshPhongMaterial({color: 0x888888}));
    this.cube.position.set(0.4, xb.user.height - 0.3, -1.2);
    this.add(this.cube);

    const panel = new xb.SpatialPanel({backgroundColor: '#2b2b2baa', width: 0.6, height: 0.4});
    panel.position.set(-0.2, xb.user.height - 0.2, -1.2);
    this.add(panel);

    const grid = panel.addGrid();
    grid.addRow({weight: 0.6}).add(new xb.TextView({text: 'Settings', fontSize: 0.08}));
    const ok = grid.addRow({weight: 0.4}).add(new xb.TextButton({text: 'OK', fontSize: 0.06}));
    ok.onTriggered = () => {
      this.cube.material.color.setHex(0x34a853);
    };
  }
}

const options = new xb.Options();
options.enableUI();

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new SettingsPanel());
  xb.init(options);
});
