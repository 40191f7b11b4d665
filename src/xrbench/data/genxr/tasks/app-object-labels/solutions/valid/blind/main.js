import * as THREE from 'three';
import * as xb from 'xrblocks';

const LABEL_WIDTH = 0.16; // metres
const LABEL_HEIGHT = 0.05; // metres
/** Gap between the estimated top of an object and the centre of its label. */
const LABEL_GAP = 0.15; // metres
/** Largest footprint assumed for an object (the objects are small). */
const MAX_FOOTPRINT = 0.4; // metres

const CANVAS_WIDTH = 512;
const CANVAS_HEIGHT = 160;

const tmpVec = new THREE.Vector3();
const cameraPosition = new THREE.Vector3();

/**
 * Draws `text` on a canvas and returns it wrapped in a texture.
 */
function makeLabelTexture(text) {
  const canvas = document.createElement('canvas');
  canvas.width = CANVAS_WIDTH;
  canvas.height = CANVAS_HEIGHT;
  const ctx = canvas.getContext('2d');
  const r = 40;
  ctx.fillStyle = 'rgba(20, 24, 32, 0.9)';
  ctx.beginPath();
  ctx.moveTo(r, 0);
  ctx.arcTo(CANVAS_WIDTH, 0, CANVAS_WIDTH, CANVAS_HEIGHT, r);
  ctx.arcTo(CANVAS_WIDTH, CANVAS_HEIGHT, 0, CANVAS_HEIGHT, r);
  ctx.arcTo(0, CANVAS_HEIGHT, 0, 0, r);
  ctx.arcTo(0, 0, CANVAS_WIDTH, 0, r);
  ctx.closePath();
  ctx.fill();
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  let fontSize = 96;
  do {
    ctx.font = `bold ${fontSize}px sans-serif`;
    fontSize -= 4;
  } while (fontSize > 24 && ctx.measureText(text).width > CANVAS_WIDTH - 48);
  ctx.fillText(text, CANVAS_WIDTH / 2, CANVAS_HEIGHT / 2 + 4);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

/**
 * A floating label: a flat panel (0.16 m x 0.05 m) whose front (+Z) shows the
 * detected object's name.
 */
class ObjectLabel {
  constructor(text) {
    this.text = text;
    this.mesh = new THREE.Mesh(
      new THREE.PlaneGeometry(LABEL_WIDTH, LABEL_HEIGHT),
      new THREE.MeshBasicMaterial({
        map: makeLabelTexture(text),
        transparent: true,
      })
    );
    this.mesh.name = `label-${text}`;
    this.mesh.userData.xrblocksDevtools = {
      tag: 'object-label',
      state: {label: text},
    };
  }

  dispose() {
    this.mesh.removeFromParent();
    this.mesh.geometry.dispose();
    this.mesh.material.map?.dispose();
    this.mesh.material.dispose();
  }
}

/** The direction from the camera through a point of the image (0..1, y down). */
function imageRay(camera, u, v, target = new THREE.Vector3()) {
  target.set(u * 2 - 1, 1 - v * 2, 0.5).unproject(camera);
  camera.getWorldPosition(cameraPosition);
  return target.sub(cameraPosition).normalize();
}

/**
 * Where a label for `detection` goes, in world coordinates.
 *
 * The detection's 3D point lies on the surface the camera sees (the front of
 * the object, or its top when seen from above), so the object's top and the
 * centre of its footprint are estimated from its box in the camera image:
 * the box's width gives the object's width (its depth is taken to be about
 * the same), and the box's top edge is the far top edge of the object.
 */
function labelPlacement(detection, camera) {
  detection.updateWorldMatrix(true, false);
  const point = detection.getWorldPosition(new THREE.Vector3());
  camera.updateMatrixWorld(true);
  const eye = camera.getWorldPosition(new THREE.Vector3());

  // Horizontal direction from the eyes to the detection point.
  const h = new THREE.Vector3(point.x - eye.x, 0, point.z - eye.z);
  const sPoint = h.length();
  if (sPoint < 1e-4) {
    return point.clone().setY(point.y + LABEL_GAP);
  }
  h.divideScalar(sPoint);

  const box = detection.detection2DBoundingBox;
  if (!box || box.isEmpty()) {
    return point.clone().setY(point.y + LABEL_GAP);
  }
  const centre = box.getCenter(new THREE.Vector2());

  // Point of an image ray at horizontal distance s along h (null if it does
  // not go that way).
  const atDistance = (ray, s) => {
    const along = ray.dot(h);
    if (along <= 1e-4) return null;
    return eye.clone().addScaledVector(ray, s / along);
  };

  // Object width at the detection point's distance.
  const left = atDistance(imageRay(camera, box.min.x, centre.y), sPoint);
  const right = atDistance(imageRay(camera, box.max.x, centre.y), sPoint);
  let footprint = 0.1;
  if (left && right) {
    footprint = Math.hypot(left.x - right.x, left.z - right.z);
  }
  footprint = THREE.MathUtils.clamp(footprint, 0.02, MAX_FOOTPRINT);

  // Far top edge of the object, seen at the top edge of the image box.
  let top = point.y;
  let sFar = sPoint + footprint;
  const topRay = imageRay(camera, centre.x, box.min.y);
  const topEdgeVisible = box.min.y > 0.001;
  const along = topRay.dot(h);
  if (topEdgeVisible && along > 1e-4 && topRay.y < -1e-4) {
    const slope = -topRay.y / along; // drop per metre of horizontal distance
    // If the detection point is on the front face, the far top edge is one
    // footprint behind it.
    const frontTop = eye.y - slope * (sPoint + footprint);
    if (frontTop >= point.y) {
      top = frontTop;
      sFar = sPoint + footprint;
    } else {
      // The detection point is on the top face.
      top = point.y;
      sFar = (eye.y - top) / slope;
    }
  } else if (topEdgeVisible && along > 1e-4) {
    // Looking up at the top edge: the near top edge is at the detection
    // point's distance.
    const p = atDistance(topRay, sPoint);
    if (p) top = Math.max(point.y, p.y);
    sFar = sPoint + footprint;
  }
  const sCentre = THREE.MathUtils.clamp(
    sFar - footprint / 2,
    sPoint - footprint / 2,
    sPoint + footprint / 2
  );
  const position = new THREE.Vector3(
    eye.x + h.x * sCentre,
    top + LABEL_GAP,
    eye.z + h.z * sCentre
  );
  return position;
}

/**
 * Labels over physical objects: one floating name tag above each object that
 * XR Blocks' object detection currently reports in the user's view.
 */
class ObjectLabels extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    /** Labels currently shown. */
    this.labels = [];
    /** Placement computed for each detection (detections are immutable). */
    this.placements = new WeakMap();
    this.detecting = false;
    if (xb.core.simulatorRunning) this.startDetection();
  }

  onSimulatorStarted() {
    this.startDetection();
  }

  onXRSessionStarted() {
    this.startDetection();
  }

  startDetection() {
    const detector = xb.world?.objects;
    if (!detector) return;
    // Continuous detection: XR Blocks runs a new detection as soon as the
    // previous one has finished.
    detector.start(this);
    this.detecting = true;
  }

  placementOf(detection, camera) {
    let placement = this.placements.get(detection);
    if (!placement) {
      placement = labelPlacement(detection, camera);
      this.placements.set(detection, placement);
    }
    return placement;
  }

  update() {
    const detector = xb.world?.objects;
    const camera = xb.core.camera;
    if (!detector || !camera) return;
    if (!this.detecting && xb.core.simulatorRunning) this.startDetection();

    const detections = this.detecting ? detector.get() : [];
    const targets = detections.map((d) => ({
      text: String(d.label ?? ''),
      position: this.placementOf(d, camera),
    }));

    // Match the detections of this round to the labels already shown (same
    // name, nearest first), so that each object keeps one label.
    const pairs = [];
    targets.forEach((t, ti) => {
      this.labels.forEach((l, li) => {
        if (l.text === t.text) {
          pairs.push({ti, li, d: l.mesh.position.distanceToSquared(t.position)});
        }
      });
    });
    pairs.sort((a, b) => a.d - b.d);
    const labelFor = new Array(targets.length).fill(null);
    const usedLabels = new Set();
    for (const {ti, li} of pairs) {
      if (labelFor[ti] !== null || usedLabels.has(li)) continue;
      labelFor[ti] = this.labels[li];
      usedLabels.add(li);
    }
    // Labels whose object is gone (or no longer in view).
    this.labels.forEach((l, li) => {
      if (!usedLabels.has(li)) l.dispose();
    });
    const next = [];
    targets.forEach((t, ti) => {
      let label = labelFor[ti];
      if (!label) {
        label = new ObjectLabel(t.text);
        this.add(label.mesh);
      }
      label.mesh.position.copy(t.position);
      next.push(label);
    });
    this.labels = next;

    // Turn every label towards the user's head.
    camera.getWorldPosition(tmpVec);
    for (const label of this.labels) {
      label.mesh.lookAt(tmpVec);
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableObjectDetection();
  options.world.objects.simulatorOverride = true;
  options.enableAI();
  xb.add(new ObjectLabels());
  xb.init(options);
});
