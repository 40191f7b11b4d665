"""Runtime tests of air sketching with an Undo / Redo / Clear panel.

Strokes are read from their vertices (objects tagged 'stroke'; a stroke is shown when it has
visible geometry), the panel and its buttons from their meshes' world boxes, every sound from the
harness's own log of the sounds the page starts (`xr.audio()`: frame, frequency, scheduled delay,
length) and the frame of each pinch from the harness's event record (XR Blocks' `select_start`).

They check that
- the app starts with no stroke, no cylinder and no sound; the panel's centre is 0.4-0.9 m ahead,
  at most 0.3 m to the side and 0.1-0.5 m below eye height (each within 2 cm); the three buttons are
  shown meshes at least 6 cm wide and 4 cm high (checked to 5 mm), side by side, not overlapping and
  within the panel's outline (1.5 cm of slack);
- a pinch with the ray away from the panel draws a stroke that is there once the fingers have closed,
  follows the index fingertip (within 1 cm of its path, nothing more than 1.5 cm from it, with the
  strokes kit's slack) and ends at the release; the other hand draws the same way; both hands pinching
  in the same frame draw two strokes; drawing is silent;
- a press (ray on a button, off its centre, either hand) acts by the frame after XR Blocks reports
  the pinch, once however long it is held: Undo hides the most recently started stroke still shown
  (across hands, by the start of the pinch, also when that pinch ended first), Redo shows the last
  undone stroke again within 3 mm of where it was, in reverse order of the undos; a new stroke
  discards the redo history; Clear removes shown and undone strokes for good; a press with nothing
  to act on changes nothing (Clear with nothing shown keeps the redo history);
- each press that acts plays exactly one 1000 Hz tone (2 %) lasting 0.03-0.12 s and each press with
  nothing to act on one 250 Hz tone lasting 0.15-0.35 s, starting in the frame of the pinch or the
  next with no scheduled delay; nothing else sounds;
- pointing at the buttons without pinching does nothing; pinches on a button or on the panel outside
  the buttons (held while the hand moves) draw nothing, and the latter also change nothing and play
  nothing;
- strokes stay where they were drawn while the user walks and turns, the panel stays put, and the
  buttons and drawing work the same way from there.

Each test runs in the living room, for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.strokes import Trail, assert_follows, begin, end, match, move, read_strokes, side

pytestmark = pytest.mark.xr_scenes("living_room")

PANEL = "undo-panel"
BUTTONS = {"undo": "undo-button", "redo": "redo-button", "clear": "clear-button"}
STROKE = "stroke"
AHEAD = (0.4, 0.9)
SIDE_MAX = 0.3
BELOW = (0.1, 0.5)
SLACK = 0.02
MIN_W, MIN_H = 0.055, 0.035  # "at least 6 cm wide and 4 cm high", with 5 mm of slack
OUTLINE = 0.015  # metres a button may reach past the panel's box
OVERLAP = 0.003
PLACE = 0.003  # "within 3 mm" (redo brings a stroke back where it was)
CLICK = (1000.0, 0.03, 0.12)  # Hz, shortest and longest length (s)
LOW = (250.0, 0.15, 0.35)
PITCH_TOL = 0.02
START_DELAY = 0.005  # s: "not scheduled for later"
LATE_FRAMES = 1  # "in the frame XR Blocks reports the pinch or at the latest in the next frame"
HOLD = 24  # frames a press is held after it acts (0.4 s)
SETTLE = 30  # frames a pinch may take to close

Vec = tuple[float, float, float]


def _fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def centre(box) -> Vec:
    return tuple((box[0][i] + box[1][i]) / 2 for i in range(3))  # type: ignore[return-value]


# The world box of the tagged object's own geometry (not its children): [[lo], [hi]] or null.
_OWN_BOX_JS = """
(h, tag) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  let found = null;
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!found && d && String(d.tag) === tag) found = o;
  });
  if (!found || !found.geometry || !found.geometry.attributes || !found.geometry.attributes.position) return null;
  const g = found.geometry;
  const box = new THREE.Box3().setFromBufferAttribute(g.attributes.position);
  box.applyMatrix4(found.matrixWorld);
  return [box.min.toArray(), box.max.toArray()];
}
"""


def own_box(xr, tag: str):
    box = xr.probe(_OWN_BOX_JS, tag)
    assert box, f"expected the object tagged {tag!r} to be a mesh with geometry of its own; it has none"
    return tuple(box[0]), tuple(box[1])  # type: ignore[return-value]


# --- reading --------------------------------------------------------------------------------------


def shown(xr) -> list[dict]:
    """Strokes with visible geometry."""
    return [s for s in read_strokes(xr, STROKE) if s["points"]]


def _sample(points: list, n: int = 300) -> list:
    return points[:: max(1, len(points) // n)]


def _gap(p, points) -> float:
    return min(math.dist(p, q) for q in points)


def distance(a: dict, b: dict) -> float:
    """How far apart two strokes' point sets are (symmetric, sampled)."""
    pa, pb = _sample(a["points"]), _sample(b["points"])
    return max(max(_gap(p, pb) for p in pa), max(_gap(q, pa) for q in pb))


def assert_shown(xr, expected: dict[str, dict], what: str) -> None:
    """Exactly the strokes of `expected` (name -> stroke as read when drawn) are shown, each within
    3 mm of where it was drawn."""
    __tracebackhide__ = True
    now = shown(xr)
    names = ", ".join(expected) or "none"
    assert len(now) == len(expected), f"expected {len(expected)} stroke(s) shown {what} ({names}); observed {len(now)}"
    left = list(now)
    for name, old in expected.items():
        best = min(left, key=lambda s: distance(s, old))
        d = distance(best, old)
        assert d <= PLACE, (
            f"expected stroke {name} shown {what}, where it was drawn; the nearest shown stroke lies up to "
            f"{d:.3f} m from it (shown: {len(now)})"
        )
        left.remove(best)


def sounds(xr, since: int) -> list[dict]:
    return xr.audio()[since:]


def length(xr, e: dict) -> float | None:
    ends = []
    if e["duration"] is not None:
        ends.append(e["duration"])
    if e["stop_frame"] is not None:
        ends.append((e["stop_frame"] - e["frame"]) * xr.dt_ms / 1000 + (e["stop_delay"] or 0.0))
    return min(ends) if ends else None


def describe(xr, found: list[dict]) -> str:
    out = []
    for e in found[:10]:
        hz = f"{e['frequency']:.0f} Hz" if e["frequency"] else f"a {e['kind']} sound of unknown pitch"
        n = length(xr, e)
        out.append(
            f"{hz} in frame {e['frame']} (start delay {e['start_delay'] or 0:.3f} s, "
            f"{'still playing' if n is None else f'{n:.3f} s long'})"
        )
    return "; ".join(out) or "nothing"


def assert_silent(xr, since: int, what: str) -> None:
    __tracebackhide__ = True
    found = sounds(xr, since)
    assert not found, f"expected no sound {what}; observed {describe(xr, found)}"


def assert_tone(xr, since: int, frame: int, acted: bool, what: str) -> None:
    """Exactly one sound since `since`: the click (acted) or the low tone, started at once."""
    __tracebackhide__ = True
    hz, shortest, longest = CLICK if acted else LOW
    name = "click" if acted else "low tone (nothing to act on)"
    found = sounds(xr, since)
    assert len(found) == 1, (
        f"expected one {name} of {hz:.0f} Hz {what}, in frame {frame} or {frame + LATE_FRAMES}; observed "
        f"{len(found)} sound(s): {describe(xr, found)}"
    )
    e = found[0]
    assert e["frequency"] and abs(e["frequency"] - hz) <= PITCH_TOL * hz, (
        f"expected the {name} {what} at {hz:.0f} Hz (+-{PITCH_TOL:.0%}); observed {describe(xr, found)}"
    )
    assert frame <= e["frame"] <= frame + LATE_FRAMES and (e["start_delay"] or 0.0) <= START_DELAY, (
        f"expected the {name} {what} to start at once, in frame {frame} (the pinch) or {frame + LATE_FRAMES}; "
        f"observed {describe(xr, found)}"
    )
    n = length(xr, e)
    assert n is not None and shortest <= n <= longest, (
        f"expected the {name} {what} to stop {shortest}-{longest} s after it starts; observed {describe(xr, found)}"
    )


# --- acting ---------------------------------------------------------------------------------------


def button_spot(xr, button: str, spot: tuple[float, float]) -> Vec:
    """A point of the button, `spot` of the way from its centre to its edges (across, up)."""
    lo, hi = own_box(xr, BUTTONS[button])
    c = centre((lo, hi))
    return (c[0] + spot[0] * (hi[0] - lo[0]) / 2, c[1] + spot[1] * (hi[1] - lo[1]) / 2, c[2])


def pinch_frame(xr, role: str, after: int) -> int:
    """Step until XR Blocks reports the hand's pinch; its frame."""
    h = xr.handedness(role)
    for _ in range(SETTLE):
        xr.step(1)
        frames = [e.frame for e in xr.events("select_start") if e.hand == h and e.frame > after]
        if frames:
            return frames[0]
    raise AssertionError(f"harness: no pinch of the {h} hand was reported within {SETTLE} frames")


def pinch_at(xr, role: str, point: Vec, *, moved: Vec | None = None) -> tuple[int, int]:
    """Point the hand's ray at `point` and pinch; steps to the frame after the pinch is reported.
    Returns (pinch frame, audio index before it). The pinch stays held."""
    hand = xr.hand(role)
    hand.rest()
    hand.point_to(point)
    since = len(xr.audio())
    f0 = xr.frame
    hand.start_select(frames=0)
    frame = pinch_frame(xr, role, f0)
    xr.step(LATE_FRAMES)
    return frame, since


def release(xr, role: str) -> None:
    xr.hand(role).end_select(HOLD)


def press(xr, role: str, button: str, expected: dict[str, dict], acted: bool, what: str, spot=(0.35, 0.3)) -> None:
    """A press of `button`: by the frame after the pinch the shown strokes are `expected`; held and
    released, they stay so; one click (acted) or one low tone."""
    __tracebackhide__ = True
    h = xr.handedness(role)
    label = f"after the {h} hand pressed {button.capitalize()} {what}"
    frame, since = pinch_at(xr, role, button_spot(xr, button, spot))
    assert_shown(xr, expected, f"by the frame after the {h} hand's pinch on {button.capitalize()} {what}")
    xr.step(HOLD)
    release(xr, role)
    assert_shown(xr, expected, label + " (held and released)")
    assert_tone(xr, since, frame, acted, label)


def aim_away(xr, role: str) -> None:
    """Point the hand's ray down, outwards and back, away from the panel in front."""
    hand = xr.hand(role)
    f = xr.camera_pose().forward
    right = (-f[2], 0.0, f[0])
    n = math.hypot(right[0], right[2]) or 1.0
    s = side(xr, role)
    p = hand.position
    hand.point_to((p[0] + s * 0.6 * right[0] / n - 0.3 * f[0], 0.0, p[2] + s * 0.6 * right[2] / n - 0.3 * f[2]))


def head_point(xr, right: float, up: float, ahead: float) -> Vec:
    """A point in the head's frame (metres to the right, up and ahead, level)."""
    pose = xr.camera_pose()
    f = pose.forward
    n = math.hypot(f[0], f[2]) or 1.0
    fx, fz = f[0] / n, f[2] / n
    rx, rz = -fz, fx
    p = pose.position
    return (p[0] + right * rx + ahead * fx, p[1] + up, p[2] + right * rz + ahead * fz)


def draw(xr, role: str, at: tuple[float, float, float], moves: list, what: str) -> tuple[Trail, dict]:
    """A stroke of `role`'s hand from `at` (head frame, `right` outwards for that hand), silent;
    returns its trail and the stroke as read."""
    __tracebackhide__ = True
    s = side(xr, role)
    hand = xr.hand(role)
    hand.rest()
    hand.move_hand(head_point(xr, s * at[0], at[1], at[2]), anchor="fingertip")
    aim_away(xr, role)
    since = len(xr.audio())
    before = {x["uuid"] for x in shown(xr)}
    [t] = begin(xr, role)
    now = [x for x in shown(xr) if x["uuid"] not in before]
    assert len(now) == 1, (
        f"expected one new stroke shown once the fingers of the {t.handedness} hand's pinch closed ({what}); "
        f"observed {len(now)}"
    )
    move(xr, t, [(s * d[0], d[1], d[2]) for d in moves])
    end(xr, t)
    hand.move_by((s * 0.05, -0.06, 0.04))
    found = [x for x in shown(xr) if x["uuid"] not in before]
    assert len(found) == 1, (
        f"expected one new stroke after the {t.handedness} hand's pinch ({what}); observed {len(found)}"
    )
    stroke = found[0]
    assert_follows(stroke, t)
    assert_silent(xr, since, f"while the {t.handedness} hand drew ({what})")
    return t, stroke


def assert_panel_unmoved(xr, boxes: dict, what: str) -> None:
    __tracebackhide__ = True
    for tag, (lo, hi) in boxes.items():
        nlo, nhi = xr.find_by_tag(tag).bbox
        moved = max(
            max(abs(a - b) for a, b in zip(lo, nlo, strict=False)),
            max(abs(a - b) for a, b in zip(hi, nhi, strict=False)),
        )
        assert moved <= 0.003, f"expected the object tagged {tag!r} to stay where it was {what}; it moved {moved:.3f} m"


# --- tests ----------------------------------------------------------------------------------------


def test_the_panel_is_in_front_with_three_buttons(xr):
    xr.step(2)
    since = len(xr.audio())
    assert_shown(xr, {}, "at the start")
    cylinders = [d for d in xr.drawn() if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the cylinder removed; observed {cylinders}"
    panel = xr.find_by_tag(PANEL)
    assert panel.visible, "expected the panel shown; it is hidden"
    pbox = own_box(xr, PANEL)
    head = xr.head.pose.position
    c = centre(pbox)
    ahead, across, below = head[2] - c[2], c[0] - head[0], head[1] - c[1]
    assert AHEAD[0] - SLACK <= ahead <= AHEAD[1] + SLACK, (
        f"expected the panel's centre {AHEAD[0]}-{AHEAD[1]} m in front of the user; observed {ahead:.3f} m "
        f"(centre {_fmt(c)})"
    )
    assert abs(across) <= SIDE_MAX + SLACK, (
        f"expected the panel's centre at most {SIDE_MAX} m to the side; observed {across:+.3f} m"
    )
    assert BELOW[0] - SLACK <= below <= BELOW[1] + SLACK, (
        f"expected the panel's centre {BELOW[0]}-{BELOW[1]} m below eye height; observed {below:.3f} m below"
    )
    plo, phi = pbox
    boxes = {}
    for name, tag in BUTTONS.items():
        node = xr.find_by_tag(tag)
        assert node.is_mesh, f"expected the {name} button (tagged {tag!r}) to be a mesh; it is a {node.type}"
        assert node.visible, f"expected the {name} button shown; it is hidden"
        lo, hi = own_box(xr, tag)
        width = hi[0] - lo[0]
        height = hi[1] - lo[1]
        assert width >= MIN_W and height >= MIN_H, (
            f"expected the {name} button at least 0.06 m wide and 0.04 m high; observed {width:.3f} x {height:.3f} m"
        )
        for i, axis in ((0, "x"), (1, "y")):
            assert lo[i] >= plo[i] - OUTLINE and hi[i] <= phi[i] + OUTLINE, (
                f"expected the {name} button within the panel's outline; along {axis} it spans "
                f"{lo[i]:.3f}..{hi[i]:.3f} m, the panel {plo[i]:.3f}..{phi[i]:.3f} m"
            )
        boxes[name] = (lo, hi)
    names = list(boxes)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            (alo, ahi), (blo, bhi) = boxes[a], boxes[b]
            ox = min(ahi[0], bhi[0]) - max(alo[0], blo[0])
            oy = min(ahi[1], bhi[1]) - max(alo[1], blo[1])
            assert ox <= OVERLAP or oy <= OVERLAP, (
                f"expected the {a} and {b} buttons not to overlap; they overlap by {ox:.3f} x {oy:.3f} m"
            )
    xs = sorted(centre(b)[0] for b in boxes.values())
    ys = [centre(b)[1] for b in boxes.values()]
    assert xs[2] - xs[0] > max(ys) - min(ys), (
        f"expected the buttons side by side; their centres span {xs[2] - xs[0]:.3f} m across and "
        f"{max(ys) - min(ys):.3f} m up"
    )
    xr.wait(500)
    assert_silent(xr, since, "at the start")
    assert_no_errors(xr)


def test_undo_and_redo_follow_the_order_the_strokes_were_started(xr):
    xr.step(2)
    dom, non = "dominant", "non_dominant"
    a_trail, a = draw(xr, dom, (0.22, -0.12, 0.32), [(-0.1, 0.0, 0.0), (0.0, 0.05, 0.0)], "stroke A")
    xr.hand(dom).move_by((0.0, 0.1, 0.0))  # released: moving on adds nothing
    [a_now] = shown(xr)
    assert len(a_now["points"]) == len(a["points"]), (
        f"expected stroke A to end at the release; it went from {len(a['points'])} to {len(a_now['points'])} "
        f"vertices as the hand moved on without pinching"
    )
    _, b = draw(xr, non, (0.25, -0.2, 0.33), [(0.0, 0.08, 0.0), (-0.05, 0.0, 0.0)], "stroke B")
    _, c = draw(xr, dom, (0.28, -0.22, 0.3), [(0.0, -0.06, 0.02), (0.06, 0.0, 0.0)], "stroke C")
    assert min(distance(a, b), distance(a, c), distance(b, c)) > 0.02, "test set-up: strokes A, B, C overlap"
    assert_follows(match(shown(xr), a_trail), a_trail)
    press(xr, dom, "undo", {"A": a, "B": b}, True, "(C, the most recent, hidden)")
    press(xr, non, "undo", {"A": a}, True, "again (B hidden)", spot=(-0.4, -0.3))
    press(xr, non, "redo", {"A": a, "B": b}, True, "(B back in its place)")
    press(xr, dom, "redo", {"A": a, "B": b, "C": c}, True, "again (C back in its place)", spot=(0.4, -0.35))
    press(xr, dom, "redo", {"A": a, "B": b, "C": c}, False, "with nothing left to redo")
    press(xr, non, "undo", {"A": a, "B": b}, True, "(C hidden again)")
    press(xr, dom, "undo", {"A": a}, True, "(B hidden again)")
    press(xr, dom, "undo", {}, True, "(A hidden)")
    press(xr, non, "undo", {}, False, "with no stroke shown")
    press(xr, non, "redo", {"A": a}, True, "after undoing everything (A, the last undone, back)")
    assert_no_errors(xr)


def test_a_new_stroke_discards_the_redo_history(xr):
    xr.step(2)
    dom, non = "dominant", "non_dominant"
    _, a = draw(xr, dom, (0.22, -0.12, 0.32), [(-0.1, 0.0, 0.0)], "stroke A")
    _, b = draw(xr, non, (0.25, -0.2, 0.33), [(0.0, 0.08, 0.0)], "stroke B")
    press(xr, dom, "undo", {"A": a}, True, "(B hidden)")
    _, c = draw(xr, non, (0.2, -0.05, 0.34), [(-0.06, 0.0, 0.0), (0.0, -0.04, 0.0)], "stroke C, after the undo")
    assert min(distance(a, b), distance(a, c), distance(b, c)) > 0.02, "test set-up: strokes A, B, C overlap"
    press(xr, dom, "redo", {"A": a, "C": c}, False, "after a new stroke was drawn (B can no longer come back)")
    press(xr, non, "undo", {"A": a}, True, "(C hidden)")
    press(xr, dom, "undo", {}, True, "(A hidden)")
    press(xr, dom, "redo", {"A": a}, True, "(A back)")
    press(xr, non, "redo", {"A": a, "C": c}, True, "(C back; B was discarded)")
    press(xr, non, "redo", {"A": a, "C": c}, False, "with nothing left to redo (B was discarded)")
    assert_no_errors(xr)


def test_clear_removes_every_stroke_for_good(xr):
    xr.step(2)
    dom, non = "dominant", "non_dominant"
    _, a = draw(xr, dom, (0.22, -0.12, 0.32), [(-0.1, 0.0, 0.0)], "stroke A")
    _, b = draw(xr, non, (0.25, -0.2, 0.33), [(0.0, 0.08, 0.0)], "stroke B")
    _, _c = draw(xr, dom, (0.28, -0.22, 0.3), [(0.0, -0.06, 0.02)], "stroke C")
    press(xr, non, "undo", {"A": a, "B": b}, True, "(C hidden)")
    press(xr, dom, "clear", {}, True, "(every stroke removed)")
    press(xr, non, "undo", {}, False, "after Clear (nothing to undo)")
    press(xr, dom, "redo", {}, False, "after Clear (the undone stroke C went with it)")
    press(xr, non, "clear", {}, False, "with no stroke shown")
    _, d = draw(xr, non, (0.2, -0.05, 0.34), [(-0.06, 0.0, 0.0)], "stroke D, after Clear")
    press(xr, dom, "undo", {}, True, "(D hidden)")
    press(xr, dom, "clear", {}, False, "with no stroke shown (D undone, kept for redo)", spot=(-0.35, 0.3))
    press(xr, non, "redo", {"D": d}, True, "after a Clear that had nothing to clear (D back)")
    press(xr, dom, "clear", {}, True, "(D removed)")
    press(xr, dom, "redo", {}, False, "after the second Clear")
    assert_no_errors(xr)


def panel_gap_spot(xr) -> Vec | None:
    """A point on the panel's front at least 1.5 cm from every button's box, if there is one."""
    lo, hi = own_box(xr, PANEL)
    boxes = [own_box(xr, t) for t in BUTTONS.values()]
    best, where = 0.0, None
    for i in range(1, 20):
        for j in range(1, 10):
            x = lo[0] + (hi[0] - lo[0]) * i / 20
            y = lo[1] + (hi[1] - lo[1]) * j / 10
            if min(x - lo[0], hi[0] - x, y - lo[1], hi[1] - y) < 0.01:
                continue
            d = min(
                math.hypot(max(blo[0] - x, 0.0, x - bhi[0]), max(blo[1] - y, 0.0, y - bhi[1])) for blo, bhi in boxes
            )
            if d > best:
                best, where = d, (x, y, (lo[2] + hi[2]) / 2)
    return where if best >= 0.015 else None


def test_pinches_on_the_panel_never_draw(xr):
    xr.step(2)
    dom, non = "dominant", "non_dominant"
    s = side(xr, dom)
    since = len(xr.audio())
    drawn = len(xr.drawn())
    for role, button in ((dom, "undo"), (dom, "clear"), (non, "redo"), (non, "undo")):
        xr.hand(role).point_to(button_spot(xr, button, (0.0, 0.0)))
        xr.wait(400)
    assert_shown(xr, {}, "after pointing at the buttons without pinching")
    assert_silent(xr, since, "while the hands only pointed at the buttons")
    # Presses with nothing to act on: nothing changes, nothing is drawn.
    press(xr, dom, "undo", {}, False, "at the start (nothing to undo)")
    press(xr, non, "redo", {}, False, "at the start (nothing to redo)")
    press(xr, non, "clear", {}, False, "at the start (nothing to clear)")
    assert len(xr.drawn()) == drawn, (
        f"expected presses of the buttons to draw nothing; {len(xr.drawn()) - drawn} more objects are drawn"
    )
    _, a = draw(xr, non, (0.25, -0.2, 0.33), [(0.0, 0.08, 0.0)], "stroke A")
    _, b = draw(xr, dom, (0.22, -0.12, 0.32), [(-0.1, 0.0, 0.0)], "stroke B")
    # A press of Redo (nothing to redo) held a second while the hand moves: no stroke.
    frame, since = pinch_at(xr, dom, button_spot(xr, "redo", (-0.3, 0.35)))
    xr.wait(500)
    xr.hand(dom).move_by((s * 0.1, -0.08, 0.06), speed=0.3)
    assert_shown(xr, {"A": a, "B": b}, "while a pinch on Redo was held and the hand moved")
    release(xr, dom)
    xr.hand(dom).move_by((-s * 0.05, 0.05, 0.0))
    assert_shown(xr, {"A": a, "B": b}, "after a pinch on Redo, moved while held, was released")
    assert_tone(xr, since, frame, False, "after a press of Redo with nothing to redo, held and moved")
    # A press of Undo held while the hand moves: B hidden, no stroke drawn.
    frame, since = pinch_at(xr, non, button_spot(xr, "undo", (0.4, -0.3)))
    assert_shown(xr, {"A": a}, "by the frame after the pinch on Undo")
    xr.hand(non).move_by((-s * 0.1, -0.06, 0.08), speed=0.3)
    xr.wait(500)
    assert_shown(xr, {"A": a}, "while a pinch on Undo was held and the hand moved")
    release(xr, non)
    assert_shown(xr, {"A": a}, "after a pinch on Undo, moved while held, was released")
    assert_tone(xr, since, frame, True, "after a press of Undo, held and moved")
    # A pinch on the panel outside the buttons: nothing at all.
    gap = panel_gap_spot(xr)
    if gap is not None:
        frame, since = pinch_at(xr, dom, gap)
        xr.hand(dom).move_by((s * 0.08, -0.08, 0.06), speed=0.3)
        assert_shown(xr, {"A": a}, f"while a pinch on the panel beside the buttons (at {_fmt(gap)}) was held")
        release(xr, dom)
        xr.step(HOLD)
        assert_shown(xr, {"A": a}, f"after a pinch on the panel beside the buttons (at {_fmt(gap)})")
        assert_silent(xr, since, f"after a pinch on the panel beside the buttons (at {_fmt(gap)})")
    # None of those pinches started a stroke: B can still come back.
    press(xr, dom, "redo", {"A": a, "B": b}, True, "after the pinches on the panel (B back)")
    assert_no_errors(xr)


def test_two_hands_at_once_and_from_another_place(xr):
    xr.step(2)
    dom, non = "dominant", "non_dominant"
    sd, sn = side(xr, dom), side(xr, non)
    for role, at in ((dom, (0.22, -0.12, 0.32)), (non, (0.25, -0.2, 0.33))):
        hand = xr.hand(role)
        hand.rest()
        s = side(xr, role)
        hand.move_hand(head_point(xr, s * at[0], at[1], at[2]), anchor="fingertip")
        aim_away(xr, role)
    since = len(xr.audio())
    td, tn = begin(xr, dom, non)
    assert len(shown(xr)) == 2, f"expected two strokes once both hands' fingers closed; observed {len(shown(xr))}"
    move(xr, td, [(-sd * 0.08, 0.02, 0.0)], others=(tn,))
    move(xr, tn, [(0.0, 0.07, 0.0)], others=(td,))
    end(xr, td, tn)
    found = shown(xr)
    assert len(found) == 2, f"expected two strokes after both hands drew at once; observed {len(found)}"
    p, q = match(found, td), match(found, tn)
    assert p["uuid"] != q["uuid"], "expected each hand's pinch to draw its own stroke"
    assert_follows(p, td)
    assert_follows(q, tn)
    assert_silent(xr, since, "while both hands drew")
    # Undo hides one, then the other (same-frame starts: either order).
    frame, since = pinch_at(xr, dom, button_spot(xr, "undo", (0.3, 0.3)))
    left = shown(xr)
    assert len(left) == 1, f"expected one of the two strokes hidden by the frame after Undo; observed {len(left)} shown"
    release(xr, dom)
    assert_tone(xr, since, frame, True, "after Undo of one of the two strokes drawn at once")
    first = {"X": left[0]}
    press(xr, non, "undo", {}, True, "(the other of the two)")
    press(xr, non, "redo", first, True, "(the last undone of the two back)")
    press(xr, dom, "redo", {"P": p, "Q": q}, True, "(both back)")
    # Overlapping strokes: the non-dominant hand starts later but ends first.
    for role, at in ((dom, (0.3, -0.25, 0.3)), (non, (0.18, -0.05, 0.34))):
        hand = xr.hand(role)
        hand.rest()
        s = side(xr, role)
        hand.move_hand(head_point(xr, s * at[0], at[1], at[2]), anchor="fingertip")
        aim_away(xr, role)
    since = len(xr.audio())
    [ed] = begin(xr, dom)
    move(xr, ed, [(0.0, 0.05, 0.0)])
    [ln] = begin(xr, non)
    move(xr, ln, [(sn * 0.06, 0.0, 0.0)], others=(ed,))
    end(xr, ln)
    move(xr, ed, [(sd * 0.05, 0.0, 0.0)])
    end(xr, ed)
    found = shown(xr)
    assert len(found) == 4, f"expected four strokes after two overlapping pinches; observed {len(found)}"
    e, n = match(found, ed), match(found, ln)
    assert_follows(e, ed)
    assert_follows(n, ln)
    assert_silent(xr, since, "while the overlapping strokes were drawn")
    press(xr, dom, "undo", {"P": p, "Q": q, "E": e}, True, "(the stroke started last hidden, although it ended first)")
    # Walk away and turn: strokes and panel stay; the buttons and drawing work from there.
    boxes = {t: xr.find_by_tag(t).bbox for t in (PANEL, *BUTTONS.values())}
    xr.hand(dom).rest()
    xr.hand(non).rest()
    xr.head.walk([(0.35, 1.5, 0.25)])
    xr.head.look_at(centre(xr.find_by_tag(PANEL).bbox))
    xr.head.rotate(yaw=-15 * sd)
    assert_shown(xr, {"P": p, "Q": q, "E": e}, "after the user walked away and turned")
    assert_panel_unmoved(xr, boxes, "after the user walked away and turned")
    press(xr, non, "undo", {"P": p, "Q": q}, True, "from another place (E hidden)", spot=(-0.3, 0.3))
    _, f = draw(xr, dom, (0.22, -0.15, 0.32), [(0.0, 0.06, 0.0), (-0.05, 0.0, 0.0)], "from another place")
    press(xr, dom, "redo", {"P": p, "Q": q, "F": f}, False, "after a new stroke (E discarded)")
    press(xr, non, "undo", {"P": p, "Q": q}, True, "from another place (F hidden)")
    assert_panel_unmoved(xr, boxes, "after the presses from another place")
    assert_no_errors(xr)
