"""A ray drag keeps the grabbed point on the ray, at the distance of the first hit (held-out tests).

The app (the task's own `workspace/`) has a `crate` (a 0.2 m box at (0, 1.3, -1.2)) and a `ball`
(a 5 cm sphere at (0, 1.2, -0.5)), both with XR Blocks' built-in translate manipulation; their
state records the manipulation events (manipulating, starts, updates, hand).
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_follows_hand, assert_no_errors, assert_position, assert_state


def add(a, b):
    return tuple(a[i] + b[i] for i in range(3))


def sub(a, b):
    return tuple(a[i] - b[i] for i in range(3))


def scale(a, k):
    return tuple(c * k for c in a)


def hit_distance(origin, direction, box) -> float:
    """Distance along the ray to where it enters the axis-aligned box (slab test)."""
    lo, hi = box
    t_enter, t_exit = 0.0, math.inf
    for i in range(3):
        if abs(direction[i]) < 1e-12:
            assert lo[i] <= origin[i] <= hi[i], "the ray misses the box"
            continue
        t0, t1 = (lo[i] - origin[i]) / direction[i], (hi[i] - origin[i]) / direction[i]
        t_enter, t_exit = max(t_enter, min(t0, t1)), min(t_exit, max(t0, t1))
    assert t_enter <= t_exit, "the ray misses the box"
    return t_enter


@pytest.fixture
def app(xr):
    xr.step(1)
    return xr


def grab_crate(app):
    """Point the dominant hand's ray at the crate and pinch; returns (hand, ray origin, direction, depth, centre)."""
    hand = app.hand("dominant")
    hand.point_to("crate")
    state = hand.state
    crate = app.find_by_tag("crate")
    depth = hit_distance(state.position, state.ray_direction, crate.bbox)
    hand.start_select(frames=6)
    assert_state(app, "crate", manipulating=True, starts=1, hand=app.handedness("dominant"))
    return hand, state.position, state.ray_direction, depth, crate.position


@pytest.mark.fail_to_pass
def test_aiming_the_ray_drags_the_crate_where_it_points(app):
    hand, origin, direction, depth, centre = grab_crate(app)
    for aim in [(0.3, 1.4, -1.2), (-0.2, 1.15, -1.25)]:
        hand.point_to(aim)
        state = hand.state
        # The grabbed point stays on the ray at the same depth: the crate moves with it.
        moved = sub(add(state.position, scale(state.ray_direction, depth)), add(origin, scale(direction, depth)))
        assert_position(app, "crate", add(centre, moved), tol=0.01)
    expected = app.find_by_tag("crate").position
    hand.end_select(frames=6)
    assert_state(app, "crate", manipulating=False)
    assert_position(app, "crate", expected, tol=1e-3)  # it stays where it was dropped
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_moving_the_pinching_hand_carries_the_crate(app):
    hand, origin, _direction, _depth, centre = grab_crate(app)
    x, y, z = hand.position
    hand.move_hand((x + 0.12, y + 0.08, z))
    moved = sub(hand.position, origin)
    assert_position(app, "crate", add(centre, moved), tol=0.01)
    hand.end_select(frames=6)
    assert_state(app, "crate", manipulating=False)
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_a_direct_grab_carries_the_ball(app):
    hand = app.hand("dominant")
    hand.reach_to("ball", depth=0.03)
    hand.pinch()
    assert_state(app, "ball", manipulating=True, starts=1, hand=app.handedness("dominant"))
    x, y, z = hand.position
    assert_follows_hand(app, "ball", hand, [(x + 0.1, y + 0.1, z), (x - 0.05, y + 0.12, z + 0.05)], max_deviation=0.01)
    hand.release()
    assert_state(app, "ball", manipulating=False)
    assert_state(app, "crate", starts=0)
    assert_no_errors(app)
