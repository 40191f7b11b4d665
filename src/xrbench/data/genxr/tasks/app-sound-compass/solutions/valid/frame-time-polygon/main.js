import * as THREE from 'three';
import * as xb from 'xrblocks';

// A hide-and-seek beacon: the time of every decision is the frame time XR Blocks passes to update().

const NEAR_COS = Math.cos(THREE.MathUtils.degToRad(10));

/** Shoelace area of a plane's outline (its ShapeGeometry's boundary vertices, in plane space). */
function polygonArea(plane) {
  const pos = plane.geometry?.attributes?.position;
  if (!pos || pos.count < 3) return 0;
  // The boundary of a triangulated convex shape: its convex hull in the plane's own x/y.
  const pts = [];
  for (let i = 0; i < pos.count; i++) pts.push([pos.getX(i), pos.getY(i)]);
  pts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o, a, b) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower = [];
  const upper = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower.at(-2), lower.at(-1), p) <= 0) lower.pop();
    lower.push(p);
  }
  for (const p of [...pts].reverse()) {
    while (upper.length >= 2 && cross(upper.at(-2), upper.at(-1), p) <= 0) upper.pop();
    upper.push(p);
  }
  const hull = lower.slice(0, -1).concat(upper.slice(0, -1));
  let twice = 0;
  for (let i = 0; i < hull.length; i++) {
    const [x0, y0] = hull[i];
    const [x1, y1] = hull[(i + 1) % hull.length];
    twice += x0 * y1 - x1 * y0;
  }
  return Math.abs(twice) / 2;
}

function makeBeep(ctx) {
  const seconds = 0.1;
  const buf = ctx.createBuffer(1, Math.floor(ctx.sampleRate * seconds), ctx.sampleRate);
  const ch = buf.getChannelData(0);
  for (let i = 0; i < ch.length; i++) {
    const fade = Math.min(1, i / 200, (ch.length - i) / 200);  // no clicks at the ends
    ch[i] = 0.5 * fade * Math.sin((2 * Math.PI * 880 * i) / ctx.sampleRate);
  }
  return buf;
}

class BeaconHunt extends xb.Script {
  init() {
    this.add(new THREE.DirectionalLight(0xffffff, 2));
    this.add(new THREE.AmbientLight(0xffffff, 0.6));

    this.beacon = new THREE.Group();
    this.beacon.name = 'beacon';
    this.beacon.userData.xrblocksDevtools = {tag: 'beacon', state: {found: false}};
    this.add(this.beacon);

    const listener = xb.core.sound.getAudioListener();
    this.sound = new THREE.PositionalAudio(listener);
    this.sound.setBuffer(makeBeep(listener.context));
    this.sound.setLoop(false);
    this.beacon.add(this.sound);

    this.phase = 'searching';  // searching -> beeping -> found
    this.lastBeepAt = 0;
    this.nearFor = -1;  // ms spent within 10 degrees in the current run; -1: not in a run
    this.prevTime = 0;
  }

  update(time) {
    const dt = time - this.prevTime;
    this.prevTime = time;
    if (this.phase === 'searching') {
      const tables = xb.world?.planes?.get('table') ?? [];
      if (tables.length === 0) return;
      let best = tables[0];
      for (const t of tables) if (polygonArea(t) > polygonArea(best)) best = t;
      best.updateMatrixWorld(true);
      const where = new THREE.Vector3().setFromMatrixPosition(best.matrixWorld);
      this.beacon.position.copy(where);  // the script sits at the scene's origin
      this.beacon.updateMatrixWorld(true);
      this.phase = 'beeping';
      this.playBeep(time);
      this.nearFor = this.isNear() ? 0 : -1;
      return;
    }
    if (this.phase !== 'beeping') return;

    const cosine = this.viewCosine();
    if (cosine >= NEAR_COS) {
      this.nearFor = this.nearFor < 0 ? 0 : this.nearFor + dt;
      if (this.nearFor >= 1000) {
        this.onFound();
        return;
      }
    } else {
      this.nearFor = -1;
    }
    const degrees = THREE.MathUtils.radToDeg(Math.acos(THREE.MathUtils.clamp(cosine, -1, 1)));
    const wait = 200 + (800 * Math.min(degrees, 90)) / 90;
    if (time - this.lastBeepAt >= wait) this.playBeep(time);
  }

  viewCosine() {
    const cam = xb.core.camera;
    cam.updateMatrixWorld(true);
    const eye = new THREE.Vector3().setFromMatrixPosition(cam.matrixWorld);
    const look = new THREE.Vector3(0, 0, -1).applyQuaternion(cam.getWorldQuaternion(new THREE.Quaternion()));
    const to = this.beacon.getWorldPosition(new THREE.Vector3()).sub(eye).normalize();
    return look.dot(to);
  }

  isNear() {
    return this.viewCosine() >= NEAR_COS;
  }

  playBeep(time) {
    this.lastBeepAt = time;
    if (this.sound.isPlaying) this.sound.stop();
    this.sound.play();
  }

  onFound() {
    this.phase = 'found';
    this.beacon.userData.xrblocksDevtools.state.found = true;

    const ctx = xb.core.sound.getAudioListener().context;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 1320;
    gain.gain.value = 0.4;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.5);

    const marker = new THREE.Mesh(
        new THREE.SphereGeometry(0.06, 24, 16),
        new THREE.MeshStandardMaterial({color: 0x00e676, emissive: 0x004d20}));
    marker.position.copy(this.beacon.position).add(new THREE.Vector3(0, 0.06, 0));
    marker.userData.xrblocksDevtools = {tag: 'beacon-marker', state: {}};
    this.add(marker);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.add(new BeaconHunt());
  xb.init(options);
});
