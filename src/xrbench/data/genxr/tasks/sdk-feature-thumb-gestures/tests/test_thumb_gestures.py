"""Thumbs-up / thumbs-down of XR Blocks' heuristic gesture recogniser, with either hand.

The app (held out, in the task's workspace/) enables gesture recognition and shows a lamp per hand
('left-lamp', 'right-lamp': green while a thumbs-up is held, red while a thumbs-down is held).
Gesture events are recorded by the harness (`xr.events("gesture", ...)`).
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_color, assert_event, assert_no_errors, assert_no_event

pytestmark = pytest.mark.xr_scenes("empty")

GREEN, RED, IDLE = "#22cc44", "#dd3322", "#777777"


def ready(xr):
    # Scripts finish their (async) initialisation between steps.
    xr.step(1)
    xr.step(1)
    xr.wait(200)


def lamp(xr, role):
    return f"{xr.handedness(role)}-lamp"


def thumb_points(xr, role) -> float:
    """Vertical component of the thumb's direction (metacarpal -> tip) in the world."""
    joints = xr.hand(role).joints
    tip, base = joints["thumb-tip"].position, joints["thumb-metacarpal"].position
    d = [tip[i] - base[i] for i in range(3)]
    n = sum(v * v for v in d) ** 0.5
    return d[1] / n


@pytest.mark.fail_to_pass
def test_a_thumbs_up_of_either_hand_is_recognised_while_it_is_held(xr):
    ready(xr)
    hand = xr.hand("dominant")
    frame = xr.frame
    hand.set_pose("thumbs up")
    assert_event(xr, "gesture", hand="dominant", name="thumbs-up", since_frame=frame, count=1)
    assert_color(xr, lamp(xr, "dominant"), GREEN)
    hand.set_pose("relaxed")
    assert_event(xr, "gesture_end", hand="dominant", name="thumbs-up", since_frame=frame)
    assert_color(xr, lamp(xr, "dominant"), IDLE)
    frame = xr.frame
    xr.gesture("non_dominant", "thumbs-up")
    assert_event(xr, "gesture", hand="non_dominant", name="thumbs-up", since_frame=frame, count=1)
    assert_no_event(xr, "gesture", name="thumbs-down")
    assert_no_event(xr, "gesture", hand="dominant", since_frame=frame, name="thumbs-up")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_a_thumbs_down_is_recognised_and_is_not_a_thumbs_up(xr):
    ready(xr)
    frame = xr.frame
    hand = xr.hand("dominant")
    hand.set_pose("thumbs down")
    assert_event(xr, "gesture", hand="dominant", name="thumbs-down", since_frame=frame, count=1)
    assert_color(xr, lamp(xr, "dominant"), RED)
    hand.set_pose("relaxed")
    xr.gesture("non_dominant", "thumbs-down")
    assert_event(xr, "gesture", hand="non_dominant", name="thumbs-down", since_frame=frame, count=1)
    assert_no_event(xr, "gesture", name="thumbs-up", since_frame=frame)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_the_thumb_direction_is_judged_in_the_world(xr):
    ready(xr)
    hand = xr.hand("dominant")
    hand.set_pose("thumbs up")
    assert_event(xr, "gesture", hand="dominant", name="thumbs-up", count=1)
    # Turning the same hand shape over a quarter turn points the thumb sideways: neither gesture.
    roll = -90 if xr.handedness("dominant") == "right" else 90
    frame = xr.frame
    hand.rotate_hand(roll=-roll)
    xr.wait(300)
    assert abs(thumb_points(xr, "dominant")) < 0.35, "precondition: the thumb points sideways"
    assert_event(xr, "gesture_end", hand="dominant", name="thumbs-up", since_frame=frame)
    assert_no_event(xr, "gesture", hand="dominant", name="thumbs-down", since_frame=frame)
    assert_color(xr, lamp(xr, "dominant"), IDLE)
    # A further quarter turn: upside down, the thumb points to the floor: a thumbs-down.
    hand.rotate_hand(roll=-roll)
    xr.wait(300)
    assert thumb_points(xr, "dominant") < -0.7, "precondition: the thumb points down"
    assert_event(xr, "gesture", hand="dominant", name="thumbs-down", since_frame=frame, count=1)
    assert_no_event(xr, "gesture", hand="dominant", name="thumbs-up", since_frame=frame)
    assert_color(xr, lamp(xr, "dominant"), RED)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_an_open_hand_with_the_thumb_up_is_not_a_thumbs_up(xr):
    ready(xr)
    xr.gesture("dominant", "thumbs-up")
    assert_event(xr, "gesture", hand="dominant", name="thumbs-up", count=1)
    hand = xr.hand("dominant")
    hand.set_pose("neutral")  # an open, flat hand
    frame = xr.frame
    roll = -90 if xr.handedness("dominant") == "right" else 90
    hand.rotate_hand(roll=roll)  # palm sideways, thumb on top, fingers straight ahead
    xr.wait(300)
    assert thumb_points(xr, "dominant") > 0.7, "precondition: the thumb points up"
    assert_no_event(xr, "gesture", hand="dominant", name="thumbs-up", since_frame=frame)
    assert_no_event(xr, "gesture", hand="dominant", name="thumbs-down", since_frame=frame)
    assert_color(xr, lamp(xr, "dominant"), IDLE)
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
def test_fist_and_pinch_are_still_recognised(xr):
    ready(xr)
    frame = xr.frame
    xr.gesture("dominant", "fist")
    assert_event(xr, "gesture", hand="dominant", name="fist", since_frame=frame)
    xr.gesture("non_dominant", "pinch")
    assert_event(xr, "gesture", hand="non_dominant", name="pinch", since_frame=frame)
    xr.gesture("dominant", "open-palm")
    assert_event(xr, "gesture", hand="dominant", name="open-palm", since_frame=frame)
    assert_no_event(xr, "gesture", name="thumbs-up", since_frame=frame)
    assert_no_event(xr, "gesture", name="thumbs-down", since_frame=frame)
    assert_no_errors(xr)
