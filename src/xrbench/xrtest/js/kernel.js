// The harness kernel: the first part of the one init script (see `harness_script` in
// session.py), which runs before any script of the page. Everything the harness reads, acts and
// steps with lives in this closure, out of the page's reach; the page sees only
// `window.__xrtest`, a frozen gateway whose `run(name, argsJson)` is the one way in (Python calls
// it over CDP, and gets a JSON string back).
//
// The candidate app runs in the same page and may try to change what the harness sees. So:
// - the built-ins the harness uses are bound here, before any page script, and a table of the
//   built-in methods they rely on is checked before every call: a replaced or wrapped one is
//   tampering;
// - three.js and XR Blocks are captured by the harness page module (harness.js, the first module
//   of the page, before the app's own), which proves itself with a per-session token it is served
//   with exactly once; their class prototypes (and the core's own hooks) join the table;
// - any write to the gateway, or any touch of what is not on it, is recorded as tampering.
// A run that finds tampering throws `XRTEST_TAMPERING: <what>`, which Python raises as
// `TamperingError`. The session's settings arrive as `CONFIG` and `TOKEN` (prepended by Python).

// Built-ins, bound before any page script can replace the globals.
const {
  Object, Array, JSON, Math, Number, String, Boolean, Reflect, Promise, Map, Set, WeakMap, WeakSet,
  Symbol, Error, TypeError, Proxy, Function, Float32Array, Date, EventTarget, ErrorEvent,
  AudioScheduledSourceNode, AudioBufferSourceNode, OscillatorNode, AudioParam, HTMLMediaElement,
  HTMLVideoElement, Uint8Array,
} = globalThis;
const btoa = globalThis.btoa.bind(globalThis);
const {apply, ownKeys, getPrototypeOf} = Reflect;
const {freeze, defineProperty, getOwnPropertyDescriptor} = Object;
const stringify = JSON.stringify;
const hasOwn = Object.hasOwn;

const H = {
  config: CONFIG,
  errors: [],          // uncaught exceptions and unhandled rejections
  resourceErrors: [],  // <script>/<img>/<link> elements that failed to load
  scriptErrors: [],    // exceptions XR Blocks caught inside Script hooks
  initCalled: false,
  initSettled: null,   // null | 'ready' | 'rejected'
  initError: null,
  appliedOptions: null,
  frames: 0,
  fetching: 0,         // fetches still running (counted synchronously, for `settle`)
  eventLog: null,      // interaction events, once `read.install` ran
  registered: false,   // the harness page module ran and proved itself
  THREE: null,
  xb: null,
  audio: [],           // every sound the page started: {kind, frame, frequency, duration, stop_frame}
  tampered: [],        // what was found changed, in words
  ops: {},             // name -> function(args); `run` dispatches here
};

function tamper(what) {
  if (H.tampered.length < 20 && !H.tampered.includes(what)) H.tampered.push(what);
}

// --- the integrity table --------------------------------------------------------------------------
// Flat arrays (holder, key, kind, value, label): checking them is one loop of descriptor reads.
const holders = [], tableKeys = [], kinds = [], values = [], labels = [];

function keyName(key) {
  return typeof key === 'symbol' ? `[${String(key.description)}]` : String(key);
}

// holder -> Map(kind + key -> index): pinning a property again (the harness wrapping a hook it
// pinned earlier) updates its entry.
const pinned = new WeakMap();

function pinEntry(holder, key, kind, value, label) {
  let byKey = pinned.get(holder);
  if (!byKey) pinned.set(holder, byKey = new Map());
  let byKind = byKey.get(key);
  if (!byKind) byKey.set(key, byKind = {});
  if (hasOwn(byKind, kind)) { values[byKind[kind]] = value; return; }
  byKind[kind] = holders.length;
  holders.push(holder); tableKeys.push(key); kinds.push(kind); values.push(value); labels.push(label);
}

/** Record every function-valued own property (and accessor) of `holder` as it is now. */
function pin(holder, label, skip = null) {
  if (holder === null || (typeof holder !== 'object' && typeof holder !== 'function')) return;
  for (const key of ownKeys(holder)) {
    if (skip && skip.has(key)) continue;
    const d = getOwnPropertyDescriptor(holder, key);
    if (!d) continue;
    for (const kind of ['value', 'get', 'set']) {
      if (typeof d[kind] !== 'function') continue;
      pinEntry(holder, key, kind, d[kind], `${label}.${keyName(key)}${kind === 'value' ? '' : ` (${kind}ter)`}`);
    }
  }
}

/** Record one own property (any value) of `holder`; it must keep this exact value. */
function pinValue(holder, key, label) {
  const d = getOwnPropertyDescriptor(holder, key);
  pinEntry(holder, key, 'value', d ? d.value : undefined, label);
}

// Prototypes whose own key sets must not grow: a getter or setter added there (say
// `Object.prototype.toJSON`) would change what plain harness objects serialise to.
const sealedKeys = [];

// Instances the harness calls methods on (the core, its scripts manager): a function added to
// one later would shadow its class's method without touching anything pinned.
const instances = [];

function pinInstance(object, label) {
  pin(object, label);
  const known = new Set(ownKeys(object));
  const existing = instances.findIndex((entry) => entry[0] === object);
  if (existing >= 0) instances[existing][1] = known;
  else instances.push([object, known, label]);
}

function checkTable() {
  for (let i = 0; i < holders.length; i++) {
    const d = getOwnPropertyDescriptor(holders[i], tableKeys[i]);
    if (!d || d[kinds[i]] !== values[i]) tamper(`${labels[i]} was replaced`);
  }
  for (const [object, known, label] of instances) {
    for (const key of ownKeys(object)) {
      if (known.has(key)) continue;
      const d = getOwnPropertyDescriptor(object, key);
      // Only a shadowing function counts: the SDK adds plain fields (and callbacks of its own)
      // to these objects while it starts.
      const shadows = Reflect.has(getPrototypeOf(object), key);
      if (d && shadows && (typeof d.value === 'function' || d.get || d.set)) tamper(`${label}.${keyName(key)} was added`);
    }
  }
  for (const [holder, count, label] of sealedKeys) {
    if (ownKeys(holder).length !== count) tamper(`${label} gained or lost properties`);
  }
}

// Intrinsics the harness code calls, directly or through the engine. Math.random and the clocks
// are left out: an app may seed or replace them for its own use without touching what we see.
const ArrayIteratorPrototype = getPrototypeOf([][Symbol.iterator]());
const TypedArrayPrototype = getPrototypeOf(Float32Array.prototype);
for (const [holder, label, skip] of [
  [Object, 'Object'], [Object.prototype, 'Object.prototype'], [Array, 'Array'],
  [Array.prototype, 'Array.prototype'], [ArrayIteratorPrototype, 'ArrayIterator.prototype'],
  [Function.prototype, 'Function.prototype'], [JSON, 'JSON'], [Math, 'Math', new Set(['random'])],
  [Number, 'Number'], [Number.prototype, 'Number.prototype'], [String, 'String'],
  [String.prototype, 'String.prototype'], [Boolean.prototype, 'Boolean.prototype'], [Reflect, 'Reflect'],
  [Promise, 'Promise'], [Promise.prototype, 'Promise.prototype'], [Map.prototype, 'Map.prototype'],
  [Set.prototype, 'Set.prototype'], [WeakMap.prototype, 'WeakMap.prototype'],
  [WeakSet.prototype, 'WeakSet.prototype'], [Symbol, 'Symbol'], [Error, 'Error'],
  [Error.prototype, 'Error.prototype'], [TypedArrayPrototype, 'TypedArray.prototype'],
  [EventTarget.prototype, 'EventTarget.prototype'],
]) pin(holder, label, skip);
for (const [holder, label] of [
  [Object.prototype, 'Object.prototype'], [Array.prototype, 'Array.prototype'],
  [Function.prototype, 'Function.prototype'], [Number.prototype, 'Number.prototype'],
  [String.prototype, 'String.prototype'], [Boolean.prototype, 'Boolean.prototype'],
]) sealedKeys.push([holder, ownKeys(holder).length, label]);

// Method names the readers and actors call on the app's own objects: an own property of that
// name on such an object (shadowing three's method) is tampering.
const GUARDED_METHODS = ['updateWorldMatrix', 'updateMatrixWorld', 'updateMatrix', 'traverse',
  'getWorldPosition', 'getWorldQuaternion', 'getWorldScale', 'decompose', 'getHexString', 'getHex',
  'getAttribute', 'computeBoundingBox', 'fromBufferAttribute', 'applyMatrix4', 'getX', 'toArray'];
// Fields the readers take at face value: they must stay plain data, not getters.
const GUARDED_FIELDS = ['matrixWorld', 'visible', 'parent', 'children', 'material', 'geometry', 'userData'];

/** Tampering when `object` shadows a guarded method or turned a guarded field into an accessor. */
function guard(object, what) {
  if (object === null || typeof object !== 'object') return object;
  for (const name of GUARDED_METHODS) {
    if (hasOwn(object, name) && typeof getOwnPropertyDescriptor(object, name).value === 'function') {
      tamper(`${what} has its own ${name}()`);
    }
  }
  for (const name of GUARDED_FIELDS) {
    const d = getOwnPropertyDescriptor(object, name);
    if (d && !hasOwn(d, 'value')) tamper(`${what}.${name} is an accessor`);
  }
  return object;
}

/** Tampering when a component (x, y, z, w, r, g, b, elements) of a three value is an accessor. */
function guardData(value, what) {
  if (value === null || typeof value !== 'object') return value;
  guard(value, what);
  for (const name of ['x', 'y', 'z', 'w', '_x', '_y', '_z', '_w', 'r', 'g', 'b', 'elements']) {
    const d = getOwnPropertyDescriptor(value, name);
    if (d && !hasOwn(d, 'value')) tamper(`${what}.${name} is an accessor`);
  }
  return value;
}

// --- page observation that must start before the page --------------------------------------------
const describe = (value) => {
  if (value instanceof Error) return String(value.stack || `${value.name}: ${value.message}`);
  try { return typeof value === 'string' ? value : stringify(value); } catch { return String(value); }
};
globalThis.addEventListener('error', (event) => {
  if (event instanceof ErrorEvent) {
    H.errors.push({kind: 'error', message: describe(event.error ?? event.message),
                   source: event.filename || '', line: event.lineno || 0});
  } else if (event.target && event.target !== globalThis) {
    const t = event.target;
    H.resourceErrors.push({tag: (t.tagName || '').toLowerCase(), url: t.src || t.href || ''});
  }
}, true);
globalThis.addEventListener('unhandledrejection', (event) => {
  H.errors.push({kind: 'unhandledrejection', message: describe(event.reason), source: '', line: 0});
});
{
  const pageFetch = globalThis.fetch;
  globalThis.fetch = function (...args) {
    H.fetching++;
    let settled = false;
    const done = () => { if (!settled) { settled = true; H.fetching--; } };
    try {
      const pending = apply(pageFetch, this, args);
      pending.then(done, done);
      return pending;
    } catch (e) {
      done();
      throw e;
    }
  };
}

// Every sound the page starts (a Web Audio source node, an <audio> element), with the frame it
// started in and its pitch where it can be measured: wrapped here, before any page script, and
// pinned, so an app can neither hide a sound nor invent one without really starting it.
{
  const AUDIO_LOG_LIMIT = 10000;
  // The value last given to each AudioParam: a suspended AudioContext (no user gesture in a
  // headless page) applies no scheduled value, so `frequency.value` would still read the default.
  const given = new WeakMap();
  const param = (p, fallback) => (!p ? fallback : given.has(p) ? given.get(p) : p.value);
  const cents = (node) => Math.pow(2, param(node.detune, 0) / 1200);
  // A sampled note's pitch: rising zero crossings over its first second.
  const bufferPitch = (node) => {
    const buffer = node.buffer;
    if (!buffer || !buffer.length) return null;
    const data = buffer.getChannelData(0);
    const n = Math.min(data.length, Math.round(buffer.sampleRate));
    let crossings = 0, first = -1, last = -1;
    for (let i = 1; i < n; i++) {
      if (data[i - 1] < 0 && data[i] >= 0) {
        crossings += 1;
        if (first < 0) first = i;
        last = i;
      }
    }
    if (crossings < 3) return null;
    return (crossings - 1) * buffer.sampleRate / (last - first) * param(node.playbackRate, 1) * cents(node);
  };
  const isOscillator = (node) => OscillatorNode && node instanceof OscillatorNode;
  const isBuffer = (node) => AudioBufferSourceNode && node instanceof AudioBufferSourceNode;
  // A started Web Audio source: its log entry and when (audio-clock seconds) it starts sounding.
  const started = new WeakMap();
  const at = (node, when) => {
    const now = node.context ? node.context.currentTime : 0;
    return Number.isFinite(when) && when > now ? when : now;
  };
  // How long a buffer plays when nothing stops it: to its end (null when it loops).
  const bufferLength = (node, offset, duration) => {
    if (Number.isFinite(duration)) return Math.max(0, duration);
    if (node.loop || !node.buffer) return null;
    const rate = param(node.playbackRate, 1) * cents(node);
    return rate > 0 ? Math.max(0, node.buffer.duration - (Number.isFinite(offset) ? offset : 0)) / rate : null;
  };
  const record = (node, kind, args) => {
    if (H.audio.length >= AUDIO_LOG_LIMIT) return;
    let frequency = null, duration = null;
    try {
      if (isOscillator(node)) frequency = param(node.frequency, null) * cents(node);
      else if (isBuffer(node)) {
        frequency = bufferPitch(node);
        duration = bufferLength(node, args[1], args[2]);
      }
    } catch { /* an unreadable pitch is unknown, not an error of the app */ }
    const entry = {kind, frame: H.frames, frequency: Number.isFinite(frequency) ? frequency : null,
                   duration, start_delay: 0, stop_frame: null, stop_delay: null};
    H.audio.push(entry);
    if (kind !== 'media') {
      try {
        const start = at(node, args[0]);
        entry.start_delay = Math.max(0, start - (node.context ? node.context.currentTime : 0));
        started.set(node, {entry, start, natural: duration});
      } catch { /* not a node */ }
    }
  };
  // stop(): in the frame the sound started it fixes the sound's length (what XR Blocks'
  // playTone and most apps do: start now, stop at now + duration); in a later frame the log
  // keeps that frame (virtual time) and when after it the sound ends. Web Audio applies only the
  // last stop() of a source, so a later one is logged even when the first fixed a length.
  const recordStop = (node, when) => {
    const s = started.get(node);
    if (!s) return;
    const now = node.context ? node.context.currentTime : 0;
    // A sound that has already ended is not stopped again (its last stop() stays the one logged).
    const fixedEnd = s.entry.duration === null ? Infinity : s.start + s.entry.duration;
    const stoppedEnd = s.entry.stop_frame === null ? Infinity : s.stopCalled + s.entry.stop_delay;
    if (s.entry.frame !== H.frames && Math.min(fixedEnd, stoppedEnd) <= now) return;
    const end = Math.max(0, at(node, when) - s.start);
    if (s.entry.frame === H.frames) {
      s.entry.duration = s.natural === null ? end : Math.min(s.natural, end);
    } else {
      s.entry.stop_frame = H.frames;
      s.entry.stop_delay = Math.max(0, at(node, when) - now);
      s.stopCalled = now;
    }
  };
  const replace = (proto, key, label, descriptor) => {
    defineProperty(proto, key, descriptor);
    if (descriptor.value) pinValue(proto, key, label);
    else pin(proto, label);
  };
  const wrapStart = (proto, key, label) => {
    if (!proto || !hasOwn(proto, key) || typeof proto[key] !== 'function') return;
    const original = proto[key];
    const wrapped = {
      [key](...args) {
        // The simulator's camera feed is a <video>: not a sound.
        if (!(HTMLVideoElement && this instanceof HTMLVideoElement)) {
          record(this, isOscillator(this) ? 'oscillator' : isBuffer(this) ? 'buffer'
            : HTMLMediaElement && this instanceof HTMLMediaElement ? 'media' : 'source', args);
        }
        return apply(original, this, args);
      },
    }[key];
    replace(proto, key, label, {value: wrapped, writable: true, configurable: true, enumerable: false});
  };
  wrapStart(AudioScheduledSourceNode && AudioScheduledSourceNode.prototype, 'start',
            'AudioScheduledSourceNode.prototype.start');
  wrapStart(AudioBufferSourceNode && AudioBufferSourceNode.prototype, 'start', 'AudioBufferSourceNode.prototype.start');
  wrapStart(HTMLMediaElement && HTMLMediaElement.prototype, 'play', 'HTMLMediaElement.prototype.play');
  if (AudioScheduledSourceNode && typeof AudioScheduledSourceNode.prototype.stop === 'function') {
    const stop = AudioScheduledSourceNode.prototype.stop;
    replace(AudioScheduledSourceNode.prototype, 'stop', 'AudioScheduledSourceNode.prototype.stop', {
      value: {stop(...args) {
        try { recordStop(this, args[0]); } catch { /* the log never breaks the app's audio */ }
        return apply(stop, this, args);
      }}.stop,
      writable: true, configurable: true, enumerable: false,
    });
  }
  if (AudioParam) {
    const proto = AudioParam.prototype;
    const value = getOwnPropertyDescriptor(proto, 'value');
    if (value && value.get && value.set) {
      replace(proto, 'value', 'AudioParam.prototype', {
        configurable: true, enumerable: value.enumerable, get: value.get,
        set(v) { given.set(this, Number(v)); apply(value.set, this, [v]); },
      });
    }
    const original = proto.setValueAtTime;
    if (typeof original === 'function') {
      replace(proto, 'setValueAtTime', 'AudioParam.prototype.setValueAtTime', {
        value: function setValueAtTime(v, ...rest) {
          given.set(this, Number(v));
          return apply(original, this, [v, ...rest]);
        },
        writable: true, configurable: true, enumerable: false,
      });
    }
  }
}

// --- GPU readbacks -------------------------------------------------------------------------------
// An asynchronous pixel readback (three.js readRenderTargetPixelsAsync, which XR Blocks' simulated
// depth uses) polls a GPU fence with clientWaitSync(timeout 0) on a timer until the GPU is done.
// On the virtual clock that made the number of frames a readback takes depend on how fast the
// machine's (software) GPU is. Under virtual time a fence not yet signalled is waited for in
// wall-clock time instead (gl.finish: every command issued so far has completed, the fence's
// included), so a readback completes at its first poll on every machine.
{
  const WebGL2 = globalThis.WebGL2RenderingContext;
  const proto = WebGL2 && WebGL2.prototype;
  if (proto && typeof proto.clientWaitSync === 'function' && typeof proto.finish === 'function') {
    const original = proto.clientWaitSync;
    const finish = proto.finish;
    const {TIMEOUT_EXPIRED, CONDITION_SATISFIED} = WebGL2;
    defineProperty(proto, 'clientWaitSync', {
      value: function clientWaitSync(...args) {
        const status = apply(original, this, args);
        if (status !== TIMEOUT_EXPIRED || !clock.virtual) return status;
        apply(finish, this, []);
        return CONDITION_SATISFIED;
      },
      writable: true, configurable: true, enumerable: false,
    });
    pinValue(proto, 'clientWaitSync', 'WebGL2RenderingContext.prototype.clientWaitSync');
  }
  // Thin frames (see `H.draw`): while the simulator draws one, the XR Blocks renderer's draws and
  // clears aimed at the page's canvas are dropped; everything else it does (state, uploads, render
  // target passes) goes through.
  if (proto) {
    const {FRAMEBUFFER, DRAW_FRAMEBUFFER} = WebGL2;
    const bindFramebuffer = proto.bindFramebuffer;
    defineProperty(proto, 'bindFramebuffer', {
      value: function bindFramebuffer_(target, framebuffer) {
        if (this === H.draw.gl && (target === FRAMEBUFFER || target === DRAW_FRAMEBUFFER)) {
          H.draw.onCanvas = framebuffer === null;
        }
        return apply(bindFramebuffer, this, [target, framebuffer]);
      },
      writable: true, configurable: true, enumerable: false,
    });
    for (const name of ['drawArrays', 'drawElements', 'drawArraysInstanced', 'drawElementsInstanced',
                        'drawRangeElements', 'clear', 'blitFramebuffer']) {
      const original = proto[name];
      if (typeof original !== 'function') continue;
      defineProperty(proto, name, {
        value: function (...args) {
          if (H.draw.dropping && this === H.draw.gl && H.draw.onCanvas) return undefined;
          return apply(original, this, args);
        },
        writable: true, configurable: true, enumerable: false,
      });
    }
  }
  // The rest of the context's methods too: `xr.picture` reads pixels through them.
  if (proto) pin(proto, 'WebGL2RenderingContext.prototype');
}

// --- the virtual clock ------------------------------------------------------------------------------
// Once the session is paused (`H.ops.pause`), time moves only when Python steps: the page's
// performance.now(), Date.now(), setTimeout/setInterval and requestAnimationFrame follow the virtual
// clock, so an app that measures its own frame time or waits on a timer behaves the same in every
// run and as it would on a headset at that frame rate. Until then (loading and xb.init) they run on
// wall-clock time. The harness itself keeps the real ones (`realNow`, `realSetTimeout`).
const realNow = performance.now.bind(performance);
const realDateNow = Date.now;
const realSetTimeout = globalThis.setTimeout.bind(globalThis);
const realClearTimeout = globalThis.clearTimeout.bind(globalThis);
const realRequestAnimationFrame = globalThis.requestAnimationFrame.bind(globalThis);
const realCancelAnimationFrame = globalThis.cancelAnimationFrame.bind(globalThis);
const dateOrigin = realDateNow() - realNow();
const clock = {
  virtual: false,
  now: 0,            // virtual performance.now(), once virtual
  timers: new Map(), // id -> {callback, args, due, interval (ms or null), real (host handle or null)}
  frames: new Map(), // id -> {callback, real}: requestAnimationFrame callbacks
  nextId: 1,
};
H.clock = clock;
const clockNow = () => (clock.virtual ? clock.now : realNow());

defineProperty(performance, 'now', {
  value: function now() { return clockNow(); }, writable: true, configurable: true, enumerable: true,
});
defineProperty(Date, 'now', {
  value: function now() { return Math.floor(dateOrigin + clockNow()); }, writable: true, configurable: true,
});

function armTimer(id, timer) {
  timer.real = realSetTimeout(() => fireTimer(id), Math.max(0, timer.due - realNow()));
}

function fireTimer(id) {
  const timer = clock.timers.get(id);
  if (!timer) return;
  if (timer.interval === null) clock.timers.delete(id);
  else {
    timer.due += Math.max(1, timer.interval);
    if (!clock.virtual) armTimer(id, timer);
  }
  if (typeof timer.callback === 'function') apply(timer.callback, globalThis, timer.args);
  else (0, eval)(String(timer.callback));  // setTimeout('code'), as the browser allows
}

function addTimer(callback, delay, args, repeat) {
  const ms = Math.max(0, Number(delay) || 0);
  const id = clock.nextId++;
  const timer = {callback, args, due: clockNow() + ms, interval: repeat ? ms : null, real: null};
  clock.timers.set(id, timer);
  if (!clock.virtual) armTimer(id, timer);
  return id;
}

function clearTimer(id) {
  const timer = clock.timers.get(id);
  if (!timer) return;
  if (timer.real !== null) realClearTimeout(timer.real);
  clock.timers.delete(id);
}

for (const [name, value] of [
  ['setTimeout', function setTimeout(callback, delay, ...args) { return addTimer(callback, delay, args, false); }],
  ['setInterval', function setInterval(callback, delay, ...args) { return addTimer(callback, delay, args, true); }],
  ['clearTimeout', function clearTimeout(id) { clearTimer(id); }],
  ['clearInterval', function clearInterval(id) { clearTimer(id); }],
  ['requestAnimationFrame', function requestAnimationFrame(callback) {
    const id = clock.nextId++;
    const entry = {callback, real: null};
    clock.frames.set(id, entry);
    if (!clock.virtual) {
      entry.real = realRequestAnimationFrame(() => {
        clock.frames.delete(id);
        apply(callback, globalThis, [clockNow()]);
      });
    }
    return id;
  }],
  ['cancelAnimationFrame', function cancelAnimationFrame(id) {
    const entry = clock.frames.get(id);
    if (!entry) return;
    if (entry.real !== null) realCancelAnimationFrame(entry.real);
    clock.frames.delete(id);
  }],
]) defineProperty(globalThis, name, {value, writable: true, configurable: true, enumerable: true});

/** From now on, time moves only by `advanceClock`: the host timers and frames are withdrawn. */
function freezeClock() {
  if (clock.virtual) return;
  clock.now = realNow();
  clock.virtual = true;
  for (const timer of clock.timers.values()) {
    if (timer.real !== null) realClearTimeout(timer.real);
    timer.real = null;
  }
  for (const entry of clock.frames.values()) {
    if (entry.real !== null) realCancelAnimationFrame(entry.real);
    entry.real = null;
  }
}

/** Advance virtual time by `ms`: due timers fire in order of due time, then the frame callbacks. */
function advanceClock(ms) {
  const target = clock.now + ms;
  for (;;) {
    let nextId = null, next = null;
    for (const [id, timer] of clock.timers) {
      if (timer.due <= target && (next === null || timer.due < next.due)) { nextId = id; next = timer; }
    }
    if (next === null) break;
    clock.now = Math.max(clock.now, next.due);
    fireTimer(nextId);
  }
  clock.now = target;
  const frames = [...clock.frames.values()];
  clock.frames.clear();
  for (const entry of frames) apply(entry.callback, globalThis, [clock.now]);
}

// --- registration by the harness page module ----------------------------------------------------
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
  const config = H.config;
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

// --- detected planes, as detection reported them ----------------------------------------------------
// A plane's record (label, orientation, world pose, world polygon) is taken in the call in which
// XR Blocks' PlaneDetector adds or updates it, from the data detection handed over, before any
// page code can move, reshape or drop the plane object: the plane readers report these records,
// in the order the planes arrived, so an app cannot change the room the tests compare it with.
H.planes = new Map();  // what detection handed over (simulator plane or XRPlane) -> {detector, record}

// The pose goes through a matrix, as the plane object's world matrix would (the detector sits at
// the world origin): readings equal those of the plane object left alone, normalised quaternion
// included.
function planeRecord(T, kind, label, position, quaternion, points) {
  const matrix = new T.Matrix4().compose(
    new T.Vector3(position.x, position.y, position.z),
    new T.Quaternion(quaternion.x, quaternion.y, quaternion.z, quaternion.w), new T.Vector3(1, 1, 1));
  const p = new T.Vector3(), q = new T.Quaternion();
  matrix.decompose(p, q, new T.Vector3());
  const polygon = points.map((v) => freeze(v.applyMatrix4(matrix).toArray()));
  return freeze({
    label: label ?? null, orientation: kind ? String(kind).toLowerCase() : null,
    position: freeze(p.toArray()), quaternion: freeze(q.toArray()), polygon: freeze(polygon),
  });
}

function watchPlaneDetection(T, xb) {
  const proto = xb.PlaneDetector && xb.PlaneDetector.prototype;
  if (!proto) return;
  const wrap = (key, after) => {
    const original = proto[key];
    if (typeof original !== 'function') return;
    defineProperty(proto, key, {
      value: function (...args) {
        const result = apply(original, this, args);
        after(this, args, result);
        return result;
      },
      writable: true, configurable: true,
    });
  };
  // A simulator plane: polygon in the plane's local x/z (XR Blocks rotates its ShapeGeometry so).
  wrap('_addSimulatorPlaneMesh', (detector, [plane], mesh) => {
    if (!mesh || !plane) return;
    const points = Array.from(plane.polygon, (v) => new T.Vector3(v.x, 0, v.y));
    H.planes.set(plane, {detector, record: planeRecord(T, plane.type, plane.label || plane.type, plane.position,
                                                       plane.quaternion, points)});
  });
  // A WebXR plane: polygon in plane space (x/y/z), pose just set from the frame.
  const fromXR = (detector, mesh, xrPlane) => {
    if (!mesh || !xrPlane) return;
    const points = Array.from(xrPlane.polygon, (v) => new T.Vector3(v.x, v.y, v.z));
    H.planes.set(xrPlane, {detector, record: planeRecord(T, xrPlane.orientation, xrPlane.semanticLabel,
                                                         mesh.position, mesh.quaternion, points)});
  };
  wrap('_addPlaneMesh', (detector, [, xrPlane], mesh) => fromXR(detector, mesh, xrPlane));
  wrap('_updatePlaneMesh', (detector, [, mesh, xrPlane]) => fromXR(detector, mesh, xrPlane));
  wrap('_removePlaneMesh', (detector, [key]) => { H.planes.delete(key); });
}

/** Pin every class prototype a module namespace exports. */
function pinNamespace(ns, label) {
  for (const key of ownKeys(ns)) {
    if (typeof key !== 'string') continue;
    const d = getOwnPropertyDescriptor(ns, key);
    const value = d && d.value;
    if (typeof value === 'function' && value.prototype && typeof value.prototype === 'object') {
      pin(value.prototype, `${label}.${key}.prototype`);
    }
  }
}

/**
 * Called once by harness.js with its token and the namespaces it imported by bare specifier and
 * by absolute path (the same module unless the page redirected the specifier). Hooks Core.init to
 * apply per-session settings after the app has built its Options, so the harness's choice wins.
 */
function register(token, modules) {
  if (H.registered || token !== TOKEN || !modules || typeof modules !== 'object') {
    tamper('the harness page module was impersonated');
    return;
  }
  const {THREE, xb, pinnedThree, pinnedXb} = modules;
  if (THREE !== pinnedThree || xb !== pinnedXb) {
    tamper('the page redirected three or xrblocks away from the pinned modules');
    return;
  }
  H.registered = true;
  H.THREE = THREE;
  H.xb = xb;
  // XR Blocks' debug globals (?debug=1): the harness keeps `xbReady` for itself. A session that
  // loads the app as a user's browser would (`debugGlobals: false`) takes both off the page, so an
  // app that never imported XR Blocks cannot run on the copy the harness imported.
  H.xbReady = globalThis.xbReady || null;
  if (H.config.debugGlobals === false) {
    delete globalThis.xb;
    delete globalThis.xbReady;
  }
  const core = xb.core;
  const originalInit = core.init;
  core.init = (options) => {
    H.initCalled = true;
    applyOverrides(options);
    // XR Blocks says the user is 1.6 m tall (`xb.user.height`) while its simulator puts the eyes
    // at 1.5 m, so an app that places things at `xb.user.height`, as its samples do, would be 10 cm
    // off what the user sees. On a headset the height is the tracked eye height: make them agree
    // before any Script's init() reads it.
    const eye = options?.simulator?.initialCameraPosition?.y;
    if (typeof eye === 'number' && xb.user && typeof xb.user.height === 'number') xb.user.height = eye;
    H.appliedOptions = {
      antialias: options?.antialias,
      renderToRenderTexture: options?.simulator?.renderToRenderTexture,
      environments: options?.simulator?.environments?.map((e) => e.name ?? e.manifestPath),
    };
    // Paused before the first frame: the app's update() then runs only when Python steps, so two
    // sessions see exactly the same sequence of frame times.
    if (H.config.pauseAtStart) {
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
    return apply(originalInit, core, [options]);
  };
  // XR Blocks makes its renderer in initialize() before its first await: pin it and its methods,
  // which three.js defines on the instance, before any of the app's code can reach it.
  const originalInitialize = core.initialize;
  if (typeof originalInitialize === 'function') {
    core.initialize = (options) => {
      const running = apply(originalInitialize, core, [options]);
      const renderer = core.renderer;
      if (renderer instanceof THREE.WebGLRenderer) {
        // `renderer` is an accessor of Core's (pinned with its prototype) over this field.
        if (hasOwn(core, '_renderer')) pinValue(core, '_renderer', 'xb.core.renderer');
        pin(renderer, 'xb.core.renderer');
        H.draw.gl = renderer.getContext();  // the context thin frames drop canvas draws of
      }
      return running;
    };
  }
  // Count frames that actually ran (the render loop keeps ticking while paused but returns early).
  const originalUpdate = core.update;
  if (typeof originalUpdate === 'function') {
    core.update = (time, frame) => {
      if (!core.isPaused || core.isSteppingFrame) H.frames++;
      return apply(originalUpdate, core, [time, frame]);
    };
  }
  // XR Blocks initialises scripts with Promise.allSettled: a Script whose init() throws is quietly
  // marked failed and xb.init still resolves, with nothing logged. Wrap the per-script init to keep
  // the error (initScriptFunction is a constructor parameter property, so it is a plain field).
  const manager = core.scriptsManager;
  if (manager && typeof manager.initScriptFunction === 'function') {
    const originalInitScript = manager.initScriptFunction;
    manager.initScriptFunction = async (script) => {
      try {
        return await originalInitScript(script);
      } catch (error) {
        H.scriptErrors.push({
          script: script.name || script.constructor.name,
          context: 'init',
          message: String((error && (error.stack || error.message)) || error),
          duringStartup: H.initSettled === null,
        });
        throw error;
      }
    };
  }
  manager?.addEventListener?.('exception', (event) => {
    const error = event.error;
    H.scriptErrors.push({
      script: event.scriptName,
      context: event.context,
      message: String((error && (error.stack || error.message)) || error),
    });
  });
  if (H.xbReady) {
    H.xbReady.then(
      () => { H.initSettled = 'ready'; },
      (error) => {
        H.initSettled = 'rejected';
        H.initError = String((error && (error.stack || error.message)) || error);
      });
  }
  watchPlaneDetection(THREE, xb);
  // From here on the app's code runs: pin what the harness relies on as it is now.
  pinNamespace(THREE, 'THREE');
  pinNamespace(xb, 'xb');
  pinInstance(core, 'xb.core');
  for (const key of ['scene', 'camera', 'scriptsManager', 'input', 'user', 'xrSystemsGroup']) {
    const value = hasOwn(core, key) ? core[key] : null;
    if (value !== null && typeof value === 'object') pinValue(core, key, `xb.core.${key}`);
  }
  if (manager) pinInstance(manager, 'xb.core.scriptsManager');
  // The input's own hooks are checked for additions only from `read.install` on, after XR Blocks
  // has finished wiring it up.
  if (core.input) pin(core.input, 'xb.core.input');
}

H.ops.pause = () => { H.xb.core.pause(); freezeClock(); };

// --- thin frames -----------------------------------------------------------------------------------
// A frame stepped inside a harness operation runs all of XR Blocks' update and its whole drawing
// (every render call, with every onBeforeRender/onAfterRender hook an app relies on, every upload
// and every render-target pass such as simulated depth), but the GPU draws and clears aimed at the
// page's canvas are dropped, and so is the simulated device camera's copy of the canvas: nobody
// sees those pixels (the compositor, recordings and screenshots see the canvas only after the
// operation, and a device-camera stream captures only the last copy of a task). Software
// rendering spends most of a frame filling them. While something watches the canvas (a recording
// or trace: `H.config.canvasWatched`), a frame that may be the operation's last (the last of each
// stepping loop, `H.draw.full`) is drawn in full, and should an operation still end on a thin
// frame, that frame is drawn again at its end. Unwatched, every stepped frame is thin, and the
// `draw` operation draws the current one before a screenshot. `XRSession(full_frames=True)` draws
// every frame in full. `frames`: how many stepped frames were drawn each way (for `xr.probe`).
H.draw = {thin: false, full: false, pending: false, dropping: false, gl: null, onCanvas: true,
          frames: {thin: 0, full: 0}};
const gatedSimulators = new WeakSet();

function gateDrawing(object, key, {skip = false, count = false} = {}) {
  const original = object[key];
  if (typeof original !== 'function') return;
  object[key] = function (...args) {
    if (!H.draw.thin || (H.draw.full && H.config.canvasWatched)) {
      H.draw.pending = false;
      if (count) H.draw.frames.full++;
      return apply(original, this, args);
    }
    H.draw.pending = true;
    if (count) H.draw.frames.thin++;
    if (skip) return undefined;
    H.draw.dropping = true;
    try {
      return apply(original, this, args);
    } finally {
      H.draw.dropping = false;
    }
  };
}

/** Put the simulator's drawing behind `H.draw.thin` (once per simulator instance). */
H.gateSimulator = (simulator) => {
  if (!simulator || gatedSimulators.has(simulator)) return;
  gatedSimulators.add(simulator);
  gateDrawing(simulator, 'renderScene');
  gateDrawing(simulator, 'renderSimulatorScene', {count: true});
  // The device camera's copy of the canvas (a 512x512 2D drawImage) that the next copy replaces.
  gateDrawing(simulator, 'onSimulatorSceneRendered', {skip: true});
};

H.ops.draw = () => { flushDrawing(); return true; };

/** Draw the current frame in full if thin frames left the canvas behind, as XR Blocks' update does. */
function flushDrawing() {
  if (!H.draw.pending) return;
  H.draw.pending = false;
  const core = H.xb && H.xb.core;
  if (!core || !core.simulatorRunning || !core.simulator) return;
  const thin = H.draw.thin;
  H.draw.thin = false;
  try {
    core.simulator.renderScene();
    core.simulator.renderSimulatorScene();
  } finally {
    H.draw.thin = thin;
  }
}

// A task test's own read-only probe (`XRSession.probe`): a function `(h, arg) => value` given
// what the harness captured before the app ran, never the page's globals (which the app owns):
// `h.THREE`, `h.xb`, `h.core` (its `scene` and `camera`), `h.frames`, `h.audio` (the sound log)
// and `h.guard(object, what)` (tampering when `object` shadows a method the probe calls or turned
// a field it reads into a getter). The integrity table is checked around it as for any operation.
H.ops.probe = ({source, arg}) => {
  const fn = new Function('h', 'arg', `'use strict'; return (${source})(h, arg);`);
  const core = H.xb.core;
  const view = freeze({
    THREE: H.THREE, xb: H.xb, core, frames: H.frames, guard, drawing: {...H.draw.frames},
    audio: H.audio.map((entry) => ({...entry})),
  });
  return fn(view, arg);
};

// --- the gateway ------------------------------------------------------------------------------------
/** A JSON string of a plain value, built only from bound built-ins. */
function serialize(value) {
  if (value === undefined) return 'null';
  return stringify(value);
}

function check() {
  checkTable();
  if (H.tampered.length) throw new Error(`XRTEST_TAMPERING: ${H.tampered.join('; ')}`);
}

/** Call harness operation `name` ("step", "read.tagged", "act.setPose", ...) with JSON args. */
function run(name, argsJson) {
  check();
  let fn = H.ops;
  for (const part of String(name).split('.')) fn = fn && hasOwn(fn, part) ? fn[part] : undefined;
  if (typeof fn !== 'function') throw new Error(`no harness operation ${name}`);
  const args = argsJson === undefined ? undefined : JSON.parse(argsJson);
  // Frames an operation steps synchronously are thin but its last (see `H.draw`); an asynchronous
  // operation's later steps draw in full as they go.
  H.draw.thin = !H.config.fullFrames;
  let result;
  try {
    result = fn(args);
  } finally {
    H.draw.thin = false;
    if (H.config.canvasWatched) flushDrawing();
  }
  if (result instanceof Promise) {
    return result.then((value) => { check(); return serialize(value); });
  }
  check();
  return serialize(result);
}

// Anything but the gateway's own members is a tripwire: reading it gives a function-shaped proxy
// that records tampering when it is written to, called or constructed.
const tripwire = (path) => new Proxy(function () {}, {
  get: (target, key) => (key === 'prototype' ? target.prototype : tripwire(`${path}.${keyName(key)}`)),
  set: (target, key) => { tamper(`${path}.${keyName(key)} was assigned`); return false; },
  defineProperty: (target, key) => { tamper(`${path}.${keyName(key)} was redefined`); return false; },
  deleteProperty: (target, key) => { tamper(`${path}.${keyName(key)} was deleted`); return false; },
  apply: () => { tamper(`${path}() was called by the page`); return undefined; },
  construct: () => { tamper(`new ${path}() was called by the page`); return {}; },
});

const api = freeze({
  run,
  register,
  // Read-only views some task probes use: the frame counter and the pinned three.js namespace.
  get frames() { return H.frames; },
  get THREE() { return H.THREE; },
});
const gateway = new Proxy(api, {
  get: (target, key) => (hasOwn(target, key) ? target[key] : tripwire(`window.__xrtest.${keyName(key)}`)),
  set: (target, key) => { tamper(`window.__xrtest.${keyName(key)} was assigned`); return false; },
  defineProperty: (target, key) => { tamper(`window.__xrtest.${keyName(key)} was redefined`); return false; },
  deleteProperty: (target, key) => { tamper(`window.__xrtest.${keyName(key)} was deleted`); return false; },
  setPrototypeOf: () => { tamper('window.__xrtest had its prototype changed'); return false; },
});
defineProperty(globalThis, '__xrtest', {
  get: () => gateway,
  set: () => { tamper('window.__xrtest was assigned'); },
  enumerable: false,
  configurable: false,
});
