import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Wall paint, event-driven: select start/end events decide the palette and brush roles. The
 * palette is a group of four spheres along world x, moved onto the palette hand's fingertip every
 * frame. A brush pinch intersects its ray with each wall, floor and ceiling plane by hand (plane
 * equation, then a point-in-polygon test in the plane's local x/z); the overlay is a new shape
 * built from the plane's polygon, posed like the plane.
 */

const PALETTE = [
  {name: 'red', hex: '#f44336'},
  {name: 'green', hex: '#4caf50'},
  {name: 'blue', hex: '#2196f3'},
  {name: 'yellow', hex: '#ffeb3b'},
];

function polygonOf(plane) {
  // Local x/z boundary points: from the simulator's plane, or the WebXR plane.
  if (plane.simulatorPlane?.polygon) return plane.simulatorPlane.polygon.map((p) => [p.x, p.y]);
  if (plane.xrPlane?.polygon) return plane.xrPlane.polygon.map((p) => [p.x, p.z]);
  return [];
}

function insidePolygon(x, z, poly) {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, zi] = poly[i];
    const [xj, zj] = poly[j];
    if ((zi > z) !== (zj > z) && x < ((xj - xi) * (z - zi)) / (zj - zi) + xi) inside = !inside;
  }
  return inside;
}

/** Distance along the ray to the plane's polygon, or Infinity. */
function rayToPlane(origin, direction, plane) {
  plane.updateMatrixWorld(true);
  const inverse = plane.matrixWorld.clone().invert();
  const o = origin.clone().applyMatrix4(inverse);
  const d = direction.clone().transformDirection(inverse);
  // transformDirection normalises; work in local units and convert the hit back to world distance.
  if (Math.abs(d.y) < 1e-9) return Infinity;
  const t = -o.y / d.y;
  if (t <= 0) return Infinity;
  const local = o.clone().addScaledVector(d, t);
  if (!insidePolygon(local.x, local.z, polygonOf(plane))) return Infinity;
  return local.applyMatrix4(plane.matrixWorld).distanceTo(origin);
}

class Painter extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.palette = new THREE.Group();
    this.palette.visible = false;
    this.add(this.palette);
    this.swatches = PALETTE.map(({hex}, k) => {
      const s = new THREE.Mesh(
        new THREE.SphereGeometry(0.02, 20, 12),
        new THREE.MeshLambertMaterial({color: hex}));
      s.position.set((k - 1.5) * 0.07, 0.12, 0);
      s.userData.xrblocksDevtools = {tag: 'paint-swatch', state: {color: hex}};
      this.palette.add(s);
      return s;
    });
    this.holder = -1; // index of the palette hand, -1 when closed
    this.colour = null;
    this.paint = new Map();
  }

  handIndex(event) {
    const h = event?.source?.handedness ?? event?.data?.handedness;
    if (h === 'left') return 0;
    if (h === 'right') return 1;
    return xb.core.input.controllers.indexOf(event?.target);
  }

  tip(index) {
    const joint = xb.core.input.hands?.[index]?.joints?.['index-finger-tip'];
    if (!joint) return null;
    return joint.getWorldPosition(new THREE.Vector3());
  }

  onSelectStart(event) {
    const i = this.handIndex(event);
    if (i < 0) return;
    if (this.holder < 0) {
      this.holder = i;
      this.follow();
      this.palette.visible = true;
    } else if (i !== this.holder && this.colour) {
      this.brush(i);
    }
  }

  onSelectEnd(event) {
    if (this.handIndex(event) === this.holder) {
      this.holder = -1;
      this.palette.visible = false;
    }
  }

  follow() {
    const t = this.tip(this.holder);
    if (t) this.palette.position.copy(t);
  }

  update() {
    if (this.holder < 0) return;
    this.follow();
    const t = this.tip(1 - this.holder);
    if (!t) return;
    this.palette.updateMatrixWorld(true);
    for (const s of this.swatches) {
      if (s.getWorldPosition(new THREE.Vector3()).distanceTo(t) <= 0.03) {
        this.colour = s.userData.xrblocksDevtools.state.color;
      }
    }
  }

  brush(index) {
    const controller = xb.core.input.controllers[index];
    controller.updateMatrixWorld(true);
    const origin = controller.getWorldPosition(new THREE.Vector3());
    const direction = new THREE.Vector3(0, 0, -1)
      .applyQuaternion(controller.getWorldQuaternion(new THREE.Quaternion()));
    let nearest = null;
    let best = Infinity;
    for (const plane of xb.world?.planes?.get() ?? []) {
      if (!['wall', 'floor', 'ceiling'].includes(plane.label)) continue;
      const d = rayToPlane(origin, direction, plane);
      if (d < best) {
        best = d;
        nearest = plane;
      }
    }
    if (nearest?.label === 'wall') this.coat(nearest);
  }

  coat(wall) {
    let overlay = this.paint.get(wall);
    if (!overlay) {
      const shape = new THREE.Shape(polygonOf(wall).map(([x, z]) => new THREE.Vector2(x, z)));
      const geometry = new THREE.ShapeGeometry(shape);
      geometry.rotateX(Math.PI / 2); // shape x/y -> plane-local x/z
      geometry.translate(0, 0.002, 0); // 2 mm off the wall, into the room
      overlay = new THREE.Mesh(geometry, new THREE.MeshBasicMaterial({
        transparent: true, opacity: 0.45, side: THREE.DoubleSide, depthWrite: false}));
      wall.updateMatrixWorld(true);
      wall.matrixWorld.decompose(overlay.position, overlay.quaternion, overlay.scale);
      overlay.userData.xrblocksDevtools = {tag: 'wall-paint', state: {}};
      this.add(overlay);
      this.paint.set(wall, overlay);
    }
    overlay.material.color.set(this.colour);
    overlay.userData.xrblocksDevtools.state.color = this.colour;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Painter());
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.init(options);
});
