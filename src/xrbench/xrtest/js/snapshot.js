// page.evaluate(fn, {root, includePrivate}): the scene graph as a flat list of nodes, parents
// before children. Positions, rotations, scales and bounding boxes are in the world frame.
({root = 'scene', includePrivate = false}) => {
  const core = window.xb.core;
  const THREE = window.__xrtest.THREE;
  const roots = {
    scene: core.scene,
    simulator: core.simulator && core.simulator.simulatorScene,
  };
  const top = roots[root];
  if (!top) return [];
  top.updateMatrixWorld(true);
  const position = new THREE.Vector3();
  const quaternion = new THREE.Quaternion();
  const scale = new THREE.Vector3();
  const box = new THREE.Box3();
  const out = [];

  const colorOf = (object) => {
    const material = Array.isArray(object.material) ? object.material[0] : object.material;
    return material && material.color && material.color.isColor ? '#' + material.color.getHexString() : null;
  };
  const emissiveOf = (object) => {
    const material = Array.isArray(object.material) ? object.material[0] : object.material;
    return material && material.emissive && material.emissive.isColor ? '#' + material.emissive.getHexString() : null;
  };
  const plain = (value) => {
    try { return value === undefined ? null : JSON.parse(JSON.stringify(value)); } catch { return null; }
  };

  const visit = (object, chain, parentVisible) => {
    if (!includePrivate && object !== top && object.userData && object.userData.xrblocksPrivate === true) return;
    const visible = parentVisible && object.visible;
    object.matrixWorld.decompose(position, quaternion, scale);
    box.makeEmpty();
    box.expandByObject(object, false);
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
      bbox: box.isEmpty() ? null : [box.min.toArray(), box.max.toArray()],
      visible,
      ownVisible: object.visible,
      color: colorOf(object),
      emissive: emissiveOf(object),
      isMesh: !!object.isMesh,
      isScript: !!object.isXRScript,
    });
    const next = chain.concat([{uuid: object.uuid, name: object.name, type: object.type}]);
    for (const child of object.children) visit(child, next, visible);
  };
  visit(top, [], true);
  return out;
}
