import * as THREE from 'three';
import * as xb from 'xrblocks';

// Timing (seconds).
const DWELL_TIME = 0.8; // a look this long shows the card
const LINGER_TIME = 0.3; // the card stays this long after the look ends

// Card size (metres) and placement.
const CARD_WIDTH = 0.2;
const CARD_HEIGHT = 0.1;
const CARD_OFFSET = 0.25; // to the user's right of the object's centre
const CARD_MAX_OFFSET = 0.305; // used only when a wide object needs room
const CLEARANCE_RAD = THREE.MathUtils.degToRad(1.0);

// Chime.
const CHIME_FREQUENCY = 880; // Hz
const CHIME_DURATION = 0.25; // s
const CHIME_VOLUME = 0.6;

// Two detections in consecutive frames with the same label and surface points
// this close (metres) are the same physical object.
const SAME_OBJECT_DISTANCE = 0.15;

const UP = new THREE.Vector3(0, 1, 0);

function nowSeconds() {
  return performance.now() / 1000;
}

/**
 * Look-to-learn info cards: look at a physical object for 0.8 s and a small
 * card with its name appears beside it, with a soft chime from the card.
 */
class LookInfoCards extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.detectionStarted = false;

    // The current look: the object under the centre of the view.
    this.look = null; // {label, point: Vector3, startTime}
    // The card currently shown (or lingering), and for which object.
    this.cardShown = false;
    this.cardObject = null; // {label, point}
    this.hideAt = Infinity;

    this._head = new THREE.Vector3();
    this._tmp = new THREE.Vector3();
    this._tmp2 = new THREE.Vector3();

    this.createCard();
    this.chimeBuffer = null;
  }

  // ---------------------------------------------------------------- card ---

  createCard() {
    this.cardCanvas = document.createElement('canvas');
    this.cardCanvas.width = 512;
    this.cardCanvas.height = 256;
    this.cardTexture = new THREE.CanvasTexture(this.cardCanvas);
    this.cardTexture.colorSpace = THREE.SRGBColorSpace;
    const material = new THREE.MeshBasicMaterial({
      map: this.cardTexture,
      transparent: true,
      side: THREE.FrontSide,
    });
    const card = new THREE.Mesh(
      new THREE.PlaneGeometry(CARD_WIDTH, CARD_HEIGHT),
      material
    );
    card.name = 'info-card';
    card.visible = false;
    card.userData.xrblocksDevtools = {tag: 'info-card', state: {label: ''}};
    this.card = card;
    this.add(card);
    this.drawCard('');
  }

  drawCard(label) {
    const canvas = this.cardCanvas;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const w = canvas.width;
    const h = canvas.height;
    ctx.clearRect(0, 0, w, h);
    const r = 36;
    ctx.fillStyle = 'rgba(24, 28, 40, 0.92)';
    ctx.beginPath();
    ctx.moveTo(r, 0);
    ctx.arcTo(w, 0, w, h, r);
    ctx.arcTo(w, h, 0, h, r);
    ctx.arcTo(0, h, 0, 0, r);
    ctx.arcTo(0, 0, w, 0, r);
    ctx.closePath();
    ctx.fill();
    ctx.lineWidth = 8;
    ctx.strokeStyle = '#8ab4f8';
    ctx.stroke();

    ctx.fillStyle = '#ffffff';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    let fontSize = 96;
    ctx.font = `bold ${fontSize}px sans-serif`;
    while (fontSize > 24 && ctx.measureText(label).width > w - 60) {
      fontSize -= 4;
      ctx.font = `bold ${fontSize}px sans-serif`;
    }
    ctx.fillText(label, w / 2, h / 2);
    this.cardTexture.needsUpdate = true;
  }

  setCardLabel(label) {
    if (this.card.userData.xrblocksDevtools.state.label !== label) {
      this.drawCard(label);
    }
    this.card.userData.xrblocksDevtools = {tag: 'info-card', state: {label}};
  }

  // --------------------------------------------------------------- chime ---

  getChimeBuffer(context) {
    if (this.chimeBuffer) return this.chimeBuffer;
    const sampleRate = context.sampleRate;
    const length = Math.round(sampleRate * CHIME_DURATION);
    const buffer = context.createBuffer(1, length, sampleRate);
    const data = buffer.getChannelData(0);
    const attack = 0.01 * sampleRate;
    for (let i = 0; i < length; i++) {
      const t = i / sampleRate;
      // Soft attack, then an exponential-ish decay to zero at the end.
      const a = Math.min(1, i / attack);
      const remaining = 1 - i / length;
      const envelope = a * remaining * remaining;
      data[i] =
        CHIME_VOLUME * envelope * Math.sin(2 * Math.PI * CHIME_FREQUENCY * t);
    }
    this.chimeBuffer = buffer;
    return buffer;
  }

  playChime() {
    const listener = xb.core.sound?.getAudioListener?.();
    if (!listener) return;
    if (!this.chimeAudio) {
      this.chimeAudio = new THREE.PositionalAudio(listener);
      this.chimeAudio.setRefDistance(1);
      this.card.add(this.chimeAudio);
    }
    const audio = this.chimeAudio;
    if (audio.source) audio.stop();
    audio.setBuffer(this.getChimeBuffer(listener.context));
    audio.setLoop(false);
    audio.play();
  }

  // ------------------------------------------------------------- looking ---

  /** The detection under the centre of the view (nearest if several). */
  findLookedAtDetection(head) {
    const objects = xb.world?.objects;
    if (!objects) return null;
    const detections = objects.get();
    let best = null;
    let bestDistance = Infinity;
    for (const detection of detections) {
      const box = detection.detection2DBoundingBox;
      if (!box || !detection.label) continue;
      if (
        box.min.x > 0.5 ||
        box.max.x < 0.5 ||
        box.min.y > 0.5 ||
        box.max.y < 0.5
      ) {
        continue;
      }
      const distance = detection.position.distanceTo(head);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = detection;
      }
    }
    return best;
  }

  isSameObject(a, b) {
    return (
      a &&
      b &&
      a.label === b.label &&
      a.point.distanceTo(b.point) <= SAME_OBJECT_DISTANCE
    );
  }

  // ----------------------------------------------------------- placement ---

  /** World direction (unit) from the camera through a normalised image point. */
  imageRay(camera, head, u, v, target) {
    target
      .set(u * 2 - 1, 1 - v * 2, 0.5)
      .unproject(camera)
      .sub(head)
      .normalize();
    return target;
  }

  /** Places (and turns) the card beside the object for the current head. */
  placeCard(detection, camera, head) {
    const point = detection.position.clone();
    const box = detection.detection2DBoundingBox;

    // Estimate the object's centre: the detection is a point on its visible
    // surface, so move a little away from the user, by a fraction of the
    // object's apparent size.
    const rayDir = point.clone().sub(head);
    const distance = Math.max(rayDir.length(), 1e-3);
    rayDir.divideScalar(distance);
    const left = this.imageRay(camera, head, box.min.x, 0.5, new THREE.Vector3());
    const right = this.imageRay(camera, head, box.max.x, 0.5, new THREE.Vector3());
    const top = this.imageRay(camera, head, 0.5, box.min.y, new THREE.Vector3());
    const bottom = this.imageRay(camera, head, 0.5, box.max.y, new THREE.Vector3());
    const width = left.angleTo(right) * distance;
    const height = top.angleTo(bottom) * distance;
    const pushBack = Math.min(0.45 * Math.min(width, height), 0.14);
    const centre = point.clone().addScaledVector(rayDir, pushBack);
    // Keep the height of the surface point: it lies on the object, so it is
    // between the object's bottom and top.
    centre.y = point.y;

    // Horizontal frame of the view of the object.
    const forward = centre.clone().sub(head);
    forward.y = 0;
    if (forward.lengthSq() < 1e-8) {
      camera.getWorldDirection(forward);
      forward.y = 0;
    }
    if (forward.lengthSq() < 1e-8) forward.set(0, 0, -1);
    forward.normalize();
    const rightDir = new THREE.Vector3().crossVectors(forward, UP).normalize();

    // The largest azimuth (to the right) of the object's image box.
    const azimuth = (dir) =>
      Math.atan2(dir.dot(rightDir), dir.dot(forward));
    const cornerA = this.imageRay(camera, head, box.max.x, box.min.y, new THREE.Vector3());
    const cornerB = this.imageRay(camera, head, box.max.x, box.max.y, new THREE.Vector3());
    const objectMaxAzimuth = Math.max(
      azimuth(cornerA),
      azimuth(cornerB),
      azimuth(right)
    );

    // Smallest offset (from 0.25 m) whose card's left edge clears the object.
    const cardCentre = new THREE.Vector3();
    const edge = new THREE.Vector3();
    let offset = CARD_OFFSET;
    for (let o = CARD_OFFSET; o <= CARD_MAX_OFFSET + 1e-6; o += 0.005) {
      offset = o;
      cardCentre.copy(centre).addScaledVector(rightDir, o);
      const toCard = cardCentre.clone().sub(head);
      toCard.y = 0;
      const cardRight = new THREE.Vector3()
        .crossVectors(toCard.normalize(), UP)
        .normalize();
      edge
        .copy(cardCentre)
        .addScaledVector(cardRight, -CARD_WIDTH / 2)
        .sub(head)
        .normalize();
      if (azimuth(edge) > objectMaxAzimuth + CLEARANCE_RAD) break;
    }
    cardCentre.copy(centre).addScaledVector(rightDir, offset);

    this.card.position.copy(cardCentre);
    this.faceUser(head);
  }

  faceUser(head) {
    // Object3D.lookAt turns a mesh's +Z towards the target; with y up the
    // card stays upright sideways and tilts back towards the eyes.
    this.card.lookAt(head);
    this.card.updateMatrixWorld(true);
  }

  showCard(detection, camera, head) {
    this.setCardLabel(detection.label);
    this.placeCard(detection, camera, head);
    this.card.visible = true;
    this.cardShown = true;
    this.cardObject = {label: detection.label, point: detection.position.clone()};
    this.hideAt = Infinity;
    this.playChime();
  }

  hideCard() {
    this.card.visible = false;
    this.cardShown = false;
    this.cardObject = null;
    this.hideAt = Infinity;
    if (this.chimeAudio?.isPlaying) this.chimeAudio.stop();
  }

  // -------------------------------------------------------------- update ---

  update() {
    const objects = xb.world?.objects;
    if (objects && !this.detectionStarted) {
      objects.start(this); // continuous detection
      this.detectionStarted = true;
    }

    const camera = xb.core.camera;
    if (!camera) return;
    camera.updateMatrixWorld();
    camera.getWorldPosition(this._head);
    const head = this._head;
    const time = nowSeconds();

    const detection = this.findLookedAtDetection(head);
    const seen = detection
      ? {label: detection.label, point: detection.position.clone()}
      : null;

    // Track the look.
    if (seen && this.isSameObject(this.look, seen)) {
      this.look.point.copy(seen.point);
    } else if (seen) {
      this.look = {label: seen.label, point: seen.point, startTime: time};
    } else {
      this.look = null;
    }

    if (this.cardShown) {
      const onCardObject =
        this.look && this.isSameObject(this.cardObject, this.look);
      if (onCardObject) {
        // Still (or again) looking at the card's object: keep it.
        this.cardObject.point.copy(this.look.point);
        this.hideAt = Infinity;
      } else if (this.hideAt === Infinity) {
        this.hideAt = time + LINGER_TIME;
      }
      if (time >= this.hideAt - 1e-6) {
        this.hideCard();
      }
    }

    if (
      this.look &&
      !this.cardShown &&
      time - this.look.startTime >= DWELL_TIME - 1e-6 &&
      detection
    ) {
      this.showCard(detection, camera, head);
    }

    if (this.cardShown) this.faceUser(head);
  }

  dispose() {
    xb.world?.objects?.stop(this);
    super.dispose?.();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableObjectDetection();
  options.world.objects.simulatorOverride = true;
  options.enableAI();
  xb.add(new LookInfoCards());
  xb.init(options);
});
