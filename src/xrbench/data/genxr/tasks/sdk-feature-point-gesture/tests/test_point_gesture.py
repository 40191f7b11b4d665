"""The `point` gesture of XR Blocks' heuristic gesture recogniser, with either hand.

What the recogniser dispatched is read from the harness's own record of `xb.core.gestureRecognition`'s
events (`gesture_start` / `gesture_update` / `gesture_end`, with the gesture's name and hand), and
where the index finger points from the simulated hand's joints (`hand_joints`), never from the app
or the SDK. The harness runs a recognition pass every frame, so what is held at each frame is known.
The demo app turns `point` on.

The tests check that
- a point of either hand (the simulator's `pointing` pose) starts as the hand takes the pose, stays
  held, without ending, for seconds while the hand moves about and turns, and ends when the hand
  relaxes, opens or closes into a fist; the other hand does not point meanwhile;
- the direction does not matter: a held point stays held while the hand turns to point up, down,
  sideways, back towards the user and rolls; a point made afresh while pointing up or down starts;
- the thumb does not matter: tucked in or stretched out straight, in two orientations;
- only the index stretched is a point: open, relaxed and closed hands, victory and rock signs, the
  other three fingers half curled, an index hooked half-way or more are not; an index bent a
  quarter of the way to a fist is;
- both hands point together, each starting and ending on its own;
- pinch, fist, open-palm and thumbs-up are still recognised.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.poses import FIST

pytestmark = pytest.mark.xr_scenes("empty")

POINT = "point"
SETTLE = 30  # frames within which a pose change must start or end the gesture (the joints lerp 10 % a frame)
POSE = 40  # frames given to a pose

# The simulator's `pointing` pose (XR Blocks 0.21.1 SIMULATOR_HAND_POSE_ROTATIONS, in degrees).
POINTING = {
    "wrist": (34.15, -23.77, 59.80),
    "thumb-metacarpal": (36.51, -28.15, 26.30),
    "thumb-phalanx-proximal": (43.51, -10.07, 15.42),
    "thumb-phalanx-distal": (4.66, 4.19, -20.80),
    "index-finger-metacarpal": (0.00, 0.21, 0.00),
    "index-finger-phalanx-proximal": (0.00, -0.01, 0.00),
    "index-finger-phalanx-intermediate": (0.00, -0.02, -0.07),
    "index-finger-phalanx-distal": (0.00, 0.00, -0.02),
    "middle-finger-metacarpal": (0.00, 0.45, 0.00),
    "middle-finger-phalanx-proximal": (54.13, -9.09, 2.22),
    "middle-finger-phalanx-intermediate": (74.56, -0.06, -0.00),
    "middle-finger-phalanx-distal": (24.63, -0.05, -0.02),
    "ring-finger-metacarpal": (0.84, -1.11, 9.06),
    "ring-finger-phalanx-proximal": (62.67, 11.16, 1.19),
    "ring-finger-phalanx-intermediate": (74.40, 0.07, -0.03),
    "ring-finger-phalanx-distal": (29.27, 0.01, -0.00),
    "pinky-finger-metacarpal": (-0.48, -1.65, 12.49),
    "pinky-finger-phalanx-proximal": (56.03, 4.22, -11.60),
    "pinky-finger-phalanx-intermediate": (76.72, 0.01, -0.03),
    "pinky-finger-phalanx-distal": (33.56, 0.02, 0.00),
}
STRAIGHT = dict.fromkeys(POINTING, (0.0, 0.0, 0.0))


def with_joints(base: dict, target: dict, prefixes: tuple[str, ...], t: float) -> dict:
    """`base` with the joints of the named digits a fraction `t` of the way to `target`."""
    pose = dict(base)
    for k in base:
        if k.split("-")[0] in prefixes:
            pose[k] = tuple((1 - t) * a + t * b for a, b in zip(base[k], target[k], strict=True))
    return pose


THUMB_OUT = with_joints(POINTING, STRAIGHT, ("thumb",), 1.0)  # a "finger gun"
OTHERS_HALF = with_joints(POINTING, STRAIGHT, ("middle", "ring", "pinky"), 0.5)
OTHERS_CLENCHED = with_joints(POINTING, FIST, ("middle", "ring", "pinky"), 1.0)


def index_bent(t: float) -> dict:
    """The pointing pose with each index joint bent `t` times as far as in a fist."""
    pose = dict(POINTING)
    for k in POINTING:
        if k.startswith("index"):
            pose[k] = tuple(t * v for v in FIST[k])
    return pose


def index_direction(xr, side: str) -> tuple[float, float, float]:
    """Where the index finger points in the world: its knuckle to its tip, unit length."""
    joints = xr.hand_joints(side)
    tip, base = joints["index-finger-tip"].position, joints["index-finger-phalanx-proximal"].position
    d = [tip[i] - base[i] for i in range(3)]
    n = math.sqrt(sum(v * v for v in d))
    return (d[0] / n, d[1] / n, d[2] / n)


@dataclass
class Hold:
    start: int
    end: int | None = None

    def covers(self, frame: int) -> bool:
        return self.start <= frame and (self.end is None or frame < self.end)

    def __str__(self) -> str:
        return f"frames {self.start}-{self.end if self.end is not None else 'still held'}"


def holds(xr, side: str, name: str = POINT) -> list[Hold]:
    """The side's holds of `name` (gesturestart to gestureend), from the start of the session."""
    out: list[Hold] = []
    for e in xr.events():
        if e.scope != "gesture" or e.hand != side or e.name != name:
            continue
        if e.type == "gesture_start":
            out.append(Hold(e.frame))
        elif e.type == "gesture_end" and out and out[-1].end is None:
            out[-1].end = e.frame
    return out


def held(xr, side: str, frame: int, name: str = POINT) -> bool:
    return any(h.covers(frame) for h in holds(xr, side, name))


def describe(hs: list[Hold]) -> str:
    return ", ".join(map(str, hs)) or "none"


def assert_held_throughout(xr, side: str, first: int, last: int, what: str, name: str = POINT) -> None:
    """One hold of `name` by `side` covers every frame from `first` to `last` (no end, no restart)."""
    __tracebackhide__ = True
    hs = holds(xr, side, name)
    assert any(h.start <= first and (h.end is None or h.end > last) for h in hs), (
        f"expected the {side} hand's {name!r} held without interruption from frame {first} to {last} ({what}); "
        f"observed holds {describe(hs)}"
    )


def assert_started_within(xr, side: str, since: int, what: str, name: str = POINT, frames: int = SETTLE) -> Hold:
    __tracebackhide__ = True
    hs = [h for h in holds(xr, side, name) if h.start > since]
    assert hs and hs[0].start <= since + frames, (
        f"expected the {side} hand's {name!r} to start within {frames} frames after frame {since} ({what}); "
        f"observed holds {describe(holds(xr, side, name))}"
    )
    return hs[0]


def assert_ended_within(xr, side: str, since: int, what: str) -> None:
    __tracebackhide__ = True
    hs = holds(xr, side)
    assert hs and hs[-1].end is not None and since < hs[-1].end <= since + SETTLE, (
        f"expected the {side} hand's 'point' to end within {SETTLE} frames after frame {since} ({what}); "
        f"observed holds {describe(hs)}"
    )


def assert_not_held_since(xr, side: str, since: int, what: str) -> None:
    """`point` is not held by `side` at any frame after `since` (nor started)."""
    __tracebackhide__ = True
    hs = [h for h in holds(xr, side) if h.end is None or h.end > since + 1]
    assert not hs, f"expected no 'point' of the {side} hand after frame {since} ({what}); observed {describe(hs)}"


def rotations(xr, role: str, rot: dict, frames: int = POSE) -> None:
    xr.hand(role).set_joint_rotations(rot, merge=False, constraints=False, frames=frames)


@pytest.fixture
def app(xr):
    xr.step(2)  # hands placed, scripts initialised
    return xr


@pytest.mark.fail_to_pass
def test_a_point_of_either_hand_starts_holds_and_ends(app):
    xr = app
    for role, leave in (("dominant", "relaxed"), ("non_dominant", "fist"), ("dominant", "neutral")):
        side = xr.handedness(role)
        other = xr.handedness("non_dominant" if role == "dominant" else "dominant")
        hand = xr.hand(role)
        f0 = xr.frame
        hand.set_pose("pointing", frames=POSE)
        assert_started_within(xr, side, f0, f"the {side} hand pointed")
        f_held = xr.frame
        # Held for seconds while the hand moves about and turns a little.
        start = hand.position
        for dx, dy, dz in ((0.15, 0.0, 0.0), (-0.15, 0.1, -0.1), (0.0, -0.15, 0.1)):
            hand.move_hand((start[0] + dx, start[1] + dy, start[2] + dz), speed=0.5)
        hand.rotate_hand(yaw=30, pitch=-20)
        xr.wait(1000)
        hand.rotate_hand(yaw=-30, pitch=20)
        hand.move_hand(start, speed=0.5)
        assert_held_throughout(xr, side, f_held, xr.frame, "while the hand kept pointing, moved about and turned")
        assert_not_held_since(xr, other, f0, f"only the {side} hand pointed")
        f_leave = xr.frame
        hand.set_pose(leave, frames=POSE)
        assert_ended_within(xr, side, f_leave, f"the hand went from pointing to {leave}")
        xr.wait(300)
        assert_not_held_since(xr, side, f_leave + SETTLE, f"the hand stayed {leave}")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_wherever_the_finger_points_it_is_a_point(app):
    xr = app
    side = xr.handedness("dominant")
    hand = xr.hand("dominant")
    f0 = xr.frame
    hand.set_pose("pointing", frames=POSE)
    assert_started_within(xr, side, f0, "a pointing hand")
    f1 = xr.frame
    seen = [index_direction(xr, side)]
    # Turned about: up, down, to either side, back towards the user, ahead, the wrist rolled either way.
    p = hand.position
    for d in ((0, 2, -0.4), (0, -2, -0.4), (-2, 0, 0), (2, 0, 0), (0.3, 0.3, 2), (0, 0, -2)):
        hand.point_to((p[0] + d[0], p[1] + d[1], p[2] + d[2]))
        xr.step(2)
        seen.append(index_direction(xr, side))
    for roll in (90, -180, 90):
        hand.rotate_hand(roll=roll)
        xr.step(2)
    ys = [d[1] for d in seen]
    assert max(ys) > 0.7 and min(ys) < -0.7, f"precondition: the finger pointed up and down (y {ys})"
    assert max(d[2] for d in seen) > 0.6, "precondition: the finger pointed back towards the user"
    xs = [d[0] for d in seen]
    assert max(xs) > 0.7 and min(xs) < -0.7, f"precondition: the finger pointed to either side (x {xs})"
    assert_held_throughout(xr, side, f1, xr.frame, "while the pointing hand turned to point every way")
    # A point made afresh while the hand points up, and while it points down.
    for pitch, where in ((60, "up"), (-120, "down")):
        f = xr.frame
        hand.set_pose("relaxed", frames=POSE)
        assert_ended_within(xr, side, f, "the hand relaxed")
        hand.rotate_hand(pitch=pitch)
        f = xr.frame
        hand.set_pose("pointing", frames=POSE)
        d = index_direction(xr, side)
        assert (d[1] > 0.5) if where == "up" else (d[1] < -0.5), f"precondition: the finger points {where} ({d})"
        assert_started_within(xr, side, f, f"a point made pointing {where}")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_the_thumb_does_not_matter(app):
    xr = app
    side = xr.handedness("dominant")
    hand = xr.hand("dominant")
    for label, rot in (("thumb stretched out", THUMB_OUT), ("thumb tucked in", POINTING)):
        for roll in (0, 90):
            if roll:
                hand.rotate_hand(roll=roll if side == "right" else -roll)
            f = xr.frame
            rotations(xr, "dominant", rot)
            assert_started_within(xr, side, f, f"a pointing hand, {label}, wrist rolled {roll} degrees")
            f1 = xr.frame
            xr.wait(500)
            assert_held_throughout(xr, side, f1, xr.frame, f"a pointing hand held, {label}")
            f = xr.frame
            hand.set_pose("relaxed", frames=POSE)
            assert_ended_within(xr, side, f, "the hand relaxed")
            if roll:
                hand.rotate_hand(roll=-roll if side == "right" else roll)
    assert_no_errors(xr)


NOT_POINTS = (
    ("an open hand", "neutral"),
    ("a relaxed hand", "relaxed"),
    ("a fist", "fist"),
    ("a victory sign (middle finger stretched too)", "victory"),
    ("a rock sign (little finger stretched too)", "rock"),
    ("the middle, ring and little fingers half curled", OTHERS_HALF),
    ("the index hooked half-way to a fist", index_bent(0.5)),
    ("the index hooked three quarters of the way to a fist", index_bent(0.75)),
)


@pytest.mark.fail_to_pass
def test_only_the_index_stretched_is_a_point(app):
    xr = app
    side = xr.handedness("dominant")
    hand = xr.hand("dominant")
    # A slightly bent index, and the other fingers clenched tight, are still points.
    for label, rot in (
        ("the index bent a quarter of the way to a fist", index_bent(0.25)),
        ("others clenched", OTHERS_CLENCHED),
    ):
        f = xr.frame
        rotations(xr, "dominant", rot)
        assert_started_within(xr, side, f, label)
        f1 = xr.frame
        xr.wait(300)
        assert_held_throughout(xr, side, f1, xr.frame, label)
        f = xr.frame
        hand.set_pose("neutral", frames=POSE)
        assert_ended_within(xr, side, f, "the hand opened")
    # Two orientations: as held, and turned to point up with the wrist rolled.
    for turn in ({}, {"pitch": 60, "roll": 60 if side == "right" else -60}):
        if turn:
            hand.rotate_hand(**turn)
        for label, what in NOT_POINTS:
            if isinstance(what, str):
                hand.set_pose(what, frames=POSE)
            else:
                rotations(xr, "dominant", what)
            f = xr.frame
            xr.wait(300)
            assert not any(h.covers(fr) for h in holds(xr, side) for fr in range(f, xr.frame + 1)), (
                f"expected no 'point' for {label} (turned {turn or 'not at all'}); observed holds "
                f"{describe(holds(xr, side))}"
            )
            # Back to a point between two of them: the pose that follows must end it.
            if label.startswith("a victory"):
                f = xr.frame
                hand.set_pose("pointing", frames=POSE)
                assert_started_within(xr, side, f, "pointing again")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_both_hands_point_each_on_its_own(app):
    xr = app
    me, other = xr.handedness("dominant"), xr.handedness("non_dominant")
    mine, theirs = xr.hand("dominant"), xr.hand("non_dominant")
    f0 = xr.frame
    theirs.set_pose("pointing", frames=0)
    mine.set_pose("pointing", frames=POSE)
    a = assert_started_within(xr, me, f0, "both hands pointed together")
    b = assert_started_within(xr, other, f0, "both hands pointed together")
    assert abs(a.start - b.start) <= 2, f"expected both points to start together; observed {a}, {b}"
    f1 = xr.frame
    xr.wait(500)
    # The other hand closes and points again while this one keeps pointing.
    f2 = xr.frame
    theirs.set_pose("fist", frames=POSE)
    assert_ended_within(xr, other, f2, f"the {other} hand closed into a fist")
    f3 = xr.frame
    theirs.set_pose("pointing", frames=POSE)
    assert_started_within(xr, other, f3, f"the {other} hand pointed again")
    xr.wait(300)
    assert_held_throughout(xr, me, f1, xr.frame, f"while the {other} hand stopped and pointed again")
    # This hand relaxes while the other keeps pointing.
    f4 = xr.frame
    mine.set_pose("relaxed", frames=POSE)
    assert_ended_within(xr, me, f4, f"the {me} hand relaxed")
    xr.wait(300)
    assert_held_throughout(xr, other, f3 + SETTLE, xr.frame, f"while the {me} hand relaxed")
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
def test_pinch_fist_open_palm_and_thumbs_up_are_still_recognised(app):
    xr = app
    for role in ("dominant", "non_dominant"):
        side = xr.handedness(role)
        hand = xr.hand(role)
        for pose_name, name in (
            ("fist", "fist"),
            ("pinching", "pinch"),
            ("neutral", "open-palm"),
            ("thumbs up", "thumbs-up"),
        ):
            f = xr.frame
            hand.set_pose(pose_name, frames=POSE)
            assert_started_within(xr, side, f, f"a {pose_name} hand", name=name, frames=POSE)
            f1 = xr.frame
            xr.wait(300)
            assert_held_throughout(xr, side, f1, xr.frame, f"a {pose_name} hand held", name=name)
            hand.set_pose("relaxed", frames=POSE)
            assert not held(xr, side, xr.frame, name), f"expected the {side} hand's {name!r} to end once it relaxed"
    assert_no_errors(xr)
