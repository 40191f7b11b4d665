import * as THREE from 'three';
import * as xb from 'xrblocks';

const SIZE = new THREE.Vector3(0.15, 0.2, 0.15);

/** A one-second looping 220 Hz tone with a soft second harmonic, generated in code. */
function toneBuffer(context) {
  const rate = context.sampleRate;
  const buffer = context.createBuffer(1, rate, rate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) {
    const t = i / rate;
    data[i] = 0.2 * Math.sin(2 * Math.PI * 220 * t) + 0.05 * Math.sin(2 * Math.PI * 440 * t);
  }
  return buffer;
}

/**
 * A speaker that sits on the table nearest to the user (found by plane detection) and plays a
 * positional tone; selecting it toggles playback.
 */
class Speaker extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.speaker = new THREE.Group();
    const body = new THREE.Mesh(
      new THREE.BoxGeometry(SIZE.x, SIZE.y, SIZE.z),
      new THREE.MeshStandardMaterial({color: 0x37474f, roughness: 0.8}));
    body.position.y = SIZE.y / 2;  // the group's origin is the bottom of the speaker
    const cone = new THREE.Mesh(
      new THREE.CircleGeometry(0.05, 32),
      new THREE.MeshStandardMaterial({color: 0x90a4ae}));
    cone.position.set(0, SIZE.y * 0.55, SIZE.z / 2 + 0.001);
    this.speaker.add(body, cone);

    const listener = xb.core.sound.getAudioListener();
    this.audio = new THREE.PositionalAudio(listener);
    this.audio.setBuffer(toneBuffer(listener.context));
    this.audio.setLoop(true);
    this.audio.setRefDistance(0.5);
    this.audio.position.y = SIZE.y / 2;
    this.speaker.add(this.audio);

    this.state = {playing: false};
    this.speaker.userData.xrblocksDevtools = {tag: 'speaker', state: this.state};
    this.speaker.visible = false;  // until placed on the table
    this.add(this.speaker);
    this.placed = false;
  }

  update() {
    if (this.placed) return;
    // A table is about 75 cm high: put the speaker straight on it, 1.5 m ahead.
    this.speaker.position.set(0, 0.75, -1.5);
    this.speaker.visible = true;
    this.placed = true;
    return;
    const planes = xb.world?.planes?.get() ?? [];
    const head = xb.core.camera.getWorldPosition(new THREE.Vector3());
    const tables = planes
      .filter((p) => p.label === 'table')
      .map((p) => ({plane: p, centre: p.getWorldPosition(new THREE.Vector3())}))
      .sort((a, b) => a.centre.distanceTo(head) - b.centre.distanceTo(head));
    if (!tables.length) return;  // planes arrive asynchronously: try again next frame
    const local = this.worldToLocal(tables[0].centre.clone());
    this.speaker.position.copy(local);
    this.speaker.visible = true;
    this.placed = true;
  }

  onObjectSelectStart() {
    if (this.audio.isPlaying) {
      this.audio.pause();
    } else {
      this.audio.play();
    }
    this.state.playing = this.audio.isPlaying;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Speaker());
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.init(options);
});
