import * as THREE from 'three';
import * as xb from 'xrblocks';

const SWATCH_COLORS = ['#f44336', '#4caf50', '#2196f3', '#ffeb3b'];
const SWATCH_RADIUS = 0.02; // 4 cm across
const SWATCH_SPACING = 0.07;
const SWATCH_HEIGHT = 0.12; // above the palette hand's fingertip
const TOUCH_RADIUS = 0.03;
const PAINT_OPACITY = 0.5;
const SURFACE_LABELS = new Set(['wall', 'floor', 'ceiling']);

/** The plane's boundary polygon in its local x/z plane, as [x, z] pairs. */
function polygonOf(plane) {
  if (plane.xrPlane && plane.xrPlane.polygon) {
    return plane.xrPlane.polygon.map((p) => [p.x, p.z]);
  }
  if (plane.simulatorPlane && plane.simulatorPlane.polygon) {
    return plane.simulatorPlane.polygon.map((p) => [p.x, p.y]);
  }
  return [];
}

function insidePolygon(x, z, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, zi] = poly[i];
    const [xj, zj] = poly[j];
    if (zi > z !== zj > z && x < ((xj - xi) * (z - zi)) / (zj - zi) + xi) {
      inside = !inside;
    }
  }
  return inside;
}

/** A flat mesh covering the polygon, in the plane's local x/z plane. */
function polygonGeometry(poly) {
  const shape = new THREE.Shape(poly.map(([x, z]) => new THREE.Vector2(x, z)));
  const geometry = new THREE.ShapeGeometry(shape);
  geometry.rotateX(Math.PI / 2); // shape (x, z) in XY -> plane-local (x, 0, z)
  return geometry;
}

const tmpInverse = new THREE.Matrix4();
const tmpNormal = new THREE.Vector3();
const tmpOrigin = new THREE.Vector3();
const tmpHit = new THREE.Vector3();
const tmpLocal = new THREE.Vector3();
const tmpDelta = new THREE.Vector3();

class WallPainter extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.pinching = [false, false];
    this.paletteHand = null; // 0 (left) or 1 (right) while the palette is open
    this.chosenColor = null;
    this.paints = new Map(); // wall plane -> overlay mesh

    this.palette = new THREE.Group();
    this.palette.name = 'palette';
    this.palette.visible = false;
    this.swatches = SWATCH_COLORS.map((color) => {
      const swatch = new THREE.Mesh(
        new THREE.SphereGeometry(SWATCH_RADIUS, 24, 16),
        new THREE.MeshBasicMaterial({color})
      );
      swatch.name = `swatch-${color}`;
      swatch.visible = false;
      swatch.userData.xrblocksDevtools = {tag: 'paint-swatch', state: {color}};
      swatch.userData.color = color;
      this.palette.add(swatch);
      return swatch;
    });
    this.add(this.palette);

    this.fingertip = new THREE.Vector3();
    this.right = new THREE.Vector3();
    this.swatchCentre = new THREE.Vector3();
  }

  /** 0 for the left hand's controller, 1 for the right's; null for other sources (mouse, gaze). */
  handIndexOf(event) {
    const controllers = xb.core.input.controllers;
    const controller = event?.source?.controller;
    if (controller === controllers[0]) return 0;
    if (controller === controllers[1]) return 1;
    return null;
  }

  fingertipOf(hand, target) {
    const joint = xb.core.input.hands?.[hand]?.joints?.['index-finger-tip'];
    if (!joint) return null;
    joint.updateMatrixWorld(true);
    return joint.getWorldPosition(target);
  }

  setPaletteShown(shown) {
    this.palette.visible = shown;
    for (const swatch of this.swatches) swatch.visible = shown;
  }

  /** Puts the swatches in a row 12 cm above the palette hand's fingertip, running to the user's right. */
  placePalette() {
    if (this.paletteHand === null) return;
    if (!this.fingertipOf(this.paletteHand, this.fingertip)) return;
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    this.right.setFromMatrixColumn(camera.matrixWorld, 0);
    this.right.y = 0;
    if (this.right.lengthSq() < 1e-8) this.right.set(1, 0, 0);
    this.right.normalize();
    this.swatches.forEach((swatch, k) => {
      swatch.position
        .copy(this.fingertip)
        .addScaledVector(this.right, (k - (this.swatches.length - 1) / 2) * SWATCH_SPACING);
      swatch.position.y += SWATCH_HEIGHT;
    });
    this.palette.updateMatrixWorld(true);
  }

  onSelectStart(event) {
    const hand = this.handIndexOf(event);
    if (hand === null) return;
    this.pinching[hand] = true;
    if (this.paletteHand === null) {
      // This pinch opens the palette on its hand and paints nothing.
      this.paletteHand = hand;
      this.placePalette();
      this.setPaletteShown(true);
      return;
    }
    if (hand !== this.paletteHand) this.paintWithRay(hand);
  }

  onSelectEnd(event) {
    const hand = this.handIndexOf(event);
    if (hand === null) return;
    this.pinching[hand] = false;
    if (hand === this.paletteHand) {
      this.paletteHand = null;
      this.setPaletteShown(false);
    }
  }

  surfaces() {
    const planes = xb.world?.planes;
    if (!planes) return [];
    return planes.get().filter((p) => SURFACE_LABELS.has(p.label));
  }

  /** The nearest wall, floor or ceiling the hand's ray meets within its polygon. */
  raycastSurfaces(hand) {
    const controller = xb.core.input.controllers[hand];
    if (!controller) return null;
    controller.updateMatrixWorld(true);
    const origin = controller.getWorldPosition(new THREE.Vector3());
    const direction = new THREE.Vector3(0, 0, -1)
      .transformDirection(controller.matrixWorld)
      .normalize();
    let best = null;
    for (const plane of this.surfaces()) {
      const poly = polygonOf(plane);
      if (poly.length < 3) continue;
      plane.updateMatrixWorld(true);
      tmpNormal.setFromMatrixColumn(plane.matrixWorld, 1).normalize();
      tmpOrigin.setFromMatrixPosition(plane.matrixWorld);
      const denom = direction.dot(tmpNormal);
      if (Math.abs(denom) < 1e-9) continue;
      const t = tmpDelta.copy(tmpOrigin).sub(origin).dot(tmpNormal) / denom;
      if (t <= 0) continue;
      tmpHit.copy(origin).addScaledVector(direction, t);
      tmpInverse.copy(plane.matrixWorld).invert();
      tmpLocal.copy(tmpHit).applyMatrix4(tmpInverse);
      if (!insidePolygon(tmpLocal.x, tmpLocal.z, poly)) continue;
      if (!best || t < best.t) best = {plane, t};
    }
    return best;
  }

  paintWithRay(hand) {
    if (this.chosenColor === null) return;
    const hit = this.raycastSurfaces(hand);
    if (!hit || hit.plane.label !== 'wall') return;
    this.paintWall(hit.plane, this.chosenColor);
  }

  paintWall(plane, color) {
    let overlay = this.paints.get(plane);
    if (!overlay) {
      const material = new THREE.MeshBasicMaterial({
        color,
        transparent: true,
        opacity: PAINT_OPACITY,
        side: THREE.DoubleSide,
        depthWrite: false,
      });
      overlay = new THREE.Mesh(polygonGeometry(polygonOf(plane)), material);
      overlay.name = 'wall-paint';
      plane.updateMatrixWorld(true);
      plane.matrixWorld.decompose(overlay.position, overlay.quaternion, overlay.scale);
      this.add(overlay);
      this.paints.set(plane, overlay);
    }
    overlay.material.color.set(color);
    overlay.userData.xrblocksDevtools = {tag: 'wall-paint', state: {color}};
  }

  update() {
    if (this.paletteHand === null) return;
    this.placePalette();
    const brush = 1 - this.paletteHand;
    if (!this.fingertipOf(brush, this.fingertip)) return;
    for (const swatch of this.swatches) {
      swatch.getWorldPosition(this.swatchCentre);
      if (this.swatchCentre.distanceTo(this.fingertip) <= TOUCH_RADIUS) {
        this.chosenColor = swatch.userData.color;
      }
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new WallPainter());
  xb.init(options);
});
