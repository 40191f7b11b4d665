import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Gaze sketch: a board in front of the user; the head's forward ray is raycast against it every
 * frame. The cursor and the strokes are children of the board (board-local coordinates); each
 * stroke is an instanced mesh of small dots laid at most 5 mm apart along the gaze path.
 */
const DOT_SPACING = 0.005;
const MAX_DOTS = 6000;
const FRONT = 0.01; // the board's half thickness: its front face is at local z = +0.01

class DotStroke {
  constructor(board) {
    this.mesh = new THREE.InstancedMesh(
        new THREE.CircleGeometry(0.003, 8),
        new THREE.MeshBasicMaterial({color: 0x0b3d2e}),
        MAX_DOTS);
    this.mesh.count = 0;
    this.mesh.frustumCulled = false;
    this.mesh.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
    this.last = null;
    this.matrix = new THREE.Matrix4();
    board.add(this.mesh);
  }

  dot(local) {
    if (this.mesh.count >= MAX_DOTS) return;
    this.matrix.makeTranslation(local.x, local.y, FRONT + 0.002);
    this.mesh.setMatrixAt(this.mesh.count, this.matrix);
    this.mesh.count += 1;
    this.mesh.instanceMatrix.needsUpdate = true;
  }

  /** Extends the stroke to `local` (a point in board coordinates), filling the gap with dots. */
  extend(local) {
    if (!this.last) {
      this.dot(local);
      this.last = local.clone();
      return;
    }
    const gap = this.last.distanceTo(local);
    const steps = Math.ceil(gap / DOT_SPACING);
    for (let i = 1; i <= steps; i++) {
      this.dot(new THREE.Vector3().lerpVectors(this.last, local, i / steps));
    }
    this.last = local.clone();
  }

  remove() {
    this.mesh.removeFromParent();
    this.mesh.dispose();
  }
}

class SketchBoard extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x888888, 2.5));
    this.board = new THREE.Mesh(
        new THREE.BoxGeometry(1.2, 0.8, 2 * FRONT),
        new THREE.MeshStandardMaterial({color: 0xffffff, roughness: 0.9}));
    this.board.position.set(0, 1.5, -1.5 - FRONT);
    this.board.userData.xrblocksDevtools = {tag: 'sketch-board', state: {strokes: 0, drawing: false}};
    this.add(this.board);

    const ring = new THREE.Mesh(
        new THREE.RingGeometry(0.01, 0.016, 32),
        new THREE.MeshBasicMaterial({color: 0xff6f00}));
    ring.position.z = FRONT + 0.004;
    ring.userData.xrblocksDevtools = {tag: 'gaze-cursor', state: {}};
    this.cursor = ring;
    this.cursor.visible = false;
    this.board.add(ring);

    this.raycaster = new THREE.Raycaster();
    this.history = [];
    this.active = null;
    this.held = {left: false, right: false};
    this.spent = false; // the current pinch has ended its stroke (or began off the board)

    xb.core.input.headGestures?.addEventListener('gesture', ({detail}) => {
      if (detail.name !== 'shake') return;
      if (this.held.left || this.held.right) return;
      const stroke = this.history.pop();
      if (stroke) stroke.remove();
      this.publish();
    });
  }

  /** The gaze hit on the front face, in board-local coordinates, or null. */
  hit() {
    const camera = xb.core.camera;
    const origin = new THREE.Vector3();
    const dir = new THREE.Vector3();
    camera.getWorldPosition(origin);
    camera.getWorldDirection(dir);
    this.raycaster.set(origin, dir);
    const hits = this.raycaster.intersectObject(this.board, false);
    if (!hits.length) return null;
    const local = this.board.worldToLocal(hits[0].point.clone());
    if (local.z < FRONT - 1e-4) return null; // only the front face counts
    return local;
  }

  pinching() {
    return this.held.left || this.held.right;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness === 'left' ? 'left' : 'right';
    const wasHeld = this.pinching();
    this.held[hand] = true;
    if (wasHeld) return;
    const at = this.hit();
    this.spent = !at;
    if (at) {
      this.active = new DotStroke(this.board);
      this.history.push(this.active);
      this.active.extend(at);
    }
    this.publish();
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness === 'left' ? 'left' : 'right';
    this.held[hand] = false;
    if (this.pinching()) return;
    if (this.active) {
      const at = this.hit();
      if (at) this.active.extend(at);
    }
    this.active = null;
    this.spent = false;
    this.publish();
  }

  publish() {
    const state = this.board.userData.xrblocksDevtools.state;
    state.strokes = this.history.length;
    state.drawing = !!this.active;
  }

  update() {
    const at = this.hit();
    this.cursor.visible = !!at;
    if (at) this.cursor.position.set(at.x, at.y, FRONT + 0.004);
    if (!this.active) return;
    if (at) {
      this.active.extend(at);
    } else {
      this.active = null;
      this.spent = true;
      this.publish();
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new SketchBoard());
  const options = new xb.Options();
  options.enableHands();
  options.enableHeadGestures();
  xb.init(options);
});
