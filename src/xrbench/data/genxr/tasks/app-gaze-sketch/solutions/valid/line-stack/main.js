import * as THREE from 'three';
import * as xb from 'xrblocks';

// The board's front face: the plane z = BOARD_Z, x in [-W/2, W/2], y in [Y - H/2, Y + H/2].
const BOARD_W = 1.2;
const BOARD_H = 0.8;
const BOARD_Y = 1.5;
const BOARD_Z = -1.5;
const LIFT = 0.003; // strokes and cursor sit 3 mm in front of the face
const MAX_POINTS = 8192;

function tag(object, name, state) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

/** One stroke: a THREE.Line whose points are appended while its pinch lasts. */
class Stroke {
  constructor() {
    this.positions = new Float32Array(MAX_POINTS * 3);
    this.geometry = new THREE.BufferGeometry();
    this.geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
    this.geometry.setDrawRange(0, 0);
    this.line = new THREE.Line(this.geometry, new THREE.LineBasicMaterial({color: 0x1e3a8a}));
    this.line.frustumCulled = false;
    this.count = 0;
    tag(this.line, 'stroke', {});
  }

  add(point) {
    if (this.count >= MAX_POINTS) return;
    this.positions.set([point.x, point.y, BOARD_Z + LIFT], this.count * 3);
    this.count += 1;
    this.geometry.setDrawRange(0, this.count);
    this.geometry.attributes.position.needsUpdate = true;
    this.geometry.computeBoundingSphere();
  }

  dispose() {
    this.line.removeFromParent();
    this.geometry.dispose();
    this.line.material.dispose();
  }
}

/**
 * Head-pointer sketch board: the head's forward ray puts a cursor on the board; a pinch with
 * either hand draws along it; a head shake undoes the last stroke.
 */
class GazeSketch extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.board = new THREE.Mesh(
        new THREE.PlaneGeometry(BOARD_W, BOARD_H),
        new THREE.MeshStandardMaterial({color: 0xf5f2ea}));
    this.board.position.set(0, BOARD_Y, BOARD_Z);
    this.boardState = tag(this.board, 'sketch-board', {strokes: 0, drawing: false});
    this.add(this.board);

    this.cursor = new THREE.Mesh(
        new THREE.RingGeometry(0.006, 0.012, 24),
        new THREE.MeshBasicMaterial({color: 0xd32f2f}));
    this.cursor.visible = false;
    tag(this.cursor, 'gaze-cursor', {});
    this.add(this.cursor);

    this.strokes = [];     // finished and current strokes, oldest first
    this.current = null;   // the stroke being drawn
    this.pinching = new Set();
    this.blocked = false;  // this pinch may not draw (any more)
    this.ray = new THREE.Ray();

    xb.core.input.headGestures.addEventListener('gesture', (event) => {
      if (event.detail?.name === 'shake') this.undo();
    });
  }

  gazePoint() {
    const camera = xb.core.camera;
    camera.updateMatrixWorld();
    camera.getWorldPosition(this.ray.origin);
    camera.getWorldDirection(this.ray.direction);
    const d = this.ray.direction;
    if (d.z >= -1e-6) return null; // parallel to the board or looking away from it
    const t = (BOARD_Z - this.ray.origin.z) / d.z;
    if (t <= 0) return null;
    const p = this.ray.origin.clone().addScaledVector(d, t);
    if (Math.abs(p.x) > BOARD_W / 2 || Math.abs(p.y - BOARD_Y) > BOARD_H / 2) return null;
    return p;
  }

  onSelectStart(event) {
    const hand = event.source?.handedness ?? 'none';
    const first = this.pinching.size === 0;
    this.pinching.add(hand);
    if (!first) return;
    const p = this.gazePoint();
    if (!p) {
      this.blocked = true;
      return;
    }
    this.blocked = false;
    this.current = new Stroke();
    this.add(this.current.line);
    this.strokes.push(this.current);
    this.current.add(p);
    this.syncState();
  }

  onSelectEnd(event) {
    const hand = event.source?.handedness ?? 'none';
    this.pinching.delete(hand);
    if (this.pinching.size > 0) return;
    if (this.current) {
      const p = this.gazePoint();
      if (p) this.current.add(p);
    }
    this.current = null;
    this.blocked = false;
    this.syncState();
  }

  undo() {
    if (this.pinching.size > 0) return;
    const last = this.strokes.pop();
    if (!last) return;
    last.dispose();
    this.syncState();
  }

  syncState() {
    this.boardState.strokes = this.strokes.length;
    this.boardState.drawing = this.current !== null;
  }

  update() {
    const p = this.gazePoint();
    this.cursor.visible = p !== null;
    if (p) this.cursor.position.set(p.x, p.y, BOARD_Z + LIFT);
    if (this.current) {
      if (p) {
        this.current.add(p);
      } else {
        this.current = null; // the gaze left the board: this pinch draws no more
        this.blocked = true;
        this.syncState();
      }
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new GazeSketch());
  const options = new xb.Options();
  options.enableHands();
  options.enableHeadGestures();
  xb.init(options);
});
