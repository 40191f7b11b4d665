import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Depth ruler, polled: every frame each hand's select state is compared with the last frame's;
 * a new pinch raycasts XR Blocks' depth mesh (the depth image turned into a surface, posed where
 * the depth camera was) along the hand's ray, from 0.3 m to 5 m. The hit is kept only where the
 * depth image has a measured value. Pins, line and label live in one group per measurement.
 */

const NEAR = 0.3;
const FAR = 5.0;
const HANDS = ['left', 'right'];

const raycaster = new THREE.Raycaster();
raycaster.near = NEAR;
raycaster.far = FAR;

function handRay(index) {
  const controller = xb.core.input.controllers[index];
  if (!controller) return null;
  controller.updateMatrixWorld(true);
  const m = controller.matrixWorld;
  const origin = new THREE.Vector3().setFromMatrixPosition(m);
  const direction = new THREE.Vector3(-m.elements[8], -m.elements[9], -m.elements[10]).normalize();
  return {origin, direction};
}

/** World point where the ray meets the real surfaces of the depth data, or null. */
function depthHit(ray) {
  const depth = xb.core.depth;
  const mesh = depth?.depthMesh;
  if (!mesh || !depth.depthArray?.[0]) return null;
  raycaster.set(ray.origin, ray.direction);
  const hits = raycaster.intersectObject(mesh, false);
  for (const hit of hits) {
    // Keep hits where the depth image measured something (no patched holes).
    const ndc = hit.point.clone()
      .applyMatrix4(depth.depthViewMatrices[0])
      .applyMatrix4(depth.depthProjectionMatrices[0]);
    if (Math.abs(ndc.x) > 1 || Math.abs(ndc.y) > 1) continue;
    if (depth.getDepth((ndc.x + 1) / 2, (ndc.y + 1) / 2) > 0) return hit.point.clone();
  }
  return null;
}

function labelMesh(text) {
  const canvas = document.createElement('canvas');
  canvas.width = 320;
  canvas.height = 100;
  const g = canvas.getContext('2d');
  g.fillStyle = '#202833';
  g.fillRect(0, 0, 320, 100);
  g.fillStyle = '#ffe082';
  g.font = '600 60px sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(text, 160, 52);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return new THREE.Mesh(
    new THREE.PlaneGeometry(0.16, 0.05),
    new THREE.MeshBasicMaterial({map: texture, side: THREE.DoubleSide}));
}

class Ruler extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.wasSelected = [false, false];
    this.measurement = null; // {group, points: []}
  }

  update() {
    const controllers = xb.core.input.controllers;
    for (let i = 0; i < 2; i++) {
      const selected = controllers[i]?.userData?.selected === true;
      if (selected && !this.wasSelected[i]) this.onPinch(i);
      this.wasSelected[i] = selected;
    }
  }

  onPinch(index) {
    const ray = handRay(index);
    const point = ray && depthHit(ray);
    if (!point) return;
    if (!this.measurement || this.measurement.points.length === 2) {
      if (this.measurement) this.remove(this.measurement.group);
      this.measurement = {group: new THREE.Group(), points: []};
      this.add(this.measurement.group);
    }
    const m = this.measurement;
    const pin = new THREE.Mesh(
      new THREE.IcosahedronGeometry(0.01, 3),
      new THREE.MeshStandardMaterial({color: '#ff9100', emissive: '#552200'}));
    pin.position.copy(point);
    pin.userData.xrblocksDevtools = {tag: 'ruler-pin', state: {hand: HANDS[index]}};
    m.group.add(pin);
    m.points.push(point);
    if (m.points.length === 2) this.finish(m);
  }

  finish(m) {
    const [a, b] = m.points;
    const distance = a.distanceTo(b);
    // A thin cylinder from pin to pin.
    const tube = new THREE.Mesh(
      new THREE.CylinderGeometry(0.002, 0.002, distance, 8, 1),
      new THREE.MeshBasicMaterial({color: 0xfff3e0}));
    tube.position.copy(a).add(b).multiplyScalar(0.5);
    tube.quaternion.setFromUnitVectors(
      new THREE.Vector3(0, 1, 0), b.clone().sub(a).normalize());
    tube.userData.xrblocksDevtools = {tag: 'ruler-line', state: {distance}};
    m.group.add(tube);

    const text = distance.toFixed(2) + ' m';
    const label = labelMesh(text);
    label.position.copy(tube.position).add(new THREE.Vector3(0, 0.04, 0));
    const eye = xb.core.camera.getWorldPosition(new THREE.Vector3());
    label.lookAt(eye.x, label.position.y, eye.z);
    label.userData.xrblocksDevtools = {tag: 'ruler-label', state: {text}};
    m.group.add(label);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Ruler());
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  xb.init(options);
});
