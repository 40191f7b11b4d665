// Part of the harness init script (after kernel.js): the readers, as operations `read.*`.
//
// Everything here reads the XR Blocks that harness.js registered (`H.xb`), lazily, when Python
// calls it. `install()` wraps XR Blocks' dispatch points to record the app's interaction events
// generically (the app does not cooperate); the session calls it once the core is ready and
// paused, before the first frame. The event log lives in the kernel's closure: the page can
// neither read nor write it.
(() => {
  const state = H;

  const THREE = () => state.THREE;
  const core = () => H.xb.core;

  function handOf(source, fallback) {
    const h = source && source.handedness;
    return h === 'left' || h === 'right' ? h : (fallback || 'none');
  }

  function controllerHand(controller) {
    const c = core();
    const h = controller && (controller.inputSource?.handedness);
    if (h === 'left' || h === 'right') return h;
    const i = c.input.controllers.indexOf(controller);
    return i === 0 ? 'left' : i === 1 ? 'right' : 'none';
  }

  // XR Blocks hook -> event type recorded. Continuous hooks (onHovering, onObjectTouching,
  // onObjectGrabbing, onSelecting, onSqueezing) fire every frame and are left out.
  const TARGET_TYPES = {
    onObjectSelectStart: 'object_select_start',
    onObjectSelectEnd: 'object_select_end',
    onObjectLongSelect: 'object_long_select',
    onObjectTouchStart: 'object_touch_start',
    onObjectTouchEnd: 'object_touch_end',
    onObjectGrabStart: 'object_grab_start',
    onObjectGrabEnd: 'object_grab_end',
    onHoverEnter: 'hover_enter',
    onHoverExit: 'hover_exit',
  };
  const GLOBAL_TYPES = {
    onSelectStart: 'select_start',
    onSelect: 'select',
    onSelectEnd: 'select_end',
    onLongSelect: 'long_select',
  };
  const INPUT_TYPES = {squeezestart: 'squeeze_start', squeeze: 'squeeze', squeezeend: 'squeeze_end'};
  const GESTURE_TYPES = {gesturestart: 'gesture_start', gestureupdate: 'gesture_update', gestureend: 'gesture_end'};

  function push(entry) {
    state.eventLog.push(Object.assign({frame: state.frames, name: null, target: null, tags: [],
                                       script: null, hand: 'none'}, entry));
  }

  /** Every tag from `object` up to the root: the hit part first, then what it belongs to. */
  function tagsOf(object) {
    const tags = [];
    for (let o = object; o; o = o.parent) {
      const d = o.userData && o.userData.xrblocksDevtools;
      if (d && d.tag != null) tags.push(String(d.tag));
    }
    return tags;
  }

  /**
   * The tagged descendant of `root` at `point`: the smallest whose world box contains it, else
   * the nearest within 5 cm (a fingertip entering the script's overall box is often just in
   * front of the part it is heading for), else null.
   */
  function taggedPartAt(root, point) {
    const Three = THREE();
    const box = new Three.Box3();
    let inside = null, insideVolume = Infinity, near = null, nearDistance = 0.05;
    root.traverse((o) => {
      if (o === root || !(o.userData && o.userData.xrblocksDevtools && o.userData.xrblocksDevtools.tag != null)) return;
      box.setFromObject(o);
      if (box.isEmpty()) return;
      const distance = box.distanceToPoint(point);
      if (distance <= 0.001) {
        const s = box.getSize(new Three.Vector3());
        if (s.x * s.y * s.z < insideVolume) { inside = o; insideVolume = s.x * s.y * s.z; }
      } else if (distance < nearDistance) {
        near = o;
        nearDistance = distance;
      }
    });
    return inside || near;
  }

  function describeTarget(event) {
    // `surface` is the object a ray hit (the lamp's button); a touch or grab reports the Script
    // whose box the fingertip entered (the lamp), so look for the tagged part at the touch point.
    let target = event && (event.surface || event.target);
    if (target && event.touchPosition && event.touchPosition.isVector3) {
      target = taggedPartAt(target, event.touchPosition) || target;
    }
    return {target: target ? (target.name || target.type || null) : null, tags: tagsOf(target)};
  }

  // The part a hand's current direct touch is on, by hand: {target, described, ending}.
  const contacts = new Map();

  /**
   * Name an event after the tagged part it concerns. A touch reports the Script whose box the
   * fingertip entered; its end reports where the fingertip left, and the selection a touch
   * starts reports only the Script: all of these take the part the touch started on.
   */
  function describeContact(type, hand, event) {
    const contact = contacts.get(hand);
    const sameTarget = contact && event && event.target === contact.target &&
      (!event.surface || event.surface === contact.target);
    if (type === 'object_touch_start') {
      const described = describeTarget(event);
      contacts.set(hand, {target: event.target, described, ending: false});
      return described;
    }
    if (!sameTarget) return describeTarget(event);
    if (type === 'object_touch_end') contact.ending = true;
    // The touch's selection ends right after the touch: forget the contact then.
    if (type === 'select_end' && contact.ending) contacts.delete(hand);
    return contact.described;
  }

  /** Wrap the dispatch points once; idempotent. Returns what it could hook. */
  function install() {
    if (state.eventLog) return {installed: false};
    state.eventLog = [];
    const c = core();
    const hooked = [];
    const manager = c.scriptsManager;
    // The app ran before this: a dispatch point it put on the instance (over the shared
    // prototype method) would decide what gets recorded. The scripts manager's own dispatch
    // functions were pinned when harness.js registered.
    for (const [object, what] of [[c.input, 'xb.core.input'], [c.gestureRecognition, 'xb.core.gestureRecognition']]) {
      if (object && hasOwn(object, 'dispatchEvent')) tamper(`${what}.dispatchEvent was replaced by the page`);
    }
    if (manager && typeof manager.invokeTarget === 'function') {
      // One interaction is dispatched along the hit object's script path with the same event
      // object: record it once, however many scripts receive it.
      const seen = new WeakSet();
      const original = manager.invokeTarget;
      manager.invokeTarget = (script, hook, argument) => {
        const type = TARGET_TYPES[hook];
        if (type && !(argument && typeof argument === 'object' && seen.has(argument))) {
          if (argument && typeof argument === 'object') seen.add(argument);
          const hand = handOf(argument && argument.source);
          push({type, scope: 'target', hand, script: script.name || script.constructor.name,
                ...describeContact(type, hand, argument)});
        }
        return original(script, hook, argument);
      };
      hooked.push('target');
    }
    if (manager && typeof manager.invokeGlobal === 'function') {
      const original = manager.invokeGlobal;
      manager.invokeGlobal = (hook, event) => {
        const type = GLOBAL_TYPES[hook];
        if (type) {
          const hand = handOf(event && event.source);
          push({type, scope: 'global', hand, ...describeContact(type, hand, event)});
        }
        return original(hook, event);
      };
      hooked.push('global');
    }
    // Squeezes reach scripts through listeners bound at init; the input's own dispatch is the
    // one place every squeeze passes.
    const input = c.input;
    if (input && typeof input.dispatchEvent === 'function') {
      const original = input.dispatchEvent.bind(input);
      input.dispatchEvent = (event) => {
        const type = INPUT_TYPES[event && event.type];
        if (type) push({type, scope: 'input', hand: controllerHand(event.target)});
        return original(event);
      };
      hooked.push('input');
    }
    // XR Blocks throttles gesture recognition by wall-clock time (performance.now, 33 ms). In
    // virtual time that would make recognition depend on how fast the machine steps frames:
    // evaluate every frame instead.
    if (c.options && c.options.gestures) c.options.gestures.updateIntervalMs = 0;
    const gestures = c.gestureRecognition;
    if (gestures && typeof gestures.dispatchEvent === 'function') {
      const original = gestures.dispatchEvent.bind(gestures);
      gestures.dispatchEvent = (event) => {
        const type = GESTURE_TYPES[event && event.type];
        if (type) {
          push({type, scope: 'gesture', hand: handOf(event.detail, event.detail && event.detail.hand),
                name: event.detail ? String(event.detail.name) : null});
        }
        return original(event);
      };
      hooked.push('gesture');
    }
    // Head gestures (a nod, a shake) reach listeners through the recogniser's own dispatch.
    const head = input && input.headGestures;
    if (head && typeof head.dispatchEvent === 'function') {
      const original = head.dispatchEvent.bind(head);
      head.dispatchEvent = (event) => {
        if (event && event.type === 'gesture') {
          push({type: 'head_gesture', scope: 'head', name: event.detail ? String(event.detail.name) : null});
        }
        return original(event);
      };
      hooked.push('head');
    }
    // The wrappers above are now the dispatch points: pin them.
    if (manager) pinInstance(manager, 'xb.core.scriptsManager');
    if (input) pinInstance(input, 'xb.core.input');
    if (gestures) pinInstance(gestures, 'xb.core.gestureRecognition');
    if (head) pinInstance(head, 'xb.core.input.headGestures');
    return {installed: true, hooked};
  }

  function events({since = 0} = {}) {
    return (state.eventLog || []).slice(since);
  }

  const plain = (value) => {
    try { return value === undefined ? null : JSON.parse(JSON.stringify(value)); } catch { return null; }
  };

  /**
   * The world box of `object`'s own geometry (empty without geometry). three's Box3.expandByObject trusts a
   * geometry's cached boundingBox, which an app that fills a preallocated buffer and grows its
   * drawRange (a stroke, a trail) never recomputes; such geometry is measured from the vertices
   * in its draw range instead.
   */
  function ownBox(object, out) {
    const T = THREE();
    out.makeEmpty();
    const geometry = object.geometry;
    if (!geometry || !geometry.isBufferGeometry) return out;
    const position = geometry.getAttribute('position');
    const range = geometry.drawRange;
    if (position && range && Number.isFinite(range.count) && !object.isInstancedMesh) {
      const v = new T.Vector3();
      const index = geometry.index;
      const total = index ? index.count : position.count;
      const end = Math.min(total, range.start + range.count);
      for (let i = Math.max(0, range.start); i < end; i++) {
        v.fromBufferAttribute(position, index ? index.getX(i) : i).applyMatrix4(object.matrixWorld);
        out.expandByPoint(v);
      }
      return out;
    }
    let cached = null;
    // InstancedMesh, SkinnedMesh: an object-level box. Other objects may use the name for
    // something else (uikit's SVG icons keep a signal there), so only a Box3 counts.
    if (object.isInstancedMesh || object.isSkinnedMesh) {
      if (object.boundingBox === null) object.computeBoundingBox();
      cached = object.boundingBox;
    }
    if (!(cached && cached.isBox3)) {
      if (geometry.boundingBox === null) geometry.computeBoundingBox();
      cached = geometry.boundingBox;
    }
    if (!(cached && cached.isBox3)) return out;
    return out.copy(cached).applyMatrix4(object.matrixWorld);
  }

  // Presentation objects by their world matrix: the matrix is all `getWorldPosition` hands out.
  const presentations = new WeakMap();

  /** {matrix, node} of a UI element's presentation object (node: null if not in the scene), or null. */
  function uiPresentation(object) {
    if (!object.isUI || typeof object.getWorldPosition !== 'function') return null;
    let matrix = null;
    object.getWorldPosition({setFromMatrixPosition(m) { matrix = m; return this; }});
    if (!matrix || matrix === object.matrixWorld) return null;
    if (!presentations.has(matrix)) core().scene.traverse((o) => presentations.set(o.matrixWorld, o));
    return {matrix, node: presentations.get(matrix) || null};
  }

  /**
   * How far a UI element's layout is: 'none' (no presentation object yet), 'engine' (the layout
   * engine, WebAssembly compiled in wall-clock time, is not loaded), 'layout' (not computed
   * yet: the presentation still has its default transform) or 'done'.
   */
  function uiLayout(object, presentation = uiPresentation(object)) {
    if (!presentation) return 'none';
    const node = presentation.node;
    if (!node || !node.size || typeof node.size.peek !== 'function') return 'done';  // not uikit: its matrix is all there is
    if (node.node && node.node.yogaNode == null) return 'engine';
    const size = node.size.peek();
    return Array.isArray(size) && size.length === 2 && size.every(Number.isFinite) ? 'done' : 'layout';
  }

  /**
   * The rendered rectangle of an XR Blocks UI element (UICard, UIButton, UIText, ...), or null
   * before layout. UI elements carry no geometry: their layout lives in the renderer's
   * presentation object, which `getWorldPosition` consults. A probe target captures that
   * object's world matrix, whose x/y scale is the laid-out size (uikit panels span -0.5..0.5).
   */
  function uiRect(object) {
    const presentation = uiPresentation(object);
    if (!presentation || uiLayout(object, presentation) !== 'done') return null;
    const matrix = presentation.matrix;
    const T = THREE();
    const corner = (x, y) => new T.Vector3(x, y, 0).applyMatrix4(matrix);
    const c = corner(0, 0), right = corner(0.5, 0).sub(c), up = corner(0, 0.5).sub(c);
    const width = 2 * right.length(), height = 2 * up.length();
    if (!(width > 1e-6 && height > 1e-6)) return null;
    return {
      center: c.toArray(), width, height,
      corners: [corner(-0.5, -0.5), corner(0.5, -0.5), corner(0.5, 0.5), corner(-0.5, 0.5)].map((p) => p.toArray()),
      normal: right.clone().cross(up).normalize().toArray(),
    };
  }

  /**
   * World box of `object` and its subtree: geometry (see ownBox) and laid-out UI rectangles.
   * `rect` is `object`'s own, when the caller has it already.
   */
  function worldBox(object, rect = uiRect(object)) {
    const T = THREE();
    const box = new T.Box3().makeEmpty(), part = new T.Box3();
    object.traverse((o) => {
      box.union(ownBox(o, part));
      const r = o === object ? rect : uiRect(o);
      if (r) for (const p of r.corners) box.expandByPoint(new T.Vector3(...p));
    });
    return box;
  }

  /**
   * One node in the snapshot format (see snapshot.js), plus `root`. `chain` lists the ancestors
   * from the top; `fresh` says world matrices are already up to date (a whole-scene snapshot
   * updates them once), otherwise this node's are updated from its ancestors.
   */
  function node(object, root, chain, fresh = false) {
    const T = THREE();
    const what = object.name ? `the object '${object.name}'` : 'an object';
    guard(object, what);
    guardData(object.matrixWorld, `${what}.matrixWorld`);
    const position = new T.Vector3(), quaternion = new T.Quaternion(), scale = new T.Vector3();
    if (!fresh) object.updateWorldMatrix(true, true);
    object.matrixWorld.decompose(position, quaternion, scale);
    const rect = uiRect(object);
    const box = worldBox(object, rect);
    const devtools = (object.userData && object.userData.xrblocksDevtools) || null;
    const material = Array.isArray(object.material) ? object.material[0] : object.material;
    if (material && typeof material === 'object') {
      guard(material, `${what}.material`);
      guardData(material.color, `${what}.material.color`);
      guardData(material.emissive, `${what}.material.emissive`);
    }
    let visible = true;
    for (let o = object; o; o = o.parent) visible = visible && o.visible;
    return {
      name: object.name || '', type: object.type || object.constructor.name, uuid: object.uuid,
      parents: chain.map((c) => c.uuid), path: chain.map((c) => c.name || c.type),
      tag: devtools && devtools.tag != null ? String(devtools.tag) : null,
      state: devtools ? plain(devtools.state) : null,
      position: position.toArray(), quaternion: quaternion.toArray(), scale: scale.toArray(),
      bbox: box.isEmpty() ? null : [box.min.toArray(), box.max.toArray()],
      uiRect: rect,
      visible, ownVisible: object.visible,
      color: material && material.color && material.color.isColor ? '#' + material.color.getHexString() : null,
      emissive: material && material.emissive && material.emissive.isColor
        ? '#' + material.emissive.getHexString() : null,
      isMesh: !!object.isMesh, isScript: !!object.isXRScript, root,
    };
  }

  /** Tagged objects of the app's scene, then of the simulated room (physical objects). */
  function tagged({tag = null} = {}) {
    const c = core();
    const out = [];
    const roots = [['scene', c.scene], ['simulator', c.simulator && c.simulator.simulatorScene]];
    for (const [name, top] of roots) {
      if (!top) continue;
      const visit = (object, chain) => {
        const d = object.userData && object.userData.xrblocksDevtools;
        if (d && d.tag != null && (tag === null || String(d.tag) === tag)) out.push(node(object, name, chain));
        const next = chain.concat([object]);
        for (const child of object.children) visit(child, next);
      };
      visit(top, []);
    }
    return out;
  }

  const DRAWN_KINDS = [['isMesh', 'mesh'], ['isLine', 'line'], ['isPoints', 'points'], ['isSprite', 'sprite']];

  /**
   * What the app draws: the meshes, lines, points and sprites of the app's scene that are shown
   * (they and every ancestor visible), with their tags (own first, then their ancestors'). XR
   * Blocks' own systems (`core.xrSystemsGroup`: hand and controller visuals, reticles, the
   * simulator, detected planes) are left out; the group is pinned, so the app cannot pass its
   * scene off as one of them.
   */
  function drawn() {
    const c = core();
    const systems = c.xrSystemsGroup;
    const out = [];
    const visit = (object, tags) => {
      guard(object, object.name ? `the object '${object.name}'` : 'an object');
      if (!object.visible || object === systems) return;
      const d = object.userData && object.userData.xrblocksDevtools;
      const own = d && d.tag != null ? [String(d.tag), ...tags] : tags;
      const kind = DRAWN_KINDS.find(([flag]) => object[flag] === true);
      if (kind) {
        const geometry = object.geometry && typeof object.geometry === 'object' ? object.geometry.type : '';
        out.push({name: String(object.name || ''), type: String(object.type || object.constructor.name),
                  kind: kind[1], geometry: String(geometry || ''), tags: own, uuid: object.uuid});
      }
      for (const child of object.children) visit(child, own);
    };
    visit(c.scene, []);
    return out;
  }

  /**
   * Detected planes (`xb.world.planes`) with world-space boxes, and depth availability. The planes
   * are the kernel's records, taken when detection reported them (`H.planes`), not the plane
   * objects the page can reach.
   */
  function world() {
    const c = core();
    const planes = [];
    const detector = c.world && c.world.planes;
    for (const {detector: owner, record} of H.planes.values()) {
      if (owner !== detector) continue;
      const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (const point of record.polygon) {
        for (let i = 0; i < 3; i++) {
          lo[i] = Math.min(lo[i], point[i]);
          hi[i] = Math.max(hi[i], point[i]);
        }
      }
      planes.push({
        polygon: record.polygon.map((point) => [...point]),
        label: record.label,
        orientation: record.orientation,
        position: [...record.position],
        quaternion: [...record.quaternion],
        bbox: record.polygon.length ? [lo, hi] : null,
      });
    }
    const depth = c.depth;
    const sim = c.simulator;
    return {
      planes,
      planesEnabled: !!(c.options && c.options.world && c.options.world.enabled &&
                        c.options.world.planes && c.options.world.planes.enabled),
      depth: {
        enabled: !!(depth && depth.enabled),
        available: !!(depth && depth.depthArray && depth.depthArray[0]),
        width: depth ? depth.width ?? null : null,
        height: depth ? depth.height ?? null : null,
      },
      locations: sim && typeof sim.getLocations === 'function' ? plain(sim.getLocations()) : {},
    };
  }

  /** What the simulator knows about one hand (0 left, 1 right). */
  function hand(index) {
    const c = core();
    const T = THREE();
    const sim = c.simulator;
    const controller = c.input.controllers[index];
    const space = c.input.hands[index];
    const mesh = sim ? (index === 0 ? sim.hands.leftController : sim.hands.rightController) : null;
    const tip = space && space.joints && space.joints['index-finger-tip'];
    const v = (o) => (o ? o.getWorldPosition(new T.Vector3()).toArray() : null);
    const q = controller ? controller.getWorldQuaternion(new T.Quaternion()) : null;
    return {
      visible: !!(mesh ? mesh.visible : space && space.visible),
      connected: !!(controller && controller.userData.connected),
      selected: !!(controller && controller.userData.selected),
      squeezing: !!(controller && controller.userData.squeezing),
      pose: sim ? (index === 0 ? sim.hands.leftHandPose : sim.hands.rightHandPose) ?? null : null,
      position: v(controller),
      quaternion: q ? q.toArray() : null,
      rayDirection: q ? new T.Vector3(0, 0, -1).applyQuaternion(q).toArray() : null,
      fingertip: tip ? v(tip) : null,
    };
  }

  /** The simulator's physical objects (objects manager). */
  function objects() {
    const sim = core().simulator;
    if (!sim || !sim.objects) return [];
    return sim.objects.get().map((r) => ({id: r.id, label: r.definition.label ?? null,
                                          node: node(r.object, 'simulator', [])}));
  }

  /**
   * A picture of a rectangle of the scene as XR Blocks' renderer draws it, seen straight on from
   * `depth` metres in front of it (an orthographic view along -out, `up` up), `size` metres,
   * `width` x `height` pixels, RGBA rows from the top, base64. The renderer, its methods, the
   * camera and the WebGL methods used were pinned before the app ran.
   */
  function picture({centre, up, out, size, width, height, depth}) {
    const T = THREE(), c = core(), renderer = c.renderer;
    if (!(renderer instanceof T.WebGLRenderer)) throw new Error('XR Blocks has no WebGLRenderer (xb.core.renderer)');
    const gl = renderer.getContext();
    for (const key of ownKeys(gl)) {
      if (typeof getOwnPropertyDescriptor(gl, key).value === 'function') tamper(`the WebGL context has its own ${keyName(key)}()`);
    }
    guard(c.scene, 'xb.core.scene');
    guard(c.camera, 'xb.core.camera');
    c.scene.updateMatrixWorld(true);
    const middle = new T.Vector3(...centre);
    const camera = new T.OrthographicCamera(-size[0] / 2, size[0] / 2, size[1] / 2, -size[1] / 2, 0.01, 2 * depth);
    camera.position.copy(middle).addScaledVector(new T.Vector3(...out), depth);
    camera.up.set(...up);
    camera.lookAt(middle);
    camera.layers.mask = c.camera.layers.mask;
    camera.updateMatrixWorld(true);
    const target = new T.WebGLRenderTarget(width, height);
    const previous = renderer.getRenderTarget();
    const xrEnabled = renderer.xr.enabled;
    const pixels = new Uint8Array(width * height * 4);
    try {
      renderer.xr.enabled = false;
      renderer.setRenderTarget(target);
      renderer.clear();
      renderer.render(c.scene, camera);
      renderer.readRenderTargetPixels(target, 0, 0, width, height, pixels);
    } finally {
      renderer.setRenderTarget(previous);
      renderer.xr.enabled = xrEnabled;
      target.dispose();
    }
    // WebGL's rows run from the bottom: turn them into an image's.
    const rows = new Uint8Array(pixels.length), stride = width * 4;
    for (let y = 0; y < height; y++) rows.set(pixels.subarray((height - 1 - y) * stride, (height - y) * stride), y * stride);
    let text = '';
    for (let i = 0; i < rows.length; i += 0x8000) text += String.fromCharCode.apply(null, rows.subarray(i, i + 0x8000));
    return btoa(text);
  }

  /**
   * The simulated room's truth along a ray (what a test compares depth-based placement with): the
   * first visible surface of the simulator's room on it (hands and other skinned meshes left out),
   * with its world normal. With `at` (a world point), also that point's depth along the viewing
   * direction and the least and greatest depth the room shows at its place in the view and
   * `pixels` depth pixels around it (3 x 3 rays from the eye), depth pixels being the depth frame's
   * (XR Blocks' default width, 160, before the first frame).
   */
  function roomRay({origin, direction, at, pixels}) {
    const T = THREE();
    const c = core();
    const cam = c.camera;
    const scene = c.simulator.simulatorScene;
    cam.updateMatrixWorld(true);
    scene.updateMatrixWorld(true);
    const eye = cam.getWorldPosition(new T.Vector3());
    const rc = new T.Raycaster();
    rc.far = 60;
    const shown = (o) => { for (let x = o; x; x = x.parent) if (!x.visible) return false; return true; };
    const first = (o, d) => {
      rc.set(o, d);
      return rc.intersectObject(scene, true).find(
        (i) => i.object.isMesh && !i.object.isSkinnedMesh && shown(i.object)) || null;
    };
    const viewDepth = (p) => -p.clone().applyMatrix4(cam.matrixWorldInverse).z;
    const hit = first(new T.Vector3(...origin), new T.Vector3(...direction).normalize());
    let normal = null;
    if (hit && hit.face) {
      const m = new T.Matrix3().getNormalMatrix(hit.object.matrixWorld);
      normal = hit.face.normal.clone().applyMatrix3(m).normalize().toArray();
    }
    const out = {eye: eye.toArray(), at: null,
                 hit: hit ? {point: hit.point.toArray(), distance: hit.distance, name: hit.object.name, normal} : null};
    if (at) {
      const p = new T.Vector3(...at);
      const ndc = p.clone().project(cam);
      const u = (ndc.x + 1) / 2, v = (ndc.y + 1) / 2;
      const width = (c.depth && c.depth.width) || 160;
      const depths = [];
      for (const a of [-1, 0, 1]) for (const b of [-1, 0, 1]) {
        const q = new T.Vector3(2 * (u + a * pixels / width) - 1, 2 * (v + b * pixels / width) - 1, 0.5);
        const r = first(eye, q.unproject(cam).sub(eye).normalize());
        depths.push(r ? viewDepth(r.point) : Infinity);  // nothing within 60 m (JSON: null)
      }
      out.at = {u, v, depth: viewDepth(p), min: Math.min(...depths), max: Math.max(...depths)};
    }
    return out;
  }

  state.ops.read = {install, events, tagged, drawn, world, hand, objects, node, uiRect, uiLayout, picture, roomRay};
})();
