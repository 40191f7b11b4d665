import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Voice pads: plays 16-bit PCM audio through XR Blocks' sound core (`xb.core.sound`).
 * Point either hand's ray at a pad and pinch to press it.
 *
 * - The voice pad plays a short "assistant reply" the way a Gemini Live app does: three chunks of
 *   24 kHz PCM, one after the other, with `playAIAudio(base64)`.
 * - The memo pad plays a voice memo recorded at 16 kHz with `playRecordedAudio(buffer, 16000)`.
 *
 * The clips are synthetic (steady hums), so a tuner shows at once whether they play at the right
 * speed. Every pad carries an XR Blocks DevTools tag (`userData.xrblocksDevtools`) with its state.
 */
const PAD_SIZE = 0.12;
const ROW = {y: 1.3, z: -0.7, spacing: 0.2};
const HANDS = ['left', 'right'];

// The reply: three chunks of 24 kHz PCM, [frequency Hz, length s] each.
const REPLY_RATE = 24000;
const REPLY = [
  [200, 0.2],
  [250, 0.25],
  [300, 0.3],
];
// The memo: 0.6 s of a 330 Hz hum, recorded at 16 kHz.
const MEMO_RATE = 16000;
const MEMO = [330, 0.6];

/** `seconds` of a sine hum at `frequency` Hz as 16-bit little-endian PCM, `rate` samples/s. */
function pcm16(frequency, seconds, rate) {
  const samples = new Int16Array(Math.round(seconds * rate));
  for (let i = 0; i < samples.length; i++) {
    samples[i] = Math.round(12000 * Math.sin((2 * Math.PI * frequency * i) / rate));
  }
  return samples.buffer;
}

function base64(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
}

class Pad extends xb.Script {
  constructor(tag, index, color) {
    super();
    this.tag = tag;
    this.index = index;
    this.color = color;
  }

  init() {
    this.mesh = new THREE.Mesh(
      new THREE.BoxGeometry(PAD_SIZE, PAD_SIZE, 0.04),
      new THREE.MeshStandardMaterial({color: this.color}));
    this.mesh.position.set((this.index - 0.5) * ROW.spacing, ROW.y, ROW.z);
    this.mesh.name = this.tag;
    this.state = {presses: 0, lastHand: null};
    this.mesh.userData.xrblocksDevtools = {tag: this.tag, state: this.state};
    this.add(this.mesh);
  }

  onObjectSelectStart(event) {
    this.state.presses += 1;
    this.state.lastHand = event.source?.handedness ?? HANDS[event.handIndex] ?? null;
    this.press();
  }

  press() {}
}

class VoicePad extends Pad {
  async press() {
    for (const [frequency, seconds] of REPLY) {
      await xb.core.sound.playAIAudio(base64(pcm16(frequency, seconds, REPLY_RATE)));
    }
  }
}

class MemoPad extends Pad {
  press() {
    const [frequency, seconds] = MEMO;
    xb.core.sound.playRecordedAudio(pcm16(frequency, seconds, MEMO_RATE), MEMO_RATE);
  }
}

class Room extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Room());
  xb.add(new VoicePad('voice-pad', 0, 0x3b7dd8));
  xb.add(new MemoPad('memo-pad', 1, 0xe0a030));
  xb.init(new xb.Options());
});
