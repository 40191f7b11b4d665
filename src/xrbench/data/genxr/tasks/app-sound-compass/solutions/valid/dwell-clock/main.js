import * as THREE from 'three';
import * as xb from 'xrblocks';

const BEEP_HZ = 880;
const BEEP_S = 0.1;
const CHIME_HZ = 1320;
const CHIME_S = 0.5;
const FOUND_DEG = 10;
const DWELL_MS = 1000;

/** A 0.1 s sine tone of 880 Hz, generated in code. */
function beepBuffer(context) {
  const rate = context.sampleRate;
  const n = Math.round(rate * BEEP_S);
  const buffer = context.createBuffer(1, n, rate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < n; i++) {
    data[i] = 0.4 * Math.sin(2 * Math.PI * BEEP_HZ * i / rate);
  }
  return buffer;
}

/** The beep interval (ms) for a view angle (degrees) off the beacon. */
function intervalMs(deg) {
  return 200 + 800 * Math.min(deg, 90) / 90;
}

/** The area of a detected plane's surface, from its geometry's extents. */
function areaOf(plane) {
  const geometry = plane.geometry;
  if (!geometry) return 0;
  geometry.computeBoundingBox();
  const size = geometry.boundingBox.getSize(new THREE.Vector3());
  const sides = [size.x, size.y, size.z].sort((a, b) => b - a);
  return sides[0] * sides[1];
}

/**
 * A hidden beacon at the centre of the largest table, beeping from its place faster the closer
 * the user looks at it; a second of looking within 10 degrees finds it.
 */
class SoundCompass extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.state = {found: false};
    this.beacon = new THREE.Object3D();
    this.beacon.userData.xrblocksDevtools = {tag: 'beacon', state: this.state};
    this.add(this.beacon);

    const listener = xb.core.sound.getAudioListener();
    this.audio = new THREE.PositionalAudio(listener);
    this.audio.setBuffer(beepBuffer(listener.context));
    this.audio.setLoop(false);
    this.audio.setRefDistance(0.5);
    this.beacon.add(this.audio);

    this.marker = new THREE.Mesh(
      new THREE.ConeGeometry(0.05, 0.15, 24),
      new THREE.MeshStandardMaterial({color: 0xffc107}));
    this.marker.position.y = 0.075;  // the cone's base on the table top
    this.marker.visible = false;
    this.marker.userData.xrblocksDevtools = {tag: 'beacon-marker', state: {}};
    this.beacon.add(this.marker);

    this.placed = false;
    this.lastBeep = 0;
    this.dwellSince = null;
  }

  update() {
    const now = performance.now();
    if (!this.placed) {
      const tables = (xb.world?.planes?.get() ?? []).filter((p) => p.label === 'table');
      if (!tables.length) return;
      tables.sort((a, b) => areaOf(b) - areaOf(a));
      const centre = tables[0].getWorldPosition(new THREE.Vector3());
      this.beacon.position.copy(this.worldToLocal(centre));
      this.beacon.updateMatrixWorld(true);
      this.placed = true;
      this.beep(now);
    }
    if (this.state.found) return;

    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    const eye = camera.getWorldPosition(new THREE.Vector3());
    const forward = camera.getWorldDirection(new THREE.Vector3());
    const toBeacon = this.beacon.getWorldPosition(new THREE.Vector3()).sub(eye).normalize();
    const deg = THREE.MathUtils.radToDeg(forward.angleTo(toBeacon));

    if (deg <= FOUND_DEG) {
      if (this.dwellSince === null) this.dwellSince = now;
      if (now - this.dwellSince >= DWELL_MS) {
        this.found();
        return;
      }
    } else {
      this.dwellSince = null;
    }
    if (now - this.lastBeep >= intervalMs(deg)) this.beep(now);
  }

  beep(now) {
    this.lastBeep = now;
    this.audio.stop();
    this.audio.play();
  }

  found() {
    this.state.found = true;
    this.marker.visible = true;
    xb.core.sound.soundSynthesizer.playTone(CHIME_HZ, CHIME_S, 0.5, 'sine');
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new SoundCompass());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
