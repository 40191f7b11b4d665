"""Runtime tests of the mirror-drawing app.

They check that
- the app starts with no stroke and no cylinder; the mesh tagged 'mirror-button' is at least 6 cm
  wide and 4 cm high (checked to 5 and 3.5 cm), has its centre 0.4-1.0 m ahead of the starting head,
  at most 0.3 m to the side and 0.1-0.5 m below eye height (each within 2 cm), and is green
  (#33cc66, material colour within 8 of 255 per channel), also a second later;
- a pinch with the ray away from the button draws two objects tagged 'stroke' once the fingers have
  closed: one covers the index fingertip's path, the other its mirror image across the plane x = 0,
  mid-stroke and at the release (within 1 cm of every position, checked to 1.25 cm; no vertex more
  than 1.5 cm from the path, checked to 1.7 cm), both growing while the pinch is held; moving the hand
  after the release adds nothing to either; the other hand's stroke across the plane is reflected the
  same way; both hands pinching in the same frame and moving in turn draw two strokes and two
  reflections at once;
- pointing at the button without pinching changes neither its colour nor what is drawn; a pinch aimed
  at the button (off its centre, with either hand, also held a second while the hand moves, also
  through a stroke drawn 6 cm in front of it across the ray) turns it grey or green while the pinch is
  still held and draws nothing; with mirroring off a pinch draws one stroke and no reflection, with it
  on again a stroke and its reflection;
- toggling with the other hand while a stroke is drawn neither cuts its reflection short (it covers
  the whole reflected path) nor gives a stroke started with mirroring off a reflection; toggling
  afterwards adds or removes no reflection of the strokes drawn;
- after the user walks 0.5 m away and turns, the strokes and the button are where they were, and a
  stroke drawn there is reflected across the room's plane x = 0 (not the user's new line of sight);
  crouched, the button still toggles, and after the user comes back every stroke is unmoved.

Each test runs for a right- and a left-dominant user, in the empty room.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.strokes import (
    Trail,
    assert_follows,
    assert_unmoved,
    begin,
    end,
    match,
    move,
    read_strokes,
    side,
)

pytestmark = pytest.mark.xr_scenes("empty")

BUTTON, STROKE = "mirror-button", "stroke"
ON, OFF = "#33cc66", "#666666"
AHEAD = (0.4, 1.0)
SIDE_MAX = 0.3
BELOW = (0.1, 0.5)
SLACK = 0.02
MIN_W, MIN_H = 0.05, 0.035  # "at least 6 cm wide and 4 cm high", with slack
CHANNEL = 8
HOLD = 12  # frames a button press holds the pinch (and waits after releasing it)

Vec = tuple[float, float, float]


def _fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _rgb(hexstr: str) -> tuple[int, int, int]:
    return tuple(int(hexstr[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def _same_colour(a, b: str) -> bool:
    if not isinstance(a, str) or len(a) != 7 or not a.startswith("#"):
        return False
    try:
        return all(abs(x - y) <= CHANNEL for x, y in zip(_rgb(a.lower()), _rgb(b), strict=True))
    except ValueError:
        return False


def centre(box) -> Vec:
    return tuple((box[0][i] + box[1][i]) / 2 for i in range(3))  # type: ignore[return-value]


def strokes(xr) -> list[dict]:
    return read_strokes(xr, STROKE)


def assert_count(xr, n: int, what: str) -> list[dict]:
    __tracebackhide__ = True
    found = [s for s in strokes(xr) if s["points"]]
    assert len(found) == n, f"expected {n} drawn stroke(s) (strokes and reflections) {what}; observed {len(found)}"
    return found


def button(xr):
    return xr.find_by_tag(BUTTON)


def assert_shows(xr, on: bool, what: str) -> None:
    __tracebackhide__ = True
    want = ON if on else OFF
    node = button(xr)
    assert _same_colour(node.color, want), (
        f"expected the button {want} (mirroring {'on' if on else 'off'}) {what}; observed {node.color}"
    )


def spot_on(xr, spot: tuple[float, float]) -> Vec:
    """A point of the button, `spot` of the way from its centre to its edges (x across, y up)."""
    lo, hi = button(xr).bbox
    c = centre((lo, hi))
    return (c[0] + spot[0] * (hi[0] - lo[0]) / 2, c[1] + spot[1] * (hi[1] - lo[1]) / 2, c[2])


def press(xr, role: str, spot: tuple[float, float], *, shows: bool, what: str) -> None:
    """A pinch of `role`'s hand aimed at a spot of the button; the button must show `shows` while
    the pinch is still held."""
    hand = xr.hand(role)
    hand.point_to(spot_on(xr, spot))
    hand.start_select(HOLD)
    assert_shows(xr, shows, f"while the pinch that toggles it is held ({what})")
    hand.end_select(HOLD)
    assert_shows(xr, shows, f"after the pinch that toggled it ({what})")


def aim_away(xr, role: str) -> None:
    """Point the hand's ray down, outwards and back, away from the button in front."""
    hand = xr.hand(role)
    f = xr.camera_pose().forward
    right = (-f[2], 0.0, f[0])
    n = math.hypot(right[0], right[2]) or 1.0
    s = side(xr, role)
    p = hand.position
    hand.point_to((p[0] + s * 0.6 * right[0] / n - 0.3 * f[0], 0.0, p[2] + s * 0.6 * right[2] / n - 0.3 * f[2]))


def draw(xr, role: str, start: Vec, moves: list) -> Trail:
    """A stroke: the ray aimed away from the button, the fingertip at `start`, a pinch moved by
    `moves` and released."""
    aim_away(xr, role)
    xr.hand(role).move_hand(start, anchor="fingertip")
    [t] = begin(xr, role)
    move(xr, t, moves)
    end(xr, t)
    return t


def mirrored(t: Trail) -> Trail:
    """The trail reflected across the plane x = 0."""

    def flip(points: list) -> list:
        return [(-p[0], p[1], p[2]) for p in points]

    return Trail(f"reflection of the {t.role}", t.handedness, flip(t.path), flip(t.allowed))


def so_far(t: Trail) -> Trail:
    """The part of a trail drawn so far, as a stroke mid-pinch may show it."""
    return Trail(t.role, t.handedness, list(t.path), t.allowed + t.path)


def pair(found: list[dict], t: Trail, what: str) -> tuple[dict, dict]:
    """The stroke along `t` and its reflection, each checked against its path."""
    __tracebackhide__ = True
    stroke, reflection = match(found, t), match(found, mirrored(t))
    assert_follows(stroke, t)
    assert_follows(reflection, mirrored(t))
    assert stroke["uuid"] != reflection["uuid"], (
        f"expected the stroke {what} and its reflection drawn as two objects; one object covers both"
    )
    return stroke, reflection


def assert_no_reflection(found: list[dict], t: Trail, what: str) -> None:
    """No stroke lies along the reflection of `t` (its reflected path is nowhere near 1 cm of one)."""
    __tracebackhide__ = True
    m = mirrored(t)
    for s in found:
        near = max(min(math.dist(p, q) for q in s["points"]) for p in m.path[:: max(1, len(m.path) // 40)])
        assert near > 0.02, f"expected no reflection of the stroke {what}; a stroke lies along its mirror image"


def test_the_button_is_in_front_and_mirroring_starts_on(xr):
    xr.settle()
    assert_count(xr, 0, "at the start")
    cylinders = [d for d in xr.drawn() if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the cylinder removed; observed {cylinders}"
    node = button(xr)
    assert node.is_mesh, f"expected the object tagged {BUTTON!r} to be a mesh; it is a {node.type}"
    assert node.visible, "expected the button shown; it is hidden"
    head = xr.head.pose.position
    c = centre(node.bbox)
    ahead, across, below = head[2] - c[2], c[0] - head[0], head[1] - c[1]
    assert AHEAD[0] - SLACK <= ahead <= AHEAD[1] + SLACK, (
        f"expected the button's centre {AHEAD[0]}-{AHEAD[1]} m in front of the user; observed {ahead:.3f} m "
        f"(centre {_fmt(c)})"
    )
    assert abs(across) <= SIDE_MAX + SLACK, (
        f"expected the button's centre at most {SIDE_MAX} m to the side; observed {across:+.3f} m"
    )
    assert BELOW[0] - SLACK <= below <= BELOW[1] + SLACK, (
        f"expected the button's centre {BELOW[0]}-{BELOW[1]} m below eye height; observed {below:.3f} m below"
    )
    lo, hi = node.bbox
    width, height = hi[0] - lo[0], math.hypot(hi[1] - lo[1], hi[2] - lo[2])
    assert width >= MIN_W and height >= MIN_H, (
        f"expected the button at least 0.06 m wide and 0.04 m high; observed {width:.3f} x {height:.3f} m"
    )
    assert_shows(xr, True, "at the start (mirroring starts on)")
    xr.wait(1000)
    assert_shows(xr, True, "a second after the start")
    assert_count(xr, 0, "a second after the start")
    assert_no_errors(xr)


def test_a_pinch_draws_a_stroke_and_its_reflection_growing_together(xr):
    xr.settle()
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    aim_away(xr, "dominant")
    dom.move_hand((0.25 * s, 1.35, -0.35), anchor="fingertip")
    assert_count(xr, 0, "before the first pinch")
    [t] = begin(xr, "dominant")
    assert_count(xr, 2, "once the fingers of a pinch have closed (mirroring starts on: a stroke and its reflection)")
    move(xr, t, [(-s * 0.12, 0.0, 0.0)])
    found = assert_count(xr, 2, "while the pinch is held")
    mid = pair(found, so_far(t), "being drawn")
    move(xr, t, [(0.0, 0.08, -0.04), (s * 0.05, -0.03, 0.03)], speed=0.2)
    end(xr, t)
    found = assert_count(xr, 2, "after one pinch")
    first = pair(found, t, "of the first pinch")
    for before, after, name in zip(mid, first, ("stroke", "reflection"), strict=True):
        assert len(after["points"]) > len(before["points"]), (
            f"expected the {name} to grow while the pinch was held; it had {len(before['points'])} vertices "
            f"mid-stroke and {len(after['points'])} at the release"
        )
    dom.move_by((s * 0.1, -0.1, 0.05))  # released: the stroke and its reflection end
    dom.move_by((-s * 0.05, 0.1, -0.05))
    xr.wait(200)
    found = assert_count(xr, 2, "after the hand moved on released")
    for old in first:
        [now] = [f for f in found if f["uuid"] == old["uuid"]]
        assert len(now["points"]) == len(old["points"]), (
            f"expected the stroke and its reflection to end at the release; one went from {len(old['points'])} to "
            f"{len(now['points'])} vertices as the hand moved without pinching"
        )
    # The other hand draws across the plane x = 0.
    cross = draw(xr, "non_dominant", (0.06 * s, 1.28, -0.33), [(-0.18 * s, 0.08, -0.03)])
    found = assert_count(xr, 4, "after a pinch of each hand")
    second = pair(found, cross, "of the non-dominant hand, across the mirror")
    assert_unmoved(xr, list(first), "after the other hand drew")
    # Both hands at once, moving in turn.
    dom.rest()
    non.rest()
    aim_away(xr, "dominant")
    aim_away(xr, "non_dominant")
    dom.move_hand((0.3 * s, 1.2, -0.3), anchor="fingertip")
    non.move_hand((-0.3 * s, 1.45, -0.38), anchor="fingertip")
    a, b = begin(xr, "dominant", "non_dominant")
    assert_count(xr, 8, "once both hands' fingers have closed in the same frame")
    move(xr, a, [(0.0, 0.07, 0.0)], others=(b,))
    move(xr, b, [(0.0, -0.06, 0.02)], others=(a,))
    end(xr, a, b)
    found = assert_count(xr, 8, "after both hands drew at once")
    made = [*pair(found, a, "of the dominant hand (both pinching)"), *pair(found, b, "of the non-dominant hand")]
    assert len({m["uuid"] for m in made}) == 4, "expected four separate objects for the two strokes and reflections"
    assert_unmoved(xr, [*first, *second], "after both hands drew")
    assert_no_errors(xr)


def test_the_button_toggles_mirroring_and_draws_nothing(xr):
    xr.settle()
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    drawn = len(xr.drawn())
    # Pointing without pinching changes nothing.
    dom.point_to(spot_on(xr, (0.0, 0.0)))
    xr.wait(600)
    non.point_to(spot_on(xr, (0.4, -0.3)))
    xr.wait(600)
    assert_shows(xr, True, "after the hands pointed at it without pinching")
    assert_count(xr, 0, "after pointing at the button")
    press(xr, "non_dominant", (-0.35, 0.3), shows=False, what="the non-dominant hand, mirroring was on")
    assert_count(xr, 0, "after a pinch on the button")
    assert len(xr.drawn()) == drawn, (
        f"expected a pinch on the button to draw nothing; {len(xr.drawn()) - drawn} more objects are drawn"
    )
    non.rest()
    lone = draw(xr, "non_dominant", (-0.25 * s, 1.3, -0.33), [(0.0, 0.08, 0.0), (-s * 0.04, 0.0, 0.0)])
    found = assert_count(xr, 1, "after a pinch with mirroring off (a stroke, no reflection)")
    assert_follows(found[0], lone)
    drawn = len(xr.drawn())
    # A press held for a second while the hand moves toggles once and draws nothing.
    dom.point_to(spot_on(xr, (0.3, -0.25)))
    dom.start_select(HOLD)
    assert_shows(xr, True, "while the dominant hand's pinch on it is held (mirroring was off)")
    xr.wait(1000)
    dom.move_by((s * 0.1, -0.08, 0.06), speed=0.3)
    assert_count(xr, 1, "while a pinch that toggled the button is held and the hand moves")
    dom.end_select(HOLD)
    dom.move_by((-s * 0.05, 0.05, 0.0))
    assert_shows(xr, True, "after the held pinch on it was released")
    assert_count(xr, 1, "after a pinch on the button, moved while held, was released")
    assert len(xr.drawn()) == drawn, (
        f"expected a pinch on the button to draw nothing; {len(xr.drawn()) - drawn} more objects are drawn"
    )
    dom.rest()
    on = draw(xr, "dominant", (0.22 * s, 1.35, -0.33), [(-s * 0.07, 0.03, 0.0)])
    found = assert_count(xr, 3, "after a pinch with mirroring on again")
    made = [match(found, lone), *pair(found, on, "drawn after mirroring was turned on again")]
    assert_no_reflection(found, lone, "drawn while mirroring was off")
    # A stroke across the ray from the non-dominant hand to the button, 6 cm in front of it.
    non.rest()
    aim = spot_on(xr, (-0.3, -0.35))
    o = non.position
    k = 1.0 - 0.06 / math.dist(o, aim)
    q = tuple(o[i] + k * (aim[i] - o[i]) for i in range(3))
    dom.rest()
    start = (q[0] + 0.08 * s, q[1], q[2])
    aim_away(xr, "dominant")
    dom.move_hand(start, anchor="fingertip")
    [across] = begin(xr, "dominant")
    back = tuple(start[i] - across.path[-1][i] for i in range(3))
    move(xr, across, [back, (-0.16 * s, 0.0, 0.0)])
    end(xr, across)
    dom.rest()
    found = assert_count(xr, 5, "after a stroke drawn across the line to the button")
    made += pair(found, across, "drawn across the line to the button")
    gap = min(math.dist(q, p) for p in made[-2]["points"])
    assert gap <= 0.01, f"test set-up: the stroke meant to cross the ray passes {gap:.3f} m from it"
    press(xr, "non_dominant", (-0.3, -0.35), shows=False, what="aimed through a stroke in front of the button")
    assert_count(xr, 5, "after a pinch aimed at the button through a stroke")
    non.rest()
    off = draw(xr, "non_dominant", (-0.2 * s, 1.4, -0.32), [(0.0, -0.06, 0.0)])
    found = assert_count(xr, 6, "after a pinch with mirroring off again")
    assert_follows(match(found, off), off)
    assert_no_reflection(found, off, "drawn after mirroring was turned off again")
    assert_unmoved(xr, made, "after the button was toggled and more strokes drawn")
    assert_no_errors(xr)


def test_a_reflection_is_decided_when_its_pinch_starts(xr):
    xr.settle()
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    aim_away(xr, "dominant")
    dom.move_hand((0.25 * s, 1.3, -0.34), anchor="fingertip")
    [t] = begin(xr, "dominant")
    move(xr, t, [(-s * 0.06, 0.02, 0.0)])
    press(xr, "non_dominant", (0.2, 0.3), shows=False, what="by the other hand while a stroke is drawn")
    t.path.append(tuple(dom.fingertip))
    move(xr, t, [(0.0, 0.08, -0.02), (s * 0.05, 0.0, 0.0)])
    end(xr, t)
    found = assert_count(xr, 2, "after a stroke started with mirroring on, toggled off while it was drawn")
    kept = pair(found, t, "started with mirroring on (its reflection must cover the whole path)")
    aim_away(xr, "dominant")
    dom.move_hand((0.2 * s, 1.45, -0.36), anchor="fingertip")
    [u] = begin(xr, "dominant")
    assert_count(xr, 3, "once the fingers of a pinch with mirroring off have closed")
    move(xr, u, [(-s * 0.05, -0.03, 0.0)])
    non.rest()
    press(xr, "non_dominant", (-0.25, -0.3), shows=True, what="by the other hand while a stroke is drawn")
    u.path.append(tuple(dom.fingertip))
    move(xr, u, [(0.0, -0.06, 0.0)])
    end(xr, u)
    found = assert_count(xr, 3, "after a stroke started with mirroring off, toggled on while it was drawn")
    assert_follows(match(found, u), u)
    assert_no_reflection(found, u, "started with mirroring off")
    dom.rest()
    non.rest()
    press(xr, "dominant", (0.0, 0.0), shows=False, what="after the strokes were drawn")
    assert_count(xr, 3, "after toggling mirroring off (no reflection removed)")
    press(xr, "non_dominant", (0.35, -0.2), shows=True, what="after the strokes were drawn")
    found = assert_count(xr, 3, "after toggling mirroring on (no reflection added)")
    assert_no_reflection(found, u, "started with mirroring off, after toggling on")
    assert_unmoved(xr, list(kept), "after toggling")
    assert_no_errors(xr)


def test_the_mirror_stays_in_the_room_as_the_user_moves(xr):
    xr.settle()
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    box = button(xr).bbox
    first = draw(xr, "dominant", (0.22 * s, 1.35, -0.33), [(-s * 0.08, 0.04, 0.0), (0.0, 0.03, -0.03)])
    made = list(pair(assert_count(xr, 2, "after one pinch"), first, "drawn at the start"))
    dom.rest()
    xr.head.walk([(0.5 * s, 1.5, 0.3)])
    xr.head.rotate(yaw=40 * s)
    assert_unmoved(xr, made, "after the user walked away and turned")
    pose = xr.camera_pose()
    f = pose.forward
    ahead = (pose.position[0] + 0.3 * f[0], pose.position[1] - 0.12, pose.position[2] + 0.3 * f[2])
    away = draw(xr, "non_dominant", ahead, [(0.0, 0.06, 0.0), (0.05, 0.0, -0.02)])
    found = assert_count(xr, 4, "after a pinch away from the start")
    made += pair(found, away, "drawn after the user walked and turned (the mirror is the room's plane x = 0)")
    non.rest()
    now = button(xr).bbox
    moved = max(math.dist(box[0], now[0]), math.dist(box[1], now[1]))
    assert moved <= SLACK, f"expected the button to stay where it is in the room; it moved {moved:.3f} m"
    xr.head.look_at(centre(button(xr).bbox))
    xr.head.move((0.0, -0.3, 0.0), speed=0.5)  # crouches, looking at the button
    assert_unmoved(xr, made, "after the user crouched")
    press(xr, "dominant", (0.25, 0.25), shows=False, what="crouched, away from the start")
    pose = xr.camera_pose()
    f = pose.forward
    ahead = (pose.position[0] + 0.3 * f[0], pose.position[1] - 0.1, pose.position[2] + 0.3 * f[2])
    low = draw(xr, "non_dominant", ahead, [(0.0, 0.05, 0.0)])
    found = assert_count(xr, 5, "after a pinch while crouched, with mirroring off")
    assert_follows(match(found, low), low)
    made.append(match(found, low))
    dom.rest()
    non.rest()
    xr.head.move((0.0, 0.3, 0.0), speed=0.5)
    xr.head.walk([(0.0, 1.5, 0.0)])
    xr.head.look_at((0.0, 1.5, -1.0))
    xr.wait(3000)
    assert_count(xr, 5, "after the user came back")
    assert_unmoved(xr, made, "after the user stood up and walked back")
    assert_no_errors(xr)
