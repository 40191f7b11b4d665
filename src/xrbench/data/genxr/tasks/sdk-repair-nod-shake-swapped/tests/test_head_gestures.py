"""Head nods and shakes are recognised as what they are (held-out tests).

The app (the task's own `workspace/`, held out: candidates change only `sdk/src`) enables head
gestures and adds, for every `'gesture'` event of `xb.core.input.headGestures`, a marker tagged
`head-gesture` under its `question-card` (state: the event's `name`, `direction` =
`detail.data.initialDirection`, `index`); a `nod` lights its `yes-lamp` green, a `shake` its
`no-lamp` red. The tests read the markers and the lamps' colours from the scene graph.

The head is driven through the simulator as a person moves it: still for 1.5 s, then pitched or
turned by 20 to 25 degrees at 60 to 120 degrees per second and brought straight back at the same
speed. Each gesture must give exactly one event of its family (`nod` or `shake`) and one of its
direction (`nod-down`, `shake-left`, ...), with that direction as `initialDirection`, and no other
event; none while the head goes away or stays at the far point, all of them within 0.2 s (12
frames) after the head is back, and no more in the second after that. The gestures are made at the
start, after walking away and turning round, while turned sideways, crouching by 50 cm, and while
looking 15 degrees up or down. Movements that are not gestures (turning away and staying, looking
down and staying, a slow turn there and back, movements of 6 degrees or less, a walk without
turning) must give no event at all.

Each test runs for a right- and for a left-dominant user (the hands play no part).
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

STILL_MS = 1500  # the head keeps still this long before each gesture
WITHIN_FRAMES = 12  # 0.2 s at 60 Hz: by then every event of the gesture has arrived
AFTER_MS = 500  # and nothing more comes after that (checked before the next gesture and at the end)
YES_GREEN = "#33dd55"
NO_RED = "#ee3333"

DIRECTIONS = {  # (axis, sign of the angle) -> the direction the head went first
    ("pitch", -1): "down",
    ("pitch", 1): "up",
    ("yaw", 1): "left",  # a positive yaw turns the head to the left
    ("yaw", -1): "right",
}
FAMILY = {"pitch": "nod", "yaw": "shake"}


def events(xr):
    """The head-gesture events the app logged so far, in order: [(name, direction)]."""
    markers = sorted(xr.find_all_by_tag("head-gesture"), key=lambda n: n.state["index"])
    return [(m.state["name"], m.state["direction"]) for m in markers]


def head_angles(xr):
    """(pitch, yaw) of the view in degrees: pitch positive up, yaw positive to the left of -z."""
    f = xr.head.pose.forward
    return math.degrees(math.asin(max(-1.0, min(1.0, f[1])))), math.degrees(math.atan2(-f[0], -f[2]))


def fmt(evts):
    return "[" + ", ".join(f"{n} ({d})" for n, d in evts) + "]" if evts else "no event"


def gesture(xr, axis, angle, *, speed=90.0, hold_frames=0, when="at the start"):
    """Keep still, move the head `angle` degrees about `axis` and back; check the events it gives."""
    __tracebackhide__ = True
    family = FAMILY[axis]
    direction = DIRECTIONS[(axis, 1 if angle > 0 else -1)]
    what = f"a {family} {direction} by {abs(angle)} degrees at {speed:g} degrees/s, {when}"
    seen = events(xr)
    xr.wait(STILL_MS)
    before = events(xr)
    assert before == seen, (
        f"before {what}: expected no event while the head kept still; observed {fmt(before[len(seen) :])}"
    )
    start = head_angles(xr)

    xr.head.rotate(**{axis: angle}, speed=speed)
    if hold_frames:
        xr.step(hold_frames)
    far = head_angles(xr)
    i = 0 if axis == "pitch" else 1
    assert abs(far[i] - start[i] - angle) < 1.0, f"{what}: the head moved {far[i] - start[i]:.1f} degrees"
    early = events(xr)[len(before) :]
    assert not early, (
        f"{what}: expected no head-gesture event while the head goes away and stays at the far point "
        f"(held {hold_frames} frames); observed {fmt(early)}"
    )

    xr.head.rotate(**{axis: -angle}, speed=speed)
    back = head_angles(xr)
    assert math.dist(back, start) < 1.0, f"the head did not come back: {start} -> {back}"
    xr.step(WITHIN_FRAMES)
    got = events(xr)[len(before) :]
    expected = [(family, direction), (f"{family}-{direction}", direction)]
    assert sorted(got) == sorted(expected), (
        f"{what}: expected exactly {fmt(expected)} within 0.2 s after the head was back; observed {fmt(got)}"
    )


def no_more_events(xr, count):
    """Nothing more comes in the next half second (the last gesture of a test gave `count` events in all)."""
    __tracebackhide__ = True
    xr.wait(AFTER_MS)
    later = events(xr)[count:]
    assert not later, f"expected no further event in the half second after the last gesture; observed {fmt(later)}"


def assert_answer(xr, answer, when):
    __tracebackhide__ = True
    card = xr.find_by_tag("question-card")
    yes = xr.find_by_tag("yes-lamp").color
    no = xr.find_by_tag("no-lamp").color
    expected = (YES_GREEN, None) if answer == "yes" else (None, NO_RED)
    observed = (yes if yes == YES_GREEN else None, no if no == NO_RED else None)
    assert card.state["answer"] == answer and observed == expected, (
        f"{when}: expected the card to show '{answer}' (yes-lamp {expected[0] or 'grey'}, "
        f"no-lamp {expected[1] or 'grey'}); observed answer {card.state['answer']!r}, yes-lamp {yes}, no-lamp {no}"
    )


@pytest.fixture
def app(xr):
    xr.step(1)
    return xr


@pytest.mark.fail_to_pass
def test_a_nod_is_reported_as_a_nod(app):
    gesture(app, "pitch", -20, speed=90)
    assert_answer(app, "yes", "after a nod down")
    gesture(app, "pitch", 22, speed=120)
    assert_answer(app, "yes", "after a nod up")
    no_more_events(app, 4)
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_a_shake_is_reported_as_a_shake(app):
    gesture(app, "yaw", 20, speed=90)
    assert_answer(app, "no", "after a shake to the left")
    gesture(app, "yaw", -24, speed=60)
    assert_answer(app, "no", "after a shake to the right")
    no_more_events(app, 4)
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_events_arrive_as_the_head_comes_back(app):
    """The head stays 10 frames at the far point: nothing may come before it turns back."""
    gesture(app, "yaw", -22, speed=120, hold_frames=10)
    assert_answer(app, "no", "after a shake to the right held briefly at the far point")
    gesture(app, "pitch", -22, speed=120, hold_frames=10)
    assert_answer(app, "yes", "after a nod down held briefly at the far point")
    no_more_events(app, 4)
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_gestures_are_recognised_after_walking_and_turning(app):
    app.head.walk([(1.2, 1.5, -1.0), (1.6, 1.5, 0.6)])
    app.head.rotate(yaw=150)
    gesture(app, "pitch", -20, when="after walking away and turning round")
    app.head.rotate(yaw=-90)
    gesture(app, "yaw", -20, speed=60, when="turned 90 degrees to the right of that")
    no_more_events(app, 4)
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_gestures_are_recognised_while_crouching_and_looking_up_or_down(app):
    app.head.move((0.0, -0.5, 0.0))
    app.head.rotate(yaw=-60)
    gesture(app, "yaw", -22, when="crouching 50 cm, turned 60 degrees right")
    app.head.move((0.0, 0.5, 0.0))
    app.head.rotate(pitch=15)
    gesture(app, "pitch", -20, when="standing, looking 15 degrees up")
    app.head.rotate(yaw=100, pitch=-30)
    gesture(app, "yaw", 20, speed=120, when="turned left, looking 15 degrees down")
    no_more_events(app, 6)
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_head_movements_that_are_not_gestures_give_no_event(app):
    def none_since(count, what):
        __tracebackhide__ = True
        got = events(app)[count:]
        assert not got, f"{what}: expected no head-gesture event; observed {fmt(got)}"
        return len(events(app))

    n = none_since(0, "at the start")
    for axis, angle, what in (
        ("yaw", 30, "turning 30 degrees left and staying turned"),
        ("pitch", -25, "looking 25 degrees down and staying there"),
        ("pitch", 25, "looking back up and staying there"),
        ("yaw", -30, "turning back to the right and staying there"),
    ):
        app.wait(STILL_MS)
        app.head.rotate(**{axis: angle}, speed=90)
        app.wait(1500)
        n = none_since(n, what)
    for axis, angle in (("yaw", 12), ("pitch", -14), ("yaw", -20)):
        app.wait(STILL_MS)
        app.head.rotate(**{axis: angle}, speed=20)
        app.head.rotate(**{axis: -angle}, speed=20)
        app.wait(500)
        n = none_since(n, f"a slow {axis} of {angle} degrees there and back at 20 degrees/s")
    for axis, angle in (("pitch", -6), ("pitch", 5), ("yaw", 6)):
        app.wait(STILL_MS)
        app.head.rotate(**{axis: angle}, speed=40)
        app.head.rotate(**{axis: -angle}, speed=40)
        app.wait(500)
        n = none_since(n, f"a small {axis} of {angle} degrees there and back at 40 degrees/s")
    app.head.move((1.0, 0.0, -1.0))
    app.head.move((-1.0, -0.4, 0.5))
    app.wait(1000)
    n = none_since(n, "walking and crouching without turning the head")
    card = app.find_by_tag("question-card")
    assert card.state["answer"] is None, f"the card shows an answer: {card.state['answer']!r}"
    assert_no_errors(app)
