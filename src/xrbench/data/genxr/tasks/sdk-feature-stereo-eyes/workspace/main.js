// Stereo Gallery: a side-by-side stereo photo in a frame, and a stereo sign whose two badges are
// each seen by one eye only. The green button swaps the eyes (for photos taken the other way round).
//
// The desktop simulator runs in stereo (`options.simulator.stereo.enabled`): it has a left-eye and
// a right-eye camera; the left one sees layers 0 and 1, the right one layers 0 and 2, as the eye
// cameras of a WebXR session do. Objects carry semantic tags (`userData.xrblocksDevtools`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

const PHOTO_URL = 'stereo-photo.png';  // 512 x 192: the left eye's view left, the right eye's right

function tag(object, name, state = {}) {
  object.name = name;
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function flat(color) {
  return new THREE.MeshBasicMaterial({color});
}

/**
 * A badge of the stereo sign: a disc with a ring around it, a dot on the ring and a label bar in a
 * group of its own. All its parts are attached before it is handed to the eye helpers.
 */
function makeBadge(side, colors) {
  const disc = new THREE.Mesh(new THREE.CircleGeometry(0.07, 40), flat(colors.disc));
  tag(disc, `${side}-badge`, {side});
  const ring = new THREE.Mesh(new THREE.RingGeometry(0.075, 0.1, 48), flat(colors.ring));
  ring.position.z = 0.002;
  tag(ring, `${side}-badge-ring`);
  const dot = new THREE.Mesh(new THREE.CircleGeometry(0.022, 24), flat(colors.dot));
  dot.position.set(0, 0.0875, 0.002);  // on the ring, at its top
  tag(dot, `${side}-badge-dot`);
  ring.add(dot);
  const label = new THREE.Group();
  label.position.set(0, -0.035, 0.003);
  tag(label, `${side}-badge-label`);
  const bar = new THREE.Mesh(new THREE.PlaneGeometry(0.08, 0.022), flat(colors.bar));
  tag(bar, `${side}-badge-bar`);
  label.add(bar);
  disc.add(ring, label);
  return disc;
}

class SwapButton extends xb.MeshScript {
  constructor(gallery) {
    super(new THREE.BoxGeometry(0.16, 0.06, 0.06), flat(0x22aa44));
    this.gallery = gallery;
    this.position.set(0, 1.1, -1.2);
    this.state = tag(this, 'swap-button', {presses: 0});
  }

  onObjectSelectStart() {
    this.state.presses += 1;
    this.gallery.swapEyes();
  }
}

class StereoGallery extends xb.Script {
  async init() {
    this.state = tag(this, 'stereo-gallery', {swapped: false, photo: 'loading'});

    // The photo frame: a grey border (both eyes) and the two halves of the stereo photo.
    this.frame = new THREE.Group();
    this.frame.position.set(0, 1.5, -1.6);
    tag(this.frame, 'photo-frame');
    const border = new THREE.Mesh(new THREE.PlaneGeometry(0.76, 0.6), flat(0x505050));
    border.position.z = -0.01;
    tag(border, 'photo-border');
    this.frame.add(border);
    this.add(this.frame);

    // The stereo sign: a post and a plate (both eyes), a badge for each eye.
    this.sign = new THREE.Group();
    this.sign.position.set(0.6, 1.3, -1.5);
    tag(this.sign, 'stereo-sign');
    const post = new THREE.Mesh(new THREE.CylinderGeometry(0.015, 0.015, 0.5, 12), flat(0x999999));
    post.position.set(0, -0.36, -0.03);
    tag(post, 'sign-post');
    const plate = new THREE.Mesh(new THREE.BoxGeometry(0.52, 0.24, 0.01), flat(0x303070));
    plate.position.z = -0.02;
    plate.layers.enable(xb.OCCLUDABLE_ITEMS_LAYER);  // may be hidden behind real objects
    tag(plate, 'sign-plate');
    this.leftBadge = makeBadge('left', {disc: 0x20ff20, ring: 0xffff20, dot: 0xff20ff, bar: 0x20ffff});
    this.leftBadge.position.set(-0.13, 0, 0);
    this.rightBadge = makeBadge('right', {disc: 0xff8020, ring: 0xffffff, dot: 0x2020ff, bar: 0xff2020});
    this.rightBadge.position.set(0.13, 0, 0);
    this.sign.add(
      post, plate, xb.showOnlyInLeftEye(this.leftBadge), xb.showOnlyInRightEye(this.rightBadge));
    this.add(this.sign);

    this.add(new SwapButton(this));

    try {
      const [leftTexture, rightTexture] = await xb.loadStereoImageAsTextures(PHOTO_URL);
      for (const texture of [leftTexture, rightTexture]) {
        texture.colorSpace = THREE.SRGBColorSpace;
      }
      this.leftPhoto = new THREE.Mesh(
        new THREE.PlaneGeometry(0.64, 0.48), new THREE.MeshBasicMaterial({map: leftTexture}));
      this.leftPhoto.position.z = 0.002;
      tag(this.leftPhoto, 'left-photo');
      this.rightPhoto = new THREE.Mesh(
        new THREE.PlaneGeometry(0.64, 0.48), new THREE.MeshBasicMaterial({map: rightTexture}));
      tag(this.rightPhoto, 'right-photo');
      this.frame.add(xb.showOnlyInLeftEye(this.leftPhoto), xb.showOnlyInRightEye(this.rightPhoto));
      this.state.photo = 'shown';
    } catch (error) {
      console.warn('Stereo Gallery: the photo did not load', error);
      this.state.photo = 'failed';
    }
  }

  /** Each eye is shown what the other eye was shown. */
  swapEyes() {
    this.state.swapped = !this.state.swapped;
    const pairs = [[this.leftBadge, this.rightBadge]];
    if (this.leftPhoto) pairs.push([this.leftPhoto, this.rightPhoto]);
    for (const [forLeft, forRight] of pairs) {
      if (this.state.swapped) {
        xb.showOnlyInRightEye(forLeft);
        xb.showOnlyInLeftEye(forRight);
      } else {
        xb.showOnlyInLeftEye(forLeft);
        xb.showOnlyInRightEye(forRight);
      }
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.simulator.stereo.enabled = true;
  xb.add(new StereoGallery());
  xb.init(options);
});
