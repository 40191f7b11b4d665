"""Direct touch and touch-grab belong to the hand whose fingertip is in contact (held-out tests).

The app (the task's own `workspace/`, held out: only the candidate's `sdk/src` is used) has a
round button tagged `poke-button` (12 cm across, 3 cm deep, centred on (-0.12, 1.3, -0.6)) whose
state records the hand of the last press (from the touch event's `handIndex`, or the ray source's
handedness) and a 10 cm cube tagged `grab-cube` (centred on (0.12, 1.3, -0.6)) that follows the
`touchPosition` of the hand which grabbed it. Both record what every touch, grab and select event
said about its hand: `log` (start and end events: hook, handIndex, source handedness, touchPosition
as `tip`, the world position of `event.hand` as `wrist`), `frames` (calls of `onObjectTouching` /
`onObjectGrabbing` per handIndex) and `last` (the last of those calls per handIndex). The frames of
touch, grab, select and hover events come from the harness's own event record.

The tests check that
- a touch starts on the very frame the fingertip enters the button's box (and selects it on that
  frame), goes on every frame while the fingertip stays (also 5 mm outside the face), ends once
  it is 3 cm out, and that every event names the poking hand (index, source, wrist, fingertip);
  the hand's grip (controller) inside the button, fingertip beyond it, touches nothing;
- a pinch of the touching hand grabs the cube on the frame it starts, `onObjectGrabbing` comes
  every frame of a 2 s hold, the cube follows the hand within 1 cm, the release ends the grab on
  its frame, and a second pinch grabs again;
- a pinch of the other hand (its ray pointing away) while one hand touches the cube grabs nothing,
  in both directions;
- both hands touch at once (one the cube, the other the button), both grab at once, and each
  event reports only its own hand;
- ray clicks and hover of either hand still work and name that hand.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import (
    assert_color,
    assert_event,
    assert_follows_hand,
    assert_no_errors,
    assert_no_event,
    assert_state,
)

pytestmark = pytest.mark.xr_scenes("empty")

COLORS = {"left": "#3399ff", "right": "#ff8800"}
BUTTON = (-0.12, 1.3, -0.6)
BUTTON_FRONT = -0.585  # z of the button's face (it is 3 cm deep)
CUBE = (0.12, 1.3, -0.6)
CUBE_FRONT = -0.55  # z of the cube's face (10 cm)
NEAR = 0.005  # m: a reported fingertip or wrist position vs the hand's joint (the hand stands still)


@pytest.fixture
def app(xr):
    xr.step(1)  # hands placed
    return xr


def state(xr, tag: str) -> dict:
    return xr.find_by_tag(tag).state


def logged(xr, tag: str, hook: str) -> list[dict]:
    return [e for e in state(xr, tag)["log"] if e["hook"] == hook]


def frame_of(xr, event_type: str, hand: str, tag: str, after: int) -> list[int]:
    return [
        e.frame for e in xr.events() if e.type == event_type and e.hand == hand and e.tag == tag and e.frame > after
    ]


def joint(xr, hand, name: str) -> tuple[float, float, float]:
    return tuple(xr.hand_joints(hand.handedness)[name].position)


def check_reports(entry: dict | None, hand, what: str, *, tip=None, wrist=None) -> None:
    """An event's record names `hand`: its index, source and (when given) fingertip and wrist."""
    assert entry is not None, f"{what}: expected an event of the {hand.handedness} hand; observed none"
    assert entry["handIndex"] == hand.index, (
        f"{what}: expected handIndex {hand.index} (the {hand.handedness} hand); observed {entry['handIndex']}"
    )
    assert entry["source"] == hand.handedness, (
        f"{what}: expected source.handedness {hand.handedness!r}; observed {entry['source']!r}"
    )
    for name, want in (("touchPosition", tip), ("hand (wrist)", wrist)):
        if want is None:
            continue
        got = entry["tip" if name == "touchPosition" else "wrist"]
        assert got is not None, f"{what}: expected {name} at {want}; observed none"
        d = math.dist(got, want)
        assert d <= NEAR, (
            f"{what}: expected {name} at the {hand.handedness} hand's "
            f"{'index fingertip' if name == 'touchPosition' else 'wrist'} {tuple(round(v, 3) for v in want)} "
            f"(within {NEAR} m); observed {tuple(got)}, {d:.3f} m away"
        )


def approach(hand, centre, front: float, depth: float) -> None:
    """Bring the fingertip in front of both objects, level with `centre`, then `depth` behind `front`."""
    hand.move_hand((centre[0], centre[1], -0.5), anchor="fingertip")
    hand.move_hand((centre[0], centre[1], front - depth), anchor="fingertip")


def point_away(xr, hand) -> None:
    """Turn the hand's ray away from both objects (up and out to its side)."""
    side = -1.0 if hand.handedness == "left" else 1.0
    hand.point_to((side * 2.5, 3.0, -0.5))


@pytest.mark.fail_to_pass
def test_a_poke_starts_on_the_frame_the_fingertip_enters_and_reports_the_poking_hand(app):
    xr = app
    me, other = xr.hand("dominant"), xr.hand("non_dominant")
    bbox = xr.find_by_tag("poke-button").bbox

    # The grip (controller) in the button, the fingertip 20 cm beyond it: nothing touches.
    me.move_hand(BUTTON, anchor="controller")
    xr.step(10)
    assert_no_event(xr, "touch")
    assert_state(xr, "poke-button", presses=0)
    me.rest()

    # The fingertip approaches the button's face and goes 1.5 cm in, 5 mm per frame.
    x, y, _ = BUTTON
    me.move_hand((x, y, -0.5), anchor="fingertip")
    me.move_hand((x, y, BUTTON_FRONT + 0.03), anchor="fingertip")
    start = xr.frame
    r = me.move_hand((x, y, BUTTON[2]), anchor="fingertip", speed=0.3)
    first = xr.frame - r["frames"] + 1
    inside = [first + i for i, p in enumerate(r["anchor"]) if all(bbox[0][k] <= p[k] <= bbox[1][k] for k in range(3))]
    assert inside, f"the fingertip never entered the button's box {bbox}: {r['anchor']}"
    entered = inside[0]
    touched = frame_of(xr, "object_touch_start", me.handedness, "poke-button", start)
    assert touched == [entered], (
        f"expected one touch by the {me.handedness} hand on frame {entered}, when its fingertip entered the button; "
        f"observed touch starts on frames {touched} (events {xr.events()[-8:]})"
    )
    selected = frame_of(xr, "object_select_start", me.handedness, "poke-button", start)
    assert selected == [entered], f"expected the touch to select the button on frame {entered}; observed {selected}"
    assert_state(xr, "poke-button", presses=1, lastHand=me.handedness, via="touch")
    assert_color(xr, "poke-button", COLORS[me.handedness])
    (touch_start,) = logged(xr, "poke-button", "onObjectTouchStart")
    check_reports(touch_start, me, "onObjectTouchStart", tip=r["anchor"][entered - first])
    (select,) = logged(xr, "poke-button", "onObjectSelectStart")
    assert select["source"] == me.handedness, (
        f"the touch's selection: expected source {me.handedness}; observed {select}"
    )

    # Resting inside for a second: onObjectTouching every frame, all of it the poking hand's.
    before = state(xr, "poke-button")["frames"]["onObjectTouching"]
    xr.step(60)
    s = state(xr, "poke-button")
    calls = s["frames"]["onObjectTouching"]
    assert calls[me.index] - before[me.index] == 60 and calls[other.index] == 0, (
        f"expected 60 onObjectTouching calls for handIndex {me.index} in 60 frames and none for {other.index}; "
        f"observed {before} -> {calls}"
    )
    check_reports(
        s["last"]["onObjectTouching"][me.index],
        me,
        "onObjectTouching",
        tip=joint(xr, me, "index-finger-tip"),
        wrist=joint(xr, me, "wrist"),
    )

    # 5 mm in front of the face the touch holds; 3 cm out it ends, once, for the poking hand.
    me.move_hand((x, y, BUTTON_FRONT + 0.005), anchor="fingertip", speed=0.3)
    xr.step(10)
    assert_no_event(xr, "object_touch_end")
    me.move_hand((x, y, BUTTON_FRONT + 0.03), anchor="fingertip", speed=0.3)
    xr.step(2)
    assert_event(xr, "object_touch_end", hand="dominant", target="poke-button", count=1)
    (end,) = logged(xr, "poke-button", "onObjectTouchEnd")
    check_reports(end, me, "onObjectTouchEnd")
    me.rest()

    # The other hand's poke is its own.
    other.reach_to("poke-button")
    xr.step(2)
    assert_state(xr, "poke-button", presses=2, lastHand=other.handedness, via="touch")
    assert_color(xr, "poke-button", COLORS[other.handedness])
    check_reports(logged(xr, "poke-button", "onObjectTouchStart")[-1], other, "onObjectTouchStart (other hand)")
    s = state(xr, "poke-button")
    check_reports(
        s["last"]["onObjectTouching"][other.index],
        other,
        "onObjectTouching (other hand)",
        tip=joint(xr, other, "index-finger-tip"),
        wrist=joint(xr, other, "wrist"),
    )
    assert_event(xr, "touch", hand="non_dominant", target="poke-button", count=1)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_pinching_with_the_touching_hand_grabs_and_carries_the_cube(app):
    xr = app
    me, other = xr.hand("dominant"), xr.hand("non_dominant")
    me.reach_to("grab-cube", depth=0.04)
    assert_event(xr, "touch", hand="dominant", target="grab-cube", count=1)
    assert_state(xr, "grab-cube", grabbed=False, grabs=0)

    pinch = xr.frame
    me.start_select(1)  # the pinch begins on this frame
    grabbed = frame_of(xr, "object_grab_start", me.handedness, "grab-cube", pinch)
    assert grabbed == [pinch + 1], f"expected the grab to start on frame {pinch + 1}, the pinch's; observed {grabbed}"
    me.pinch(23)  # the fingers close
    assert_state(xr, "grab-cube", grabbed=True, grabs=1, hand=me.handedness)
    (grab_start,) = logged(xr, "grab-cube", "onObjectGrabStart")
    check_reports(grab_start, me, "onObjectGrabStart")

    # Held still for 2 s: onObjectGrabbing every frame, for the grabbing hand only.
    before = state(xr, "grab-cube")["frames"]["onObjectGrabbing"]
    xr.step(120)
    s = state(xr, "grab-cube")
    calls = s["frames"]["onObjectGrabbing"]
    assert calls[me.index] - before[me.index] == 120 and calls[other.index] == 0, (
        f"expected 120 onObjectGrabbing calls for handIndex {me.index} in 120 frames and none for {other.index}; "
        f"observed {before} -> {calls}"
    )
    check_reports(
        s["last"]["onObjectGrabbing"][me.index],
        me,
        "onObjectGrabbing",
        tip=joint(xr, me, "index-finger-tip"),
        wrist=joint(xr, me, "wrist"),
    )
    assert_state(xr, "grab-cube", grabbed=True, grabs=1)

    x, y, z = me.position
    assert_follows_hand(xr, "grab-cube", me, [(x, y + 0.12, z), (x - 0.08, y + 0.15, z + 0.06)], max_deviation=0.01)
    s = state(xr, "grab-cube")
    check_reports(
        s["last"]["onObjectGrabbing"][me.index],
        me,
        "onObjectGrabbing after the move",
        tip=joint(xr, me, "index-finger-tip"),
    )

    release = xr.frame
    me.end_select(1)
    ended = frame_of(xr, "object_grab_end", me.handedness, "grab-cube", release)
    assert ended == [release + 1], f"expected the grab to end on frame {release + 1}, the release's; observed {ended}"
    me.release(23)
    assert_state(xr, "grab-cube", grabbed=False, grabs=1)
    (grab_end,) = logged(xr, "grab-cube", "onObjectGrabEnd")
    check_reports(grab_end, me, "onObjectGrabEnd")
    calls = state(xr, "grab-cube")["frames"]["onObjectGrabbing"]
    xr.step(10)
    assert state(xr, "grab-cube")["frames"]["onObjectGrabbing"] == calls, "onObjectGrabbing went on after the release"

    # A second pinch of the same hand grabs again.
    me.pinch()
    assert_state(xr, "grab-cube", grabbed=True, grabs=2, hand=me.handedness)
    me.release()
    assert_state(xr, "grab-cube", grabbed=False, grabs=2)
    assert_event(xr, "grab", hand="dominant", target="grab-cube", count=2)
    assert_no_event(xr, "grab", hand="non_dominant")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_a_pinch_of_the_other_hand_does_not_grab_what_one_hand_touches(app):
    xr = app
    for toucher, pincher in (
        (xr.hand("dominant"), xr.hand("non_dominant")),
        (xr.hand("non_dominant"), xr.hand("dominant")),
    ):
        approach(toucher, xr.find_by_tag("grab-cube").position, CUBE_FRONT, 0.04)
        point_away(xr, pincher)
        at = xr.find_by_tag("grab-cube").position
        grabs = state(xr, "grab-cube")["grabs"]
        grabbing = state(xr, "grab-cube")["frames"]["onObjectGrabbing"]
        since = xr.frame
        pincher.pinch(30)
        assert_no_event(xr, "grab", since_frame=since)
        s = assert_state(xr, "grab-cube", grabbed=False, grabs=grabs)
        assert s["frames"]["onObjectGrabbing"] == grabbing, f"onObjectGrabbing: {grabbing} -> {s['frames']}"
        pincher.release()
        assert_no_event(xr, "grab", since_frame=since)
        moved = math.dist(xr.find_by_tag("grab-cube").position, at)
        assert moved < 0.005, f"the cube moved {moved:.3f} m while the other hand pinched"
        # The touching hand's own pinch does grab.
        toucher.pinch()
        assert_state(xr, "grab-cube", grabbed=True, grabs=grabs + 1, hand=toucher.handedness)
        toucher.release()
        assert_event(xr, "grab", hand=toucher.handedness, target="grab-cube", since_frame=since, count=1)
        toucher.rest()
        pincher.rest()
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_both_hands_touch_and_grab_at_the_same_time_each_for_itself(app):
    xr = app
    me, other = xr.hand("dominant"), xr.hand("non_dominant")
    approach(me, CUBE, CUBE_FRONT, 0.04)
    approach(other, BUTTON, BUTTON_FRONT, 0.015)
    xr.step(2)
    # Both touch now: every touch so far names its own hand.
    assert_event(xr, "touch", hand="dominant", target="grab-cube", count=1)
    assert_event(xr, "touch", hand="non_dominant", target="poke-button", count=1)
    check_reports(logged(xr, "grab-cube", "onObjectTouchStart")[-1], me, "cube onObjectTouchStart")
    check_reports(logged(xr, "poke-button", "onObjectTouchStart")[-1], other, "button onObjectTouchStart")
    cube0 = state(xr, "grab-cube")["frames"]["onObjectTouching"]
    button0 = state(xr, "poke-button")["frames"]["onObjectTouching"]
    xr.step(30)
    cube1 = state(xr, "grab-cube")["frames"]["onObjectTouching"]
    button1 = state(xr, "poke-button")["frames"]["onObjectTouching"]
    assert cube1[me.index] - cube0[me.index] == 30 and cube1[other.index] == 0, (cube0, cube1)
    assert button1[other.index] - button0[other.index] == 30 and button1[me.index] == 0, (button0, button1)
    check_reports(
        state(xr, "grab-cube")["last"]["onObjectTouching"][me.index],
        me,
        "cube onObjectTouching",
        tip=joint(xr, me, "index-finger-tip"),
        wrist=joint(xr, me, "wrist"),
    )
    check_reports(
        state(xr, "poke-button")["last"]["onObjectTouching"][other.index],
        other,
        "button onObjectTouching",
        tip=joint(xr, other, "index-finger-tip"),
        wrist=joint(xr, other, "wrist"),
    )

    # Both pinch: each grabs what it touches.
    me.pinch()
    other.pinch()
    assert_state(xr, "grab-cube", grabbed=True, grabs=1, hand=me.handedness)
    assert_event(xr, "grab", hand="dominant", target="grab-cube", count=1)
    assert_event(xr, "grab", hand="non_dominant", target="poke-button", count=1)
    check_reports(logged(xr, "poke-button", "onObjectGrabStart")[-1], other, "button onObjectGrabStart")
    assert_state(xr, "poke-button", presses=1, lastHand=other.handedness)

    # The dominant hand carries the cube while the other keeps holding the button.
    x, y, z = me.position
    assert_follows_hand(xr, "grab-cube", me, [(x, y + 0.1, z + 0.05)], max_deviation=0.01)
    g = state(xr, "poke-button")["frames"]["onObjectGrabbing"]
    assert g[me.index] == 0 and g[other.index] > 0, f"button onObjectGrabbing by handIndex: {g}"
    me.release()
    assert_state(xr, "grab-cube", grabbed=False, grabs=1)
    assert_no_event(xr, "object_grab_end", target="poke-button")
    xr.step(5)
    g2 = state(xr, "poke-button")["frames"]["onObjectGrabbing"]
    assert g2[other.index] > g[other.index], f"the button's grab stopped when the other hand released: {g} -> {g2}"
    other.release()
    assert_event(xr, "object_grab_end", hand="non_dominant", target="poke-button", count=1)
    check_reports(logged(xr, "poke-button", "onObjectGrabEnd")[-1], other, "button onObjectGrabEnd")
    assert_no_event(xr, "grab", hand="non_dominant", target="grab-cube")
    assert_no_event(xr, "grab", hand="dominant", target="poke-button")
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
def test_ray_clicks_and_hover_are_reported_for_the_pointing_hand(app):
    xr = app
    me, other = xr.hand("dominant"), xr.hand("non_dominant")
    for n, hand in enumerate((me, other), start=1):
        since = xr.frame
        hand.point_to("poke-button")
        assert_event(xr, "hover_enter", hand=hand.handedness, target="poke-button", since_frame=since)
        hand.click()
        assert_state(xr, "poke-button", presses=n, lastHand=hand.handedness, via="ray")
        assert_color(xr, "poke-button", COLORS[hand.handedness])
        assert_event(xr, "object_select_start", hand=hand.handedness, target="poke-button", since_frame=since, count=1)
        assert logged(xr, "poke-button", "onObjectSelectStart")[-1]["source"] == hand.handedness
        point_away(xr, hand)
        assert_event(xr, "hover_exit", hand=hand.handedness, target="poke-button", since_frame=since)
    assert_no_event(xr, "touch")
    assert_state(xr, "grab-cube", grabbed=False, grabs=0)
    assert_no_errors(xr)
