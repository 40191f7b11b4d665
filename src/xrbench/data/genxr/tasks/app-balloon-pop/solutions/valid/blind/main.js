import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Balloon pop: five balloons rise in front of the user at 0.1 m/s; poking one
 * with either index fingertip pops it (a short sound, +1 on the count panel),
 * and it comes back at its start position two seconds later. A balloon that
 * reaches 1.9 m disappears and starts again from its start position at once.
 */

const BALLOON_RADIUS = 0.05;
const RISE_SPEED = 0.1; // metres per second.
const TOP_HEIGHT = 1.9; // a balloon's centre never goes above this.
const RESPAWN_DELAY = 2.0; // seconds after a pop.
const START_POSITIONS = [
  [-0.24, 1.0, -0.8],
  [-0.12, 1.2, -0.8],
  [0.0, 0.9, -0.8],
  [0.12, 1.1, -0.8],
  [0.24, 1.3, -0.8],
];
const COLORS = [0xef5350, 0xffca28, 0x66bb6a, 0x42a5f5, 0xab47bc];

const PANEL_WIDTH = 0.4;
const PANEL_HEIGHT = 0.2;
const PANEL_POSITION = new THREE.Vector3(0, 2.15, -1.5);

const POP_SOUND = {frequency: 880, duration: 0.12, volume: 0.4, type: 'triangle'};

const _tip = new THREE.Vector3();
const _head = new THREE.Vector3();

/** Page time in seconds (the frame clock). */
function now() {
  return performance.now() / 1000;
}

class BalloonPop extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    const sun = new THREE.DirectionalLight(0xffffff, 1.2);
    sun.position.set(1, 3, 2);
    this.add(sun);

    const geometry = new THREE.SphereGeometry(BALLOON_RADIUS, 32, 16);
    this.balloons = START_POSITIONS.map((start, i) => {
      const number = i + 1;
      const mesh = new THREE.Mesh(
        geometry,
        new THREE.MeshStandardMaterial({color: COLORS[i], roughness: 0.3})
      );
      mesh.name = `balloon-${number}`;
      mesh.position.set(start[0], start[1], start[2]);
      mesh.userData.xrblocksDevtools = {
        tag: `balloon-${number}`,
        state: {popped: false},
      };
      this.add(mesh);
      return {
        number,
        mesh,
        start: new THREE.Vector3(start[0], start[1], start[2]),
        spawnTime: null, // when it (last) appeared at its start position.
        popped: false, // true while waiting to come back after a pop.
        inside: [false, false], // per hand: fingertip inside last frame.
      };
    });

    this.popped = 0;
    this.createPanel();
  }

  createPanel() {
    this.canvas = document.createElement('canvas');
    this.canvas.width = 512;
    this.canvas.height = 256;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
    this.panel = new THREE.Mesh(
      new THREE.PlaneGeometry(PANEL_WIDTH, PANEL_HEIGHT),
      new THREE.MeshBasicMaterial({map: this.texture, side: THREE.DoubleSide})
    );
    this.panel.name = 'pop-panel';
    this.panel.position.copy(PANEL_POSITION);
    this.panel.userData.xrblocksDevtools = {tag: 'pop-panel', state: {popped: 0}};
    this.add(this.panel);
    this.drawPanel();
    this.facePanel();
  }

  drawPanel() {
    const ctx = this.canvas.getContext('2d');
    if (ctx) {
      const {width, height} = this.canvas;
      ctx.fillStyle = '#263238';
      ctx.fillRect(0, 0, width, height);
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = 8;
      ctx.strokeRect(4, 4, width - 8, height - 8);
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 88px sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(`Popped: ${this.popped}`, width / 2, height / 2);
    }
    this.texture.needsUpdate = true;
    this.panel.userData.xrblocksDevtools.state.popped = this.popped;
  }

  /** Turns the panel's front (+Z, the text side) towards the user's head. */
  facePanel() {
    const camera = xb.core?.camera;
    if (camera) {
      camera.updateMatrixWorld();
      camera.getWorldPosition(_head);
    } else {
      _head.set(0, xb.user?.height ?? 1.5, 0);
    }
    this.panel.position.copy(PANEL_POSITION);
    if (_head.distanceToSquared(PANEL_POSITION) > 1e-8) {
      this.panel.lookAt(_head);
    }
  }

  /** World positions of the index fingertips of the tracked hands (by hand index). */
  fingertips() {
    const tips = [null, null];
    const hands = xb.core?.input?.hands;
    if (!hands) return tips;
    for (let i = 0; i < Math.min(2, hands.length); i++) {
      const hand = hands[i];
      if (!hand || hand.visible === false || !hand.joints) continue;
      const joint = hand.joints['index-finger-tip'];
      if (!joint || joint.visible === false) continue;
      joint.updateWorldMatrix(true, false);
      tips[i] = joint.getWorldPosition(new THREE.Vector3());
    }
    return tips;
  }

  playPop() {
    const synth = xb.core?.sound?.soundSynthesizer;
    if (synth && typeof synth.playTone === 'function') {
      synth.playTone(
        POP_SOUND.frequency,
        POP_SOUND.duration,
        POP_SOUND.volume,
        POP_SOUND.type
      );
    }
  }

  respawn(balloon, time) {
    balloon.spawnTime = time;
    balloon.popped = false;
    balloon.mesh.position.copy(balloon.start);
    balloon.mesh.visible = true;
    balloon.mesh.userData.xrblocksDevtools.state.popped = false;
  }

  pop(balloon, time) {
    balloon.popped = true;
    balloon.popTime = time;
    balloon.mesh.visible = false;
    balloon.mesh.userData.xrblocksDevtools.state.popped = true;
    this.popped += 1;
    this.playPop();
  }

  update() {
    const t = now();
    if (!this.started) {
      // The app starts on its first frame: every balloon at its start position.
      this.started = true;
      for (const balloon of this.balloons) balloon.spawnTime = t;
    }
    const tips = this.fingertips();
    let countChanged = false;

    for (const balloon of this.balloons) {
      // Waiting to come back after a pop.
      if (balloon.popped) {
        if (t - balloon.popTime >= RESPAWN_DELAY - 1e-6) {
          this.respawn(balloon, t);
        } else {
          balloon.inside = [false, false];
          continue;
        }
      }

      // Rise straight up at a steady speed.
      let y = balloon.start.y + RISE_SPEED * Math.max(0, t - balloon.spawnTime);
      if (y >= TOP_HEIGHT) {
        // Reached the top: gone, and a new one starts from the bottom now.
        this.respawn(balloon, t);
        y = balloon.start.y;
      }
      balloon.mesh.position.set(balloon.start.x, y, balloon.start.z);

      // A fingertip coming inside the balloon pops it.
      let popNow = false;
      for (let h = 0; h < 2; h++) {
        const tip = tips[h];
        const inside =
          !!tip && tip.distanceTo(balloon.mesh.position) < BALLOON_RADIUS;
        if (inside && !balloon.inside[h]) popNow = true;
        balloon.inside[h] = inside;
      }
      if (popNow) {
        this.pop(balloon, t);
        balloon.inside = [false, false];
        countChanged = true;
      }
    }

    if (countChanged) this.drawPanel();
    this.facePanel();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new BalloonPop());
  xb.init(options);
});
