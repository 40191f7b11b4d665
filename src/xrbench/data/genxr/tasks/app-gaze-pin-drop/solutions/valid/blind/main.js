import * as THREE from 'three';
import * as xb from 'xrblocks';

const MAX_PINS = 5;
const MAX_REACH = 4.0; // metres from the eyes
const TICK_SECONDS = 0.08;

const UP = new THREE.Vector3(0, 1, 0);

/**
 * Gaze pins: look at a real surface (seen through the depth data) and pinch
 * with either hand to drop a pin there, with a short tick from the pin.
 */
class GazePinDropper extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.pins = [];
    this.frameIndex = 0;
    this.lastDropAttemptFrame = -1;
    this.tickBuffer = null;

    // Shared pin geometry and materials.
    this.needleGeometry = new THREE.CylinderGeometry(0.002, 0.002, 0.08, 8);
    this.needleGeometry.translate(0, 0.04, 0); // from the tip (y=0) up
    this.headGeometry = new THREE.SphereGeometry(0.012, 16, 12);
    this.needleMaterial = new THREE.MeshPhongMaterial({color: 0xcccccc});
    this.headMaterial = new THREE.MeshPhongMaterial({color: 0xe53935});

    this._camPos = new THREE.Vector3();
    this._camDir = new THREE.Vector3();
    this._invView = new THREE.Matrix4();
    this._invProj = new THREE.Matrix4();
  }

  update() {
    this.frameIndex++;
  }

  onSelectStart() {
    // Both hands pinching in the same frame drop a single pin.
    if (this.lastDropAttemptFrame === this.frameIndex) return;
    this.lastDropAttemptFrame = this.frameIndex;
    this.tryDropPin();
  }

  /** Reads the depth (metres) at view coords, or 0 if unknown. */
  readDepth(depth, u, v) {
    const d = depth.getDepth(u, v);
    return Number.isFinite(d) && d > 0 ? d : 0;
  }

  /** Depth at the centre of the view. */
  centreDepth(depth) {
    return this.readDepth(depth, 0.5, 0.5);
  }

  /**
   * Point in the depth camera's view space seen by depth pixel (ix, iy)
   * (iy counted from the top row), or null where the depth is unknown.
   */
  depthPixelVertex(depth, ix, iy) {
    const width = depth.width || 160;
    const height = depth.height || 160;
    // getDepth(u, v) reads pixel round(u * width), round((1 - v) * height).
    const d = this.readDepth(depth, ix / width, 1 - iy / height);
    if (d <= 0) return null;
    // The pixel's centre in view coordinates.
    const u = (ix + 0.5) / width;
    const v = 1 - (iy + 0.5) / height;
    const p = new THREE.Vector3(2 * u - 1, 2 * v - 1, -1).applyMatrix4(
      this._invProj
    );
    if (!Number.isFinite(p.z) || Math.abs(p.z) < 1e-9) return null;
    p.multiplyScalar(-d / p.z);
    return p;
  }

  /**
   * Estimates the surface at the centre of the view from the depth data:
   * a point on it and its normal, in world space, the normal facing the
   * depth camera. Null where it cannot be estimated.
   */
  estimateSurface(depth) {
    const width = depth.width || 160;
    const height = depth.height || 160;
    const projection = depth.depthProjectionMatrices?.[0];
    const view = depth.depthViewMatrices?.[0];
    if (!projection || !view) return null;
    this._invProj.copy(projection).invert();
    this._invView.copy(view).invert();

    const cx = Math.round(0.5 * width);
    const cy = Math.round(0.5 * height);
    const cache = new Map();
    const vert = (ix, iy) => {
      const key = ix + ',' + iy;
      if (!cache.has(key)) {
        const inside = ix >= 0 && iy >= 0 && ix < width && iy < height;
        cache.set(key, inside ? this.depthPixelVertex(depth, ix, iy) : null);
      }
      return cache.get(key);
    };
    const centre = vert(cx, cy);
    if (!centre) return null;

    // On a plane, 1/z is affine in the image: three evenly spaced samples
    // on one plane have a middle inverse depth that is the mean of the ends.
    const onePlane = (a, b, c) => {
      if (!a || !b || !c) return false;
      const ia = -1 / a.z;
      const ib = -1 / b.z;
      const ic = -1 / c.z;
      return Math.abs(ib - 0.5 * (ia + ic)) <= 0.01 * ib;
    };
    // A tangent of the surface along one image axis, from samples on one
    // plane with the centre (centred if possible, else one-sided).
    const tangent = (sx, sy, r) => {
      const P1 = vert(cx + sx * r, cy + sy * r);
      const M1 = vert(cx - sx * r, cy - sy * r);
      if (onePlane(M1, centre, P1)) return P1.clone().sub(M1);
      const P2 = vert(cx + 2 * sx * r, cy + 2 * sy * r);
      if (onePlane(centre, P1, P2)) return P2.clone().sub(centre);
      const M2 = vert(cx - 2 * sx * r, cy - 2 * sy * r);
      if (onePlane(M2, M1, centre)) return centre.clone().sub(M2);
      return null;
    };

    const toEye = centre.clone().negate().normalize();
    const sum = new THREE.Vector3();
    for (const r of [1, 2, 3, 4, 6]) {
      const tu = tangent(1, 0, r); // along +u
      const tv = tangent(0, -1, r); // along +v (rows grow downwards)
      if (!tu || !tv) continue;
      const n = tu.cross(tv);
      if (n.lengthSq() < 1e-14) continue;
      n.normalize();
      if (n.dot(toEye) < 0) n.negate();
      sum.add(n);
    }
    if (sum.lengthSq() < 1e-12) return null;
    sum.normalize();
    return {
      point: centre.clone().applyMatrix4(this._invView),
      // Depth camera space -> world space (a direction: rotation only).
      normal: sum.transformDirection(this._invView),
    };
  }

  tryDropPin() {
    const depth = xb.core.depth;
    if (!depth || !depth.depthArray || !depth.depthArray[0]) return;

    const camera = xb.core.camera;
    camera.updateWorldMatrix(true, false);
    const eye = camera.getWorldPosition(this._camPos);
    const dir = camera.getWorldDirection(this._camDir).normalize();

    const d = this.centreDepth(depth);
    if (!(d > 0) || d > MAX_REACH) return;

    // The gaze ray goes through the centre of the view, so the depth there
    // (measured along the viewing direction) is the distance along the ray.
    let distance = d;
    const surface = this.estimateSurface(depth);
    let normal = surface ? surface.normal : dir.clone().negate();
    // Point out of the surface towards the side the user looks from.
    if (normal.dot(dir) > 0) normal.negate();
    if (surface) {
      // Refine: where the gaze ray meets the estimated plane at the centre
      // (the centre of the view lies between depth pixels); kept only
      // when it agrees with the depth at the centre.
      const denom = normal.dot(dir);
      if (denom < -0.05) {
        const t = normal.dot(surface.point.clone().sub(eye)) / denom;
        if (Number.isFinite(t) && Math.abs(t - d) <= 0.01 + 0.01 * d) {
          distance = t;
        }
      }
    }
    const tip = eye.clone().addScaledVector(dir, distance);

    const pin = this.createPin();
    pin.position.copy(tip);
    pin.quaternion.setFromUnitVectors(UP, normal);
    this.add(pin);
    pin.updateMatrixWorld(true);
    this.pins.push(pin);

    while (this.pins.length > MAX_PINS) {
      const old = this.pins.shift();
      const audio = old.userData.tickAudio;
      if (audio && audio.isPlaying) {
        try {
          audio.stop();
        } catch (e) {
          // ignore
        }
      }
      old.removeFromParent();
      old.visible = false;
      delete old.userData.xrblocksDevtools;
    }

    this.playTick(pin);
  }

  createPin() {
    const pin = new THREE.Group();
    pin.name = 'GazePin';
    const needle = new THREE.Mesh(this.needleGeometry, this.needleMaterial);
    const head = new THREE.Mesh(this.headGeometry, this.headMaterial);
    head.position.y = 0.09;
    // Pins are markers only: keep them out of the hands' ray targets.
    needle.raycast = () => {};
    head.raycast = () => {};
    pin.add(needle, head);
    pin.userData.xrblocksDevtools = {tag: 'gaze-pin', state: {}};
    return pin;
  }

  getTickBuffer(context) {
    if (this.tickBuffer) return this.tickBuffer;
    const sampleRate = context.sampleRate || 44100;
    const length = Math.max(1, Math.floor(sampleRate * TICK_SECONDS));
    const buffer = context.createBuffer(1, length, sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < length; i++) {
      const t = i / sampleRate;
      data[i] =
        0.6 * Math.sin(2 * Math.PI * 1800 * t) * Math.exp(-t * 60);
    }
    this.tickBuffer = buffer;
    return buffer;
  }

  playTick(pin) {
    const listener = xb.core.sound?.getAudioListener?.();
    if (!listener) return;
    const audio = new THREE.PositionalAudio(listener);
    audio.name = 'GazePinTick';
    audio.setBuffer(this.getTickBuffer(listener.context));
    audio.setLoop(false);
    audio.setRefDistance(1);
    pin.add(audio);
    pin.userData.tickAudio = audio;
    audio.play();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  xb.add(new GazePinDropper());
  xb.init(options);
});
