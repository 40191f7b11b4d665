"""Direct touch: a fingertip inside an object starts a touch, leaving it ends the touch, and a
pinch while touching grabs.

The app (held out, in the task's workspace/) has two adjacent 10 cm keys, 'key-a' centred on
(0.15, 1.25, -0.55) and 'key-b' on (0.25, 1.25, -0.55) (state: touching, touches, ends, held =
onObjectTouching calls, hands), and a 12 cm 'block' at (-0.25, 1.15, -0.75) that follows the hand
while grabbed (state: grabbed, grabs, hand, selects). The keys' front faces are at z = -0.5, their
top faces at y = 1.3; they meet at x = 0.2. In the simulator a hand's controller (its ray origin)
sits about 23 cm behind the index fingertip, its wrist between the two.

What a touch carries is read with probes: the Interaction system's live touches (`touches`, one
per touching controller: handIndex, hand, point) and its public `getSourceSnapshot(controller)`
(the orientation the touch input gave). The contact phases and end reasons of `DirectTouch.update`
are checked on a fresh instance of the candidate's DirectTouch fed with scripted inputs, against
the app's live hit registry.
"""

from __future__ import annotations

import math

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
TOP = 1.3  # y of the keys' top faces
SEAM = 0.2  # x where key A ends and key B begins
KEY_A_BOX = ((0.10, 1.20, -0.60), (0.20, 1.30, -0.50))

FAST = 5.0  # m/s: a move of a few centimetres happens within one frame


def ready(xr):
    # Scripts finish their (async) initialisation between steps.
    xr.step(1)
    xr.step(1)
    xr.wait(200)


def tip_to(xr, hand, point, speed=0.3, settle=2):
    hand.move_hand(point, anchor="fingertip", speed=speed)
    if settle:
        xr.step(settle)


def press(xr, hand, key, depth=0.02):
    """Fingertip straight into a key's front face (from 5 cm in front of its centre)."""
    x, y, _ = A if key == "key-a" else B
    tip_to(xr, hand, (x, y, FRONT + 0.05))
    tip_to(xr, hand, (x, y, FRONT - depth))


def lift(xr, hand):
    """Fingertip straight out of the front face, then the hand back to rest."""
    x, y, _ = hand.fingertip
    tip_to(xr, hand, (x, y, FRONT + 0.06))
    hand.rest()


def state(xr, tag):
    return xr.find_by_tag(tag).state


def inside(point, box, margin=0.0):
    lo, hi = box
    return all(lo[i] - margin <= point[i] <= hi[i] + margin for i in range(3))


def _sub(a, b):
    return tuple(a[i] - b[i] for i in range(3))


def _angle_deg(q1, q2):
    d = abs(sum(a * b for a, b in zip(q1, q2, strict=True)))
    return math.degrees(2 * math.acos(min(1.0, d)))


# Every touch the Interaction system holds now: which controller, and what its input carried.
TOUCHES = """(h) => {
  const I = h.core.interaction;
  const controllers = h.core.input.controllers;
  const out = [];
  for (const [controller, touch] of I.touches) {
    const i = controllers.indexOf(controller);
    const hands = h.core.input.hands;
    const wrist = hands[i] && hands[i].joints ? hands[i].joints['wrist'] : undefined;
    const snapshot = I.getSourceSnapshot(controller);
    const q = new h.THREE.Quaternion();
    controller.getWorldQuaternion(q);
    out.push({
      controller: i,
      handIndex: touch.handIndex,
      wrist: wrist !== undefined && touch.hand === wrist,
      handKind: touch.hand ? (touch.hand === hands[i] ? 'hand space' : touch.hand.type) : 'none',
      point: touch.point.toArray(),
      orientation: snapshot ? snapshot.orientation.toArray() : null,
      sourceType: snapshot ? snapshot.sourceType : null,
      controllerQuaternion: q.toArray(),
    });
  }
  return out;
}"""

# A fresh DirectTouch of the candidate's SDK, on the app's live hit registry, fed scripted frames
# of inputs ([controller index, point]); the contacts each update returned.
SCRIPTED = """(h, frames) => {
  const I = h.core.interaction;
  const DirectTouch = I.directTouch.constructor;
  const touch = new DirectTouch(I.registry, I.resolver);
  const controllers = h.core.input.controllers;
  const hands = h.core.input.hands;
  const tagOf = (object) => {
    let found = null;
    if (object) object.traverse((o) => {
      const d = o.userData && o.userData.xrblocksDevtools;
      if (found === null && d && d.tag != null) found = String(d.tag);
    });
    return found;
  };
  const out = [];
  for (const frame of frames) {
    const inputs = frame.map(([i, p]) => ({
      controller: controllers[i],
      handIndex: i,
      hand: hands[i] && hands[i].joints ? hands[i].joints['wrist'] : undefined,
      point: new h.THREE.Vector3(p[0], p[1], p[2]),
      orientation: new h.THREE.Quaternion(),
      selected: false,
    }));
    const contacts = Array.from(touch.update(inputs) || []);
    out.push(contacts.map((c) => ({
      hand: controllers.indexOf(c.controller),
      phase: c.phase,
      reason: c.endReason || null,
      target: c.resolved && c.resolved.target ? tagOf(c.resolved.target) : null,
    })));
  }
  return out;
}"""


def touches_now(xr):
    return xr.probe(TOUCHES)


def one_touch_of(xr, hand):
    touches = [t for t in touches_now(xr) if t["controller"] == hand.index]
    assert len(touches) == 1, (
        f"expected one touch held by the {hand.handedness} hand's controller; observed {touches_now(xr)}"
    )
    return touches[0]


@pytest.mark.fail_to_pass
def test_a_fingertip_press_touches_a_key_once_and_leaving_it_ends_the_touch(xr):
    ready(xr)
    hand = xr.hand("dominant")
    press(xr, hand, "key-a")
    start = assert_event(xr, "touch", hand="dominant", target="key-a", count=1)[0].frame
    xr.wait(5000)  # resting inside the key for 5 s: still one touch, continued every frame
    assert_state(xr, "key-a", touching=True, touches=1, ends=0, hands=[xr.handedness("dominant")])
    assert_event(xr, "touch", hand="dominant", target="key-a", count=1)
    assert_event(xr, "object_select_start", hand="dominant", target="key-a", count=1)  # a touch selects
    held = state(xr, "key-a")["held"]
    frames = xr.frame - start
    assert abs(held - frames) <= 1, (
        f"expected the touch to continue (onObjectTouching) once per frame while the fingertip rests in the key: "
        f"{frames} frames since it started; observed {held} calls"
    )
    assert_no_event(xr, "select", target="key-a")  # the tap completes only when the fingertip leaves
    lift(xr, hand)
    assert_state(xr, "key-a", touching=False, touches=1, ends=1)
    assert_event(xr, "object_touch_end", hand="dominant", target="key-a", count=1)
    assert_event(xr, "select", hand="dominant", target="key-a", count=1)  # lifting off completes a tap
    held_after = state(xr, "key-a")["held"]
    xr.step(30)
    assert state(xr, "key-a")["held"] == held_after, "the touch went on after the fingertip left the key"
    other = xr.hand("non_dominant")
    press(xr, other, "key-a")
    assert_state(xr, "key-a", touching=True, touches=2, ends=1)
    assert_event(xr, "touch", hand="non_dominant", target="key-a", count=1)
    lift(xr, other)
    assert_state(xr, "key-a", touching=False, touches=2, ends=2)
    assert_event(xr, "select", hand="non_dominant", target="key-a", count=1)
    assert_state(xr, "key-b", touches=0)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_a_touch_starts_the_frame_the_fingertip_enters_and_only_the_fingertip_touches(xr):
    ready(xr)
    hand = xr.hand("dominant")
    x, y, _ = A
    tip_to(xr, hand, (x, y, FRONT + 0.05))
    tip_to(xr, hand, (x, y, FRONT + 0.006), speed=0.1, settle=30)  # 6 mm in front of the key
    tip_to(xr, hand, (x, y, FRONT + 0.002), speed=0.05, settle=30)  # 2 mm in front
    assert_state(xr, "key-a", touching=False, touches=0)
    tip_to(xr, hand, (x, y, FRONT - 0.004), speed=FAST, settle=0)  # in, within one frame
    entered = xr.frame
    assert inside(hand.fingertip, KEY_A_BOX), f"setup: the fingertip {hand.fingertip} should be in key A"
    assert_state(xr, "key-a", touching=True, touches=1)
    assert_event(xr, "touch", hand="dominant", target="key-a", count=1)
    frame = xr.events("touch")[0].frame
    assert frame == entered, (
        f"expected the touch to start in the frame the fingertip entered ({entered}); it started in {frame}"
    )
    touch = one_touch_of(xr, hand)
    tip = hand.fingertip
    d = math.dist(touch["point"], tip)
    assert d <= 0.005, (
        f"expected the touch point to be the index fingertip {tuple(round(c, 3) for c in tip)}; "
        f"observed {tuple(round(c, 3) for c in touch['point'])}, {d:.3f} m away"
    )
    lift(xr, hand)
    assert_state(xr, "key-a", touching=False, touches=1, ends=1)

    # The wrist, then the controller, are put inside key A while the fingertip stays above and
    # behind it: nothing is touched.
    tip_to(xr, hand, (x, 1.45, -0.42))
    tip = hand.fingertip
    to_wrist = _sub(hand.joints["wrist"].position, tip)
    to_controller = _sub(hand.position, tip)
    for part, offset in (("wrist", to_wrist), ("controller", to_controller)):
        goal = _sub(A, offset)  # the fingertip where this part is at key A's centre
        tip_to(xr, hand, (goal[0], 1.45, goal[2]))
        tip_to(xr, hand, goal, settle=30)
        where = hand.joints["wrist"].position if part == "wrist" else hand.position
        assert inside(where, KEY_A_BOX), f"setup: the {part} {where} should be in key A"
        assert not inside(hand.fingertip, KEY_A_BOX, 0.04), (
            f"setup: the fingertip {hand.fingertip} should be outside key A"
        )
        assert_state(xr, "key-a", touching=False, touches=1, ends=1)
        assert_state(xr, "key-b", touches=0)
        assert_state(xr, "block", selects=0)
        held = touches_now(xr)
        assert held == [], f"expected no touch while only the {part} is in key A; observed {held}"
        tip_to(xr, hand, (goal[0], 1.45, goal[2]))
    tip_to(xr, hand, (x, y, -0.75))
    # From behind, the fingertip entering the key's back face touches it.
    tip_to(xr, hand, (x, y, -0.58))
    assert_state(xr, "key-a", touching=True, touches=2)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_a_touch_holds_until_the_fingertip_is_clearly_out_of_the_key(xr):
    ready(xr)
    hand = xr.hand("dominant")
    x, y, _ = A
    tip_to(xr, hand, (x, y, FRONT + 0.06))  # in front of the key
    tip_to(xr, hand, (x, y, FRONT - 0.02))  # 2 cm in
    assert_state(xr, "key-a", touching=True, touches=1)
    tip_to(xr, hand, (x, y, FRONT + 0.008), speed=0.05, settle=30)  # 8 mm out: within the 1 cm margin
    assert_state(xr, "key-a", touching=True, touches=1, ends=0)
    tip_to(xr, hand, (x, y, FRONT - 0.01))  # back in: the same touch goes on
    assert_state(xr, "key-a", touching=True, touches=1, ends=0)
    tip_to(xr, hand, (x, TOP + 0.008, FRONT - 0.03), speed=0.05, settle=30)  # 8 mm above the top face
    assert_state(xr, "key-a", touching=True, touches=1, ends=0)
    tip_to(xr, hand, (x, y, FRONT - 0.03))
    # 6 mm into key B, 6 mm out of key A: still the touch of key A, key B untouched.
    tip_to(xr, hand, (SEAM + 0.006, y, FRONT - 0.03), speed=0.05, settle=30)
    assert_state(xr, "key-a", touching=True, touches=1, ends=0)
    assert_state(xr, "key-b", touching=False, touches=0)
    tip_to(xr, hand, (x, y, FRONT - 0.03))
    assert_state(xr, "key-a", touching=True, touches=1, ends=0)
    assert_no_event(xr, "object_touch_end")
    tip_to(xr, hand, (x, y, FRONT + 0.004), speed=0.05)
    tip_to(xr, hand, (x, y, FRONT + 0.012), speed=FAST, settle=0)  # 12 mm out, in one frame: released
    out = xr.frame
    assert_state(xr, "key-a", touching=False, touches=1, ends=1)
    ended = assert_event(xr, "object_touch_end", target="key-a", count=1)[0].frame
    assert ended == out, (
        f"expected the touch to end in the frame the fingertip passed 1 cm out ({out}); it ended in {ended}"
    )
    xr.step(30)
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
    tip_to(xr, hand, (B[0], y, FRONT - 0.03), speed=0.1, settle=60)  # slide sideways into key B, stay
    assert_state(xr, "key-a", touching=False, touches=1, ends=1)
    assert_state(xr, "key-b", touching=False, touches=0)
    assert_event(xr, "object_select_end", target="key-a", count=1)
    assert_no_event(xr, "select", target="key-a")  # sliding off cancels the press: no tap
    tip_to(xr, hand, (x, y, FRONT - 0.03), speed=0.1, settle=30)  # slide back into key A: still nothing
    assert_state(xr, "key-a", touching=False, touches=1, ends=1)
    assert_state(xr, "key-b", touching=False, touches=0)
    tip_to(xr, hand, (B[0], y, FRONT - 0.03), speed=0.1)
    tip_to(xr, hand, (B[0], y, FRONT + 0.04))  # out of B ...
    assert_state(xr, "key-b", touching=False, touches=0)
    tip_to(xr, hand, (B[0], y, FRONT - 0.02))  # ... and in again: now B is pressed
    assert_state(xr, "key-b", touching=True, touches=1)
    assert_state(xr, "key-a", touches=1)
    tip_to(xr, hand, (B[0], y, FRONT + 0.04))
    assert_state(xr, "key-b", touching=False, touches=1, ends=1)
    assert_event(xr, "select", hand="dominant", target="key-b", count=1)
    tip_to(xr, hand, (x, y, FRONT - 0.02))  # and key A, entered afresh, is pressed again
    assert_state(xr, "key-a", touching=True, touches=2, ends=1)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_touching_the_block_and_pinching_grabs_it(xr):
    ready(xr)
    hand = xr.hand("dominant")
    other = xr.hand("non_dominant")
    other.point_to((-0.4, 3.0, 0.6))  # its ray points away from everything
    hand.rotate_hand(pitch=-12, yaw=18)  # a turned hand: the touch carries the controller's orientation
    hand.reach_to("block", depth=0.03)
    assert_state(xr, "block", grabbed=False, grabs=0, selects=1)
    touch = one_touch_of(xr, hand)
    assert touch["handIndex"] == hand.index, (
        f"expected the touch of the {hand.handedness} hand to carry handIndex {hand.index}; "
        f"observed {touch['handIndex']}"
    )
    assert touch["wrist"], f"expected the touch to carry the hand's wrist joint as `hand`; observed {touch['handKind']}"
    assert touch["orientation"] is not None, "no source snapshot for the touching controller"
    turned = _angle_deg(touch["controllerQuaternion"], (0.0, 0.0, 0.0, 1.0))
    assert turned > 10, f"setup: the controller should be turned (observed {turned:.1f} deg)"
    off = _angle_deg(touch["orientation"], touch["controllerQuaternion"])
    assert off <= 2.0, (
        f"expected the touch to carry the controller's world orientation {touch['controllerQuaternion']}; "
        f"observed {touch['orientation']}, {off:.1f} deg off"
    )
    other.pinch()  # the other hand's pinch does not grab what this hand touches
    assert_state(xr, "block", grabbed=False, grabs=0)
    other.release()
    hand.pinch()
    assert_state(xr, "block", grabbed=True, grabs=1, hand=xr.handedness("dominant"))
    assert_event(xr, "grab", hand="dominant", target="block", count=1)
    x, y, z = hand.position
    assert_follows_hand(xr, "block", hand, [(x, y + 0.1, z), (x + 0.1, y + 0.15, z + 0.05)], max_deviation=0.02)
    hand.release()
    assert_state(xr, "block", grabbed=False, grabs=1)
    assert_event(xr, "object_grab_end", target="block", count=1)
    assert_no_event(xr, "object_touch_end")  # the touch goes on after the pinch ends
    xr.step(20)
    assert_state(xr, "block", grabbed=False, grabs=1)
    hand.pinch()  # pinching again while still touching grabs again
    assert_state(xr, "block", grabbed=True, grabs=2)
    hand.release()
    assert_state(xr, "block", grabbed=False, grabs=2)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_both_hands_touch_at_once_each_on_its_own(xr):
    ready(xr)
    hand = xr.hand("dominant")
    other = xr.hand("non_dominant")
    me, you = xr.handedness("dominant"), xr.handedness("non_dominant")
    press(xr, other, "key-a")
    press(xr, hand, "key-b")
    assert_state(xr, "key-a", touching=True, touches=1, hands=[you])
    assert_state(xr, "key-b", touching=True, touches=1, hands=[me])
    held = sorted((t["controller"], t["handIndex"]) for t in touches_now(xr))
    assert held == [(0, 0), (1, 1)], (
        "expected both hands touching, each with its own handIndex "
        f"((controller, handIndex) (0, 0) and (1, 1)); observed {held}"
    )
    # The dominant fingertip slides from key B into key A, which the other hand is touching.
    tip_to(xr, hand, (A[0] - 0.01, A[1] + 0.01, FRONT - 0.02), speed=0.1, settle=20)
    assert_state(xr, "key-b", touching=False, touches=1, ends=1)
    assert_state(xr, "key-a", touching=True, touches=1, ends=0, hands=[you])
    lift(xr, other)  # the other hand lifts off key A; the dominant fingertip is still in it
    assert_state(xr, "key-a", touching=False, touches=1, ends=1)
    assert_event(xr, "select", hand="non_dominant", target="key-a", count=1)
    press(xr, other, "key-b")  # while the dominant hand waits to leave every key, the other hand presses B
    assert_state(xr, "key-b", touching=True, touches=2, hands=[me, you])
    assert_state(xr, "key-a", touching=False, touches=1)
    lift(xr, hand)
    press(xr, hand, "key-a")
    assert_state(xr, "key-a", touching=True, touches=2, hands=[you, me])
    assert_state(xr, "key-b", touching=True, touches=2, ends=1)
    lift(xr, other)
    assert_state(xr, "key-b", touching=False, ends=2)
    assert_state(xr, "key-a", touching=True, touches=2)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_contact_phases_and_end_reasons_for_scripted_fingertips(xr):
    ready(xr)
    d = xr.hand("dominant").index
    o = 1 - d
    a_in = list(A)
    b_in = list(B)
    near_a = [A[0], A[1], FRONT + 0.15]
    frames = [
        [[d, a_in]],  # 0: start on key A
        [[d, a_in]],  # 1: move
        [[d, a_in], [o, b_in]],  # 2: move; the other hand starts on key B
        [[o, b_in]],  # 3: the first hand's input is gone: its touch ends (source-lost)
        [[o, b_in]],  # 4: nothing more for it
        [],  # 5: the other hand's input is gone too
        [],  # 6
        [[d, a_in]],  # 7: start on A again
        [[d, b_in]],  # 8: slid into B: ends (target-changed)
        [[d, b_in]],  # 9: B is not touched
        [[d, near_a]],  # 10: left every object
        [[d, a_in]],  # 11: start on A
        [[d, near_a]],  # 12: lifted off: ends (left-target)
    ]
    expected = [
        [(d, "start", None, "key-a")],
        [(d, "move", None, "key-a")],
        [(d, "move", None, "key-a"), (o, "start", None, "key-b")],
        [(d, "end", "source-lost", None), (o, "move", None, "key-b")],
        [(o, "move", None, "key-b")],
        [(o, "end", "source-lost", None)],
        [],
        [(d, "start", None, "key-a")],
        [(d, "end", "target-changed", None)],
        [],
        [],
        [(d, "start", None, "key-a")],
        [(d, "end", "left-target", None)],
    ]
    observed = xr.probe(SCRIPTED, frames)
    for i, (want, got) in enumerate(zip(expected, observed, strict=False)):
        got_set = sorted(
            (c["hand"], c["phase"], c["reason"], c["target"] if c["phase"] != "end" else None) for c in got
        )
        assert got_set == sorted(want), (
            f"scripted frame {i} (inputs {frames[i]}): expected the contacts {sorted(want)} "
            f"((hand, phase, end reason, target)); observed {got_set}. All frames: {observed}"
        )
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
def test_rays_still_select_and_idle_hands_touch_nothing(xr):
    ready(xr)
    xr.wait(300)
    assert_no_event(xr, "touch")
    hand = xr.hand("dominant")
    other = xr.hand("non_dominant")
    other.click("block")
    assert_event(xr, "object_select_start", hand="non_dominant", target="block", count=1)
    assert_no_event(xr, "touch")
    assert_state(xr, "block", selects=1, grabbed=False)
    assert_state(xr, "key-a", touches=0)
    # A fingertip pressed into key A and lifted off again; the same hand's ray then selects.
    hand.point_forward()
    press(xr, hand, "key-a")
    lift(xr, hand)
    hand.click("block")
    assert_event(xr, "object_select_start", hand="dominant", target="block")
    assert_state(xr, "block", grabbed=False)
    assert state(xr, "block")["selects"] == 2, (
        f"expected the dominant hand's ray to select the block; state {state(xr, 'block')}"
    )
    assert_no_errors(xr)
