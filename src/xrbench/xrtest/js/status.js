// Operation (see kernel.js) (fn): the harness's view of the page (frames, errors, lifecycle).
() => {
  const state = H;
  const core = H.xb && H.xb.core;
  return {
    frames: state.frames ?? 0,
    lifecycle: core ? core.lifecycle : null,
    paused: core ? core.isPaused : null,
    simulatorRunning: core ? !!core.simulatorRunning : false,
    elapsedTime: core ? core.elapsedTime : null,
    initSettled: state.initSettled ?? null,
    initError: state.initError ?? null,
    pageErrors: (state.errors || []).map((e) => e.message),
    resourceErrors: state.resourceErrors || [],
    scriptErrors: state.scriptErrors || [],
    appliedOptions: state.appliedOptions || null,
    registered: state.registered,
    tampered: state.tampered.slice(),
    environment: core && core.simulator && core.simulator.activeEnvironmentManifest
      ? (core.simulator.activeEnvironmentManifest.name ?? null) : null,
  };
}
