"""Runtime tests of the colour-cycling orb.

They check that
- a ray selection with either hand (dominant, then non-dominant) advances the orb's colour by
  exactly one palette step, and that `state.color` / `state.index` follow the material colour;
- repeated selections keep changing the colour, through at least three different colours, and
  the palette starts again with the first colour after the last one;
- pointing at the orb without selecting it (hovering, with either hand) leaves the colour alone.

The state is never taken on its own word: every reading compares it with the material colour the
harness reads from the scene.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_no_errors, assert_state

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "color-orb"
HOLD = 6  # frames a click holds the pinch (and waits after releasing it)


def orb(xr):
    """The orb's (material colour, state) now; the state's colour must be the material's."""
    node = xr.find_by_tag(TAG)
    assert isinstance(node.state, dict), f"'{TAG}' has no state object: {node.state!r}"
    assert node.color is not None, f"'{TAG}' has no material colour (tag the mesh itself)"
    state_color = str(node.state.get("color", "")).lower()
    assert state_color == node.color, f"state.color {state_color!r} differs from the material colour {node.color}"
    return node.color, node.state


def test_either_hand_advances_the_colour_by_one_step(xr):
    xr.step(1)
    start, state = orb(xr)
    assert state.get("index") == 0, f"expected the orb to start at palette index 0; observed {state!r}"

    xr.hand("dominant").click(TAG, hold_frames=HOLD)
    after_dominant, state = orb(xr)
    assert after_dominant != start, f"a selection with the dominant hand left the colour at {start}"
    assert_state(xr, TAG, index=1)

    xr.hand("non_dominant").click(TAG, hold_frames=HOLD)
    after_other, state = orb(xr)
    assert after_other != after_dominant, (
        f"a selection with the non-dominant ({xr.handedness('non_dominant')}) hand left the colour at {after_dominant}"
    )
    assert_state(xr, TAG, index=2)
    assert_no_errors(xr)


def test_repeated_selections_cycle_through_the_palette(xr):
    xr.step(1)
    hand = xr.hand("dominant")
    seen = [orb(xr)]
    hand.point_to(TAG)
    for _ in range(7):
        hand.click(hold_frames=HOLD)
        seen.append(orb(xr))
    colors = [c for c, _ in seen]
    indices = [s.get("index") for _, s in seen]

    for i in range(1, len(colors)):
        assert colors[i] != colors[i - 1], f"selection {i} did not change the colour: colours {colors}"
    assert len(set(colors[:3])) == 3, f"expected at least three different colours; observed {colors}"
    # The palette restarts with the first colour after the last one: the sequence is periodic.
    if colors[0] in colors[1:]:
        period = colors.index(colors[0], 1)
        assert period >= 3, f"the palette repeats after {period} colours: {colors}"
        repeats = [colors[i] == colors[i % period] for i in range(len(colors))]
        assert all(repeats), f"the colours do not cycle with period {period}: {colors}"
    # state.index counts palette steps and wraps to 0 with the first colour.
    for i in range(1, len(indices)):
        assert indices[i] in (indices[i - 1] + 1, 0), f"state.index does not step by one: {indices}"
        assert (indices[i] == 0) == (colors[i] == colors[0]), f"index {indices} vs colours {colors}"
    assert_no_errors(xr)


def test_hovering_without_selecting_keeps_the_colour(xr):
    xr.step(1)
    start, _ = orb(xr)
    for role in ("dominant", "non_dominant"):
        hand = xr.hand(role)
        hand.point_to(TAG)
        xr.step(10)
        hand.point_forward()
        xr.step(5)
        hand.point_to(TAG)
        xr.step(10)
        now, _ = orb(xr)
        assert now == start, f"pointing the {role} hand at the orb changed its colour from {start} to {now}"
    assert_state(xr, TAG, index=0)
    xr.hand("dominant").click(hold_frames=HOLD)
    now, _ = orb(xr)
    assert now != start, "a selection after hovering did not change the colour"
    assert_no_errors(xr)
