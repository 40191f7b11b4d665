// Operation (see kernel.js) (fn, {timeoutMs}) -> {scripts, ui}: waits (wall clock, virtual time paused) for
// the Scripts XR Blocks is still initialising, then reports what is not ready yet: the count of
// Scripts still initialising, the names of visible UI elements not laid out, fetches running, and
// timers due on the virtual clock.
async ({timeoutMs}) => {
  const core = H.xb.core;
  const manager = core.scriptsManager;
  const pending = () => (manager && manager.pendingInitializations
    ? [...manager.pendingInitializations.values()].map((entry) => entry.promise) : []);
  const deadline = realNow() + timeoutMs;
  // An initialisation can add more Scripts' initialisations (init() that awaits a child's).
  for (let p = pending(); p.length && realNow() < deadline; p = pending()) {
    await Promise.race([Promise.allSettled(p), new Promise((r) => realSetTimeout(r, Math.max(0, deadline - realNow())))]);
  }
  await new Promise((r) => realSetTimeout(r, 0));  // let the tasks those initialisations queued run
  // The UI layout engine compiles (WebAssembly) in wall-clock time with no request in flight: wait
  // for it while virtual time stands still, so layout lands on the same frame on any machine.
  const waitingForEngine = () => {
    let waiting = false;
    core.scene.traverse((o) => { if (!waiting && o.isUI && H.ops.read.uiLayout(o) === 'engine') waiting = true; });
    return waiting;
  };
  while (waitingForEngine() && realNow() < deadline) await new Promise((r) => realSetTimeout(r, 10));
  const ui = [];
  core.scene.traverse((o) => {
    if (!o.isUI) return;
    for (let a = o; a; a = a.parent) if (!a.visible) return;
    if (typeof o.text === 'string' && !o.text.trim()) return;  // empty text has no size to lay out
    if (!H.ops.read.uiRect(o)) ui.push(o.name || o.constructor.name);
  });
  // Timers already due on the virtual clock (a setTimeout(0) a font load or a layout pass queued
  // while time stood still) run only at the next step: work still waiting to happen.
  let timers = 0;
  if (H.clock.virtual) for (const timer of H.clock.timers.values()) if (timer.due <= H.clock.now) timers++;
  return {scripts: pending().length, ui, fetching: H.fetching || 0, timers};
}
