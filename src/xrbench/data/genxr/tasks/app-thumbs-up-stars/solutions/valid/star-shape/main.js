import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Thumbs-up stars: a five-pointed star, 5 cm from tip to tip, appears 15 cm above the thumb tip of
 * each hand that starts a thumbs-up. Stars live in a room-fixed group and never move.
 */
const STAR_OUTER = 0.025; // radius of the points: 5 cm across
const STAR_INNER = 0.011;
const LIFT = 0.15;

function starGeometry() {
  const shape = new THREE.Shape();
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? STAR_OUTER : STAR_INNER;
    const a = Math.PI / 2 + (i * Math.PI) / 5;
    const x = r * Math.cos(a), y = r * Math.sin(a);
    if (i === 0) shape.moveTo(x, y);
    else shape.lineTo(x, y);
  }
  shape.closePath();
  const geometry = new THREE.ExtrudeGeometry(shape, {depth: 0.008, bevelEnabled: false});
  geometry.center();
  return geometry;
}

class StarField extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x445566, 2.5));
    this.room = new THREE.Group();
    this.room.name = 'stars';
    this.add(this.room);
    this.geometry = starGeometry();
    this.materials = {
      left: new THREE.MeshStandardMaterial({color: 0x66ccff, emissive: 0x113355}),
      right: new THREE.MeshStandardMaterial({color: 0xffcc33, emissive: 0x553300}),
    };
    const recognition = xb.core.gestureRecognition;
    recognition.addEventListener('gesturestart', (event) => this.onGestureStart(event.detail));
  }

  onGestureStart({name, hand}) {
    if (name !== 'thumbs-up' || (hand !== 'left' && hand !== 'right')) return;
    const handedness = hand === 'left' ? xb.Handedness.LEFT : xb.Handedness.RIGHT;
    const tip = xb.user.hands.getThumbTip(handedness);
    if (!tip) return;
    const at = new THREE.Vector3();
    tip.getWorldPosition(at);
    at.y += LIFT;
    const star = new THREE.Mesh(this.geometry, this.materials[hand]);
    this.room.updateMatrixWorld(true);
    star.position.copy(this.room.worldToLocal(at));
    star.name = `star-${hand}`;
    star.userData.xrblocksDevtools = {tag: 'star', state: {hand}};
    this.room.add(star);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new StarField());
  const options = new xb.Options();
  options.enableGestures();
  xb.init(options);
});
