import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A sketch board you draw on with your head: aim with the centre of the
 * view, pinch (either hand) to draw, shake the head to undo the last stroke.
 */

// The board: front face in the plane z = -1.5, x in [-0.6, 0.6], y in [1.1, 1.9].
const BOARD_CENTER = new THREE.Vector3(0, 1.5, -1.5);
const BOARD_WIDTH = 1.2;
const BOARD_HEIGHT = 0.8;
const BOARD_THICKNESS = 0.01; // behind the front face
const BOARD_FACE_Z = BOARD_CENTER.z;
const BOARD_MIN_X = BOARD_CENTER.x - BOARD_WIDTH / 2;
const BOARD_MAX_X = BOARD_CENTER.x + BOARD_WIDTH / 2;
const BOARD_MIN_Y = BOARD_CENTER.y - BOARD_HEIGHT / 2;
const BOARD_MAX_Y = BOARD_CENTER.y + BOARD_HEIGHT / 2;

const CURSOR_OFFSET = 0.003; // in front of the face
const CURSOR_RADIUS = 0.018;
const STROKE_OFFSET = 0.002; // in front of the face
const MIN_POINT_SPACING = 0.0005; // metres between stored stroke points
const STROKE_COLORS = [0x1565c0, 0xc62828, 0x2e7d32, 0x6a1b9a, 0xef6c00];

// A shake counts as made while pinching when a pinch was held during it.
const SHAKE_OVERLAP_MARGIN_MS = 100;

class Stroke {
  constructor(color) {
    this.capacity = 256;
    this.count = 0;
    this.positions = new Float32Array(this.capacity * 3);
    this.geometry = new THREE.BufferGeometry();
    this.geometry.setAttribute(
      'position',
      new THREE.BufferAttribute(this.positions, 3).setUsage(THREE.DynamicDrawUsage)
    );
    this.geometry.setDrawRange(0, 0);
    this.line = new THREE.Line(
      this.geometry,
      new THREE.LineBasicMaterial({color})
    );
    this.line.name = 'Stroke';
    this.line.frustumCulled = false;
    this.line.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
    this.last = new THREE.Vector3();
  }

  /** Adds a board point (x, y on the face). */
  addPoint(point, force = false) {
    const p = new THREE.Vector3(point.x, point.y, BOARD_FACE_Z + STROKE_OFFSET);
    if (this.count > 0 && !force && p.distanceTo(this.last) < MIN_POINT_SPACING) {
      return;
    }
    if (this.count >= this.capacity) this._grow();
    this.positions.set([p.x, p.y, p.z], this.count * 3);
    this.count++;
    this.last.copy(p);
    const attribute = this.geometry.getAttribute('position');
    attribute.needsUpdate = true;
    this.geometry.setDrawRange(0, this.count);
    this.geometry.computeBoundingSphere();
    this.geometry.computeBoundingBox();
  }

  _grow() {
    this.capacity *= 2;
    const positions = new Float32Array(this.capacity * 3);
    positions.set(this.positions);
    this.positions = positions;
    const old = this.geometry;
    this.geometry = new THREE.BufferGeometry();
    this.geometry.setAttribute(
      'position',
      new THREE.BufferAttribute(this.positions, 3).setUsage(THREE.DynamicDrawUsage)
    );
    this.geometry.setDrawRange(0, this.count);
    this.line.geometry = this.geometry;
    old.dispose();
  }

  dispose() {
    this.geometry.dispose();
    this.line.material.dispose();
  }
}

class GazeSketch extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // The board: its front face at local z = 0, its thickness behind.
    const boardGeometry = new THREE.BoxGeometry(
      BOARD_WIDTH,
      BOARD_HEIGHT,
      BOARD_THICKNESS
    );
    boardGeometry.translate(0, 0, -BOARD_THICKNESS / 2);
    this.board = new THREE.Mesh(
      boardGeometry,
      new THREE.MeshStandardMaterial({color: 0xf4f1ea, roughness: 0.9})
    );
    this.board.name = 'SketchBoard';
    this.board.position.copy(BOARD_CENTER);
    this.board.userData.xrblocksDevtools = {
      tag: 'sketch-board',
      state: {strokes: 0, drawing: false},
    };
    this.add(this.board);

    // The gaze cursor: a small ring on the board's face.
    this.cursor = new THREE.Mesh(
      new THREE.RingGeometry(CURSOR_RADIUS * 0.55, CURSOR_RADIUS, 32),
      new THREE.MeshBasicMaterial({color: 0xff5722, side: THREE.DoubleSide})
    );
    this.cursor.name = 'GazeCursor';
    this.cursor.visible = false;
    this.cursor.userData.xrblocksDevtools = {tag: 'gaze-cursor', state: {}};
    this.add(this.cursor);

    this.strokes = []; // strokes on the board, oldest first
    this.pinchingSources = new Set(); // hands pinching now
    this.pinchActive = false; // a pinch (in the sense of the app) is going on
    this.currentStroke = null; // the stroke being drawn
    this.lastPinchTime = -Infinity; // ms, app clock: last time a pinch was held
    this.now = 0; // ms, app clock of the current frame

    this._origin = new THREE.Vector3();
    this._direction = new THREE.Vector3();
    this._gaze = {hitsPlane: false, onBoard: false, point: new THREE.Vector3()};

    this._onHeadGesture = this._onHeadGesture.bind(this);
    this._headGestures = null;
    this._attachHeadGestures();
  }

  _attachHeadGestures() {
    const headGestures = xb.core?.input?.headGestures;
    if (headGestures && headGestures !== this._headGestures) {
      headGestures.addEventListener('gesture', this._onHeadGesture);
      this._headGestures = headGestures;
    }
  }

  update(time) {
    this.now =
      typeof time === 'number' && Number.isFinite(time) ? time : performance.now();
    if (!this._headGestures) this._attachHeadGestures();

    const gaze = this._computeGaze();
    this._updateCursor(gaze);

    if (this.pinchActive) {
      this.lastPinchTime = this.now;
      if (this.currentStroke) {
        if (gaze.onBoard) {
          this.currentStroke.addPoint(gaze.point);
        } else {
          // The gaze left the board: the stroke ends at the board's edge.
          if (gaze.hitsPlane) {
            const edge = this._edgePoint(this.currentStroke.last, gaze.point);
            if (edge) this.currentStroke.addPoint(edge, true);
          }
          this._finishStroke();
        }
      }
    }
  }

  /** The gaze ray of this frame and where it meets the board's front face. */
  _computeGaze() {
    const camera = xb.core.camera;
    camera.updateWorldMatrix(true, false);
    camera.getWorldPosition(this._origin);
    this._direction.set(0, 0, -1).transformDirection(camera.matrixWorld);
    const gaze = this._gaze;
    gaze.hitsPlane = false;
    gaze.onBoard = false;
    const dz = this._direction.z;
    if (Math.abs(dz) > 1e-9) {
      const t = (BOARD_FACE_Z - this._origin.z) / dz;
      if (t > 0) {
        gaze.hitsPlane = true;
        gaze.point.copy(this._origin).addScaledVector(this._direction, t);
        gaze.point.z = BOARD_FACE_Z;
        gaze.onBoard =
          gaze.point.x >= BOARD_MIN_X &&
          gaze.point.x <= BOARD_MAX_X &&
          gaze.point.y >= BOARD_MIN_Y &&
          gaze.point.y <= BOARD_MAX_Y;
      }
    }
    return gaze;
  }

  _updateCursor(gaze) {
    if (gaze.onBoard) {
      this.cursor.position.set(
        gaze.point.x,
        gaze.point.y,
        BOARD_FACE_Z + CURSOR_OFFSET
      );
      this.cursor.visible = true;
    } else {
      this.cursor.visible = false;
    }
  }

  /**
   * Where the segment from `inside` (on the board) to `outside` (in the
   * board's plane, off the board) crosses the board's edge.
   */
  _edgePoint(inside, outside) {
    const dx = outside.x - inside.x;
    const dy = outside.y - inside.y;
    let t = 1;
    if (dx > 0) t = Math.min(t, (BOARD_MAX_X - inside.x) / dx);
    if (dx < 0) t = Math.min(t, (BOARD_MIN_X - inside.x) / dx);
    if (dy > 0) t = Math.min(t, (BOARD_MAX_Y - inside.y) / dy);
    if (dy < 0) t = Math.min(t, (BOARD_MIN_Y - inside.y) / dy);
    t = THREE.MathUtils.clamp(t, 0, 1);
    return new THREE.Vector3(
      THREE.MathUtils.clamp(inside.x + dx * t, BOARD_MIN_X, BOARD_MAX_X),
      THREE.MathUtils.clamp(inside.y + dy * t, BOARD_MIN_Y, BOARD_MAX_Y),
      BOARD_FACE_Z
    );
  }

  onSelectStart(event) {
    const source = this._handSource(event);
    if (source === null) return;
    const wasPinching = this.pinchingSources.size > 0;
    this.pinchingSources.add(source);
    if (wasPinching) return; // the same pinch goes on
    this.pinchActive = true;
    this.lastPinchTime = this.now;
    // A new pinch: the stroke begins at this frame's gaze point, if on the board.
    const gaze = this._computeGaze();
    if (!gaze.onBoard) return; // draws nothing for as long as it lasts
    const stroke = new Stroke(
      STROKE_COLORS[this.strokes.length % STROKE_COLORS.length]
    );
    stroke.addPoint(gaze.point, true);
    this.add(stroke.line);
    this.strokes.push(stroke);
    this.currentStroke = stroke;
    this._syncState();
  }

  onSelectEnd(event) {
    const source = this._handSource(event);
    if (source === null) return;
    if (!this.pinchingSources.delete(source)) return;
    if (this.pinchingSources.size > 0) return; // another hand still pinches
    this.pinchActive = false;
    this.lastPinchTime = this.now;
    this._finishStroke();
  }

  _finishStroke() {
    this.currentStroke = null;
    this._syncState();
  }

  /** The pinching hand (0 left, 1 right), or null for other sources. */
  _handSource(event) {
    const controllers = xb.core?.input?.controllers ?? [];
    const controller = event?.source?.controller ?? event?.target;
    const index = controller ? controllers.indexOf(controller) : -1;
    if (index === 0 || index === 1) return index;
    const handedness =
      event?.source?.handedness ??
      event?.data?.handedness ??
      controller?.inputSource?.handedness;
    if (handedness === 'left') return 0;
    if (handedness === 'right') return 1;
    return null;
  }

  _onHeadGesture(event) {
    const detail = event?.detail;
    if (!detail || detail.name !== 'shake') return;
    // A shake made while a hand pinches undoes nothing.
    if (this.pinchActive || this.pinchingSources.size > 0) return;
    const duration = Number.isFinite(detail.data?.durationMs)
      ? detail.data.durationMs
      : 0;
    if (this.now - this.lastPinchTime <= duration + SHAKE_OVERLAP_MARGIN_MS) {
      return;
    }
    this._undo();
  }

  _undo() {
    const stroke = this.strokes.pop();
    if (!stroke) return;
    if (stroke === this.currentStroke) this.currentStroke = null;
    stroke.line.removeFromParent();
    stroke.dispose();
    this._syncState();
  }

  _syncState() {
    const state = this.board.userData.xrblocksDevtools.state;
    state.strokes = this.strokes.length;
    state.drawing = this.currentStroke !== null;
  }

  dispose() {
    this._headGestures?.removeEventListener('gesture', this._onHeadGesture);
    super.dispose?.();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enableHeadGestures();
  xb.add(new GazeSketch());
  xb.init(options);
});
