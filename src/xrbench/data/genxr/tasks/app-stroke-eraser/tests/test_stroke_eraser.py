"""Runtime tests of the draw-and-erase app.

They check that
- the app starts with nothing drawn (no stroke, no visible mesh or line: the cylinder is gone), and
  that open, relaxed, pointing, thumbs-up and closed hands of both sides moving about draw nothing;
- a pinch draws a stroke (an object tagged 'stroke') while it is held: mid-stroke the stroke is
  already there and covers the fingertip's path so far; when released it passes within 1 cm
  (checked to 1.25 cm) of every position the index fingertip took while the pinch was held, and
  none of its vertices lies more than 1.5 cm (checked to 1.7 cm) from the fingertip's path, in
  world coordinates; moving the hand after the release adds nothing to it;
- `state.hand` names the drawing hand, and `state.points` counts at least one point per
  centimetre of the path (and equals the number of drawn points of a line, points or instanced
  object), grows while drawing and stops at the release;
- each pinch starts a new stroke that follows only its own path; either hand draws; both hands
  pinching and moving in turn draw two strokes at once, each following its hand;
- a fist with either hand erases every stroke while the fist is still closing or held: watched
  frame by frame, the strokes go all in the same frame, and once gone nothing of them (nor
  anything else) stays drawn, including the stroke the other hand is drawing at that moment, and
  that hand draws nothing more until it pinches again;
- a fist erases once: strokes the other hand draws while the fist is held stay
  until the next fist; open, relaxed, pointing and thumbs-up hands (both at once) and pinches
  erase nothing; after erasing, both hands draw again;
- strokes stay, unmoved and visible, while the user walks, turns, looks down and crouches and for
  two seconds more; a fist made while looking down and crouched erases them all, and they stay
  erased when the user stands up.

The drawn geometry is read from the strokes' vertices (lines, tubes, meshes, fat lines or
instanced dots), transformed to the world frame. Each test runs for a right- and a left-dominant
user.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.actors import POSE_SETTLE_FRAMES
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

# How many objects tagged `tag` have visible geometry with something in it (a cheap per-frame count).
_SHOWN_JS = """
(h, tag) => {
  const scene = h.guard(h.core.scene, 'the scene');
  const visibleUp = (o) => { for (let p = o; p; p = p.parent) if (!p.visible) return false; return true; };
  const drawsSomething = (o) => {
    const g = o.geometry;
    if (!g || !g.attributes || !visibleUp(o)) return false;
    if (o.isInstancedMesh) return o.count > 0;
    if (g.attributes.instanceStart) return Math.min(g.attributes.instanceStart.count, g.instanceCount ?? Infinity) > 0;
    const pos = g.attributes.position;
    if (!pos) return false;
    return g.index ? pos.count > 0 : Math.min(pos.count - Math.max(0, g.drawRange.start), g.drawRange.count) > 0;
  };
  let n = 0;
  scene.traverse((o) => {
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== tag) return;
    let found = false;
    o.traverse((c) => { found = found || drawsSomething(c); });
    if (found) n++;
  });
  return n;
}
"""


def shown_count(xr) -> int:
    """How many strokes have visible geometry (the same as `len(shown(xr))`, cheaper)."""
    return xr.probe(_SHOWN_JS, STROKE)


def strokes(xr) -> list[dict]:
    """Every tagged stroke: {'uuid', 'state', 'points': world-space vertices, 'parts'}."""
    return read_strokes(xr, STROKE)


def shown(xr) -> list[dict]:
    """The strokes with visible geometry (an erased stroke may stay in the scene, hidden)."""
    return [s for s in strokes(xr) if s["points"]]


def assert_count(xr, n: int, what: str) -> list[dict]:
    __tracebackhide__ = True
    found = shown(xr)
    assert len(found) == n, f"expected {n} visible stroke(s) {what}; observed {len(found)}"
    return found


def assert_erased(xr, what: str) -> None:
    """No stroke is visible and nothing else the app draws is left (a light is fine)."""
    __tracebackhide__ = True
    assert_count(xr, 0, what)
    left = xr.drawn()
    assert not left, f"expected nothing drawn {what}; observed {left}"


def close_fist(xr, role: str, what: str) -> None:
    """Close `role`'s hand into a fist frame by frame and keep it closed: every visible stroke must
    go, all in the same frame, before the hand has finished closing, and stay gone."""
    __tracebackhide__ = True
    before = len(shown(xr))
    assert before, "the test needs strokes to erase"
    xr.hand(role).set_pose("fist", frames=0)
    gone = None
    for k in range(1, POSE_SETTLE_FRAMES + 1):
        xr.step(1)
        n = shown_count(xr)
        if gone is None:
            assert n in (0, before), (
                f"expected every stroke erased at once (in the same frame) by the {role} hand's fist {what}; "
                f"observed {n} of {before} strokes still visible {k} frames after the hand began to close"
            )
            if n == 0:
                gone = k
        else:
            assert n == 0, f"expected the erased strokes to stay erased {what}; {n} visible again"
    assert gone is not None, (
        f"expected the {role} hand's fist to erase every stroke {what} as soon as it is made, while the hand is "
        f"closed; observed all {before} strokes still visible {POSE_SETTLE_FRAMES} frames after the hand began "
        "to close"
    )
    assert_erased(xr, f"once the {role} hand made a fist {what}")


def open_hand(xr, role: str) -> None:
    xr.hand(role).set_pose("relaxed")


def test_nothing_is_drawn_until_a_pinch(xr):
    xr.step(2)
    assert_count(xr, 0, "at the start")
    visible = xr.drawn()
    assert not visible, f"expected nothing drawn at the start (the cylinder removed); observed {visible}"
    dom, other = xr.hand("dominant"), xr.hand("non_dominant")
    s = side(xr, "dominant")
    for k, pose in enumerate(("neutral", "pointing", "thumbs_up", "fist")):
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


def test_a_fist_with_either_hand_erases_every_stroke_at_once(xr):
    xr.step(1)
    s = side(xr, "dominant")
    xr.hand("dominant").move_hand((0.15 * s, 1.4, -0.4), anchor="fingertip")
    draw(xr, "dominant", [(-s * 0.12, 0.0, 0.0)])
    xr.hand("dominant").move_by((0.0, -0.1, 0.0))
    draw(xr, "dominant", [(0.0, 0.0, -0.05), (-s * 0.1, 0.08, 0.0)])
    xr.hand("non_dominant").move_hand((-0.2 * s, 1.3, -0.4), anchor="fingertip")
    draw(xr, "non_dominant", [(0.0, 0.1, 0.0)])
    assert_count(xr, 3, "after three pinches")
    close_fist(xr, "non_dominant", "")
    xr.step(30)  # the fist held
    assert_erased(xr, "while the fist is held")
    open_hand(xr, "non_dominant")
    assert_erased(xr, "after the fist opened again")
    xr.hand("dominant").move_hand((0.1 * s, 1.35, -0.45), anchor="fingertip")
    again = draw(xr, "dominant", [(s * 0.1, 0.0, 0.0)])  # drawing works again
    [stroke] = assert_count(xr, 1, "after a pinch once the strokes were erased")
    assert_follows(stroke, again)
    assert_hand(stroke, again)
    close_fist(xr, "dominant", "the second time")
    assert_no_errors(xr)


def test_a_fist_erases_the_stroke_being_drawn_and_erases_once(xr):
    xr.step(1)
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    non.move_hand((-0.2 * s, 1.3, -0.4), anchor="fingertip")
    draw(xr, "non_dominant", [(0.0, 0.08, 0.0)])
    dom.move_hand((0.2 * s, 1.35, -0.4), anchor="fingertip")
    [t] = begin(xr, "dominant")
    move(xr, t, [(-s * 0.1, 0.0, 0.0)])
    assert_count(xr, 2, "while the dominant hand draws its stroke")
    close_fist(xr, "non_dominant", "while the other hand is drawing")
    # The dominant hand still pinches and moves on: it draws only with its next pinch.
    move(xr, t, [(0.0, 0.08, 0.0), (s * 0.06, 0.0, 0.0)])
    assert_erased(xr, "while the pinch that was drawing at the fist is still held")
    end(xr, t)
    assert_erased(xr, "after the pinch that was drawing at the fist was released")
    # The fist stays closed: strokes drawn now stay until the next fist.
    dom.move_by((0.0, -0.1, 0.0))
    held = draw(xr, "dominant", [(-s * 0.1, 0.05, 0.0)])
    xr.wait(1000)
    [stroke] = assert_count(xr, 1, "drawn while the other hand's fist was held (a fist erases once)")
    assert_follows(stroke, held)
    open_hand(xr, "non_dominant")
    [stroke] = assert_count(xr, 1, "after the fist opened again")
    assert_follows(stroke, held)
    close_fist(xr, "dominant", "")
    open_hand(xr, "dominant")
    non.move_hand((-0.15 * s, 1.4, -0.45), anchor="fingertip")
    left = draw(xr, "non_dominant", [(s * 0.08, 0.0, 0.0)])
    dom.move_hand((0.2 * s, 1.3, -0.45), anchor="fingertip")
    right = draw(xr, "dominant", [(0.0, 0.08, 0.0)])
    found = assert_count(xr, 2, "after both hands drew again")
    for trail in (left, right):
        best = match(found, trail)
        assert_follows(best, trail)
        assert_hand(best, trail)
    assert_no_errors(xr)


def test_only_a_fist_erases(xr):
    xr.step(1)
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    dom.move_hand((0.2 * s, 1.35, -0.4), anchor="fingertip")
    draw(xr, "dominant", [(-s * 0.1, 0.05, 0.0)])
    non.move_hand((-0.2 * s, 1.3, -0.4), anchor="fingertip")
    draw(xr, "non_dominant", [(0.0, 0.08, 0.0)])
    made = assert_count(xr, 2, "after two pinches")
    for pose in ("neutral", "relaxed", "pointing", "thumbs_up"):
        dom.set_pose(pose, frames=0)
        non.set_pose(pose, frames=40)  # both hands at once, held
        assert_unmoved(xr, made, f"after both hands made a {pose} pose (only a fist erases)")
    dom.set_pose("relaxed")
    dom.move_by((0.0, -0.1, 0.0))
    draw(xr, "dominant", [(s * 0.08, 0.0, 0.0)])
    assert_unmoved(xr, made, "after another pinch (only a fist erases)")
    assert_count(xr, 3, "after three pinches")
    close_fist(xr, "non_dominant", "")
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
    xr.step(30)  # the pinch held still: the stroke gains no points, and state.points must not grow either
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


def test_each_pinch_draws_its_own_stroke_with_either_hand_and_both_at_once(xr):
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
    # Both hands pinch in the same frame and draw, moving in turn.
    xr.hand("dominant").move_hand((0.2 * s, 1.3, -0.5), anchor="fingertip")
    xr.hand("non_dominant").move_hand((-0.2 * s, 1.45, -0.5), anchor="fingertip")
    dom, non = begin(xr, "dominant", "non_dominant")
    move(xr, dom, [(0.0, 0.1, 0.0)], others=(non,))
    move(xr, non, [(0.0, -0.1, -0.05)], others=(dom,))
    assert_count(xr, 5, "while both hands pinch")
    move(xr, dom, [(-s * 0.1, 0.0, 0.0)], others=(non,))
    move(xr, non, [(s * 0.08, 0.05, 0.0)], others=(dom,))
    end(xr, dom, non)
    found = assert_count(xr, 5, "after both hands drew at once")
    a, b = match(found, dom), match(found, non)
    assert a["uuid"] != b["uuid"] and not {a["uuid"], b["uuid"]} & used, "expected each hand to draw its own stroke"
    for stroke, trail in ((a, dom), (b, non)):
        assert_follows(stroke, trail)
        assert_hand(stroke, trail)
        assert_points(stroke, trail.path)
    assert_no_errors(xr)


def test_strokes_stay_in_the_room_until_a_fist(xr):
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
    xr.head.rotate(pitch=-20)  # looks down ...
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
    xr.wait(2000)
    assert_unmoved(xr, made, "two seconds after the last stroke was drawn")
    close_fist(xr, "non_dominant", "while looking down and crouching")
    open_hand(xr, "non_dominant")
    xr.head.rotate(pitch=20)
    xr.head.move((0.0, 0.3, 0.0), speed=0.5)
    assert_erased(xr, "after the user stood up again")
    assert_no_errors(xr)
