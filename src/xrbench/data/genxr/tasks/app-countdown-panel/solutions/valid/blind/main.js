import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Countdown panel: two buttons, "3 s" and "5 s", in front of the user. A pinch with either
 * hand while its ray points at a button starts (or restarts, or cancels) a countdown. While it
 * runs a bar shrinks from 20 cm to nothing, a 1000 Hz tick sounds at every whole second and a
 * 660 Hz alarm at the end.
 */

const BUTTON_WIDTH = 0.09;
const BUTTON_HEIGHT = 0.06;
const BUTTON_GAP = 0.03;
const BAR_WIDTH = 0.2; // full width, metres
const BAR_HEIGHT = 0.025;
const TICK = {frequency: 1000, duration: 0.06, volume: 0.3};
const ALARM = {frequency: 660, duration: 0.5, volume: 0.4};
// Clock readings are sums of frame times; this absorbs their rounding error (far below a frame).
const TIME_EPSILON = 1e-6;

function labelTexture(text, background) {
  const canvas = document.createElement('canvas');
  canvas.width = 192;
  canvas.height = 128;
  const ctx = canvas.getContext('2d');
  if (ctx) {
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#ffffff';
    ctx.font = 'bold 64px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, canvas.width / 2, canvas.height / 2 + 4);
  }
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  return texture;
}

class CountdownPanel extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // The panel: 0.6 m ahead, 0.25 m below the eyes, turned to face the user's eyes.
    const eyeHeight = xb.user.height ?? 1.5;
    this.panel = new THREE.Group();
    this.panel.name = 'countdown-panel';
    this.panel.position.set(0, eyeHeight - 0.25, -0.6);
    this.panel.lookAt(new THREE.Vector3(0, eyeHeight, 0));
    this.add(this.panel);

    // The two buttons, side by side.
    this.buttons = [];
    const buttonGeometry = new THREE.PlaneGeometry(BUTTON_WIDTH, BUTTON_HEIGHT);
    [
      [3, '#1e88e5'],
      [5, '#43a047'],
    ].forEach(([seconds, color], i) => {
      const button = new THREE.Mesh(
        buttonGeometry,
        new THREE.MeshBasicMaterial({
          map: labelTexture(`${seconds} s`, color),
          side: THREE.DoubleSide,
        })
      );
      button.name = `countdown-button-${seconds}`;
      const offset = (BUTTON_WIDTH + BUTTON_GAP) / 2;
      button.position.set(i === 0 ? -offset : offset, 0, 0);
      button.userData.seconds = seconds;
      button.userData.xrblocksDevtools = {tag: 'countdown-button', state: {seconds}};
      this.panel.add(button);
      this.buttons.push(button);
    });

    // The progress bar, above the buttons; its geometry starts at its left end (x = 0), so
    // scaling it along x shrinks it towards that end.
    const barGeometry = new THREE.PlaneGeometry(1, 1);
    barGeometry.translate(0.5, 0, 0);
    this.bar = new THREE.Mesh(
      barGeometry,
      new THREE.MeshBasicMaterial({color: 0xffb300, side: THREE.DoubleSide})
    );
    this.bar.name = 'countdown-bar';
    this.bar.position.set(-BAR_WIDTH / 2, BUTTON_HEIGHT / 2 + 0.035, 0.001);
    this.bar.scale.set(BAR_WIDTH, BAR_HEIGHT, 1);
    this.bar.visible = false;
    this.bar.userData.xrblocksDevtools = {tag: 'countdown-bar', state: {}};
    this.panel.add(this.bar);

    // The running countdown, or null.
    this.countdown = null;
    this.raycaster = new THREE.Raycaster();
    this.ray = new THREE.Ray();
  }

  /** Seconds on XR Blocks' frame clock (advanced once per frame from the frame time). */
  now() {
    const timer = xb.core?.timer;
    if (timer && typeof timer.getElapsed === 'function') return timer.getElapsed();
    return performance.now() / 1000;
  }

  /** The button a select event aims at, or null. */
  buttonFor(event) {
    for (const hit of [event?.surface, event?.target, event?.intersection?.object]) {
      for (let o = hit; o; o = o.parent) {
        if (this.buttons.includes(o)) return o;
      }
    }
    // Fallback: cast the source's own ray at the buttons only.
    const controller = event?.source?.controller;
    const controllers = xb.user?.controllers;
    if (!controller || !controllers) return null;
    const id = controllers.indexOf(controller);
    if (id < 0) return null;
    const ray = xb.user.getRay(id, this.ray);
    if (!ray || ray.direction.lengthSq() === 0) return null;
    this.raycaster.set(ray.origin, ray.direction.clone().normalize());
    const hits = this.raycaster.intersectObjects(this.buttons, false);
    return hits.length ? hits[0].object : null;
  }

  onSelectStart(event) {
    const button = this.buttonFor(event);
    if (!button) return;
    const seconds = button.userData.seconds;
    if (this.countdown && this.countdown.seconds === seconds) {
      this.cancel();
      return;
    }
    this.start(seconds);
  }

  start(seconds) {
    this.countdown = {seconds, startTime: this.now(), nextTick: 1};
    this.bar.scale.x = BAR_WIDTH;
    this.bar.visible = true;
  }

  cancel() {
    this.countdown = null;
    this.bar.visible = false;
  }

  playTone({frequency, duration, volume}) {
    const synth = xb.core?.sound?.soundSynthesizer;
    if (synth && typeof synth.playTone === 'function') {
      synth.playTone(frequency, duration, volume, 'sine');
      return;
    }
    // Fallback: a plain Web Audio oscillator, started now.
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
      console.warn('CountdownPanel: no audio', e);
    }
  }

  update() {
    const countdown = this.countdown;
    if (!countdown) return;
    const elapsed = this.now() - countdown.startTime + TIME_EPSILON;

    // Ticks at every whole second after the start and before the end.
    while (countdown.nextTick < countdown.seconds && elapsed >= countdown.nextTick) {
      this.playTone(TICK);
      countdown.nextTick++;
    }

    if (elapsed >= countdown.seconds) {
      // The end: the alarm instead of a tick, and the bar goes away.
      this.playTone(ALARM);
      this.cancel();
      return;
    }

    const left = Math.max(0, countdown.seconds - elapsed);
    this.bar.scale.x = Math.max(1e-4, (BAR_WIDTH * left) / countdown.seconds);
    this.bar.visible = true;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new CountdownPanel());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
