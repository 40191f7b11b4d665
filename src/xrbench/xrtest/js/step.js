// Operation (see kernel.js) (fn, {frames, dtMs}): advance the paused core by `frames` frames of dtMs each.
({frames, dtMs}) => {
  const before = H.frames;
  H.ops.act.stepFrames(frames, dtMs);
  return {frames: H.frames, ran: H.frames - before, elapsedTime: H.xb.core.elapsedTime};
}
