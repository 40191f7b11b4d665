import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Thumbs-up stars: every time a hand starts a thumbs-up (XR Blocks' gesture recognition,
 * gesture `thumbs-up`), a small star appears 15 cm straight above that hand's thumb tip, where
 * the thumb tip was when the gesture started. Stars stay where they were added, in world
 * coordinates, and are never removed.
 */

const STAR_OUTER_RADIUS = 0.026; // ~5 cm across
const STAR_INNER_RADIUS = 0.011;
const STAR_DEPTH = 0.01;
const STAR_HEIGHT_ABOVE_THUMB = 0.15; // metres, along world +y
const HAND_INDEX = {left: xb.Handedness.LEFT, right: xb.Handedness.RIGHT};

function makeStarGeometry() {
  const shape = new THREE.Shape();
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? STAR_OUTER_RADIUS : STAR_INNER_RADIUS;
    const a = Math.PI / 2 + (i * Math.PI) / 5;
    const x = Math.cos(a) * r;
    const y = Math.sin(a) * r;
    if (i === 0) shape.moveTo(x, y);
    else shape.lineTo(x, y);
  }
  shape.closePath();
  const geometry = new THREE.ExtrudeGeometry(shape, {depth: STAR_DEPTH, bevelEnabled: false});
  // Put the star's centre (the centre of its bounding box) at the object's origin.
  geometry.center();
  return geometry;
}

class ThumbsUpStars extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.starGeometry = makeStarGeometry();
    this.starMaterials = {
      left: new THREE.MeshStandardMaterial({color: 0x66ccff, emissive: 0x113355}),
      right: new THREE.MeshStandardMaterial({color: 0xffd700, emissive: 0x443300}),
    };
    // Stars live in a group at the world origin (identity transform), so their positions
    // are world coordinates and nothing that moves (head, hands) carries them along.
    this.stars = new THREE.Group();
    this.stars.name = 'stars';
    (xb.core.scene ?? this).add(this.stars);

    // Whether each hand currently holds a thumbs-up: guards against a repeated start.
    this.thumbsUpHeld = {left: false, right: false};
    this.starCount = {left: 0, right: 0};

    this.onGestureStart = (event) => {
      const {name, hand} = event.detail ?? {};
      if (name !== 'thumbs-up' || !(hand in HAND_INDEX)) return;
      if (this.thumbsUpHeld[hand]) return;
      this.thumbsUpHeld[hand] = true;
      this.addStar(hand);
    };
    this.onGestureEnd = (event) => {
      const {name, hand} = event.detail ?? {};
      if (name !== 'thumbs-up' || !(hand in HAND_INDEX)) return;
      this.thumbsUpHeld[hand] = false;
    };

    this.gestures = xb.core.gestureRecognition;
    if (this.gestures) {
      this.gestures.addEventListener('gesturestart', this.onGestureStart);
      this.gestures.addEventListener('gestureend', this.onGestureEnd);
    } else {
      console.warn('Gesture recognition is not available; enable it with options.enableGestures().');
    }
  }

  /** World position of a hand's thumb tip, or null when the hand is not tracked. */
  thumbTipWorld(hand) {
    const joint = xb.user.hands?.getThumbTip(HAND_INDEX[hand]);
    if (!joint) return null;
    const position = new THREE.Vector3();
    joint.getWorldPosition(position);
    if (!Number.isFinite(position.x + position.y + position.z)) return null;
    return position;
  }

  addStar(hand) {
    const tip = this.thumbTipWorld(hand);
    if (!tip) return;
    const world = tip.clone();
    world.y += STAR_HEIGHT_ABOVE_THUMB;

    const star = new THREE.Mesh(this.starGeometry, this.starMaterials[hand]);
    const index = this.starCount[hand];
    star.name = `star-${hand}-${index}`;
    this.stars.updateWorldMatrix(true, false);
    star.position.copy(this.stars.worldToLocal(world));
    star.userData.xrblocksDevtools = {
      tag: 'star',
      state: {hand, index, position: [world.x, world.y, world.z]},
    };
    this.stars.add(star);
    this.starCount[hand] = index + 1;
  }

  dispose() {
    if (this.gestures) {
      this.gestures.removeEventListener('gesturestart', this.onGestureStart);
      this.gestures.removeEventListener('gestureend', this.onGestureEnd);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ThumbsUpStars());
  const options = new xb.Options();
  options.enableGestures();
  xb.init(options);
});
