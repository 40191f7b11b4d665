import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Gaze pins: a pinch of either hand drops a pin where the head's forward ray meets the real
 * surface (the depth at the centre of the view), standing along the surface normal estimated
 * from the depth image around the centre, with a short tick from a positional audio on the pin.
 * At most five pins; the sixth removes the oldest.
 */

const MAX_RANGE = 4.0;
const MAX_PINS = 5;
const SAMPLE_RATE = 44100;

class GazePins extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.needle = new THREE.CylinderGeometry(0.003, 0.0005, 0.08, 12);
    this.needle.translate(0, 0.04, 0);
    this.head = new THREE.SphereGeometry(0.012, 16, 12);
    this.head.translate(0, 0.08, 0);
    this.needleMaterial = new THREE.MeshStandardMaterial({color: 0xcccccc, metalness: 0.6});
    this.headMaterial = new THREE.MeshStandardMaterial({color: 0xe53935});
    this.pins = [];
    this.lastDropFrame = -1;
    this.frame = 0;
  }

  tickBuffer() {
    if (this.buffer) return this.buffer;
    const listener = xb.core.sound.getAudioListener();
    const ctx = listener.context;
    const length = Math.floor(0.15 * SAMPLE_RATE);
    const buffer = ctx.createBuffer(1, length, SAMPLE_RATE);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < length; i++) {
      const t = i / SAMPLE_RATE;
      data[i] = 0.5 * Math.sin(2 * Math.PI * 1200 * t) * Math.exp(-t * 30);
    }
    this.buffer = buffer;
    return buffer;
  }

  update() {
    this.frame++;
  }

  onSelectStart() {
    if (this.lastDropFrame === this.frame) return; // both hands in one frame: one pin
    const hit = this.gazeHit();
    if (!hit) return;
    this.lastDropFrame = this.frame;
    this.drop(hit.point, hit.normal);
  }

  /** World point of the depth image at view coordinates (u, v), or null. */
  surfacePoint(u, v) {
    const depth = xb.core.depth;
    const d = depth.getDepth(u, v);
    if (!(d > 0)) return null;
    const inverseProjection = depth.depthProjectionMatrices[0].clone().invert();
    const p = new THREE.Vector3(2 * u - 1, 2 * v - 1, 0.5).applyMatrix4(inverseProjection);
    p.multiplyScalar(d / -p.z);
    return p.applyMatrix4(depth.depthViewMatrices[0].clone().invert());
  }

  gazeHit() {
    const depth = xb.core.depth;
    if (!depth || !depth.depthArray?.[0] || !depth.depthViewMatrices?.[0]) return null;
    const d = depth.getDepth(0.5, 0.5);
    if (!(d > 0) || d > MAX_RANGE) return null;
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    const eye = camera.getWorldPosition(new THREE.Vector3());
    const forward = new THREE.Vector3(0, 0, -1).transformDirection(camera.matrixWorld);
    const point = eye.clone().addScaledVector(forward, d);
    const facing = forward.clone().negate();
    let normal = facing.clone();
    for (const px of [3, 2, 1]) {
      const k = px / 160;
      const r = this.surfacePoint(0.5 + k, 0.5), l = this.surfacePoint(0.5 - k, 0.5);
      const t = this.surfacePoint(0.5, 0.5 + k), b = this.surfacePoint(0.5, 0.5 - k);
      if (!r || !l || !t || !b) continue;
      const n = new THREE.Vector3().crossVectors(r.sub(l), t.sub(b));
      if (n.lengthSq() < 1e-12) continue;
      n.normalize();
      if (n.dot(facing) < 0) n.negate();
      normal = n;
      break;
    }
    return {point, normal};
  }

  drop(point, normal) {
    while (this.pins.length >= MAX_PINS) {
      const old = this.pins.shift();
      old.parent?.remove(old);
    }
    const pin = new THREE.Group();
    pin.name = 'gaze pin';
    pin.add(new THREE.Mesh(this.needle, this.needleMaterial));
    pin.add(new THREE.Mesh(this.head, this.headMaterial));
    pin.position.copy(point);
    pin.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), normal);
    pin.userData.xrblocksDevtools = {tag: 'gaze-pin', state: {}};
    const audio = new THREE.Audio(xb.core.sound.getAudioListener());
    audio.setBuffer(this.tickBuffer());
    audio.setLoop(false);
    xb.core.camera.add(audio);
    this.add(pin);
    this.pins.push(pin);
    audio.play();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new GazePins());
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  xb.init(options);
});
