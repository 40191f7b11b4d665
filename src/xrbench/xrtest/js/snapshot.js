// Operation (see kernel.js) (fn, {root, includePrivate}): the scene graph as a flat list of nodes, parents
// before children. Positions, rotations, scales and bounding boxes are in the world frame (see
// `node` in read_lib.js for the node format).
({root = 'scene', includePrivate = false}) => {
  const core = H.xb.core;
  const read = H.ops.read;
  const roots = {
    scene: core.scene,
    simulator: core.simulator && core.simulator.simulatorScene,
  };
  const top = roots[root];
  if (!top) return [];
  top.updateMatrixWorld(true);
  const out = [];
  const visit = (object, chain) => {
    if (!includePrivate && object !== top && object.userData && object.userData.xrblocksPrivate === true) return;
    out.push(read.node(object, root, chain, true));
    const next = chain.concat([object]);
    for (const child of object.children) visit(child, next);
  };
  visit(top, []);
  return out;
}
