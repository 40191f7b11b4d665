import * as THREE from 'three';
import * as xb from 'xrblocks';

const FULL = 0.2;  // metres: the bar's width when a countdown starts

function tone(hz, seconds) {
  const synth = xb.core.sound.soundSynthesizer;
  synth.playTone(hz, seconds, 0.5, 'sine');
  synth.audioContext?.resume?.().catch(() => {});
}

/** Egg timer: the countdown's time is the sum of the frame times since its pinch. */
class EggTimer extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const board = new THREE.Mesh(new THREE.PlaneGeometry(0.28, 0.16),
                                 new THREE.MeshBasicMaterial({color: 0x263238}));
    board.position.set(0.05, xb.user.height - 0.2, -0.62);
    this.add(board);
    this.choices = [];
    [3, 5].forEach((seconds, i) => {
      const b = new THREE.Mesh(new THREE.BoxGeometry(0.1, 0.05, 0.01),
                               new THREE.MeshBasicMaterial({color: i ? 0xef6c00 : 0x00897b}));
      b.position.set(i ? 0.065 : -0.065, -0.035, 0.006);
      b.userData.xrblocksDevtools = {tag: 'countdown-button', state: {seconds}};
      b.userData.seconds = seconds;
      board.add(b);
      this.choices.push(b);
    });
    this.bar = new THREE.Mesh(new THREE.BoxGeometry(1, 0.03, 0.004),
                              new THREE.MeshBasicMaterial({color: 0xfafafa}));
    this.bar.userData.xrblocksDevtools = {tag: 'countdown-bar', state: {}};
    this.bar.visible = false;
    board.add(this.bar);
    this.length = 0;
    this.elapsed = 0;
    this.nextTick = 1;
    this.held = [false, false];
    this.raycaster = new THREE.Raycaster();
  }

  layoutBar() {
    const width = FULL * Math.max(0, 1 - this.elapsed / this.length);
    this.bar.scale.x = Math.max(width, 1e-4);
    this.bar.position.set(-FULL / 2 + width / 2, 0.035, 0.006);
  }

  aimed(controller) {
    controller.updateMatrixWorld(true);
    const origin = new THREE.Vector3().setFromMatrixPosition(controller.matrixWorld);
    const direction = new THREE.Vector3(0, 0, -1).transformDirection(controller.matrixWorld);
    this.raycaster.set(origin, direction);
    const hit = this.raycaster.intersectObjects(this.choices, false)[0];
    return hit ? hit.object.userData.seconds : 0;
  }

  press(seconds) {
    if (this.length && seconds === this.length) {
      this.length = 0;
      this.bar.visible = false;
      return;
    }
    this.length = seconds;
    this.elapsed = 0;
    this.nextTick = 1;
    this.bar.visible = true;
    this.layoutBar();
  }

  update() {
    const dt = xb.core.timer.getDelta();
    if (this.length) {
      this.elapsed += dt;
      while (this.nextTick < this.length && this.elapsed >= this.nextTick - 1e-9) {
        tone(1000, 0.06);
        this.nextTick += 1;
      }
      if (this.elapsed >= this.length - 1e-9) {
        tone(660, 0.45);
        this.length = 0;
        this.bar.visible = false;
      } else {
        this.layoutBar();
      }
    }
    xb.core.input.controllers.slice(0, 2).forEach((c, i) => {
      const pinching = c?.userData?.selected === true;
      if (pinching && !this.held[i]) {
        const seconds = this.aimed(c);
        if (seconds) this.press(seconds);
      }
      this.held[i] = pinching;
    });
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new EggTimer());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
