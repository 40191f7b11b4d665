import * as THREE from 'three';
import * as xb from 'xrblocks';

const DWELL_S = 0.8;       // a look held this long shows the card
const HIDE_DELAY_S = 0.3;  // the card stays this long after the look leaves
const CARD_W = 0.2;
const CARD_H = 0.1;
const SIDE_OFFSET = 0.25;  // metres to the user's right of the object
const CHIME_HZ = 880;
const CHIME_S = 0.25;
const SAME_OBJECT_M = 0.3; // a detection this close to the last one, with its name, is the same object

function nameTexture(text) {
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 128;
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#1d2533';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = '#8fb3ff';
  ctx.lineWidth = 6;
  ctx.strokeRect(3, 3, canvas.width - 6, canvas.height - 6);
  ctx.fillStyle = '#ffffff';
  ctx.font = 'bold 48px sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, canvas.width / 2, canvas.height / 2);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

function chimeBuffer(context) {
  const rate = context.sampleRate;
  const n = Math.floor(rate * CHIME_S);
  const buffer = context.createBuffer(1, n, rate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const envelope = Math.min(1, t / 0.01) * Math.exp(-t * 10);
    data[i] = 0.5 * envelope * Math.sin(2 * Math.PI * CHIME_HZ * t);
  }
  return buffer;
}

/**
 * Shows an info card beside the physical object the user keeps looking at. The object under the
 * centre of the view is the detection whose image box holds the view's centre.
 */
class LookInfoCard extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.detecting = false;
    this.gazed = null;      // {label, position} under the centre of view
    this.gazeSince = 0;     // app time the current look began
    this.card = null;       // {label, mesh}
    this.leftAt = null;     // app time the look left the card's object
    this.cardObject = null; // {label, position} the card belongs to
    this.audio = null;
  }

  now() {
    return performance.now() / 1000;
  }

  lookedAt() {
    const detector = xb.world?.objects;
    if (!detector) return null;
    const head = xb.core.camera.getWorldPosition(new THREE.Vector3());
    let best = null;
    let bestDistance = Infinity;
    for (const d of detector.get()) {
      const box = d.detection2DBoundingBox;
      if (!box || box.isEmpty()) continue;
      if (!box.containsPoint(new THREE.Vector2(0.5, 0.5))) continue;
      const position = d.getWorldPosition(new THREE.Vector3());
      const distance = position.distanceTo(head);
      if (distance < bestDistance) {
        best = {label: d.label, position};
        bestDistance = distance;
      }
    }
    return best;
  }

  same(a, b) {
    return !!a && !!b && a.label === b.label && a.position.distanceTo(b.position) < SAME_OBJECT_M;
  }

  update() {
    const detector = xb.world?.objects;
    if (!detector) return;
    if (!this.detecting && xb.core.simulator) {
      detector.start(this);
      this.detecting = true;
    }
    const t = this.now();
    const looked = this.lookedAt();
    if (!this.same(looked, this.gazed)) this.gazeSince = t;
    this.gazed = looked;

    if (this.card) {
      if (this.same(looked, this.cardObject)) {
        this.leftAt = null;
        this.cardObject = looked;
      } else {
        if (this.leftAt === null) this.leftAt = t;
        if (t - this.leftAt >= HIDE_DELAY_S - 1e-6) this.hideCard();
      }
    }
    if (!this.card && looked && t - this.gazeSince >= DWELL_S - 1e-6) {
      this.showCard(looked);
    }
  }

  showCard(object) {
    const head = xb.core.camera.getWorldPosition(new THREE.Vector3());
    const toObject = object.position.clone().sub(head);
    toObject.y = 0;
    toObject.normalize();
    const right = new THREE.Vector3(1, 0, 0);  // to the right of the object
    const centre = object.position.clone().addScaledVector(right, SIDE_OFFSET);

    const mesh = new THREE.Mesh(
        new THREE.PlaneGeometry(CARD_W, CARD_H),
        new THREE.MeshBasicMaterial({map: nameTexture(object.label), side: THREE.DoubleSide}));
    mesh.userData.xrblocksDevtools = {tag: 'info-card', state: {label: object.label}};
    this.add(mesh);
    mesh.position.copy(this.worldToLocal(centre.clone()));

    const listener = xb.core.sound.getAudioListener();
    const audio = new THREE.PositionalAudio(listener);
    audio.setBuffer(chimeBuffer(listener.context));
    audio.setRefDistance(1);
    audio.setVolume(0.4);
    mesh.add(audio);
    mesh.updateMatrixWorld(true);
    if (audio.isPlaying) audio.stop();
    audio.play();

    this.card = {label: object.label, mesh, audio};
    this.cardObject = object;
    this.leftAt = null;
  }

  hideCard() {
    const {mesh, audio} = this.card;
    mesh.removeFromParent();
    audio.disconnect?.();
    mesh.geometry.dispose();
    mesh.material.map.dispose();
    mesh.material.dispose();
    this.card = null;
    this.cardObject = null;
    this.leftAt = null;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new LookInfoCard());
  const options = new xb.Options();
  options.enableObjectDetection();
  options.world.objects.simulatorOverride = true;
  options.enableAI();
  xb.init(options);
});
