import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Find the hidden beacon: an invisible beacon hides at the centre of the
 * room's table and beeps from there, faster the closer the user looks
 * towards it. Looking straight at it (within 10°) for one second finds it:
 * a chime plays and a marker appears on the table.
 */

const BEEP_FREQUENCY = 880; // Hz
const BEEP_DURATION = 0.1; // s
const MIN_INTERVAL = 0.2; // s, looking straight at the beacon
const MAX_EXTRA_INTERVAL = 0.8; // s, added at 90° and beyond
const FIND_ANGLE_DEG = 10; // θ at most this...
const FIND_HOLD_S = 1.0; // ...for this long finds the beacon
const CHIME_FREQUENCY = 1320; // Hz
const CHIME_DURATION = 0.5; // s
const EPSILON_S = 1e-6;

const MARKER_RADIUS = 0.05;
const MARKER_HEIGHT = 0.15;

/** Surface area of a plane mesh in world units, from its triangles. */
function planeArea(plane) {
  let area = 0;
  const geometry = plane.geometry;
  const positions = geometry?.attributes?.position;
  if (positions) {
    plane.updateWorldMatrix(true, false);
    const a = new THREE.Vector3();
    const b = new THREE.Vector3();
    const c = new THREE.Vector3();
    const ab = new THREE.Vector3();
    const ac = new THREE.Vector3();
    const index = geometry.index;
    const count = index ? index.count : positions.count;
    for (let i = 0; i + 2 < count; i += 3) {
      const ia = index ? index.getX(i) : i;
      const ib = index ? index.getX(i + 1) : i + 1;
      const ic = index ? index.getX(i + 2) : i + 2;
      a.fromBufferAttribute(positions, ia).applyMatrix4(plane.matrixWorld);
      b.fromBufferAttribute(positions, ib).applyMatrix4(plane.matrixWorld);
      c.fromBufferAttribute(positions, ic).applyMatrix4(plane.matrixWorld);
      ab.subVectors(b, a);
      ac.subVectors(c, a);
      area += ab.cross(ac).length() / 2;
    }
  }
  if (!(area > 0)) {
    // Fall back to the polygon (shoelace) or the reported area.
    const polygon = plane.simulatorPlane?.polygon ?? plane.xrPlane?.polygon;
    if (polygon && polygon.length >= 3) {
      let sum = 0;
      for (let i = 0; i < polygon.length; i++) {
        const p = polygon[i];
        const q = polygon[(i + 1) % polygon.length];
        const px = p.x, py = p.z ?? p.y;
        const qx = q.x, qy = q.z ?? q.y;
        sum += px * qy - qx * py;
      }
      area = Math.abs(sum) / 2;
    }
    if (!(area > 0)) area = plane.simulatorPlane?.area ?? 0;
  }
  return area;
}

class BeaconGame extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.beacon = null; // created when a table is found
    this.marker = null;
    this.sound = null;
    this.placed = false;
    this.found = false;
    this.lastBeepTime = 0; // seconds, app clock
    this.lookStartTime = null; // seconds, app clock; null = no count running

    this._cameraPosition = new THREE.Vector3();
    this._cameraForward = new THREE.Vector3();
    this._beaconPosition = new THREE.Vector3();
    this._toBeacon = new THREE.Vector3();
  }

  /** The app's clock in seconds. */
  _now(time) {
    if (typeof time === 'number' && Number.isFinite(time)) return time / 1000;
    return performance.now() / 1000;
  }

  update(time) {
    const now = this._now(time);
    if (!this.placed) {
      const table = this._findTable();
      if (!table) return;
      this._placeBeacon(table);
      this.placed = true;
      // The first beep sounds in the frame the beacon is placed.
      this._beep(now);
    }
    if (this.found) return;

    const theta = this._angleToBeaconDeg();

    // Finding: θ ≤ 10° for 1.0 s without a break.
    if (theta <= FIND_ANGLE_DEG) {
      if (this.lookStartTime === null) {
        this.lookStartTime = now;
      } else if (now - this.lookStartTime >= FIND_HOLD_S - EPSILON_S) {
        this._onFound();
        return; // no beep in the frame the beacon is found
      }
    } else {
      this.lookStartTime = null;
    }

    // Beeping: the interval depends on this frame's angle.
    const interval =
      MIN_INTERVAL + (MAX_EXTRA_INTERVAL * Math.min(theta, 90)) / 90;
    if (now - this.lastBeepTime >= interval - EPSILON_S) {
      this._beep(now);
    }
  }

  /** The largest known table plane, or null. */
  _findTable() {
    const planes = xb.world?.planes;
    if (!planes || typeof planes.get !== 'function') return null;
    const tables = planes.get('table');
    if (!tables || tables.length === 0) return null;
    let best = null;
    let bestArea = -Infinity;
    for (const table of tables) {
      const area = planeArea(table);
      if (area > bestArea) {
        bestArea = area;
        best = table;
      }
    }
    return best;
  }

  _placeBeacon(table) {
    table.updateWorldMatrix(true, false);
    const center = table.getWorldPosition(new THREE.Vector3());
    this.updateWorldMatrix(true, false);

    // The invisible beacon with its positional audio.
    const beacon = new THREE.Object3D();
    beacon.name = 'Beacon';
    beacon.position.copy(this.worldToLocal(center.clone()));
    beacon.userData.xrblocksDevtools = {tag: 'beacon', state: {found: false}};

    const listener = this._getListener();
    const sound = new THREE.PositionalAudio(listener);
    sound.name = 'BeaconBeep';
    sound.setBuffer(this._makeBeepBuffer(listener.context));
    sound.setLoop(false);
    sound.setRefDistance(1);
    sound.setVolume(1);
    beacon.add(sound);
    this.add(beacon);
    beacon.updateMatrixWorld(true);

    // The marker, shown once the beacon is found, standing on the table.
    const marker = new THREE.Mesh(
      new THREE.ConeGeometry(MARKER_RADIUS, MARKER_HEIGHT, 24),
      new THREE.MeshStandardMaterial({
        color: 0xffb300,
        emissive: 0x663300,
        roughness: 0.4,
      })
    );
    marker.name = 'BeaconMarker';
    marker.position.copy(
      this.worldToLocal(center.clone().add(new THREE.Vector3(0, MARKER_HEIGHT / 2, 0)))
    );
    marker.visible = false;
    marker.userData.xrblocksDevtools = {tag: 'beacon-marker', state: {}};
    this.add(marker);

    this.beacon = beacon;
    this.sound = sound;
    this.marker = marker;
  }

  _getListener() {
    let listener = xb.core?.sound?.getAudioListener?.();
    if (!listener) {
      listener = new THREE.AudioListener();
      xb.core.camera.add(listener);
    }
    return listener;
  }

  /** A 0.1 s, 880 Hz sine tone generated in code. */
  _makeBeepBuffer(context) {
    const sampleRate = context.sampleRate;
    const length = Math.round(sampleRate * BEEP_DURATION);
    const buffer = context.createBuffer(1, length, sampleRate);
    const data = buffer.getChannelData(0);
    const fade = Math.round(sampleRate * 0.003); // 3 ms fade to avoid clicks
    for (let i = 0; i < length; i++) {
      let envelope = 1;
      if (i < fade) envelope = i / fade;
      else if (i > length - 1 - fade) envelope = (length - 1 - i) / fade;
      data[i] =
        0.8 * envelope * Math.sin((2 * Math.PI * BEEP_FREQUENCY * i) / sampleRate);
    }
    return buffer;
  }

  _beep(now) {
    this.lastBeepTime = now;
    if (!this.sound) return;
    this.sound.stop();
    this.sound.play();
  }

  /** Angle θ in degrees between the view direction and the beacon. */
  _angleToBeaconDeg() {
    const camera = xb.core.camera;
    camera.updateWorldMatrix(true, false);
    camera.getWorldPosition(this._cameraPosition);
    // Camera forward: -z of its world orientation.
    this._cameraForward.set(0, 0, -1).transformDirection(camera.matrixWorld);
    this.beacon.updateWorldMatrix(true, false);
    this.beacon.getWorldPosition(this._beaconPosition);
    this._toBeacon.subVectors(this._beaconPosition, this._cameraPosition);
    if (this._toBeacon.lengthSq() < 1e-12) return 0;
    return THREE.MathUtils.radToDeg(this._cameraForward.angleTo(this._toBeacon));
  }

  _onFound() {
    this.found = true;
    this.beacon.userData.xrblocksDevtools.state.found = true;
    this.marker.visible = true;
    xb.core.sound?.soundSynthesizer?.playTone(
      CHIME_FREQUENCY,
      CHIME_DURATION,
      0.5,
      'sine'
    );
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.add(new BeaconGame());
  xb.init(options);
});
