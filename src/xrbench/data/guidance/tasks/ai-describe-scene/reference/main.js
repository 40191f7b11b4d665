import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A card with an "Ask" button: asks the model for a short fun fact about space and shows it.
 */
class SpaceFacts extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.busy = false;

    this.answer = new xb.UIText({text: 'Press Ask for a fun fact.', style: {fontSize: 24}});
    this.card = new xb.UICard({
      name: 'space-facts',
      size: {width: 0.6, height: 'auto'},
      style: {padding: 24, gap: 16, flexDirection: 'column'},
    });
    this.card.add(this.answer, new xb.UIButton({label: 'Ask', onClick: () => this.ask()}));
    this.card.position.set(0, xb.user.height - 0.1, -xb.user.panelDistance);
    this.add(this.card);
  }

  async ask() {
    if (this.busy) return;
    if (!xb.ai.isAvailable()) {
      this.answer.text = 'AI unavailable';
      return;
    }
    this.busy = true;
    this.answer.text = 'Thinking...';
    try {
      const response = await xb.ai.query({prompt: 'Tell me one short fun fact about space, in one sentence.'});
      const text = response && typeof response === 'object' ? response.text : response;
      this.answer.text = text ? String(text).trim() : 'No answer this time.';
    } catch (error) {
      console.warn('AI query failed:', error);
      this.answer.text = 'Sorry, the question failed. Try again.';
    } finally {
      this.busy = false;
    }
  }
}

const options = new xb.Options();
options.enableAI();

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new SpaceFacts());
  xb.init(options);
});
