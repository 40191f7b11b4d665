"""Runtime tests of the whack-a-target game.

They check that
- before the first game no target is shown and the score panel (facing the user) shows 0;
  selecting the start button starts a game with the target at the first position of the given
  sequence;
- each hit (a ray selection of the target, alternating the dominant and non-dominant hand)
  adds exactly one to the score and moves the target to the next position of the sequence;
- selections that miss the target change neither the score nor the target's position, and
  selecting the start button again restarts the game (score 0, first position).
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import (
    assert_facing_user,
    assert_no_errors,
    assert_not_visible,
    assert_position,
    assert_state,
    assert_visible,
)

pytestmark = pytest.mark.xr_scenes("empty")

START, TARGET, PANEL = "start-button", "whack-target", "score-panel"
SEQUENCE = [(-0.4, 1.5, -1.5), (0.4, 1.7, -1.5), (0.0, 1.3, -1.2), (0.5, 1.4, -1.3), (-0.5, 1.6, -1.3)]
HOLD = 6  # frames a click holds the pinch (and waits after releasing it)


def target(xr):
    """The one visible target."""
    shown = [n for n in xr.tagged(TARGET) if n.root == "scene" and n.visible]
    assert len(shown) == 1, f"expected exactly one visible {TARGET!r}; observed {len(shown)}"
    return shown[0]


def assert_target_at(xr, k: int, when: str) -> None:
    __tracebackhide__ = True
    try:
        assert_position(xr, target(xr), SEQUENCE[k], tol=0.03)
    except AssertionError as e:
        raise AssertionError(f"{when}: expected the target at position {k + 1} of the sequence; {e}") from None


def start(xr, role="dominant"):
    xr.hand(role).click(START, hold_frames=HOLD)
    xr.hand(role).point_forward()


def test_the_start_button_starts_a_game_at_the_first_position(xr):
    xr.step(2)
    assert_not_visible(xr, TARGET)
    assert_state(xr, PANEL, score=0)
    assert_visible(xr, PANEL)
    assert_facing_user(xr, PANEL, max_angle=20)
    start(xr)
    assert_state(xr, PANEL, score=0, running=True)
    assert_target_at(xr, 0, "after selecting the start button")
    assert_no_errors(xr)


def test_each_hit_scores_one_and_moves_the_target_along_the_sequence(xr):
    xr.step(2)
    start(xr)
    for hit in range(1, 4):
        role = "dominant" if hit % 2 else "non_dominant"
        xr.hand(role).click(target(xr), hold_frames=HOLD)
        assert_state(xr, PANEL, score=hit)
        assert_target_at(xr, hit % len(SEQUENCE), f"after hit {hit} (with the {role} hand)")
    assert_no_errors(xr)


def test_misses_do_not_score_and_the_start_button_restarts(xr):
    xr.step(2)
    start(xr)
    hand = xr.hand("dominant")
    hand.click((0.0, 2.6, -2.5), hold_frames=HOLD)  # empty space above the score panel
    hand.click((1.2, 1.5, -1.5), hold_frames=HOLD)  # empty space right of every target
    assert_state(xr, PANEL, score=0)
    assert_target_at(xr, 0, "after two misses")
    hand.click(target(xr), hold_frames=HOLD)
    hand.click(target(xr), hold_frames=HOLD)
    assert_state(xr, PANEL, score=2)
    start(xr, "non_dominant")
    assert_state(xr, PANEL, score=0, running=True)
    assert_target_at(xr, 0, "after restarting")
    assert_no_errors(xr)
