"""Runtime tests of the gaze-highlighted targets.

They check that
- exactly the target the head looks at is highlighted (`state.highlighted`, and a visibly
  different colour or emissive colour), and that the highlight moves as the head turns from one
  target to another and the previous target returns to its normal look;
- no target is highlighted while the user looks between two targets (20 degrees from each) or
  down at the floor;
- the gaze is measured from where the head is now: after a step to the side, looking at a target
  still highlights that target and no other.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "gaze-target"
SETTLE = 6  # frames the app gets to update the highlight after the head stops


def targets(xr):
    """The three targets, left to right (as seen from the start)."""
    nodes = [n for n in xr.tagged(TAG) if n.root == "scene"]
    assert len(nodes) == 3, f"expected 3 objects tagged {TAG!r}; observed {len(nodes)}"
    return sorted(nodes, key=lambda n: n.position[0])


def centre(node):
    lo, hi = node.bbox or (node.position, node.position)
    return tuple((lo[i] + hi[i]) / 2 for i in range(3))


def look(xr, point):
    xr.head.look_at(point)
    xr.step(SETTLE)


def highlighted(xr) -> list[bool]:
    states = [n.state for n in targets(xr)]
    for s in states:
        assert isinstance(s, dict) and isinstance(s.get("highlighted"), bool), f"bad state {s!r}"
    return [s["highlighted"] for s in states]


def appearance(node):
    return (node.color, node.emissive)


NAMES = ("left", "centre", "right")


def expect(xr, which: str | None, why: str) -> None:
    want = [name == which for name in NAMES]
    got = highlighted(xr)
    assert got == want, (
        f"{why}: expected {'only the ' + which + ' target' if which else 'no target'} highlighted; "
        f"observed highlighted = {dict(zip(NAMES, got, strict=True))}"
    )


def test_the_highlight_follows_the_head_from_target_to_target(xr):
    xr.step(2)
    left, mid, right = targets(xr)
    normal_left, normal_right = appearance(left), appearance(right)
    look(xr, centre(mid))
    expect(xr, "centre", "looking at the centre target")
    look(xr, centre(left))
    expect(xr, "left", "after turning to the left target")
    glowing = appearance(targets(xr)[0])
    assert glowing != normal_left, f"the highlighted left target looks as before: colour/emissive {glowing}"
    look(xr, centre(right))
    expect(xr, "right", "after turning to the right target")
    assert appearance(targets(xr)[0]) == normal_left, "the left target did not return to its normal look"
    assert appearance(targets(xr)[2]) != normal_right, "the highlighted right target looks as before"
    assert_no_errors(xr)


def test_nothing_is_highlighted_between_targets_or_looking_away(xr):
    xr.step(2)
    _, mid, right = targets(xr)
    between = tuple((a + b) / 2 for a, b in zip(centre(mid), centre(right), strict=True))  # 20 deg from each
    look(xr, between)
    expect(xr, None, "looking half-way between the centre and right targets")
    look(xr, (0.0, 0.0, -1.0))
    expect(xr, None, "looking down at the floor")
    look(xr, centre(mid))
    expect(xr, "centre", "looking back at the centre target")
    assert_no_errors(xr)


def test_the_gaze_is_measured_from_where_the_head_is(xr):
    xr.step(2)
    xr.head.move((0.9, 0.0, 0.0))  # a step to the right, still facing forward
    left, mid, _ = targets(xr)
    look(xr, centre(mid))
    expect(xr, "centre", "looking at the centre target from 0.9 m to the right")
    look(xr, centre(left))
    expect(xr, "left", "looking at the left target from 0.9 m to the right")
    assert_no_errors(xr)
