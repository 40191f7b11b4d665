"""Runtime tests of the sketch-and-move app.

They check that
- the app starts with no stroke and no cylinder; the object tagged 'mode-panel' has its centre
  0.4-1.0 m ahead of the starting head, at most 0.3 m to the side and 0.1-0.5 m below eye height
  (each within 2 cm); two meshes tagged 'mode-button' name 'draw' and 'move' in `state.mode`, are at
  least 6 cm wide and 4 cm high (checked to 5 and 3.5 cm), sit side by side and do not overlap; the
  Draw button is yellow (#ffcc00) and the Move button grey (#666666) at the start (material colour,
  within 8 of 255 per channel);
- in Draw mode (the default) a pinch with the ray away from the panel draws a stroke (an object
  tagged 'stroke') that is there once the fingers have closed, covers the fingertip's path so far
  mid-stroke, grows, and once released passes within 1 cm (checked to 1.25 cm) of every position the
  index fingertip took while the pinch was held, with no vertex more than 1.5 cm (checked to 1.7 cm)
  from that path, in world coordinates; moving the hand after the release adds nothing; the other
  hand draws its own stroke; both hands pinching in the same frame draw two strokes at once; a pinch
  started 1.5 cm from a stroke in Draw mode draws a new stroke and leaves the old one where it was;
- pointing at the buttons without pinching changes neither the highlight nor the mode; a pinch aimed
  at a button (off its centre, with either hand, also through a stroke drawn 6 cm in front of the
  button across the ray) selects its mode and swaps the highlight, draws
  nothing and moves nothing (also held for a second while the hand moves); selecting the current
  mode's button again keeps the mode; in Move mode pinches draw nothing (no new stroke, nothing new
  drawn), near a stroke or far from it; after selecting Draw again pinches draw again;
- in Move mode a pinch started with the index fingertip 5 cm from every stroke moves nothing, also
  when the hand then passes through a stroke while holding the pinch; a pinch started 1.2 cm from
  one stroke (and under 3 cm from a second one, farther) grabs the nearest stroke only: read every
  frame from the pinch on, all its vertices move by the same vector (within 3 mm: no turn, no
  stretch, the whole stroke) while the fingers close, the hand carries it up, sideways, towards the
  user and turns, and that vector equals the displacement since the pinch started of one point of
  the hand (the index fingertip, the pinch point, any joint: whichever explains the motion best)
  within 1.5 cm on every frame (no jump onto the fingertip, no lag); the other strokes stay (within
  3 mm); on release the stroke stays where it was let go while the hand moves on, and it can be
  grabbed again from there by the other hand;
- both hands pinching in the same frame, each next to its own stroke, carry the two strokes at
  once, each with its own hand, moving in turn and together; after the user walks away, turns and
  crouches, the strokes and the panel are where they were, the buttons switch modes from there, a stroke
  drawn there is carried the same way, and the others stay.

Each test runs for a right- and a left-dominant user, in the empty room.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.actors import POSE_SETTLE_FRAMES
from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.strokes import (
    Trail,
    _path_gap,
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

PANEL, BUTTON, STROKE = "mode-panel", "mode-button", "stroke"
ACTIVE, IDLE = "#ffcc00", "#666666"
AHEAD = (0.4, 1.0)
SIDE_MAX = 0.3
BELOW = (0.1, 0.5)
SLACK = 0.02
MIN_W, MIN_H = 0.05, 0.035  # "at least 6 cm wide and 4 cm high", with slack
OVERLAP = 0.003
CHANNEL = 8
HOLD = 12  # frames a button press holds the pinch (and waits after releasing it)
RIGID = 0.003  # metres a vertex of a carried stroke may differ from the stroke's common displacement
FOLLOW = 0.015  # "follows the hand on every frame, within 1.5 cm"
STILL = 0.003
INSIDE = 0.012  # fingertip distance from the stroke for a grab (the radius is 3 cm)
OUTSIDE = 0.05  # fingertip distance from every stroke for a pinch that must grab nothing
STEP = 0.005  # metres per frame a carrying hand moves (0.3 m/s)

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


def _sub(a, b) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _add(a, b) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def centre(box) -> Vec:
    return tuple((box[0][i] + box[1][i]) / 2 for i in range(3))  # type: ignore[return-value]


# --- reading ----------------------------------------------------------------------------------


def strokes(xr) -> list[dict]:
    return read_strokes(xr, STROKE)


def assert_count(xr, n: int, what: str) -> list[dict]:
    __tracebackhide__ = True
    found = [s for s in strokes(xr) if s["points"]]
    assert len(found) == n, f"expected {n} drawn stroke(s) {what}; observed {len(found)}"
    return found


def by_uuid(xr) -> dict[str, dict]:
    return {s["uuid"]: s for s in strokes(xr)}


def buttons(xr) -> dict[str, object]:
    __tracebackhide__ = True
    found = {}
    for node in xr.find_all_by_tag(BUTTON):
        state = node.state if isinstance(node.state, dict) else {}
        found[str(state.get("mode", "")).lower()] = node
    missing = [m for m in ("draw", "move") if m not in found]
    assert not missing, (
        f"expected two objects tagged {BUTTON!r} with state.mode 'draw' and 'move'; missing {', '.join(missing)} "
        f"(observed state.mode of {sorted(found)})"
    )
    return found


def assert_mode_shown(xr, mode: str, what: str) -> None:
    """The current mode's button is yellow, the other grey."""
    __tracebackhide__ = True
    found = buttons(xr)
    for m, node in found.items():
        if m not in ("draw", "move"):
            continue
        want = ACTIVE if m == mode else IDLE
        assert _same_colour(node.color, want), (
            f"expected the {m.capitalize()} button's colour {want} ({'highlighted' if m == mode else 'grey'}: the "
            f"current mode is {mode.capitalize()}) {what}; observed {node.color}"
        )


def spot_on(xr, mode: str, spot: tuple[float, float]) -> Vec:
    node = buttons(xr)[mode]
    lo, hi = node.bbox
    c = centre(node.bbox)
    return (c[0] + spot[0] * (hi[0] - lo[0]) / 2, c[1] + spot[1] * (hi[1] - lo[1]) / 2, c[2])


def press(xr, role: str, mode: str, spot: tuple[float, float] = (0.3, 0.2)) -> None:
    """A pinch of `role`'s hand aimed at a spot of the button of `mode`, held and released."""
    hand = xr.hand(role)
    hand.point_to(spot_on(xr, mode, spot))
    hand.start_select(HOLD)
    hand.end_select(HOLD)


def aim_away(xr, role: str) -> None:
    """Point the hand's ray down, outwards and back, away from the panel in front."""
    hand = xr.hand(role)
    pose = xr.camera_pose()
    f = pose.forward
    right = (-f[2], 0.0, f[0])
    n = math.hypot(right[0], right[2]) or 1.0
    s = side(xr, role)
    p = hand.position
    hand.point_to((p[0] + s * 0.6 * right[0] / n - 0.3 * f[0], 0.0, p[2] + s * 0.6 * right[2] / n - 0.3 * f[2]))


def draw(xr, role: str, start: Vec, moves: list) -> Trail:
    """A stroke: the ray aimed away from the panel, the fingertip at `start`, a pinch moved by
    `moves` and released."""
    aim_away(xr, role)
    xr.hand(role).move_hand(start, anchor="fingertip")
    [t] = begin(xr, role)
    move(xr, t, moves)
    end(xr, t)
    return t


def gap(point, stroke: dict) -> float:
    """Distance from `point` to the polyline through the stroke's vertices."""
    return _path_gap(point, stroke["points"])


# The world position of a hand's controller (XR Blocks' input.controllers[i]: the hand's ray origin).
_CONTROLLER_JS = """
(h, hand) => {
  const c = h.core.input.controllers[hand === 'left' ? 0 : 1];
  if (!c) return null;
  h.guard(c, 'the controller').updateWorldMatrix(true, false);
  return c.getWorldPosition(new h.THREE.Vector3()).toArray();
}
"""


def hand_points(xr, role: str) -> dict[str, Vec]:
    """The hand's 25 joints, the point between thumb and index fingertips and its controller."""
    handedness = xr.handedness(role)
    joints = xr.hand_joints(handedness)
    points = {name: tuple(j.position) for name, j in joints.items()}
    controller = xr.probe(_CONTROLLER_JS, handedness)
    if controller:
        points["controller"] = tuple(controller)
    tip, thumb = points["index-finger-tip"], points["thumb-tip"]
    points["pinch point"] = tuple((tip[i] + thumb[i]) / 2 for i in range(3))
    return points


# --- carrying ---------------------------------------------------------------------------------


class Hold:
    """One grab: the stroke and the hand when the pinch started, and every frame from then on."""

    def __init__(self, xr, role: str, stroke: dict):
        self.xr = xr
        self.role = role
        self.uuid = stroke["uuid"]
        self.start = stroke["points"]
        self.hand0 = hand_points(xr, role)
        self.frames: list[tuple[dict, list]] = []  # (hand points, stroke points)

    def sample(self, now: dict[str, dict]) -> None:
        __tracebackhide__ = True
        assert self.uuid in now and now[self.uuid]["points"], (
            f"expected the stroke grabbed by the {self.role} hand still drawn while it is held; it is gone"
        )
        self.frames.append((hand_points(self.xr, self.role), now[self.uuid]["points"]))
        self.check_rigid(len(self.frames) - 1)

    def displacement(self, points: list) -> Vec:
        n = len(points)
        return tuple(sum(points[k][i] - self.start[k][i] for k in range(n)) / n for i in range(3))  # type: ignore

    def check_rigid(self, at: int) -> None:
        __tracebackhide__ = True
        points = self.frames[at][1]
        assert len(points) == len(self.start), (
            f"expected the stroke carried by the {self.role} hand to keep its shape (its {len(self.start)} vertices); "
            f"it has {len(points)} vertices {at} frames after the pinch started"
        )
        d = self.displacement(points)
        worst = max(range(len(points)), key=lambda k: math.dist(_sub(points[k], self.start[k]), d))
        off = math.dist(_sub(points[worst], self.start[worst]), d)
        assert off <= RIGID, (
            f"expected the whole stroke grabbed by the {self.role} hand to move rigidly (every point by the same "
            f"amount: not turned, stretched or moved in part); {at} frames after the pinch started its vertex at "
            f"{_fmt(points[worst])} moved {off:.3f} m differently from the stroke as a whole (moved by {_fmt(d)})"
        )

    def assert_follows(self, during: str) -> None:
        """Some point of the hand explains the stroke's displacement on every sampled frame."""
        __tracebackhide__ = True
        assert self.frames, "no frame sampled"
        best = None
        for name, p0 in self.hand0.items():
            worst, at = 0.0, 0
            for i, (points, stroke) in enumerate(self.frames):
                if name not in points:
                    worst = 9.0
                    break
                e = math.dist(self.displacement(stroke), _sub(points[name], p0))
                if e > worst:
                    worst, at = e, i
            if best is None or worst < best[0]:
                best = (worst, name, at)
        worst, name, at = best  # type: ignore[misc]
        d = self.displacement(self.frames[at][1])
        assert worst <= FOLLOW, (
            f"expected the stroke grabbed by the {self.role} hand to move with the hand, keeping its offset to it "
            f"(within {FOLLOW} m on every frame, {during}); {at} frames after the pinch started it had moved by "
            f"{_fmt(d)}, {worst:.3f} m off the hand's own displacement even for the hand point that explains it best "
            f"({name})"
        )

    def last(self) -> dict:
        return {"uuid": self.uuid, "points": self.frames[-1][1], "state": None}


def grab(xr, targets: list[tuple[str, dict]]) -> list[Hold]:
    """Pinch with each (role, stroke) hand in the same frame; sample every frame while the fingers close."""
    holds = [Hold(xr, role, stroke) for role, stroke in targets]
    for h in holds:
        xr.hand(h.role).start_select(frames=0)
    for _ in range(POSE_SETTLE_FRAMES):
        xr.step(1)
        now = by_uuid(xr)
        for h in holds:
            h.sample(now)
    return holds


def carry(xr, holds: list[Hold], moves: list[tuple[Vec, ...]]) -> None:
    """Move the holding hands frame by frame: each entry of `moves` gives one delta per hold (moved
    together); every frame every hold is sampled."""
    for deltas in moves:
        starts = [xr.hand(h.role).fingertip for h in holds]
        n = max(1, math.ceil(max(math.hypot(*d) for d in deltas) / STEP))
        for k in range(1, n + 1):
            for h, p, d in zip(holds, starts, deltas, strict=True):
                if math.hypot(*d) > 0:
                    goal = tuple(p[i] + d[i] * k / n for i in range(3))
                    xr.hand(h.role).move_hand(goal, anchor="fingertip", speed=0.3)
            now = by_uuid(xr)
            for h in holds:
                h.sample(now)


def turn(xr, hold: Hold, yaw: float) -> None:
    """Turn the holding hand a little, frame by frame, sampling every frame."""
    for _ in range(abs(int(yaw)) // 3):
        xr.hand(hold.role).rotate_hand(yaw=3 if yaw > 0 else -3, speed=180)
        hold.sample(by_uuid(xr))


def release(xr, holds: list[Hold]) -> list[dict]:
    """Open the pinches; the strokes as they were when the fingers had opened."""
    for h in holds:
        xr.hand(h.role).end_select(frames=0)
    xr.step(POSE_SETTLE_FRAMES)
    now = by_uuid(xr)
    out = []
    for h in holds:
        assert h.uuid in now, f"expected the stroke released by the {h.role} hand still there; it is gone"
        let_go = now[h.uuid]
        moved = max(math.dist(a, b) for a, b in zip(let_go["points"], h.frames[-1][1], strict=False))
        assert moved <= FOLLOW, (
            f"expected the stroke released by the {h.role} hand to stay where it was let go; it moved {moved:.3f} m "
            "as the fingers opened"
        )
        out.append(let_go)
    return out


def place_fingertip(xr, role: str, point: Vec) -> None:
    """The relaxed hand, its ray aimed away from the panel, with its index fingertip at `point`."""
    aim_away(xr, role)
    xr.hand(role).move_hand(point, anchor="fingertip")


def point_near(stroke: dict, distance: float, away: Vec) -> Vec:
    """A point `distance` from the middle vertex of the stroke, in direction `away` (a unit vector)."""
    pts = stroke["points"]
    mid = pts[len(pts) // 2]
    return tuple(mid[i] + distance * away[i] for i in range(3))  # type: ignore[return-value]


def assert_grabs_nothing(xr, role: str, at: Vec, through: dict | None, what: str) -> None:
    """A pinch started with the fingertip at `at` moves no stroke and draws nothing, also when the
    held pinch then passes through `through`."""
    __tracebackhide__ = True
    before = [s for s in strokes(xr) if s["points"]]
    drawn = len(xr.drawn())
    place_fingertip(xr, role, at)
    nearest = min(gap(xr.hand(role).fingertip, s) for s in before)
    assert nearest >= OUTSIDE - 0.005, f"test set-up: the fingertip is {nearest:.3f} m from a stroke"
    xr.hand(role).start_select(POSE_SETTLE_FRAMES)
    if through is not None:
        pts = through["points"]
        mid = pts[len(pts) // 2]
        tip = xr.hand(role).fingertip
        xr.hand(role).move_hand(mid, anchor="fingertip", speed=0.3)
        xr.hand(role).move_hand(_add(mid, _sub(mid, tip)), anchor="fingertip", speed=0.3)
    assert_count(xr, len(before), f"while a pinch {what} is held")
    assert_unmoved(xr, before, f"while a pinch {what} is held (it grabs nothing)")
    xr.hand(role).end_select(POSE_SETTLE_FRAMES)
    xr.hand(role).move_by((0.0, -0.05, 0.05))
    assert_count(xr, len(before), f"after a pinch {what}")
    assert_unmoved(xr, before, f"after a pinch {what}")
    assert len(xr.drawn()) == drawn, (
        f"expected a pinch {what} to draw nothing; {len(xr.drawn()) - drawn} more objects are drawn than before it"
    )


# --- tests ------------------------------------------------------------------------------------


def test_the_panel_is_in_front_with_two_buttons_and_draw_mode_is_highlighted(xr):
    xr.settle()
    assert_count(xr, 0, "at the start")
    cylinders = [d for d in xr.drawn() if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the cylinder removed; observed {cylinders}"
    panel = xr.find_by_tag(PANEL)
    assert panel.bbox is not None, f"expected the object tagged {PANEL!r} to have geometry; it has none"
    head = xr.head.pose.position
    c = centre(panel.bbox)
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
    found = buttons(xr)
    boxes = {}
    for mode in ("draw", "move"):
        node = found[mode]
        assert node.is_mesh, f"expected the {mode} button (tagged {BUTTON!r}) to be a mesh; it is a {node.type}"
        assert node.visible, f"expected the {mode} button shown; it is hidden"
        lo, hi = node.bbox
        width = hi[0] - lo[0]
        height = math.hypot(hi[1] - lo[1], hi[2] - lo[2])
        assert width >= MIN_W and height >= MIN_H, (
            f"expected the {mode} button at least 0.06 m wide and 0.04 m high; observed {width:.3f} x {height:.3f} m"
        )
        boxes[mode] = (lo, hi)
    (alo, ahi), (blo, bhi) = boxes["draw"], boxes["move"]
    ox = min(ahi[0], bhi[0]) - max(alo[0], blo[0])
    oy = min(ahi[1], bhi[1]) - max(alo[1], blo[1])
    assert ox <= OVERLAP or oy <= OVERLAP, f"expected the buttons not to overlap; they overlap by {ox:.3f} x {oy:.3f} m"
    dx = abs(centre(boxes["draw"])[0] - centre(boxes["move"])[0])
    dy = abs(centre(boxes["draw"])[1] - centre(boxes["move"])[1])
    assert dx > dy, f"expected the buttons side by side; their centres are {dx:.3f} m apart across and {dy:.3f} m up"
    assert_mode_shown(xr, "draw", "at the start (the app starts in Draw mode)")
    xr.wait(1000)
    assert_mode_shown(xr, "draw", "a second after the start")
    assert_no_errors(xr)


def test_draw_mode_draws_a_stroke_per_pinch_with_either_hand_and_both_at_once(xr):
    xr.settle()
    s = side(xr, "dominant")
    hand = xr.hand("dominant")
    aim_away(xr, "dominant")
    hand.move_hand((0.25 * s, 1.35, -0.35), anchor="fingertip")
    assert_count(xr, 0, "before the first pinch")
    [t] = begin(xr, "dominant")
    assert_count(xr, 1, "once the fingers of a pinch have closed (the app starts in Draw mode)")
    move(xr, t, [(-s * 0.12, 0.0, 0.0)])
    [mid] = assert_count(xr, 1, "while the pinch is held")
    assert_follows(mid, Trail(t.role, t.handedness, t.path, t.allowed + t.path))
    move(xr, t, [(0.0, 0.08, -0.04), (s * 0.05, -0.03, 0.03)], speed=0.2)
    end(xr, t)
    [first] = assert_count(xr, 1, "after one pinch")
    assert len(first["points"]) > len(mid["points"]), (
        f"expected the stroke to grow while the pinch was held; it had {len(mid['points'])} vertices mid-stroke and "
        f"{len(first['points'])} at the release"
    )
    assert_follows(first, t)
    hand.move_by((s * 0.1, -0.1, 0.05))  # released: the stroke ends
    hand.move_by((-s * 0.05, 0.1, -0.05))
    xr.wait(200)
    [after] = assert_count(xr, 1, "after the hand moved on released")
    assert len(after["points"]) == len(first["points"]), (
        f"expected the stroke to end at the release; it went from {len(first['points'])} to "
        f"{len(after['points'])} vertices as the hand moved without pinching"
    )
    # A pinch started 1.5 cm from the stroke draws a new one and leaves the old one in place.
    near = point_near(first, 0.015, (0.0, -1.0, 0.0))
    again = draw(xr, "dominant", near, [(0.0, -0.08, 0.0)])
    found = assert_count(xr, 2, "after a second pinch started next to the first stroke (Draw mode)")
    assert_unmoved(xr, [first], "after a pinch in Draw mode started next to it (drawing never moves a stroke)")
    assert match(found, again)["uuid"] != first["uuid"], "expected the second pinch to draw its own stroke"
    assert_follows(match(found, again), again)
    # The other hand draws its own stroke.
    other = draw(xr, "non_dominant", (-0.22 * s, 1.3, -0.36), [(0.0, 0.08, 0.0), (s * 0.05, 0.0, 0.0)])
    found = assert_count(xr, 3, "after a pinch of the other hand")
    b = match(found, other)
    assert b["uuid"] not in (first["uuid"], match(found, again)["uuid"]), "expected each pinch to draw its own stroke"
    assert_follows(b, other)
    # Both hands pinch in the same frame and draw, moving in turn.
    made = found
    aim_away(xr, "dominant")
    aim_away(xr, "non_dominant")
    xr.hand("dominant").move_hand((0.2 * s, 1.25, -0.45), anchor="fingertip")
    xr.hand("non_dominant").move_hand((-0.2 * s, 1.45, -0.45), anchor="fingertip")
    dom, non = begin(xr, "dominant", "non_dominant")
    move(xr, dom, [(0.0, 0.08, 0.0)], others=(non,))
    move(xr, non, [(0.0, -0.08, -0.04)], others=(dom,))
    assert_count(xr, 5, "while both hands pinch")
    move(xr, dom, [(-s * 0.08, 0.0, 0.0)], others=(non,))
    move(xr, non, [(s * 0.06, 0.04, 0.0)], others=(dom,))
    end(xr, dom, non)
    found = assert_count(xr, 5, "after both hands drew at once")
    a, c = match(found, dom), match(found, non)
    assert a["uuid"] != c["uuid"] and not {a["uuid"], c["uuid"]} & {m["uuid"] for m in made}, (
        "expected each hand to draw its own stroke"
    )
    assert_follows(a, dom)
    assert_follows(c, non)
    assert_unmoved(xr, made, "after both hands drew")
    assert_mode_shown(xr, "draw", "after drawing (no button was selected)")
    assert_no_errors(xr)


def test_the_buttons_switch_mode_and_move_mode_never_draws(xr):
    xr.settle()
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    # Pointing at the Move button without pinching changes nothing.
    dom.point_to(centre(buttons(xr)["move"].bbox))
    xr.wait(600)
    non.point_to(centre(buttons(xr)["move"].bbox))
    xr.wait(600)
    assert_mode_shown(xr, "draw", "after only pointing at the Move button (no pinch)")
    # A stroke drawn across the ray from the dominant hand to the Move button, 6 cm in front of it.
    dom.rest()
    aim = spot_on(xr, "move", (0.35, -0.3))
    o = dom.position
    k = 1.0 - 0.06 / math.dist(o, aim)
    q = tuple(o[i] + k * (aim[i] - o[i]) for i in range(3))
    start = (q[0] - 0.08 * s, q[1], q[2])
    aim_away(xr, "non_dominant")
    non.move_hand(start, anchor="fingertip")
    [first] = begin(xr, "non_dominant")  # the fingers close: the fingertip moves a little ...
    move(xr, first, [_sub(start, first.path[-1]), (0.16 * s, 0.0, 0.0)])  # ... so it goes back to the start
    end(xr, first)
    non.rest()
    [stroke] = assert_count(xr, 1, "after a pinch, having only pointed at the Move button")
    assert_follows(stroke, first)
    crossing = min(math.dist(q, p) for p in stroke["points"])
    assert crossing <= 0.01, f"test set-up: the stroke meant to cross the ray passes {crossing:.3f} m from it"
    drawn = len(xr.drawn())
    # The dominant hand selects Move through that stroke; the pinch is held a second while the hand moves.
    dom.point_to(aim)
    dom.start_select(HOLD)
    assert_mode_shown(xr, "move", "once a pinch aimed at the Move button has closed")
    xr.wait(1000)
    dom.move_by((s * 0.08, -0.06, 0.05), speed=0.3)
    assert_count(xr, 1, "while a pinch that selected the Move button is held and the hand moves")
    dom.end_select(HOLD)
    assert_count(xr, 1, "after a pinch on the Move button")
    assert_unmoved(xr, [stroke], "after a pinch on the Move button")
    assert len(xr.drawn()) == drawn, (
        f"expected a pinch on a button to draw nothing; {len(xr.drawn()) - drawn} more objects are drawn than before it"
    )
    assert_mode_shown(xr, "move", "after a pinch on the Move button was released")
    # Move mode: pinches far from the stroke and next to it draw nothing.
    dom.rest()
    non.rest()
    assert_grabs_nothing(xr, "non_dominant", (-0.2 * s, 1.3, -0.35), None, "in Move mode far from every stroke")
    # Selecting Move again keeps Move mode (with the other hand).
    press(xr, "non_dominant", "move", (-0.3, 0.25))
    assert_mode_shown(xr, "move", "after the Move button was selected again")
    near = point_near(stroke, 0.015, (0.0, 0.0, 1.0))
    place_fingertip(xr, "dominant", near)
    [held] = grab(xr, [("dominant", stroke)])
    carry(xr, [held], [((0.0, 0.0, 0.06),)])
    assert_count(xr, 1, "while a pinch next to a stroke is held in Move mode (Move mode never draws)")
    [moved] = release(xr, [held])
    held.assert_follows("in Move mode, selected twice")
    assert len(xr.drawn()) == drawn, (
        f"expected pinches in Move mode to draw nothing; {len(xr.drawn()) - drawn} more objects are drawn"
    )
    # The other hand selects Draw; pinches draw again.
    non.rest()
    press(xr, "non_dominant", "draw", (-0.25, -0.3))
    assert_mode_shown(xr, "draw", "after the Draw button was selected")
    assert_count(xr, 1, "after a pinch on the Draw button")
    assert_unmoved(xr, [moved], "after a pinch on the Draw button")
    dom.rest()
    second = draw(xr, "dominant", (0.2 * s, 1.25, -0.4), [(0.0, 0.08, 0.0)])
    found = assert_count(xr, 2, "after a pinch once Draw was selected again")
    assert match(found, second)["uuid"] != stroke["uuid"], "expected a new stroke"
    assert_follows(match(found, second), second)
    assert_unmoved(xr, [moved], "after drawing again")
    press(xr, "dominant", "draw", (0.3, 0.3))
    assert_mode_shown(xr, "draw", "after the Draw button was selected again")
    third = draw(xr, "non_dominant", (-0.2 * s, 1.3, -0.4), [(s * 0.06, 0.0, 0.0)])
    found = assert_count(xr, 3, "after a pinch with Draw selected twice")
    assert_follows(match(found, third), third)
    assert_no_errors(xr)


def test_a_pinch_near_a_stroke_carries_the_nearest_one_rigidly_until_release(xr):
    xr.settle()
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    # Two strokes, one 4 cm above the other, and a third away to the other side.
    a_t = draw(xr, "dominant", (0.26 * s, 1.36, -0.38), [(-s * 0.14, 0.0, 0.0)])
    found = assert_count(xr, 1, "after the first pinch")
    a = found[0]
    start = _add(point_near(a, 0.036, (0.0, -1.0, 0.0)), (s * 0.05, 0.0, 0.0))
    aim_away(xr, "dominant")
    dom.move_hand(start, anchor="fingertip")
    [b_t] = begin(xr, "dominant")  # the fingers close: the fingertip moves a little ...
    move(xr, b_t, [_sub(start, b_t.path[-1]), (-s * 0.1, 0.0, 0.0)])  # ... so it goes back to the start
    end(xr, b_t)
    c_t = draw(xr, "non_dominant", (-0.22 * s, 1.3, -0.38), [(0.0, 0.08, 0.0)])
    found = assert_count(xr, 3, "after three pinches")
    a, b, c = match(found, a_t), match(found, b_t), match(found, c_t)
    assert len({a["uuid"], b["uuid"], c["uuid"]}) == 3, "expected each pinch to draw its own stroke"
    press(xr, "non_dominant", "move")
    assert_mode_shown(xr, "move", "after the Move button was selected")
    non.rest()
    # A pinch 5 cm from every stroke, then passing through stroke A while held, moves nothing.
    out = point_near(a, OUTSIDE + 0.005, (0.0, 1.0, 0.0))
    assert_grabs_nothing(xr, "dominant", out, a, "started 5 cm from every stroke")
    # A pinch 1.2 cm below A (under 3 cm from B too) grabs A only.
    at = point_near(a, INSIDE, (0.0, -1.0, 0.0))
    place_fingertip(xr, "dominant", at)
    tip = dom.fingertip
    da, db = gap(tip, a), gap(tip, b)
    assert da <= INSIDE + 0.004 and db < 0.03 and db - da >= 0.01, (
        f"test set-up: the fingertip is {da:.3f} m from stroke A and {db:.3f} m from stroke B"
    )
    [hold] = grab(xr, [("dominant", a)])
    assert_unmoved(xr, [b, c], "while a pinch nearer another stroke is held (it grabs only the nearest)")
    carry(xr, [hold], [((0.0, 0.08, 0.0),), ((-s * 0.1, 0.0, 0.0),), ((0.0, -0.03, 0.05),)])
    turn(xr, hold, 24)
    carry(xr, [hold], [((s * 0.04, -0.04, 0.0),)])
    hold.assert_follows("while the fingers closed, the hand carried it and turned")
    d = hold.displacement(hold.frames[-1][1])
    assert math.hypot(*d) >= 0.05, f"expected the grabbed stroke carried with the hand; it moved only {_fmt(d)}"
    assert_unmoved(xr, [b, c], "while another stroke is carried (only the grabbed stroke moves)")
    assert_count(xr, 3, "while a stroke is carried")
    [let_go] = release(xr, [hold])
    dom.move_by((s * 0.05, 0.08, -0.05))
    dom.move_by((0.0, -0.12, 0.05))
    xr.wait(1000)
    assert_unmoved(xr, [let_go], "after the pinch that carried it was released and the hand moved on")
    assert_unmoved(xr, [b, c], "after another stroke was carried")
    # Grabbed again from its new place, by the other hand.
    dom.rest()
    at = point_near(let_go, 0.015, (0.0, 0.0, 1.0))
    place_fingertip(xr, "non_dominant", at)
    [again] = grab(xr, [("non_dominant", let_go)])
    carry(xr, [again], [((s * 0.06, 0.05, 0.0),)])
    again.assert_follows("grabbed again by the other hand")
    [placed] = release(xr, [again])
    non.rest()
    d = again.displacement(placed["points"])
    assert math.hypot(*d) >= 0.05, f"expected the stroke carried again; it moved only {_fmt(d)}"
    assert_unmoved(xr, [placed, b, c], "after the other hand let go")
    assert_count(xr, 3, "after the strokes were moved")
    assert_no_errors(xr)


def test_both_hands_carry_two_strokes_at_once_and_strokes_stay_as_the_user_moves(xr):
    xr.settle()
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    r_t = draw(xr, "dominant", (0.24 * s, 1.32, -0.38), [(0.0, 0.1, 0.0), (-s * 0.05, 0.0, 0.0)])
    l_t = draw(xr, "non_dominant", (-0.24 * s, 1.36, -0.4), [(s * 0.1, 0.0, 0.0)])
    found = assert_count(xr, 2, "after a pinch of each hand")
    r, lft = match(found, r_t), match(found, l_t)
    press(xr, "dominant", "move", (-0.3, -0.2))
    assert_mode_shown(xr, "move", "after the Move button was selected")
    place_fingertip(xr, "dominant", point_near(r, 0.015, (s * 1.0, 0.0, 0.0)))
    place_fingertip(xr, "non_dominant", point_near(lft, 0.015, (0.0, 1.0, 0.0)))
    held = grab(xr, [("dominant", r), ("non_dominant", lft)])
    up, down = (0.0, 0.06, 0.0), (0.0, -0.05, 0.03)
    still = (0.0, 0.0, 0.0)
    carry(xr, held, [(up, still), (still, down), ((s * 0.05, 0.0, 0.05), (-s * 0.05, 0.0, 0.04))])
    for h in held:
        h.assert_follows("while both hands carried a stroke each")
    moved = release(xr, held)
    dom.rest()
    non.rest()
    for h, m in zip(held, moved, strict=True):
        d = h.displacement(m["points"])
        assert math.hypot(*d) >= 0.06, f"expected the {h.role} hand's stroke carried; it moved only {_fmt(d)}"
    # The user walks away, turns and crouches; the strokes and the panel stay.
    panel = centre(xr.find_by_tag(PANEL).bbox)
    xr.head.walk([(0.35 * s, 1.5, 0.3)])
    xr.head.rotate(yaw=-40 * s)
    assert_unmoved(xr, moved, "after the user walked away and turned")
    now = centre(xr.find_by_tag(PANEL).bbox)
    assert math.dist(panel, now) <= SLACK, (
        f"expected the panel to stay where it is in the room as the user walks and turns; it moved from "
        f"{_fmt(panel)} to {_fmt(now)}"
    )
    xr.head.look_at(centre(xr.find_by_tag(PANEL).bbox))
    xr.head.move((0.0, -0.25, 0.0), speed=0.5)
    assert_unmoved(xr, moved, "after the user crouched")
    pose = xr.camera_pose()
    assert pose.position[1] <= 1.3, f"the head did not go down: {_fmt(pose.position)}"
    # From there: select Draw, draw a stroke, select Move and carry it.
    dom.rest()
    non.rest()
    press(xr, "non_dominant", "draw", (0.25, 0.25))
    assert_mode_shown(xr, "draw", "after the Draw button was selected from elsewhere, crouching")
    f = pose.forward
    ahead = (pose.position[0] + 0.32 * f[0], pose.position[1] - 0.1, pose.position[2] + 0.32 * f[2])
    low_t = draw(xr, "dominant", ahead, [(0.0, 0.06, 0.0), (0.05, 0.0, 0.0)])
    found = assert_count(xr, 3, "after a pinch while crouching, away from the start")
    low = match(found, low_t)
    assert_follows(low, low_t)
    assert_unmoved(xr, moved, "after a stroke was drawn elsewhere")
    dom.rest()
    press(xr, "dominant", "move", (0.3, -0.25))
    assert_mode_shown(xr, "move", "after the Move button was selected from elsewhere, crouching")
    place_fingertip(xr, "non_dominant", point_near(low, 0.015, (0.0, 0.0, 1.0)))
    [hold] = grab(xr, [("non_dominant", low)])
    carry(xr, [hold], [((0.0, 0.05, -0.04),)])
    hold.assert_follows("while crouching, away from the start")
    [low_moved] = release(xr, [hold])
    non.rest()
    assert_unmoved(xr, [*moved, low_moved], "after the user crouched, drew and carried a stroke")
    assert_count(xr, 3, "at the end")
    assert_no_errors(xr)
