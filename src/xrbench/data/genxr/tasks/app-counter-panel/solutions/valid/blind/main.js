import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Counter panel: a flat 0.4 m x 0.3 m panel in front of the user shows a counter that starts
 * at 0, and a "+1" button on the panel's front adds one to it each time it is selected (a
 * pinch of either hand, or a controller trigger, while that hand's ray points at the button).
 *
 * Built from plain three.js meshes: the panel is a plane with a canvas texture (the number),
 * the button a thin box with a "+1" label, a child of the panel on its front (+z) face.
 */

const PANEL_WIDTH = 0.4;
const PANEL_HEIGHT = 0.3;
const PANEL_DISTANCE = 0.8; // metres in front of the user
const BUTTON_WIDTH = 0.13;
const BUTTON_HEIGHT = 0.075;
const BUTTON_DEPTH = 0.01;
const BUTTON_CENTER_Y = -0.075; // panel-local: lower half, below the number
const CANVAS_PX_PER_M = 2560; // 1024 x 768 canvas for the panel

const BUTTON_COLORS = {idle: 0x2f6fd6, hover: 0x4d8ff0, pressed: 0x1c4a99};

function makeCanvasTexture(canvas) {
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.anisotropy = 4;
  return texture;
}

/** The "+1" button: a thin box whose front face carries the label. */
class PlusButton extends xb.MeshScript {
  constructor(onPress) {
    const canvas = document.createElement('canvas');
    canvas.width = 256;
    canvas.height = 148;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 110px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText('+1', canvas.width / 2, canvas.height / 2 + 6);
    const label = makeCanvasTexture(canvas);

    const body = new THREE.MeshStandardMaterial({color: BUTTON_COLORS.idle, roughness: 0.6});
    const front = new THREE.MeshStandardMaterial({
      color: BUTTON_COLORS.idle,
      roughness: 0.6,
      emissive: 0xffffff,
      emissiveMap: label,
    });
    // BoxGeometry material order: +x, -x, +y, -y, +z (front), -z.
    super(new THREE.BoxGeometry(BUTTON_WIDTH, BUTTON_HEIGHT, BUTTON_DEPTH), [
      body, body, body, body, front, body,
    ]);
    this.name = 'plus-button';
    this.bodyMaterial = body;
    this.frontMaterial = front;
    this.onPress = onPress;
    this.hovering = new Set();
    this.pressing = new Set();
    this.userData.xrblocksDevtools = {tag: 'plus-button', state: {}};
  }

  onHoverEnter(event) {
    this.hovering.add(event?.source?.controller ?? event?.source ?? 'unknown');
    this.refreshColor();
  }

  onHoverExit(event) {
    this.hovering.delete(event?.source?.controller ?? event?.source ?? 'unknown');
    this.refreshColor();
  }

  /** A selection of the button (one per pinch or trigger press, per hand/controller). */
  onObjectSelectStart(event) {
    this.pressing.add(event?.source?.controller ?? 'unknown');
    this.refreshColor();
    this.onPress();
  }

  onObjectSelectEnd(event) {
    this.pressing.delete(event?.source?.controller ?? 'unknown');
    this.refreshColor();
  }

  refreshColor() {
    const color = this.pressing.size
      ? BUTTON_COLORS.pressed
      : this.hovering.size
        ? BUTTON_COLORS.hover
        : BUTTON_COLORS.idle;
    this.bodyMaterial.color.setHex(color);
    this.frontMaterial.color.setHex(color);
  }
}

class CounterPanelApp extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.count = 0;

    // Panel face: a canvas the size of the panel, redrawn when the count changes.
    this.canvas = document.createElement('canvas');
    this.canvas.width = Math.round(PANEL_WIDTH * CANVAS_PX_PER_M);
    this.canvas.height = Math.round(PANEL_HEIGHT * CANVAS_PX_PER_M);
    this.faceTexture = makeCanvasTexture(this.canvas);

    this.panel = new THREE.Mesh(
      new THREE.PlaneGeometry(PANEL_WIDTH, PANEL_HEIGHT),
      new THREE.MeshBasicMaterial({map: this.faceTexture, side: THREE.FrontSide}));
    this.panel.name = 'counter-panel';
    // Straight ahead at eye height, front (+z) towards the user at the origin.
    this.panel.position.set(0, xb.user.height, -PANEL_DISTANCE);
    this.panelState = {count: 0};
    this.panel.userData.xrblocksDevtools = {tag: 'counter-panel', state: this.panelState};
    this.add(this.panel);

    this.button = new PlusButton(() => this.increment());
    // On the front face, in the lower half, just proud of the surface.
    this.button.position.set(0, BUTTON_CENTER_Y, BUTTON_DEPTH / 2 + 0.001);
    this.panel.add(this.button);

    this.drawFace();
  }

  increment() {
    this.count += 1;
    this.panelState.count = this.count;
    this.drawFace();
  }

  drawFace() {
    const ctx = this.canvas.getContext('2d');
    const w = this.canvas.width;
    const h = this.canvas.height;
    ctx.clearRect(0, 0, w, h);
    ctx.fillStyle = '#1e2430';
    ctx.fillRect(0, 0, w, h);
    ctx.strokeStyle = '#5a6a85';
    ctx.lineWidth = 12;
    ctx.strokeRect(6, 6, w - 12, h - 12);

    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = '#9fb3d1';
    ctx.font = '56px sans-serif';
    ctx.fillText('Count', w / 2, h * 0.13);

    // The number: upper part of the face, above the button (the button covers
    // y in [0.625, 0.875] of the canvas height).
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 220px sans-serif';
    ctx.fillText(String(this.count), w / 2, h * 0.38);

    this.faceTexture.needsUpdate = true;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new CounterPanelApp());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
