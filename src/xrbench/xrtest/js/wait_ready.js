// Operation (see kernel.js) (fn, {timeoutMs}): wait until XR Blocks finished (or failed) initialising.
// Returns {status, error?, lifecycle, ...}; status is one of
//   'ready'       window.xbReady resolved and every Script initialised
//   'script-init-failed'  xbReady resolved, but a Script's init() threw (the SDK swallows it)
//   'rejected'    window.xbReady rejected (xb.init failed; the Core disposes itself)
//   'app-error'   the page threw before calling xb.init (module failed to load or main threw)
//   'no-xrblocks' the page loaded but never imported XR Blocks with ?debug=1
//   'harness-missing' XR Blocks started but the harness page module never registered (tampering)
//   'timeout'     none of the above within timeoutMs
async ({timeoutMs}) => {
  const t0 = realNow();
  const state = H;
  const left = () => timeoutMs - (realNow() - t0);
  const sleep = (ms) => new Promise((resolve) => realSetTimeout(resolve, ms));
  const loaded = () => document.readyState === 'complete';
  let loadedAt = null;
  const describe = (e) => String((e && (e.stack || e.message)) || e);

  const finish = (result) => {
    const core = H.xb && H.xb.core;
    return Object.assign(result, {
      lifecycle: core ? core.lifecycle : null,
      simulatorRunning: core ? !!core.simulatorRunning : false,
      initCalled: !!state.initCalled,
      pageErrors: (state.errors || []).map((e) => e.message),
      scriptErrors: state.scriptErrors || [],
      elapsedMs: realNow() - t0,
    });
  };

  // The harness's own reference once it registered (the page may not see the debug globals).
  const xbReady = () => H.xbReady || window.xbReady;
  while (true) {
    if (xbReady()) break;
    if (loaded()) {
      loadedAt ??= realNow();
      if ((state.errors || []).length) return finish({status: 'app-error'});
      // A module may still import xrblocks dynamically; give it a moment.
      if (realNow() - loadedAt > 3000) return finish({status: 'no-xrblocks'});
    }
    if (left() <= 0) return finish({status: 'timeout'});
    await sleep(20);
  }

  let settled = null;
  // Wakes the loop the moment xbReady settles; the 20 ms ticks only watch for errors and time.
  const settling = xbReady().then(() => { settled = {status: 'ready'}; },
                                       (e) => { settled = {status: 'rejected', error: describe(e)}; });
  while (!settled) {
    // The app threw before calling xb.init: xbReady would never settle.
    if (!state.initCalled && loaded() && (state.errors || []).length) {
      loadedAt ??= realNow();
      if (realNow() - loadedAt > 250) return finish({status: 'app-error'});
    }
    if (left() <= 0) return finish({status: 'timeout'});
    await Promise.race([sleep(20), settling]);
  }
  // The harness page module must have run before the app (it registers while the page loads).
  if (!state.registered) return finish({status: 'harness-missing'});
  if (settled.status === 'ready') {
    // Scripts whose init() failed while the app started (see harness.js); the SDK carries on.
    const failed = (state.scriptErrors || []).filter((e) => e.context === 'init');
    const manager = H.xb.core.scriptsManager;
    const failedCount = manager && manager.failedScripts ? manager.failedScripts.size : failed.length;
    if (failed.length || failedCount) {
      return finish({status: 'script-init-failed', failedScripts: Math.max(failed.length, failedCount),
                     error: failed.length ? `${failed[0].script}.init threw: ${failed[0].message}`
                                          : `${failedCount} script(s) failed to initialise`});
    }
  }
  return finish(settled);
}
