"""Runtime tests of the lasso-select app.

They check that
- six spheres (tag 'lasso-target', named A-F) float at the stated centres (within 1 cm), with a
  radius of about 3 cm, all unselected (emissive black) at the start; the count panel (tag
  'count-panel') is a 0.3 x 0.15 m rectangle centred at (0, 1.05, -1.2) that shows something (its
  picture is not blank) and counts 0; the cylinder is gone; hands moving about without pinching
  draw no lasso and select nothing;
- a pinch draws a lasso line (tag 'lasso') along the index fingertip while it is held: mid-pinch it
  is there and covers the path so far; after the release it passes within 1 cm (checked to
  1.25 cm) of every fingertip position of the pinch and strays no more than 1.5 cm (checked to
  1.7 cm) from that path and the closing piece from its end to its start; it is still there,
  unmoved, 0.75 s after the release and gone (removed, hidden or empty) 1.25 s after it, for a
  long and for a too-short loop, drawn by either hand; `state.hand` names the hand;
- releasing selects exactly the spheres whose centres, projected from the eye (the camera's pose
  at the release) onto the view, lie inside the loop closed from its end to its start (the
  expected set is computed from the fingertip path the test recorded, and every sphere is at
  least 1.5 cm, at the loop's distance, from the loop's edge, so a small difference in sampling
  decides nothing): a rectangle around A and B, then an L-shaped loop around A, D and E with B
  inside its bounding box (B is unselected again), then a loop around nothing (all unselected);
  selected spheres have emissive #ffcc00 and unselected #000000; `state.selected` and the panel's
  `state.count` agree, and the panel's picture changes with the count (and is the same again for
  the same count);
- the same holds from other head poses (stepped aside and turned, crouched and turned), where each
  loop selects a set that the starting eye would not have selected; and a loop drawn from one pose
  but released after the head moved elsewhere selects as seen from the eye at the release;
- a loop whose fingertip path is shorter than 15 cm (about 12 cm here, the fingers' closing
  included), and a pinch without any movement, change nothing (the same spheres stay selected,
  the panel shows the same); three sides of a square around one sphere (about 20 cm of path,
  closed by the release) select it alone.

Each test runs for a right- and a left-dominant user; each of the two hands draws in each test
that selects.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.session import rotate
from xrbench.xrtest.strokes import Trail, assert_follows, begin, end, move, path_length, read_strokes

pytestmark = pytest.mark.xr_scenes("empty")

TARGET, PANEL, LASSO = "lasso-target", "count-panel", "lasso"
CENTRES = {
    "A": (-0.30, 1.70, -1.20),
    "B": (0.00, 1.75, -1.60),
    "C": (0.30, 1.70, -1.20),
    "D": (-0.30, 1.35, -1.00),
    "E": (0.00, 1.30, -1.40),
    "F": (0.30, 1.35, -1.00),
}
RADIUS = 0.03
PLACE = 0.01  # metres: "within 1 cm"
PANEL_CENTRE = (0.0, 1.05, -1.2)
PANEL_SIZE = (0.3, 0.15)
PANEL_SLACK = 0.02
GLOW, DARK = "#ffcc00", "#000000"
DIST = 0.42  # metres from the eye, along the view, at which the loops are drawn
MARGIN = 0.015  # metres (at the loop's distance) between every sphere's sight line and the loop
SPEED = 0.4  # m/s of the drawing fingertip
STILL_THERE = 45  # frames after the release (0.75 s): the line is still shown
GONE = 75  # frames after the release (1.25 s): the line is gone
PICTURE_PIXELS = (192, 96)
CHANGED = 12  # pixels that must differ between pictures of the panel at different counts
SAME = 4  # pixels that may differ between pictures at the same count


# --- the eye and the view ---------------------------------------------------------------------


class Eye:
    """The camera's pose: a point and its right, up and forward axes."""

    def __init__(self, xr):
        pose = xr.camera_pose()
        self.p = tuple(pose.position)
        self.right = rotate(pose.quaternion, (1.0, 0.0, 0.0))
        self.up = rotate(pose.quaternion, (0.0, 1.0, 0.0))
        self.fwd = rotate(pose.quaternion, (0.0, 0.0, -1.0))

    def world(self, u: float, v: float, dist: float = DIST) -> tuple:
        """The point at `dist` along the view whose direction is (u, v) in tangent coordinates."""
        return tuple(self.p[i] + dist * (self.fwd[i] + u * self.right[i] + v * self.up[i]) for i in range(3))

    def view(self, q) -> tuple[float, float]:
        d = [q[i] - self.p[i] for i in range(3)]
        z = sum(d[i] * self.fwd[i] for i in range(3))
        assert z > 0.05, f"a point {q} is not in front of the eye {self.p}"
        return (sum(d[i] * self.right[i] for i in range(3)) / z, sum(d[i] * self.up[i] for i in range(3)) / z)


def _inside(pt, poly) -> bool:
    x, y = pt
    inside = False
    j = len(poly) - 1
    for i in range(len(poly)):
        (xi, yi), (xj, yj) = poly[i], poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def _edge_gap(pt, poly) -> float:
    best = math.inf
    for i in range(len(poly)):
        a, b = poly[i - 1], poly[i]
        ab = (b[0] - a[0], b[1] - a[1])
        n = ab[0] ** 2 + ab[1] ** 2
        t = 0.0 if n < 1e-12 else max(0.0, min(1.0, ((pt[0] - a[0]) * ab[0] + (pt[1] - a[1]) * ab[1]) / n))
        best = min(best, math.dist(pt, (a[0] + t * ab[0], a[1] + t * ab[1])))
    return best


def enclosed(eye: Eye, path: list, *, check_margin: bool = True) -> set[str]:
    """The spheres whose centres, seen from `eye`, lie inside the loop through `path` (closed)."""
    poly = [eye.view(q) for q in path]
    found = set()
    for name, c in CENTRES.items():
        pt = eye.view(c)
        if check_margin:
            gap = _edge_gap(pt, poly) * DIST
            assert gap >= MARGIN, f"test design: sphere {name} is only {gap:.3f} m from the loop's edge"
        if _inside(pt, poly):
            found.add(name)
    return found


# --- readers ----------------------------------------------------------------------------------


def spheres(xr) -> dict:
    nodes = xr.find_all_by_tag(TARGET)
    named = {}
    for n in nodes:
        name = n.state.get("name") if isinstance(n.state, dict) else None
        named[name] = n
    assert sorted(named) == sorted(CENTRES) and len(nodes) == 6, (
        f"expected six objects tagged {TARGET!r} named A-F; observed {[n.state for n in nodes]}"
    )
    return named


def selection(xr) -> set[str]:
    """The names of the glowing spheres (emissive #ffcc00); every other one must be black."""
    __tracebackhide__ = True
    chosen = set()
    for name, n in spheres(xr).items():
        assert n.emissive in (GLOW, DARK), (
            f"expected sphere {name}'s emissive colour {GLOW} (selected) or {DARK} (unselected); observed {n.emissive}"
        )
        assert n.visible, f"expected sphere {name} to stay visible"
        if n.emissive == GLOW:
            chosen.add(name)
        flag = n.state.get("selected")
        assert flag is (n.emissive == GLOW), (
            f"expected sphere {name}'s state.selected to be {n.emissive == GLOW} (emissive {n.emissive}); "
            f"observed {n.state}"
        )
    return chosen


def panel_count(xr) -> int:
    state = xr.find_by_tag(PANEL).state
    count = state.get("count") if isinstance(state, dict) else None
    assert isinstance(count, int) and not isinstance(count, bool), f"expected the panel's state.count; got {state}"
    return count


def _panel_shot(xr) -> np.ndarray:
    node = xr.find_by_tag(PANEL)
    assert node.bbox is not None, "the count panel has no geometry"
    lo, hi = node.bbox
    centre = tuple((lo[i] + hi[i]) / 2 for i in range(3))
    pic = xr.picture(centre, (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), PANEL_SIZE, PICTURE_PIXELS, distance=0.3)
    return np.asarray(pic, dtype=int)


def panel_picture(xr) -> np.ndarray:
    """The panel seen straight on from in front. Text laid out off the main thread (SDF text, for
    example) may take a moment of real time to show a new number: pictures are taken again, a
    frame apart, until two agree (a few tries at most)."""
    shot = _panel_shot(xr)
    for _ in range(4):
        time.sleep(0.05)
        xr.step(1)
        again = _panel_shot(xr)
        if differing(shot, again) <= SAME:
            return again
        shot = again
    return shot


def differing(a: np.ndarray, b: np.ndarray) -> int:
    return int((np.abs(a - b).max(axis=2) > 48).sum())


def assert_selected(xr, want: set[str], what: str) -> None:
    __tracebackhide__ = True
    got = selection(xr)
    assert got == want, f"expected {sorted(want) or 'none'} selected {what}; observed {sorted(got) or 'none'}"
    count = panel_count(xr)
    assert count == len(want), f"expected the panel's state.count {len(want)} {what}; observed {count}"


def lassos(xr) -> list[dict]:
    """Lasso lines that are still drawn (a hidden or emptied one counts as gone)."""
    return [s for s in read_strokes(xr, LASSO) if s["points"]]


# --- actions ----------------------------------------------------------------------------------


def draw_loop(xr, role: str, eye: Eye, corners: list, *, pre: tuple | None = None) -> Trail:
    """Pinch at the first corner (tangent coordinates of `eye`), move through the others, and keep
    pinching (the caller releases). Closing the fingers moves the fingertip: it goes back to the
    first corner, or, given that offset (`pre`), the hand starts that much short of it."""
    hand = xr.hand(role)
    first = eye.world(*corners[0])
    hand.move_hand(tuple(first[i] - (pre[i] if pre else 0.0) for i in range(3)), anchor="fingertip")
    [t] = begin(xr, role)
    for c in corners[1:] if pre else corners:
        goal = eye.world(*c)
        move(xr, t, [tuple(goal[i] - t.path[-1][i] for i in range(3))], speed=SPEED)
    return t


def release(xr, t: Trail) -> None:
    end(xr, t)  # steps while the fingers open
    t.allowed.append(t.path[0])  # the closing piece back to the start


def lasso_select(xr, role: str, eye: Eye, corners: list) -> tuple[Trail, set[str]]:
    t = draw_loop(xr, role, eye, corners)
    release(xr, t)
    return t, enclosed(eye, t.path)


def rect(names: list[str], eye: Eye, pad: float = 0.07) -> list:
    """A rectangle (tangent coordinates) around the named spheres as `eye` sees them."""
    pts = [eye.view(CENTRES[n]) for n in names]
    u0, u1 = min(p[0] for p in pts) - pad, max(p[0] for p in pts) + pad
    v0, v1 = min(p[1] for p in pts) - pad, max(p[1] for p in pts) + pad
    return [(u0, v1), (u1, v1), (u1, v0), (u0, v0), (u0, v1)]


def hands_down(xr) -> None:
    xr.hand("dominant").rest()
    xr.hand("non_dominant").rest()


def wait_gone(xr) -> None:
    xr.step(GONE)
    assert not lassos(xr), "expected every lasso line gone 1.25 s after its release"


# --- tests ------------------------------------------------------------------------------------


def test_spheres_and_panel_start_unselected(xr):
    xr.settle()
    named = spheres(xr)
    for name, n in named.items():
        assert n.bbox is not None, f"sphere {name} has no geometry"
        lo, hi = n.bbox
        centre = tuple((lo[i] + hi[i]) / 2 for i in range(3))
        off = math.dist(centre, CENTRES[name])
        assert off <= PLACE, f"expected sphere {name} centred at {CENTRES[name]}; observed {centre} ({off:.3f} m off)"
        size = [hi[i] - lo[i] for i in range(3)]
        assert all(abs(s - 2 * RADIUS) <= 0.012 for s in size), (
            f"expected sphere {name} of radius 3 cm; observed a box of {size}"
        )
    assert_selected(xr, set(), "at the start")
    panel = xr.find_by_tag(PANEL)
    assert panel.visible and panel.bbox is not None, "expected a visible count panel"
    lo, hi = panel.bbox
    centre = tuple((lo[i] + hi[i]) / 2 for i in range(3))
    assert math.dist(centre, PANEL_CENTRE) <= PANEL_SLACK, f"expected the panel centred at {PANEL_CENTRE}; got {centre}"
    w, h, d = (hi[i] - lo[i] for i in range(3))
    assert abs(w - PANEL_SIZE[0]) <= PANEL_SLACK and abs(h - PANEL_SIZE[1]) <= PANEL_SLACK and d <= 0.03, (
        f"expected an upright panel facing +z, 0.3 m wide and 0.15 m high; observed {w:.3f} x {h:.3f} x {d:.3f} m"
    )
    pic = panel_picture(xr)
    spread = int((np.abs(pic - np.median(pic.reshape(-1, 3), axis=0)).max(axis=2) > 48).sum())
    assert spread >= CHANGED, "expected the panel to show a number; its picture is blank"
    cylinders = [d for d in xr.drawn() if "Cylinder" in (d.geometry or "")]
    assert not cylinders, f"expected the cylinder removed; observed {cylinders}"
    assert not lassos(xr), "expected no lasso line at the start"
    s = 1.0 if xr.handedness("dominant") == "right" else -1.0
    dom, other = xr.hand("dominant"), xr.hand("non_dominant")
    for k, pose in enumerate(("neutral", "pointing", "relaxed", "fist")):
        dom.set_pose(pose)
        other.set_pose(pose)
        dom.move_hand((0.2 * s - 0.08 * k * s, 1.3 + 0.06 * k, -0.42), anchor="fingertip", speed=0.5)
        other.move_hand((-0.15 * s, 1.55 - 0.06 * k, -0.4), anchor="fingertip", speed=0.5)
        assert not lassos(xr), f"expected no lasso line from {pose} hands moving without a pinch"
    assert_selected(xr, set(), "after hands moved about without pinching")
    assert differing(pic, panel_picture(xr)) <= SAME, "expected the panel to look the same without any lasso"
    assert_no_errors(xr)


def test_the_lasso_line_follows_the_fingertip_and_disappears_after_a_second(xr):
    xr.settle()
    eye = Eye(xr)
    corners = rect(["D", "E"], eye)
    t = draw_loop(xr, "dominant", eye, corners[:3])
    [mid] = lassos(xr)
    assert_follows(mid, Trail(t.role, t.handedness, t.path, t.allowed + t.path))
    assert mid["state"].get("hand") == t.handedness, f"expected state.hand {t.handedness!r}; got {mid['state']}"
    for c in corners[3:]:
        goal = eye.world(*c)
        move(xr, t, [tuple(goal[i] - t.path[-1][i] for i in range(3))], speed=SPEED)
    [grown] = lassos(xr)
    assert len(grown["points"]) > len(mid["points"]), "expected the lasso line to grow while the pinch is held"
    released = xr.events("select_end")
    release(xr, t)
    ends = [e for e in xr.events("select_end") if e not in released]
    assert ends, "expected the release to reach the app"
    [after] = lassos(xr)
    assert_follows(after, t)
    frame = ends[-1].frame
    xr.step(max(0, frame + STILL_THERE - xr.frame))
    [kept] = lassos(xr)
    assert_follows(kept, t)
    xr.step(max(0, frame + GONE - xr.frame))
    assert not lassos(xr), "expected the lasso line gone 1.25 s after the release"
    # The other hand's lasso, too short to select: drawn and removed the same way.
    xr.hand("dominant").rest()
    eye = Eye(xr)
    small = draw_loop(xr, "non_dominant", eye, [(0.0, 0.0), (0.1, 0.0), (0.1, 0.06)])
    [line] = lassos(xr)
    assert line["state"].get("hand") == small.handedness, f"expected state.hand {small.handedness!r}"
    released = xr.events("select_end")
    release(xr, small)
    frame = [e for e in xr.events("select_end") if e not in released][-1].frame
    [after] = lassos(xr)
    assert_follows(after, small)
    xr.step(max(0, frame + STILL_THERE - xr.frame))
    assert lassos(xr), "expected the short lasso's line still shown 0.75 s after the release"
    xr.step(max(0, frame + GONE - xr.frame))
    assert not lassos(xr), "expected the short lasso's line gone 1.25 s after the release"
    assert_no_errors(xr)


def test_release_selects_the_spheres_inside_the_loop(xr):
    xr.settle()
    start = panel_picture(xr)
    eye = Eye(xr)
    _, want = lasso_select(xr, "dominant", eye, rect(["A", "B"], eye))
    assert want == {"A", "B"}, f"test design: the first loop encloses {want}"
    assert_selected(xr, want, "after a loop around A and B")
    two = panel_picture(xr)
    assert differing(start, two) >= CHANGED, "expected the panel to show the new count (2) after the release"
    wait_gone(xr)
    xr.hand("dominant").rest()
    # An L-shaped loop around A, D and E: B lies inside its bounding box, outside the loop.
    ell = [(-0.36, 0.25), (-0.15, 0.25), (-0.15, -0.06), (0.09, -0.06), (0.09, -0.23), (-0.36, -0.23), (-0.36, 0.2)]
    _, want = lasso_select(xr, "non_dominant", eye, ell)
    assert want == {"A", "D", "E"}, f"test design: the L-shaped loop encloses {want}"
    box = (min(u for u, _ in ell), max(u for u, _ in ell), min(v for _, v in ell), max(v for _, v in ell))
    bu, bv = eye.view(CENTRES["B"])
    assert box[0] < bu < box[1] and box[2] < bv < box[3], "test design: B is inside the L's bounding box"
    assert_selected(xr, want, "after an L-shaped loop around A, D and E (B, inside its bounding box, is not)")
    three = panel_picture(xr)
    assert differing(two, three) >= CHANGED, "expected the panel to show the new count (3) after the release"
    wait_gone(xr)
    xr.hand("non_dominant").rest()
    _, want = lasso_select(
        xr, "dominant", eye, [(-0.12, 0.07), (0.12, 0.07), (0.12, -0.05), (-0.12, -0.05), (-0.12, 0.07)]
    )
    assert want == set(), f"test design: the empty loop encloses {want}"
    assert_selected(xr, set(), "after a loop around no sphere")
    hands_down(xr)
    wait_gone(xr)
    assert differing(start, panel_picture(xr)) <= SAME, "expected the panel to show 0 again, as at the start"
    assert_no_errors(xr)


def test_a_lasso_shorter_than_15_cm_changes_nothing(xr):
    xr.settle()
    eye = Eye(xr)
    t, want = lasso_select(xr, "non_dominant", eye, rect(["D", "E", "F"], eye))
    assert want == {"D", "E", "F"}, f"test design: the loop encloses {want}"
    assert_selected(xr, want, "after a loop around D, E and F")
    wait_gone(xr)
    xr.hand("non_dominant").rest()
    before = panel_picture(xr)
    # A pinch without movement, then about 12 cm of path (the fingers closing, then 8 cm) around
    # the sight line of A.
    au, av = eye.view(CENTRES["A"])
    h = 0.010 / DIST
    square = [(au - h, av + h), (au + h, av + h), (au + h, av - h), (au - h, av - h), (au - h, av + h)]
    xr.hand("dominant").move_hand(eye.world(*square[0]), anchor="fingertip")
    [t] = begin(xr, "dominant")
    release(xr, t)
    xr.step(20)
    assert_selected(xr, {"D", "E", "F"}, "after a pinch without movement (too short: nothing changes)")
    wait_gone(xr)
    pre = tuple(t.path[0][i] - t.allowed[0][i] for i in range(3))  # where closing the fingers moves the tip
    t = draw_loop(xr, "dominant", eye, square, pre=pre)
    release(xr, t)
    assert path_length(t.path) < 0.085, f"test design: the short loop is {path_length(t.path):.3f} m long"
    assert enclosed(eye, t.path, check_margin=False) == {"A"}, "test design: the short loop encloses A"
    assert_selected(xr, {"D", "E", "F"}, "after a loop of about 10 cm (too short: nothing changes)")
    hands_down(xr)
    wait_gone(xr)
    assert differing(before, panel_picture(xr)) <= SAME, "expected the panel's number unchanged by short loops"
    # Three sides of a square around the sight line of C (about 20 cm of path): the release closes
    # the fourth side, and the loop selects C alone.
    cu, cv = eye.view(CENTRES["C"])
    h = 0.032 / DIST
    t, want = lasso_select(
        xr, "non_dominant", eye, [(cu + h, cv + h), (cu - h, cv + h), (cu - h, cv - h), (cu + h, cv - h)]
    )
    assert want == {"C"} and path_length(t.path) > 0.18, "test design: the open loop around C"
    assert_selected(xr, {"C"}, "after an open loop of about 20 cm around C, closed by the release")
    hands_down(xr)
    wait_gone(xr)
    assert differing(before, panel_picture(xr)) >= CHANGED, "expected the panel to show the new count (1)"
    assert_no_errors(xr)


def test_the_selection_is_seen_from_the_eye_at_the_release(xr):
    xr.settle()
    start = Eye(xr)
    # Stepped aside and turned: a loop around B and C as this eye sees them.
    xr.head.move((0.3, 0.0, -0.1), speed=1.0)
    xr.head.look_at((0.0, 1.5, -1.3))
    eye = Eye(xr)
    t, want = lasso_select(xr, "dominant", eye, rect(["B", "C"], eye))
    assert want == {"B", "C"}, f"test design: the loop encloses {want} from aside"
    assert enclosed(start, t.path, check_margin=False) != want, "test design: the start eye sees the same"
    assert_selected(xr, want, "after a loop around B and C, as seen from where the user stepped to")
    wait_gone(xr)
    hands_down(xr)
    # Crouched, turned the other way: a loop around B and E with the other hand.
    xr.head.move((-0.55, -0.3, 0.15), speed=1.0)
    xr.head.look_at((0.0, 1.5, -1.3))
    eye = Eye(xr)
    t = draw_loop(xr, "non_dominant", eye, rect(["B", "E"], eye))
    here = enclosed(eye, t.path)
    assert here == {"B", "E"}, f"test design: the loop encloses {here} from the crouch"
    assert enclosed(start, t.path, check_margin=False) != here, "test design: the start eye sees the same"
    # Still pinching, the user stands up and steps to the right (the hand goes along, and the
    # fingertip then goes back to where it was): the loop is seen from there.
    hand = xr.hand("non_dominant")
    tip = hand.fingertip
    for _ in range(6):
        xr.head.move((0.075, 0.05, 0.0), speed=1.0)
        t.path.append(tuple(hand.fingertip))
    move(xr, t, [tuple(tip[i] - t.path[-1][i] for i in range(3))], speed=SPEED)
    later = Eye(xr)
    release(xr, t)
    want = enclosed(later, t.path)
    assert want != here, f"test design: the loop encloses {want} from both places"
    assert_selected(xr, want, "after a loop released after the head moved (seen from the eye at the release)")
    assert_no_errors(xr)
