// The harness's page module, inserted by the workspace right after the import map so that it
// runs before the app's own modules. It shares the app's `xrblocks` and `three` instances (same
// import map), and hooks Core.init to apply per-session settings chosen in Python (scene,
// rendering shortcuts) after the app has built its Options, so the harness's choice wins.
import * as THREE from 'three';
import * as xb from 'xrblocks';

const state = window.__xrtest || {config: {}, errors: [], resourceErrors: [], scriptErrors: [], frames: 0};
const config = state.config || {};
Object.defineProperty(state, 'THREE', {value: THREE, enumerable: false});

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// Deep-assign plain data onto an Options tree, keeping class instances (and their methods).
function assignDeep(target, patch) {
  for (const [key, value] of Object.entries(patch)) {
    if (isPlainObject(value) && isPlainObject(target[key])) assignDeep(target[key], value);
    else target[key] = value;
  }
}

function applyOverrides(options) {
  if (!options) return;
  if (config.antialias === false) options.antialias = false;
  if (config.renderToRenderTexture === false && options.simulator) {
    options.simulator.renderToRenderTexture = false;
  }
  if (config.deviceCamera === false && options.simulator?.deviceCamera) {
    options.simulator.deviceCamera.enabled = false;
  }
  if (config.scene && options.simulator) {
    options.simulator.environments = [{name: config.scene.title, manifestPath: config.scene.manifestPath}];
    options.simulator.activeEnvironmentIndex = 0;
  }
  if (isPlainObject(config.options)) assignDeep(options, config.options);
}

const core = xb.core;
const originalInit = core.init.bind(core);
core.init = (options) => {
  state.initCalled = true;
  applyOverrides(options);
  state.appliedOptions = {
    antialias: options?.antialias,
    renderToRenderTexture: options?.simulator?.renderToRenderTexture,
    environments: options?.simulator?.environments?.map((e) => e.name ?? e.manifestPath),
  };
  // Paused before the first frame: the app's update() then runs only when Python steps, so two
  // sessions see exactly the same sequence of frame times.
  if (config.pauseAtStart) {
    core.pause();
    // Steps then pass virtual times (dt, 2dt, ...) to THREE.Timer, which subtracts the
    // performance.now() of its construction: the first getDeltaTime() would be negative and
    // differ between runs. Counting from zero makes every delta exactly dt.
    const timer = core.timer;
    if (timer && typeof timer._startTime === 'number') {
      timer._startTime = 0;
      timer._previousTime = 0;
      timer._currentTime = 0;
    }
  }
  return originalInit(options);
};

// Count frames that actually ran (the render loop keeps ticking while paused but returns early).
const originalUpdate = core.update;
if (typeof originalUpdate === 'function') {
  core.update = (time, frame) => {
    if (!core.isPaused || core.isSteppingFrame) state.frames++;
    return originalUpdate(time, frame);
  };
}

// XR Blocks initialises scripts with Promise.allSettled: a Script whose init() throws is quietly
// marked failed and xb.init still resolves, with nothing logged. Wrap the per-script init to keep
// the error (initScriptFunction is a constructor parameter property, so it is a plain field).
const scriptsManager = core.scriptsManager;
if (scriptsManager && typeof scriptsManager.initScriptFunction === 'function') {
  const originalInitScript = scriptsManager.initScriptFunction;
  scriptsManager.initScriptFunction = async (script) => {
    try {
      return await originalInitScript(script);
    } catch (error) {
      state.scriptErrors.push({
        script: script.name || script.constructor.name,
        context: 'init',
        message: String((error && (error.stack || error.message)) || error),
        duringStartup: state.initSettled === undefined || state.initSettled === null,
      });
      throw error;
    }
  };
}

scriptsManager?.addEventListener?.('exception', (event) => {
  const error = event.error;
  state.scriptErrors.push({
    script: event.scriptName,
    context: event.context,
    message: String((error && (error.stack || error.message)) || error),
  });
});

if (window.xbReady) {
  window.xbReady.then(
    () => { state.initSettled = 'ready'; },
    (error) => {
      state.initSettled = 'rejected';
      state.initError = String((error && (error.stack || error.message)) || error);
    });
}
