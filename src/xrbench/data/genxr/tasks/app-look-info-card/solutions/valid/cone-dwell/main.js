import * as THREE from 'three';
import * as xb from 'xrblocks';

// One card mesh and one positional audio, reused: the card is shown for the object the user has
// looked at for 0.8 s, judged by the angle between the view and the detected point.
const GAZE_CONE_DEG = 6;
const DWELL = 0.8;
const LINGER = 0.3;

class InfoCardApp extends xb.Script {
  init() {
    this.add(new THREE.DirectionalLight(0xffffff, 2));
    this.canvas = document.createElement('canvas');
    this.canvas.width = 320;
    this.canvas.height = 160;
    this.texture = new THREE.CanvasTexture(this.canvas);
    this.texture.colorSpace = THREE.SRGBColorSpace;
    this.card = new THREE.Mesh(
        new THREE.PlaneGeometry(0.2, 0.1),
        new THREE.MeshBasicMaterial({map: this.texture}));
    this.card.visible = false;
    this.card.userData.xrblocksDevtools = {tag: 'info-card', state: {label: ''}};
    this.add(this.card);

    const listener = xb.core.sound.getAudioListener();
    this.chime = new THREE.PositionalAudio(listener);
    const ctx = listener.context;
    const buffer = ctx.createBuffer(1, Math.round(ctx.sampleRate * 0.25), ctx.sampleRate);
    const samples = buffer.getChannelData(0);
    for (let i = 0; i < samples.length; i++) {
      const t = i / ctx.sampleRate;
      samples[i] = 0.3 * Math.sin(2 * Math.PI * 880 * t) * (1 - t / 0.25);
    }
    this.chime.setBuffer(buffer);
    this.chime.setVolume(0.5);
    this.card.add(this.chime);

    this.elapsed = 0;
    this.current = null;    // label of the object under the gaze
    this.currentAt = null;  // its detected point
    this.lookStart = 0;
    this.shownFor = null;   // label of the object whose card is shown
    this.lostAt = null;
    this.started = false;
  }

  gazeTarget() {
    const camera = xb.core.camera;
    const eye = new THREE.Vector3();
    camera.getWorldPosition(eye);
    const forward = new THREE.Vector3(0, 0, -1).applyQuaternion(camera.getWorldQuaternion(new THREE.Quaternion()));
    let best = null;
    let bestAngle = THREE.MathUtils.degToRad(GAZE_CONE_DEG);
    for (const object of xb.world.objects.get()) {
      const at = object.getWorldPosition(new THREE.Vector3());
      const angle = forward.angleTo(at.clone().sub(eye));
      if (angle <= bestAngle) {
        bestAngle = angle;
        best = {label: object.label, at};
      }
    }
    return best;
  }

  drawName(name) {
    const ctx = this.canvas.getContext('2d');
    ctx.fillStyle = '#f4f1e8';
    ctx.fillRect(0, 0, 320, 160);
    ctx.fillStyle = '#202020';
    ctx.font = '56px serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(name, 160, 80);
    this.texture.needsUpdate = true;
  }

  update() {
    const dt = xb.getDeltaTime();
    this.elapsed += dt;
    if (!xb.world?.objects) return;
    if (!this.started && xb.core.simulator) {
      xb.world.objects.start(this);
      this.started = true;
    }
    const target = this.gazeTarget();
    const sameAsBefore = target && this.current === target.label &&
        this.currentAt.distanceTo(target.at) < 0.25;
    if (!sameAsBefore) {
      this.current = target ? target.label : null;
      this.lookStart = this.elapsed;
    }
    this.currentAt = target ? target.at : null;

    if (this.shownFor !== null) {
      if (this.current === this.shownFor) {
        this.lostAt = null;
      } else {
        if (this.lostAt === null) this.lostAt = this.elapsed;
        if (this.elapsed - this.lostAt >= LINGER - 0.001) {
          this.card.visible = false;
          this.shownFor = null;
          this.lostAt = null;
        }
      }
    }
    if (this.shownFor === null && this.current !== null &&
        this.elapsed - this.lookStart >= DWELL - 0.001) {
      this.show(this.current, this.currentAt);
    }
  }

  show(label, at) {
    const camera = xb.core.camera;
    const eye = camera.getWorldPosition(new THREE.Vector3());
    const flat = new THREE.Vector3(at.x - eye.x, 0, at.z - eye.z).normalize();
    const right = new THREE.Vector3(-flat.z, 0, flat.x);
    const spot = at.clone().addScaledVector(right, 0.25);
    this.card.position.copy(spot);
    this.card.lookAt(eye);  // tilted back towards the eyes
    this.drawName(label);
    this.card.userData.xrblocksDevtools.state.label = label;
    this.card.visible = true;
    this.card.updateMatrixWorld(true);
    this.chime.stop();
    this.chime.play();
    this.shownFor = label;
    this.lostAt = null;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableAI();
  options.enableObjectDetection();
  options.world.objects.simulatorOverride = true;
  xb.add(new InfoCardApp());
  xb.init(options);
});
