// Runs before any page script (Playwright init script). The Python side prepends
// `window.__xrtestConfig = {...};`. Records errors the page raises so the harness can tell an
// app that failed to load from one that is still starting.
(() => {
  if (window.__xrtest) return;
  const state = {
    config: window.__xrtestConfig || {},
    errors: [],          // uncaught exceptions and unhandled rejections
    resourceErrors: [],  // <script>/<img>/<link> elements that failed to load
    scriptErrors: [],    // exceptions XR Blocks caught inside Script hooks
    initCalled: false,
    initSettled: null,   // null | 'ready' | 'rejected'
    initError: null,
    frames: 0,
  };
  Object.defineProperty(window, '__xrtest', {value: state, writable: false, enumerable: false});
  const describe = (value) => {
    if (value instanceof Error) return String(value.stack || `${value.name}: ${value.message}`);
    try { return typeof value === 'string' ? value : JSON.stringify(value); } catch { return String(value); }
  };
  window.addEventListener('error', (event) => {
    if (event instanceof ErrorEvent) {
      state.errors.push({kind: 'error', message: describe(event.error ?? event.message),
                         source: event.filename || '', line: event.lineno || 0});
    } else if (event.target && event.target !== window) {
      const t = event.target;
      state.resourceErrors.push({tag: (t.tagName || '').toLowerCase(), url: t.src || t.href || ''});
    }
  }, true);
  // Fetches still running (counted here, synchronously, so `settle` cannot miss one that the
  // browser has not reported yet).
  state.fetching = 0;
  const fetch = window.fetch;
  window.fetch = function (...args) {
    state.fetching++;
    let settled = false;
    const done = () => { if (!settled) { settled = true; state.fetching--; } };
    try {
      const pending = fetch.apply(this, args);
      pending.then(done, done);
      return pending;
    } catch (e) {
      done();
      throw e;
    }
  };
  window.addEventListener('unhandledrejection', (event) => {
    state.errors.push({kind: 'unhandledrejection', message: describe(event.reason), source: '', line: 0});
  });
})();
