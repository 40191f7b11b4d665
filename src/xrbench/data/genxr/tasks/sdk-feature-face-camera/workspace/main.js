// Face Camera demo: signs that keep turning to face the user (one per mode of `xb.FaceCamera`,
// some inside moved, turned, tilted or scaled groups) and a pillar that stays as it is. Objects
// carry semantic tags (`userData.xrblocksDevtools = {tag, state}`) so that they can be found by role.
import * as THREE from 'three';
import * as xb from 'xrblocks';

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function board(name, width, height, color) {
  const mesh = new THREE.Mesh(
    new THREE.BoxGeometry(width, height, 0.02),
    new THREE.MeshStandardMaterial({color}));
  mesh.name = name;
  return mesh;
}

class FaceCameraDemo extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // A sign straight under the app's script that turns fully towards the eyes.
    this.sign = board('sign', 0.3, 0.2, 0xdd8833);
    this.sign.position.set(-0.8, 1.4, -1.4);
    tag(this.sign, 'sign', {mode: 'spherical', smoothing: 0.3});
    this.sign.add(new xb.FaceCamera({mode: 'spherical', smoothing: 0.3}));
    this.add(this.sign);

    // A label on a stand that the app moved and turned; FaceCamera with its default options.
    this.stand = new THREE.Group();
    this.stand.name = 'stand';
    this.stand.position.set(0.7, 0.2, -1.3);
    this.stand.rotation.y = THREE.MathUtils.degToRad(40);
    tag(this.stand, 'stand');
    this.add(this.stand);
    this.label = board('label', 0.24, 0.12, 0x2266aa);
    this.label.position.set(0.0, 1.0, 0.0);
    tag(this.label, 'label', {mode: 'capsule', smoothing: 0.1, capsuleHalfHeight: 0.25});
    this.label.add(new xb.FaceCamera());
    this.stand.add(this.label);

    // A post on a shelf that is turned, tilted and scaled to half size; it only turns about the
    // vertical.
    this.shelf = new THREE.Group();
    this.shelf.name = 'shelf';
    this.shelf.position.set(-0.1, 0.3, -2.0);
    this.shelf.rotation.set(THREE.MathUtils.degToRad(15), THREE.MathUtils.degToRad(-30), 0);
    this.shelf.scale.setScalar(0.5);
    tag(this.shelf, 'shelf');
    this.add(this.shelf);
    this.post = board('post', 0.4, 0.3, 0xaa3366);  // half that size in the world
    this.post.position.set(0.0, 1.2, 0.0);
    tag(this.post, 'post', {mode: 'cylindrical', smoothing: 0.2});
    this.post.add(new xb.FaceCamera({mode: 'cylindrical', smoothing: 0.2}));
    this.shelf.add(this.post);

    // A kiosk screen with a taller upright region and a quick turn.
    this.kiosk = board('kiosk', 0.32, 0.24, 0x33aa88);
    this.kiosk.position.set(0.2, 0.8, -2.4);
    tag(this.kiosk, 'kiosk', {mode: 'capsule', smoothing: 0.5, capsuleHalfHeight: 0.6});
    this.kiosk.add(new xb.FaceCamera({mode: 'capsule', capsuleHalfHeight: 0.6, smoothing: 0.5}));
    this.add(this.kiosk);

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
  xb.add(new FaceCameraDemo());
  xb.init(new xb.Options());
});
