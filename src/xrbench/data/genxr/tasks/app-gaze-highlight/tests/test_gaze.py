"""Runtime tests of the gaze-highlighted targets.

They check that
- exactly the target the head looks at is highlighted (`state.highlighted`, and a visibly
  different colour or emissive colour), and that the highlight moves as the head turns from one
  target to another and the previous target returns to its normal look;
- no target is highlighted while the user looks between two targets (20 degrees from each) or
  down at the floor;
- the gaze is measured from where the head is now: after a step to the side, looking at a target
  still highlights that target and no other.

Every check of which target is highlighted reads the targets' colours too: a highlighted target
must look different from its normal look (taken while the user looks down at the floor, where no
target is within 10 degrees) and every other target must look normal, so `state.highlighted`
alone never passes.
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
FLOOR = (0.0, 0.0, -1.0)  # a spot on the floor: every target is over 40 degrees from it


def normal_looks(xr) -> list:
    """Each target's normal look (colour, emissive), read while the user looks down at the floor."""
    look(xr, FLOOR)
    return [appearance(n) for n in targets(xr)]


def expect(xr, which: str | None, why: str, normal: list | None = None) -> None:
    """Only `which` (or no target) is highlighted, by state and, given the targets' `normal` looks,
    by colour: the highlighted target looks different from its normal look, the others look normal."""
    want = [name == which for name in NAMES]
    got = highlighted(xr)
    assert got == want, (
        f"{why}: expected {'only the ' + which + ' target' if which else 'no target'} highlighted; "
        f"observed highlighted = {dict(zip(NAMES, got, strict=True))}"
    )
    if normal is None:
        return
    for name, node, usual in zip(NAMES, targets(xr), normal, strict=True):
        now = appearance(node)
        if name == which:
            assert now != usual, (
                f"{why}: the {name} target is highlighted by its state but looks as it did while the user "
                f"looked down at the floor, at no target (colour, emissive {now})"
            )
        else:
            assert now == usual, (
                f"{why}: the {name} target is not looked at but does not look as it did while the user "
                f"looked down at the floor: colour, emissive {now} instead of {usual}"
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
    normal = normal_looks(xr)
    _, mid, right = targets(xr)
    between = tuple((a + b) / 2 for a, b in zip(centre(mid), centre(right), strict=True))  # 20 deg from each
    look(xr, between)
    expect(xr, None, "looking half-way between the centre and right targets", normal)
    look(xr, FLOOR)
    expect(xr, None, "looking down at the floor", normal)
    look(xr, centre(mid))
    expect(xr, "centre", "looking back at the centre target", normal)
    assert_no_errors(xr)


def test_the_gaze_is_measured_from_where_the_head_is(xr):
    xr.step(2)
    normal = normal_looks(xr)
    xr.head.move((0.9, 0.0, 0.0))  # a step to the right
    left, mid, _ = targets(xr)
    look(xr, centre(mid))
    expect(xr, "centre", "looking at the centre target from 0.9 m to the right", normal)
    look(xr, centre(left))
    expect(xr, "left", "looking at the left target from 0.9 m to the right", normal)
    assert_no_errors(xr)
