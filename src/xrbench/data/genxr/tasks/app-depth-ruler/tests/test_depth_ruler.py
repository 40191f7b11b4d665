"""Runtime tests of the depth ruler, in two furnished rooms.

The app drops a pin (tagged 'ruler-pin', an orange sphere 2 cm across) where a pinching hand's ray
meets the real room according to XR Blocks' depth data; two pins make a measurement (a line tagged
'ruler-line' and a label tagged 'ruler-label' showing the distance); the next pin starts a new one.

Nothing the app reports is taken on trust for where things are. A pin is judged against the room
itself: the hand's ray (the controller's position and -Z, read by the harness just before the
pinch) is cast into the simulated room (the scene the simulator renders its depth image from, the
hands left out), and the pin's centre must lie on that ray (2 cm) and on the real surface: its depth
along the viewing direction within 3 cm plus 2% of the depths the room shows at the pin's place in
the view and 1.5 depth pixels around it (the depth image is 160 x 160, so near an object's edge
either side counts). Every target is a surface the user sees, with nothing (no hand either) between
the eyes and the ray's path beyond 0.3 m, so the depth data and the room agree there. The line is
read from its vertices, the label from its place and its state.

Targets: in the living room a table top, the sofa's back, the TV, the bookshelf, a wall; in the
kitchen the island top, a stool, the upper cabinets, the fridge, a wall. The sofa's back, the TV,
the bookshelf, the stool, the cabinets and the fridge are no detected plane, and most lie off the
middle row of the view. Poses: standing at the start, after walking and turning towards the TV or
the fridge, crouched and turned. Each test runs for a right- and a left-dominant user (the
dominant hand drops the first pin, the other hand the second, while the first still pinches).
"""

from __future__ import annotations

import math
import re

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.session import rotate
from xrbench.xrtest.strokes import read_strokes

pytestmark = [pytest.mark.xr_scenes("living_room", "kitchen"), pytest.mark.xr_timeout(420)]

PIN, LINE, LABEL = "ruler-pin", "ruler-line", "ruler-label"
ORANGE = (0xFF, 0x91, 0x00)
PIN_DIAMETER = 0.02
FAST = 100000.0  # deg/s: a turn done in one frame
HAND_SPEED = 6.0  # m/s: 10 cm a frame
FRESH_FRAMES = 5  # frames after a pose change: the depth data of the new view has arrived
QUERY_PX = 1.5  # neighbourhood of the pin's place in the view, in depth pixels
ON_RAY = 0.02  # metres off the ray
STILL = 0.002  # metres a pin, line or label may move once made
MIN_RANGE, MAX_RANGE = 0.3, 5.0

Vec = tuple[float, float, float]

# Where the user stands and looks, and what each hand points at, per room.
# start: (eye position, look at); targets: world points on real surfaces.
PLANS = {
    "living_room": {
        "start": ((0.0, 1.5, 0.0), (0.0, 1.2, -3.0)),
        "first": (0.3, 0.75, -1.3),  # table top, below the middle of the view
        "second": (0.5, 0.8, -3.75),  # the sofa's back (no plane)
        "turned": ((0.5, 1.5, 0.3), (2.87, 1.15, -1.5)),  # walked, facing the TV
        "third": (2.87, 1.2, -1.3),  # the TV's screen (no plane)
        "crouched": ((1.0, 1.0, 0.5), (-2.6, 1.0, -1.0)),  # crouched, facing the bookshelf
        "fourth": (-2.625, 1.2, -0.8),  # the bookshelf's front (no plane)
        "wall": (1.0, 1.8, -4.0),  # the north wall, 3.8 m from the hand
        "far": ((-2.5, 1.5, 1.5), (2.5, 1.0, -3.5), (2.3, 1.2, -4.0)),  # a wall 7 m from the hand
    },
    "kitchen": {
        "start": ((0.0, 1.5, 0.0), (0.0, 1.2, -3.0)),
        "first": (0.4, 0.94, -1.2),  # island top
        "second": (-1.0, 1.9, -3.145),  # the upper cabinets' front (no plane)
        "turned": ((0.5, 1.5, 0.3), (2.1, 1.1, -2.75)),  # walked, facing the fridge
        "third": (2.0, 1.3, -2.75),  # the fridge's door (no plane)
        "crouched": ((-1.0, 1.0, 0.5), (0.0, 0.9, -3.0)),  # crouched, facing the island
        "fourth": (-0.3, 0.6, -1.0),  # the side of a stool (no plane)
        "wall": (-0.5, 1.3, -3.5),  # the north wall, about 3.8 m from the hand
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
    """Bring a hand up in front of the user, on its own side, as a person holding out a pointer."""
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
    for _ in range(FRESH_FRAMES):
        xr.step(1)
    state = hand.state
    assert state.position is not None and state.ray_direction is not None, f"the {role} hand has no ray"
    return state.position, state.ray_direction


def ready(xr) -> None:
    """Both hands tracked and out of the way; steps until depth data is available."""
    for _ in range(60):
        if xr.depth().available:
            break
        xr.step(1)
    assert xr.depth().enabled, "expected XR Blocks' depth sensing to be on (options.enableDepth() before xb.init)"
    assert xr.depth().available, "expected depth data within 60 frames of the start; none arrived"
    park(xr, "dominant")
    park(xr, "non_dominant")


# --- reading ------------------------------------------------------------------------------------


def centre(node) -> Vec:
    assert node.bbox is not None, f"expected {node.tag!r} ({node.name}) to have geometry; observed none"
    lo, hi = node.bbox
    return tuple((a + b) / 2 for a, b in zip(lo, hi, strict=True))  # type: ignore[return-value]


def shown(xr, tag: str) -> list:
    """The tagged objects of the app's scene that are shown (cleared ones may be removed or hidden)."""
    return [n for n in xr.tagged(tag) if n.root == "scene" and n.visible]


def pins(xr) -> list:
    return shown(xr, PIN)


def lines(xr) -> list[dict]:
    return [s for s in read_strokes(xr, LINE) if s["points"]]


def layout(xr) -> dict:
    """Where every shown pin, line vertex and label is now."""
    return {
        "pins": sorted(centre(n) for n in pins(xr)),
        "lines": [s["points"] for s in lines(xr)],
        "labels": sorted(centre(n) if n.bbox else n.position for n in shown(xr, LABEL)),
    }


def assert_unchanged(before: dict, after: dict, when: str) -> None:
    for what in ("pins", "labels"):
        assert len(after[what]) == len(before[what]), (
            f"{when}: expected {len(before[what])} {what} shown as before; observed {len(after[what])}"
        )
        for a, b in zip(before[what], after[what], strict=True):
            assert math.dist(a, b) <= STILL, f"{when}: expected the {what[:-1]} to stay at {fmt(a)}; observed {fmt(b)}"
    assert len(after["lines"]) == len(before["lines"]), (
        f"{when}: expected {len(before['lines'])} lines shown as before; observed {len(after['lines'])}"
    )
    for a, b in zip(before["lines"], after["lines"], strict=True):
        gap = max((min(math.dist(p, q) for q in b) for p in a), default=0.0) if b else math.inf
        assert gap <= STILL, f"{when}: expected the line to stay where it was; a vertex moved {gap:.3f} m"


def new_pin(before: list, after: list, when: str):
    """The one pin shown now that was not shown before."""
    old = [centre(n) for n in before]
    fresh = [n for n in after if all(math.dist(centre(n), c) > 1e-4 for c in old)]
    assert len(fresh) == 1, (
        f"{when}: expected exactly one new pin in the frame of the pinch; observed {len(fresh)} new "
        f"(pins shown: {[fmt(centre(n)) for n in after]})"
    )
    return fresh[0]


# --- checking -----------------------------------------------------------------------------------


def check_pin(xr, when: str, node, ray: tuple[Vec, Vec], hand: str) -> Vec:
    """The pin is an orange sphere 2 cm across, on the hand's ray, on the real surface there."""
    origin, direction = ray
    lo, hi = node.bbox
    for axis, a, b in zip("xyz", lo, hi, strict=True):
        assert abs((b - a) - PIN_DIAMETER) <= 0.25 * PIN_DIAMETER, (
            f"{when}: expected the pin to be a sphere 2 cm across; observed {b - a:.4f} m along {axis}"
        )
    colour = rgb(node.color)
    assert colour is not None and max(abs(c - w) for c, w in zip(colour, ORANGE, strict=True)) <= 8, (
        f"{when}: expected the pin orange (#ff9100); observed {node.color}"
    )
    state = node.state if isinstance(node.state, dict) else {}
    assert state.get("hand") == hand, f"{when}: expected the pin's state.hand {hand!r}; observed {node.state}"
    p = centre(node)
    truth = xr.room_ray(origin, direction, view_point=p, pixels=QUERY_PX)
    hit = truth.hit
    assert hit is not None and MIN_RANGE < hit.distance < MAX_RANGE, f"test setup: the ray meets no surface {truth}"
    rel = [a - b for a, b in zip(p, origin, strict=True)]
    along = sum(r * d for r, d in zip(rel, direction, strict=True))
    off = math.sqrt(max(0.0, sum(r * r for r in rel) - along * along))
    where = (
        f"the {hand} hand's ray from {fmt(origin)} along {fmt(direction)} meets the room ({hit.name}) "
        f"at {fmt(hit.point)}, {hit.distance:.2f} m from the hand"
    )
    assert off <= ON_RAY, (
        f"{when}: expected the pin on the ray: {where}; observed it at {fmt(p)}, {off:.3f} m off the ray"
    )
    q = truth.view
    lo_d, hi_d = q.room_min - depth_tol(q.room_min), q.room_max + depth_tol(q.room_max)
    assert lo_d <= q.depth <= hi_d, (
        f"{when}: expected the pin on the real surface where {where}; observed it at {fmt(p)}, {along:.2f} m "
        f"along the ray, {q.depth:.2f} m ahead of the eyes where the room is {q.room_min:.2f}-{q.room_max:.2f} m "
        f"ahead"
    )
    return p


def check_measurement(xr, when: str, a: Vec, b: Vec, *, place: bool = True) -> None:
    """A straight line from pin centre to pin centre, its state the distance, and the label; with
    `place`, also where the label is (after `settle`: a label made of XR Blocks UI is laid out
    asynchronously, so its place is read once the layout is done)."""
    distance = math.dist(a, b)
    found = lines(xr)
    assert len(found) == 1, f"{when}: expected one line joining the two pins; observed {len(found)}"
    line = found[0]
    points = line["points"]
    for p in points:
        ab = [y - x for x, y in zip(a, b, strict=True)]
        t = max(0.0, min(1.0, sum((pp - x) * d for pp, x, d in zip(p, a, ab, strict=True)) / (distance**2)))
        gap = math.dist(p, [x + t * d for x, d in zip(a, ab, strict=True)])
        assert gap <= 0.006, (
            f"{when}: expected the line straight from pin {fmt(a)} to pin {fmt(b)}; a vertex lies {gap:.3f} m "
            f"off at {fmt(p)}"
        )
    for end in (a, b):
        gap = min(math.dist(p, end) for p in points)
        assert gap <= 0.01, (
            f"{when}: expected the line to reach the pin at {fmt(end)}; its nearest point is {gap:.3f} m away"
        )
    state = line["state"] if isinstance(line["state"], dict) else {}
    d = state.get("distance")
    assert isinstance(d, (int, float)) and abs(d - distance) <= 0.001, (
        f"{when}: expected the line's state.distance {distance:.4f} m (the pins' distance); observed {line['state']}"
    )
    labels = shown(xr, LABEL)
    assert len(labels) == 1, f"{when}: expected one label shown; observed {len(labels)}"
    label = labels[0]
    text = (label.state or {}).get("text") if isinstance(label.state, dict) else None
    m = re.fullmatch(r"\s*(\d+\.\d{2})\s*m\s*", str(text))
    assert m and abs(float(m.group(1)) - distance) <= 0.005 + 1e-6, (
        f"{when}: expected the label's text to be the distance in metres with two decimals, "
        f"{distance:.2f} m; observed {text!r}"
    )
    if not place:
        return
    xr.settle()
    label = shown(xr, LABEL)[0]
    mid = tuple((x + y) / 2 for x, y in zip(a, b, strict=True))
    gap = math.dist(centre(label), mid)
    assert gap <= 0.1, (
        f"{when}: expected the label's centre within 0.1 m of the line's midpoint {fmt(mid)}; observed "
        f"{fmt(centre(label))}, {gap:.3f} m away"
    )


def assert_no_measurement(xr, when: str) -> None:
    assert not lines(xr), f"{when}: expected no line shown (the measurement has one pin); observed {lines(xr)}"
    assert not shown(xr, LABEL), f"{when}: expected no label shown (the measurement has one pin)"


def pinch(xr, role: str, when: str) -> tuple:
    """Start a pinch and run exactly that frame; the pins before and after."""
    before = pins(xr)
    xr.hand(role).start_select(1)
    return before, pins(xr)


# --- tests ---------------------------------------------------------------------------------------


def test_two_pins_make_a_measurement_and_the_next_pin_starts_a_new_one(xr):
    """Pin 1 (dominant hand) on a surface below the middle of the view, held; pin 2 (the other
    hand, while the first still pinches) on furniture that is no plane; the line and label in that
    frame; releases change nothing; the user walks, turns and crouches and everything stays; pin 3
    from the other spot clears the first measurement in its frame; pin 4 from a crouch completes
    the new one."""
    p = plan(xr)
    dom, other = xr.hand("dominant").handedness, xr.hand("non_dominant").handedness
    cylinders = [d for d in xr.drawn(("mesh",)) if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed {cylinders}"
    ready(xr)
    stand(xr, p["start"])
    assert not pins(xr), f"expected no pin before the first pinch; observed {len(pins(xr))}"

    ray = aim(xr, "dominant", p["first"])
    assert not pins(xr), "expected no pin while the hand only points"
    before, after = pinch(xr, "dominant", "pin 1")
    first = check_pin(xr, "pin 1", new_pin(before, after, "pin 1"), ray, dom)
    assert len(after) == 1
    assert_no_measurement(xr, "after pin 1")
    kept = layout(xr)
    for _ in range(12):  # the fingers close; the pinch is held
        xr.step(1)
    assert_unchanged(kept, layout(xr), "while the first pinch is held")

    park(xr, "dominant")  # still pinching
    ray = aim(xr, "non_dominant", p["second"])
    assert_unchanged(kept, layout(xr), "while the dominant hand moves away, still pinching")
    before, after = pinch(xr, "non_dominant", "pin 2")
    second = check_pin(xr, "pin 2 (while the other hand still pinches)", new_pin(before, after, "pin 2"), ray, other)
    assert len(after) == 2, f"pin 2: expected two pins; observed {len(after)}"
    check_measurement(xr, "in the frame of pin 2", first, second, place=False)

    kept = layout(xr)
    xr.hand("non_dominant").end_select(12)
    xr.hand("dominant").end_select(12)
    assert_unchanged(kept, layout(xr), "after both hands opened")
    park(xr, "non_dominant")
    for label, (position, look) in (("after walking and turning", p["turned"]), ("crouched", p["crouched"])):
        xr.head.teleport_to(position)
        xr.head.look_at(look, speed=FAST)
        for _ in range(FRESH_FRAMES):
            xr.step(1)
        assert_unchanged(kept, layout(xr), label)
    check_measurement(xr, "after walking, turning and crouching", first, second)

    stand(xr, p["turned"])
    ray = aim(xr, "non_dominant", p["third"])
    before, after = pinch(xr, "non_dominant", "pin 3")
    assert len(after) == 1, (
        f"pin 3: expected the new measurement's first pin only (the earlier two cleared in its frame); "
        f"observed {len(after)} pins"
    )
    third = check_pin(xr, "pin 3 (a new measurement)", new_pin(before, after, "pin 3"), ray, other)
    assert_no_measurement(xr, "in the frame of pin 3")
    xr.hand("non_dominant").end_select(12)
    park(xr, "non_dominant")

    stand(xr, p["crouched"])
    ray = aim(xr, "dominant", p["fourth"])
    before, after = pinch(xr, "dominant", "pin 4")
    fourth = check_pin(xr, "pin 4 (crouched)", new_pin(before, after, "pin 4"), ray, dom)
    assert len(after) == 2, f"pin 4: expected two pins; observed {len(after)}"
    assert min(math.dist(centre(n), third) for n in after) <= STILL, (
        f"pin 4: expected pin 3 to stay at {fmt(third)}; observed pins at {[fmt(centre(n)) for n in after]}"
    )
    check_measurement(xr, "in the frame of pin 4", third, fourth, place=False)
    xr.hand("dominant").end_select(12)
    check_measurement(xr, "after pin 4", third, fourth)
    assert_no_errors(xr)


def test_a_pinch_that_meets_no_surface_drops_nothing(xr):
    """No pin from a pinch before depth data arrives. A first pin; then pinches at the floor below
    the view, with the hand held out to the side pointing away from the view, and at a surface
    farther than 5 m: nothing changes. A pin on a wall 3.8 m from the hand completes the
    measurement; another miss leaves it as it is."""
    p = plan(xr)
    dom = xr.hand("dominant").handedness
    # Before any depth data: a pinch (the hand ahead, its ray at the far wall) drops nothing, also
    # once depth data arrives while it is held.
    xr.step(1)
    assert not xr.depth().available, "test setup: expected no depth data in the first frame"
    xr.hand("dominant").start_select(1)
    assert not pins(xr), "expected no pin from a pinch before any depth data has arrived"
    for _ in range(20):
        xr.step(1)
    assert xr.depth().available and not pins(xr), (
        f"expected no pin from a pinch made before depth data arrived (held while it arrived); observed {len(pins(xr))}"
    )
    xr.hand("dominant").end_select(12)
    assert not pins(xr), "expected no pin when the fingers open"
    ready(xr)
    stand(xr, p["start"])
    ray = aim(xr, "dominant", p["first"])
    before, after = pinch(xr, "dominant", "pin 1")
    first = check_pin(xr, "pin 1", new_pin(before, after, "pin 1"), ray, dom)
    xr.hand("dominant").end_select(12)
    kept = layout(xr)

    def miss(when: str, role: str) -> None:
        xr.hand(role).start_select(1)
        assert_unchanged(kept, layout(xr), f"in the frame of a pinch {when}")
        xr.hand(role).end_select(12)
        assert_unchanged(kept, layout(xr), f"after a pinch {when}")

    # The floor by the user's feet, below the view (no depth data there).
    raise_hand(xr, "dominant")
    xr.hand("dominant").point_to(head_local(xr, (0.2 * side(xr, "dominant"), -1.4, -0.6)), speed=FAST)
    xr.step(FRESH_FRAMES)
    miss("at the floor below the view", "dominant")

    # Held out to the side, pointing away from the view.
    hand = xr.hand("dominant")
    hand.move_hand(head_local(xr, (0.7 * side(xr, "dominant"), -0.1, -0.2)), speed=HAND_SPEED)
    hand.point_to(head_local(xr, (3.0 * side(xr, "dominant"), 0.0, -0.4)), speed=FAST)
    xr.step(FRESH_FRAMES)
    miss("with the hand pointing out of the view", "dominant")
    park(xr, "dominant")

    # Farther than 5 m.
    position, look, target = p["far"]
    stand(xr, (position, look))
    ray = aim(xr, "non_dominant", target)
    truth = xr.room_ray(ray[0], ray[1])
    assert truth.hit and truth.hit.distance > MAX_RANGE + 0.2, f"test setup: {truth}"
    miss(f"at a surface {truth.hit.distance:.1f} m from the hand", "non_dominant")
    park(xr, "non_dominant")

    # A wall within reach completes the measurement.
    stand(xr, p["start"])
    ray = aim(xr, "non_dominant", p["wall"])
    before, after = pinch(xr, "non_dominant", "pin 2")
    second = check_pin(
        xr, "pin 2 (a wall 3.8 m away)", new_pin(before, after, "pin 2"), ray, xr.hand("non_dominant").handedness
    )
    check_measurement(xr, "in the frame of pin 2", first, second, place=False)
    xr.hand("non_dominant").end_select(12)
    kept = layout(xr)
    xr.hand("non_dominant").point_to(head_local(xr, (0.2 * side(xr, "non_dominant"), -1.4, -0.6)), speed=FAST)
    xr.step(FRESH_FRAMES)
    miss("at the floor below the view, after a complete measurement", "non_dominant")
    check_measurement(xr, "after a pinch that met nothing", first, second)
    assert_no_errors(xr)
