import * as THREE from 'three';
import * as xb from 'xrblocks';

const OFF = 0x9e9e9e;
const ON = 0xffc857;

/**
 * A lamp card: a "Toggle" button switches the status text and a sphere next to the card.
 */
class LampCard extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.on = false;

    const y = xb.user.height - 0.1;
    const z = -xb.user.panelDistance;
    this.bulb = new THREE.Mesh(
      new THREE.SphereGeometry(0.08, 32, 16),
      new THREE.MeshPhongMaterial({color: OFF}));
    this.bulb.position.set(0.45, y, z);
    this.add(this.bulb);

    this.status = new xb.UIText({text: 'Off', style: {fontSize: 28}});
    this.card = new xb.UICard({
      name: 'lamp-card',
      size: {width: 0.5, height: 'auto'},
      style: {padding: 24, gap: 16, flexDirection: 'column', alignItems: 'center'},
    });
    this.card.add(
      new xb.UIText({text: 'Lamp', style: {fontSize: 40, fontWeight: 'bold'}}),
      this.status,
      new xb.UIButton({label: 'Toggle', onClick: () => this.toggle()}),
    );
    this.card.position.set(0, y, z);
    this.add(this.card);
  }

  toggle() {
    this.on = !this.on;
    this.status.text = this.on ? 'On' : 'Off';
    this.bulb.material.color.setHex(this.on ? ON : OFF);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new LampCard());
  xb.init(new xb.Options());
});
