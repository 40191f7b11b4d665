import * as THREE from 'three';
import * as xb from 'xrblocks';

// One script runs the whole game: it polls each hand's pinch (select) and reads the hands' joints
// itself, instead of relying on XR Blocks' touch/grab callbacks.
const EDGE = 0.08;
const GAP = 0.15;
const G = 9.81;
const TINTS = {A: '#f4511e', B: '#7cb342', C: '#3949ab'};

class BlockTable extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x555555, 3));
    this.table = null;  // {y} once a table has been chosen
    this.blocks = [];
    this.pinching = [false, false];
    for (const id of ['A', 'B', 'C']) {
      const mesh = new THREE.Mesh(
          new THREE.BoxGeometry(EDGE, EDGE, EDGE),
          new THREE.MeshLambertMaterial({color: TINTS[id]}));
      mesh.name = id;
      mesh.visible = false;
      const state = {id, restingOn: null, held: false};
      mesh.userData.xrblocksDevtools = {tag: 'block', state};
      this.add(mesh);
      // hand: index of the holding hand; local: the centre in the wrist's frame;
      // fall: {speed, floorY, on} while dropping.
      this.blocks.push({id, mesh, state, hand: -1, local: new THREE.Vector3(), fall: null});
    }
  }

  joint(handIndex, name) {
    const hand = xb.core.input.hands?.[handIndex];
    return hand?.joints?.[name] ?? null;
  }

  /** A pinch began on hand `handIndex`: pick up the block its index fingertip is in, if any. */
  pinchStarted(handIndex) {
    const tipJoint = this.joint(handIndex, 'index-finger-tip');
    const wrist = this.joint(handIndex, 'wrist');
    if (!tipJoint || !wrist) return;
    if (this.blocks.some((b) => b.hand === handIndex)) return;
    const tip = tipJoint.getWorldPosition(new THREE.Vector3());
    const touched = this.blocks.find((b) =>
      b.hand < 0 && new THREE.Box3().setFromObject(b.mesh).expandByScalar(0.002).containsPoint(tip));
    if (!touched) return;
    wrist.updateWorldMatrix(true, false);
    touched.hand = handIndex;
    touched.local.copy(touched.mesh.position).applyMatrix4(wrist.matrixWorld.clone().invert());
    touched.fall = null;
    touched.state.held = true;
    touched.state.restingOn = null;
  }

  /** The pinch of hand `handIndex` opened: what it held drops. */
  pinchEnded(handIndex) {
    for (const b of this.blocks) {
      if (b.hand !== handIndex) continue;
      b.hand = -1;
      b.state.held = false;
      b.fall = {speed: 0, ...this.landingFor(b)};
    }
  }

  /** Where a block let go of now lands: the highest top under its footprint. */
  landingFor(block) {
    const p = block.mesh.position;
    const bottom = p.y - EDGE / 2;
    let landing = {floorY: this.table.y, on: 'table'};
    for (const other of this.blocks) {
      if (other === block || other.hand >= 0) continue;
      const q = other.mesh.position;
      const top = q.y + EDGE / 2;
      const apartX = Math.abs(q.x - p.x), apartZ = Math.abs(q.z - p.z);
      if (apartX < EDGE && apartZ < EDGE && top <= bottom + 0.003 && top > landing.floorY) {
        landing = {floorY: top, on: other.id};
      }
    }
    return landing;
  }

  findTable() {
    const planes = xb.world?.planes?.get?.() ?? [];
    const head = new THREE.Vector3();
    xb.core.camera.getWorldPosition(head);
    let best = null, bestDistance = Infinity;
    for (const plane of planes) {
      if (plane.label !== 'table') continue;
      const centre = new THREE.Vector3();
      plane.getWorldPosition(centre);
      const d = centre.distanceTo(head);
      if (d < bestDistance) {
        best = centre;
        bestDistance = d;
      }
    }
    return best;
  }

  update() {
    if (!this.table) {
      const centre = this.findTable();
      if (!centre) return;
      this.table = {y: centre.y};
      this.blocks.forEach((b, i) => {
        b.mesh.position.set(centre.x + (i - 1) * GAP, centre.y + EDGE / 2, centre.z);
        b.state.restingOn = 'table';
        b.mesh.visible = true;
      });
      return;
    }
    // The pinch is the hand's select: poll it for each hand (a direct touch keeps XR Blocks from
    // reporting it through the global select hooks).
    for (const handIndex of [0, 1]) {
      const pinching = xb.user.isSelecting(handIndex) === true;
      if (pinching && !this.pinching[handIndex]) this.pinchStarted(handIndex);
      if (!pinching && this.pinching[handIndex]) this.pinchEnded(handIndex);
      this.pinching[handIndex] = pinching;
    }
    const dt = xb.getDeltaTime();
    for (const b of this.blocks) {
      if (b.hand >= 0) {
        const wrist = this.joint(b.hand, 'wrist');
        if (!wrist) continue;
        wrist.updateWorldMatrix(true, false);
        b.mesh.position.copy(b.local).applyMatrix4(wrist.matrixWorld);
      } else if (b.fall) {
        b.fall.speed += G * dt;
        const restY = b.fall.floorY + EDGE / 2;
        b.mesh.position.y = Math.max(restY, b.mesh.position.y - b.fall.speed * dt);
        if (b.mesh.position.y <= restY) {
          b.state.restingOn = b.fall.on;
          b.fall = null;
        }
      }
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new BlockTable());
  const options = new xb.Options();
  options.enablePlaneDetection();
  options.enableHands();
  xb.init(options);
});
