"""A held gesture starts once, ends once when released, and can start again (held-out tests).

The app (the task's own `workspace/`) adds one `star` (state: hand) per `gesturestart` of
`thumbs-up` and keeps `fist-lamp` lit (state: lit, heldBy) between a fist's `gesturestart` and
`gestureend`.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_count, assert_no_errors, assert_state


@pytest.fixture
def app(xr):
    xr.step(1)  # hands placed
    return xr


def star_hands(app) -> list[str]:
    return [n.state["hand"] for n in app.tagged("star")]


@pytest.mark.fail_to_pass
def test_each_thumbs_up_adds_exactly_one_star(app):
    me = app.handedness("dominant")
    app.gesture("dominant", "thumbs-up")  # into the pose, held ~0.4 s, relaxed again
    assert_count(app, "star", 1)
    assert star_hands(app) == [me]
    app.gesture("dominant", "thumbs-up")
    assert_count(app, "star", 2)
    assert star_hands(app) == [me, me]
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_the_fist_lamp_goes_out_when_the_fist_opens_and_lights_again(app):
    me = app.handedness("dominant")
    hand = app.hand("dominant")
    hand.set_pose("fist")
    assert_state(app, "fist-lamp", lit=True, heldBy=[me])
    hand.set_pose("relaxed")
    assert_state(app, "fist-lamp", lit=False, heldBy=[])
    hand.set_pose("fist")
    assert_state(app, "fist-lamp", lit=True, heldBy=[me])
    hand.set_pose("relaxed")
    assert_state(app, "fist-lamp", lit=False)
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_gestures_are_credited_to_the_hand_that_makes_them(app):
    other = app.handedness("non_dominant")
    app.gesture("non_dominant", "thumbs-up")
    hands = star_hands(app)
    assert hands and set(hands) == {other}, hands
    app.hand("non_dominant").set_pose("fist")
    assert_state(app, "fist-lamp", lit=True, heldBy=[other])
    assert_no_errors(app)
