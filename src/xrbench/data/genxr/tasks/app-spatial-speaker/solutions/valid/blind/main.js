import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A speaker on the table: once XR Blocks' plane detection reports a table,
 * an upright speaker box is placed on the table nearest to the user's head.
 * Selecting the speaker (either hand's ray + pinch) starts or stops a tone
 * generated in code and played by a THREE.PositionalAudio inside the speaker.
 */

const SPEAKER_WIDTH = 0.15;
const SPEAKER_HEIGHT = 0.2;
const SPEAKER_DEPTH = 0.15;
const TONE_HZ = 440;

/** Makes a one-second looping sine tone (an integer number of cycles). */
function createToneBuffer(context) {
  const sampleRate = context.sampleRate;
  const length = sampleRate; // one second
  const buffer = context.createBuffer(1, length, sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) {
    const t = i / sampleRate;
    data[i] =
      0.25 * Math.sin(2 * Math.PI * TONE_HZ * t) +
      0.05 * Math.sin(2 * Math.PI * 2 * TONE_HZ * t);
  }
  return buffer;
}

/** The speaker: a box (a mesh that is also a Script) with a positional audio
 * source at its centre. */
class Speaker extends xb.MeshScript {
  constructor() {
    super(
      new THREE.BoxGeometry(SPEAKER_WIDTH, SPEAKER_HEIGHT, SPEAKER_DEPTH),
      new THREE.MeshStandardMaterial({
        color: 0x2b2f36,
        roughness: 0.6,
        metalness: 0.1,
      })
    );
    this.name = 'speaker';
    this.placed = false;
    this.visible = false; // hidden until placed on a table

    this.userData.xrblocksDevtools = {tag: 'speaker', state: {playing: false}};
    this.audio = null;
  }

  /** Creates the positional audio with the listener on the user's camera. */
  ensureAudio() {
    if (this.audio) return this.audio;
    const listener = xb.core.sound.getAudioListener();
    const audio = new THREE.PositionalAudio(listener);
    audio.name = 'speaker-audio';
    audio.setBuffer(createToneBuffer(listener.context));
    audio.setLoop(true);
    audio.setRefDistance(0.5);
    audio.setVolume(0.8);
    this.add(audio); // at the centre of the speaker box
    this.audio = audio;
    return audio;
  }

  get playing() {
    return !!(this.audio && this.audio.isPlaying);
  }

  syncState() {
    this.userData.xrblocksDevtools.state.playing = this.playing;
  }

  toggle() {
    const audio = this.ensureAudio();
    if (audio.isPlaying) {
      audio.pause();
    } else {
      const context = audio.context;
      if (context && context.state === 'suspended') {
        context.resume().catch(() => {});
      }
      audio.play();
    }
    this.syncState();
  }

  placeAt(center) {
    // Bottom of the box on the surface, centre above the surface's centre.
    this.position.set(center.x, center.y + SPEAKER_HEIGHT / 2, center.z);
    this.quaternion.identity();
    this.updateMatrixWorld(true);
    this.placed = true;
    this.visible = true;
  }

  /** Either hand's ray on the speaker plus a pinch toggles the sound once. */
  onObjectSelectStart() {
    if (!this.placed) return;
    this.toggle();
  }

  update() {
    this.syncState();
  }
}

class SpeakerOnTable extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.speaker = new Speaker();
    this.add(this.speaker);
    this.speaker.ensureAudio();
    this.speaker.syncState();

    this.headPosition = new THREE.Vector3();
  }

  /** Tables currently reported by plane detection, as world centres. */
  knownTables() {
    const detector = xb.world?.planes;
    if (!detector || typeof detector.get !== 'function') return [];
    const tables = [];
    for (const plane of detector.get()) {
      if (plane.label !== 'table') continue;
      const orientation = String(plane.orientation || '').toLowerCase();
      if (orientation === 'vertical') continue;
      tables.push(plane.getWorldPosition(new THREE.Vector3()));
    }
    return tables;
  }

  update() {
    if (this.speaker.placed) return;
    const tables = this.knownTables();
    if (tables.length === 0) return;
    xb.core.camera.getWorldPosition(this.headPosition);
    let best = tables[0];
    let bestDistance = best.distanceTo(this.headPosition);
    for (const center of tables) {
      const distance = center.distanceTo(this.headPosition);
      if (distance < bestDistance) {
        best = center;
        bestDistance = distance;
      }
    }
    this.speaker.placeAt(best);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  options.enablePlaneDetection();
  xb.add(new SpeakerOnTable());
  xb.init(options);
});
