// page.evaluate(fn, {frames, dtMs}): advance the paused core by `frames` frames of dtMs each.
({frames, dtMs}) => {
  const core = window.xb.core;
  if (core.lifecycle !== 'running') throw new Error(`cannot step: core is ${core.lifecycle}`);
  if (!core.isPaused) core.pause();
  const before = window.__xrtest.frames;
  for (let i = 0; i < frames; i++) core.stepFrame(dtMs);
  return {frames: window.__xrtest.frames, ran: window.__xrtest.frames - before,
          elapsedTime: core.elapsedTime};
}
