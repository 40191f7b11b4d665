import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Two-handed tape measure: pinch with both hands, pull them apart along what
 * you want to measure, and let go to leave the measurement in the room.
 *
 * - A pinch of one hand alone does nothing.
 * - In the frame the second of the two pinches starts, a new tape is stretched
 *   between the two index fingertips; it follows them every frame, with a
 *   label at its midpoint that shows its length in centimetres and faces the
 *   user's eyes.
 * - When either hand stops pinching, the tape freezes where it is, in world
 *   coordinates. The last three frozen tapes are kept.
 */

const LABEL_WIDTH = 0.08; // metres
const LABEL_HEIGHT = 0.03; // metres
const LABEL_CANVAS_WIDTH = 512; // pixels, same 8:3 aspect as the panel
const LABEL_CANVAS_HEIGHT = 192;
const MAX_FROZEN_TAPES = 3;
const TAPE_COLOR = 0xffd400;
const FROZEN_TAPE_COLOR = 0xffa000;
const HANDS = [0, 1]; // xb.core.input.hands[0] is the left hand, [1] the right.

const _eyes = new THREE.Vector3();

/** The text of a label for a length in metres, e.g. `37 cm`. */
function lengthText(metres) {
  const centimetres = Math.floor(metres * 100 + 0.5);
  return `${centimetres} cm`;
}

/** One tape: a straight line between two points, with its length label. */
class Tape {
  constructor(parent, start, end) {
    this.parent = parent;
    this.frozen = false;
    this.start = start.clone();
    this.end = end.clone();
    this.text = '';

    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute(
      'position',
      new THREE.BufferAttribute(new Float32Array(6), 3)
    );
    this.line = new THREE.Line(
      geometry,
      new THREE.LineBasicMaterial({color: TAPE_COLOR})
    );
    this.line.name = 'tape';
    this.line.frustumCulled = false;
    this.line.raycast = () => {};
    this.line.userData.xrblocksDevtools = {tag: 'tape', state: {frozen: false}};

    this.canvas = document.createElement('canvas');
    this.canvas.width = LABEL_CANVAS_WIDTH;
    this.canvas.height = LABEL_CANVAS_HEIGHT;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
    this.texture.anisotropy = 4;
    this.label = new THREE.Mesh(
      new THREE.PlaneGeometry(LABEL_WIDTH, LABEL_HEIGHT),
      new THREE.MeshBasicMaterial({
        map: this.texture,
        transparent: true,
        side: THREE.FrontSide,
      })
    );
    this.label.name = 'tape-label';
    this.label.frustumCulled = false;
    this.label.raycast = () => {};
    this.label.renderOrder = 1;
    this.label.userData.xrblocksDevtools = {
      tag: 'tape-label',
      state: {text: ''},
    };

    parent.add(this.line);
    parent.add(this.label);
    this.setEnds(start, end);
  }

  get length() {
    return this.start.distanceTo(this.end);
  }

  /** Moves the tape's ends (world coordinates) and its label. */
  setEnds(start, end) {
    if (this.frozen) return;
    this.start.copy(start);
    this.end.copy(end);
    const position = this.line.geometry.getAttribute('position');
    position.setXYZ(0, start.x, start.y, start.z);
    position.setXYZ(1, end.x, end.y, end.z);
    position.needsUpdate = true;
    this.line.geometry.computeBoundingSphere();

    this.label.position.lerpVectors(start, end, 0.5);
    this.setText(lengthText(this.length));
  }

  /** Turns the label's front (+Z) towards the given world point. */
  faceTowards(point) {
    if (this.frozen) return;
    if (point.distanceToSquared(this.label.position) < 1e-10) return;
    this.label.lookAt(point);
    this.label.updateMatrixWorld(true);
  }

  setText(text) {
    if (text === this.text) return;
    this.text = text;
    this.label.userData.xrblocksDevtools.state.text = text;

    const ctx = this.canvas.getContext('2d');
    const w = this.canvas.width;
    const h = this.canvas.height;
    ctx.clearRect(0, 0, w, h);
    const r = h * 0.25;
    ctx.fillStyle = this.frozen ? 'rgba(40, 30, 0, 0.85)' : 'rgba(0, 0, 0, 0.8)';
    ctx.beginPath();
    ctx.moveTo(r, 0);
    ctx.lineTo(w - r, 0);
    ctx.quadraticCurveTo(w, 0, w, r);
    ctx.lineTo(w, h - r);
    ctx.quadraticCurveTo(w, h, w - r, h);
    ctx.lineTo(r, h);
    ctx.quadraticCurveTo(0, h, 0, h - r);
    ctx.lineTo(0, r);
    ctx.quadraticCurveTo(0, 0, r, 0);
    ctx.closePath();
    ctx.fill();
    ctx.lineWidth = 8;
    ctx.strokeStyle = '#ffd400';
    ctx.stroke();
    ctx.fillStyle = '#ffffff';
    ctx.font = `bold ${Math.round(h * 0.55)}px sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, w / 2, h / 2);
    this.texture.needsUpdate = true;
  }

  /** Freezes the tape where it is; it no longer follows anything. */
  freeze() {
    if (this.frozen) return;
    this.frozen = true;
    this.line.userData.xrblocksDevtools.state.frozen = true;
    this.line.material.color.setHex(FROZEN_TAPE_COLOR);
  }

  /** Removes the tape and its label from the scene. */
  remove() {
    this.line.visible = false;
    this.label.visible = false;
    this.line.removeFromParent();
    this.label.removeFromParent();
    this.line.geometry.dispose();
    this.line.material.dispose();
    this.label.geometry.dispose();
    this.label.material.dispose();
    this.texture.dispose();
  }
}

class TapeMeasure extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // Tapes live directly in the scene, in world coordinates.
    this.tapes = new THREE.Group();
    this.tapes.name = 'tapes';
    (xb.core.scene || this).add(this.tapes);

    this.pinching = [false, false];
    this.activeTape = null;
    this.frozenTapes = [];
    this.pinchPoints = [new THREE.Vector3(), new THREE.Vector3()];
  }

  /** The hand index (0 left, 1 right) of a select event, or -1. */
  handOf(event) {
    const source = event?.source;
    const controller = source?.controller;
    const controllers = xb.core.input?.controllers || [];
    if (controller) {
      const index = controllers.indexOf(controller);
      if (index === 0 || index === 1) return index;
      if (controller === xb.core.input?.mouseController) return -1;
    }
    const handedness =
      source?.handedness ?? controller?.inputSource?.handedness ?? null;
    if (handedness === 'left') return 0;
    if (handedness === 'right') return 1;
    return -1;
  }

  /** Reads the pinch point (index fingertip, world) of a hand. */
  readPinchPoint(hand, target) {
    const joint = xb.core.input?.hands?.[hand]?.joints?.['index-finger-tip'];
    if (!joint) return false;
    joint.getWorldPosition(target);
    return true;
  }

  readPinchPoints() {
    return HANDS.every((hand) =>
      this.readPinchPoint(hand, this.pinchPoints[hand])
    );
  }

  eyesPosition() {
    const camera = xb.core.camera;
    if (!camera) return null;
    camera.updateMatrixWorld(true);
    return camera.getWorldPosition(_eyes);
  }

  /** Moves the stretched tape to the current pinch points. */
  followHands() {
    const tape = this.activeTape;
    if (!tape || tape.frozen) return;
    if (!this.readPinchPoints()) return;
    tape.setEnds(this.pinchPoints[0], this.pinchPoints[1]);
    const eyes = this.eyesPosition();
    if (eyes) tape.faceTowards(eyes);
  }

  onSelectStart(event) {
    const hand = this.handOf(event);
    if (hand < 0 || this.pinching[hand]) return;
    this.pinching[hand] = true;
    if (!this.pinching[0] || !this.pinching[1]) return; // One hand alone.

    // Both hands pinch now: stretch a new tape between them.
    if (this.activeTape) this.freezeActiveTape();
    if (!this.readPinchPoints()) return;
    this.activeTape = new Tape(
      this.tapes,
      this.pinchPoints[0],
      this.pinchPoints[1]
    );
    const eyes = this.eyesPosition();
    if (eyes) this.activeTape.faceTowards(eyes);
  }

  onSelectEnd(event) {
    const hand = this.handOf(event);
    if (hand < 0 || !this.pinching[hand]) return;
    this.pinching[hand] = false;
    if (this.activeTape) this.freezeActiveTape();
  }

  freezeActiveTape() {
    const tape = this.activeTape;
    this.activeTape = null;
    if (!tape) return;
    tape.freeze();
    this.frozenTapes.push(tape);
    while (this.frozenTapes.length > MAX_FROZEN_TAPES) {
      this.frozenTapes.shift().remove();
    }
  }

  update() {
    if (this.activeTape && this.pinching[0] && this.pinching[1]) {
      this.followHands();
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new TapeMeasure());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
