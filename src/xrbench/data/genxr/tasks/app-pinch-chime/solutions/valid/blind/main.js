import * as THREE from 'three';
import * as xb from 'xrblocks';

/** Tone frequency (Hz) for each hand's pinch. */
const TONE_FREQUENCY = {left: 440, right: 660};
/** Length of every tone, in seconds. */
const TONE_DURATION = 0.25;
const TONE_VOLUME = 0.4;

/**
 * Pinch chime: every pinch of a tracked hand plays one short sine tone,
 * 440 Hz for the left hand and 660 Hz for the right hand.
 */
class PinchChime extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const geometry = new THREE.CylinderGeometry(0.2, 0.2, 0.4, 32);
    const material = new THREE.MeshPhongMaterial({color: 0xffffff});
    this.cylinder = new THREE.Mesh(geometry, material);
    this.cylinder.position.set(0, xb.user.height - 0.5, -xb.user.objectDistance);
    this.add(this.cylinder);
  }

  /**
   * Works out which hand a select (pinch) came from: 'left', 'right' or null
   * when the source is not one of the two hands (e.g. a mouse).
   */
  getHand(event) {
    const source = event?.source;
    const handedness = source?.handedness;
    if (handedness === 'left' || handedness === 'right') return handedness;

    const controller = source?.controller ?? event?.target;
    const raw =
      controller?.inputSource?.handedness ?? controller?.userData?.handedness;
    if (raw === 'left' || raw === 'right') return raw;

    // Last resort: XR Blocks' first two controllers are the two hands.
    const controllers = xb.core.input?.controllers ?? [];
    if (controller && controller === controllers[0]) return 'left';
    if (controller && controller === controllers[1]) return 'right';
    return null;
  }

  /** Called by XR Blocks once, in the frame a pinch (select) begins. */
  onSelectStart(event) {
    const hand = this.getHand(event);
    if (!hand) return;
    this.playTone(TONE_FREQUENCY[hand]);
  }

  /** Starts one tone right now; it stops by itself after TONE_DURATION. */
  playTone(frequency) {
    const synth = xb.core.sound.soundSynthesizer;
    synth.playTone(frequency, TONE_DURATION, TONE_VOLUME, 'sine');
    const context = synth.audioContext;
    if (context && context.state === 'suspended') {
      context.resume().catch(() => {});
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PinchChime());
  const options = new xb.Options();
  options.enableHands();
  xb.init(options);
});
