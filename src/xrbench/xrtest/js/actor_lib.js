// Init script (after init.js): the harness's actors, as `window.__xrtest.act.*`.
//
// Every action drives XR Blocks' desktop simulator the way its own tools do (the simulator's
// hands and controller state, `moveUser`, the objects manager; see the EmbodiedControl addon)
// and advances time only with `core.stepFrame(dt)` on the paused core, so the same calls give
// the same frames on any machine. Motions are spread over frames: a hand moves at most
// `maxStep` metres per frame, because XR Blocks drops a grab when the hand jumps (~0.2 m).
(() => {
  const state = H;

  const T = () => state.THREE;
  const core = () => H.xb.core;
  const sim = () => {
    const s = core().simulator;
    if (!s) throw new Error('the XR Blocks simulator is not running (is this a desktop session?)');
    return s;
  };

  /**
   * The one way the harness moves time: n frames of dt ms, timers and frame callbacks first.
   * `last`: whether the call's last frame may be its operation's last (then it is drawn in full;
   * the others are thin frames, kernel.js). A loop of one-frame calls passes it for its last.
   */
  function stepFrames(n, dt, last = true) {
    const c = core();
    if (c.lifecycle !== 'running') throw new Error(`cannot step: core is ${c.lifecycle}`);
    if (!c.isPaused) c.pause();
    H.gateSimulator(c.simulator);
    freezeClock();
    try {
      for (let i = 0; i < n; i++) {
        advanceClock(dt);  // timers and frame callbacks due by this frame's time (kernel.js)
        H.draw.full = last && i === n - 1;
        c.stepFrame(dt);
      }
    } finally {
      H.draw.full = false;
    }
    return n;
  }

  const vec = (a) => new (T().Vector3)(a[0], a[1], a[2]);

  // Objects whose world positions an action samples after every frame (see `track`).
  function tracker(uuids) {
    const c = core();
    const objects = (uuids || []).map((uuid) =>
      c.scene.getObjectByProperty('uuid', uuid) ||
      (c.simulator && c.simulator.simulatorScene.getObjectByProperty('uuid', uuid)) || null);
    const samples = objects.map(() => []);
    return {
      samples,
      sample(extra) {
        objects.forEach((o, i) => {
          samples[i].push(o ? o.getWorldPosition(new (T().Vector3)()).toArray() : null);
        });
        if (extra) extra();
      },
    };
  }

  // --- hands ------------------------------------------------------------------------------

  function handParts(index) {
    const s = sim();
    const c = core();
    return {
      s, c,
      controllerMesh: index === 0 ? s.hands.leftController : s.hands.rightController,
      local: s.simulatorControllerState.localControllerPositions[index],
      orientation: s.simulatorControllerState.localControllerOrientations[index],
      tip: c.input.hands[index] && c.input.hands[index].joints &&
        c.input.hands[index].joints['index-finger-tip'],
    };
  }

  function worldPos(object) {
    object.updateWorldMatrix(true, false);
    return object.getWorldPosition(new (T().Vector3)());
  }

  /** Camera-local controller position that puts the hand's `anchor` at world point `to`. */
  function controllerTargetLocal(parts, to, anchor) {
    const camera = parts.c.camera;
    camera.updateMatrixWorld(true);
    const desired = vec(to);
    if (anchor === 'fingertip') {
      if (!parts.tip) throw new Error('the hand has no joints yet (step a frame first)');
      // The fingertip's offset from the controller, at the current pose and orientation.
      desired.sub(worldPos(parts.tip).sub(worldPos(parts.controllerMesh)));
    }
    return desired.applyMatrix4(camera.matrixWorldInverse);
  }

  /** Move one hand gradually so that its `anchor` ('controller' | 'fingertip') ends at `to`. */
  function moveHand({hand, to, anchor = 'controller', maxStep = 0.01, dt, track = [], minFrames = 1}) {
    const parts = handParts(hand);
    const t = tracker(track);
    const anchorSamples = [];
    const anchorObject = anchor === 'fingertip' ? parts.tip : parts.controllerMesh;
    let frames = 0;
    // Two passes: the fingertip's offset from the controller drifts while a pose is still
    // settling, so the second pass corrects what the first one left (usually < 1 mm).
    for (let pass = 0; pass < 2; pass++) {
      const start = parts.local.clone();
      const goal = controllerTargetLocal(parts, to, anchor);
      const distance = start.distanceTo(goal);
      if (pass === 1 && distance < 5e-4) break;
      const n = Math.max(pass === 0 ? minFrames : 1, Math.ceil(distance / maxStep));
      for (let i = 1; i <= n; i++) {
        parts.local.lerpVectors(start, goal, i / n);
        frames += stepFrames(1, dt, i === n);
        t.sample(() => anchorSamples.push(worldPos(anchorObject).toArray()));
      }
    }
    return {frames, samples: t.samples, anchor: anchorSamples,
            position: worldPos(parts.controllerMesh).toArray(),
            fingertip: parts.tip ? worldPos(parts.tip).toArray() : null};
  }

  /** Turn one hand's ray (the controller's -Z) towards world point `at`, gradually. */
  function pointHand({hand, at, maxAngleStep = 0.05, dt}) {
    const parts = handParts(hand);
    const camera = parts.c.camera;
    camera.updateMatrixWorld(true);
    const targetLocal = vec(at).applyMatrix4(camera.matrixWorldInverse);
    // Matrix4.lookAt(eye, target, up) builds the camera convention: -Z from eye to target.
    const m = new (T().Matrix4)().lookAt(parts.local, targetLocal, new (T().Vector3)(0, 1, 0));
    const goal = new (T().Quaternion)().setFromRotationMatrix(m);
    const start = parts.orientation.clone();
    const n = Math.max(1, Math.ceil(start.angleTo(goal) / maxAngleStep));
    for (let i = 1; i <= n; i++) {
      parts.orientation.slerpQuaternions(start, goal, i / n);
      stepFrames(1, dt, i === n);
    }
    return {frames: n};
  }

  /** Turn one hand by Euler angles [pitch, yaw, roll] (radians, 'YXZ', in its own frame), gradually. */
  function rotateHand({hand, euler, maxAngleStep = 0.05, dt}) {
    const parts = handParts(hand);
    const start = parts.orientation.clone();
    const turn = new (T().Quaternion)().setFromEuler(new (T().Euler)(euler[0], euler[1], euler[2], 'YXZ'));
    const goal = start.clone().multiply(turn);
    const angle = start.angleTo(goal);
    const n = angle < 1e-9 ? 0 : Math.max(1, Math.ceil(angle / maxAngleStep));
    for (let i = 1; i <= n; i++) {
      parts.orientation.slerpQuaternions(start, goal, i / n);
      stepFrames(1, dt, i === n);
    }
    return {frames: n};
  }

  function setPose({hand, pose, frames = 0, dt}) {
    const hands = sim().hands;
    if (hand === 0) hands.setLeftHandLerpPose(pose); else hands.setRightHandLerpPose(pose);
    return {frames: stepFrames(frames, dt)};
  }

  function setRotations({hand, rotations, constraints = true, merge = true, frames = 0, dt}) {
    const hands = sim().hands;
    const current = hand === 0 ? hands.leftHandTargetRotations : hands.rightHandTargetRotations;
    const merged = merge ? {...current, ...rotations} : rotations;
    if (hand === 0) hands.setLeftHandRotations(merged, constraints);
    else hands.setRightHandRotations(merged, constraints);
    return {frames: stepFrames(frames, dt)};
  }

  /** Show or hide one hand. Hidden = not tracked: invisible and its input source disconnected. */
  function setHandVisible({hand, visible, frames = 1, dt}) {
    const {s, c, controllerMesh} = handParts(hand);
    controllerMesh.visible = visible;
    if (c.input.hands[hand]) c.input.hands[hand].visible = visible;
    const controller = c.input.controllers[hand];
    const handedness = hand === 0 ? 'left' : 'right';
    const connected = !!controller.userData.connected;
    if (connected !== visible) {
      // What the simulator does for both hands when it switches hands off and on.
      c.input.dispatchEvent({type: visible ? 'connected' : 'disconnected', target: controller,
                             data: {handedness}});
    }
    s.hands.updateHandPosePanel?.();
    return {frames: stepFrames(frames, dt)};
  }

  /** A controller button: 'select' or 'squeeze', 'start' or 'end', without changing the pose. */
  function button({hand, kind, phase, frames = 1, dt}) {
    const c = core();
    const controller = c.input.controllers[hand];
    const type = kind + (phase === 'start' ? 'start' : 'end');
    c.input.dispatchEvent({type, target: controller, data: {handedness: hand === 0 ? 'left' : 'right'}});
    return {frames: stepFrames(frames, dt)};
  }

  // --- head -------------------------------------------------------------------------------

  function headTeleport({position, lookAt = null, frames = 1, dt}) {
    const camera = core().camera;
    camera.position.copy(vec(position));  // a teleport ignores the navmesh
    if (lookAt) camera.lookAt(vec(lookAt));
    camera.updateMatrixWorld(true);
    return {frames: stepFrames(frames, dt)};
  }

  /** Rotate the head gradually to the yaw/pitch (radians, 'YXZ') or to look at a point. */
  function headTurn({yaw = null, pitch = null, lookAt = null, relative = false, maxAngleStep = 0.05, dt}) {
    const camera = core().camera;
    const start = camera.quaternion.clone();
    let goal;
    if (lookAt) {
      const saved = camera.quaternion.clone();
      camera.lookAt(vec(lookAt));
      goal = camera.quaternion.clone();
      camera.quaternion.copy(saved);
    } else {
      const e = new (T().Euler)().setFromQuaternion(start, 'YXZ');
      const y = yaw === null ? e.y : (relative ? e.y + yaw : yaw);
      let x = pitch === null ? e.x : (relative ? e.x + pitch : pitch);
      const limit = Math.PI / 2 - 0.01;  // as the simulator's own mouse look
      x = Math.max(-limit, Math.min(limit, x));
      goal = new (T().Quaternion)().setFromEuler(new (T().Euler)(x, y, 0, 'YXZ'));
    }
    const angle = start.angleTo(goal);
    const n = angle < 1e-9 ? 0 : Math.max(1, Math.ceil(angle / maxAngleStep));  // no turn, no frame
    for (let i = 1; i <= n; i++) {
      camera.quaternion.slerpQuaternions(start, goal, i / n);
      stepFrames(1, dt, i === n);
    }
    return {frames: n};
  }

  /** Walk the head through world points at `maxStep` m per frame (navmesh-aware). */
  function headWalk({path, maxStep, face = true, maxAngleStep = 0.05, dt}) {
    const s = sim();
    const camera = core().camera;
    let frames = 0;
    for (const point of path) {
      const goal = vec(point);
      if (face) {
        // Turn towards the next point first, gradually (the hands turn with the head).
        const dir = goal.clone().sub(camera.position);
        if (dir.x * dir.x + dir.z * dir.z > 1e-8) {
          frames += headTurn({yaw: Math.atan2(-dir.x, -dir.z), maxAngleStep, dt}).frames;
        }
      }
      const start = camera.position.clone();
      const n = Math.max(1, Math.ceil(start.distanceTo(goal) / maxStep));
      for (let i = 1; i <= n; i++) {
        s.moveUser(new (T().Vector3)().lerpVectors(start, goal, i / n));
        frames += stepFrames(1, dt, i === n);
      }
    }
    return {frames, position: camera.position.toArray()};
  }

  // --- simulated physical objects ---------------------------------------------------------

  function toLocal(object, position) {
    const p = vec(position);
    if (object.parent) {
      object.parent.updateWorldMatrix(true, false);
      object.parent.worldToLocal(p);
    }
    return p.toArray();
  }

  /** Add a labelled box to the simulated room; `position` is its centre in world coordinates. */
  async function addObject({id, label, size, position, color = '#b0b0b0', detect = true}) {
    const Three = T();
    const mesh = new Three.Mesh(new Three.BoxGeometry(size[0], size[1], size[2]),
                                new Three.MeshStandardMaterial({color}));
    mesh.name = id;
    mesh.userData.xrblocksDevtools = {tag: label, state: {id, physical: true}};
    const objects = sim().objects;
    await objects.addObjects([{id, object: mesh, label, detectObject: detect, data: {label}}]);
    // The manager keeps objects in the environment's group, which a manifest may offset.
    await objects.updateObjects([{id, position: toLocal(mesh, position)}]);
    return {id, uuid: mesh.uuid};
  }

  async function updateObject({id, position = null, visible = null}) {
    const objects = sim().objects;
    const [record] = objects.get([id]);
    if (!record) throw new Error(`no simulated object with id '${id}'`);
    const update = {id};
    if (position) update.position = toLocal(record.object, position);
    if (visible !== null) update.visible = visible;
    await objects.updateObjects([update]);
    return {id};
  }

  function removeObject({id}) {
    sim().objects.removeObjects([id]);
    return {id};
  }

  // --- plane detection ---------------------------------------------------------------------
  // The simulator reports its room's planes before the first frame. A test that needs them to
  // arrive later, as a headset's detection finds them over time, withholds them and delivers them
  // when it chooses: the simulator's own plane objects, in the order it reported them.
  // [{key, record}]: what detection handed over and the kernel's record of it, so a plane delivered
  // later is reported as it was withheld, whatever the page did to the simulator's objects meanwhile.
  let withheld = [];

  function planeDetector() {
    const detector = core().world && core().world.planes;
    if (!detector) throw new Error('the app did not enable plane detection (xb.world.planes is missing)');
    for (const name of ['setSimulatorPlanes', '_addSimulatorPlaneMesh', '_removePlaneMesh', 'get']) {
      if (hasOwn(detector, name)) tamper(`the plane detector has its own ${name}()`);
    }
    return detector;
  }

  const describePlane = ({record}) => ({label: record.label, type: record.orientation, position: [...record.position]});

  function withholdPlanes() {
    const detector = planeDetector();
    if (!detector.usingSimulatorPlanes) throw new Error('the simulator has reported no planes to withhold');
    for (const [key, entry] of H.planes) if (entry.detector === detector) withheld.push({key, record: entry.record});
    detector.setSimulatorPlanes([]);
    return {withheld: withheld.map(describePlane)};
  }

  function deliverPlanes({labels = null}) {
    const detector = planeDetector();
    const now = withheld.filter((p) => !labels || labels.includes(p.record.label));
    withheld = withheld.filter((p) => !now.includes(p));
    for (const {key, record} of now) {
      detector._addSimulatorPlaneMesh(key);
      H.planes.set(key, {detector, record});
    }
    return {delivered: now.map(describePlane), withheld: withheld.map(describePlane)};
  }

  // A plane the test describes (a scene planes file's format, checked by the Python side), as
  // XR Blocks' simulator hands it to the detector: polygon in the plane's local x/z, +Y its normal.
  function addPlanes({planes}) {
    const detector = planeDetector();
    const added = planes.map((p) => {
      const key = {
        type: p.type, label: p.label, area: p.area,
        position: vec(p.position),
        quaternion: new (T().Quaternion)(...p.quaternion),
        polygon: p.polygon.map(([x, y]) => new (T().Vector2)(x, y)),
      };
      detector._addSimulatorPlaneMesh(key);
      const entry = H.planes.get(key);
      if (!entry) throw new Error(`the plane detector did not add plane ${p.label}`);
      return entry;
    });
    return {added: added.map(describePlane)};
  }

  // --- depth sensing -------------------------------------------------------------------------
  // The simulator renders depth from the first frames on; a headset's depth arrives later, and
  // reads 0 wherever it knows nothing. While depth is withheld every depth image the app receives
  // reads 0 everywhere (same size, pose and projection as the simulator's); `deliverDepth` hands
  // the simulator's own images over again, the next one rendered at the next frame.
  let depthGate = null;

  function gateDepth() {
    const depth = core().depth;
    if (!depth || !depth.options || !depth.options.enabled) {
      throw new Error('the app did not enable depth sensing (options.enableDepth())');
    }
    if (depthGate && depthGate.depth === depth) return depthGate;
    if (hasOwn(depth, 'updateCPUDepthData')) tamper('the depth object has its own updateCPUDepthData()');
    const original = depth.updateCPUDepthData;
    const gate = {depth, withheld: false, blank: (data) => ({...data, data: new ArrayBuffer(data.data.byteLength)})};
    // Every image reaches the app through this method (its array, textures and depth mesh).
    defineProperty(depth, 'updateCPUDepthData', {
      value: function updateCPUDepthData(data, ...rest) {
        return apply(original, this, [gate.withheld && data ? gate.blank(data) : data, ...rest]);
      },
      writable: false, configurable: false, enumerable: false,
    });
    depthGate = gate;
    return gate;
  }

  function withholdDepth() {
    const gate = gateDepth();
    gate.withheld = true;
    const last = gate.depth.cpuDepthData && gate.depth.cpuDepthData[0];
    // What the app already has is taken back at once: the last image again, reading 0.
    if (last) gate.depth.updateCPUDepthData(last, 0, 'float32');
    return {withheld: true, hadDepth: !!last};
  }

  function deliverDepth() {
    const gate = gateDepth();
    gate.withheld = false;
    // The simulator skips rendering depth while nothing moves; make it render at the next frame.
    const simDepth = sim().depth;
    if (simDepth && 'lastDepthUpdateMs' in simDepth) simDepth.lastDepthUpdateMs = -Infinity;
    return {withheld: false};
  }

  state.ops.act = {stepFrames, moveHand, pointHand, rotateHand, setPose, setRotations, setHandVisible, button,
               headTeleport, headTurn, headWalk, addObject, updateObject, removeObject, withholdPlanes,
               deliverPlanes, addPlanes, withholdDepth, deliverDepth};
})();
