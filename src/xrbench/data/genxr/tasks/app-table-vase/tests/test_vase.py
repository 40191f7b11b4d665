"""Runtime tests of the vase placed on the detected table.

They check that
- in rooms with tables (the living room; the kitchen, whose island is higher and which has a
  second table along the wall), the vase is shown standing on the table nearest to the user:
  its bottom on the table top within 1 cm, its centre over that table at least 0.1 m inside the
  edges, `state.placed` true, and it stays there;
- in an empty room without any table the vase is not shown.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import (
    assert_no_errors,
    assert_not_visible,
    assert_position,
    assert_resting_on,
    assert_state,
    assert_visible,
)

TAG = "vase"
MARGIN = 0.1  # metres inside the table's edges


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_the_vase_stands_on_the_nearest_table(xr):
    xr.step(1)
    xr.wait(500)
    assert_visible(xr, TAG)
    assert_state(xr, TAG, placed=True)
    assert_resting_on(xr, TAG, "table", tol=0.01)

    head = xr.head.position
    tables = xr.planes("table")
    assert tables, "the app did not enable plane detection (no detected 'table' plane)"
    nearest = min(tables, key=lambda p: math.dist(p.position, head))
    x, _, z = xr.find(TAG).point
    (x0, _, z0), (x1, _, z1) = nearest.bbox
    inside = x0 + MARGIN <= x <= x1 - MARGIN and z0 + MARGIN <= z <= z1 - MARGIN
    assert inside, (
        f"expected the vase over the nearest table (x in [{x0 + MARGIN:.2f}, {x1 - MARGIN:.2f}], "
        f"z in [{z0 + MARGIN:.2f}, {z1 - MARGIN:.2f}]); observed its centre at x = {x:.3f}, z = {z:.3f}"
    )
    size = xr.find_by_tag(TAG).size
    assert size is not None and 0.15 <= size[1] <= 0.4, f"expected a vase about 0.25 m tall; observed size {size}"

    where = xr.find(TAG).point
    xr.head.walk([(0.6, 1.5, 0.3)], speed=1.0)  # the user moves: the vase stays put
    xr.wait(200)
    assert_position(xr, TAG, where, tol=0.005)
    assert_no_errors(xr)


@pytest.mark.xr_scenes("empty")
def test_no_vase_is_shown_without_a_table(xr):
    xr.step(1)
    xr.wait(500)
    assert_not_visible(xr, TAG)
    assert_no_errors(xr)
