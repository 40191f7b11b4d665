"""Runtime tests of the object-labels app, in two rooms with tables of different heights.

Physical objects are put on the table, moved and taken away while the app runs (the simulator's
objects, which XR Blocks' object detection reports). The tests check that each object gets
exactly one label tagged 'object-label' whose state names it, centred over the object and
floating 0.1-0.25 m above it in world coordinates; that labels appear for objects added later,
follow objects that move, and disappear when their objects are removed. Labels are counted by
what is visible where, not only by their state: exactly one visible label floats over each
object, and once an object is gone no visible label is left over the spot where it was.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_no_errors

LABEL = "object-label"
# Object detection needs XR Blocks' AI service, which logs these without an API key.
EXPECTED_NOISE = [r"@google/genai", r"[Gg]emini", r"keys\.json", r"status of 404"]

pytestmark = pytest.mark.xr_scenes("living_room", "kitchen")


def labels(xr, name: str | None = None) -> list:
    """Visible labels (optionally only those whose state names `name`)."""
    return [n for n in xr.tagged(LABEL) if n.visible and (name is None or (n.state or {}).get("label") == name)]


def names(xr) -> list:
    """What the visible labels say."""
    return [(n.state or {}).get("label") for n in labels(xr)]


def box_centre(box) -> tuple:
    lo, hi = box
    return tuple((lo[i] + hi[i]) / 2 for i in range(3))


def labels_over(xr, box, *, near: float = 0.08) -> list:
    """Visible labels, whatever their state says, centred within `near` metres (horizontally) of
    the centre of `box` (an object's world box) and above its bottom."""
    cx, _, cz = box_centre(box)
    found = []
    for n in labels(xr):
        lx, ly, lz = box_centre(n.bbox or (n.position, n.position))
        if ((lx - cx) ** 2 + (lz - cz) ** 2) ** 0.5 <= near and ly >= box[0][1]:
            found.append(n)
    return found


def wait_for(xr, check, frames: int = 90) -> bool:
    """Step up to `frames` frames (in small batches) until `check()` holds."""
    for _ in range(frames // 3):
        if check():
            return True
        xr.step(3)
    return bool(check())


def assert_label_over(xr, obj) -> None:
    """Exactly one visible label names `obj`, centred over it and 0.1-0.25 m above its top."""
    found = labels(xr, obj.label)
    assert len(found) == 1, f"expected one label for the {obj.label!r}; observed {len(found)} (all labels: {names(xr)})"
    node = obj.node
    (lo, hi), (llo, lhi) = node.bbox, found[0].bbox or (found[0].position, found[0].position)
    cx, cz = (lo[0] + hi[0]) / 2, (lo[2] + hi[2]) / 2
    lx, ly, lz = ((llo[i] + lhi[i]) / 2 for i in range(3))
    off = ((lx - cx) ** 2 + (lz - cz) ** 2) ** 0.5
    above = ly - hi[1]
    assert off <= 0.08 and 0.05 <= above <= 0.35, (
        f"expected the {obj.label!r} label centred over it and 0.1-0.25 m above its top (y = {hi[1]:.3f}); "
        f"observed the label centre at ({lx:.3f}, {ly:.3f}, {lz:.3f}): {off:.3f} m off to the side, "
        f"{above:.3f} m above the top"
    )
    over = labels_over(xr, node.bbox)
    assert len(over) == 1, (
        f"expected exactly one visible label over the {obj.label!r}; observed {len(over)}, whose states say "
        f"{[(n.state or {}).get('label') for n in over]}"
    )


def test_each_object_on_the_table_gets_one_label_above_it(xr):
    xr.step(5)
    mug = xr.objects.add("mug", on="table", size=(0.08, 0.1, 0.08), offset=(-0.25, 0.0, 0.0))
    book = xr.objects.add("book", on="table", size=(0.2, 0.04, 0.15), offset=(0.25, 0.0, 0.05))
    assert wait_for(xr, lambda: labels(xr, "mug") and labels(xr, "book")), (
        f"expected labels for the mug and the book within 1.5 s; observed {names(xr)}"
    )
    xr.step(10)
    assert_label_over(xr, mug)
    assert_label_over(xr, book)
    assert len(labels(xr)) == 2, f"expected two labels; observed {names(xr)}"
    assert_no_errors(xr, allow=EXPECTED_NOISE)


def test_labels_come_follow_and_go_with_their_objects(xr):
    xr.step(5)
    mug = xr.objects.add("mug", on="table", size=(0.08, 0.1, 0.08), offset=(-0.2, 0.0, 0.0))
    assert wait_for(xr, lambda: labels(xr, "mug")), "expected a label for the mug within 1.5 s"
    xr.wait(500)  # later, a second object is put down
    plant = xr.objects.add("plant", on="table", size=(0.12, 0.2, 0.12), offset=(0.2, 0.0, 0.0))
    assert wait_for(xr, lambda: labels(xr, "plant")), "expected a label for the plant put down later"
    xr.step(10)
    assert_label_over(xr, plant)
    plant.move_to(on="table")  # to the table's centre, 0.2 m away
    xr.wait(1000)
    assert_label_over(xr, plant)
    spot = mug.node.bbox
    mug.remove()
    assert wait_for(xr, lambda: not labels(xr, "mug") and not labels_over(xr, spot) and len(labels(xr)) == 1), (
        f"expected the mug's label to disappear once the mug was taken away; observed {len(labels(xr, 'mug'))} "
        f"label(s) naming it, {len(labels_over(xr, spot))} visible label(s) still over where it was, and "
        f"{len(labels(xr))} visible label(s) in all (states: {names(xr)}) for the one object left"
    )
    assert_label_over(xr, plant)
    assert_no_errors(xr, allow=EXPECTED_NOISE)
