// Operation (see kernel.js) (fn, {hand}): the 25 joints of one hand in the world frame.
// `hand` is 'left' or 'right' (XR Blocks keeps the left hand at input.hands[0]).
({hand}) => {
  const core = H.xb.core;
  const THREE = H.THREE;
  const names = H.xb.HAND_JOINT_NAMES;
  const space = core.input && core.input.hands && core.input.hands[hand === 'left' ? 0 : 1];
  if (!space || !space.joints) return {available: false, joints: {}};
  const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
  const joints = {};
  for (const name of names) {
    const joint = space.joints[name];
    if (!joint) continue;
    joint.updateWorldMatrix(true, false);
    joint.matrixWorld.decompose(p, q, s);
    joints[name] = {position: p.toArray(), quaternion: q.toArray(), radius: joint.jointRadius ?? null};
  }
  return {available: Object.keys(joints).length > 0, visible: !!space.visible, joints};
}
