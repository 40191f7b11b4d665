"""Runtime tests of the vase placed on the nearest detected table.

They check that
- in the living room (one table, 0.75 m high) the vase appears within half a second of the
  start, already standing on the table (its bottom on the table top within 1 cm, its centre at
  least 0.1 m inside the table's edges), with `state.placed` true from the frame it is shown; it
  is about 0.25 m tall and 0.15 m wide (each within 25 %), upright, and the tagged object holds
  all of it; it stays exactly where it is while the user crouches and walks around the table;
- in the kitchen (a 0.94 m island near the start, reported first, and a long counter along the
  far wall), the vase stands on the island, and it stays there when the user walks over to the
  counter, which is then the nearest table (a vase placed again every frame moves);
- when plane detection reports its planes late (the harness withholds them at start-up and
  delivers them later, the way a headset's detection does), the vase stays hidden with
  `state.placed` false until a table is known, and is then placed within half a second on the
  table nearest to the user's head at that moment, also when that table is not the first
  reported, the user is crouching and looking at another table, and the room's tables are
  delivered one after the other (the vase stays on the table it was placed on when a nearer
  table is detected later);
- in an empty room without any table no vase is shown and `state.placed` stays false.

Each test runs for a right- and for a left-dominant user (the hands play no part).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.scenes import get_scene

TAG = "vase"
HEIGHT, WIDTH = 0.25, 0.15
SIZE_TOL = 0.25  # stated sizes, each within 25 % of itself
REST_TOL = 0.01  # the bottom on the table top, within 1 cm
MARGIN = 0.1  # the centre at least 0.1 m inside the table top's edges
STILL_TOL = 0.003  # metres a placed vase may move ("stays exactly where it is")
SOON = 30  # frames: half a second at 60 Hz

Vec = tuple[float, float, float]


@dataclass(frozen=True)
class Table:
    """A table top of a scene's planes file: its centre and its x/z extent."""

    name: str
    centre: Vec
    lo: tuple[float, float]  # (x, z)
    hi: tuple[float, float]

    def margin_box(self) -> str:
        return (
            f"x in [{self.lo[0] + MARGIN:.2f}, {self.hi[0] - MARGIN:.2f}], "
            f"z in [{self.lo[1] + MARGIN:.2f}, {self.hi[1] - MARGIN:.2f}]"
        )


def table_of(plane: dict[str, Any], name: str) -> Table:
    p = plane["position"]
    xs = [q["x"] for q in plane["polygon"]]
    zs = [q["y"] for q in plane["polygon"]]  # a horizontal plane's polygon (x, y) lies along world x, z
    lo, hi = (p["x"] + min(xs), p["z"] + min(zs)), (p["x"] + max(xs), p["z"] + max(zs))
    return Table(name, (p["x"], p["y"], p["z"]), lo, hi)


def kitchen() -> tuple[list[dict[str, Any]], Table, Table]:
    """The kitchen's planes in their reported order, its island (reported first) and its counter."""
    planes = get_scene("kitchen").planes()
    tables = [p for p in planes if p["label"] == "table"]
    assert len(tables) == 2 and tables[0]["position"]["z"] > tables[1]["position"]["z"]
    return planes, table_of(tables[0], "the kitchen island"), table_of(tables[1], "the counter along the far wall")


def plane_of(planes: list[dict[str, Any]], table: Table) -> dict[str, Any]:
    return next(p for p in planes if (p["position"]["x"], p["position"]["y"], p["position"]["z"]) == table.centre)


def _fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def vase_node(xr, *, required: bool = True):
    """The object tagged 'vase' (None when there is none yet and `required` is false)."""
    __tracebackhide__ = True
    nodes = [n for n in xr.tagged(TAG) if n.root == "scene"]
    if not nodes and not required:
        return None
    assert len(nodes) == 1, f"expected exactly one object tagged {TAG!r} in the scene; observed {len(nodes)}"
    return nodes[0]


def placed_of(node) -> Any:
    return node.state.get("placed") if isinstance(node.state, dict) else None


def off_table(node, table: Table) -> str | None:
    """Why the vase does not stand on `table` (None when it does)."""
    if node.bbox is None:
        return "it has no geometry"
    lo, hi = node.bbox
    bottom = lo[1]
    if abs(bottom - table.centre[1]) > REST_TOL:
        what = "floats above" if bottom > table.centre[1] else "is sunk into"
        return (
            f"its bottom is at y = {bottom:.3f}, {abs(bottom - table.centre[1]):.3f} m off {table.name}'s top at "
            f"y = {table.centre[1]:.2f} (it {what} it; within {REST_TOL} m expected)"
        )
    x, z = (lo[0] + hi[0]) / 2, (lo[2] + hi[2]) / 2
    inside = table.lo[0] + MARGIN <= x <= table.hi[0] - MARGIN and table.lo[1] + MARGIN <= z <= table.hi[1] - MARGIN
    if not inside:
        return f"its centre is at x = {x:.3f}, z = {z:.3f}, not over {table.name} ({table.margin_box()})"
    return None


def assert_on_table(node, table: Table, when: str) -> None:
    __tracebackhide__ = True
    assert node.visible, f"expected the vase shown on {table.name} ({when}); it is hidden"
    why = off_table(node, table)
    assert why is None, f"expected the vase standing on {table.name} ({when}); observed that {why}"
    assert placed_of(node) is True, f"expected state.placed true ({when}); observed {node.state!r}"


def assert_not_shown(xr, when: str) -> None:
    """No vase shown (a vase not made yet is not shown either), and `state.placed` false."""
    __tracebackhide__ = True
    node = vase_node(xr, required=False)
    if node is None:
        return
    assert not node.visible, f"expected no vase shown {when}; observed it shown at {_fmt(node.position)}"
    assert placed_of(node) is False, f"expected state.placed false {when}; observed {node.state!r}"


def assert_stays(xr, where: Vec, table: Table, when: str) -> None:
    __tracebackhide__ = True
    node = vase_node(xr)
    moved = math.dist(node.position, where)
    assert moved <= STILL_TOL, (
        f"expected the vase to stay where it was placed, {_fmt(where)} on {table.name} ({when}); observed it at "
        f"{_fmt(node.position)}, {moved:.3f} m away"
    )
    assert_on_table(node, table, when)


def wait_for_placement(xr, table: Table, since: int, what: str):
    """Step frame by frame until the vase is shown (at most half a second after `since`).

    Before it is shown `state.placed` must stay false; the frame it is shown it must already stand
    on `table` with `state.placed` true. Returns the node.
    """
    __tracebackhide__ = True
    while True:
        node = vase_node(xr, required=False)
        if node is not None and node.visible:
            assert_on_table(node, table, f"the frame the vase is first shown, {what}")
            return node
        assert node is None or placed_of(node) is False, (
            f"expected state.placed false while the vase is not shown, {what}; observed {node.state!r} at frame "
            f"{xr.frame}"
        )
        assert xr.frame - since < SOON, (
            f"expected the vase on {table.name} within half a second ({SOON} frames) of the table being detected, "
            f"{what}; no vase shown {xr.frame - since} frames later"
        )
        xr.step(1)


def assert_nearest(xr, tables: list[Table], expected: Table) -> None:
    """A check of the test itself: `expected` is the table whose centre is closest to the head."""
    head = xr.head.position
    nearest = min(tables, key=lambda t: math.dist(t.centre, head))
    assert nearest is expected, f"test set-up: {expected.name} is not the nearest table from {_fmt(head)}"


@pytest.mark.xr_scenes("living_room")
def test_a_vase_of_the_stated_size_stands_on_the_table_and_stays_there(xr):
    table = table_of(
        next(p for p in get_scene("living_room").planes() if p["label"] == "table"), "the living-room table"
    )
    node = wait_for_placement(xr, table, 0, "after the app started in the living room")
    size = node.size
    assert size is not None
    height, width, depth = size[1], size[0], size[2]
    assert abs(height - HEIGHT) <= SIZE_TOL * HEIGHT, (
        f"expected an upright vase about {HEIGHT} m tall (within {SIZE_TOL:.0%}); observed a height of {height:.3f} m "
        f"(size {_fmt(size)}; the tagged object must hold all of the vase's meshes)"
    )
    for what, w in (("x", width), ("z", depth)):
        assert abs(w - WIDTH) <= SIZE_TOL * WIDTH, (
            f"expected a vase about {WIDTH} m wide (within {SIZE_TOL:.0%}); observed {w:.3f} m along {what} "
            f"(size {_fmt(size)})"
        )
    where = node.position
    xr.wait(1000)
    assert_stays(xr, where, table, "a second after it was placed")
    xr.head.move((0.0, -0.35, 0.0), speed=0.5)  # the user crouches ...
    xr.head.rotate(pitch=-30)  # ... looks down at the vase ...
    assert_stays(xr, where, table, "while the user crouches and looks at it")
    xr.head.rotate(pitch=30)
    xr.head.move((0.0, 0.35, 0.0), speed=0.5)
    xr.head.walk([(1.1, 1.5, -0.9), (1.1, 1.5, -2.1)], speed=1.0)  # ... and walks round the table
    xr.wait(500)
    assert_stays(xr, where, table, "after the user walked to the far side of the table")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_in_the_kitchen_the_vase_stays_on_the_island_when_the_user_walks_to_the_counter(xr):
    _, island, counter = kitchen()
    assert_nearest(xr, [island, counter], island)
    node = wait_for_placement(xr, island, 0, "after the app started in the kitchen, nearest the island")
    where = node.position
    xr.head.walk([(1.3, 1.5, -0.6), (1.3, 1.5, -2.45), (-0.4, 1.5, -2.45)], speed=1.0)
    assert_nearest(xr, [island, counter], counter)
    assert_stays(xr, where, island, "after the user walked over to the counter, now the nearest table")
    xr.wait(1000)
    assert_stays(xr, where, island, "a second after the user reached the counter")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_the_vase_goes_on_the_nearest_table_not_the_first_reported_nor_the_one_looked_at(xr):
    planes, island, counter = kitchen()
    xr.plane_detection.withhold()
    # The user stands between the island and the counter, nearer the counter, crouching, and turns
    # to look down at the island (reported first, and the table in view).
    xr.head.teleport_to((-0.4, 1.5, -2.5))
    xr.head.move((0.0, -0.4, 0.0), speed=0.5)
    xr.head.look_at(island.centre)
    for _ in range(20):
        assert_not_shown(xr, "before plane detection has found any plane")
        xr.step(1)
    assert_nearest(xr, [island, counter], counter)
    xr.plane_detection.add(*planes)
    since = xr.frame
    xr.step(1)
    node = wait_for_placement(xr, counter, since, "once the kitchen's planes were detected, nearest the counter")
    where = node.position
    xr.head.walk([(-0.4, 1.1, -2.2)], speed=0.5)  # a step towards the island, still crouching
    xr.wait(500)
    assert_stays(xr, where, counter, "half a second after it was placed")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_planes_that_arrive_late_one_table_after_the_other(xr):
    planes, island, counter = kitchen()
    floor = [p for p in planes if p["label"] == "floor"]
    walls = [p for p in planes if p["label"] == "wall"]
    xr.plane_detection.withhold()
    for _ in range(90):  # a second and a half without any plane
        assert_not_shown(xr, "before plane detection has found any plane")
        xr.step(1)
    xr.plane_detection.add(*floor, *walls)  # the floor and the walls, but no table yet
    for _ in range(60):
        assert_not_shown(xr, "while the only detected planes are the floor and the walls")
        xr.step(1)
    xr.plane_detection.add(plane_of(planes, counter))  # the far counter: the only table known
    since = xr.frame
    xr.step(1)
    node = wait_for_placement(xr, counter, since, "once the counter, the only table known, was detected")
    where = node.position
    xr.wait(500)
    assert_stays(xr, where, counter, "half a second after it was placed")
    assert_nearest(xr, [island, counter], island)
    xr.plane_detection.add(plane_of(planes, island))  # the island, nearer the user, is detected later
    for i in range(60):
        xr.step(1)
        assert_stays(xr, where, counter, f"{i + 1} frames after the nearer island was detected")
    xr.head.walk([(0.0, 1.5, -0.6)], speed=1.0)
    xr.wait(500)
    assert_stays(xr, where, counter, "after the user stepped up to the island")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("empty")
def test_no_vase_is_shown_without_a_table(xr):
    for _ in range(60):
        assert_not_shown(xr, "in a room without any table")
        xr.step(1)
    xr.head.walk([(0.0, 1.5, -1.5), (1.0, 1.5, -2.5)], speed=1.0)
    xr.head.rotate(yaw=90, pitch=-30)
    xr.wait(1000)
    assert_not_shown(xr, "in a room without any table, two seconds on")
    assert_no_errors(xr)
