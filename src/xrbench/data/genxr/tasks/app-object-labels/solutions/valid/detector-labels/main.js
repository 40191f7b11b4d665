import * as THREE from 'three';
import * as xb from 'xrblocks';

const LABEL_SIZE = new THREE.Vector2(0.16, 0.05);
const HEIGHT_ABOVE = 0.14;  // metres above the object's estimated top
const MATCH_DISTANCE = 0.25;  // the same label this close to last frame's is the same object
const FORGET_FRAMES = 20;  // frames without a detection before a label goes

function makeLabelTexture(text) {
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 80;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'rgba(20, 20, 28, 0.85)';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#ffffff';
  ctx.font = 'bold 44px sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, canvas.width / 2, canvas.height / 2);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

/**
 * Labels the physical objects XR Blocks' object detection reports, continuously: labels are
 * matched to detections by name and proximity every frame, created for new objects, moved with
 * their objects and removed when their objects are no longer detected.
 */
class ObjectLabels extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.labels = [];  // {text, panel, missed}
    this.detecting = false;
  }

  update() {
    const detector = xb.world?.objects;
    if (!detector) return;
    if (!this.detecting && xb.core.simulator) {
      detector.start(this);  // continuous detection for as long as the app runs
      this.detecting = true;
    }
    const detections = detector.get().map((object) => ({
      text: object.label,
      position: this.anchorOf(object),
    }));

    const unmatched = new Set(this.labels);
    for (const detection of detections) {
      let best = null;
      let bestDistance = MATCH_DISTANCE;
      for (const label of unmatched) {
        const d = label.anchor.distanceTo(detection.position);
        if (label.text === detection.text && d < bestDistance) {
          best = label;
          bestDistance = d;
        }
      }
      if (!best) {
        best = this.createLabel(detection.text);
        this.labels.push(best);
      }
      unmatched.delete(best);
      best.missed = 0;
      best.anchor.copy(detection.position);
      this.place(best);
    }
    for (const label of unmatched) {
      label.missed += 1;
      if (label.missed > FORGET_FRAMES) this.removeLabel(label);
    }
    this.faceUser();
  }

  /**
   * Where the label goes: over the detected point, at the height of the object's top. The top is
   * where the ray through the top edge of the object's image box meets the upright plane through
   * the detected point that faces the camera.
   */
  anchorOf(object) {
    const point = object.getWorldPosition(new THREE.Vector3());
    const box = object.detection2DBoundingBox;
    if (!box || box.isEmpty?.()) return point;
    const camera = xb.core.camera;
    const eye = camera.getWorldPosition(new THREE.Vector3());
    const normal = new THREE.Vector3(eye.x - point.x, 0, eye.z - point.z);
    if (normal.lengthSq() < 1e-8) return point;
    normal.normalize();
    const cx = (box.min.x + box.max.x) / 2;
    const ndc = new THREE.Vector2(cx * 2 - 1, 1 - box.min.y * 2);
    const raycaster = new THREE.Raycaster();
    raycaster.setFromCamera(ndc, camera);
    const plane = new THREE.Plane().setFromNormalAndCoplanarPoint(normal, point);
    const top = raycaster.ray.intersectPlane(plane, new THREE.Vector3());
    if (top && top.y > point.y) point.y = top.y;
    return point;
  }

  createLabel(text) {
    const panel = new THREE.Mesh(
      new THREE.PlaneGeometry(LABEL_SIZE.x, LABEL_SIZE.y),
      new THREE.MeshBasicMaterial({map: makeLabelTexture(text), transparent: true, side: THREE.DoubleSide}));
    panel.userData.xrblocksDevtools = {tag: 'object-label', state: {label: text}};
    this.add(panel);
    return {text, panel, anchor: new THREE.Vector3(), missed: 0};
  }

  place(label) {
    const world = label.anchor.clone().add(new THREE.Vector3(0, HEIGHT_ABOVE, 0));
    label.panel.position.copy(this.worldToLocal(world));
  }

  removeLabel(label) {
    label.panel.removeFromParent();
    label.panel.geometry.dispose();
    label.panel.material.map.dispose();
    label.panel.material.dispose();
    this.labels = this.labels.filter((l) => l !== label);
  }

  faceUser() {
    const head = xb.core.camera.getWorldPosition(new THREE.Vector3());
    for (const {panel} of this.labels) {
      const target = new THREE.Vector3(head.x, panel.getWorldPosition(new THREE.Vector3()).y, head.z);
      panel.lookAt(target);  // upright, turned towards the user
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ObjectLabels());
  const options = new xb.Options();
  options.enableObjectDetection();
  options.world.objects.simulatorOverride = true;
  options.enableAI();
  xb.init(options);
});
