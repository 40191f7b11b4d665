import * as THREE from 'three';
import * as xb from 'xrblocks';

const WIDTH = 0.15, HEIGHT = 0.2, DEPTH = 0.15;

/** Two seconds of a soft 330 Hz tone with a little vibrato, made in code (loops seamlessly). */
function makeTone(context) {
  const rate = context.sampleRate;
  const buffer = context.createBuffer(1, rate * 2, rate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) {
    const t = i / rate;
    data[i] = 0.25 * Math.sin(2 * Math.PI * 330 * t + 0.8 * Math.sin(2 * Math.PI * 5 * t));
  }
  return buffer;
}

/**
 * The speaker is one box mesh centred on its own origin, placed on the nearest table once plane
 * detection has found one. A global select handler casts the selecting controller's ray and
 * toggles the sound only when that ray hits the speaker.
 */
class TableSpeaker extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.5));
    this.speaker = new THREE.Mesh(
      new THREE.BoxGeometry(WIDTH, HEIGHT, DEPTH),
      new THREE.MeshStandardMaterial({color: 0x8d6e63}));
    this.speaker.visible = false;
    this.speaker.userData.xrblocksDevtools = {tag: 'speaker', state: {playing: false}};
    const grille = new THREE.Mesh(
      new THREE.RingGeometry(0.02, 0.05, 24), new THREE.MeshStandardMaterial({color: 0x212121}));
    grille.position.set(0, 0.02, DEPTH / 2 - 0.002);
    this.speaker.add(grille);
    xb.core.scene.add(this.speaker);

    const listener = xb.core.sound.getAudioListener();
    this.sound = new THREE.PositionalAudio(listener);
    this.sound.setBuffer(makeTone(listener.context));
    this.sound.setLoop(true);
    this.sound.setRefDistance(1);
    this.speaker.add(this.sound);
    this.raycaster = new THREE.Raycaster();
    this.placed = false;
  }

  update() {
    if (this.placed || !xb.world.planes) return;
    const head = new THREE.Vector3();
    xb.core.camera.getWorldPosition(head);
    let best = null, bestDistance = Infinity;
    for (const plane of xb.world.planes.get()) {
      if (plane.label !== 'table') continue;
      const centre = plane.getWorldPosition(new THREE.Vector3());
      const d = centre.distanceTo(head);
      if (d < bestDistance) {
        best = centre;
        bestDistance = d;
      }
    }
    if (!best) return;
    this.speaker.position.set(best.x, best.y + HEIGHT / 2, best.z);
    this.speaker.visible = true;
    this.placed = true;
  }

  onSelectStart(event) {
    const controller = event.source?.controller;
    if (!this.placed || !controller?.matrixWorld) return;
    this.raycaster.setFromXRController(controller);
    if (this.raycaster.intersectObject(this.speaker, false).length === 0) return;
    if (this.sound.isPlaying) this.sound.stop();
    else this.sound.play();
    this.speaker.userData.xrblocksDevtools.state.playing = this.sound.isPlaying;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new TableSpeaker());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
