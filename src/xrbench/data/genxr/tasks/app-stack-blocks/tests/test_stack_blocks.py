"""Runtime tests of the block-stacking app, in two rooms with tables of different heights.

They check that the three blocks tagged 'block' start in a row resting on the nearest table; that
a block picked up (touch + pinch), carried over another block and released drops onto it
(bottom on the other block's top, not inside it, not floating; state.restingOn names the block),
so that a tower of three can be built; and that a block released over a free part of the table
drops onto the table. The user first steps up to the table.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import (
    assert_no_errors,
    assert_not_colliding,
    assert_resting_on,
)
from xrbench.xrtest.readers import node_target

BLOCK = "block"

pytestmark = pytest.mark.xr_scenes("living_room", "kitchen")


def block(xr, block_id: str):
    """The block whose state.id is `block_id` (a scene node)."""
    found = [n for n in xr.tagged(BLOCK) if (n.state or {}).get("id") == block_id]
    assert len(found) == 1, f"expected one block with state.id {block_id!r}; observed {len(found)}"
    return found[0]


def named(xr, block_id: str):
    """The block as an assertion target labelled 'block A' (the blocks share their tag)."""
    return node_target(block(xr, block_id), f"block {block_id}")


def centre(node) -> tuple[float, float, float]:
    lo, hi = node.bbox
    return tuple((lo[i] + hi[i]) / 2 for i in range(3))


def at_the_table(xr):
    """Half a second in (the table is detected, the blocks placed), the user standing at the table."""
    xr.wait(500)
    xr.head.teleport_to("table", distance=0.75)
    return xr


def carry(xr, role: str, block_id: str, over: tuple[float, float], lift: float = 0.22) -> None:
    """Pick the block up from above, lift it, carry it until its centre is over `over` (x, z), release."""
    hand = xr.hand(role)
    node = block(xr, block_id)
    cx, _, cz = centre(node)
    hand.move_hand((cx, node.bbox[1][1] + 0.08, cz), anchor="fingertip")
    hand.reach_to(node, depth=0.02)
    hand.pinch()
    assert_block_state(xr, block_id, held=True)
    hand.move_by((0.0, lift, 0.0), speed=0.4)
    bx, _, bz = centre(block(xr, block_id))
    hand.move_by((over[0] - bx, 0.0, over[1] - bz), speed=0.4)
    hand.release()
    xr.wait(1000)  # it falls and comes to rest
    hand.rest()


def assert_block_state(xr, block_id: str, **want) -> None:
    state = block(xr, block_id).state or {}
    wrong = {k: state.get(k, "<missing>") for k, v in want.items() if state.get(k) != v}
    assert not wrong, f"expected block {block_id} state to include {want}; observed {state}"


def assert_blocks_in_a_row_on_the_table(xr) -> None:
    """A, B, C: 0.08 m cubes resting on the table, 0.15 m apart along x, B at the table's centre."""
    nodes = {i: block(xr, i) for i in "ABC"}
    for i, node in nodes.items():
        assert node.visible, f"expected block {i} visible once placed"
        assert_resting_on(xr, named(xr, i), "table", tol=0.006)
        assert_block_state(xr, i, restingOn="table", held=False)
        size = node.size
        assert all(abs(s - 0.08) < 0.005 for s in size), f"expected block {i} to be a 0.08 m cube; observed {size}"
    xa, xb_, xc = (centre(nodes[i])[0] for i in "ABC")
    assert abs((xb_ - xa) - 0.15) < 0.01 and abs((xc - xb_) - 0.15) < 0.01, (
        f"expected A, B, C 0.15 m apart along x; observed x = {xa:.3f}, {xb_:.3f}, {xc:.3f}"
    )
    table = xr.find("table").point
    bx, _, bz = centre(nodes["B"])
    assert abs(bx - table[0]) < 0.03 and abs(bz - table[2]) < 0.03, "expected B at the centre of the table"


def test_blocks_released_over_other_blocks_stack_into_a_tower(xr):
    at_the_table(xr)
    bx, _, bz = centre(block(xr, "B"))
    carry(xr, "dominant", "A", over=(bx + 0.015, bz - 0.01))
    assert_resting_on(xr, named(xr, "A"), named(xr, "B"), tol=0.006)
    assert_not_colliding(xr, named(xr, "A"), named(xr, "B"), tol=0.003)
    assert_block_state(xr, "A", restingOn="B", held=False)
    carry(xr, "non_dominant", "C", over=(bx - 0.01, bz + 0.015))
    assert_resting_on(xr, named(xr, "C"), named(xr, "A"), tol=0.006)
    assert_not_colliding(xr, named(xr, "C"), named(xr, "A"), tol=0.003)
    assert_block_state(xr, "C", restingOn="A")
    assert_resting_on(xr, named(xr, "B"), "table", tol=0.006)
    assert_no_errors(xr)


def test_the_blocks_start_on_the_table_and_one_released_over_a_free_spot_drops_onto_it(xr):
    at_the_table(xr)
    assert_blocks_in_a_row_on_the_table(xr)
    cx, _, cz = centre(block(xr, "C"))
    carry(xr, "dominant", "C", over=(cx + 0.05, cz + 0.2))  # nearer the user, away from A and B
    node = block(xr, "C")
    assert_resting_on(xr, named(xr, "C"), "table", tol=0.006)
    x, _, z = centre(node)
    assert abs(x - (cx + 0.05)) < 0.02 and abs(z - (cz + 0.2)) < 0.02, (
        f"expected C to fall straight down where it was released; observed it at x = {x:.3f}, z = {z:.3f}"
    )
    assert_block_state(xr, "C", restingOn="table", held=False)
    for other in ("A", "B"):
        assert_not_colliding(xr, named(xr, "C"), named(xr, other))
    assert_no_errors(xr)
