import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A ball the user grabs (touch + pinch, either hand) and carries. On release it falls straight
 * down at a constant 1 m/s (app time) and comes to rest on the real surface below it, found by
 * marching down through XR Blocks' depth data; a short thud plays from the ball when it lands.
 */

const RADIUS = 0.04;
const HOME = new THREE.Vector3(0, 1.2, -0.45);
const SPEED = 1.0; // metres per second
const STEP = 0.01;
const REACH = 3.0; // how far below the ball to look for a surface

class DropBall extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.ball = new THREE.Mesh(
      new THREE.SphereGeometry(RADIUS, 32, 16),
      new THREE.MeshStandardMaterial({color: 0xff7043, roughness: 0.4})
    );
    this.ball.position.copy(HOME);
    this.state = {held: false, falling: false};
    this.ball.userData.xrblocksDevtools = {tag: 'drop-ball', state: this.state};
    this.add(this.ball);
    this.holder = null;
    this.offset = new THREE.Vector3();
    this.restY = null;
    this.last = performance.now();
    this.audio = null;
  }

  thudBuffer(ctx) {
    const rate = ctx.sampleRate;
    const n = Math.floor(0.2 * rate);
    const buffer = ctx.createBuffer(1, n, rate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < n; i++) {
      const t = i / rate;
      data[i] = 0.8 * Math.sin(2 * Math.PI * 90 * t) * Math.exp(-t * 25);
    }
    return buffer;
  }

  thud() {
    if (!this.audio) {
      const listener = xb.core.sound.getAudioListener();
      this.audio = new THREE.PositionalAudio(listener);
      this.audio.setBuffer(this.thudBuffer(listener.context));
      this.audio.setLoop(false);
      this.ball.add(this.audio);
    }
    if (this.audio.isPlaying) this.audio.stop();
    this.audio.play();
  }

  onObjectGrabStart(event) {
    if (this.holder) return;
    this.holder = event.source;
    this.offset.copy(this.ball.position).sub(event.touchPosition);
    this.state.held = true;
    this.state.falling = false;
    this.restY = null;
  }

  onObjectGrabbing(event) {
    if (event.source !== this.holder) return;
    this.ball.position.copy(event.touchPosition).add(this.offset);
  }

  onObjectGrabEnd(event) {
    if (event.source !== this.holder) return;
    this.holder = null;
    this.state.held = false;
    const surface = this.surfaceBelow(this.ball.position);
    if (surface !== null) {
      this.restY = surface + RADIUS;
      this.state.falling = this.ball.position.y > this.restY;
      if (!this.state.falling) this.ball.position.y = this.restY;
    }
  }

  /** Depth along the depth camera's view of world point p, and the surface's depth seen there. */
  sample(p) {
    const depth = xb.core.depth;
    const view = p.clone().applyMatrix4(depth.depthViewMatrices[0]);
    const z = -view.z;
    if (z <= 0) return null;
    const clip = view.applyMatrix4(depth.depthProjectionMatrices[0]);
    if (Math.abs(clip.x) > 1 || Math.abs(clip.y) > 1) return null;
    const surface = depth.getDepth(0.5 * (clip.x + 1), 0.5 * (clip.y + 1));
    if (!(surface > 0)) return null;
    return {z, surface};
  }

  /** The height of the first real surface straight below p, from the depth data, or null. */
  surfaceBelow(p) {
    const depth = xb.core.depth;
    if (!depth || !depth.depthArray?.[0] || !depth.depthViewMatrices?.[0]) return null;
    const at = (s) => new THREE.Vector3(p.x, p.y - s, p.z);
    let before = 0;
    for (let s = 0; s <= REACH; s += STEP) {
      const q = this.sample(at(s));
      if (q && q.z >= q.surface) {
        let lo = before, hi = s;
        for (let i = 0; i < 12; i++) {
          const mid = 0.5 * (lo + hi);
          const m = this.sample(at(mid));
          if (m && m.z >= m.surface) hi = mid; else lo = mid;
        }
        return p.y - hi;
      }
      before = s;
    }
    return null;
  }

  update() {
    const now = performance.now();
    const dt = Math.max(0, (now - this.last) / 1000);
    this.last = now;
    if (!this.state.falling) return;
    const y = this.ball.position.y - SPEED * dt;
    if (y <= this.restY) {
      this.ball.position.y = this.restY;
      this.state.falling = false;
      this.thud();
    } else {
      this.ball.position.y = y;
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  xb.add(new DropBall());
  xb.init(options);
});
