import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Air sketching with an Undo / Redo / Clear panel.
 *
 * A pinch (not aimed at the panel) draws a stroke that follows the tip of that hand's index
 * finger until the pinch opens; either hand, both at once. A floating panel in front of the user
 * has three buttons: Undo hides the most recent stroke shown, Redo brings back the last undone
 * one, Clear removes every stroke for good. A press that acts clicks (1000 Hz, 0.05 s); one with
 * nothing to act on plays a low tone (250 Hz, 0.2 s) and changes nothing.
 */

const MIN_POINT_SPACING = 0.002; // metres between consecutive stroke points
const CLICK = {frequency: 1000, duration: 0.05, volume: 0.3};
const LOW = {frequency: 250, duration: 0.2, volume: 0.3};
const STROKE_COLORS = [0x4fc3f7, 0xff8a65, 0xaed581, 0xba68c8, 0xfff176, 0x4db6ac];

function labelTexture(text, background) {
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 160;
  const ctx = canvas.getContext('2d');
  if (ctx) {
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 60px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, canvas.width / 2, canvas.height / 2 + 4);
  }
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

class UndoSketch extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    /** Strokes that can still be shown, in the order their pinches started. */
    this.strokes = [];
    /** Strokes hidden by Undo, the most recently undone last. */
    this.redoStack = [];
    /** What each controller's current pinch does, keyed by the controller object. */
    this.pinches = new Map();
    this.strokeCount = 0;
    this.raycaster = new THREE.Raycaster();
    this.tip = new THREE.Vector3();

    // Strokes live in a group fixed in the room (world frame).
    this.strokeRoot = new THREE.Group();
    this.strokeRoot.name = 'strokes';
    this.add(this.strokeRoot);

    this.createPanel();
  }

  createPanel() {
    const eyeHeight = xb.user.height ?? 1.5;
    const panel = new THREE.Mesh(
      new THREE.PlaneGeometry(0.4, 0.12),
      new THREE.MeshBasicMaterial({color: 0x263238, side: THREE.DoubleSide})
    );
    panel.name = 'undo-panel';
    panel.position.set(0, eyeHeight - 0.25, -0.6);
    panel.lookAt(new THREE.Vector3(0, eyeHeight, 0)); // face the user's eyes
    panel.userData.xrblocksDevtools = {tag: 'undo-panel', state: {}};

    this.buttons = [];
    const geometry = new THREE.PlaneGeometry(0.1, 0.065);
    for (const [action, label, x, color] of [
      ['undo', 'Undo', -0.125, '#1e88e5'],
      ['redo', 'Redo', 0, '#43a047'],
      ['clear', 'Clear', 0.125, '#e53935'],
    ]) {
      const button = new THREE.Mesh(
        geometry,
        new THREE.MeshBasicMaterial({map: labelTexture(label, color), side: THREE.DoubleSide})
      );
      button.name = `${action}-button`;
      button.position.set(x, 0, 0.005); // on the panel's front
      button.userData.action = action;
      button.userData.xrblocksDevtools = {tag: `${action}-button`, state: {}};
      panel.add(button);
      this.buttons.push(button);
    }
    this.panel = panel;
    this.add(panel);
  }

  // --- input helpers ----------------------------------------------------------------------

  /** Index of the hand behind a controller (0 or 1), or -1. */
  handIndexOf(controller) {
    const id = controller?.userData?.id;
    if (id === 0 || id === 1) return id;
    const controllers = xb.core?.input?.controllers ?? [];
    const index = controllers.indexOf(controller);
    return index === 0 || index === 1 ? index : -1;
  }

  /** World position of the index fingertip of the controller's hand, or null. */
  fingertip(controller, target) {
    const index = this.handIndexOf(controller);
    if (index < 0) return null;
    const joint = xb.core?.input?.hands?.[index]?.joints?.['index-finger-tip'];
    if (!joint) return null;
    joint.updateWorldMatrix(true, false);
    return joint.getWorldPosition(target);
  }

  /**
   * What a select aims at on the panel: a button mesh, the panel itself, or null when its ray
   * misses the panel (strokes never get in the way).
   */
  panelTarget(event, controller) {
    for (const hit of [event?.surface, event?.target]) {
      for (let o = hit; o; o = o.parent) {
        if (this.buttons.includes(o)) return o;
      }
    }
    const rays = [];
    const controllers = xb.user?.controllers;
    const id = controllers ? controllers.indexOf(controller) : -1;
    if (id >= 0) {
      const ray = xb.user.getRay(id, new THREE.Ray());
      if (ray && ray.direction.lengthSq() > 0.5) rays.push(ray);
    }
    if (controller?.matrixWorld) {
      controller.updateWorldMatrix(true, false);
      const origin = new THREE.Vector3().setFromMatrixPosition(controller.matrixWorld);
      const direction = new THREE.Vector3(0, 0, -1)
        .transformDirection(controller.matrixWorld)
        .normalize();
      rays.push(new THREE.Ray(origin, direction));
    }
    this.panel.updateMatrixWorld(true);
    let onPanel = false;
    for (const ray of rays) {
      this.raycaster.ray.copy(ray);
      this.raycaster.near = 0;
      this.raycaster.far = Infinity;
      const buttonHits = this.raycaster.intersectObjects(this.buttons, false);
      if (buttonHits.length > 0) return buttonHits[0].object;
      if (this.raycaster.intersectObject(this.panel, false).length > 0) onPanel = true;
    }
    if (onPanel) return this.panel;
    for (let o = event?.surface ?? event?.target; o; o = o.parent) {
      if (o === this.panel) return this.panel;
    }
    return null;
  }

  // --- events -----------------------------------------------------------------------------

  onSelectStart(event) {
    const controller = event?.source?.controller;
    if (!controller) return;

    const target = this.panelTarget(event, controller);
    if (target) {
      // The panel never draws; a button acts once, now.
      this.pinches.set(controller, {type: 'panel'});
      if (target !== this.panel) this.press(target.userData.action);
      return;
    }

    const tip = this.fingertip(controller, new THREE.Vector3());
    if (!tip) {
      this.pinches.set(controller, {type: 'none'});
      return;
    }
    // A new stroke discards the redo history.
    this.discardRedo();
    const stroke = this.createStroke(tip);
    this.pinches.set(controller, {type: 'draw', stroke});
  }

  onSelectEnd(event) {
    const controller = event?.source?.controller;
    if (!controller) return;
    const pinch = this.pinches.get(controller);
    if (pinch?.type === 'draw') this.extend(controller, pinch.stroke);
    this.pinches.delete(controller);
  }

  update() {
    for (const [controller, pinch] of this.pinches) {
      if (pinch.type === 'draw') this.extend(controller, pinch.stroke);
    }
  }

  extend(controller, stroke) {
    if (!stroke.parent) return; // cleared while drawing
    const tip = this.fingertip(controller, this.tip);
    if (tip) this.appendPoint(stroke, tip);
  }

  // --- history ----------------------------------------------------------------------------

  press(action) {
    if (action === 'undo') this.undo();
    else if (action === 'redo') this.redo();
    else if (action === 'clear') this.clear();
  }

  shownStrokes() {
    return this.strokes.filter((stroke) => stroke.visible);
  }

  undo() {
    const shown = this.shownStrokes();
    const stroke = shown[shown.length - 1];
    if (!stroke) {
      this.playTone(LOW);
      return;
    }
    stroke.visible = false;
    this.redoStack.push(stroke);
    this.playTone(CLICK);
  }

  redo() {
    const stroke = this.redoStack.pop();
    if (!stroke) {
      this.playTone(LOW);
      return;
    }
    stroke.visible = true;
    this.playTone(CLICK);
  }

  clear() {
    if (this.shownStrokes().length === 0) {
      this.playTone(LOW); // nothing shown: nothing changes, the redo history stays
      return;
    }
    for (const stroke of this.strokes) this.disposeStroke(stroke);
    this.strokes = [];
    this.redoStack = [];
    // Pinches still drawing keep going into nothing; their strokes are gone.
    for (const pinch of this.pinches.values()) {
      if (pinch.type === 'draw') pinch.type = 'none';
    }
    this.playTone(CLICK);
  }

  discardRedo() {
    for (const stroke of this.redoStack) {
      this.strokes.splice(this.strokes.indexOf(stroke), 1);
      this.disposeStroke(stroke);
    }
    this.redoStack = [];
  }

  disposeStroke(stroke) {
    stroke.removeFromParent();
    stroke.geometry.dispose();
    stroke.material.dispose();
  }

  playTone({frequency, duration, volume}) {
    const synth = xb.core?.sound?.soundSynthesizer;
    if (synth && typeof synth.playTone === 'function') {
      synth.playTone(frequency, duration, volume, 'sine');
      return;
    }
    try {
      this.audioContext ??= new AudioContext();
      const ctx = this.audioContext;
      const oscillator = ctx.createOscillator();
      oscillator.type = 'sine';
      oscillator.frequency.setValueAtTime(frequency, ctx.currentTime);
      const gain = ctx.createGain();
      gain.gain.setValueAtTime(volume, ctx.currentTime);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start();
      oscillator.stop(ctx.currentTime + duration);
    } catch (e) {
      console.warn('UndoSketch: no audio', e);
    }
  }

  // --- strokes ----------------------------------------------------------------------------

  createStroke(start) {
    const capacity = 256;
    const geometry = new THREE.BufferGeometry();
    const positions = new THREE.BufferAttribute(new Float32Array(capacity * 3), 3);
    positions.setUsage(THREE.DynamicDrawUsage);
    geometry.setAttribute('position', positions);
    geometry.setDrawRange(0, 0);
    const material = new THREE.LineBasicMaterial({
      color: STROKE_COLORS[this.strokeCount % STROKE_COLORS.length],
    });
    const line = new THREE.Line(geometry, material);
    line.name = `stroke-${this.strokeCount++}`;
    line.frustumCulled = false;
    line.raycast = () => {}; // strokes never get in the way of rays aimed at the panel
    line.userData.points = [];
    line.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
    this.strokeRoot.add(line);
    line.updateMatrixWorld(true);
    this.strokes.push(line);
    this.appendPoint(line, start, true);
    this.appendPoint(line, start, true); // a drawable segment at once
    return line;
  }

  appendPoint(line, worldPoint, force = false) {
    line.updateMatrixWorld(true);
    const local = line.worldToLocal(worldPoint.clone());
    const points = line.userData.points;
    const last = points[points.length - 1];
    if (!force && last && last.distanceTo(local) < MIN_POINT_SPACING) return;
    points.push(local);

    let attribute = line.geometry.getAttribute('position');
    if (points.length > attribute.count) {
      const array = new Float32Array(attribute.count * 2 * 3);
      array.set(attribute.array);
      const old = line.geometry;
      const geometry = new THREE.BufferGeometry();
      attribute = new THREE.BufferAttribute(array, 3);
      attribute.setUsage(THREE.DynamicDrawUsage);
      geometry.setAttribute('position', attribute);
      line.geometry = geometry;
      old.dispose();
    }
    const i = points.length - 1;
    attribute.setXYZ(i, local.x, local.y, local.z);
    attribute.needsUpdate = true;
    line.geometry.setDrawRange(0, points.length);
    line.geometry.computeBoundingSphere();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new UndoSketch());
  xb.init(options);
});
