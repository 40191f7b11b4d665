"""Direct touch: a fingertip inside an object starts a touch, leaving it ends the touch, and a
pinch while touching grabs.

The app (held out, in the task's workspace/) has two adjacent 10 cm keys, 'key-a' centred on
(0.15, 1.25, -0.55) and 'key-b' on (0.25, 1.25, -0.55) (state: touching, touches, ends, hands),
and a 12 cm 'block' at (-0.25, 1.15, -0.75) that follows the hand while grabbed (state: grabbed,
grabs, hand, selects). The keys' front faces are at z = -0.5.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import (
    assert_event,
    assert_follows_hand,
    assert_no_errors,
    assert_no_event,
    assert_state,
)

pytestmark = pytest.mark.xr_scenes("empty")

A = (0.15, 1.25, -0.55)
B = (0.25, 1.25, -0.55)
FRONT = -0.5  # z of the keys' front faces


def ready(xr):
    # Scripts finish their (async) initialisation between steps.
    xr.step(1)
    xr.step(1)
    xr.wait(200)


def tip_to(xr, hand, point, speed=0.3):
    hand.move_hand(point, anchor="fingertip", speed=speed)
    xr.step(2)


@pytest.mark.fail_to_pass
def test_a_fingertip_press_touches_a_key_once_and_leaving_it_ends_the_touch(xr):
    ready(xr)
    hand = xr.hand("dominant")
    hand.reach_to("key-a")
    xr.wait(200)  # resting inside the key: still one touch
    assert_state(xr, "key-a", touching=True, touches=1, ends=0, hands=[xr.handedness("dominant")])
    assert_event(xr, "touch", hand="dominant", target="key-a", count=1)
    assert_event(xr, "object_select_start", hand="dominant", target="key-a", count=1)  # a touch selects
    hand.rest()
    assert_state(xr, "key-a", touching=False, touches=1, ends=1)
    assert_event(xr, "object_touch_end", hand="dominant", target="key-a", count=1)
    other = xr.hand("non_dominant")
    other.reach_to("key-a")
    assert_state(xr, "key-a", touching=True, touches=2, ends=1)
    assert_event(xr, "touch", hand="non_dominant", target="key-a", count=1)
    other.rest()
    assert_state(xr, "key-a", touching=False, touches=2, ends=2)
    assert_state(xr, "key-b", touches=0)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_a_touch_holds_until_the_fingertip_is_clearly_out_of_the_key(xr):
    ready(xr)
    hand = xr.hand("dominant")
    x, y, _ = A
    tip_to(xr, hand, (x, y, FRONT + 0.06))  # in front of the key
    tip_to(xr, hand, (x, y, FRONT - 0.02))  # 2 cm in
    assert_state(xr, "key-a", touching=True, touches=1)
    tip_to(xr, hand, (x, y, FRONT + 0.004))  # 4 mm out: within the release margin of 1 cm
    xr.wait(100)
    assert_state(xr, "key-a", touching=True, touches=1, ends=0)
    tip_to(xr, hand, (x, y, FRONT - 0.01))  # back in: the same touch goes on
    assert_state(xr, "key-a", touching=True, touches=1, ends=0)
    tip_to(xr, hand, (x, y, FRONT + 0.03))  # 3 cm out: released
    assert_state(xr, "key-a", touching=False, touches=1, ends=1)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_sliding_into_the_next_key_does_not_press_it_until_the_finger_comes_back(xr):
    ready(xr)
    hand = xr.hand("dominant")
    x, y, _ = A
    tip_to(xr, hand, (x, y, FRONT + 0.06))
    tip_to(xr, hand, (x, y, FRONT - 0.03))
    assert_state(xr, "key-a", touching=True, touches=1)
    tip_to(xr, hand, (B[0], y, FRONT - 0.03), speed=0.1)  # slide sideways into key B
    assert_state(xr, "key-a", touching=False, touches=1, ends=1)
    assert_state(xr, "key-b", touching=False, touches=0)
    tip_to(xr, hand, (B[0], y, FRONT + 0.04))  # out of B ...
    tip_to(xr, hand, (B[0], y, FRONT - 0.02))  # ... and in again: now B is pressed
    assert_state(xr, "key-b", touching=True, touches=1)
    assert_state(xr, "key-a", touches=1)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_touching_the_block_and_pinching_grabs_it(xr):
    ready(xr)
    hand = xr.hand("dominant")
    hand.reach_to("block", depth=0.03)
    hand.pinch()
    assert_state(xr, "block", grabbed=True, grabs=1, hand=xr.handedness("dominant"))
    assert_event(xr, "grab", hand="dominant", target="block", count=1)
    x, y, z = hand.position
    assert_follows_hand(xr, "block", hand, [(x, y + 0.1, z), (x + 0.1, y + 0.15, z + 0.05)], max_deviation=0.02)
    hand.release()
    assert_state(xr, "block", grabbed=False, grabs=1)
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
def test_rays_still_select_and_idle_hands_touch_nothing(xr):
    ready(xr)
    xr.wait(300)
    assert_no_event(xr, "touch")
    xr.hand("non_dominant").click("block")
    assert_event(xr, "object_select_start", hand="non_dominant", target="block", count=1)
    assert_no_event(xr, "touch")
    assert_state(xr, "block", selects=1, grabbed=False)
    assert_state(xr, "key-a", touches=0)
    assert_no_errors(xr)
