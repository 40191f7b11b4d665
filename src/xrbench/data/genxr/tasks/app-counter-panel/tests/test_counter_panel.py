"""Runtime tests of the counter panel.

They check that
- the panel sits where the user can use it: in front of the user (within 30 degrees of the view
  direction), 0.5-1.1 m from the eyes, its centre within 0.25 m of eye height, facing the user,
  with the "+1" button on it;
- each ray selection of the button, by either hand, adds exactly one to `state.count`;
- selecting the panel away from the button leaves the count unchanged.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import (
    assert_facing_user,
    assert_near,
    assert_no_errors,
    assert_state,
    assert_visible,
)

pytestmark = pytest.mark.xr_scenes("empty")

PANEL, BUTTON = "counter-panel", "plus-button"
HOLD = 6  # frames a click holds the pinch (and waits after releasing it)


def test_the_panel_is_in_front_at_eye_height_and_faces_the_user(xr):
    xr.step(2)
    head = xr.head.pose
    panel = xr.find(PANEL)
    offset = [panel.point[i] - head.position[i] for i in range(3)]
    flat = math.hypot(offset[0], offset[2])
    forward = head.forward or (0.0, 0.0, -1.0)
    ahead = (offset[0] * forward[0] + offset[2] * forward[2]) / (math.hypot(forward[0], forward[2]) or 1.0)
    assert ahead > 0, f"the panel is behind the user: centre {panel.point}, head {head.position}"
    angle = math.degrees(math.acos(max(-1.0, min(1.0, ahead / flat)))) if flat > 1e-6 else 0.0
    assert angle <= 30, f"the panel is {angle:.0f} deg to the side of the view direction (at most 30)"
    assert 0.5 <= flat <= 1.1, f"the panel is {flat:.2f} m in front of the eyes; expected 0.6-1.0 m"
    assert abs(offset[1]) <= 0.25, f"the panel's centre is {offset[1]:+.2f} m from eye height (at most 0.2 m)"
    assert_facing_user(xr, PANEL, max_angle=20)
    assert_visible(xr, BUTTON)
    assert_near(xr, BUTTON, PANEL, within=0.03)
    assert_no_errors(xr)


def test_each_selection_of_the_button_adds_one_with_either_hand(xr):
    xr.step(2)
    assert_state(xr, PANEL, count=0)
    xr.hand("dominant").click(BUTTON, hold_frames=HOLD)
    assert_state(xr, PANEL, count=1)
    xr.hand("non_dominant").click(BUTTON, hold_frames=HOLD)
    assert_state(xr, PANEL, count=2)
    xr.hand("dominant").click(hold_frames=HOLD)  # still aiming at the button
    assert_state(xr, PANEL, count=3)
    assert_no_errors(xr)


def test_selecting_the_panel_away_from_the_button_does_not_count(xr):
    xr.step(2)
    panel, button = xr.find(PANEL), xr.find(BUTTON)
    assert panel.bbox is not None and button.bbox is not None
    (lo, hi), centre = panel.bbox, panel.point
    # The inset corner of the panel's face farthest from the button (the panel faces the user
    # at the start, so its face spans x and y).
    corners = [
        (
            lo[0] + 0.15 * (hi[0] - lo[0]) if sx < 0 else hi[0] - 0.15 * (hi[0] - lo[0]),
            lo[1] + 0.15 * (hi[1] - lo[1]) if sy < 0 else hi[1] - 0.15 * (hi[1] - lo[1]),
            centre[2],
        )
        for sx in (-1, 1)
        for sy in (-1, 1)
    ]
    spot = max(corners, key=lambda p: math.dist(p, button.point))
    xr.hand("dominant").click(spot, hold_frames=HOLD)
    assert_state(xr, PANEL, count=0)
    xr.hand("dominant").click(BUTTON, hold_frames=HOLD)
    assert_state(xr, PANEL, count=1)
    assert_no_errors(xr)
