import * as THREE from 'three';
import * as xb from 'xrblocks';

// Drop ball: grab by touch + pinch, carry, let go; it sinks at 1 m/s and stops on the real surface
// that the depth image shows under it. Each frame the next position is checked against the depth
// image; the last step is shortened by bisection so the ball sits on the surface.

const R = 0.04;
const FALL_SPEED = 1.0;

function depthState() {
  const d = xb.core.depth;
  return d && d.depthArray && d.depthArray[0] && d.depthViewMatrices && d.depthViewMatrices[0] ? d : null;
}

function isBehindSurface(point) {
  const d = depthState();
  if (!d) return false;
  const v = point.clone().applyMatrix4(d.depthViewMatrices[0]);
  const dist = -v.z;
  if (dist <= 0) return false;
  v.applyMatrix4(d.depthProjectionMatrices[0]);
  if (v.x < -1 || v.x > 1 || v.y < -1 || v.y > 1) return false;
  const seen = d.getDepth((v.x + 1) / 2, (v.y + 1) / 2);
  return seen > 0 && dist >= seen;
}

class Ball extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.5));
    this.mesh = new THREE.Mesh(new THREE.SphereGeometry(R, 24, 16), new THREE.MeshStandardMaterial({color: 0x42a5f5}));
    this.mesh.position.set(0, 1.2, -0.45);
    this.mesh.userData.xrblocksDevtools = {tag: 'drop-ball', state: {}};
    this.add(this.mesh);
    this.grabber = null;
    this.grabOffset = new THREE.Vector3();
    this.dropping = false;
    this.floor = -Infinity;
    this.prev = null;
  }

  makeSound() {
    const listener = xb.core.sound.getAudioListener();
    const ctx = listener.context;
    const len = Math.round(ctx.sampleRate * 0.15);
    const buf = ctx.createBuffer(1, len, ctx.sampleRate);
    const ch = buf.getChannelData(0);
    for (let i = 0; i < len; i++) ch[i] = Math.sin(i * 2 * Math.PI * 70 / ctx.sampleRate) * Math.exp(-i / (ctx.sampleRate * 0.04));
    const audio = new THREE.PositionalAudio(listener);
    audio.setBuffer(buf);
    this.mesh.add(audio);
    return audio;
  }

  onObjectGrabStart(e) {
    if (this.grabber) return;
    this.grabber = e.source;
    this.grabOffset.subVectors(this.mesh.position, e.touchPosition);
    this.dropping = false;
  }

  onObjectGrabbing(e) {
    if (e.source === this.grabber) this.mesh.position.addVectors(e.touchPosition, this.grabOffset);
  }

  onObjectGrabEnd(e) {
    if (e.source !== this.grabber) return;
    this.grabber = null;
    // Find where the ball's bottom first meets the surface, going down in 5 mm steps.
    const p = this.mesh.position.clone();
    p.y -= R;
    let found = null;
    for (let k = 0; k < 600; k++) {
      const q = p.clone();
      q.y -= k * 0.005;
      if (isBehindSurface(q)) {
        let hi = q.y + 0.005, lo = q.y;
        if (k === 0) hi = q.y;
        for (let j = 0; j < 10 && k > 0; j++) {
          const m = (hi + lo) / 2;
          if (isBehindSurface(new THREE.Vector3(q.x, m, q.z))) lo = m; else hi = m;
        }
        found = lo;
        break;
      }
    }
    if (found === null) return; // nothing seen below: it floats
    this.floor = found + R;
    this.dropping = true;
  }

  update() {
    const t = performance.now();
    const dt = this.prev === null ? 0 : (t - this.prev) / 1000;
    this.prev = t;
    if (!this.dropping) return;
    this.mesh.position.y = Math.max(this.floor, this.mesh.position.y - FALL_SPEED * dt);
    if (this.mesh.position.y <= this.floor) {
      this.dropping = false;
      if (!this.thud) this.thud = this.makeSound();
      if (this.thud.isPlaying) this.thud.stop();
      this.thud.play();
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  xb.add(new Ball());
  xb.init(options);
});
