// The IWER backend's page module, inserted by `IWERSession` right after the import map so that it
// runs before the app's own module scripts. It installs Meta's Immersive Web Emulation Runtime as
// `navigator.xr` (an emulated Quest), optionally loads an @iwer/sem room, takes over the XR frame
// loop so that Python can step frames in virtual time, and records what each XR frame shows
// (viewer pose, input sources, 25 joints per hand, detected planes and meshes).
//
// Frame stepping. IWER drives an XR session from `session[P_SESSION].onDeviceFrame`, which
// reschedules itself with the page's requestAnimationFrame and runs the app's XR frame callbacks
// with `performance.now()` as the frame time. The harness swaps that property for a gate: while
// paused, nothing reschedules it, and `step()` calls IWER's original tick directly, once per frame,
// cancelling the browser frame each tick asks for. `performance.now()` reads a virtual clock from
// the moment the session is adopted (paused), advanced by exactly dtMs per step, so the frame times
// the app sees, THREE.Clock deltas and IWER's own animation deltas are identical between runs.
import {XRDevice, directionTo, lookRotation, metaQuest2, metaQuest3, metaQuestPro, oculusQuest1, P_SESSION, P_SPACE}
  from 'iwer';

const DEVICES = {metaQuest3, metaQuest2, metaQuestPro, oculusQuest1};
const HANDS = ['left', 'right'];

const state = window.__xrtest;
const config = (state && state.config && state.config.iwer) || {};
const realNow = performance.now.bind(performance);
const describe = (e) => String((e && (e.stack || e.message)) || e);

const iwer = {
  device: null,
  session: null,
  mode: null,
  ended: false,
  sessions: 0,            // XR sessions adopted so far (an app may exit and re-enter XR)
  ready: false,           // the runtime is installed and the room (if any) has loaded
  readyError: null,
  environment: null,
  frames: 0,              // XR animation frames delivered to the page
  appFrameRequests: 0,    // XRSession.requestAnimationFrame calls by the app
  frameErrors: [],        // exceptions thrown by the app's XR frame callbacks
  sessionErrors: [],
  appSpaceType: null,
  last: null,             // readings of the latest XR frame
  clock: {running: !config.pauseAtStart, virtual: false, time: 0, offset: 0},
};
if (state) Object.defineProperty(state, 'iwer', {value: iwer, enumerable: false});

// --- time -----------------------------------------------------------------------------------

// One clock for the page: real time (plus an offset that keeps it monotonic after a pause) while
// the XR loop runs freely, virtual time while it is paused and stepped.
performance.now = () => (iwer.clock.virtual ? iwer.clock.time : realNow() + iwer.clock.offset);

function enterVirtualTime(origin) {
  const clock = iwer.clock;
  if (clock.virtual) return;
  clock.time = Math.max(origin ?? 0, realNow() + clock.offset);
  clock.virtual = true;
}

// --- runtime --------------------------------------------------------------------------------

const device = new XRDevice(DEVICES[config.device] || metaQuest3, {stereoEnabled: !!config.stereo});
device.installRuntime({forceInstall: true});
device.primaryInputMode = config.inputMode || 'controller';
iwer.device = device;

const roomLoaded = (async () => {
  if (!config.environment) return;
  // The ES build bundles the rooms as chunks it imports on demand: no network needed (the UMD
  // build would fetch the captures from unpkg).
  const {SyntheticEnvironmentModule} = await import('@iwer/sem');
  device.installSEM(SyntheticEnvironmentModule);
  await device.sem.loadDefaultEnvironment(config.environment);
  iwer.environment = config.environment;
})();
roomLoaded.then(
  () => { iwer.ready = true; },
  (error) => { iwer.readyError = describe(error); iwer.ready = true; });

const xr = navigator.xr;
const requestSession = xr.requestSession.bind(xr);
xr.requestSession = async (mode, init) => {
  // An app may ask for a session before the room has loaded; AR frames need the room.
  await roomLoaded.catch(() => {});
  try {
    const session = await requestSession(mode, init);
    adopt(session, mode);
    return session;
  } catch (error) {
    iwer.sessionErrors.push(describe(error));
    throw error;
  }
};

// --- the session's frame loop -----------------------------------------------------------------

function adopt(session, mode) {
  const internal = session[P_SESSION];
  if (!internal || typeof internal.onDeviceFrame !== 'function') {
    // Another IWER release: the frame loop cannot be stepped. Say so rather than run freely.
    throw new Error('xrtest: this IWER build has no per-session onDeviceFrame to drive (iwer 2.5.0 expected)');
  }
  const tick = internal.onDeviceFrame;
  iwer.session = session;
  iwer.mode = mode;
  iwer.ended = false;
  iwer.sessions += 1;
  iwer.appFrameRequests = 0;
  iwer.internal = internal;
  iwer.tick = tick;
  iwer.appSpace = null;
  iwer.ownSpace = null;
  // The browser-driven entry point: runs IWER's tick only while the clock runs freely. IWER's tick
  // reschedules `internal.onDeviceFrame`, i.e. this gate.
  internal.onDeviceFrame = () => {
    if (!iwer.clock.running || internal.ended) return;
    tick();
  };
  // The constructor already asked for a browser frame with the original tick: replace it.
  cancelAnimationFrame(internal.deviceFrameHandle);
  internal.deviceFrameHandle = undefined;
  if (iwer.clock.running) internal.deviceFrameHandle = requestAnimationFrame(internal.onDeviceFrame);
  else enterVirtualTime(config.timeOriginMs);

  const raf = session.requestAnimationFrame.bind(session);
  session.requestAnimationFrame = (callback) => {
    iwer.appFrameRequests += 1;
    return raf((time, frame) => {
      try {
        return callback(time, frame);
      } catch (error) {
        iwer.frameErrors.push({frame: iwer.frames, message: describe(error)});
        throw error;  // IWER reports it on the console and carries on, like a browser
      }
    });
  };
  const requestReferenceSpace = session.requestReferenceSpace.bind(session);
  session.requestReferenceSpace = async (type) => {
    const space = await requestReferenceSpace(type);
    // The app's first non-viewer space is the frame it renders in: readers and actors use it.
    if (type !== 'viewer' && !iwer.appSpace) {
      iwer.appSpace = space;
      iwer.appSpaceType = type;
    }
    return space;
  };
  // Until the app has a space of its own, the harness reads frames in local-floor (or local).
  const enabled = session.enabledFeatures || [];
  requestReferenceSpace(enabled.includes('local-floor') ? 'local-floor' : 'local').then((space) => {
    iwer.ownSpace = space;
    iwer.ownSpaceType = enabled.includes('local-floor') ? 'local-floor' : 'local';
  }, () => {});
  // The harness's own frame callback, first in every frame: it counts frames and records poses.
  const observe = (time, frame) => {
    raf(observe);
    iwer.frames += 1;
    try {
      iwer.last = readFrame(time, frame);
    } catch (error) {
      iwer.last = {frame: iwer.frames, error: describe(error)};
    }
  };
  raf(observe);
  session.addEventListener('end', () => {
    // Back to real (monotonic) time for the page; `clock.running` is kept, so a session the app
    // enters next starts paused again if this one was paused.
    iwer.ended = true;
    leaveVirtualTime();
  }, {once: true});
}

function leaveVirtualTime() {
  const clock = iwer.clock;
  if (!clock.virtual) return;
  clock.offset = Math.max(0, clock.time - realNow());
  clock.virtual = false;
}

function requireSession() {
  if (!iwer.session) throw new Error('no XR session: the app has not entered XR');
  if (iwer.ended) throw new Error('the XR session has ended');
  return iwer.session;
}

iwer.pause = () => {
  const session = requireSession();
  if (!iwer.clock.running) return;
  iwer.clock.running = false;
  cancelAnimationFrame(session[P_SESSION].deviceFrameHandle);
  session[P_SESSION].deviceFrameHandle = undefined;
  enterVirtualTime();
};

iwer.resume = () => {
  const session = requireSession();
  if (iwer.clock.running) return;
  leaveVirtualTime();
  iwer.clock.running = true;
  session[P_SESSION].deviceFrameHandle = requestAnimationFrame(session[P_SESSION].onDeviceFrame);
};

iwer.step = ({frames, dtMs}) => {
  const session = requireSession();
  iwer.pause();
  const internal = session[P_SESSION];
  const before = iwer.frames;
  for (let i = 0; i < frames; i++) {
    iwer.clock.time += dtMs;
    iwer.tick();
    // Each tick asks the browser for the next frame; stepping decides when that is.
    cancelAnimationFrame(internal.deviceFrameHandle);
    internal.deviceFrameHandle = undefined;
    if (iwer.ended) break;
  }
  return {frames: iwer.frames, ran: iwer.frames - before, time: iwer.clock.time};
};

// --- reading frames ---------------------------------------------------------------------------

const vec = (p) => [p.x, p.y, p.z];
const quat = (q) => [q.x, q.y, q.z, q.w];
const poseOf = (pose) => pose && {position: vec(pose.transform.position), quaternion: quat(pose.transform.orientation)};

function readFrame(time, frame) {
  const space = iwer.appSpace || iwer.ownSpace;
  const out = {frame: iwer.frames, time, space: iwer.appSpace ? iwer.appSpaceType : iwer.ownSpaceType,
               viewer: null, inputSources: [], hands: {}, planes: null, meshes: null, planeLabels: []};
  if (!space) return out;
  const viewer = frame.getViewerPose(space);
  if (viewer) out.viewer = {...poseOf(viewer), views: viewer.views.length};
  for (const source of frame.session.inputSources) {
    const entry = {handedness: source.handedness, targetRayMode: source.targetRayMode,
                   profiles: Array.from(source.profiles || []), hand: !!source.hand,
                   targetRay: poseOf(frame.getPose(source.targetRaySpace, space)),
                   grip: source.gripSpace ? poseOf(frame.getPose(source.gripSpace, space)) : null,
                   buttons: source.gamepad ? Array.from(source.gamepad.buttons, (b) => b.value) : []};
    out.inputSources.push(entry);
    if (source.hand) {
      const joints = {};
      for (const [name, jointSpace] of source.hand.entries()) {
        const pose = frame.getJointPose(jointSpace, space);
        if (pose) joints[name] = {...poseOf(pose), radius: pose.radius};
      }
      out.hands[source.handedness] = joints;
    }
  }
  try {
    out.planes = frame.detectedPlanes.size;
    out.planeLabels = Array.from(frame.detectedPlanes, (p) => p.semanticLabel || null);
    out.meshes = frame.detectedMeshes.size;
  } catch {
    // plane or mesh detection not enabled
  }
  return out;
}

// --- driving the emulated device --------------------------------------------------------------
//
// Positions and orientations from Python are in the app's reference space (the frame the readers
// report in). IWER keeps devices in its global space, which equals local-floor; for other spaces
// (e.g. 'local', anchored at the headset's pose when the app asked for it) convert.

function spaceMatrix(space) {
  // The space's pose in IWER's global space: the product of offset matrices up the parent chain.
  let m = identity();
  for (let s = space; s && s[P_SPACE]; s = s[P_SPACE].parentSpace) m = multiply(s[P_SPACE].offsetMatrix, m);
  return m;
}

function identity() {
  return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
}

function multiply(a, b) {  // column-major 4x4: a * b
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    let sum = 0;
    for (let k = 0; k < 4; k++) sum += a[k * 4 + r] * b[c * 4 + k];
    out[c * 4 + r] = sum;
  }
  return out;
}

function matrixQuat(m) {  // rotation part of a rigid column-major matrix as [x, y, z, w]
  const [m00, m10, m20, , m01, m11, m21, , m02, m12, m22] = m;
  const trace = m00 + m11 + m22;
  let x, y, z, w;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    w = 0.25 / s; x = (m21 - m12) * s; y = (m02 - m20) * s; z = (m10 - m01) * s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    w = (m21 - m12) / s; x = 0.25 * s; y = (m01 + m10) / s; z = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    w = (m02 - m20) / s; x = (m01 + m10) / s; y = 0.25 * s; z = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    w = (m10 - m01) / s; x = (m02 + m20) / s; y = (m12 + m21) / s; z = 0.25 * s;
  }
  return [x, y, z, w];
}

function quatMultiply(a, b) {
  const [ax, ay, az, aw] = a, [bx, by, bz, bw] = b;
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
          aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}

function appToGlobal(position, quaternion) {
  const space = iwer.appSpace || iwer.ownSpace;
  if (!space) return {position, quaternion};
  const m = spaceMatrix(space);
  const p = position && [
    m[0] * position[0] + m[4] * position[1] + m[8] * position[2] + m[12],
    m[1] * position[0] + m[5] * position[1] + m[9] * position[2] + m[13],
    m[2] * position[0] + m[6] * position[1] + m[10] * position[2] + m[14]];
  const q = quaternion && quatMultiply(matrixQuat(m), quaternion);
  return {position: p, quaternion: q};
}

function globalToApp(position, quaternion) {
  const space = iwer.appSpace || iwer.ownSpace;
  if (!space) return {position, quaternion};
  const m = spaceMatrix(space);
  const t = [position[0] - m[12], position[1] - m[13], position[2] - m[14]];
  // Inverse of a rigid transform: transpose of the rotation.
  const p = [m[0] * t[0] + m[1] * t[1] + m[2] * t[2], m[4] * t[0] + m[5] * t[1] + m[6] * t[2],
             m[8] * t[0] + m[9] * t[1] + m[10] * t[2]];
  const r = matrixQuat(m);
  const q = quaternion && quatMultiply([-r[0], -r[1], -r[2], r[3]], quaternion);
  return {position: p, quaternion: q};
}

function tracked(id) {
  if (id === 'headset') return device;
  const [kind, hand] = id.split('-');
  if (!HANDS.includes(hand)) throw new Error(`unknown device ${id}`);
  const input = kind === 'hand' ? device.hands[hand] : kind === 'controller' ? device.controllers[hand] : null;
  if (!input) throw new Error(`unknown device ${id}`);
  return input;
}

iwer.getTransform = ({device: id}) => {
  const input = tracked(id);
  const {position, quaternion} = globalToApp(
    [input.position.x, input.position.y, input.position.z],
    [input.quaternion.x, input.quaternion.y, input.quaternion.z, input.quaternion.w]);
  return {position, quaternion};
};

iwer.setTransform = ({device: id, position, quaternion}) => {
  const input = tracked(id);
  const g = appToGlobal(position, quaternion);
  if (g.position) input.position.set(g.position[0], g.position[1], g.position[2]);
  if (g.quaternion) input.quaternion.set(g.quaternion[0], g.quaternion[1], g.quaternion[2], g.quaternion[3]);
  return iwer.getTransform({device: id});
};

// The orientation that points a device's -Z axis from `from` at `target` (app space, +Y up).
iwer.lookRotation = ({from, target}) => {
  const g = appToGlobal(from, null).position;
  const t = appToGlobal(target, null).position;
  const dir = directionTo({x: g[0], y: g[1], z: g[2]}, {x: t[0], y: t[1], z: t[2]});
  const q = lookRotation(dir);
  return globalToApp(g, [q.x, q.y, q.z, q.w]).quaternion;
};

function slerp(a, b, t) {
  let [bx, by, bz, bw] = b;
  let cos = a[0] * bx + a[1] * by + a[2] * bz + a[3] * bw;
  if (cos < 0) { cos = -cos; bx = -bx; by = -by; bz = -bz; bw = -bw; }  // the short way round
  let wa = 1 - t, wb = t;
  if (cos < 0.9995) {
    const angle = Math.acos(cos), sin = Math.sin(angle);
    wa = Math.sin((1 - t) * angle) / sin;
    wb = Math.sin(t * angle) / sin;
  }
  const q = [wa * a[0] + wb * bx, wa * a[1] + wb * by, wa * a[2] + wb * bz, wa * a[3] + wb * bw];
  const n = Math.hypot(...q);
  return q.map((v) => v / n);
}

// Move a device to a pose over `frames` stepped frames (linear position, spherical rotation), so
// the app sees a continuous motion; frames = 0 sets the pose without stepping. With `carry`, a
// moving headset takes the hands and controllers along (the whole user walks).
iwer.animate = ({device: id, position = null, quaternion = null, frames = 0, dtMs = 1000 / 60, carry = false}) => {
  const start = iwer.getTransform({device: id});
  const apply = (p, q) => {
    if (p && id === 'headset' && carry) iwer.teleport({position: p, carry: true});
    else if (p) iwer.setTransform({device: id, position: p});
    if (q) iwer.setTransform({device: id, quaternion: q});
  };
  if (frames <= 0) {
    apply(position, quaternion);
    return iwer.getTransform({device: id});
  }
  for (let i = 1; i <= frames; i++) {
    const t = i / frames;
    apply(position && start.position.map((v, k) => v + (position[k] - v) * t),
          quaternion && slerp(start.quaternion, quaternion, t));
    iwer.step({frames: 1, dtMs});
  }
  return iwer.getTransform({device: id});
};

// Move the headset; hands and controllers keep their place relative to it when `carry` is set
// (the whole user moves, as with a teleport).
iwer.teleport = ({position, carry = true}) => {
  const head = iwer.getTransform({device: 'headset'}).position;
  const delta = position.map((v, k) => v - head[k]);
  iwer.setTransform({device: 'headset', position});
  if (carry) {
    const ids = HANDS.map((h) => `hand-${h}`).concat(HANDS.filter((h) => device.controllers[h]).map((h) => `controller-${h}`));
    for (const id of ids) {
      const p = iwer.getTransform({device: id}).position;
      iwer.setTransform({device: id, position: p.map((v, k) => v + delta[k])});
    }
  }
  return iwer.getTransform({device: 'headset'});
};

iwer.setInputMode = ({mode}) => {
  if (mode !== 'hand' && mode !== 'controller') throw new Error(`input mode must be 'hand' or 'controller'`);
  device.primaryInputMode = mode;
  return device.primaryInputMode;
};

iwer.setPinch = ({hand, value}) => {
  device.hands[hand].updatePinchValue(value);
  return value;
};

iwer.setButton = ({hand, button, value}) => {
  const controller = device.controllers[hand];
  if (!controller) throw new Error(`no ${hand} controller`);
  controller.updateButtonValue(button, value);
  return value;
};

iwer.setAxes = ({hand, x, y}) => {
  const controller = device.controllers[hand];
  if (!controller) throw new Error(`no ${hand} controller`);
  controller.updateAxes('thumbstick', x, y);
  return [x, y];
};

// IWER's remote-control API queues commands and runs them in frames. While paused, step one frame
// at a time and yield a macrotask in between (the command's promise settles in a microtask chain)
// until it settles; while running, frames come by themselves.
const yieldTask = () => new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => resolve();
  channel.port2.postMessage(0);
});

iwer.remoteCall = async ({method, params = {}, maxFrames = 600, dtMs = 1000 / 60}) => {
  let settled = null;
  device.remote.dispatch(method, params).then(
    (value) => { settled = {ok: true, value: value ?? null}; },
    (error) => { settled = {ok: false, error: describe(error)}; });
  await yieldTask();
  for (let i = 0; !settled && i < maxFrames; i++) {
    if (iwer.clock.running) await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    else iwer.step({frames: 1, dtMs});
    await yieldTask();
  }
  return settled || {ok: false, error: `no answer within ${maxFrames} frames`};
};

iwer.deviceState = () => ({
  inputMode: device.primaryInputMode,
  headset: iwer.getTransform({device: 'headset'}),
  hands: Object.fromEntries(HANDS.map((h) => [h, {...iwer.getTransform({device: `hand-${h}`}),
                                                  pinch: device.hands[h].pinchValue}])),
  controllers: Object.fromEntries(HANDS.filter((h) => device.controllers[h]).map((h) => [h, iwer.getTransform({device: `controller-${h}`})])),
});

iwer.endSession = async () => {
  await requireSession().end();
  return true;
};

iwer.status = () => ({
  ready: iwer.ready,
  readyError: iwer.readyError,
  environment: iwer.environment,
  device: device.name,
  session: !!iwer.session,
  mode: iwer.mode,
  ended: iwer.ended,
  sessions: iwer.sessions,
  running: iwer.clock.running,
  virtualTime: iwer.clock.virtual ? iwer.clock.time : null,
  frames: iwer.frames,
  appFrameRequests: iwer.appFrameRequests,
  appSpaceType: iwer.appSpaceType,
  inputMode: device.primaryInputMode,
  frameErrors: iwer.frameErrors,
  sessionErrors: iwer.sessionErrors,
  pageErrors: ((state && state.errors) || []).map((e) => e.message),
  resourceErrors: (state && state.resourceErrors) || [],
  enabledFeatures: iwer.session ? Array.from(iwer.session.enabledFeatures || []) : [],
});
