"""Runtime tests of the thumbs-up stars app.

They check that a thumbs-up with either hand adds exactly one star tagged 'star' (however long
the thumb is held up), centred 0.15 m above that hand's thumb tip where the gesture was made
(state.hand names the hand), that stars stay where they were added, and that each new gesture,
wherever the hand is, adds one more star there.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_count, assert_no_errors

STAR = "star"
ABOVE = 0.15

pytestmark = pytest.mark.xr_scenes("empty")


def thumbs_up(xr, role: str) -> tuple[float, float, float]:
    """Hold a thumbs-up with `role`'s hand for 0.4 s, then relax; returns where the thumb tip was."""
    xr.gesture(role, "thumbs-up", release=False)
    tip = xr.hand_joints(xr.handedness(role))["thumb-tip"].position
    xr.hand(role).set_pose("relaxed")
    return tip


def new_star(xr, before: list, tip, role: str):
    """The one star added since `before`, checked against the thumb tip it should float above."""
    known = {n.uuid for n in before}
    added = [n for n in xr.tagged(STAR) if n.uuid not in known and n.visible]
    assert len(added) == 1, f"expected one new star for one thumbs-up; observed {len(added)}"
    star = added[0]
    want = (tip[0], tip[1] + ABOVE, tip[2])
    point = xr.find(star).point
    gap = math.dist(point, want)
    assert gap <= 0.05, (
        f"expected the star 0.15 m above the {role} thumb tip, at ({want[0]:.3f}, {want[1]:.3f}, {want[2]:.3f}); "
        f"observed it at ({point[0]:.3f}, {point[1]:.3f}, {point[2]:.3f}), {gap:.3f} m away"
    )
    assert (star.state or {}).get("hand") == xr.handedness(role), (
        f"expected the star's state.hand {xr.handedness(role)!r}; observed {star.state}"
    )
    return star


def test_a_thumbs_up_adds_one_star_above_that_thumb(xr):
    xr.step(1)
    assert_count(xr, STAR, 0)
    tip = thumbs_up(xr, "dominant")
    star = new_star(xr, [], tip, "dominant")
    xr.wait(500)
    assert_count(xr, STAR, 1)  # held or relaxed, still one star
    [now] = xr.tagged(STAR)
    assert now.position == pytest.approx(star.position, abs=1e-3), "expected the star to stay where it was added"
    assert_no_errors(xr)


def test_either_hand_adds_a_star_wherever_it_is(xr):
    xr.step(1)
    tip = thumbs_up(xr, "non_dominant")
    first = new_star(xr, [], tip, "non_dominant")
    hand = xr.hand("dominant")
    hand.move_by((0.0, 0.15, -0.1))  # elsewhere
    before = xr.tagged(STAR)
    tip = thumbs_up(xr, "dominant")
    new_star(xr, before, tip, "dominant")
    assert_count(xr, STAR, 2)
    assert any(n.position == pytest.approx(first.position, abs=1e-3) for n in xr.tagged(STAR)), (
        "expected the first star to stay where it was added"
    )
    assert_no_errors(xr)
