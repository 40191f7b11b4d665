"""Runtime tests of the depth spray, in two furnished rooms.

While a hand pinches, every frame its ray is cast into the depth data and a dot (a sphere mesh
tagged 'spray-dot') is sprayed where it meets a real surface, once that point is 3 cm or more from
the pinch's last dot.

Nothing the app reports is taken on trust but `state.hand`. A dot is read from its mesh as drawn
(its world bounding box: centre and size) and judged against the room itself: the hand's ray (the
controller's position and -Z, read by the harness after the frame the dot appeared in, or the frame
before) is cast into the simulated room (the scene the simulator renders its depth image from, the
hands left out); the dot's centre must lie on that ray (2 cm) and on the real surface (its depth
along the viewing direction within 3 cm plus 2% of the depths the room shows at its place in the
view and 1.5 depth pixels around it). Spacing is read from the dots themselves: a pinch's new dot
is at least 3 cm (less 2 mm) from that pinch's dot before it, and a frame whose ray meets the room
5.5 cm or more from the pinch's last dot must spray (2.5 cm of slack for the app's own estimate of
the surface). The simulated depth image shows the user's hands (the instruction says so); every
target is a flat surface seen with no hand between it and the eyes.

Sweeps turn the hand's ray by one frame's step (about 12 mm on the surface) at a time: in the
living room along the north wall and the table top, in the kitchen along the upper cabinets' fronts
and the island top. Poses: standing at the start, after walking and turning, crouched. Each test
runs for a right- and a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.session import rotate

pytestmark = [pytest.mark.xr_scenes("living_room", "kitchen"), pytest.mark.xr_timeout(480)]

TAG = "spray-dot"
COLOURS = {"left": (0x00, 0xE5, 0xFF), "right": (0xFF, 0xD6, 0x00)}
COLOUR_TOL = 8
DIAMETER, SIZE_TOL = 0.02, 0.002  # metres: 2 cm across, give or take 10%
SPACING = 0.03
SPACING_SLACK = 0.002  # a new dot may be this much closer than 3 cm to the one before
MUST_SPRAY = SPACING + 0.025  # a frame whose ray meets the room this far from the last dot must spray
FAST = 100000.0  # deg/s: a turn done in one frame
HAND_SPEED = 6.0  # m/s: 10 cm a frame
FRESH_FRAMES = 5  # frames after a pose change: the depth data of the new view has arrived
QUERY_PX = 1.5  # neighbourhood of a dot's place in the view, in depth pixels
ON_RAY = 0.02
STILL = 0.002  # metres a dot may move once sprayed
MIN_RANGE, MAX_RANGE = 0.3, 5.0
STEP = 0.012  # metres the target moves along a sweep per frame
CLEAR_DEG = 2.0  # degrees: no hand joint this close to the line of sight to the ray's path (test setup)

Vec = tuple[float, float, float]

# Where the user stands and looks, and straight sweeps (start, end) on flat real surfaces.
PLANS = {
    "living_room": {
        "start": ((0.0, 1.5, 0.0), (0.0, 1.2, -3.0)),
        "wall": ((-0.45, 2.1, -4.0), (0.45, 2.1, -4.0)),  # the north wall
        "wall_low": ((-0.6, 1.9, -4.0), (0.6, 1.9, -4.0)),
        "table": (0.75, -1.3),  # the table top (height, z), seen at a slant
        "turned": ((0.5, 1.5, 0.3), (2.87, 1.15, -1.5)),  # walked, facing the TV
        "crouched": ((1.0, 1.0, 0.5), (-2.6, 1.0, -1.0)),
        "far": ((-2.5, 1.5, 1.5), (2.5, 1.0, -3.5), (2.3, 1.2, -4.0)),  # a wall 7 m from the hand
    },
    "kitchen": {
        "start": ((0.0, 1.5, 0.0), (0.0, 1.2, -3.0)),
        "wall": ((-1.45, 1.95, -3.145), (-0.55, 1.95, -3.145)),  # the upper cabinets' fronts
        "wall_low": ((-1.6, 1.85, -3.145), (-0.4, 1.85, -3.145)),
        "table": (0.94, -1.2),  # the island top (height, z)
        "turned": ((0.5, 1.5, 0.3), (2.1, 1.1, -2.75)),  # walked, facing the fridge
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


def table_sweep(xr, role: str) -> tuple[Vec, Vec]:
    """A sweep across the table top in front of the user, towards the other hand's side (the hand,
    held out at its own side, points across the body)."""
    y, z = plan(xr)["table"]
    s = side(xr, role)
    return (0.1 * s, y, z), (-0.4 * s, y, z)


def lerp(a: Vec, b: Vec, t: float) -> Vec:
    return tuple(x + (y - x) * t for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def path(a: Vec, b: Vec) -> list[Vec]:
    """Points from a to b, STEP apart (a excluded, b included)."""
    n = max(1, math.ceil(math.dist(a, b) / STEP))
    return [lerp(a, b, k / n) for k in range(1, n + 1)]


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
    """Raise the hand out to its side, near eye level, so the ray's path crosses the line of sight
    instead of running along it (the hand hides none of it from the eyes)."""
    xr.hand(role).move_hand(head_local(xr, (0.4 * side(xr, role), -0.05, -0.2)), speed=HAND_SPEED)


def stand(xr, where) -> None:
    position, look = where
    xr.head.teleport_to(position)
    xr.head.look_at(look, speed=FAST)


def aim(xr, role: str, target) -> None:
    """Raise the hand, point its ray at `target`, hold still until fresh depth data has arrived."""
    raise_hand(xr, role)
    xr.hand(role).point_to(target, speed=FAST)
    xr.step(FRESH_FRAMES)


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


def no_cylinder(xr) -> None:
    cylinders = [d for d in xr.drawn(("mesh",)) if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed {cylinders}"


# --- reading ------------------------------------------------------------------------------------


class Dot:
    """One shown dot, measured from its mesh's world bounding box."""

    def __init__(self, node) -> None:
        self.uuid, self.state, self.colour, self.is_mesh = node.uuid, node.state, node.color, node.is_mesh
        lo, hi = node.bbox if node.bbox else (node.position, node.position)
        self.centre: Vec = tuple((a + b) / 2 for a, b in zip(lo, hi, strict=True))  # type: ignore[assignment]
        self.extent: Vec = tuple(b - a for a, b in zip(lo, hi, strict=True))  # type: ignore[assignment]

    @property
    def hand(self):
        return self.state.get("hand") if isinstance(self.state, dict) else None

    def __repr__(self) -> str:
        return f"<{self.hand} dot at {fmt(self.centre)}>"


def dots(xr) -> dict[str, Dot]:
    """Every shown dot, by uuid."""
    return {n.uuid: Dot(n) for n in xr.tagged(TAG) if n.root == "scene" and n.visible}


def of_hand(found: dict[str, Dot], hand: str) -> list[Dot]:
    return [d for d in found.values() if d.hand == hand]


def assert_kept(before: dict[str, Dot], after: dict[str, Dot], when: str) -> None:
    """The same dots shown, each where it was."""
    gone = [d for u, d in before.items() if u not in after]
    added = [d for u, d in after.items() if u not in before]
    assert not gone and not added, (
        f"{when}: expected the same {len(before)} dots shown as before; {len(gone)} disappeared {gone[:5]} and "
        f"{len(added)} appeared {added[:5]}"
    )
    for u, b in before.items():
        a = after[u]
        assert math.dist(a.centre, b.centre) <= STILL, (
            f"{when}: expected the {b.hand} dot sprayed at {fmt(b.centre)} to stay there; observed it at "
            f"{fmt(a.centre)}"
        )


Ray = tuple[Vec, Vec]


def ray_of(xr, role: str) -> Ray:
    state = xr.hand(role).state
    assert state.position is not None and state.ray_direction is not None, f"the {role} hand has no ray"
    return state.position, state.ray_direction


def off_ray(p: Vec, ray: Ray) -> float:
    origin, direction = ray
    rel = [a - b for a, b in zip(p, origin, strict=True)]
    along = sum(r * d for r, d in zip(rel, direction, strict=True))
    return math.sqrt(max(0.0, sum(r * r for r in rel) - along * along))


def joints_in_view(xr) -> list[Vec]:
    return [j.position for h in ("left", "right") for j in xr.hand_joints(h).values()]


def assert_clear(xr, ray: Ray, distance: float, joints: list[Vec], when: str) -> None:
    """Test setup: no hand joint lies between the eyes and the ray's path from 0.3 m to `distance`
    (within CLEAR_DEG of the line of sight), so the depth data shows the room along it."""
    eye = xr.camera_pose().position
    origin, direction = ray
    t = MIN_RANGE
    while t <= distance:
        p = tuple(o + t * d for o, d in zip(origin, direction, strict=True))
        los = tuple(a - b for a, b in zip(p, eye, strict=True))
        far = math.hypot(*los)
        for j in joints:
            to = tuple(a - b for a, b in zip(j, eye, strict=True))
            near = math.hypot(*to)
            if near >= far:
                continue
            cos = sum(a * b for a, b in zip(los, to, strict=True)) / (far * near)
            assert math.degrees(math.acos(min(1.0, cos))) > CLEAR_DEG, (
                f"test setup ({when}): a hand joint at {fmt(j)} hides the ray's path at {fmt(p)} from the eyes"
            )
        t += 0.02


def check_dot(xr, when: str, d: Dot, rays: list[Ray], hand: str) -> None:
    """A 2 cm sphere mesh in the hand's colour, on the hand's ray of its frame, on the real surface."""
    assert d.hand == hand, f"{when}: expected the dot's state.hand {hand!r}; observed {d.state}"
    colour = rgb(d.colour)
    want = COLOURS[hand]
    assert colour is not None and max(abs(c - w) for c, w in zip(colour, want, strict=True)) <= COLOUR_TOL, (
        f"{when}: expected the {hand} hand's dot coloured #{''.join(f'{c:02x}' for c in want)}; observed {d.colour}"
    )
    assert d.is_mesh and all(abs(e - DIAMETER) <= SIZE_TOL for e in d.extent), (
        f"{when}: expected the dot a sphere mesh 2 cm across (within 10%); observed a "
        f"{'mesh' if d.is_mesh else 'non-mesh'} {' x '.join(f'{100 * e:.2f}' for e in d.extent)} cm"
    )
    ray = min(rays, key=lambda r: off_ray(d.centre, r))
    origin, direction = ray
    truth = xr.room_ray(origin, direction, view_point=d.centre, pixels=QUERY_PX)
    hit = truth.hit
    assert hit is not None and MIN_RANGE < hit.distance < MAX_RANGE, f"test setup: the ray meets no surface {truth}"
    assert_clear(xr, ray, hit.distance, joints_in_view(xr), when)
    where = (
        f"the {hand} hand's ray from {fmt(origin)} along {fmt(direction)} meets the room ({hit.name}) "
        f"at {fmt(hit.point)}, {hit.distance:.2f} m from the hand"
    )
    off = off_ray(d.centre, ray)
    assert off <= ON_RAY, (
        f"{when}: expected the dot's centre on the ray of its frame: {where}; observed it at {fmt(d.centre)}, "
        f"{off:.3f} m off the ray"
    )
    q = truth.view
    lo_d, hi_d = q.room_min - depth_tol(q.room_min), q.room_max + depth_tol(q.room_max)
    assert lo_d <= q.depth <= hi_d, (
        f"{when}: expected the dot on the real surface where {where}; observed its centre at {fmt(d.centre)}, "
        f"{q.depth:.2f} m ahead of the eyes where the room is {q.room_min:.2f}-{q.room_max:.2f} m ahead"
    )


class Sprayer:
    """Follows the dots frame by frame: which hands are pinching, each pinch's last dot, the rays."""

    def __init__(self, xr) -> None:
        self.xr = xr
        self.seen = dots(xr)
        self.pinching: dict[str, Dot | None] = {}  # role -> the pinch's last dot
        self.rays: dict[str, Ray] = {}
        self.counts: dict[str, int] = {}  # role -> dots sprayed by the current pinch
        self.pose = xr.camera_pose()  # the head stays put while a Sprayer follows the dots

    def hand(self, role: str) -> str:
        return self.xr.hand(role).handedness

    def pinch(self, role: str, when: str, *, expect: bool = True) -> Dot | None:
        """Start a pinch (exactly that frame); its first dot must appear in that frame (or none must)."""
        self.rays[role] = ray_of(self.xr, role)
        self.pinching[role] = None
        self.counts[role] = 0
        self.xr.hand(role).start_select(1)
        return self.after_frame(f"{when} (the frame of the pinch)", must={role} if expect else set())

    def release(self, role: str, when: str) -> None:
        """Open the pinch; a dot may still come in that frame, none after."""
        self.xr.hand(role).end_select(1)
        self.after_frame(f"{when} (the frame the pinch opens)", must=set(), allow={role})
        del self.pinching[role]
        self.counts.pop(role, None)

    def step(self, when: str, action=None, frames: int = 1) -> None:
        """Run frames (one each by `action`, or plain steps) and check each one's dots."""
        for _ in range(frames):
            before = self.xr.frame
            if action is not None:
                action()
            if self.xr.frame == before:
                self.xr.step(1)
            assert self.xr.frame == before + 1, "test setup: one frame at a time"
            self.after_frame(f"{when}, frame {self.xr.frame}")

    def after_frame(self, when: str, must: set[str] | None = None, allow: set[str] = frozenset()) -> Dot | None:
        """Check the frame just run: new dots only from pinching hands, at most one each, each on
        its ray and surface and spaced from its pinch's last dot; a hand whose ray met the room far
        enough from its last dot must have sprayed."""
        now = dots(self.xr)
        assert_kept(self.seen, {u: d for u, d in now.items() if u in self.seen}, when)
        fresh = [d for u, d in now.items() if u not in self.seen]
        rays = {role: ray_of(self.xr, role) for role in self.pinching}
        by_hand: dict[str, list[Dot]] = {}
        for d in fresh:
            by_hand.setdefault(d.hand, []).append(d)
        active = {self.hand(role): role for role in self.pinching}
        stray = [d for d in fresh if d.hand not in active]
        assert not stray, (
            f"{when}: expected dots only from pinching hands ({sorted(active) or 'none'}); observed new dots {stray}"
        )
        first = None
        for role in list(self.pinching):
            hand = self.hand(role)
            new = by_hand.get(hand, [])
            assert len(new) <= 1, f"{when}: expected at most one new {hand} dot in a frame; observed {new}"
            last = self.pinching[role]
            if new:
                d = new[0]
                check_dot(self.xr, f"{when}: the {hand} hand's new dot", d, [rays[role], self.rays[role]], hand)
                if last is not None:
                    gap = math.dist(d.centre, last.centre)
                    assert gap >= SPACING - SPACING_SLACK, (
                        f"{when}: expected the {hand} hand's new dot at least 3 cm from the last dot its pinch "
                        f"sprayed, at {fmt(last.centre)}; observed it at {fmt(d.centre)}, {100 * gap:.1f} cm away"
                    )
                self.pinching[role] = d
                self.counts[role] += 1
                first = first or d
            elif must is None or role in must:
                origin, direction = rays[role]
                hit = self.xr.room_ray(origin, direction).hit
                reason = None
                if must is not None:
                    reason = "in the frame of the pinch, its ray meeting the room"
                elif hit is not None and MIN_RANGE < hit.distance < MAX_RANGE - 0.2 and self.in_view(hit.point):
                    if last is None:
                        reason = "with no dot sprayed yet by this pinch, its ray meeting the room"
                    elif math.dist(hit.point, last.centre) >= MUST_SPRAY:
                        reason = (
                            f"its ray meeting the room {100 * math.dist(hit.point, last.centre):.1f} cm from the "
                            f"pinch's last dot at {fmt(last.centre)}"
                        )
                if reason and role not in allow:
                    where = f"at {fmt(hit.point)} ({hit.name})" if hit else "nowhere"
                    raise AssertionError(
                        f"{when}: expected the pinching {hand} hand to spray a dot, {reason} {where}; none"
                    )
            self.rays[role] = rays[role]
        self.seen = now
        return first

    def in_view(self, p: Vec) -> bool:
        """Whether a point lies well inside the view (the depth image covers it)."""
        pose = self.pose
        rel = tuple(a - b for a, b in zip(p, pose.position, strict=True))
        inv = (-pose.quaternion[0], -pose.quaternion[1], -pose.quaternion[2], pose.quaternion[3])
        x, y, z = rotate(inv, rel)
        return z < -0.2 and abs(x / -z) < 1.0 and abs(y / -z) < 0.8


def sweep(sprayer: Sprayer, role: str, a: Vec, b: Vec, when: str) -> None:
    """Turn `role`'s ray from a to b along a straight line on the surface, one STEP a frame."""
    hand = sprayer.xr.hand(role)
    for p in path(a, b):
        sprayer.step(when, lambda p=p: hand.point_to(p, speed=FAST))


def trail(sprayer: Sprayer, role: str) -> int:
    return sprayer.counts.get(role, 0)


# --- tests ---------------------------------------------------------------------------------------


def test_a_held_pinch_sprays_spaced_dots_along_the_sweep(xr):
    """The dominant hand pinches at the wall (a dot in that frame), holds still (no more dots),
    sweeps its ray along the wall (a trail of dots about 3 cm apart, each on the ray of its frame
    and on the surface), releases (no dot after) and sweeps back; pinches again where the trail
    ended (a new dot on top of the old one); sweeps the table top. The user walks, turns and
    crouches: every dot stays."""
    p = plan(xr)
    dom = xr.hand("dominant").handedness
    no_cylinder(xr)
    ready(xr)
    stand(xr, p["start"])
    assert not dots(xr), f"expected no dot before the first pinch; observed {list(dots(xr).values())}"
    a, b = p["wall"]
    aim(xr, "dominant", a)
    s = Sprayer(xr)
    s.step("while the hand only points", frames=3)
    first = s.pinch("dominant", "the first pinch")
    assert first is not None
    s.step("while the pinch is held still", frames=20)
    assert trail(s, "dominant") == 1, (
        f"expected a pinch held still to spray a single dot; observed {trail(s, 'dominant')}"
    )
    sweep(s, "dominant", a, b, "while the pinching hand sweeps along the wall")
    length = math.dist(a, b)
    n = trail(s, "dominant")
    assert length / (SPACING + 0.02) <= n - 1 <= length / (SPACING - SPACING_SLACK), (
        f"expected a sweep of {100 * length:.0f} cm to leave a trail of dots about 3 cm apart; observed {n} dots"
    )
    end = s.pinching["dominant"]
    s.release("dominant", "the first release")
    sweep(s, "dominant", b, lerp(b, a, 0.3), "after the pinch opened, while the hand sweeps back")
    assert len(s.seen) == n or len(s.seen) == n + 1

    # A new pinch where the trail ended sprays at once, on top of the old dots.
    xr.hand("dominant").point_to(end.centre, speed=FAST)
    xr.step(FRESH_FRAMES)
    s.step("before the second pinch", frames=1)
    again = s.pinch("dominant", "a new pinch where the last trail ended")
    assert again is not None and math.dist(again.centre, end.centre) < SPACING, (
        f"test setup: expected the new pinch's dot near the old one at {fmt(end.centre)}; observed {again}"
    )
    s.step("while the second pinch is held still", frames=10)
    s.release("dominant", "the second release")
    park(xr, "dominant")

    ta, tb = table_sweep(xr, "dominant")
    aim(xr, "dominant", ta)
    s.step("before the third pinch", frames=1)
    s.pinch("dominant", "a pinch at the table top")
    sweep(s, "dominant", ta, tb, "while the pinching hand sweeps along the table top")
    assert trail(s, "dominant") >= math.dist(ta, tb) / (SPACING + 0.02), (
        f"expected a trail of dots along the table top; observed {trail(s, 'dominant')}"
    )
    s.release("dominant", "the third release")
    park(xr, "dominant")
    kept = dots(xr)
    assert all(d.hand == dom for d in kept.values())
    for label, where in (("after walking and turning", p["turned"]), ("crouched", p["crouched"])):
        stand(xr, where)
        xr.step(FRESH_FRAMES)
        assert_kept(kept, dots(xr), label)
    xr.hand("dominant").move_hand(head_local(xr, (0.0, 0.0, -0.4)), speed=HAND_SPEED)
    xr.hand("non_dominant").move_hand(head_local(xr, (0.1, -0.1, -0.4)), speed=HAND_SPEED)
    xr.step(FRESH_FRAMES)
    assert_kept(kept, dots(xr), "after the hands moved in front of the eyes")
    assert_no_errors(xr)


def test_both_hands_spray_at_once_each_its_own_trail(xr):
    """The other hand pinches at the table top and holds still while the dominant hand pinches
    and sweeps the wall: one dot of the other hand, a trail of the dominant's, each in its colour.
    Then the dominant hand holds still while the other sweeps the table; the dominant hand opens
    and the other keeps spraying; finally both are open and nothing more appears."""
    p = plan(xr)
    dom, other = xr.hand("dominant").handedness, xr.hand("non_dominant").handedness
    no_cylinder(xr)
    ready(xr)
    stand(xr, p["start"])
    ta, tb = table_sweep(xr, "non_dominant")
    wa, wb = p["wall_low"]
    if dom == "left":
        wa, wb = wb, wa
    aim(xr, "non_dominant", ta)
    aim(xr, "dominant", wa)
    s = Sprayer(xr)
    s.pinch("non_dominant", f"the {other} hand's pinch at the table top")
    s.step(f"while the {other} hand holds its pinch", frames=5)
    s.pinch("dominant", f"the {dom} hand's pinch at the wall, while the {other} hand pinches")
    sweep(s, "dominant", wa, lerp(wa, wb, 0.5), f"while the {dom} hand sweeps and the {other} holds still")
    assert trail(s, "non_dominant") == 1, (
        f"expected the {other} hand, held still, to have sprayed a single dot while the {dom} hand swept; "
        f"observed {trail(s, 'non_dominant')}"
    )
    assert trail(s, "dominant") >= 0.5 * math.dist(wa, wb) / (SPACING + 0.02), (
        f"expected a trail of {dom} dots along the wall; observed {trail(s, 'dominant')}"
    )
    mine = trail(s, "dominant")
    sweep(s, "non_dominant", ta, tb, f"while the {other} hand sweeps and the {dom} holds still")
    assert trail(s, "dominant") == mine, (
        f"expected the {dom} hand, held still, to spray no more dots while the {other} hand swept; "
        f"observed {trail(s, 'dominant') - mine} more"
    )
    assert trail(s, "non_dominant") >= math.dist(ta, tb) / (SPACING + 0.02), (
        f"expected a trail of {other} dots along the table top; observed {trail(s, 'non_dominant')}"
    )
    s.release("dominant", f"the {dom} hand opens")
    sweep(s, "dominant", lerp(wa, wb, 0.5), wb, f"the {dom} hand sweeps after opening")
    sweep(s, "non_dominant", tb, lerp(tb, ta, 0.5), f"the {other} hand sweeps back, still pinching")
    s.release("non_dominant", f"the {other} hand opens")
    sweep(s, "non_dominant", lerp(tb, ta, 0.5), ta, "both hands open")
    assert len(of_hand(dots(xr), dom)) == mine
    assert_no_errors(xr)


def test_no_surface_no_dot_but_the_pinch_keeps_spraying(xr):
    """A pinch held from the first frame sprays nothing until depth data arrives, then at once.
    A pinch at the floor below the view sprays nothing until the ray turns to the wall; the ray
    swept out of the view sprays nothing, and back on the wall sprays at once. A pinch at a
    surface farther than 5 m sprays nothing."""
    p = plan(xr)
    no_cylinder(xr)
    xr.step(1)
    assert not xr.depth().available, "test setup: expected no depth data in the first frame"
    s = Sprayer(xr)
    s.pinch("dominant", "a pinch before any depth data", expect=False)
    assert not dots(xr), "expected no dot from a pinch before any depth data has arrived"
    for _ in range(40):
        xr.step(1)
        if xr.depth().available:
            break
        s.after_frame("before depth data arrived", must=set())
    assert xr.depth().available, "expected depth data within 40 frames"
    origin, direction = ray_of(xr, "dominant")
    hit = xr.room_ray(origin, direction).hit
    assert hit is not None and MIN_RANGE < hit.distance < MAX_RANGE and s.in_view(hit.point), f"test setup: {hit}"
    s.after_frame("in the first frame with depth data", must=set(), allow={"dominant"})
    if trail(s, "dominant") == 0:
        s.step("a frame after depth data arrived")
    assert trail(s, "dominant") == 1, (
        "expected a pinch held from before the depth data arrived to spray its first dot as soon as depth data is there"
    )
    s.release("dominant", "the first release")
    ready(xr)
    stand(xr, p["start"])

    # The floor by the user's feet, below the view: nothing, until the ray turns to the wall.
    raise_hand(xr, "dominant")
    xr.hand("dominant").point_to(head_local(xr, (0.2 * side(xr, "dominant"), -1.4, -0.6)), speed=FAST)
    xr.step(FRESH_FRAMES)
    s = Sprayer(xr)
    s.pinch("dominant", "a pinch at the floor below the view", expect=False)
    s.step("while the pinch at the floor is held", frames=10)
    assert trail(s, "dominant") == 0, "expected no dot while the ray meets the room only below the view"
    a, b = p["wall"]
    s.step("the pinching hand turns to the wall", lambda: xr.hand("dominant").point_to(a, speed=FAST))
    assert trail(s, "dominant") == 1
    sweep(s, "dominant", a, lerp(a, b, 0.3), "the pinching hand sweeps along the wall")
    n = trail(s, "dominant")
    away = head_local(xr, (3.0 * side(xr, "dominant"), 0.0, 0.4))
    s.step("the pinching hand points out of the view", lambda: xr.hand("dominant").point_to(away, speed=FAST))
    s.step("while the pinching hand points out of the view", frames=10)
    assert trail(s, "dominant") == n, "expected no dot while the ray points out of the view"
    s.step("the pinching hand points back at the wall", lambda: xr.hand("dominant").point_to(b, speed=FAST))
    assert trail(s, "dominant") == n + 1, "expected a dot as soon as the ray meets the wall again"
    s.step("while the pinch is held still on the wall", frames=5)
    s.release("dominant", "the release")
    park(xr, "dominant")

    position, look, target = p["far"]
    stand(xr, (position, look))
    aim(xr, "dominant", target)
    origin, direction = ray_of(xr, "dominant")
    truth = xr.room_ray(origin, direction)
    assert truth.hit and truth.hit.distance > MAX_RANGE + 0.2, f"test setup: {truth}"
    s = Sprayer(xr)
    s.pinch("dominant", f"a pinch at a surface {truth.hit.distance:.1f} m from the hand", expect=False)
    s.step("while the pinch at the far surface is held", frames=10)
    assert trail(s, "dominant") == 0, "expected no dot from a ray meeting the room farther than 5 m"
    s.release("dominant", "the release")
    assert_no_errors(xr)
