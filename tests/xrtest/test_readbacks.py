"""GPU readbacks on the virtual clock: as many frames on a slow GPU as on a fast one."""

from __future__ import annotations

import pytest

from xrbench.genxr.task import DEFAULT_TASKS_DIR, load_task
from xrbench.genxr.workspace import materialize_solution

from .conftest import InitScript

# A slow GPU: every fence reports "not yet" for 1.5 s of wall-clock time after it was created.
SLOW_FENCES = """(() => {
  const proto = WebGL2RenderingContext.prototype, now = performance.now.bind(performance);
  const fenceSync = proto.fenceSync, clientWaitSync = proto.clientWaitSync, born = new WeakMap();
  proto.fenceSync = function (...args) { const s = fenceSync.apply(this, args); born.set(s, now()); return s; };
  proto.clientWaitSync = function (sync, ...rest) {
    if (now() - (born.get(sync) ?? 0) < 1500) return WebGL2RenderingContext.TIMEOUT_EXPIRED;
    return clientWaitSync.call(this, sync, ...rest);
  };
})();"""


@pytest.fixture(scope="module")
def depth_app(tmp_path_factory):
    task = load_task(DEFAULT_TASKS_DIR / "app-depth-occlusion")
    ws = tmp_path_factory.mktemp("depth") / "ws"
    materialize_solution(task, task.valid_solutions[0], ws)
    return ws


def frames_to_first_depth(session, limit: int = 120) -> int:
    session.settle()
    for frame in range(limit):
        state = session.find_by_tag("depth-status").state or {}
        if state.get("depthAvailable") and state.get("centerDepth"):
            return frame
        session.step(1)
    raise AssertionError(f"no depth reading within {limit} frames")


def test_a_slow_gpu_readback_lands_on_the_same_frame(open_session, depth_app):
    fast = frames_to_first_depth(open_session(depth_app, scene="living_room"))
    slow = frames_to_first_depth(open_session(depth_app, scene="living_room", hooks=[InitScript(SLOW_FENCES)]))
    assert slow == fast
