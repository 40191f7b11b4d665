import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Gaze pins, the marching way: on a pinch, step along the head's forward ray through XR Blocks'
 * depth data (projecting each step into the depth camera) until the ray reaches the surface,
 * refine by bisection, and fit the surface normal from a small ring of depth samples around the
 * hit. The pin is a cone (tip at its origin) that stands along the normal; a tick is played from
 * a positional audio on the pin. Old pins beyond five are hidden.
 */

const RANGE = 4.0;
const LIMIT = 5;
const STEP = 0.02;

function makeTick(context) {
  const rate = context.sampleRate;
  const n = Math.round(rate * 0.08);
  const buffer = context.createBuffer(1, n, rate);
  const samples = buffer.getChannelData(0);
  for (let i = 0; i < n; i++) {
    const env = 1 - i / n;
    samples[i] = 0.4 * env * env * Math.sin((2 * Math.PI * 880 * i) / rate);
  }
  return buffer;
}

class PinDropper extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.5));
    const cone = new THREE.ConeGeometry(0.01, 0.06, 16);
    cone.rotateX(Math.PI); // point down
    cone.translate(0, 0.03, 0); // tip at the origin
    this.cone = cone;
    this.material = new THREE.MeshStandardMaterial({color: 0xffb300});
    this.shown = [];
    this.droppedThisFrame = false;
  }

  update() {
    this.droppedThisFrame = false;
  }

  onSelectStart() {
    if (this.droppedThisFrame) return;
    const hit = this.castGaze();
    if (!hit) return;
    this.droppedThisFrame = true;
    this.place(hit);
  }

  project(point) {
    const depth = xb.core.depth;
    const v = point.clone().applyMatrix4(depth.depthViewMatrices[0]);
    const z = -v.z;
    if (z <= 0) return null;
    v.applyMatrix4(depth.depthProjectionMatrices[0]);
    const u = 0.5 * (v.x + 1), w = 0.5 * (v.y + 1);
    if (u < 0 || u > 1 || w < 0 || w > 1) return null;
    const d = depth.getDepth(u, w);
    return d > 0 ? {z, d, u, w} : null;
  }

  unproject(u, w) {
    const depth = xb.core.depth;
    const d = depth.getDepth(u, w);
    if (!(d > 0)) return null;
    const p = new THREE.Vector3(2 * u - 1, 2 * w - 1, 0.5)
      .applyMatrix4(depth.depthProjectionMatrices[0].clone().invert());
    p.multiplyScalar(d / -p.z);
    return p.applyMatrix4(depth.depthViewMatrices[0].clone().invert());
  }

  castGaze() {
    const depth = xb.core.depth;
    if (!depth?.depthArray?.[0] || !depth.depthViewMatrices?.[0]) return null;
    const cam = xb.core.camera;
    cam.updateMatrixWorld(true);
    const origin = new THREE.Vector3().setFromMatrixPosition(cam.matrixWorld);
    const dir = new THREE.Vector3(0, 0, -1).transformDirection(cam.matrixWorld);
    const at = (s) => origin.clone().addScaledVector(dir, s);
    let lo = 0.1;
    let hitS = null;
    for (let s = 0.1; s <= RANGE + 1e-6; s += STEP) {
      const q = this.project(at(s));
      if (q && q.z >= q.d) { hitS = s; break; }
      lo = s;
    }
    if (hitS === null) return null;
    let hi = hitS;
    for (let i = 0; i < 16; i++) {
      const mid = 0.5 * (lo + hi);
      const q = this.project(at(mid));
      if (q && q.z >= q.d) hi = mid; else lo = mid;
    }
    if (hi > RANGE) return null;
    const point = at(hi);
    // Normal: average of cross products over a ring of samples around the hit.
    const q = this.project(point);
    const normal = new THREE.Vector3();
    if (q) {
      const c = this.unproject(q.u, q.w);
      const k = 2 / 160;
      const ring = [];
      for (let a = 0; a < 8; a++) {
        const t = (a / 8) * Math.PI * 2;
        const p = this.unproject(q.u + k * Math.cos(t), q.w + k * Math.sin(t));
        if (p) ring.push(p.sub(c));
      }
      for (let i = 0; i + 1 < ring.length; i++) normal.add(new THREE.Vector3().crossVectors(ring[i], ring[i + 1]));
    }
    if (normal.lengthSq() < 1e-12) normal.copy(dir).negate();
    normal.normalize();
    if (normal.dot(dir) > 0) normal.negate();
    return {point, normal};
  }

  place({point, normal}) {
    if (this.shown.length >= LIMIT) {
      const oldest = this.shown.shift();
      oldest.visible = false;
      oldest.userData.xrblocksDevtools = undefined;
    }
    const pin = new THREE.Mesh(this.cone, this.material);
    pin.name = 'pin';
    pin.position.copy(point);
    pin.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), normal);
    pin.userData.xrblocksDevtools = {tag: 'gaze-pin', state: {}};
    const listener = xb.core.sound.getAudioListener();
    const audio = new THREE.PositionalAudio(listener);
    this.tick ??= makeTick(listener.context);
    audio.setBuffer(this.tick);
    pin.add(audio);
    this.add(pin);
    this.shown.push(pin);
    audio.play();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enableDepth();
  xb.add(new PinDropper());
  xb.init(options);
});
