// Operation (see kernel.js) (fn, {frames, dtMs}): advance the paused core by `frames` frames of dtMs each.
({frames, dtMs}) => {
  const core = H.xb.core;
  if (core.lifecycle !== 'running') throw new Error(`cannot step: core is ${core.lifecycle}`);
  if (!core.isPaused) core.pause();
  const before = H.frames;
  for (let i = 0; i < frames; i++) core.stepFrame(dtMs);
  return {frames: H.frames, ran: H.frames - before,
          elapsedTime: core.elapsedTime};
}
