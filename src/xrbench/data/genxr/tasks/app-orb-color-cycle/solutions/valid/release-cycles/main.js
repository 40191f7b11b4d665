import * as THREE from 'three';
import * as xb from 'xrblocks';

// Six clearly different colours (any two at least 0x40 apart in some channel).
const PALETTE = ['#ff5722', '#3f51b5', '#8bc34a', '#ffffff', '#9c27b0', '#00bcd4'];

/**
 * A lit orb that takes the next colour of its palette when a selection of it ends (the pinch or
 * trigger is released with the ray still on it), one step per selection, per hand.
 */
class PaletteOrb extends xb.Script {
  init() {
    const sun = new THREE.DirectionalLight(0xffffff, 2.0);
    sun.position.set(0.5, 3, 1);
    this.add(sun, new THREE.AmbientLight(0xffffff, 0.8));

    this.index = 0;
    this.material = new THREE.MeshLambertMaterial({color: PALETTE[0]});
    this.orb = new THREE.Mesh(new THREE.IcosahedronGeometry(0.15, 5), this.material);
    this.orb.name = 'orb';
    this.orb.position.set(0, xb.user.height, -1.0);
    this.orb.userData.xrblocksDevtools = {tag: 'color-orb', state: {}};
    this.add(this.orb);
    this.show();
  }

  show() {
    this.material.color.set(PALETTE[this.index]);
    this.orb.userData.xrblocksDevtools.state = {
      color: '#' + this.material.color.getHexString(),
      index: this.index,
    };
  }

  onObjectSelectEnd() {
    this.index = (this.index + 1) % PALETTE.length;
    this.show();
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new PaletteOrb());
  xb.init(new xb.Options());
});
