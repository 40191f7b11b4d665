import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Wall paint, polled: every frame each hand's select state is compared with the last frame's.
 * A pinch starting while no palette is open opens it on that hand; the other hand touches a
 * swatch to choose a colour and pinches to paint the wall its ray meets first (walls, floor and
 * ceiling raycast within their polygons, with double-sided copies of the plane geometry).
 */

const SWATCHES = ['#f44336', '#4caf50', '#2196f3', '#ffeb3b'];
const SPACING = 0.07;
const LIFT = 0.12;
const TOUCH = 0.03;
const BLOCKERS = new Set(['wall', 'floor', 'ceiling']);

const raycaster = new THREE.Raycaster();
const hitMaterial = new THREE.MeshBasicMaterial({side: THREE.DoubleSide});

function fingertip(index, target) {
  const joint = xb.core.input.hands?.[index]?.joints?.['index-finger-tip'];
  if (!joint) return null;
  joint.updateMatrixWorld(true);
  return target.setFromMatrixPosition(joint.matrixWorld);
}

function handRay(index) {
  const controller = xb.core.input.controllers[index];
  if (!controller) return null;
  controller.updateMatrixWorld(true);
  const m = controller.matrixWorld;
  const origin = new THREE.Vector3().setFromMatrixPosition(m);
  const direction = new THREE.Vector3(-m.elements[8], -m.elements[9], -m.elements[10]).normalize();
  return {origin, direction};
}

class WallPaint extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.wasSelected = [false, false];
    this.paletteHand = null;
    this.chosen = null;
    this.overlays = new Map(); // plane -> overlay mesh
    this.swatches = SWATCHES.map((color) => {
      const swatch = new THREE.Mesh(
        new THREE.SphereGeometry(0.02, 24, 16),
        new THREE.MeshBasicMaterial({color}));
      swatch.visible = false;
      swatch.userData.xrblocksDevtools = {tag: 'paint-swatch', state: {color}};
      this.add(swatch);
      return swatch;
    });
  }

  update() {
    const controllers = xb.core.input.controllers;
    for (let i = 0; i < 2; i++) {
      const selected = controllers[i]?.userData?.selected === true;
      if (selected && !this.wasSelected[i]) this.pinchStarted(i);
      if (!selected && this.wasSelected[i] && i === this.paletteHand) this.closePalette();
      this.wasSelected[i] = selected;
    }
    this.placePalette();
    this.pick();
  }

  pinchStarted(index) {
    if (this.paletteHand === null) {
      this.paletteHand = index;
      this.placePalette();
      for (const s of this.swatches) s.visible = true;
      return;
    }
    if (index !== this.paletteHand && this.chosen) this.paint(index);
  }

  closePalette() {
    this.paletteHand = null;
    for (const s of this.swatches) s.visible = false;
  }

  placePalette() {
    if (this.paletteHand === null) return;
    const tip = fingertip(this.paletteHand, new THREE.Vector3());
    if (!tip) return;
    // The row runs to the user's right, level.
    const forward = new THREE.Vector3();
    xb.core.camera.getWorldDirection(forward);
    const right = new THREE.Vector3(-forward.z, 0, forward.x);
    if (right.lengthSq() < 1e-8) right.set(1, 0, 0);
    right.normalize();
    this.swatches.forEach((s, k) => {
      s.position.copy(tip).addScaledVector(right, (k - 1.5) * SPACING);
      s.position.y += LIFT;
    });
  }

  pick() {
    if (this.paletteHand === null) return;
    const tip = fingertip(1 - this.paletteHand, new THREE.Vector3());
    if (!tip) return;
    for (const s of this.swatches) {
      if (tip.distanceTo(s.position) <= TOUCH) this.chosen = s.userData.xrblocksDevtools.state.color;
    }
  }

  paint(index) {
    const ray = handRay(index);
    if (!ray) return;
    raycaster.set(ray.origin, ray.direction);
    let best = null;
    for (const plane of xb.world?.planes?.get() ?? []) {
      if (!BLOCKERS.has(plane.label)) continue;
      plane.updateMatrixWorld(true);
      const probe = new THREE.Mesh(plane.geometry, hitMaterial);
      probe.matrixWorld.copy(plane.matrixWorld);
      const hit = raycaster.intersectObject(probe, false)[0];
      if (hit && (!best || hit.distance < best.distance)) best = {plane, distance: hit.distance};
    }
    if (!best || best.plane.label !== 'wall') return;
    this.paintWall(best.plane, this.chosen);
  }

  paintWall(plane, color) {
    let overlay = this.overlays.get(plane);
    if (!overlay) {
      overlay = new THREE.Mesh(
        plane.geometry,
        new THREE.MeshBasicMaterial({
          color, transparent: true, opacity: 0.5, side: THREE.DoubleSide, depthWrite: false}));
      plane.matrixWorld.decompose(overlay.position, overlay.quaternion, overlay.scale);
      // 3 mm into the room (the plane's +Y) so it does not fight the wall's own surface.
      overlay.position.add(new THREE.Vector3(0, 1, 0).applyQuaternion(overlay.quaternion).multiplyScalar(0.003));
      overlay.userData.xrblocksDevtools = {tag: 'wall-paint', state: {color}};
      this.overlays.set(plane, overlay);
      this.add(overlay);
    }
    overlay.material.color.set(color);
    overlay.userData.xrblocksDevtools.state.color = color;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new WallPaint());
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.init(options);
});
