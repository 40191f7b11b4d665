// Follow Head demo: a heads-up card that trails the user's head, a sign that turns to face the
// user, and a pillar that stays put. Objects carry semantic tags
// (`userData.xrblocksDevtools = {tag, state}`) so that they can be found by role.
import * as THREE from 'three';
import * as xb from 'xrblocks';

// Where the card sits in the user's view: 0.15 m below the eyes, 0.6 m ahead (camera space).
const HUD_OFFSET = new THREE.Vector3(0, -0.15, -0.6);

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return object;
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
    this.add(this.widgets);

    this.hud = new THREE.Mesh(
      new THREE.BoxGeometry(0.24, 0.12, 0.01),
      new THREE.MeshStandardMaterial({color: 0x2266aa}));
    this.hud.name = 'hud-card';
    this.hud.position.set(0, 0, 0);
    tag(this.hud, 'hud', {offset: HUD_OFFSET.toArray(), smoothing: 0.1});
    this.hud.add(new xb.FollowHead({offset: HUD_OFFSET, smoothing: 0.1}));
    this.widgets.add(this.hud);

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
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new FollowHeadDemo());
  xb.init(new xb.Options());
});
