// Follow Head demo: cards that trail the user's head (in moved, turned, scaled and turning groups,
// with different smoothings, and one the user can drag elsewhere in view), a sign that turns to
// face the user, and a pillar that stays put. Objects carry semantic tags
// (`userData.xrblocksDevtools = {tag, state}`) so that they can be found by role.
import * as THREE from 'three';
import * as xb from 'xrblocks';

// Where each card sits in the user's view (camera space: x right, y up, -z ahead).
const HUD_OFFSET = new THREE.Vector3(0, -0.15, -0.6);
const BADGE_OFFSET = new THREE.Vector3(0.2, 0.1, -0.7);
const TICKER_OFFSET = new THREE.Vector3(-0.22, 0.12, -0.8);
const ROUND_OFFSET = new THREE.Vector3(-0.25, -0.1, -0.7);
const NOTE_OFFSET = new THREE.Vector3(0.22, -0.02, -0.5);

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function card(name, width, height, color) {
  const mesh = new THREE.Mesh(
    new THREE.BoxGeometry(width, height, 0.01),
    new THREE.MeshStandardMaterial({color}));
  mesh.name = name;
  return mesh;
}

class FollowHeadDemo extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // The app keeps its 2D widgets in a group that is moved and turned as a whole: the card's
    // own position is therefore relative to that group, not to the world.
    this.widgets = new THREE.Group();
    this.widgets.name = 'widgets';
    this.widgets.position.set(0.4, 0.3, -0.2);
    this.widgets.rotation.y = THREE.MathUtils.degToRad(35);
    tag(this.widgets, 'widgets');
    this.add(this.widgets);

    this.hud = card('hud-card', 0.24, 0.12, 0x2266aa);
    tag(this.hud, 'hud', {offset: HUD_OFFSET.toArray(), smoothing: 0.1});
    this.hud.add(new xb.FollowHead({offset: HUD_OFFSET, smoothing: 0.1}));
    this.widgets.add(this.hud);

    // A rack inside the widgets group, turned and tilted within it and scaled to half size, with
    // a badge that follows the head with the default smoothing.
    this.rack = new THREE.Group();
    this.rack.name = 'rack';
    this.rack.position.set(-0.3, 0.5, 0.2);
    this.rack.rotation.set(THREE.MathUtils.degToRad(10), THREE.MathUtils.degToRad(-60), 0);
    this.rack.scale.setScalar(0.5);
    tag(this.rack, 'rack');
    this.widgets.add(this.rack);
    this.badge = card('badge', 0.2, 0.1, 0xaa3366);  // half that size in the world
    this.badge.position.set(0.2, 0.0, 0.0);
    tag(this.badge, 'badge', {offset: BADGE_OFFSET.toArray()});
    this.badge.add(new xb.FollowHead({offset: BADGE_OFFSET}));
    this.rack.add(this.badge);

    // A ticker straight under the app's script (at the origin), quicker to follow.
    this.ticker = card('ticker', 0.2, 0.05, 0xcccc33);
    tag(this.ticker, 'ticker', {offset: TICKER_OFFSET.toArray(), smoothing: 0.3});
    this.ticker.add(new xb.FollowHead({offset: TICKER_OFFSET, smoothing: 0.3}));
    this.add(this.ticker);

    // A carousel that the app turns a quarter turn (in 1 s) every 3 s, with a card of its own
    // that follows the head.
    this.carousel = new THREE.Group();
    this.carousel.name = 'carousel';
    this.carousel.position.set(-1.0, 0.0, -1.4);
    tag(this.carousel, 'carousel');
    this.add(this.carousel);
    this.horse = new THREE.Mesh(
      new THREE.BoxGeometry(0.15, 0.3, 0.15),
      new THREE.MeshStandardMaterial({color: 0x885522}));
    this.horse.name = 'horse';
    this.horse.position.set(0.4, 0.3, 0.0);
    tag(this.horse, 'horse');
    this.carousel.add(this.horse);
    this.round = card('round', 0.18, 0.08, 0x777777);
    this.round.position.set(-0.3, 0.8, 0.2);
    tag(this.round, 'round', {offset: ROUND_OFFSET.toArray(), smoothing: 0.1});
    this.round.add(new xb.FollowHead({offset: ROUND_OFFSET, smoothing: 0.1}));
    this.carousel.add(this.round);
    this.elapsed = 0;

    // A note that follows the head and that the user can drag elsewhere in view (point at it,
    // pinch and move the ray, release): it then keeps its new place in the user's view.
    this.note = card('note', 0.16, 0.1, 0x33aa88);
    this.note.xb = {manipulation: {actions: {translate: true}}};
    this.noteState = tag(this.note, 'note', {offset: NOTE_OFFSET.toArray(), smoothing: 0.1, dragging: false, drags: 0});
    this.note.add(new xb.FollowHead({offset: NOTE_OFFSET, smoothing: 0.1}));
    this.add(this.note);

    // A sign that stays where it is but keeps turning towards the user.
    this.sign = new THREE.Mesh(
      new THREE.BoxGeometry(0.3, 0.2, 0.02),
      new THREE.MeshStandardMaterial({color: 0xdd8833}));
    this.sign.name = 'sign';
    this.sign.position.set(-0.8, 1.4, -1.4);
    tag(this.sign, 'sign');
    this.sign.add(new xb.FaceCamera({mode: 'spherical', smoothing: 0.3}));
    this.add(this.sign);

    // A pillar with no placement behaviour at all.
    this.pillar = new THREE.Mesh(
      new THREE.CylinderGeometry(0.1, 0.1, 0.6, 24),
      new THREE.MeshStandardMaterial({color: 0x55aa55}));
    this.pillar.name = 'pillar';
    this.pillar.position.set(0.9, 0.3, -1.6);
    tag(this.pillar, 'pillar');
    this.add(this.pillar);
  }

  update() {
    // The carousel rests for 2 s, then turns a quarter turn in 1 s.
    this.elapsed += xb.getDeltaTime();
    const cycle = Math.floor(this.elapsed / 3);
    const phase = Math.min(1, Math.max(0, (this.elapsed % 3) - 2));
    this.carousel.rotation.y = (cycle + phase) * Math.PI / 2;
  }

  onObjectManipulate(event) {
    if (event.action !== 'translate') return;
    if (event.phase === 'start') {
      this.noteState.dragging = true;
      this.noteState.drags += 1;
    } else if (event.phase === 'end' || event.phase === 'cancel') {
      this.noteState.dragging = false;
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new FollowHeadDemo());
  xb.init(new xb.Options());
});
