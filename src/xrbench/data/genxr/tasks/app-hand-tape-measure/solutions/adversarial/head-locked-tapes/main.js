import * as THREE from 'three';
import * as xb from 'xrblocks';

// A tape measure between the two hands: the pinch state of each hand is polled
// every frame; tapes are kept in a list and the old ones hidden.

const MAX_FROZEN = 3;
const PANEL_W = 0.08;
const PANEL_H = 0.03;

function makePanel() {
  const canvas = document.createElement('canvas');
  canvas.width = 320;
  canvas.height = 120;
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const mesh = new THREE.Mesh(
    new THREE.PlaneGeometry(PANEL_W, PANEL_H),
    new THREE.MeshBasicMaterial({map: texture, transparent: true})
  );
  mesh.name = 'tape label';
  mesh.userData.canvas = canvas;
  mesh.userData.texture = texture;
  mesh.userData.xrblocksDevtools = {tag: 'tape-label', state: {text: ''}};
  return mesh;
}

function paint(panel, text) {
  const state = panel.userData.xrblocksDevtools.state;
  if (state.text === text) return;
  state.text = text;
  const canvas = panel.userData.canvas;
  const ctx = canvas.getContext('2d');
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#fff8e1';
  ctx.beginPath();
  ctx.roundRect(4, 4, canvas.width - 8, canvas.height - 8, 24);
  ctx.fill();
  ctx.fillStyle = '#3e2723';
  ctx.font = '600 72px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, canvas.width / 2, canvas.height / 2 + 4);
  panel.userData.texture.needsUpdate = true;
}

class HandTape extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.wasPinching = [false, false];
    this.current = null; // {line, panel}
    this.tapes = []; // frozen tapes, oldest first
    this.a = new THREE.Vector3();
    this.b = new THREE.Vector3();
  }

  tipOf(index, out) {
    const hand = xb.core.input.hands[index];
    const joint = hand && hand.joints && hand.joints['index-finger-tip'];
    if (!joint) return null;
    return joint.getWorldPosition(out);
  }

  isPinching(index) {
    const controller = xb.core.input.controllers[index];
    return !!(controller && controller.userData.selected);
  }

  update() {
    const now = [this.isPinching(0), this.isPinching(1)];
    const both = now[0] && now[1];
    const wasBoth = this.wasPinching[0] && this.wasPinching[1];
    this.wasPinching = now;

    if (this.current && !both) {
      this.freezeCurrent();
    } else if (both && !wasBoth && !this.current) {
      this.current = this.newTape();
    }
    if (this.current && both) this.follow();
  }

  newTape() {
    const geometry = new THREE.BufferGeometry().setFromPoints([
      new THREE.Vector3(),
      new THREE.Vector3(),
    ]);
    const line = new THREE.Line(
      geometry,
      new THREE.LineBasicMaterial({color: 0x29b6f6})
    );
    line.name = 'tape';
    line.frustumCulled = false;
    line.userData.xrblocksDevtools = {tag: 'tape', state: {frozen: false}};
    const panel = makePanel();
    xb.core.camera.add(line);
    xb.core.camera.add(panel);
    return {line, panel};
  }

  follow() {
    if (!this.tipOf(0, this.a) || !this.tipOf(1, this.b)) return;
    xb.core.camera.updateMatrixWorld(true);
    xb.core.camera.worldToLocal(this.a);
    xb.core.camera.worldToLocal(this.b);
    const {line, panel} = this.current;
    const position = line.geometry.attributes.position;
    position.setXYZ(0, this.a.x, this.a.y, this.a.z);
    position.setXYZ(1, this.b.x, this.b.y, this.b.z);
    position.needsUpdate = true;
    line.geometry.computeBoundingSphere();
    panel.position.addVectors(this.a, this.b).multiplyScalar(0.5);
    const eye = new THREE.Vector3();
    panel.quaternion.setFromRotationMatrix(
      new THREE.Matrix4().lookAt(eye, panel.position, new THREE.Vector3(0, 1, 0))
    );
    const cm = Math.round(this.a.distanceTo(this.b) * 100);
    paint(panel, `${cm} cm`);
  }

  freezeCurrent() {
    const tape = this.current;
    this.current = null;
    tape.line.userData.xrblocksDevtools.state.frozen = true;
    this.tapes.push(tape);
    if (this.tapes.length > MAX_FROZEN) {
      const old = this.tapes.shift();
      old.line.visible = false;
      old.panel.visible = false;
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new HandTape());
  xb.init(options);
});
