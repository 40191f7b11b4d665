"""Runtime tests of the thumbs-up stars app.

When a hand starts a thumbs-up is read from the harness's own record of what XR Blocks' gesture
recognition dispatched (`gesture_start` of `thumbs-up`, with its hand and frame), never from the
app. The thumb tip is read on every frame while the hand moves into the gesture, so each star is
checked against where that thumb was at the frame its gesture started.

They check that
- the scene starts empty: no star, and no visible mesh (the cylinder is gone);
- a thumbs-up of the dominant hand, then of the non-dominant hand elsewhere, then of both hands
  from the same frame, then two of one hand while the other holds its thumbs-up, each add exactly
  one star per gesture while the thumb is up: its centre 0.15 m straight above (world y) that
  hand's thumb tip at the frame the gesture started, within 1.5 cm; about 5 cm across (its largest
  extent within 25 %); visible; `state.hand` naming the hand;
- a thumbs-up held for ten seconds adds one star; three more (relaxing in between) and two made
  straight from a fist add one each, one per recognised start;
- fists, thumbs-downs, pinches, open hands, pointing, victory and rock hands, poses that are not
  quite a thumbs-up (a half-raised thumb, a thumb tilted sideways, a thumb bent towards a fist,
  none of which the recogniser reports with its default settings), moving hands and a moving head
  add no star;
- stars stay where they were added, in the room, while the hands move on, the user walks, turns,
  looks down and crouches, and three seconds later; a thumbs-up made while looking down and
  crouching puts its star straight above the thumb along the world's y axis.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.poses import FIST, RELAXED, THUMBS_UP, blend

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "star"
GESTURE = "thumbs-up"
ABOVE = 0.15  # metres above the thumb tip
POS_TOL = 0.015  # metres from the expected centre (10 % of the stated 15 cm)
SIZE = 0.05
SIZE_TOL = 0.0125  # a stated size, checked to within 25 %
STILL_TOL = 0.003  # metres a star may move once added
SETTLE = 24  # frames a pose change takes (the simulator lerps joints 10 % per frame)

Vec = tuple[float, float, float]

# Not quite a thumbs-up: XR Blocks' recogniser scores them 0.52, 0.53 and 0.58 for thumbs-up, below
# its default minimum confidence of 0.6.
NEAR_MISSES = {
    "a half-raised thumb (partly curled hand)": blend(RELAXED, THUMBS_UP, 0.5),
    "a thumb tilted sideways": {**THUMBS_UP, "wrist": (40.38, -11.54, 60.0)},
    "a thumb bent towards a fist": blend(THUMBS_UP, FIST, 0.3),
}


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def stars(xr) -> dict:
    return {n.uuid: n for n in xr.tagged(TAG) if n.root == "scene"}


def centre(node) -> Vec:
    lo, hi = node.bbox or (node.position, node.position)
    return tuple((lo[i] + hi[i]) / 2 for i in range(3))


def side_of(xr, role: str) -> float:
    return 1.0 if xr.handedness(role) == "right" else -1.0


def assert_star_count(xr, n: int, what: str) -> None:
    __tracebackhide__ = True
    got = len(stars(xr))
    assert got == n, f"expected {n} star(s) {what}; observed {got}"


def starts(xr, since_frame: int, hand: str | None = None) -> list:
    """Thumbs-up starts XR Blocks' recogniser dispatched (recorded by the harness)."""
    return xr.events("gesture_start", name=GESTURE, hand=hand, since_frame=since_frame)


@dataclass
class Made:
    """One recognised thumbs-up: its hand, the frame it started, the thumb tip then, its star."""

    hand: str
    frame: int
    tip: Vec
    star: object = None

    @property
    def want(self) -> Vec:
        return (self.tip[0], self.tip[1] + ABOVE, self.tip[2])


def thumbs_up(xr, roles: Sequence[str], *, hold: int = SETTLE, pose: dict | None = None) -> list[Made]:
    """Put each hand into a thumbs-up from the same frame (or `pose`) and hold `hold` frames.

    Steps frame by frame, reading the thumb tips, and returns one `Made` per thumbs-up start the
    recogniser dispatched meanwhile, with the thumb tip at its frame. Checks that each start
    added exactly one star, while the thumb is still up, where the instruction says.
    """
    __tracebackhide__ = True
    hands = [xr.handedness(r) for r in roles]
    before = stars(xr)
    f0 = xr.frame
    for role in roles:
        if pose is None:
            xr.hand(role).set_pose("thumbs up", frames=0)
        else:
            xr.hand(role).set_joint_rotations(pose, merge=False, constraints=False, frames=0)
    tips: dict[int, dict[str, Vec]] = {}
    for _ in range(hold):
        f = xr.step(1)
        tips[f] = {h: tuple(xr.hand_joints(h)["thumb-tip"].position) for h in hands}
    made = [Made(e.hand, e.frame, tips[e.frame][e.hand]) for e in starts(xr, f0) if e.frame in tips and e.hand in hands]
    now = stars(xr)
    gone = [u for u in before if u not in now]
    assert not gone, f"expected the earlier stars to stay; {len(gone)} disappeared when a thumb went up"
    new = [n for u, n in now.items() if u not in before]
    assert len(new) == len(made), (
        f"expected one new star per thumbs-up XR Blocks recognised ({len(made)}: "
        f"{', '.join(f'{m.hand} at frame {m.frame}' for m in made) or 'none'}) while the thumb was up; "
        f"observed {len(new)}"
    )
    for m in made:
        near = min(new, key=lambda n: math.dist(centre(n), m.want))
        gap = math.dist(centre(near), m.want)
        assert gap <= POS_TOL, (
            f"expected a star centred 0.15 m straight above the {m.hand} thumb tip where it was when the gesture "
            f"started (frame {m.frame}), at {_fmt(m.want)} (within {POS_TOL} m); the nearest new star is at "
            f"{_fmt(centre(near))}, {gap:.3f} m away (offset from the thumb tip "
            f"{_fmt(tuple(centre(near)[i] - m.tip[i] for i in range(3)))})"
        )
        size = near.size
        assert size is not None and abs(max(size) - SIZE) <= SIZE_TOL, (
            f"expected a star about {SIZE} m across (its largest extent within {SIZE_TOL} m); observed size {size}"
        )
        assert near.visible, "expected the star to be visible"
        state = near.state
        assert isinstance(state, dict) and state.get("hand") == m.hand, (
            f"expected state.hand {m.hand!r} on the star of the {m.hand} hand's thumbs-up; observed state {state!r}"
        )
        m.star = near
        new.remove(near)
    return made


def relax(xr, roles: Sequence[str]) -> None:
    __tracebackhide__ = True
    n = len(stars(xr))
    for role in roles[:-1]:
        xr.hand(role).set_pose("relaxed", frames=0)
    xr.hand(roles[-1]).set_pose("relaxed")
    assert_star_count(xr, n, "after the thumbs went down again (that adds no star)")


def assert_unmoved(xr, made: Sequence[Made], what: str) -> None:
    __tracebackhide__ = True
    now = stars(xr)
    for k, m in enumerate(made, start=1):
        assert m.star.uuid in now, f"expected star {k} (of the {m.hand} hand) still in the scene {what}; it is gone"
        node = now[m.star.uuid]
        moved = math.dist(centre(node), centre(m.star))
        assert moved <= STILL_TOL, (
            f"expected star {k} to stay where it was added, at {_fmt(centre(m.star))}, {what}; observed it "
            f"{moved:.3f} m away at {_fmt(centre(node))}"
        )
        assert node.visible, f"expected star {k} to stay in the scene (visible) {what}; it is hidden"


def one_each(made: Sequence[Made], hands: Sequence[str], what: str) -> None:
    __tracebackhide__ = True
    got = sorted(m.hand for m in made)
    assert got == sorted(hands), (
        f"expected XR Blocks to recognise one thumbs-up per hand {what} ({sorted(hands)}); it reported {got}"
    )


def test_the_scene_starts_empty(xr):
    xr.step(2)
    assert_star_count(xr, 0, "before any thumbs-up")
    visible = xr.drawn()
    assert not visible, f"expected an empty scene at the start (the cylinder removed); observed {visible}"
    assert_no_errors(xr)


def test_a_thumbs_up_of_either_hand_adds_one_star_above_its_thumb(xr):
    xr.step(1)
    me, other = xr.handedness("dominant"), xr.handedness("non_dominant")
    made = thumbs_up(xr, ["dominant"])
    one_each(made, [me], "(the dominant hand)")
    relax(xr, ["dominant"])
    xr.hand("non_dominant").move_hand((0.15 * side_of(xr, "non_dominant"), 1.35, -0.45))
    made += (m := thumbs_up(xr, ["non_dominant"]))
    one_each(m, [other], "(the non-dominant hand, moved elsewhere)")
    relax(xr, ["non_dominant"])
    xr.hand("dominant").move_hand((0.1 * side_of(xr, "dominant"), 1.25, -0.35))
    made += (m := thumbs_up(xr, ["non_dominant", "dominant"]))  # both hands from the same frame
    one_each(m, [me, other], "(both hands together)")
    assert_star_count(xr, 4, "after both hands made a thumbs-up together")
    # The non-dominant hand keeps its thumb up while the dominant hand makes two more.
    for k in range(2):
        relax(xr, ["dominant"])
        made += (m := thumbs_up(xr, ["dominant"]))
        one_each(m, [me], "(while the other hand held its thumbs-up)")
        assert_star_count(xr, 5 + k, "while the other hand kept its thumb up")
    relax(xr, ["non_dominant", "dominant"])
    assert_star_count(xr, 6, "after six thumbs-ups")
    assert_unmoved(xr, made, "after both hands relaxed")
    assert_no_errors(xr)


def test_one_thumbs_up_adds_one_star_however_long_it_is_held(xr):
    xr.step(1)
    me = xr.handedness("dominant")
    hand = xr.hand("dominant")
    made = thumbs_up(xr, ["dominant"])
    one_each(made, [me], "")
    xr.wait(10_000)  # held for ten seconds
    assert_star_count(xr, 1, "after one thumbs-up held for ten seconds")
    relax(xr, ["dominant"])
    xr.wait(1000)
    assert_star_count(xr, 1, "a second after the long thumbs-up ended")
    for k in range(3):  # again, relaxing in between
        made += (m := thumbs_up(xr, ["dominant"]))
        one_each(m, [me], f"(repetition {k + 1})")
        relax(xr, ["dominant"])
        assert_star_count(xr, 2 + k, f"after {2 + k} thumbs-ups")
    for _ in range(2):  # straight from a fist into a thumbs-up
        hand.set_pose("fist")
        made += (m := thumbs_up(xr, ["dominant"]))
        one_each(m, [me], "(straight from a fist)")
    relax(xr, ["dominant"])
    assert_star_count(xr, 6, "after six thumbs-ups")
    assert_unmoved(xr, made, "after the repetitions")
    assert_no_errors(xr)


def test_other_gestures_and_near_misses_add_no_star(xr):
    xr.step(1)
    f0 = xr.frame
    hand, other = xr.hand("dominant"), xr.hand("non_dominant")
    for pose in ("fist", "thumbs down", "pinching", "neutral", "pointing", "victory", "rock"):
        hand.set_pose(pose)
        other.set_pose(pose)
        xr.wait(500)
        hand.set_pose("relaxed", frames=0)
        other.set_pose("relaxed")
        assert_star_count(xr, 0, f"after both hands made {pose!r} and relaxed")
    for what, pose in NEAR_MISSES.items():
        for h in (hand, other):
            h.set_joint_rotations(pose, merge=False, constraints=False, frames=0)
        xr.wait(1000)
        hand.set_pose("relaxed", frames=0)
        other.set_pose("relaxed")
        assert_star_count(xr, 0, f"after both hands made {what}, which is not a thumbs-up")
    hand.set_pose("neutral")  # open and partly curled hands moving about
    hand.move_hand((0.15 * side_of(xr, "dominant"), 1.4, -0.4))
    other.move_by((0.0, 0.1, -0.1))
    hand.set_pose("relaxed")
    hand.rest()
    other.rest()
    xr.head.rotate(yaw=30)
    xr.head.rotate(pitch=-30)
    xr.head.rotate(yaw=-30, pitch=30)
    assert_star_count(xr, 0, "after the hands and the head moved about")
    seen = starts(xr, f0)
    assert not seen, (
        f"expected XR Blocks' gesture recognition, with its default settings, to report no thumbs-up for these "
        f"poses; it reported {', '.join(map(str, seen))}"
    )
    assert_no_errors(xr)


def test_stars_stay_where_they_were_added_in_the_room(xr):
    xr.step(1)
    me = xr.handedness("dominant")
    role = "dominant"
    hand = xr.hand(role)
    made = thumbs_up(xr, [role])
    one_each(made, [me], "")
    hand.move_by((0.1 * side_of(xr, role), 0.1, -0.1))  # the thumb still up, the hand moves on
    assert_unmoved(xr, made, "while the hand moved on with its thumb up")
    relax(xr, [role])
    hand.move_hand((0.0, 1.5, -0.3))
    assert_unmoved(xr, made, "after the hand moved away")
    made += thumbs_up(xr, ["non_dominant"])
    relax(xr, ["non_dominant"])
    xr.hand("non_dominant").rest()
    hand.rest()
    xr.head.walk([(0.4, 1.5, 0.3)])  # turns towards it and walks there
    assert_unmoved(xr, made, "after the user walked away")
    xr.head.rotate(yaw=60)
    xr.head.rotate(pitch=-20)  # looks down ...
    xr.head.move((0.0, -0.3, 0.0), speed=0.5)  # ... and crouches
    assert_unmoved(xr, made, "after the user turned, looked down and crouched")
    pose = xr.camera_pose()
    assert pose.position[1] <= 1.25, f"the head did not go down: {pose.position}"
    fwd = pose.forward
    ahead = tuple(pose.position[i] + 0.35 * fwd[i] for i in range(3))
    hand.move_hand(ahead)
    low = thumbs_up(xr, [role])  # looking down and crouching: still straight up, along world y
    one_each(low, [me], "(looking down and crouching)")
    relax(xr, [role])
    hand.rest()
    xr.head.rotate(pitch=20)
    xr.head.move((0.0, 0.3, 0.0), speed=0.5)
    xr.wait(3000)
    assert_star_count(xr, 3, "three seconds after the last thumbs-up")
    assert_unmoved(xr, made + low, "after the user stood up again, three seconds later")
    assert_no_errors(xr)
