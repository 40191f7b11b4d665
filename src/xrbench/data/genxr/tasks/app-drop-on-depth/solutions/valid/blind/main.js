import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Drop a ball onto the real table.
 *
 * A small ball floats in front of the user. Pinch it (index fingertip touching it) with either
 * hand to pick it up; it then follows that hand. Let go and it falls straight down at 1 m/s until
 * its bottom meets the real surface below its centre, found in XR Blocks' depth image, where it
 * stays and plays a short thud.
 */

const BALL_RADIUS = 0.04;
const BALL_START = new THREE.Vector3(0, 1.2, -0.45);
const FALL_SPEED = 1.0; // metres per second, constant.
const TOUCH_MARGIN = 0.015; // fingertip within radius + margin of the centre counts as touching.
const HAND_CLEARANCE = 0.035; // depth points this close to a hand bone belong to the hand.
const HAND_HISTORY_FRAMES = 8; // the depth image can lag the hands by a few frames.
const SEARCH_RADII = [0.04, 0.08]; // horizontal radii around the drop line, tried in turn.
const MEMORY_FRAMES = 120; // surface readings kept, for when a hand hides the spot later
const MEMORY_MATCH = 0.01; // a remembered reading counts when it was this close to the line
const MAX_SEARCH_DROP = 4.0; // how far below the ball the depth search looks (m).

const HAND_BONES = [
  ['wrist', 'thumb-metacarpal'],
  ['thumb-metacarpal', 'thumb-phalanx-proximal'],
  ['thumb-phalanx-proximal', 'thumb-phalanx-distal'],
  ['thumb-phalanx-distal', 'thumb-tip'],
];
for (const finger of ['index', 'middle', 'ring', 'pinky']) {
  const chain = [
    'wrist',
    `${finger}-finger-metacarpal`,
    `${finger}-finger-phalanx-proximal`,
    `${finger}-finger-phalanx-intermediate`,
    `${finger}-finger-phalanx-distal`,
    `${finger}-finger-tip`,
  ];
  for (let k = 0; k + 1 < chain.length; k++) HAND_BONES.push([chain[k], chain[k + 1]]);
}
// Across the palm, so that the palm's surface counts as hand too.
HAND_BONES.push(['index-finger-metacarpal', 'pinky-finger-metacarpal']);
HAND_BONES.push(['index-finger-phalanx-proximal', 'pinky-finger-phalanx-proximal']);
HAND_BONES.push(['thumb-metacarpal', 'index-finger-phalanx-proximal']);

const tmpA = new THREE.Vector3();
const tmpB = new THREE.Vector3();
const tmpP = new THREE.Vector3();
const tmpView = new THREE.Vector3();
const invView = new THREE.Matrix4();
const invProjection = new THREE.Matrix4();

/** Squared distance from point p to segment ab (plain numbers, no allocation). */
function segmentDistanceSq(px, py, pz, a, b) {
  const abx = b[0] - a[0];
  const aby = b[1] - a[1];
  const abz = b[2] - a[2];
  const apx = px - a[0];
  const apy = py - a[1];
  const apz = pz - a[2];
  const len2 = abx * abx + aby * aby + abz * abz;
  let t = len2 > 1e-12 ? (apx * abx + apy * aby + apz * abz) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  const dx = apx - t * abx;
  const dy = apy - t * aby;
  const dz = apz - t * abz;
  return dx * dx + dy * dy + dz * dz;
}

/** Fills an AudioBuffer with a short, low, decaying thud. */
function makeThudBuffer(context) {
  const sampleRate = context.sampleRate;
  const duration = 0.25;
  const length = Math.floor(sampleRate * duration);
  const buffer = context.createBuffer(1, length, sampleRate);
  const data = buffer.getChannelData(0);
  let phase = 0;
  let noise = 0;
  for (let n = 0; n < length; n++) {
    const t = n / sampleRate;
    const frequency = 55 + 65 * Math.exp(-t / 0.03); // a quick downward pitch bend
    phase += (2 * Math.PI * frequency) / sampleRate;
    noise = 0.85 * noise + 0.15 * (Math.random() * 2 - 1); // soft, low-passed knock
    const attack = Math.min(1, t / 0.003);
    const body = Math.sin(phase) * Math.exp(-t / 0.06);
    const knock = noise * Math.exp(-t / 0.012);
    const fadeOut = Math.min(1, (duration - t) / 0.01); // no click at the end
    data[n] = 0.9 * attack * fadeOut * (0.8 * body + 0.5 * knock);
  }
  return buffer;
}

class DropBallScene extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const geometry = new THREE.SphereGeometry(BALL_RADIUS, 32, 16);
    const material = new THREE.MeshStandardMaterial({color: 0xff7a33, roughness: 0.45});
    this.ball = new THREE.Mesh(geometry, material);
    this.ball.name = 'drop-ball';
    this.ball.position.copy(BALL_START);
    this.ballState = {mode: 'floating', hand: 'none', landings: 0};
    this.ball.userData.xrblocksDevtools = {tag: 'drop-ball', state: this.ballState};
    this.add(this.ball);

    this.mode = 'floating'; // floating | held | falling | resting
    this.heldBy = -1; // index of the grabbing hand (0 left, 1 right in XR Blocks)
    this.grabOffset = new THREE.Vector3();
    this.wasSelecting = [false, false];
    this.lastTime = performance.now();
    this.lastDt = 0;
    this.handHistory = []; // recent frames of hand bone positions, newest last
    this.depthMarks = null;
    this.surfaceMemory = []; // recent depth readings of the surface below the ball

    this.setUpThud();
  }

  setUpThud() {
    if (this.thud) return;
    const listener = xb.core?.sound?.getAudioListener?.();
    if (!listener) return;
    this.thud = new THREE.PositionalAudio(listener);
    this.thud.name = 'drop-ball-thud';
    this.thud.setBuffer(makeThudBuffer(listener.context));
    this.thud.setLoop(false);
    this.thud.setRefDistance(0.5);
    this.thud.setVolume(1.0);
    this.ball.add(this.thud);
  }

  playThud() {
    this.setUpThud();
    if (!this.thud) return;
    if (this.thud.isPlaying) this.thud.stop();
    this.thud.play();
  }

  // ---------------------------------------------------------------- hands

  handIndexOf(controller) {
    if (!controller) return -1;
    const controllers = xb.core.input.controllers;
    const index = controllers.indexOf(controller);
    if (index === 0 || index === 1) return index;
    const id = controller.userData?.id;
    return id === 0 || id === 1 ? id : -1;
  }

  isSelecting(index) {
    const controller = xb.core.input?.controllers?.[index];
    return controller?.userData?.selected === true;
  }

  jointWorld(index, name, target) {
    const hand = xb.core.input?.hands?.[index];
    const joint = hand?.joints?.[name];
    if (!joint) return null;
    joint.updateWorldMatrix(true, false);
    return target.setFromMatrixPosition(joint.matrixWorld);
  }

  /**
   * The hand's anchor for carrying: its controller (the hand's grip, where its ray starts),
   * else its wrist. The ball keeps its offset to this point.
   */
  handAnchor(index, target) {
    const controller = xb.core.input?.controllers?.[index];
    if (controller && controller.userData?.connected !== false) {
      controller.updateWorldMatrix(true, false);
      return target.setFromMatrixPosition(controller.matrixWorld);
    }
    return this.jointWorld(index, 'wrist', target);
  }

  recordHands() {
    const frame = [];
    const hands = xb.core.input?.hands ?? [];
    for (let index = 0; index < Math.min(2, hands.length); index++) {
      const hand = hands[index];
      if (!hand || hand.visible === false || !hand.joints) continue;
      const joints = {};
      let count = 0;
      let cx = 0;
      let cy = 0;
      let cz = 0;
      for (const name in hand.joints) {
        const joint = hand.joints[name];
        if (!joint || joint.visible === false) continue;
        joint.updateWorldMatrix(true, false);
        tmpP.setFromMatrixPosition(joint.matrixWorld);
        joints[name] = [tmpP.x, tmpP.y, tmpP.z];
        cx += tmpP.x;
        cy += tmpP.y;
        cz += tmpP.z;
        count++;
      }
      if (!count) continue;
      const centre = [cx / count, cy / count, cz / count];
      let radius = 0;
      for (const name in joints) {
        const j = joints[name];
        radius = Math.max(radius, Math.hypot(j[0] - centre[0], j[1] - centre[1], j[2] - centre[2]));
      }
      const bones = [];
      for (const [a, b] of HAND_BONES) {
        if (joints[a] && joints[b]) bones.push([joints[a], joints[b]]);
      }
      frame.push({centre, radius: radius + HAND_CLEARANCE, bones});
    }
    this.handHistory.push(frame);
    while (this.handHistory.length > HAND_HISTORY_FRAMES) this.handHistory.shift();
  }

  /** Whether a world point belongs to one of the user's hands (as seen in recent frames). */
  nearHand(x, y, z) {
    const clearanceSq = HAND_CLEARANCE * HAND_CLEARANCE;
    for (const frame of this.handHistory) {
      for (const hand of frame) {
        const c = hand.centre;
        const dx = x - c[0];
        const dy = y - c[1];
        const dz = z - c[2];
        if (dx * dx + dy * dy + dz * dz > hand.radius * hand.radius) continue;
        for (const [a, b] of hand.bones) {
          if (segmentDistanceSq(x, y, z, a, b) < clearanceSq) return true;
        }
      }
    }
    return false;
  }

  // ------------------------------------------------------------- grabbing

  tryGrab(index) {
    const tip = this.jointWorld(index, 'index-finger-tip', tmpA);
    if (!tip) return false;
    this.ball.updateWorldMatrix(true, false);
    const centre = tmpB.setFromMatrixPosition(this.ball.matrixWorld);
    if (tip.distanceTo(centre) > BALL_RADIUS + TOUCH_MARGIN) return false;
    const anchor = this.handAnchor(index, tmpP);
    if (!anchor) return false;
    this.grabOffset.copy(this.ball.position).sub(anchor);
    this.heldBy = index;
    this.surfaceMemory.length = 0; // the room may have changed since the last drop
    this.setMode('held');
    this.ballState.hand = index === 0 ? 'left' : 'right';
    return true;
  }

  followHand() {
    const anchor = this.handAnchor(this.heldBy, tmpP);
    if (!anchor) return; // hand lost: keep the ball where it is until it comes back
    this.ball.position.copy(anchor).add(this.grabOffset);
  }

  release(index, dt) {
    if (this.mode !== 'held' || this.heldBy !== index) return;
    this.followHand();
    this.heldBy = -1;
    this.ballState.hand = 'none';
    this.setMode('falling');
    this.fallStep(dt); // the fall starts in the very frame of the release
  }

  setMode(mode) {
    this.mode = mode;
    this.ballState.mode = mode;
  }

  // -------------------------------------------------------------- falling

  fallStep(dt) {
    const position = this.ball.position;
    const surfaceY = this.surfaceBelowBall();
    let y = position.y - FALL_SPEED * Math.max(0, dt);
    if (surfaceY !== null && y - BALL_RADIUS <= surfaceY) {
      y = surfaceY + BALL_RADIUS;
      position.y = y;
      this.land();
      return;
    }
    position.y = y;
  }

  /**
   * Reads the surface below the ball now and remembers the reading: the real room does not move,
   * but the user's hand can hide the spot below the ball in some frames (a hand opening after
   * the release, say), so readings of earlier frames along the same drop line count too.
   */
  observeSurface() {
    const p = this.ball.position;
    const bottom = p.y - BALL_RADIUS;
    const y = this.findSurfaceBelow(p.x, bottom, p.z);
    if (y !== null) {
      this.surfaceMemory.push({x: p.x, z: p.z, y});
      while (this.surfaceMemory.length > MEMORY_FRAMES) this.surfaceMemory.shift();
    }
    return y;
  }

  /** The highest surface known under the ball's drop line that is not above its bottom. */
  surfaceBelowBall() {
    const p = this.ball.position;
    const bottom = p.y - BALL_RADIUS;
    this.observeSurface();
    let best = null;
    for (const reading of this.surfaceMemory) {
      if (Math.hypot(reading.x - p.x, reading.z - p.z) > MEMORY_MATCH) continue;
      if (reading.y > bottom + 0.005) continue;
      if (best === null || reading.y > best) best = reading.y;
    }
    return best;
  }

  land() {
    this.setMode('resting');
    this.ballState.landings += 1;
    this.ball.updateMatrixWorld(true);
    this.playThud();
  }

  /**
   * Height of the real surface straight below (x, z), under `bottomY`, from the depth image:
   * depth pixels around the drop line are turned back into world points (the user's hands left
   * out), and the highest well-supported height close to the line is the surface. Returns null
   * when the depth data does not show it (yet).
   */
  findSurfaceBelow(x, bottomY, z) {
    const depth = xb.core?.depth;
    if (!depth || !depth.depthArray?.[0]) return null;
    const viewMatrix = depth.depthViewMatrices?.[0];
    const projection = depth.depthProjectionMatrices?.[0];
    if (!viewMatrix || !projection) return null;
    const width = depth.width;
    const height = depth.height;
    if (!(width > 0 && height > 0)) return null;
    invView.copy(viewMatrix).invert();
    invProjection.copy(projection).invert();

    if (!this.depthMarks || this.depthMarks.length !== width * height) {
      this.depthMarks = new Uint8Array(width * height);
    }
    const marks = this.depthMarks;
    marks.fill(0);
    const maxRadius = SEARCH_RADII[SEARCH_RADII.length - 1];
    const pixels = [];
    const p00 = Math.abs(projection.elements[0]) || 1;
    const p11 = Math.abs(projection.elements[5]) || 1;

    // The drop line, projected into the depth image, widened to cover maxRadius around it.
    let lastI = -1e9;
    let lastJ = -1e9;
    for (let drop = 0; drop <= MAX_SEARCH_DROP; drop += 0.01) {
      tmpView.set(x, bottomY + 0.01 - drop, z).applyMatrix4(viewMatrix);
      const distance = -tmpView.z;
      if (distance < 0.05) continue;
      tmpView.applyMatrix4(projection);
      if (Math.abs(tmpView.x) > 1.3 || Math.abs(tmpView.y) > 1.3) continue;
      const ci = Math.floor(((tmpView.x + 1) / 2) * width);
      const cj = Math.floor(((1 - tmpView.y) / 2) * height);
      const ki = Math.min(40, Math.ceil((maxRadius * p00 * width) / (2 * distance)) + 1);
      const kj = Math.min(40, Math.ceil((maxRadius * p11 * height) / (2 * distance)) + 1);
      // Squares around nearby centres overlap: mark only when the centre has moved on.
      if (Math.abs(ci - lastI) <= ki / 2 && Math.abs(cj - lastJ) <= kj / 2) continue;
      lastI = ci;
      lastJ = cj;
      for (let j = Math.max(0, cj - kj); j <= Math.min(height - 1, cj + kj); j++) {
        for (let i = Math.max(0, ci - ki); i <= Math.min(width - 1, ci + ki); i++) {
          const k = j * width + i;
          if (marks[k]) continue;
          marks[k] = 1;
          pixels.push(k);
        }
      }
    }

    const points = []; // [y, horizontal distance]
    for (const k of pixels) {
      const i = k % width;
      const j = (k - i) / width;
      // getDepth rounds u * width and (1 - v) * height to the pixel it reads.
      const d = depth.getDepth(i / width, 1 - j / height);
      if (!(d > 0) || !Number.isFinite(d)) continue;
      // The pixel's centre, back into the depth camera's view space, then the world.
      tmpView
        .set((2 * (i + 0.5)) / width - 1, 1 - (2 * (j + 0.5)) / height, -1)
        .applyMatrix4(invProjection);
      if (!(tmpView.z < 0)) continue;
      tmpView.multiplyScalar(-d / tmpView.z).applyMatrix4(invView);
      const wx = tmpView.x;
      const wy = tmpView.y;
      const wz = tmpView.z;
      if (wy > bottomY + 0.005) continue; // only what is below the ball
      const h = Math.hypot(wx - x, wz - z);
      if (h > maxRadius) continue;
      if (this.nearHand(wx, wy, wz)) continue;
      points.push([wy, h]);
    }
    if (!points.length) return null;

    // The highest surface near the line wins: the floor under a table can be in view as well
    // (below the table's edge), but the ball meets the table top first.
    for (const radius of SEARCH_RADII) {
      const heights = [];
      for (const [wy, h] of points) if (h <= radius) heights.push(wy);
      if (!heights.length) continue;
      heights.sort((a, b) => b - a);
      // The highest height with a neighbour (a lone stray pixel is not a surface).
      const need = Math.min(2, heights.length);
      for (let a = 0; a < heights.length; a++) {
        let support = 0;
        for (let b = a; b < heights.length && heights[a] - heights[b] <= 0.015; b++) support++;
        if (support >= need) return heights[a];
      }
      return heights[0];
    }
    return null;
  }

  // --------------------------------------------------------------- frames

  update() {
    const now = performance.now();
    const dt = Math.max(0, (now - this.lastTime) / 1000);
    this.lastTime = now;
    this.lastDt = dt;

    this.recordHands();

    let releasedNow = false;
    for (let index = 0; index < 2; index++) {
      const selecting = this.isSelecting(index);
      if (selecting && !this.wasSelecting[index]) {
        this.tryGrab(index);
      } else if (!selecting && this.wasSelecting[index]) {
        if (this.mode === 'held' && this.heldBy === index) {
          this.release(index, dt); // advances this frame's fall already
          releasedNow = true;
        }
        this.wasSelecting[index] = false;
        continue;
      }
      this.wasSelecting[index] = selecting;
    }

    if (this.mode === 'held') {
      this.followHand();
      this.observeSurface(); // the spot below may be hidden by the hand once it opens
    } else if (this.mode === 'falling' && !releasedNow) {
      this.fallStep(dt);
    }
  }

  // Select events are the fallback for a pinch the polling above did not see.
  onSelectStart(event) {
    const index = this.handIndexOf(event?.source?.controller ?? event?.target);
    if (index < 0 || this.wasSelecting[index]) return;
    this.wasSelecting[index] = true;
    if (this.tryGrab(index)) this.followHand();
  }

  onSelectEnd(event) {
    const index = this.handIndexOf(event?.source?.controller ?? event?.target);
    if (index < 0) return;
    const wasHeld = this.mode === 'held' && this.heldBy === index;
    this.wasSelecting[index] = false;
    if (wasHeld) this.release(index, this.lastDt);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  xb.add(new DropBallScene());
  xb.init(options);
});
