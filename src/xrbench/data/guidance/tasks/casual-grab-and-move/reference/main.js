import * as THREE from 'three';
import * as xb from 'xrblocks';

/** A wooden crate: planks drawn on a canvas texture. */
function woodTexture() {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 128;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#a1887f';
  ctx.fillRect(0, 0, 128, 128);
  ctx.strokeStyle = '#6d4c41';
  ctx.lineWidth = 6;
  ctx.strokeRect(3, 3, 122, 122);
  for (let y = 32; y < 128; y += 32) {
    ctx.beginPath();
    ctx.moveTo(0, y);
    ctx.lineTo(128, y);
    ctx.stroke();
  }
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

/**
 * A crate the user can grab to move, spin around its vertical axis, and scale with two hands,
 * all through XR Blocks' automatic manipulation.
 */
class Crate extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.texture = woodTexture();
    this.crate = new THREE.Mesh(
      new THREE.BoxGeometry(0.3, 0.3, 0.3),
      new THREE.MeshStandardMaterial({map: this.texture, roughness: 0.8}));
    this.crate.position.set(0, xb.user.height - 0.4, -xb.user.objectDistance);
    this.crate.xb = {
      manipulation: {
        actions: {
          translate: {faceCamera: false},
          rotate: {axis: 'y'},
          scale: {minScale: 0.5, maxScale: 3},
        },
      },
    };
    this.add(this.crate);
  }

  dispose() {
    this.texture.dispose();
  }
}

const options = new xb.Options();
options.enableHands();

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Crate());
  xb.init(options);
});
