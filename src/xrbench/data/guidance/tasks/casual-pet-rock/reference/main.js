import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A pet rock: select it and it says something funny (from the AI) in a speech bubble above it.
 */
class PetRock extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.busy = false;

    this.rock = new THREE.Mesh(
      new THREE.DodecahedronGeometry(0.15, 1),
      new THREE.MeshStandardMaterial({color: 0x8a8177, roughness: 0.95, flatShading: true}));
    this.rock.scale.set(1.2, 0.8, 1);
    this.rock.position.set(0, xb.user.height - 0.6, -xb.user.objectDistance);
    this.add(this.rock);

    this.speech = new xb.UIText({text: 'Tap me!', style: {fontSize: 26}});
    this.bubble = new xb.UICard({
      name: 'speech-bubble',
      size: {width: 0.45, height: 'auto'},
      style: {padding: 18},
    });
    this.bubble.add(this.speech);
    this.bubble.position.set(0, xb.user.height - 0.25, -xb.user.objectDistance);
    this.add(this.bubble);
  }

  onObjectSelectStart(event) {
    if (event.surface === this.rock) this.talk();
  }

  async talk() {
    if (this.busy) return;
    if (!xb.ai.isAvailable()) {
      this.speech.text = '... (the rock needs an AI key to talk)';
      return;
    }
    this.busy = true;
    this.speech.text = '...';
    try {
      const reply = await xb.ai.query({
        prompt: 'You are a pet rock. Say one short, funny sentence to your owner.',
      });
      const text = reply && typeof reply === 'object' ? reply.text : reply;
      this.speech.text = text ? String(text).trim() : '*stays silent, like a rock*';
    } catch (error) {
      console.warn('the rock could not talk:', error);
      this.speech.text = '*stays silent, like a rock*';
    } finally {
      this.busy = false;
    }
  }
}

const options = new xb.Options();
options.enableAI();

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new PetRock());
  xb.init(options);
});
