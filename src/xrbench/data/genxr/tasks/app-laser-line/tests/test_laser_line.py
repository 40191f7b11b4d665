"""Runtime tests of the straight-line tool.

They check that
- the app starts with nothing drawn (the cylinder is gone) and that hands of both sides moving
  about without pinching draw nothing;
- a pinch starts a line (an object tagged 'line') at the index fingertip where the pinch began;
  while it is held, in every frame as the hand moves, the line is a straight segment (nothing of
  it more than 1 cm from it, checked to 1.2 cm) from that start point to the current index
  fingertip (within 1 cm, checked to 1.2 cm), and `state.hand` names the hand;
- the release commits the line as its last preview was (each end within 1 cm of it), and the
  committed line does not move afterwards while the hands move on and the user walks and turns;
- at the release, lines of about 1 cm are discarded and lines of about 3.5 cm are kept, by either
  hand;
- both hands pinching at once draw two lines, each following its own fingertip, and each pinch
  draws a new line while the earlier ones stay.

Each test runs for a right- and a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.strokes import assert_unmoved, begin, end, read_strokes, side

TAG = "line"
TOL = 0.012  # "within 1 cm", with 2 mm of slack
FIXED = 0.003  # metres a committed line may move afterwards

pytestmark = pytest.mark.xr_scenes("empty")


def fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def lines(xr) -> list[dict]:
    return read_strokes(xr, TAG)


def assert_count(xr, n: int, what: str) -> list[dict]:
    __tracebackhide__ = True
    found = lines(xr)
    assert len(found) == n, f"expected {n} line(s) {what}; observed {len(found)}"
    return found


def seg_dist(p, a, b) -> float:
    ab = [b[i] - a[i] for i in range(3)]
    ap = [p[i] - a[i] for i in range(3)]
    n = sum(c * c for c in ab)
    t = 0.0 if n < 1e-12 else max(0.0, min(1.0, sum(ab[i] * ap[i] for i in range(3)) / n))
    return math.dist(p, [a[i] + t * ab[i] for i in range(3)])


def assert_segment(line: dict, start, stop, what: str) -> None:
    """The line is drawn as the segment start-stop: both ends there, nothing off it."""
    __tracebackhide__ = True
    pts = line["points"]
    assert pts, f"expected a drawn line {what}; observed a tagged line with no geometry (state {line['state']})"
    for name, p in (("start", start), ("end", stop)):
        gap = min(math.dist(p, q) for q in pts)
        assert gap <= TOL, (
            f"expected the line's {name} at {fmt(p)} {what} (within 1 cm); nothing of it within {gap:.3f} m of it"
        )
    far = max(pts, key=lambda q: seg_dist(q, start, stop))
    d = seg_dist(far, start, stop)
    assert d <= TOL, (
        f"expected the line drawn as the straight segment {fmt(start)}-{fmt(stop)} {what}; observed a point at "
        f"{fmt(far)}, {d:.3f} m from it"
    )


def assert_hand(line: dict, hand: str) -> None:
    __tracebackhide__ = True
    state = line["state"] if isinstance(line["state"], dict) else {}
    assert state.get("hand") == hand, f"expected state.hand {hand!r}; observed state {line['state']}"


def nearest(found: list[dict], p) -> dict:
    return min(found, key=lambda ln: min(math.dist(p, q) for q in ln["points"]) if ln["points"] else 9.0)


def pick_start(line: dict, trail, tip) -> tuple:
    """The line's start: its point farthest from the fingertip now, which must be within 1 cm of where the
    index fingertip was while the pinch began (the fingers closing); returns that fingertip position."""
    __tracebackhide__ = True
    pts = line["points"]
    assert pts, f"expected a drawn line for the {trail.role} hand; observed one with no geometry"
    far = max(pts, key=lambda q: math.dist(q, tip))
    best = min(trail.allowed, key=lambda p: math.dist(p, far))
    gap = math.dist(best, far)
    assert gap <= TOL, (
        f"expected the {trail.role} hand's line to start at its index fingertip where the pinch began "
        f"(about {fmt(best)}); observed its start at {fmt(far)}, {gap:.3f} m away"
    )
    return best


def step_to(xr, trail, goal, others=()) -> tuple:
    """Move the pinching fingertip to `goal` over a frame or two; returns the fingertip now."""
    xr.hand(trail.role).move_hand(goal, anchor="fingertip", speed=0.3)
    tip = tuple(xr.hand(trail.role).fingertip)
    trail.path.append(tip)
    return tip


def test_nothing_is_drawn_without_a_pinch(xr):
    xr.step(2)
    assert_count(xr, 0, "at the start")
    visible = xr.drawn()
    assert not visible, f"expected nothing drawn at the start (the cylinder removed); observed {visible}"
    dom, other = xr.hand("dominant"), xr.hand("non_dominant")
    s = side(xr, "dominant")
    for k, pose in enumerate(("neutral", "pointing", "relaxed", "fist")):
        dom.set_pose(pose)
        other.set_pose(pose)
        dom.move_hand((0.25 * s - 0.1 * k * s, 1.3 + 0.05 * k, -0.4), anchor="fingertip", speed=0.5)
        other.move_hand((-0.2 * s, 1.45 - 0.05 * k, -0.35 - 0.03 * k), anchor="fingertip", speed=0.5)
        assert_count(xr, 0, f"after {pose} hands moved about without pinching")
    visible = xr.drawn()
    assert not visible, f"expected nothing drawn by hands moving without a pinch; observed {visible}"
    assert_no_errors(xr)


def test_preview_follows_the_fingertip_every_frame(xr):
    xr.step(1)
    s = side(xr, "dominant")
    hand = xr.hand("dominant")
    hand.move_hand((0.2 * s, 1.35, -0.4), anchor="fingertip")
    assert_count(xr, 0, "before the pinch")
    [t] = begin(xr, "dominant")
    [first] = assert_count(xr, 1, "as soon as the pinch began (the preview, however short)")
    assert_hand(first, t.handedness)
    seen = [(first, t.path[-1])]
    base = t.path[-1]
    goals = [(base[0] - s * 0.005 * k, base[1] + 0.003 * k, base[2]) for k in range(1, 25)]
    goals += [(goals[-1][0], goals[-1][1] - 0.006 * k, goals[-1][2] - 0.004 * k) for k in range(1, 16)]
    for k, goal in enumerate(goals):
        tip = step_to(xr, t, goal)
        [line] = assert_count(xr, 1, f"while the pinch is held (step {k})")
        assert line["uuid"] == first["uuid"], "expected one line, the same object, while the pinch is held"
        seen.append((line, tip))
    start = pick_start(seen[24][0], t, seen[24][1])
    for k, (line, tip) in enumerate(seen):
        assert_segment(line, start, tip, f"while the pinch is held, frame step {k} (fingertip at {fmt(tip)})")
    assert_hand(seen[-1][0], t.handedness)
    end(xr, t)
    assert_no_errors(xr)


def test_release_commits_the_last_preview(xr):
    xr.step(1)
    s = side(xr, "dominant")
    hand = xr.hand("dominant")
    hand.move_hand((0.15 * s, 1.3, -0.45), anchor="fingertip")
    [t] = begin(xr, "dominant")
    assert_count(xr, 1, "once the pinch began")
    step_to(xr, t, (t.path[-1][0] - 0.12 * s, t.path[-1][1] + 0.1, t.path[-1][2] - 0.05))
    xr.step(2)
    last = tuple(hand.fingertip)
    [held] = assert_count(xr, 1, "just before the release")
    start = pick_start(held, t, last)
    assert_segment(held, start, last, "just before the release")
    end(xr, t)
    [done] = assert_count(xr, 1, "after the release")
    assert_segment(done, start, last, "after the release (the preview as it was at the release)")
    hand.move_by((s * 0.1, -0.15, 0.1))
    hand.move_by((-s * 0.2, 0.1, -0.05))
    xr.wait(300)
    assert_unmoved(xr, [done], "after the hand moved on released", tag=TAG, still=FIXED)
    assert_no_errors(xr)


def short_or_long(xr, role: str, length: float) -> dict:
    """Pinch, bring the fingertip back to `length` from the line's start, release; the preview just before."""
    s = side(xr, role)
    before = len(lines(xr))
    [t] = begin(xr, role)
    found = lines(xr)
    assert len(found) == before + 1, f"expected the {role} hand's preview once its pinch began; observed none"
    start = pick_start(found[-1], t, t.path[-1])
    direction = (-0.8 * s, 0.6, 0.0)
    step_to(xr, t, tuple(start[i] + length * direction[i] for i in range(3)))
    xr.step(2)
    held = lines(xr)
    assert len(held) == before + 1, f"expected the {role} hand's preview while its pinch is held; observed none"
    end(xr, t)
    xr.step(5)
    return held[-1]


def test_short_lines_are_discarded(xr):
    xr.step(1)
    for role, place in (("dominant", (0.2, 1.35, -0.4)), ("non_dominant", (0.2, 1.3, -0.45))):
        s = side(xr, role)
        hand = xr.hand(role)
        hand.move_hand((place[0] * s, place[1], place[2]), anchor="fingertip")
        before = len(lines(xr))
        short_or_long(xr, role, 0.008)
        assert_count(xr, before, f"after the {role} hand released a line about 1 cm long (discarded)")
        if before == 0:
            visible = xr.drawn()
            assert not visible, f"expected nothing left of a discarded line; observed {visible}"
        hand.move_by((0.0, -0.08, 0.0))
        short_or_long(xr, role, 0.035)
        assert_count(xr, before + 1, f"after the {role} hand released a line about 3.5 cm long (kept)")
        hand.move_by((0.0, 0.1, 0.05))
    assert_no_errors(xr)


def test_both_hands_draw_at_once(xr):
    xr.step(1)
    s = side(xr, "dominant")
    xr.hand("dominant").move_hand((0.2 * s, 1.35, -0.4), anchor="fingertip")
    xr.hand("non_dominant").move_hand((-0.2 * s, 1.35, -0.4), anchor="fingertip")
    dom, other = begin(xr, "dominant", "non_dominant")  # both pinch in the same frame
    found = assert_count(xr, 2, "as soon as both hands pinched")
    a, b = nearest(found, dom.path[-1]), nearest(found, other.path[-1])
    assert a["uuid"] != b["uuid"], "expected each hand to draw its own line"
    assert_hand(a, dom.handedness)
    assert_hand(b, other.handedness)
    d0, o0 = dom.path[-1], other.path[-1]
    seen = []
    for k in range(1, 15):
        tip_d = step_to(xr, dom, (d0[0], d0[1] + 0.008 * k, d0[2] - 0.003 * k))
        tip_o = step_to(xr, other, (o0[0] + 0.007 * k * s, o0[1] - 0.005 * k, o0[2]))
        now = {ln["uuid"]: ln for ln in assert_count(xr, 2, f"while both hands pinch (step {k})")}
        assert a["uuid"] in now and b["uuid"] in now, "expected the same two lines while both pinches are held"
        seen.append((k, now[a["uuid"]], tip_d, now[b["uuid"]], tip_o))
    sa = pick_start(seen[-1][1], dom, seen[-1][2])
    sb = pick_start(seen[-1][3], other, seen[-1][4])
    for k, la, tip_d, lb, tip_o in seen:
        assert_segment(la, sa, tip_d, f"for the {dom.role} hand, both pinching, step {k}")
        assert_segment(lb, sb, tip_o, f"for the {other.role} hand, both pinching, step {k}")
    xr.step(2)
    last_d, last_o = tuple(xr.hand(dom.role).fingertip), tuple(xr.hand(other.role).fingertip)
    end(xr, dom, other)
    now = {ln["uuid"]: ln for ln in assert_count(xr, 2, "after both hands released")}
    assert_segment(now[a["uuid"]], sa, last_d, f"for the {dom.role} hand after the release")
    assert_segment(now[b["uuid"]], sb, last_o, f"for the {other.role} hand after the release")
    assert_no_errors(xr)


def test_lines_stay_in_the_room(xr):
    xr.step(1)
    made = []
    for k, (role, place, delta) in enumerate(
        (
            ("dominant", (0.2, 1.35, -0.4), (-0.1, 0.05, 0.0)),
            ("non_dominant", (0.2, 1.25, -0.45), (0.0, 0.08, -0.05)),
            ("dominant", (0.1, 1.45, -0.35), (0.05, -0.1, 0.0)),
        )
    ):
        s = side(xr, role)
        xr.hand(role).move_hand((place[0] * s, place[1], place[2]), anchor="fingertip")
        [t] = begin(xr, role)
        base = t.path[-1]
        step_to(xr, t, (base[0] + delta[0] * s, base[1] + delta[1], base[2] + delta[2]))
        end(xr, t)
        xr.hand(role).move_by((0.0, -0.1, 0.05))
        found = assert_count(xr, k + 1, f"after {k + 1} pinches (one more line each time)")
        made = found
    xr.hand("dominant").rest()
    xr.hand("non_dominant").rest()
    xr.head.walk([(0.4, 1.5, 0.3)])
    assert_unmoved(xr, made, "after the user walked away", tag=TAG, still=FIXED)
    xr.head.rotate(yaw=70)
    xr.head.walk([(-0.3, 1.5, -0.2)])
    assert_unmoved(xr, made, "after the user turned and walked on", tag=TAG, still=FIXED)
    xr.wait(10_000)
    assert_count(xr, 3, "ten seconds later")
    assert_unmoved(xr, made, "ten seconds later", tag=TAG, still=FIXED)
    assert_no_errors(xr)
