"""Runtime tests of pinch-to-spawn.

They check that
- a pinch of the dominant hand and then one of the non-dominant hand each add exactly one small
  sphere (`pinch-sphere`, about 4 cm), at that hand's index fingertip where the fingers meet (not
  at the wrist), with `state.hand` naming the hand;
- three pinches at three places make three spheres, one per pinch however long it is held, and
  the spheres stay where they were made while the hand moves on.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_count, assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "pinch-sphere"
NEAR_TIP = 0.04  # metres from the fingertip (it moves ~4 cm while the fingers close)


def spheres(xr):
    return {n.uuid: n for n in xr.tagged(TAG) if n.root == "scene"}


def centre(node):
    lo, hi = node.bbox or (node.position, node.position)
    return tuple((lo[i] + hi[i]) / 2 for i in range(3))


def pinch_at(xr, role, where, hold_frames=24):
    """Move the hand to `where`, pinch; return (the one new sphere, points the fingers passed)."""
    hand = xr.hand(role)
    hand.move_hand(where)
    before = spheres(xr)
    tip_open = hand.fingertip
    hand.pinch(frames=hold_frames)
    joints = hand.joints
    fingers = [tip_open, joints["index-finger-tip"].position, joints["thumb-tip"].position]
    new = [n for uuid, n in spheres(xr).items() if uuid not in before]
    assert len(new) == 1, f"expected one new sphere after a pinch of the {role} hand; observed {len(new)}"
    return new[0], fingers, joints["wrist"].position


def assert_at_fingertip(xr, role, sphere, fingers, wrist) -> None:
    __tracebackhide__ = True
    c = centre(sphere)
    gap = min(math.dist(c, p) for p in fingers)
    assert gap <= NEAR_TIP, (
        f"expected the sphere at the {role} hand's index fingertip (about {tuple(round(v, 3) for v in fingers[0])}); "
        f"observed it at {tuple(round(v, 3) for v in c)}, {gap:.3f} m away ({math.dist(c, wrist):.3f} m from the wrist)"
    )
    size = sphere.size
    assert size is not None and max(size) <= 0.08, f"expected a small sphere (about 4 cm); observed size {size}"


def test_a_pinch_of_either_hand_spawns_a_sphere_at_its_fingertip(xr):
    xr.step(1)
    assert_count(xr, TAG, 0)
    for n, role in enumerate(("dominant", "non_dominant"), start=1):
        side = 1.0 if xr.handedness(role) == "right" else -1.0
        sphere, fingers, wrist = pinch_at(xr, role, (0.2 * side, 1.3, -0.4))
        assert_at_fingertip(xr, role, sphere, fingers, wrist)
        assert isinstance(sphere.state, dict) and sphere.state.get("hand") == xr.handedness(role), (
            f"expected state.hand {xr.handedness(role)!r}; observed state {sphere.state!r}"
        )
        xr.hand(role).release()
        assert_count(xr, TAG, n)
    assert_no_errors(xr)


def test_each_pinch_makes_one_sphere_that_stays_where_it_was_made(xr):
    xr.step(1)
    role = "dominant"
    side = 1.0 if xr.handedness(role) == "right" else -1.0
    made = []
    for k, spot in enumerate([(0.25 * side, 1.35, -0.35), (0.1 * side, 1.25, -0.45), (0.3 * side, 1.2, -0.5)]):
        sphere, fingers, wrist = pinch_at(xr, role, spot, hold_frames=24 + 18 * k)  # held longer each time
        assert_at_fingertip(xr, role, sphere, fingers, wrist)
        made.append((sphere.uuid, centre(sphere)))
        xr.hand(role).release()
    assert_count(xr, TAG, 3)
    xr.hand(role).move_hand((0.0, 1.5, -0.3))  # the hand moves on
    xr.hand(role).rest()
    now = spheres(xr)
    for uuid, where in made:
        assert uuid in now, "a spawned sphere disappeared"
        moved = math.dist(centre(now[uuid]), where)
        assert moved <= 0.005, f"a sphere moved {moved:.3f} m with the hand after it was made (it should stay put)"
    assert_no_errors(xr)
