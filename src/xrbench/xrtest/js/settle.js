// Operation (see kernel.js) (fn, {timeoutMs}) -> {scripts, ui}: waits (wall clock, virtual time paused) for
// the Scripts XR Blocks is still initialising, then reports what is not ready yet: the count of
// Scripts still initialising, the names of visible UI elements not laid out, and fetches running.
async ({timeoutMs}) => {
  const core = H.xb.core;
  const manager = core.scriptsManager;
  const pending = () => (manager && manager.pendingInitializations
    ? [...manager.pendingInitializations.values()].map((entry) => entry.promise) : []);
  const deadline = performance.now() + timeoutMs;
  // An initialisation can add more Scripts' initialisations (init() that awaits a child's).
  for (let p = pending(); p.length && performance.now() < deadline; p = pending()) {
    await Promise.race([Promise.allSettled(p), new Promise((r) => setTimeout(r, Math.max(0, deadline - performance.now())))]);
  }
  await new Promise((r) => setTimeout(r, 0));  // let the tasks those initialisations queued run
  const ui = [];
  core.scene.traverse((o) => {
    if (!o.isUI) return;
    for (let a = o; a; a = a.parent) if (!a.visible) return;
    if (typeof o.text === 'string' && !o.text.trim()) return;  // empty text has no size to lay out
    if (!H.ops.read.uiRect(o)) ui.push(o.name || o.constructor.name);
  });
  return {scripts: pending().length, ui, fetching: H.fetching || 0};
}
