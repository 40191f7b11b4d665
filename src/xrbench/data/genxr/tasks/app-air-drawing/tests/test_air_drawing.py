"""Runtime tests of the air-drawing app.

They check that
- the app starts with nothing drawn (no stroke, no visible mesh or line: the cylinder is gone), and
  that open, relaxed, pointing and closed hands of both sides moving about draw nothing;
- a pinch draws a stroke (an object tagged 'stroke') while it is held: mid-stroke the stroke is
  already there and covers the fingertip's path so far; when released it passes within 1 cm
  (checked to 1.25 cm) of every position the index fingertip took while the pinch was held, and
  none of its vertices lies more than 1.5 cm (checked to 1.7 cm) from the fingertip's path, in
  world coordinates; moving the hand after the release adds nothing to it;
- `state.hand` names the drawing hand, and `state.points` counts at least one point per
  centimetre of the path (and equals the number of drawn points of a line, points or instanced
  object), grows while drawing and stops at the release;
- each pinch starts a new stroke that follows only its own path; the other hand draws the same
  way; both hands pinching and moving in turn draw two strokes at once, each following its hand;
- strokes stay, unmoved and visible, while the user walks, turns, looks down and crouches, a
  stroke drawn while looking down and crouched follows the fingertip too, and all seven strokes
  of a session are still there twenty seconds later.

The drawn geometry is read from the strokes' vertices (lines, tubes, meshes, fat lines or
instanced dots), transformed to the world frame. Each test runs for a right- and a left-dominant
user.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.strokes import (
    Trail,
    assert_follows,
    assert_hand,
    assert_points,
    assert_unmoved,
    begin,
    draw,
    end,
    match,
    move,
    read_strokes,
    side,
)

STROKE = "stroke"

pytestmark = pytest.mark.xr_scenes("empty")


def strokes(xr) -> list[dict]:
    """Every tagged stroke: {'uuid', 'state', 'points': world-space vertices, 'parts'}."""
    return read_strokes(xr, STROKE)


def assert_count(xr, n: int, what: str) -> list[dict]:
    __tracebackhide__ = True
    found = strokes(xr)
    assert len(found) == n, f"expected {n} stroke(s) {what}; observed {len(found)}"
    return found


def test_nothing_is_drawn_until_a_pinch(xr):
    xr.step(2)
    assert_count(xr, 0, "at the start")
    visible = xr.drawn()
    assert not visible, f"expected nothing drawn at the start (the cylinder removed); observed {visible}"
    dom, other = xr.hand("dominant"), xr.hand("non_dominant")
    s = side(xr, "dominant")
    for k, pose in enumerate(("neutral", "pointing", "relaxed", "fist")):
        dom.set_pose(pose)
        other.set_pose(pose)
        dom.move_hand((0.25 * s - 0.1 * k * s, 1.3 + 0.05 * k, -0.4), anchor="fingertip", speed=0.5)
        other.move_hand((-0.2 * s, 1.45 - 0.05 * k, -0.35 - 0.03 * k), anchor="fingertip", speed=0.5)
        assert_count(xr, 0, f"after {pose} hands moved about without pinching")
    dom.set_pose("relaxed")
    other.set_pose("relaxed")
    dom.move_by((0.05 * s, 0.05, 0.05), speed=0.5)
    visible = xr.drawn()
    assert not visible, f"expected nothing drawn by hands moving without a pinch; observed {visible}"
    assert_no_errors(xr)


def test_a_pinch_draws_a_stroke_along_the_index_fingertip(xr):
    xr.step(1)
    hand = xr.hand("dominant")
    s = side(xr, "dominant")
    hand.move_hand((0.2 * s, 1.35, -0.4), anchor="fingertip")
    assert_count(xr, 0, "before the pinch")
    [t] = begin(xr, "dominant")
    move(xr, t, [(-s * 0.15, 0.0, 0.0)])
    # Mid-stroke, the pinch still held: the stroke is there and covers the path so far.
    [mid] = assert_count(xr, 1, "while the pinch is held")
    assert_follows(mid, Trail(t.role, t.handedness, t.path, t.allowed + t.path))
    early = assert_points(mid, t.path)
    move(xr, t, [(0.0, 0.1, -0.05), (s * 0.06, -0.04, 0.04)], speed=0.2)
    move(xr, t, [(0.0, -0.08, 0.0)], speed=0.4)
    end(xr, t)
    [stroke] = assert_count(xr, 1, "after one pinch")
    assert_follows(stroke, t)
    assert_hand(stroke, t)
    drawn = assert_points(stroke, t.path)
    assert drawn > early, f"expected state.points to grow while drawing; it stayed {early}"
    hand.move_by((s * 0.12, -0.12, 0.05))  # released: the stroke ends
    hand.move_by((-s * 0.05, 0.1, -0.1))
    xr.wait(200)
    [after] = assert_count(xr, 1, "after the hand moved on released")
    assert len(after["points"]) == len(stroke["points"]), (
        f"expected the stroke to end at the release; it grew from {len(stroke['points'])} to "
        f"{len(after['points'])} vertices as the hand moved without pinching"
    )
    assert_follows(after, t)
    assert after["state"].get("points") == drawn, (
        f"expected state.points to stay {drawn} after the release; observed {after['state']}"
    )
    assert_no_errors(xr)


def test_each_pinch_starts_a_new_stroke_with_either_hand(xr):
    xr.step(1)
    s = side(xr, "dominant")
    xr.hand("dominant").move_hand((0.15 * s, 1.4, -0.4), anchor="fingertip")
    first = draw(xr, "dominant", [(-s * 0.12, 0.0, 0.0)])
    xr.hand("dominant").move_by((0.0, -0.1, 0.0))
    second = draw(xr, "dominant", [(s * 0.1, 0.0, -0.05)])
    xr.hand("non_dominant").move_hand((-0.2 * s, 1.3, -0.4), anchor="fingertip")
    other = draw(xr, "non_dominant", [(0.0, 0.1, 0.0), (s * 0.08, 0.0, 0.0)])
    found = assert_count(xr, 3, "after three pinches")
    used = set()
    for trail in (first, second, other):
        best = match(found, trail)
        assert_follows(best, trail)  # follows this path, and only it
        assert_hand(best, trail)
        assert_points(best, trail.path)
        used.add(best["uuid"])
    assert len(used) == 3, "expected each pinch to draw its own stroke"
    assert_no_errors(xr)


def test_both_hands_draw_at_the_same_time(xr):
    xr.step(1)
    s = side(xr, "dominant")
    xr.hand("dominant").move_hand((0.2 * s, 1.35, -0.4), anchor="fingertip")
    xr.hand("non_dominant").move_hand((-0.2 * s, 1.35, -0.4), anchor="fingertip")
    dom, other = begin(xr, "dominant", "non_dominant")  # both pinch in the same frame
    move(xr, dom, [(0.0, 0.1, 0.0)], others=(other,))
    move(xr, other, [(0.0, -0.1, -0.05)], others=(dom,))
    assert_count(xr, 2, "while both hands pinch")
    move(xr, dom, [(-s * 0.1, 0.0, 0.0)], others=(other,))
    move(xr, other, [(s * 0.08, 0.05, 0.0)], others=(dom,))
    end(xr, dom, other)
    found = assert_count(xr, 2, "after both hands drew at once")
    a, b = match(found, dom), match(found, other)
    assert a["uuid"] != b["uuid"], "expected each hand to draw its own stroke"
    for stroke, trail in ((a, dom), (b, other)):
        assert_follows(stroke, trail)
        assert_hand(stroke, trail)
        assert_points(stroke, trail.path)
    assert_no_errors(xr)


def test_strokes_stay_in_the_room(xr):
    xr.step(1)
    s = side(xr, "dominant")
    xr.hand("dominant").move_hand((0.2 * s, 1.35, -0.4), anchor="fingertip")
    first = draw(xr, "dominant", [(-s * 0.1, 0.05, 0.0)])
    xr.hand("non_dominant").move_hand((-0.2 * s, 1.25, -0.45), anchor="fingertip")
    second = draw(xr, "non_dominant", [(0.0, 0.08, -0.05)])
    xr.hand("dominant").move_by((0.05 * s, -0.1, 0.1))  # the hands move on
    xr.hand("non_dominant").move_by((-0.05 * s, 0.1, 0.0))
    found = assert_count(xr, 2, "after two pinches")
    made = [match(found, first), match(found, second)]
    xr.hand("dominant").rest()
    xr.hand("non_dominant").rest()
    xr.head.walk([(0.4, 1.5, 0.3)])  # turns towards it and walks there
    assert_unmoved(xr, made, "after the user walked away")
    xr.head.rotate(yaw=60)
    xr.head.rotate(pitch=-30)  # looks down ...
    xr.head.move((0.0, -0.3, 0.0), speed=0.5)  # ... and crouches
    assert_unmoved(xr, made, "after the user turned, looked down and crouched")
    pose = xr.camera_pose()
    assert pose.position[1] <= 1.25, f"the head did not go down: {pose.position}"
    ahead = tuple(pose.position[i] + 0.35 * pose.forward[i] for i in range(3))
    xr.hand("dominant").move_hand(ahead, anchor="fingertip")
    third = draw(xr, "dominant", [(0.0, 0.06, 0.0), (0.08, 0.0, 0.05)])  # drawn while looking down, crouched
    found = assert_count(xr, 3, "after a pinch while looking down and crouching")
    made.append(match(found, third))
    assert_follows(made[-1], third)
    xr.hand("dominant").rest()
    xr.head.rotate(pitch=30)
    xr.head.move((0.0, 0.3, 0.0), speed=0.5)
    assert_unmoved(xr, made, "after the user stood up again")
    xr.head.walk([(0.0, 1.5, 0.0)])
    xr.head.look_at((0.0, 1.5, -1.0))
    spots = [(0.25, 1.35, -0.35), (0.1, 1.25, -0.45), (0.3, 1.2, -0.5), (0.15, 1.45, -0.4)]
    for k, (x, y, z) in enumerate(spots):
        role = "dominant" if k % 2 else "non_dominant"
        hand = xr.hand(role)
        hand.move_hand((x * side(xr, role), y, z), anchor="fingertip", speed=0.5)
        draw(xr, role, [(0.0, 0.05, 0.0)])
        assert_count(xr, 4 + k, f"after {4 + k} pinches (one more stroke each time)")
    done = strokes(xr)
    xr.wait(20_000)
    assert_count(xr, 7, "twenty seconds after the last pinch")
    assert_unmoved(xr, done, "twenty seconds after it was drawn")
    assert_no_errors(xr)
