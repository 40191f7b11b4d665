import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Stack blocks on the table.
 *
 * Three blocks (A, B, C; 8 cm cubes, axis-aligned) are set in a row on the
 * table nearest to the user once plane detection reports a table. The user
 * picks a block up with either hand by touching it with the index fingertip
 * and pinching; the block follows the hand keeping its offset. On release it
 * falls straight down onto the highest thing below it: a block whose
 * footprint overlaps its own, or the table.
 */

const SIZE = 0.08; // Edge of a block (m).
const HALF = SIZE / 2;
const SPACING = 0.15; // A and C sit this far left / right of B (m).
const GRAVITY = 9.81; // m/s^2
const TOUCH_MARGIN = 0.005; // Fingertip tolerance around a block (m).
const PINCH_CLOSE = 0.015; // Thumb-index distance that counts as a pinch (m).
const PINCH_OPEN = 0.035; // Distance at which a finger pinch opens again (m).
const TABLE_SETTLE_FRAMES = 3; // Frames a table is known before blocks are set.
const COLORS = {A: 0xe53935, B: 0x43a047, C: 0x1e88e5};

const _v = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _up = new THREE.Vector3();

function isHorizontal(plane) {
  const o = plane.orientation;
  if (typeof o === 'string' && o.length) return o.toLowerCase() === 'horizontal';
  // No orientation reported: look at the plane's normal (local +y).
  plane.getWorldQuaternion(_q);
  _up.set(0, 1, 0).applyQuaternion(_q);
  return Math.abs(_up.y) > 0.9;
}

function worldPosition(object, target) {
  object.updateWorldMatrix(true, false);
  return object.getWorldPosition(target);
}

class StackBlocks extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const sun = new THREE.DirectionalLight(0xffffff, 1.0);
    sun.position.set(0.5, 2, 1);
    this.add(sun);

    this.blocks = [];
    const geometry = new THREE.BoxGeometry(SIZE, SIZE, SIZE);
    for (const id of ['A', 'B', 'C']) {
      const block = new THREE.Mesh(
        geometry,
        new THREE.MeshPhongMaterial({color: COLORS[id]})
      );
      block.name = id;
      block.visible = false; // Hidden until it stands on the table.
      block.userData.xrblocksDevtools = {
        tag: 'block',
        state: {id, restingOn: null, held: false},
      };
      block.userData.falling = false;
      block.userData.velocity = 0;
      this.blocks.push(block);
      this.add(block);
    }

    this.placed = false;
    this.tableSeenFrames = 0;
    this.table = null; // {top, inverse, box} of the table the blocks stand on.
    this.floorY = 0;
    // The fingertip where each select (the system's pinch) began, taken when
    // the select starts: before the fingers close, which moves the fingertip.
    const input = xb.core.input;
    if (input && typeof input.bindSelectStart === 'function') {
      input.bindSelectStart((event) => {
        const i = input.controllers.indexOf(event.target);
        const tip = i >= 0 ? this.joint(i, 'index-finger-tip') : null;
        if (tip) this.handState[i].selectTip = worldPosition(tip, new THREE.Vector3());
      });
    }
    // Per hand (input index 0 / 1).
    this.handState = [0, 1].map(() => ({
      selected: false,
      fingerPinch: false,
      ignoreFingers: false,
      pinching: false,
      held: null,
      offset: new THREE.Vector3(),
      tips: [], // Fingertip positions of the last frames, newest last.
      selectTip: null, // Fingertip when the current select began.
    }));
  }

  // --- table --------------------------------------------------------------

  findTables() {
    const planes = xb.world?.planes;
    if (!planes) return [];
    const all = typeof planes.get === 'function' ? planes.get() : [];
    return all.filter((p) => p && p.label === 'table' && isHorizontal(p));
  }

  tryPlace() {
    const tables = this.findTables();
    if (tables.length === 0) {
      this.tableSeenFrames = 0;
      return;
    }
    // Give detection a moment (a few frames) so that tables reported
    // together are all considered.
    if (++this.tableSeenFrames < TABLE_SETTLE_FRAMES) return;

    const head = worldPosition(xb.core.camera, new THREE.Vector3());
    let best = null;
    let bestDistance = Infinity;
    for (const plane of tables) {
      const d = worldPosition(plane, _v).distanceTo(head);
      if (d < bestDistance) {
        bestDistance = d;
        best = plane;
      }
    }
    this.placeOn(best);
  }

  placeOn(plane) {
    const centre = worldPosition(plane, new THREE.Vector3());
    let box = null;
    const geometry = plane.geometry;
    if (geometry) {
      if (!geometry.boundingBox) geometry.computeBoundingBox();
      const b = geometry.boundingBox;
      if (b && !b.isEmpty() && b.max.x - b.min.x > 1e-3 && b.max.z - b.min.z > 1e-3) {
        box = b.clone();
      }
    }
    this.table = {
      top: centre.y,
      inverse: plane.matrixWorld.clone().invert(),
      box,
    };
    // The floor, for blocks let go off the table (a user's mistake).
    const floors = (xb.world?.planes?.get?.() || []).filter(
      (p) => p.label === 'floor' && isHorizontal(p)
    );
    this.floorY = floors.length
      ? Math.min(...floors.map((p) => worldPosition(p, _v).y))
      : 0;

    const offsets = {A: -SPACING, B: 0, C: SPACING};
    for (const block of this.blocks) {
      block.position.set(centre.x + offsets[block.name], centre.y + HALF, centre.z);
      block.userData.falling = false;
      block.userData.velocity = 0;
      this.setState(block, {restingOn: 'table', held: false});
      block.visible = true;
    }
    this.placed = true;
  }

  /** Is the world point (x, z) over the table (generously: any overlap)? */
  overTable(x, z) {
    if (!this.table || !this.table.box) return true;
    _v.set(x, this.table.top, z).applyMatrix4(this.table.inverse);
    const b = this.table.box;
    const m = HALF + 0.02;
    return (
      _v.x >= b.min.x - m && _v.x <= b.max.x + m &&
      _v.z >= b.min.z - m && _v.z <= b.max.z + m
    );
  }

  // --- state --------------------------------------------------------------

  setState(block, changes) {
    Object.assign(block.userData.xrblocksDevtools.state, changes);
  }

  // --- hands --------------------------------------------------------------

  handAnchor(i, target) {
    const controller = xb.core.input?.controllers?.[i];
    if (controller) return worldPosition(controller, target);
    const wrist = xb.core.input?.hands?.[i]?.joints?.wrist;
    if (wrist) return worldPosition(wrist, target);
    return null;
  }

  joint(i, name) {
    const hand = xb.core.input?.hands?.[i];
    const joint = hand?.joints?.[name];
    return joint || null;
  }

  /** Block whose box holds `tip` (deepest first), or null. */
  blockAt(tip, exclude) {
    let best = null;
    let bestDepth = -Infinity;
    for (const block of this.blocks) {
      if (exclude.has(block)) continue;
      const p = block.position;
      const depth = Math.min(
        HALF - Math.abs(tip.x - p.x),
        HALF - Math.abs(tip.y - p.y),
        HALF - Math.abs(tip.z - p.z)
      );
      if (depth >= -TOUCH_MARGIN && depth > bestDepth) {
        bestDepth = depth;
        best = block;
      }
    }
    return best;
  }

  pickUp(i, state) {
    if (state.held) return;
    const exclude = new Set();
    for (const other of this.handState) if (other.held) exclude.add(other.held);
    // Where the pinch began: the fingertip when the select started, else (a
    // pinch seen only from the fingers) the fingertip of the last frame and
    // this one.
    const candidates = state.selectTip
      ? [state.selectTip]
      : state.tips.slice(-2).reverse();
    let block = null;
    for (const tip of candidates) {
      block = this.blockAt(tip, exclude);
      if (block) break;
    }
    if (!block) return;
    const anchor = this.handAnchor(i, new THREE.Vector3());
    if (!anchor) return;
    state.held = block;
    state.offset.copy(block.position).sub(anchor);
    block.userData.falling = false;
    block.userData.velocity = 0;
    this.setState(block, {held: true, restingOn: null});
  }

  letGo(state) {
    const block = state.held;
    state.held = null;
    if (!block) return;
    block.userData.falling = true;
    block.userData.velocity = 0;
    this.setState(block, {held: false, restingOn: null});
  }

  updateHands() {
    for (let i = 0; i < this.handState.length; ++i) {
      const state = this.handState[i];
      const tipJoint = this.joint(i, 'index-finger-tip');
      const thumbJoint = this.joint(i, 'thumb-tip');
      const controller = xb.core.input?.controllers?.[i];

      if (tipJoint) {
        state.tips.push(worldPosition(tipJoint, new THREE.Vector3()));
        if (state.tips.length > 2) state.tips.shift();
      }

      // A pinch is the system's select (thumb and index closing), or the
      // fingertips themselves coming together.
      const selected = controller?.userData?.selected === true;
      let fingerPinch = state.fingerPinch;
      if (tipJoint && thumbJoint && state.tips.length) {
        const d = state.tips[state.tips.length - 1].distanceTo(
          worldPosition(thumbJoint, _v)
        );
        if (d < PINCH_CLOSE) fingerPinch = true;
        else if (d > PINCH_OPEN) fingerPinch = false;
      }
      // A select that ends ends the pinch at once, even while the fingers
      // are still opening.
      if (state.selected && !selected) state.ignoreFingers = true;
      if (!fingerPinch) state.ignoreFingers = false;
      const pinching = selected || (fingerPinch && !state.ignoreFingers);
      const wasPinching = state.pinching;
      state.selected = selected;
      state.fingerPinch = fingerPinch;
      state.pinching = pinching;

      if (pinching && !wasPinching && this.placed && state.tips.length) {
        this.pickUp(i, state);
      } else if (!pinching && state.held) {
        this.letGo(state);
      }

      state.selectTip = null; // Judged (or stale): each select is judged once.

      if (state.held) {
        const anchor = this.handAnchor(i, _v);
        if (anchor) state.held.position.copy(anchor).add(state.offset);
      }
    }
  }

  // --- falling and resting ------------------------------------------------

  /** The highest support under `block`: {top, name}. */
  supportFor(block, free) {
    const p = block.position;
    let top;
    let name;
    if (this.overTable(p.x, p.z)) {
      top = this.table.top;
      name = 'table';
    } else {
      top = this.floorY;
      name = 'floor';
    }
    let bestOverlap = 0;
    for (const other of free) {
      if (other === block) continue;
      const o = other.position;
      const ox = SIZE - Math.abs(o.x - p.x);
      const oz = SIZE - Math.abs(o.z - p.z);
      if (ox <= 1e-6 || oz <= 1e-6) continue; // Footprints do not overlap.
      if (o.y >= p.y) continue; // Not below this block.
      const otherTop = o.y + HALF;
      const overlap = ox * oz;
      if (otherTop > top + 1e-6 || (Math.abs(otherTop - top) <= 1e-6 && overlap > bestOverlap)) {
        top = otherTop;
        name = other.name;
        bestOverlap = overlap;
      }
    }
    return {top, name};
  }

  updateBlocks(dt) {
    const held = new Set(this.handState.map((s) => s.held).filter(Boolean));
    const free = this.blocks.filter((b) => !held.has(b));
    free.sort((a, b) => a.position.y - b.position.y); // Lowest first.
    for (const block of free) {
      const support = this.supportFor(block, free);
      const rest = support.top + HALF;
      const data = block.userData;
      if (!data.falling && block.position.y > rest + 1e-4) {
        // What it stood on went away: fall.
        data.falling = true;
        data.velocity = 0;
        this.setState(block, {restingOn: null});
      }
      if (data.falling) {
        data.velocity += GRAVITY * dt;
        block.position.y -= data.velocity * dt;
        if (block.position.y <= rest) {
          block.position.y = rest;
          data.falling = false;
          data.velocity = 0;
          this.setState(block, {restingOn: support.name});
        }
      } else {
        // Never sink into what it rests on.
        block.position.y = rest;
        if (block.userData.xrblocksDevtools.state.restingOn !== support.name) {
          this.setState(block, {restingOn: support.name});
        }
      }
    }
  }

  update() {
    if (!this.placed) this.tryPlace();
    let dt = xb.getDeltaTime ? xb.getDeltaTime() : 1 / 60;
    if (!(dt > 0)) dt = 1 / 60;
    dt = Math.min(dt, 0.05);
    this.updateHands();
    if (this.placed) this.updateBlocks(dt);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new StackBlocks());
  xb.init(options);
});
