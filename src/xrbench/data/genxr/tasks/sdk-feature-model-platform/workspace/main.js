// Model Gallery: three ModelViewers on a low table, each presenting a small built-in model (no files
// are loaded). Objects carry semantic tags (`userData.xrblocksDevtools = {tag, state}`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function viewer(name, content, position, options = {}) {
  const modelViewer = new xb.ModelViewer(options);
  modelViewer.name = name;
  tag(modelViewer, name);
  modelViewer.setContent(content);
  modelViewer.position.set(...position);
  return modelViewer;
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  // A 30 x 20 x 30 cm crate, presented with the default options.
  const crate = new THREE.Mesh(
    new THREE.BoxGeometry(0.3, 0.2, 0.3),
    new THREE.MeshStandardMaterial({color: 0x996633}));
  tag(crate, 'crate');

  // A vase 20 cm across and 30 cm tall, with a wide, shallow margin; it can be moved and turned but
  // not scaled.
  const vase = new THREE.Mesh(
    new THREE.CylinderGeometry(0.1, 0.1, 0.3, 32),
    new THREE.MeshStandardMaterial({color: 0x3366aa}));
  tag(vase, 'vase');

  // A lamp that may only be turned, never moved.
  const lamp = new THREE.Mesh(
    new THREE.BoxGeometry(0.2, 0.2, 0.2),
    new THREE.MeshStandardMaterial({color: 0xdddd55}));
  tag(lamp, 'lamp');

  xb.add(new Room());
  xb.add(viewer('crate-viewer', crate, [-0.35, 1.0, -0.9]));
  xb.add(viewer('vase-viewer', vase, [0.4, 1.0, -0.9], {
    platformMargin: {x: 0.4, y: 0.1},
    manipulation: {actions: {translate: true, rotate: true}},
  }));
  xb.add(viewer('lamp-viewer', lamp, [0.0, 1.0, -1.5], {manipulation: {actions: {rotate: true}}}));
  xb.init(new xb.Options());
});
