// page.evaluate(fn, {sceneExpr, includePrivate}): the app's three.js scene graph as a flat list of
// nodes, parents before children, in the same shape as snapshot.js (XR Blocks). Works without the
// app's THREE module: vectors, quaternions and boxes are made with the classes of the scene's own
// objects, so any three.js build the app loaded is fine.
//
// The scene is, in order: `sceneExpr` (a JS expression from Python), `window.scene`, the scene the
// XR-presenting renderer drew last, the scene any other app renderer drew last, the first scene
// three.js announced (see iwer_init.js).
({sceneExpr = null, includePrivate = false}) => {
  const state = window.__xrtest || {};
  const three = state.three || {scenes: [], renderers: []};
  const iwer = state.iwer;
  const semCanvas = iwer && iwer.device && iwer.device.sem ? iwer.device.sem.environmentCanvas : null;
  const appRenderers = three.renderers.filter((r) => !semCanvas || r.renderer.domElement !== semCanvas);

  let top = null;
  let source = null;
  if (sceneExpr) {
    top = (0, eval)(sceneExpr);  // indirect eval: global scope, like a console expression
    source = 'expression';
    if (!top || !top.isObject3D) throw new Error(`${sceneExpr} is not a three.js object (got ${top})`);
  }
  if (!top && window.scene && window.scene.isScene) { top = window.scene; source = 'window.scene'; }
  if (!top) {
    const presenting = appRenderers.find((r) => r.lastScene && r.renderer.xr && r.renderer.xr.isPresenting);
    const any = appRenderers.find((r) => r.lastScene);
    const entry = presenting || any;
    if (entry) { top = entry.lastScene; source = 'renderer'; }
  }
  if (!top) {
    const semScene = iwer && iwer.device && iwer.device.sem ? iwer.device.sem.scene : null;
    top = three.scenes.find((s) => s !== semScene) || null;
    source = top ? 'observed' : null;
  }
  if (!top) return {source: null, nodes: []};

  top.updateMatrixWorld(true);
  const Vector3 = top.position.constructor;
  const Quaternion = top.quaternion.constructor;
  const position = new Vector3();
  const quaternion = new Quaternion();
  const scale = new Vector3();
  // Box3 is not reachable from an Object3D; a geometry's bounding box is one.
  let Box3 = null;
  top.traverse((o) => {
    if (Box3 || !o.geometry) return;
    if (!o.geometry.boundingBox && o.geometry.computeBoundingBox) o.geometry.computeBoundingBox();
    if (o.geometry.boundingBox) Box3 = o.geometry.boundingBox.constructor;
  });
  const box = Box3 ? new Box3() : null;
  const out = [];

  const firstMaterial = (object) => (Array.isArray(object.material) ? object.material[0] : object.material);
  const colorOf = (object, key) => {
    const material = firstMaterial(object);
    const color = material && material[key];
    return color && color.isColor ? '#' + color.getHexString() : null;
  };
  const plain = (value) => {
    try { return value === undefined ? null : JSON.parse(JSON.stringify(value)); } catch { return null; }
  };

  const visit = (object, chain, parentVisible) => {
    if (!includePrivate && object !== top && object.userData && object.userData.xrblocksPrivate === true) return;
    const visible = parentVisible && object.visible;
    object.matrixWorld.decompose(position, quaternion, scale);
    let bbox = null;
    if (box) {
      box.makeEmpty();
      box.expandByObject(object, false);
      bbox = box.isEmpty() ? null : [box.min.toArray(), box.max.toArray()];
    }
    const devtools = (object.userData && object.userData.xrblocksDevtools) || null;
    out.push({
      name: object.name || '',
      type: object.type || object.constructor.name,
      uuid: object.uuid,
      parents: chain.map((c) => c.uuid),
      path: chain.map((c) => c.name || c.type),
      tag: devtools && devtools.tag != null ? String(devtools.tag) : null,
      state: devtools ? plain(devtools.state) : null,
      position: position.toArray(),
      quaternion: quaternion.toArray(),
      scale: scale.toArray(),
      bbox,
      visible,
      ownVisible: object.visible,
      color: colorOf(object, 'color'),
      emissive: colorOf(object, 'emissive'),
      isMesh: !!object.isMesh,
      isScript: false,
    });
    const next = chain.concat([{uuid: object.uuid, name: object.name, type: object.type}]);
    for (const child of object.children) visit(child, next, visible);
  };
  visit(top, [], true);
  return {source, nodes: out};
}
