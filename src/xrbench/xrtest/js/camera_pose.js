// Operation (see kernel.js) (fn): the main camera's world pose (the simulated head in the simulator).
() => {
  const core = H.xb.core;
  const THREE = H.THREE;
  const camera = core.camera;
  camera.updateMatrixWorld(true);
  const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
  camera.matrixWorld.decompose(p, q, s);
  const forward = new THREE.Vector3(0, 0, -1).applyQuaternion(q);
  return {position: p.toArray(), quaternion: q.toArray(), forward: forward.toArray(),
          fov: camera.fov ?? null, near: camera.near, far: camera.far};
}
