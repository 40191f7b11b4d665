// Sounds of every length the harness's audio log tells apart, all started in the app's first
// frame: an XR Blocks tone of 0.5 s, an oscillator the app stops 30 frames later with a 0.2 s
// release, a 0.25 s buffer, a looping buffer and a buffer started for 0.1 s of its length.
import * as xb from 'xrblocks';

class Sounds extends xb.Script {
  init() {
    this.frames = 0;
  }

  update() {
    this.frames++;
    if (this.frames === 1) {
      xb.core.sound.soundSynthesizer.playTone(440, 0.5, 0.2, 'sine');
      const ctx = xb.core.sound.soundSynthesizer.audioContext;
      this.held = ctx.createOscillator();
      this.held.frequency.value = 330;
      this.held.connect(ctx.destination);
      this.held.start();
      const buffer = ctx.createBuffer(1, Math.round(ctx.sampleRate * 0.25), ctx.sampleRate);
      for (const [loop, duration] of [[false, undefined], [true, undefined], [false, 0.1]]) {
        const source = ctx.createBufferSource();
        source.buffer = buffer;
        source.loop = loop;
        source.connect(ctx.destination);
        if (duration === undefined) source.start();
        else source.start(0, 0, duration);
      }
    }
    if (this.frames === 31) this.held.stop(this.held.context.currentTime + 0.2);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Sounds());
  xb.init(new xb.Options());
});
