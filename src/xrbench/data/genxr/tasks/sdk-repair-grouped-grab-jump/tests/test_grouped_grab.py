"""An object inside a turned and scaled group follows the hand that holds it, without jumping.

The app (the task's own `workspace/`, held out: the candidate's SDK is rebuilt beside it) has a
`shelf` group at (0, 1.0, -0.6) turned 90 degrees about +Y at half scale, holding a `jar` (an 8 cm
cube at about (-0.10, 1.15, -0.45) in the world), and a `block` (an 8 cm cube straight in the
scene at (0.12, 1.25, -0.45)). XR Blocks translates both; their state records the manipulation
events (manipulating, starts, ends, hand).

Positions are read from the scene graph (world frame); the object must move by exactly the
displacement of the fingertip (direct grab) or of the hand (ray drag, hand not turning) since the
frame its drag started.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors, assert_state

pytestmark = pytest.mark.xr_scenes("living_room", "empty")

SHELF = (0.0, 1.0, -0.6)
JAR = (-0.10, 1.15, -0.45)
BLOCK = (0.12, 1.25, -0.45)
BLOCK_HALF = 0.04
TOL = 0.005  # "within 5 mm"
STILL = 0.001  # "within 1 mm"


def add(a, b):
    return tuple(a[i] + b[i] for i in range(3))


def sub(a, b):
    return tuple(a[i] - b[i] for i in range(3))


def fmt(v):
    return "(" + ", ".join(f"{c:+.3f}" for c in v) + ")"


def box_depth(origin, direction, centre, half):
    """Distance along the ray to where it first enters the axis-aligned box (slab test); None if it misses."""
    t_in, t_out = 0.0, math.inf
    for i in range(3):
        lo, hi = centre[i] - half, centre[i] + half
        if abs(direction[i]) < 1e-12:
            if not lo <= origin[i] <= hi:
                return None
            continue
        t0, t1 = (lo - origin[i]) / direction[i], (hi - origin[i]) / direction[i]
        t_in, t_out = max(t_in, min(t0, t1)), min(t_out, max(t0, t1))
    return t_in if t_in <= t_out else None


def on_ray(hand, depth):
    """The point `depth` metres along the hand's ray (from the controller along its -Z)."""
    o, d = hand.position, hand.state.ray_direction
    return tuple(o[i] + d[i] * depth for i in range(3))


def where(xr, tag):
    return xr.find_by_tag(tag).position


def ready(xr):
    xr.step(1)
    xr.step(1)


def check_at_rest_place(xr, tag, expected, what, tol=STILL):
    observed = where(xr, tag)
    assert math.dist(observed, expected) < tol, (
        f"{what}: expected the {tag} at {fmt(expected)}; it is at {fmt(observed)}, "
        f"{math.dist(observed, expected) * 1000:.1f} mm off"
    )


def check_shelf(xr):
    """The shelf has not moved, and the jar is still its child, with the shelf's turn and scale."""
    shelf, jar = xr.find_by_tag("shelf"), xr.find_by_tag("jar")
    assert math.dist(shelf.position, SHELF) < 1e-4, f"the shelf must not move: it is at {fmt(shelf.position)}"
    assert jar.parents and jar.parents[-1] == shelf.uuid, (
        f"the jar must stay a child of the shelf; its parents are now {' > '.join(jar.path)}"
    )
    assert all(abs(s - 0.5) < 1e-4 for s in jar.scale), f"the jar must keep the shelf's half scale: {fmt(jar.scale)}"


def start_grab(xr, hand, tag, limit=30):
    """Pinch one frame at a time until the drag starts; the object must not move in that frame."""
    before = where(xr, tag)
    for _ in range(limit):
        hand.start_select(frames=1)
        node = xr.find_by_tag(tag)
        if node.state["manipulating"]:
            assert math.dist(node.position, before) < STILL, (
                f"grabbing must not move the {tag}: in the frame its drag started it went from {fmt(before)} to "
                f"{fmt(node.position)}, {math.dist(node.position, before) * 1000:.0f} mm"
            )
            return before
    raise AssertionError(f"no drag of the {tag} started within {limit} frames of pinching")


def release(xr, hand, tag, anchor, limit=30):
    """Open the pinch one frame at a time until the drag ends; return where the object was left.

    Until (and in) the frame the drag ends the object moves with the hand's `anchor` (the fingers
    open over a few frames): it must not spring back anywhere.
    """
    point = (lambda: hand.fingertip) if anchor == "fingertip" else (lambda: hand.position)
    prev, prev_at = where(xr, tag), point()
    for _ in range(limit):
        hand.end_select(frames=1)
        node, at = xr.find_by_tag(tag), point()
        expected = add(prev, sub(at, prev_at))
        assert math.dist(node.position, expected) < TOL, (
            f"releasing the pinch: the {tag} must stay where the hand carried it; expected {fmt(expected)}, "
            f"observed {fmt(node.position)}"
        )
        if not node.state["manipulating"]:
            return node.position
        prev, prev_at = node.position, at
    raise AssertionError(f"the drag of the {tag} did not end within {limit} frames of opening the pinch")


def carry(xr, hand, tag, base, anchor_base, goals, anchor, what):
    """Move the hand through `goals`; every frame the object is at base + the anchor's displacement."""
    worst, worst_at, frames = 0.0, None, 0
    for goal in goals:
        r = hand.move_hand(goal, speed=0.4, anchor=anchor, track=[tag])
        for obj, at in zip(r["samples"][0], r["anchor"], strict=True):
            frames += 1
            expected = add(base, sub(at, anchor_base))
            if math.dist(obj, expected) > worst:
                worst, worst_at = math.dist(obj, expected), (expected, obj)
    assert frames > 10
    assert worst < TOL, (
        f"{what}: the {tag} must move by the {anchor}'s displacement since the grab, within 5 mm every frame; "
        f"worst {worst * 1000:.1f} mm off: expected {fmt(worst_at[0])}, observed {fmt(worst_at[1])}"
    )


def hold_still_then_release(xr, hand, tag, what, anchor):
    held = where(xr, tag)
    xr.step(10)
    check_at_rest_place(xr, tag, held, f"{what}, holding still")
    dropped = release(xr, hand, tag, anchor)
    hand.end_select(frames=6)
    check_at_rest_place(xr, tag, dropped, f"{what}, just after the release")
    # The hand goes away: the released object stays where it was dropped.
    hand.rest()
    hand.move_by((0.1, 0.05, 0.05))
    xr.step(5)
    check_at_rest_place(xr, tag, dropped, f"{what}, after the hand moved away", tol=1e-4)
    return dropped


@pytest.mark.fail_to_pass
def test_a_direct_grab_keeps_the_jar_under_the_fingertip(xr):
    ready(xr)
    hand = xr.hand("dominant")
    hand.reach_to("jar", depth=0.03)
    # Reaching in without pinching moves nothing.
    xr.step(10)
    check_at_rest_place(xr, "jar", JAR, "a fingertip inside the jar without a pinch", tol=1e-4)
    tip0 = hand.fingertip
    jar0 = start_grab(xr, hand, "jar")
    assert_state(xr, "jar", manipulating=True, starts=1, hand=xr.handedness("dominant"))
    # The fingers finish closing; the jar keeps its place relative to the fingertip.
    hand.start_select(frames=20)
    expected = add(jar0, sub(hand.fingertip, tip0))
    check_at_rest_place(xr, "jar", expected, "the pinch closing", tol=TOL)
    base, tip_base = where(xr, "jar"), hand.fingertip
    x, y, z = tip_base
    goals = [(x + 0.12, y, z), (x + 0.12, y + 0.1, z + 0.05), (x - 0.08, y + 0.05, z - 0.08), (x - 0.05, y - 0.05, z)]
    carry(xr, hand, "jar", base, tip_base, goals, "fingertip", "a direct grab")
    assert math.dist(where(xr, "jar"), JAR) > 0.05
    check_shelf(xr)
    hold_still_then_release(xr, hand, "jar", "a direct grab", "fingertip")
    assert_state(xr, "jar", manipulating=False, starts=1, ends=1)
    check_shelf(xr)
    check_at_rest_place(xr, "block", BLOCK, "the block, untouched", tol=1e-4)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_a_ray_drag_moves_the_jar_with_the_hand_after_stepping_aside(xr):
    ready(xr)
    hand = xr.hand("dominant")
    sign = 1 if hand.position[0] > 0 else -1
    # The user steps aside and crouches a little, then points the hand ray at the jar.
    xr.head.move((0.15 * sign, -0.15, 0.05))
    hand.rest()
    hand.point_to("jar")
    xr.step(20)
    check_at_rest_place(xr, "jar", JAR, "pointing at the jar without a pinch", tol=1e-4)
    hand0 = hand.position
    jar0 = start_grab(xr, hand, "jar")
    assert_state(xr, "jar", manipulating=True, starts=1, hand=xr.handedness("dominant"))
    hand.start_select(frames=10)
    check_at_rest_place(xr, "jar", add(jar0, sub(hand.position, hand0)), "the pinch closing", tol=TOL)
    base, hand_base = where(xr, "jar"), hand.position
    x, y, z = hand_base
    goals = [
        (x - 0.1 * sign, y, z),
        (x - 0.1 * sign, y + 0.1, z),
        (x + 0.05 * sign, y + 0.05, z - 0.1),
        (x + 0.04 * sign, y - 0.04, z - 0.02),
    ]
    carry(xr, hand, "jar", base, hand_base, goals, "controller", "a ray drag, the hand not turning")
    check_shelf(xr)
    hold_still_then_release(xr, hand, "jar", "a ray drag", "controller")
    assert_state(xr, "jar", manipulating=False, starts=1, ends=1)
    check_shelf(xr)
    check_at_rest_place(xr, "block", BLOCK, "the block, untouched", tol=1e-4)
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
def test_the_block_straight_in_the_scene_is_still_carried(xr):
    ready(xr)
    hand = xr.hand("dominant")
    # Pointing at the block and reaching into it without pinching moves nothing.
    hand.point_to("block")
    xr.step(15)
    hand.reach_to("block", depth=0.03)
    xr.step(10)
    check_at_rest_place(xr, "block", BLOCK, "a fingertip inside the block without a pinch", tol=1e-4)
    assert_state(xr, "block", starts=0)
    tip0 = hand.fingertip
    block0 = start_grab(xr, hand, "block")
    assert_state(xr, "block", manipulating=True, starts=1, hand=xr.handedness("dominant"))
    hand.start_select(frames=20)
    check_at_rest_place(xr, "block", add(block0, sub(hand.fingertip, tip0)), "the pinch closing", tol=TOL)
    base, tip_base = where(xr, "block"), hand.fingertip
    x, y, z = tip_base
    goals = [(x + 0.1, y + 0.05, z), (x - 0.05, y + 0.1, z + 0.06), (x, y - 0.05, z - 0.05)]
    carry(xr, hand, "block", base, tip_base, goals, "fingertip", "a direct grab of the block")
    dropped = hold_still_then_release(xr, hand, "block", "a direct grab of the block", "fingertip")
    assert_state(xr, "block", manipulating=False, starts=1, ends=1)
    # A hand-ray drag of the block still follows the ray as the hand is aimed: the grabbed point
    # (where the ray first hit the block) stays on the ray at its distance, the block keeps its offset.
    hand.point_to(dropped)
    depth = box_depth(hand.position, hand.state.ray_direction, dropped, BLOCK_HALF)
    assert depth is not None, "the test's own aim misses the block"
    offset = sub(dropped, on_ray(hand, depth))
    start_grab(xr, hand, "block")
    hand.start_select(frames=10)
    x, y, z = dropped
    for k, target in enumerate([(x + 0.1, y, z), (x + 0.1, y + 0.1, z), (x - 0.05, y + 0.05, z)], start=1):
        hand.point_to(target, speed=90)
        check_at_rest_place(
            xr, "block", add(on_ray(hand, depth), offset), f"aiming the ray at the block (aim {k})", tol=TOL
        )
    assert math.dist(where(xr, "block"), dropped) > 0.03
    hold_still_then_release(xr, hand, "block", "a ray drag of the block", "controller")
    assert_state(xr, "block", manipulating=False, starts=2, ends=2)
    check_at_rest_place(xr, "jar", JAR, "the jar, untouched", tol=1e-4)
    check_shelf(xr)
    assert_no_errors(xr)
