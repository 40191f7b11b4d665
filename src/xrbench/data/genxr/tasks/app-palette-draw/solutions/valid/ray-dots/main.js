import * as THREE from 'three';
import * as xb from 'xrblocks';

const SWATCH_COLORS = [0xff0000, 0x00ff00, 0x0000ff];
const MAX_DOTS = 3000;
const SPACING = 0.005;  // metres between dots

/**
 * Palette drawing with dots: the palette (a group of three box swatches) floats 0.8 m ahead,
 * 0.35 m below the eyes, tilted back towards the user. At a select the app casts the hand's ray
 * against the swatches itself: a hit picks that colour; anything else starts a stroke, an
 * instanced mesh of small spheres laid along the index fingertip every 5 mm.
 */
class DotPalette extends xb.Script {
  init() {
    this.add(new THREE.DirectionalLight(0xffffff, 2));
    this.add(new THREE.AmbientLight(0xffffff, 1));
    this.current = SWATCH_COLORS[0];
    this.drawing = {left: null, right: null};
    this.raycaster = new THREE.Raycaster();

    this.palette = new THREE.Group();
    this.palette.position.set(-0.05, xb.user.height - 0.35, -0.8);
    this.palette.rotation.x = -0.25;
    this.palette.userData.xrblocksDevtools = {tag: 'palette', state: {}};
    this.add(this.palette);
    const board = new THREE.Mesh(new THREE.BoxGeometry(0.36, 0.13, 0.01),
                                 new THREE.MeshStandardMaterial({color: 0xdddddd}));
    this.palette.add(board);
    this.swatches = SWATCH_COLORS.map((color, i) => {
      const mesh = new THREE.Mesh(new THREE.BoxGeometry(0.09, 0.09, 0.01),
                                  new THREE.MeshBasicMaterial({color}));
      mesh.position.set(-0.115 + i * 0.115, 0, 0.01);
      mesh.userData.xrblocksDevtools = {
        tag: 'swatch', state: {color: '#' + color.toString(16).padStart(6, '0')}};
      this.palette.add(mesh);
      return mesh;
    });
  }

  handIndex(handedness) {
    return handedness === 'left' ? 0 : handedness === 'right' ? 1 : -1;
  }

  tip(i) {
    const joint = xb.core.input.hands[i]?.joints?.['index-finger-tip'];
    return joint ? joint.getWorldPosition(new THREE.Vector3()) : null;
  }

  swatchHit(i) {
    this.raycaster.ray.copy(xb.core.user.getRay(i));
    const hits = this.raycaster.intersectObjects(this.swatches, false);
    return hits.length ? this.swatches.indexOf(hits[0].object) : -1;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness;
    const i = this.handIndex(hand);
    if (i < 0) return;
    const picked = this.swatchHit(i);
    if (picked >= 0) {
      this.current = SWATCH_COLORS[picked];
      return;
    }
    const dots = new THREE.InstancedMesh(new THREE.SphereGeometry(0.004, 8, 6),
                                         new THREE.MeshStandardMaterial({color: this.current}),
                                         MAX_DOTS);
    dots.count = 0;
    dots.frustumCulled = false;
    dots.raycast = () => {};
    dots.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
    xb.core.scene.add(dots);
    this.drawing[hand] = {dots, last: null, index: i};
    this.extend(this.drawing[hand]);
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness;
    if (this.drawing[hand]) this.extend(this.drawing[hand]);
    if (hand in this.drawing) this.drawing[hand] = null;
  }

  extend(stroke) {
    const p = this.tip(stroke.index);
    if (!p) return;
    const from = stroke.last ?? p;
    const steps = Math.max(1, Math.ceil(from.distanceTo(p) / SPACING));
    const m = new THREE.Matrix4();
    for (let k = stroke.last ? 1 : 0; k <= steps && stroke.dots.count < MAX_DOTS; k++) {
      m.makeTranslation(from.clone().lerp(p, k / steps));
      stroke.dots.setMatrixAt(stroke.dots.count++, m);
    }
    stroke.dots.instanceMatrix.needsUpdate = true;
    stroke.last = p;
  }

  update() {
    for (const hand of ['left', 'right']) {
      if (this.drawing[hand]) this.extend(this.drawing[hand]);
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new DotPalette());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
