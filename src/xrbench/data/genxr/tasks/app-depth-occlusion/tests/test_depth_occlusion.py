"""Runtime tests of the depth-sensing app, in two rooms.

They check that the app enabled XR Blocks' depth sensing (the harness sees depth frames) and
occlusion; that the indicator tagged 'depth-status' turns green and reports the live depth at the
centre of the view (compared with the distance from the eyes to what the user looks at); and
that the marker tagged 'depth-hit' sits where the line of sight meets the room, following the
gaze when the user looks at the table and then at the floor. Depth frames arrive asynchronously,
so the tests step a frame at a time until the app catches up (within a bound).
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_color, assert_no_errors, assert_visible

STATUS = "depth-status"
HIT = "depth-hit"

pytestmark = pytest.mark.xr_scenes("living_room", "kitchen")


def step_until(xr, check, frames: int = 90):
    """Step one frame at a time (letting depth readbacks land) until `check()` is truthy."""
    for _ in range(frames):
        result = check()
        if result:
            return result
        xr.step(1)
    return check()


def centre_depth(xr):
    state = xr.find_by_tag(STATUS).state or {}
    return state.get("centerDepth") if state.get("depthAvailable") else None


def gaze_point(xr, target: str):
    """Where the user's line of sight meets the room after looking at `target` (its point)."""
    return xr.find(target).point


def settle_on(xr, target: str, tol: float):
    """Look at a location and wait until the marker is within `tol` of it; returns the gap."""
    xr.head.look_at(target)
    goal = gaze_point(xr, target)

    def close():
        node = xr.find_by_tag(HIT)
        return node.visible and math.dist(xr.find(HIT).point, goal) <= tol

    step_until(xr, close)
    return math.dist(xr.find(HIT).point, goal), goal


def test_depth_sensing_and_occlusion_are_on_and_the_indicator_is_live(xr):
    xr.step(2)
    assert xr.depth().enabled, "expected XR Blocks' depth sensing to be enabled (options.enableDepth())"
    occlusion = xr.probe(
        "(h) => !!(h.core.depth?.options?.occlusion?.enabled || h.core.options?.depth?.occlusion?.enabled)"
    )
    assert occlusion, "expected depth occlusion to be enabled (options.depth.occlusion.enabled = true)"
    depth = step_until(xr, lambda: centre_depth(xr))
    assert depth is not None, (
        f"expected the indicator to report available depth; observed {xr.find_by_tag(STATUS).state}"
    )
    assert xr.depth().available, "expected the harness to see depth frames"
    assert_color(xr, STATUS, "#00c853", tol=8)
    # Looking at the table: the depth at the centre is the distance to the table centre.
    xr.head.look_at("table")
    want = math.dist(xr.head.position, xr.find("table").point)
    got = step_until(xr, lambda: (d := centre_depth(xr)) is not None and abs(d - want) < 0.1 and d)
    assert got and abs(got - want) < 0.1, (
        f"expected the indicator's centerDepth to follow the gaze: about {want:.2f} m looking at the table; "
        f"observed {centre_depth(xr)}"
    )
    assert_no_errors(xr)


def test_the_hit_marker_follows_the_gaze_onto_the_room(xr):
    xr.step(2)
    step_until(xr, lambda: centre_depth(xr))
    for target in ("table", "floor"):
        gap, goal = settle_on(xr, target, tol=0.06)
        assert gap <= 0.06, (
            f"expected the depth-hit marker where the line of sight meets the {target} at "
            f"({goal[0]:.2f}, {goal[1]:.2f}, {goal[2]:.2f}); observed it at "
            f"{tuple(round(v, 2) for v in xr.find(HIT).point)}, {gap:.2f} m away"
        )
        assert_visible(xr, HIT)
    assert_no_errors(xr)
