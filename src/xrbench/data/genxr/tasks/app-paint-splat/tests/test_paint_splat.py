"""Runtime tests of the paint splats, in two furnished rooms.

A pinch throws a splat (a disc mesh tagged 'paint-splat') along the pinching hand's ray; it lands
flat on the real surface the depth data shows there, in the hand's colour, and grows while the
pinch is held; each hand keeps its five newest; a fist clears that hand's splats.

Nothing the app reports is taken on trust but `state.hand`. A splat is read from its geometry as
drawn (its vertices in the world): its centre, its face's normal (the axis across which its
vertices do not spread), its thickness and its diameter. It is judged against the room itself: the
hand's ray (the controller's position and -Z, read by the harness just before the pinch) is cast
into the simulated room (the scene the simulator renders its depth image from, the hands left
out); the splat's centre must lie on that ray (2 cm) and on the real surface (its depth along the
viewing direction within 3 cm plus 2% of the depths the room shows at its place in the view and
1.5 depth pixels around it); its face must be perpendicular, within 15 degrees, to the normal of
the room's surface where the ray meets it. Every target is a flat surface at least 10 cm from any
edge, seen by the user with nothing (no hand either) in between, so the depth data and the room
agree there. Sizes are checked against virtual time: 4 cm + 4 cm per second held, at most 16 cm,
within 5 mm.

Targets: in the living room the table top (seen at a slant), the north wall, the TV's screen (from
the side); in the kitchen the island top, the upper cabinets' fronts, the fridge's door. Poses:
standing at the start, after walking and turning, crouched. Each test runs for a right- and a
left-dominant user.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from xrbench.xrtest.actors import POSE_SETTLE_FRAMES
from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.session import rotate
from xrbench.xrtest.strokes import read_strokes

pytestmark = [pytest.mark.xr_scenes("living_room", "kitchen"), pytest.mark.xr_timeout(480)]

TAG = "paint-splat"
COLOURS = {"left": (0x29, 0x79, 0xFF), "right": (0xFF, 0x40, 0x81)}
COLOUR_TOL = 8
D0, GROWTH, DMAX = 0.04, 0.04, 0.16  # metres; metres per second held; metres
SIZE_TOL = 0.005 + 0.0008  # "within 5 mm", and a frame's growth of slack for when the app measures time
NORMAL_TOL = 15.0  # degrees
THICK = 0.003 + 0.0005
MAX_PER_HAND = 5
FPS = 60.0
FAST = 100000.0  # deg/s: a turn done in one frame
HAND_SPEED = 6.0  # m/s: 10 cm a frame
FRESH_FRAMES = 5  # frames after a pose change: the depth data of the new view has arrived
QUERY_PX = 1.5  # neighbourhood of the splat's place in the view, in depth pixels
ON_RAY = 0.02
STILL = 0.002  # metres a splat's centre may move once landed
MIN_RANGE, MAX_RANGE = 0.3, 5.0

Vec = tuple[float, float, float]

# Where the user stands and looks, and flat targets on real surfaces (world points), per room.
PLANS = {
    "living_room": {
        "start": ((0.0, 1.5, 0.0), (0.0, 1.2, -3.0)),
        "slant": (0.3, 0.75, -1.3),  # the table top, seen at a slant
        "wall": (1.0, 1.8, -4.0),  # the north wall
        "wall_spots": [
            (x, y, -4.0) for x, y in ((-0.9, 2.0), (-0.3, 2.2), (0.4, 2.0), (1.0, 1.8), (1.5, 2.2), (0.6, 2.4))
        ],
        "turned": ((0.5, 1.5, 0.3), (2.87, 1.15, -1.5)),  # walked, facing the TV
        "side": (2.87, 1.2, -1.3),  # the TV's screen, seen from the side
        "crouched": ((1.0, 1.0, 0.5), (-2.6, 1.0, -1.0)),
        "far": ((-2.5, 1.5, 1.5), (2.5, 1.0, -3.5), (2.3, 1.2, -4.0)),  # a wall 7 m from the hand
    },
    "kitchen": {
        "start": ((0.0, 1.5, 0.0), (0.0, 1.2, -3.0)),
        "slant": (0.4, 0.94, -1.2),  # the island top
        "wall": (-1.0, 1.9, -3.145),  # the upper cabinets' front
        "wall_spots": [
            (x, y, -3.145) for x, y in ((-1.6, 1.9), (-1.2, 2.05), (-0.8, 1.9), (-0.4, 2.0), (0.0, 1.9), (-1.4, 1.8))
        ],
        "turned": ((0.5, 1.5, 0.3), (2.1, 1.1, -2.75)),  # walked, facing the fridge
        "side": (2.0, 1.3, -2.75),  # the fridge's door
        "crouched": ((-1.0, 1.0, 0.5), (0.0, 0.9, -3.0)),
        "far": ((-2.2, 1.5, 1.2), (2.2, 1.0, -3.2), (2.4, 1.2, -3.5)),  # the fridge, 5.3 m from the hand
    },
}


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def depth_tol(d: float) -> float:
    return 0.03 + 0.02 * d


def rgb(hex_colour: str | None) -> tuple[int, int, int] | None:
    if not hex_colour or not hex_colour.startswith("#") or len(hex_colour) != 7:
        return None
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def plan(xr) -> dict:
    return PLANS["kitchen" if "fridge" in xr.locations() else "living_room"]


def diameter_after(seconds: float) -> float:
    return min(DMAX, D0 + GROWTH * max(0.0, seconds))


# --- acting -------------------------------------------------------------------------------------


def head_local(xr, offset: Vec) -> Vec:
    """The world point at `offset` in the head's frame (x right, y up, -z ahead)."""
    pose = xr.camera_pose()
    off = rotate(pose.quaternion, offset)
    return tuple(p + o for p, o in zip(pose.position, off, strict=True))  # type: ignore[return-value]


def side(xr, role: str) -> float:
    return -1.0 if xr.hand(role).handedness == "left" else 1.0


def park(xr, role: str) -> None:
    """Lower a hand out of the view (it stays tracked), so it hides nothing from the depth data."""
    xr.hand(role).move_hand(head_local(xr, (0.25 * side(xr, role), -0.6, -0.05)), speed=HAND_SPEED)


def raise_hand(xr, role: str) -> None:
    xr.hand(role).move_hand(head_local(xr, (0.25 * side(xr, role), -0.15, -0.3)), speed=HAND_SPEED)


def stand(xr, where) -> None:
    position, look = where
    xr.head.teleport_to(position)
    xr.head.look_at(look, speed=FAST)


def aim(xr, role: str, target) -> tuple[Vec, Vec]:
    """Raise the hand, point its ray at `target`, hold still until fresh depth data has arrived;
    the ray (origin, direction) as the harness reads it."""
    hand = xr.hand(role)
    raise_hand(xr, role)
    hand.point_to(target, speed=FAST)
    xr.step(FRESH_FRAMES)
    state = hand.state
    assert state.position is not None and state.ray_direction is not None, f"the {role} hand has no ray"
    return state.position, state.ray_direction


def ready(xr) -> None:
    """Depth data available, both hands tracked and out of the way."""
    for _ in range(60):
        if xr.depth().available:
            break
        xr.step(1)
    assert xr.depth().enabled, "expected XR Blocks' depth sensing to be on (options.enableDepth() before xb.init)"
    assert xr.depth().available, "expected depth data within 60 frames of the start; none arrived"
    park(xr, "dominant")
    park(xr, "non_dominant")


# --- reading ------------------------------------------------------------------------------------


class Splat:
    """One shown splat, measured from its vertices in the world."""

    def __init__(self, uuid: str, state, colour: str | None, points: list) -> None:
        self.uuid, self.state, self.colour = uuid, state, colour
        pts = np.unique(np.round(np.asarray(points, dtype=float), 5), axis=0)
        self.centre: Vec = tuple(float(c) for c in pts.mean(axis=0))  # type: ignore[assignment]
        rel = pts - pts.mean(axis=0)
        _, vecs = np.linalg.eigh(rel.T @ rel)
        n = vecs[:, 0]
        self.normal: Vec = tuple(float(c) for c in n / np.linalg.norm(n))  # type: ignore[assignment]
        across = rel @ n
        self.thickness = float(across.max() - across.min())
        flat = rel - np.outer(across, n)
        radii = np.linalg.norm(flat, axis=1)
        self.diameter = 2.0 * float(radii.max())
        # Roundness: the disc reaches (nearly) as far in every direction of its plane.
        e1 = vecs[:, 2]
        e2 = np.cross(n, e1)
        reach = [
            float((flat @ (math.cos(a) * e1 + math.sin(a) * e2)).max()) for a in np.linspace(0, math.pi * 2, 24, False)
        ]
        self.roundness = min(reach) / max(float(radii.max()), 1e-9)
        self.count = len(pts)

    @property
    def hand(self):
        return self.state.get("hand") if isinstance(self.state, dict) else None

    def __repr__(self) -> str:
        return f"<splat {self.hand} at {fmt(self.centre)}, {100 * self.diameter:.1f} cm>"


def splats(xr) -> list[Splat]:
    """Every shown splat (a removed one may be taken out of the scene or hidden)."""
    nodes = {n.uuid: n for n in xr.tagged(TAG) if n.root == "scene" and n.visible}
    out = []
    for s in read_strokes(xr, TAG):
        node = nodes.get(s["uuid"])
        if node is None or len(s["points"]) < 3:
            continue
        out.append(Splat(s["uuid"], s["state"], node.color, s["points"]))
    return out


def of_hand(found: list[Splat], hand: str) -> list[Splat]:
    return [s for s in found if s.hand == hand]


def angle(a: Vec, b: Vec) -> float:
    """Angle in degrees between two axes (a disc has two faces: the sign does not count)."""
    d = abs(sum(x * y for x, y in zip(a, b, strict=True))) / (math.hypot(*a) * math.hypot(*b))
    return math.degrees(math.acos(min(1.0, d)))


def new_splat(before: list[Splat], after: list[Splat], when: str) -> Splat:
    """The one splat shown now that was not shown before."""
    old = {s.uuid for s in before}
    fresh = [s for s in after if s.uuid not in old]
    assert len(fresh) == 1, (
        f"{when}: expected exactly one new splat in the frame of the pinch; observed {len(fresh)} new "
        f"(splats shown: {after})"
    )
    return fresh[0]


def layout(xr) -> dict[str, Splat]:
    return {s.uuid: s for s in splats(xr)}


def assert_kept(before: dict[str, Splat], after: dict[str, Splat], when: str, *, growing: tuple = ()) -> None:
    """The same splats shown, each where it was, with the same orientation and (unless growing)
    the same size."""
    gone = [s for u, s in before.items() if u not in after]
    added = [s for u, s in after.items() if u not in before]
    assert not gone and not added, (
        f"{when}: expected the same {len(before)} splats shown as before; {len(gone)} disappeared {gone} and "
        f"{len(added)} appeared {added}"
    )
    for u, b in before.items():
        a = after[u]
        assert math.dist(a.centre, b.centre) <= STILL, (
            f"{when}: expected the {b.hand} splat to stay at {fmt(b.centre)}; observed it at {fmt(a.centre)}"
        )
        assert angle(a.normal, b.normal) <= 2.0, (
            f"{when}: expected the {b.hand} splat at {fmt(b.centre)} to keep its orientation; it turned "
            f"{angle(a.normal, b.normal):.1f} degrees"
        )
        if u not in growing:
            assert abs(a.diameter - b.diameter) <= 0.002, (
                f"{when}: expected the {b.hand} splat at {fmt(b.centre)} to keep its size, "
                f"{100 * b.diameter:.1f} cm; observed {100 * a.diameter:.1f} cm"
            )


def check_size(s: Splat, seconds: float, when: str) -> None:
    want = diameter_after(seconds)
    assert abs(s.diameter - want) <= SIZE_TOL, (
        f"{when}: expected the {s.hand} splat {100 * want:.1f} cm across ({seconds:.2f} s held: 4 cm + 4 cm per "
        f"second, at most 16 cm, within 5 mm); observed {100 * s.diameter:.1f} cm"
    )


# --- checking -----------------------------------------------------------------------------------


def check_splat(xr, when: str, s: Splat, ray: tuple[Vec, Vec], hand: str) -> Splat:
    """A round, flat disc in the hand's colour, on the hand's ray, on the real surface, lying flat
    on it, 4 cm across."""
    origin, direction = ray
    assert s.hand == hand, f"{when}: expected the splat's state.hand {hand!r}; observed {s.state}"
    colour = rgb(s.colour)
    want = COLOURS[hand]
    assert colour is not None and max(abs(c - w) for c, w in zip(colour, want, strict=True)) <= COLOUR_TOL, (
        f"{when}: expected the {hand} hand's splat coloured #{''.join(f'{c:02x}' for c in want)}; observed {s.colour}"
    )
    assert s.thickness <= THICK, (
        f"{when}: expected a flat disc (at most 3 mm thick); observed its vertices {1000 * s.thickness:.1f} mm "
        f"deep across its face"
    )
    assert s.roundness >= 0.95, (
        f"{when}: expected a round disc; its outline reaches only {100 * s.roundness:.0f}% as far in some "
        f"directions as in others"
    )
    truth = xr.room_ray(origin, direction, view_point=s.centre, pixels=QUERY_PX)
    hit = truth.hit
    assert hit is not None and MIN_RANGE < hit.distance < MAX_RANGE, f"test setup: the ray meets no surface {truth}"
    p = s.centre
    rel = [a - b for a, b in zip(p, origin, strict=True)]
    along = sum(r * d for r, d in zip(rel, direction, strict=True))
    off = math.sqrt(max(0.0, sum(r * r for r in rel) - along * along))
    where = (
        f"the {hand} hand's ray from {fmt(origin)} along {fmt(direction)} meets the room ({hit.name}) "
        f"at {fmt(hit.point)}, {hit.distance:.2f} m from the hand"
    )
    assert off <= ON_RAY, (
        f"{when}: expected the splat's centre on the ray: {where}; observed it at {fmt(p)}, {off:.3f} m off the ray"
    )
    q = truth.view
    lo_d, hi_d = q.room_min - depth_tol(q.room_min), q.room_max + depth_tol(q.room_max)
    assert lo_d <= q.depth <= hi_d, (
        f"{when}: expected the splat on the real surface where {where}; observed its centre at {fmt(p)}, "
        f"{along:.2f} m along the ray, {q.depth:.2f} m ahead of the eyes where the room is "
        f"{q.room_min:.2f}-{q.room_max:.2f} m ahead"
    )
    tilt = angle(s.normal, hit.normal)
    assert tilt <= NORMAL_TOL, (
        f"{when}: expected the splat to lie flat on the surface where {where}: its face perpendicular to the "
        f"surface's normal {fmt(hit.normal)} within {NORMAL_TOL:.0f} degrees; observed the disc's normal "
        f"{fmt(s.normal)}, {tilt:.1f} degrees off"
    )
    check_size(s, 0.0, when)
    return s


def pinch(xr, role: str) -> tuple[list[Splat], list[Splat]]:
    """Start a pinch and run exactly that frame; the splats before and after."""
    before = splats(xr)
    xr.hand(role).start_select(1)
    return before, splats(xr)


def throw(xr, role: str, target, when: str) -> Splat:
    """Aim, pinch (the splat checked in the frame of the pinch), release at once; the splat."""
    hand = xr.hand(role).handedness
    ray = aim(xr, role, target)
    before, after = pinch(xr, role)
    s = check_splat(xr, when, new_splat(before, after, when), ray, hand)
    xr.hand(role).end_select(2)
    return s


def find(xr, uuid: str, when: str) -> Splat:
    found = [s for s in splats(xr) if s.uuid == uuid]
    assert found, f"{when}: expected the splat to be still shown; it disappeared"
    return found[0]


def hold(xr, frames: int, kept: dict[str, Splat], growing: dict[str, int], when: str, *, every: int = 5) -> None:
    """Step `frames` frames; every `every` frames the kept splats are where they were, and each
    growing one (uuid -> the frame of its pinch) has the size of its pinch's time held."""
    for k in range(1, frames + 1):
        xr.step(1)
        if k % every and k != frames:
            continue
        now = layout(xr)
        assert_kept(kept, now, f"{when}, {k} frames on", growing=tuple(growing))
        for uuid, start in growing.items():
            check_size(now[uuid], (xr.frame - start) / FPS, f"{when}, {k} frames on")


def close_fist(xr, role: str, when: str, cleared: dict[str, Splat], kept: dict[str, Splat], growing: dict) -> None:
    """Close `role`'s hand into a fist frame by frame and keep it closed: every splat of that hand
    must go, all in the same frame, before the hand has finished closing, and stay gone; the others
    stay as they are (a held one keeps growing)."""
    xr.hand(role).set_pose("fist", frames=0)
    gone = None
    for k in range(1, POSE_SETTLE_FRAMES + 13):
        xr.step(1)
        now = layout(xr)
        left = [s for u, s in cleared.items() if u in now]
        if gone is None:
            assert len(left) in (0, len(cleared)), (
                f"{when}: expected every splat of the {role} hand cleared at once (in the same frame) by its "
                f"fist; observed {len(left)} of {len(cleared)} still shown {k} frames after the hand began to close"
            )
            if not left:
                gone = k
        else:
            assert not left, f"{when}: expected the cleared splats to stay cleared; {left} shown again"
        assert_kept(
            kept, {u: s for u, s in now.items() if u not in cleared}, f"{when} ({k} frames on)", growing=tuple(growing)
        )
        for uuid, start in growing.items():
            check_size(now[uuid], (xr.frame - start) / FPS, f"{when} ({k} frames on)")
    assert gone is not None and gone <= POSE_SETTLE_FRAMES, (
        f"{when}: expected the {role} hand's fist to clear its {len(cleared)} splats as soon as it is made, while "
        f"the hand is closed; observed them still shown {POSE_SETTLE_FRAMES} frames after the hand began to close"
    )


# --- tests ---------------------------------------------------------------------------------------


def test_splats_land_flat_and_grow_while_held(xr):
    """Splat A (dominant hand) on a surface seen at a slant, held and growing, the hand moved away
    while still pinching; splat B (the other hand, while the first still pinches) on an upright
    surface; both grow with their own pinch; A stops growing when released; B is held past 3 s and
    stops at 16 cm; the user walks, turns and crouches and every splat stays; splat C from the
    other spot, on a surface seen from the side, held 1.5 s."""
    p = plan(xr)
    dom, other = xr.hand("dominant").handedness, xr.hand("non_dominant").handedness
    cylinders = [d for d in xr.drawn(("mesh",)) if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed {cylinders}"
    ready(xr)
    stand(xr, p["start"])
    assert not splats(xr), f"expected no splat before the first pinch; observed {splats(xr)}"

    ray = aim(xr, "dominant", p["slant"])
    assert not splats(xr), "expected no splat while the hand only points"
    before, after = pinch(xr, "dominant")
    start_a = xr.frame
    a = check_splat(xr, "splat A", new_splat(before, after, "splat A"), ray, dom)
    assert len(after) == 1, f"splat A: expected one splat; observed {after}"
    hold(xr, 30, {a.uuid: a}, {a.uuid: start_a}, "while the first pinch is held")

    # Still pinching, the hand turns to the wall, then moves away: A stays, nothing more is thrown.
    xr.hand("dominant").point_to(p["wall"], speed=FAST)
    hold(xr, 6, {a.uuid: a}, {a.uuid: start_a}, "while the pinching hand turns to another surface")
    park(xr, "dominant")
    hold(xr, 6, {a.uuid: a}, {a.uuid: start_a}, "while the pinching hand moves away")
    ray = aim(xr, "non_dominant", p["wall"])
    before, after = pinch(xr, "non_dominant")
    start_b = xr.frame
    b = check_splat(xr, "splat B (while the other hand still pinches)", new_splat(before, after, "splat B"), ray, other)
    assert len(after) == 2, f"splat B: expected two splats; observed {after}"
    check_size(find(xr, a.uuid, "splat B"), (xr.frame - start_a) / FPS, "splat A in the frame of splat B")
    hold(xr, 30, {a.uuid: a, b.uuid: b}, {a.uuid: start_a, b.uuid: start_b}, "while both pinches are held")

    xr.hand("dominant").end_select(1)
    released = (xr.frame - start_a) / FPS
    a = find(xr, a.uuid, "when the first pinch opens")
    check_size(a, released, "splat A in the frame its pinch opens")
    hold(xr, 30, {a.uuid: a, b.uuid: b}, {b.uuid: start_b}, "after the first pinch opened (A stops growing)")
    check_size(find(xr, a.uuid, "after A's release"), released, "splat A after its pinch opened")
    hold(
        xr,
        240 - (xr.frame - start_b),
        {a.uuid: a, b.uuid: b},
        {b.uuid: start_b},
        "while the second pinch is held",
        every=15,
    )
    b = find(xr, b.uuid, "after 4 s")
    check_size(b, 4.0, "splat B after its pinch was held 4 s (at most 16 cm)")
    xr.hand("non_dominant").end_select(12)
    kept = layout(xr)
    assert len(kept) == 2, f"after both pinches opened: expected two splats; observed {list(kept.values())}"
    assert_kept({a.uuid: a, b.uuid: b}, kept, "after both pinches opened")

    park(xr, "non_dominant")
    for label, where in (("after walking and turning", p["turned"]), ("crouched", p["crouched"])):
        stand(xr, where)
        xr.step(FRESH_FRAMES)
        assert_kept(kept, layout(xr), label)
    xr.hand("dominant").move_hand(head_local(xr, (0.0, 0.0, -0.4)), speed=HAND_SPEED)
    xr.hand("non_dominant").move_hand(head_local(xr, (0.1, -0.1, -0.4)), speed=HAND_SPEED)
    xr.step(FRESH_FRAMES)
    assert_kept(kept, layout(xr), "after the hands moved in front of the eyes")
    park(xr, "dominant")
    park(xr, "non_dominant")

    stand(xr, p["turned"])
    ray = aim(xr, "non_dominant", p["side"])
    before, after = pinch(xr, "non_dominant")
    start_c = xr.frame
    c = check_splat(xr, "splat C (after walking)", new_splat(before, after, "splat C"), ray, other)
    hold(xr, 90, {**kept, c.uuid: c}, {c.uuid: start_c}, "while the third pinch is held", every=10)
    xr.hand("non_dominant").end_select(1)
    released = (xr.frame - start_c) / FPS
    xr.step(30)
    final = layout(xr)
    assert len(final) == 3, f"after splat C: expected three splats; observed {list(final.values())}"
    check_size(final[c.uuid], released, "splat C after its pinch opened")
    assert_no_errors(xr)


def test_each_hand_keeps_its_five_newest_and_a_fist_clears_only_its_own(xr):
    """The other hand throws a splat, the dominant hand five, the other hand one more; the
    dominant's sixth removes its own oldest in its frame (not the oldest of all), nothing else.
    Other poses of the other hand clear nothing. While the other hand holds a growing splat, the
    dominant hand's fist clears its five at once, the others stay (the held one still growing); the
    dominant hand throws again; the other hand's fist clears its three and leaves the dominant's
    two."""
    p = plan(xr)
    dom, other = xr.hand("dominant").handedness, xr.hand("non_dominant").handedness
    ready(xr)
    stand(xr, p["start"])
    # The other hand's first splat is the oldest of all: the dominant hand's sixth must remove its own.
    theirs = [throw(xr, "non_dominant", p["slant"], f"the {other} hand's splat 1")]
    park(xr, "non_dominant")
    mine = [
        throw(xr, "dominant", spot, f"the {dom} hand's splat {k + 1}") for k, spot in enumerate(p["wall_spots"][:5])
    ]
    park(xr, "dominant")
    theirs.append(throw(xr, "non_dominant", p["wall"], f"the {other} hand's splat 2"))
    park(xr, "non_dominant")
    kept = layout(xr)
    assert len(kept) == 7, f"expected seven splats (five {dom}, two {other}); observed {list(kept.values())}"

    ray = aim(xr, "dominant", p["wall_spots"][5])
    before, after = pinch(xr, "dominant")
    sixth = check_splat(xr, f"the {dom} hand's sixth splat", new_splat(before, after, "sixth"), ray, dom)
    now = {s.uuid: s for s in after}
    assert mine[0].uuid not in now, (
        f"in the frame of the {dom} hand's sixth splat: expected its oldest splat, at {fmt(mine[0].centre)}, "
        f"removed; it is still shown (splats shown: {after})"
    )
    rest = {u: s for u, s in kept.items() if u != mine[0].uuid}
    assert_kept(
        rest,
        {u: s for u, s in now.items() if u != sixth.uuid},
        f"in the frame of the {dom} hand's sixth splat (only its oldest removed)",
    )
    assert len(of_hand(after, dom)) == MAX_PER_HAND, f"expected five {dom} splats; observed {of_hand(after, dom)}"
    xr.hand("dominant").end_select(2)
    park(xr, "dominant")
    kept = layout(xr)

    for pose in ("pointing", "thumbs_up", "neutral", "relaxed"):
        xr.hand("non_dominant").set_pose(pose)
        assert_kept(kept, layout(xr), f"after the {other} hand made a {pose} pose (only a fist clears)")

    ray = aim(xr, "non_dominant", p["slant"])
    before, after = pinch(xr, "non_dominant")
    start = xr.frame
    held = check_splat(xr, f"the {other} hand's splat 3", new_splat(before, after, "held"), ray, other)
    kept = {s.uuid: s for s in after}
    cleared = {u: s for u, s in kept.items() if s.hand == dom}
    assert len(cleared) == MAX_PER_HAND
    close_fist(
        xr,
        "dominant",
        f"the {dom} hand's fist while the {other} hand holds a pinch",
        cleared,
        {u: s for u, s in kept.items() if u not in cleared},
        {held.uuid: start},
    )
    xr.hand("dominant").set_pose("relaxed")
    xr.hand("non_dominant").end_select(2)
    kept = layout(xr)
    assert not of_hand(list(kept.values()), dom), f"after the {dom} hand's fist opened: expected none of its splats"
    assert len(kept) == 3, f"expected the {other} hand's three splats to stay; observed {list(kept.values())}"
    park(xr, "non_dominant")

    again = [throw(xr, "dominant", spot, f"the {dom} hand's splat after its fist") for spot in p["wall_spots"][1:3]]
    park(xr, "dominant")
    kept = layout(xr)
    assert len(of_hand(list(kept.values()), dom)) == 2, f"expected two new {dom} splats; observed {list(kept.values())}"
    cleared = {u: s for u, s in kept.items() if s.hand == other}
    close_fist(xr, "non_dominant", f"the {other} hand's fist", cleared, {s.uuid: s for s in again}, {})
    assert_no_errors(xr)


def test_a_pinch_that_meets_no_surface_throws_nothing(xr):
    """No splat from a pinch before depth data arrives, also once it arrives while held. The
    dominant hand throws five splats; then pinches at the floor below the view (held while the hand
    turns to the wall), with the hand held out pointing away from the view, and at a surface farther
    than 5 m: nothing appears and none of the five is removed. The other hand's splat lands."""
    p = plan(xr)
    dom = xr.hand("dominant").handedness
    cylinders = [d for d in xr.drawn(("mesh",)) if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed {cylinders}"
    xr.step(1)
    assert not xr.depth().available, "test setup: expected no depth data in the first frame"
    xr.hand("dominant").start_select(1)
    assert not splats(xr), "expected no splat from a pinch before any depth data has arrived"
    for _ in range(20):
        xr.step(1)
    assert xr.depth().available and not splats(xr), (
        f"expected no splat from a pinch made before depth data arrived (held while it arrived); observed {splats(xr)}"
    )
    xr.hand("dominant").end_select(12)
    assert not splats(xr), "expected no splat when the fingers open"
    ready(xr)
    stand(xr, p["start"])
    for k, spot in enumerate(p["wall_spots"][:4]):
        throw(xr, "dominant", spot, f"splat {k + 1}")
    throw(xr, "dominant", p["slant"], "splat 5")
    kept = layout(xr)
    assert len(kept) == MAX_PER_HAND

    def miss(when: str, role: str, then=None) -> None:
        xr.hand(role).start_select(1)
        assert_kept(kept, layout(xr), f"in the frame of a pinch {when}")
        if then is not None:
            then()
            assert_kept(kept, layout(xr), f"while a pinch {when} is held and the hand turns to a surface")
        xr.hand(role).end_select(12)
        assert_kept(kept, layout(xr), f"after a pinch {when}")

    # The floor by the user's feet, below the view (no depth data there); held while the hand turns
    # to the wall.
    raise_hand(xr, "dominant")
    xr.hand("dominant").point_to(head_local(xr, (0.2 * side(xr, "dominant"), -1.4, -0.6)), speed=FAST)
    xr.step(FRESH_FRAMES)

    def turn_to_wall() -> None:
        xr.hand("dominant").point_to(p["wall"], speed=FAST)
        xr.step(FRESH_FRAMES + 10)

    miss("at the floor below the view", "dominant", turn_to_wall)

    hand = xr.hand("dominant")
    hand.move_hand(head_local(xr, (0.7 * side(xr, "dominant"), -0.1, -0.2)), speed=HAND_SPEED)
    hand.point_to(head_local(xr, (3.0 * side(xr, "dominant"), 0.0, -0.4)), speed=FAST)
    xr.step(FRESH_FRAMES)
    miss("with the hand pointing out of the view", "dominant")
    park(xr, "dominant")

    position, look, target = p["far"]
    stand(xr, (position, look))
    ray = aim(xr, "dominant", target)
    truth = xr.room_ray(ray[0], ray[1])
    assert truth.hit and truth.hit.distance > MAX_RANGE + 0.2, f"test setup: {truth}"
    miss(f"at a surface {truth.hit.distance:.1f} m from the hand", "dominant")
    park(xr, "dominant")
    assert len(of_hand(splats(xr), dom)) == MAX_PER_HAND

    stand(xr, p["start"])
    other = xr.hand("non_dominant").handedness
    s = throw(xr, "non_dominant", p["wall_spots"][4], f"the {other} hand's splat after the misses")
    final = layout(xr)
    assert_kept(kept, {u: v for u, v in final.items() if u != s.uuid}, "after the other hand's splat")
    assert_no_errors(xr)
