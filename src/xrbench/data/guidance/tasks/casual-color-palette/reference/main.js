import * as THREE from 'three';
import * as xb from 'xrblocks';

const COLORS = [
  {label: 'Red', hex: 0xe53935},
  {label: 'Green', hex: 0x43a047},
  {label: 'Blue', hex: 0x1e88e5},
];

/**
 * A floating palette: one large button per colour paints the ball in front of the user.
 */
class Palette extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.ball = new THREE.Mesh(
      new THREE.SphereGeometry(0.12, 32, 16),
      new THREE.MeshPhongMaterial({color: 0xffffff}));
    this.ball.position.set(0, xb.user.height - 0.35, -xb.user.objectDistance);
    this.add(this.ball);

    const palette = new xb.UICard({
      name: 'palette',
      size: {width: 0.6, height: 'auto'},
      style: {padding: 20, gap: 16, flexDirection: 'row', justifyContent: 'center'},
    });
    for (const {label, hex} of COLORS) {
      palette.add(new xb.UIButton({
        label,
        style: {minWidth: 140, minHeight: 90, fontSize: 32},
        onClick: () => this.ball.material.color.setHex(hex),
      }));
    }
    palette.position.set(0, xb.user.height + 0.05, -xb.user.panelDistance);
    this.add(palette);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Palette());
  xb.init(new xb.Options());
});
