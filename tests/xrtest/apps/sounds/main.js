// Sounds of every length the harness's audio log tells apart, all started in the app's first
// frame: an XR Blocks tone of 0.5 s, an oscillator the app stops 30 frames later with a 0.2 s
// release, a 0.25 s buffer, a looping buffer, a buffer started for 0.1 s of its length, an
// oscillator scheduled to sound 1 s later for 0.5 s, and one set to stop after 3 s that the app
// stops again 30 frames later (Web Audio applies the last stop()); 150 frames in, it stops the
// held oscillator and the tone once more, both long over (nothing changes).
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
      const late = ctx.createOscillator();
      late.connect(ctx.destination);
      late.start(ctx.currentTime + 1.0);
      late.stop(ctx.currentTime + 1.5);
      this.cut = ctx.createOscillator();
      this.cut.connect(ctx.destination);
      this.cut.start();
      this.cut.stop(ctx.currentTime + 3.0);
    }
    if (this.frames === 31) {
      this.held.stop(this.held.context.currentTime + 0.2);
      this.cut.stop();
    }
    if (this.frames === 151) {
      this.held.stop();
      this.cut.stop();
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new Sounds());
  xb.init(new xb.Options());
});
