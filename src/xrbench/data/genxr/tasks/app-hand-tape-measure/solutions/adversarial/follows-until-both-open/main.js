import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Two-handed tape measure. While both hands pinch, a tape (a line) is stretched
 * between the two index fingertips with a label showing its length in whole
 * centimetres at its midpoint. Releasing either pinch freezes it; the last
 * three frozen tapes are kept.
 */

const LABEL_WIDTH = 0.08;
const LABEL_HEIGHT = 0.03;
const KEEP = 3;

const tip = new THREE.Vector3();

function lengthText(metres) {
  return `${Math.round(metres * 100)} cm`;
}

class Tape {
  constructor(parent) {
    this.geometry = new THREE.BufferGeometry();
    this.geometry.setAttribute(
      'position',
      new THREE.BufferAttribute(new Float32Array(6), 3)
    );
    this.line = new THREE.Line(
      this.geometry,
      new THREE.LineBasicMaterial({color: 0xffc400})
    );
    this.line.frustumCulled = false;
    this.line.userData.xrblocksDevtools = {tag: 'tape', state: {frozen: false}};

    this.canvas = document.createElement('canvas');
    this.canvas.width = 256;
    this.canvas.height = 96;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
    this.label = new THREE.Mesh(
      new THREE.PlaneGeometry(LABEL_WIDTH, LABEL_HEIGHT),
      new THREE.MeshBasicMaterial({map: this.texture, side: THREE.DoubleSide})
    );
    this.label.userData.xrblocksDevtools = {
      tag: 'tape-label',
      state: {text: ''},
    };
    this.text = null;
    parent.add(this.line);
    parent.add(this.label);
  }

  setEnds(a, b, eye) {
    const pos = this.geometry.attributes.position;
    pos.setXYZ(0, a.x, a.y, a.z);
    pos.setXYZ(1, b.x, b.y, b.z);
    pos.needsUpdate = true;
    this.geometry.computeBoundingSphere();
    this.label.position.copy(a).add(b).multiplyScalar(0.5);
    this.label.lookAt(eye);
    this.setText(lengthText(a.distanceTo(b)));
  }

  setText(text) {
    if (text === this.text) return;
    this.text = text;
    const g = this.canvas.getContext('2d');
    g.fillStyle = '#1b1f2a';
    g.fillRect(0, 0, this.canvas.width, this.canvas.height);
    g.fillStyle = '#ffffff';
    g.font = 'bold 64px sans-serif';
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillText(text, this.canvas.width / 2, this.canvas.height / 2);
    this.texture.needsUpdate = true;
    this.label.userData.xrblocksDevtools.state.text = text;
  }

  freeze() {
    this.line.userData.xrblocksDevtools.state.frozen = true;
  }

  dispose() {
    this.line.removeFromParent();
    this.label.removeFromParent();
    this.geometry.dispose();
    this.texture.dispose();
  }
}

class TapeMeasure extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.pinching = [false, false];
    this.live = null;
    this.frozen = [];
  }

  handIndexOf(event) {
    const handedness = event?.source?.handedness;
    if (handedness === 'left') return 0;
    if (handedness === 'right') return 1;
    return -1;
  }

  onSelectStart(event) {
    const i = this.handIndexOf(event);
    if (i < 0) return;
    this.pinching[i] = true;
    if (this.pinching[0] && this.pinching[1] && !this.live) {
      this.live = new Tape(this);
      this.stretch();
    }
  }

  onSelectEnd(event) {
    const i = this.handIndexOf(event);
    if (i < 0) return;
    this.pinching[i] = false;
    if (this.live && !this.pinching[0] && !this.pinching[1]) {
      this.live.freeze();
      this.frozen.push(this.live);
      this.live = null;
      while (this.frozen.length > KEEP) this.frozen.shift().dispose();
    }
  }

  fingertip(i, out) {
    const joint = xb.core.input.hands?.[i]?.joints?.['index-finger-tip'];
    if (!joint) return false;
    joint.updateWorldMatrix(true, false);
    out.setFromMatrixPosition(joint.matrixWorld);
    return true;
  }

  stretch() {
    const a = new THREE.Vector3();
    const b = new THREE.Vector3();
    if (!this.fingertip(0, a) || !this.fingertip(1, b)) return;
    const eye = xb.core.camera.getWorldPosition(tip);
    this.live.setEnds(a, b, eye);
  }

  update() {
    if (this.live && (this.pinching[0] || this.pinching[1])) this.stretch();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new TapeMeasure());
  xb.init(options);
});
