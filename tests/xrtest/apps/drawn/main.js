// Objects of every kind the harness's `drawn` reader tells apart: shown and hidden meshes, a mesh
// under a hidden group, a line, points, a sprite, a tagged group with tagged and untagged parts,
// and a mesh the app puts into XR Blocks' systems group. `?hostile=1` makes the app pass its whole
// scene off as XR Blocks' systems group once it has started.
import * as THREE from 'three';
import * as xb from 'xrblocks';

const material = () => new THREE.MeshBasicMaterial({color: 0x3388ff});
const mesh = (name, geometry) => Object.assign(new THREE.Mesh(geometry, material()), {name});

class Drawn extends xb.Script {
  init() {
    const box = mesh('box', new THREE.BoxGeometry(0.1, 0.1, 0.1));
    box.position.set(0, 1.4, -1);
    const hidden = mesh('hidden-sphere', new THREE.SphereGeometry(0.05));
    hidden.visible = false;
    const group = new THREE.Group();
    group.visible = false;
    group.add(mesh('in-hidden-group', new THREE.ConeGeometry(0.05, 0.1)));
    const line = new THREE.Line(new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3(0, 0.1, 0)]));
    line.name = 'stroke';
    const points = new THREE.Points(new THREE.BufferGeometry().setFromPoints([new THREE.Vector3()]));
    points.name = 'dots';
    const sprite = new THREE.Sprite(new THREE.SpriteMaterial());
    sprite.name = 'label';
    const lamp = new THREE.Group();
    lamp.userData.xrblocksDevtools = {tag: 'lamp', state: {}};
    const bulb = mesh('bulb', new THREE.SphereGeometry(0.03));
    bulb.userData.xrblocksDevtools = {tag: 'lamp-bulb', state: {}};
    lamp.add(bulb, mesh('stand', new THREE.CylinderGeometry(0.01, 0.01, 0.2)));
    this.add(box, hidden, group, line, points, sprite, lamp);
    xb.core.xrSystemsGroup.add(mesh('in-systems', new THREE.BoxGeometry(0.1, 0.1, 0.1)));
    if (new URLSearchParams(location.search).get('hostile')) {
      let n = 0;
      this.update = () => { if (++n === 2) xb.core.xrSystemsGroup = xb.core.scene; };
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Drawn());
  xb.init(new xb.Options());
});
