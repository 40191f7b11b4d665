// Runs before any page script (Playwright init script), after init.js. Finds three.js scenes and
// renderers without importing three: three.js announces every Scene and WebGLRenderer it
// constructs to `window.__THREE_DEVTOOLS__` (the hook of the three.js DevTools extension), so this
// works whatever URL or bundle the app loads three.js from. Renderers are wrapped to remember the
// last scene and camera they rendered, which tells the app's scene apart from helper scenes (e.g.
// the room @iwer/sem renders with its own bundled three.js).
(() => {
  const state = window.__xrtest;
  if (!state || state.three) return;
  const three = {scenes: [], renderers: [], revision: null};
  Object.defineProperty(state, 'three', {value: three, enumerable: false});
  if (typeof window.__THREE_DEVTOOLS__ !== 'undefined') return;  // a real DevTools hook: leave it alone
  const hook = new EventTarget();
  Object.defineProperty(window, '__THREE_DEVTOOLS__', {value: hook, configurable: true});
  hook.addEventListener('register', (event) => { three.revision = event.detail && event.detail.revision; });
  hook.addEventListener('observe', (event) => {
    const object = event.detail;
    if (!object) return;
    if (object.isScene) {
      three.scenes.push(object);
    } else if (object.isWebGLRenderer || object.isWebGPURenderer) {
      const entry = {renderer: object, lastScene: null, lastCamera: null, renders: 0};
      three.renderers.push(entry);
      const render = object.render;
      if (typeof render === 'function') {
        object.render = function (scene, camera) {
          entry.lastScene = scene;
          entry.lastCamera = camera;
          entry.renders += 1;
          return render.apply(this, arguments);
        };
      }
    }
  });
})();
