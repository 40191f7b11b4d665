"""Runtime tests of the head-pointer sketch board.

They check that
- the board (tag 'sketch-board') is a flat 1.2 x 0.8 m board whose front face is the plane
  z = -1.5 around (0, 1.5), that nothing else but the board and the cursor is drawn at the start
  (the cylinder is gone), and that the board stays put while the user walks about;
- the cursor (tag 'gaze-cursor'), read on every frame of head turns of 1.5 degrees a frame, is
  shown within 1 cm of that frame's gaze point (the head's forward ray meeting the plane
  z = -1.5; checked to 1.25 cm), on the face (0 to 1 cm in front of it, 2 mm of slack), at most
  5 cm across, and hidden on every frame the ray misses the board (frames with the gaze within
  1.5 cm of an edge are not judged); from the start, after walking to the side, crouching and
  turning away;
- a pinch of either hand draws one stroke (tag 'stroke') that follows the gaze point, not the
  hand (the hand moves about while the head stays still): read from its vertices in the world
  frame, it passes within 1 cm (1.25 cm) of the gaze point of every frame from the one after the
  pinch was reported to the one before the release, nothing of it lies more than 1.5 cm (1.7 cm)
  from the gaze path from the frame before the pinch to the frame after the release (measured
  along the board), and every vertex lies 0 to 1 cm in front of the face; it is there on the frame
  after the pinch is reported, grows while it is held, and does not change after the release;
- each pinch draws a new stroke; a second hand pinching while one already pinches, and releasing
  the first, continue the same stroke;
- a stroke ends where the gaze leaves the board, nothing is added when the gaze returns during
  that pinch, and a pinch begun off the board draws nothing even when the gaze then moves onto
  the board;
- a head shake (1.5 s still, 20 to 22 degrees left or right and back at 90 degrees/s) removes the
  newest stroke, and only it, within 0.2 s (12 frames) of the head being back; shakes undo the
  strokes newest first, one each; a shake with no stroke and a nod remove nothing; a shake while
  a hand pinches removes nothing, then or at the release, and its gaze movement is drawn;
- the board's state.strokes and state.drawing follow what is on the board.

Head moves between checks are made so that XR Blocks' recogniser sees no unintended head gesture
(the tests check that it reported only the shakes and nods they made). Each test runs for a
right- and a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.strokes import read_strokes

pytestmark = pytest.mark.xr_scenes("empty")

BOARD = "sketch-board"
CURSOR = "gaze-cursor"
STROKE = "stroke"

FACE_Z = -1.5
HALF_W, HALF_H, CENTRE_Y = 0.6, 0.4, 1.5
NEAR = 0.0125  # "within 1 cm", 25 % slack
STRAY = 0.017  # "nothing more than 1.5 cm from the path", 2 mm slack
IN_FRONT = 0.01 + 0.002  # "at most 1 cm in front of the face", 2 mm slack
BEHIND = 0.002  # "never behind it", 2 mm slack
EDGE = 0.015  # gaze points this close to an edge are not judged (hit or miss)
STEP_DEG = 1.5  # head turn per frame while drawing or sweeping
STILL_MS = 1500  # the head keeps still this long before a shake or nod
UNDO_FRAMES = 12  # 0.2 s at 60 Hz


# --- geometry -------------------------------------------------------------------------------------


def fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def gaze(xr):
    """((x, y) where the head's forward ray meets the plane z = -1.5, or None, margin to the board's
    edges: positive inside, negative outside; -1 when the ray never meets the plane)."""
    pose = xr.camera_pose()
    o, f = pose.position, pose.forward
    if f[2] >= -1e-6:
        return None, -1.0
    t = (FACE_Z - o[2]) / f[2]
    if t <= 0:
        return None, -1.0
    x, y = o[0] + t * f[0], o[1] + t * f[1]
    margin = min(HALF_W - abs(x), HALF_H - abs(y - CENTRE_Y))
    return (x, y), margin


def seg_dist(p, a, b) -> float:
    ab = (b[0] - a[0], b[1] - a[1])
    n = ab[0] ** 2 + ab[1] ** 2
    t = 0.0 if n < 1e-12 else max(0.0, min(1.0, ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / n))
    return math.dist(p, (a[0] + t * ab[0], a[1] + t * ab[1]))


def path_gap(p, path) -> float:
    if len(path) == 1:
        return math.dist(p, path[0])
    return min(seg_dist(p, path[i], path[i + 1]) for i in range(len(path) - 1))


def sample(points, n=500):
    return points[:: max(1, len(points) // n)]


# --- readers --------------------------------------------------------------------------------------


def board(xr):
    return xr.find_by_tag(BOARD)


# The world box of the tagged board's own geometry (not its children: a frame, the cursor, strokes).
_BOARD_BOX_JS = """
(h, tag) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  let board = null;
  scene.traverse((o) => {
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!board && d && String(d.tag) === tag) board = h.guard(o, o.name || o.type);
  });
  const pos = board && board.geometry && board.geometry.attributes && board.geometry.attributes.position;
  if (!pos) return null;
  const box = new THREE.Box3(), v = new THREE.Vector3();
  for (let i = 0; i < pos.count; i++) box.expandByPoint(v.fromBufferAttribute(pos, i).applyMatrix4(board.matrixWorld));
  return [box.min.toArray(), box.max.toArray()];
}
"""


def board_box(xr):
    return xr.probe(_BOARD_BOX_JS, BOARD)


def strokes(xr) -> list[dict]:
    """Every tagged stroke: {'uuid', 'state', 'points': world-space vertices, 'parts'}."""
    return read_strokes(xr, STROKE)


def assert_stroke_count(xr, n: int, what: str) -> list[dict]:
    __tracebackhide__ = True
    found = strokes(xr)
    assert len(found) == n, f"expected {n} stroke(s) on the board {what}; observed {len(found)}"
    return found


def assert_state(xr, what: str, *, strokes: int, drawing: bool) -> None:
    __tracebackhide__ = True
    state = board(xr).state
    state = state if isinstance(state, dict) else {}
    observed = (state.get("strokes"), state.get("drawing"))
    assert observed == (strokes, drawing), (
        f"expected the board's state strokes={strokes}, drawing={drawing} {what}; observed {board(xr).state}"
    )


def check_cursor(xr, what: str):
    """The cursor at this frame's gaze point, or hidden when the ray misses the board."""
    __tracebackhide__ = True
    g, margin = gaze(xr)
    nodes = xr.find_all_by_tag(CURSOR)
    assert len(nodes) == 1, f"expected one object tagged {CURSOR!r} in the scene {what}; observed {len(nodes)}"
    c = nodes[0]
    if g is not None and margin >= EDGE:
        assert c.visible, f"expected the cursor shown {what}: the gaze meets the board at {fmt(g)}; it is hidden"
        off = math.dist(c.position[:2], g)
        assert off <= NEAR, (
            f"expected the cursor's centre within 1 cm of the gaze point {fmt(g)} on this frame {what}; "
            f"observed it at {fmt(c.position)}, {off:.3f} m away"
        )
        dz = c.position[2] - FACE_Z
        assert -BEHIND <= dz <= IN_FRONT, (
            f"expected the cursor on the board's face (0 to 1 cm in front of z = -1.5) {what}; observed z = "
            f"{c.position[2]:.4f}"
        )
        if c.bbox:
            lo, hi = c.bbox
            size = max(hi[0] - lo[0], hi[1] - lo[1])
            assert size <= 0.05 + 0.002, f"expected the cursor at most 5 cm across {what}; observed {size:.3f} m"
    elif margin <= -EDGE:
        where = "the gaze misses the board" if g is None else f"the gaze meets z = -1.5 off the board at {fmt(g)}"
        assert not c.visible, f"expected the cursor hidden {what}: {where}; it is shown at {fmt(c.position)}"
    return g


# --- the user's head ------------------------------------------------------------------------------


class Gaze:
    """Gaze points per frame: {frame: (x, y) or None}."""

    def __init__(self, xr):
        self.xr = xr
        self.frame = xr.frame
        self.points: dict[int, tuple | None] = {}
        self.record()

    def record(self):
        self.points[self.frame] = gaze(self.xr)[0]

    def step(self, frames=1):
        for _ in range(frames):
            self.xr.step(1)
            self.frame += 1
            self.record()

    def path(self, first: int, last: int) -> list:
        return [self.points[f] for f in range(first, last + 1) if self.points.get(f) is not None]


def turn(xr, g: Gaze | None, yaw=0.0, pitch=0.0, *, cursor: str | None = None, on_frame=None) -> None:
    """Turn the head by yaw/pitch degrees, 1.5 degrees a frame, recording the gaze every frame
    (and, with `cursor`, checking the cursor on every frame)."""
    n = max(1, math.ceil(max(abs(yaw), abs(pitch)) / STEP_DEG - 1e-9))
    for _ in range(n):
        frames = xr.head.rotate(yaw=yaw / n, pitch=pitch / n, speed=360)
        assert frames == 1, f"test set-up: a head step took {frames} frames"
        if g is not None:
            g.frame += 1
            g.record()
        if cursor is not None:
            check_cursor(xr, cursor)
        if on_frame is not None:
            on_frame()


def head_gestures(xr) -> list[str]:
    return [e.name for e in xr.events("head_gesture") if e.name in ("shake", "nod")]


def assert_gestures(xr, expected: list[str]) -> None:
    """Test set-up guard: XR Blocks recognised exactly the head gestures this test made (if the app
    enabled recognition at all)."""
    __tracebackhide__ = True
    seen = head_gestures(xr)
    assert not seen or seen == expected, (
        f"test set-up: the head moves made {expected} as head gestures, XR Blocks recognised {seen}"
    )


def shake_or_nod(xr, axis: str, angle: float) -> None:
    """Keep still 1.5 s, then turn `angle` degrees about `axis` at 90 degrees/s and straight back."""
    xr.wait(STILL_MS)
    xr.head.rotate(**{axis: angle}, speed=90)
    xr.head.rotate(**{axis: -angle}, speed=90)


# --- pinches ---------------------------------------------------------------------------------------


def pinch_events(xr, kind: str, role: str, since: int) -> list:
    return xr.events(kind, hand=role, since_frame=since - 1)


def press(xr, g: Gaze, role: str, *, yaw=STEP_DEG, pitch=0.0, max_frames=40) -> int:
    """Pinch with `role`'s hand while the head keeps turning (yaw/pitch degrees a frame), until
    XR Blocks reports the pinch (a select start); returns that frame."""
    since = g.frame + 1
    xr.hand(role).start_select(frames=0)
    for _ in range(max_frames):
        turn(xr, g, yaw, pitch)
        got = pinch_events(xr, "select_start", role, since)
        if got:
            return got[0].frame
    raise AssertionError(f"test set-up: the {role} hand's pinch was not reported within {max_frames} frames")


def lift(xr, g: Gaze, role: str, *, yaw=STEP_DEG, pitch=0.0, max_frames=40) -> int:
    """Release `role`'s pinch while the head keeps turning; returns the frame of the select end."""
    since = g.frame + 1
    xr.hand(role).end_select(frames=0)
    for _ in range(max_frames):
        turn(xr, g, yaw, pitch)
        got = pinch_events(xr, "select_end", role, since)
        if got:
            return got[0].frame
    raise AssertionError(f"test set-up: the {role} hand's release was not reported within {max_frames} frames")


def assert_follows(stroke: dict, g: Gaze, start: int, end: int, what: str) -> None:
    """The stroke covers the gaze of frames start+1 .. end-1, strays nowhere from the gaze path of
    frames start-1 .. end+1, and lies on the board's face."""
    __tracebackhide__ = True
    points = stroke["points"]
    assert points, f"expected the stroke {what} drawn; observed a stroke with no geometry"
    flat = [(p[0], p[1]) for p in points]
    sampled = sample(flat, 2000)
    must = g.path(start + 1, end - 1)
    for p in must:
        gap = min(math.dist(p, q) for q in sampled)
        if gap > NEAR:  # confirm on every vertex
            gap = min(math.dist(p, q) for q in flat)
        assert gap <= NEAR, (
            f"expected the stroke {what} to pass within 1 cm of the gaze point of every frame of the pinch; "
            f"observed nothing drawn within {gap:.3f} m of the gaze point {fmt(p)}"
        )
    allowed = g.path(start - 1, end + 1)
    worst = max(sample(flat, 600), key=lambda q: path_gap(q, allowed))
    far = path_gap(worst, allowed)
    assert far <= STRAY, (
        f"expected the stroke {what} drawn only along the gaze path (nothing more than 1.5 cm from it); "
        f"observed a point at {fmt(worst)}, {far:.3f} m from it"
    )
    lo = min(p[2] for p in points) - FACE_Z
    hi = max(p[2] for p in points) - FACE_Z
    assert lo >= -BEHIND and hi <= IN_FRONT, (
        f"expected the stroke {what} on the board's face (0 to 1 cm in front of z = -1.5); observed its points "
        f"from z = {lo + FACE_Z:.4f} to {hi + FACE_Z:.4f}"
    )


def look_at_board(xr, x: float, y: float) -> None:
    xr.head.look_at((x, y, FACE_Z))
    xr.step(1)


def unmoved(xr, before: list[dict], what: str) -> None:
    """Every stroke of `before` is still there, drawn, where it was."""
    __tracebackhide__ = True
    now = {s["uuid"]: s for s in strokes(xr)}
    for k, old in enumerate(before, start=1):
        assert old["uuid"] in now, f"expected stroke {k} still on the board {what}; it is gone"
        new = now[old["uuid"]]
        assert new["points"], f"expected stroke {k} still drawn {what}; it shows no geometry"
        a, b = sample(old["points"], 300), sample(new["points"], 300)
        moved = max(max(min(math.dist(p, q) for q in b) for p in a), max(min(math.dist(q, p) for p in a) for q in b))
        assert moved <= 0.003, f"expected stroke {k} to stay where it was drawn {what}; its points moved {moved:.3f} m"


def draw(xr, role: str, moves: list, *, start_yaw=STEP_DEG) -> tuple[Gaze, int, int]:
    """One pinch with `role`'s hand while the head turns through `moves` [(yaw, pitch)]; returns
    (gaze record, pinch frame, release frame)."""
    g = Gaze(xr)
    start = press(xr, g, role, yaw=start_yaw)
    for yaw, pitch in moves:
        turn(xr, g, yaw, pitch)
    end = lift(xr, g, role, yaw=0.0, pitch=-STEP_DEG)
    g.step(2)
    return g, start, end


def nearest(stroke: dict, spot) -> float:
    return min(math.dist(spot, p[:2]) for p in stroke["points"]) if stroke["points"] else 9.0


def stroke_for(found: list[dict], g: Gaze, start: int, end: int) -> dict:
    """The stroke covering this pinch's gaze path best."""
    path = g.path(start + 1, end - 1)

    def worst(st):
        flat = [(p[0], p[1]) for p in sample(st["points"], 600)]
        return max(min(math.dist(p, q) for q in flat) for p in path) if flat else 9.0

    return min(found, key=worst)


# --- tests -----------------------------------------------------------------------------------------


def test_the_board_and_the_cursor_at_the_start(xr):
    xr.step(2)
    b = board(xr)
    assert b.visible, "expected the board shown"
    assert math.dist(b.position, (0.0, 1.5, -1.5)) <= 0.015, (
        f"expected the board centred at (0, 1.5, -1.5); observed its position {fmt(b.position)}"
    )
    box = board_box(xr)
    assert box, "expected the object tagged 'sketch-board' to be the board mesh (with geometry of its own)"
    lo, hi = box
    size = (hi[0] - lo[0], hi[1] - lo[1])
    assert abs(size[0] - 1.2) <= 0.02 and abs(size[1] - 0.8) <= 0.02, (
        f"expected the board 1.2 m wide and 0.8 m tall; observed {size[0]:.3f} x {size[1]:.3f} m"
    )
    centre = ((hi[0] + lo[0]) / 2, (hi[1] + lo[1]) / 2)
    assert math.dist(centre, (0.0, 1.5)) <= 0.01, f"expected the board's face around (0, 1.5); observed {fmt(centre)}"
    assert abs(hi[2] - FACE_Z) <= 0.003 and lo[2] >= FACE_Z - 0.02 - 0.003, (
        f"expected the board's front face in the plane z = -1.5, at most 2 cm thick behind it; observed z from "
        f"{lo[2]:.4f} to {hi[2]:.4f}"
    )
    assert_stroke_count(xr, 0, "at the start")
    others = [d for d in xr.drawn() if BOARD not in d.tags and CURSOR not in d.tags]
    assert not others, f"expected nothing drawn at the start but the board and the cursor; observed {others}"
    g = check_cursor(xr, "at the start, looking straight ahead")
    assert g is not None and xr.find_by_tag(CURSOR).visible, "expected the cursor shown at the start"

    # Sweeps, checked on every frame: out over the right edge and back, over the top, below the
    # bottom, over the left edge, diagonally; then turned right round and back.
    for yaw, pitch, what in (
        (-26.0, 0.0, "turning right, over the board's right edge"),
        (26.0, 0.0, "turning back to the centre"),
        (0.0, 18.0, "looking up, over the top edge"),
        (0.0, -36.0, "looking down, below the bottom edge"),
        (24.0, 18.0, "looking up to the left"),
        (4.0, 6.0, "over the left edge"),
        (-22.0, -6.0, "back onto the board"),
    ):
        turn(xr, None, yaw, pitch, cursor=f"on every frame while {what}")
    xr.head.look_at((0.0, 1.5, 1.5))  # turned right round: looking away from the board
    xr.step(1)
    check_cursor(xr, "looking away from the board (turned round)")
    assert not xr.find_by_tag(CURSOR).visible, "expected the cursor hidden while looking away from the board"
    xr.head.look_at((0.1, 1.45, -1.5))
    xr.step(1)
    check_cursor(xr, "after turning back to the board")
    assert xr.find_by_tag(CURSOR).visible, "expected the cursor shown again after turning back to the board"
    assert_stroke_count(xr, 0, "after looking around without pinching")
    assert_state(xr, "after looking around without pinching", strokes=0, drawing=False)
    assert_no_errors(xr)


def test_a_pinch_draws_along_the_gaze_not_the_hand(xr):
    xr.step(1)
    look_at_board(xr, -0.25, 1.6)
    hand = xr.hand("dominant")
    g = Gaze(xr)
    turn(xr, g, -3.0, 0.0)
    assert_stroke_count(xr, 0, "before the pinch")
    start = press(xr, g, "dominant")
    # The stroke is there on the frame after the pinch is reported (at the latest).
    while g.frame < start + 1:
        turn(xr, g, -STEP_DEG, 0.0)
    assert_stroke_count(xr, 1, "on the frame after the pinch was reported")
    assert_state(xr, "while drawing", strokes=1, drawing=True)
    turn(xr, g, -6.0, -4.5)
    [mid] = assert_stroke_count(xr, 1, "while the pinch is held")
    assert_follows(mid, g, start, g.frame, "so far (the pinch still held)")
    early = len(mid["points"])
    # The head keeps still while the hand moves about: the stroke goes where the head looks.
    hand.move_by((0.12, 0.1, -0.1), speed=0.5)
    hand.move_by((-0.2, -0.05, 0.05), speed=0.5)
    g.frame = xr.frame
    g.record()
    turn(xr, g, 3.0, 6.0)
    turn(xr, g, -7.5, 0.0)
    end = lift(xr, g, "dominant", yaw=0.0, pitch=-STEP_DEG)
    g.step(1)
    [stroke] = assert_stroke_count(xr, 1, "after one pinch")
    assert len(stroke["points"]) > early, "expected the stroke to grow while the pinch was held"
    assert_follows(stroke, g, start, end, "of one pinch")
    assert_state(xr, "after the release", strokes=1, drawing=False)
    # Released: looking around adds nothing.
    turn(xr, None, 9.0, 4.5)
    hand.move_by((0.05, 0.05, 0.0), speed=0.5)
    turn(xr, None, 6.0, -3.0)
    [after] = assert_stroke_count(xr, 1, "after looking around with the pinch released")
    assert len(after["points"]) == len(stroke["points"]), (
        f"expected the stroke to end at the release; it went from {len(stroke['points'])} to "
        f"{len(after['points'])} vertices as the head moved on"
    )
    unmoved(xr, [stroke], "after the release")
    assert_state(xr, "after looking around released", strokes=1, drawing=False)
    assert_gestures(xr, [])
    assert_no_errors(xr)


def test_each_pinch_draws_a_new_stroke_and_two_hands_share_one(xr):
    xr.step(1)
    look_at_board(xr, 0.3, 1.7)
    first = draw(xr, "dominant", [(6.0, -3.0), (3.0, 3.0)])
    turn(xr, None, 0.0, -4.5)
    second = draw(xr, "non_dominant", [(-4.5, -3.0), (4.5, -1.5)])
    assert_stroke_count(xr, 2, "after two pinches")
    # Both hands: the dominant hand pinches, the other joins, the dominant lets go, then the other.
    look_at_board(xr, -0.3, 1.3)
    g = Gaze(xr)
    start = press(xr, g, "dominant", yaw=0.0, pitch=STEP_DEG)
    turn(xr, g, -6.0, 0.0)
    press(xr, g, "non_dominant", yaw=-STEP_DEG)
    turn(xr, g, 0.0, 4.5)
    assert_stroke_count(xr, 3, "while both hands pinch (the second hand joined the first hand's stroke)")
    lift(xr, g, "dominant", yaw=-STEP_DEG)
    turn(xr, g, -4.5, -3.0)
    assert_stroke_count(xr, 3, "after the first hand let go while the other still pinches")
    assert_state(xr, "while only the second hand still pinches", strokes=3, drawing=True)
    end = lift(xr, g, "non_dominant", yaw=0.0, pitch=STEP_DEG)
    g.step(2)
    found = assert_stroke_count(xr, 3, "after three pinches, one of them made with both hands")
    used = set()
    for k, (gg, s, e) in enumerate((first, second, (g, start, end)), start=1):
        st = stroke_for(found, gg, s, e)
        assert_follows(st, gg, s, e, f"of pinch {k}")
        used.add(st["uuid"])
    assert len(used) == 3, "expected each pinch to draw its own stroke"
    assert_state(xr, "after three pinches", strokes=3, drawing=False)
    assert_gestures(xr, [])
    assert_no_errors(xr)


def test_the_stroke_ends_where_the_gaze_leaves_the_board(xr):
    xr.step(1)
    look_at_board(xr, 0.25, 1.55)
    g = Gaze(xr)
    start = press(xr, g, "dominant", yaw=-STEP_DEG)
    turn(xr, g, -18.0, 0.0)  # over the right edge, still pinching
    outside = [f for f, p in g.points.items() if f > start and (p is None or p[0] > HALF_W)]
    assert outside, "test set-up: the gaze did not leave the board"
    left_at = min(outside)
    assert_state(xr, "after the gaze left the board during the pinch", strokes=1, drawing=False)
    turn(xr, g, 0.0, 7.5)  # off the board, higher up ...
    turn(xr, g, 15.0, 0.0)  # ... and back onto the board, still pinching
    turn(xr, g, 3.0, -4.5)
    [stroke] = assert_stroke_count(xr, 1, "after the gaze left the board and came back during one pinch")
    assert_follows(stroke, g, start, left_at - 1, "of a pinch whose gaze left the board")
    # The frame the gaze left: nothing of the return path, and nothing off the board.
    xs = [p[0] for p in stroke["points"]]
    assert max(xs) <= HALF_W + 0.01, f"expected nothing drawn off the board; observed a point at x = {max(xs):.3f}"
    assert_state(xr, "with the gaze back on the board during that pinch", strokes=1, drawing=False)
    lift(xr, g, "dominant", yaw=STEP_DEG)
    [kept] = assert_stroke_count(xr, 1, "after the release")
    assert len(kept["points"]) == len(stroke["points"]), "expected nothing added to the stroke at the release"

    # A pinch begun above the board, then looking down onto it: nothing is drawn.
    look_at_board(xr, -0.2, 2.05)
    check_cursor(xr, "looking above the board")
    g2 = Gaze(xr)
    press(xr, g2, "non_dominant", yaw=0.0, pitch=STEP_DEG)
    turn(xr, g2, 0.0, -15.0)
    turn(xr, g2, 6.0, -3.0)
    assert g2.points[g2.frame] is not None, "test set-up: the gaze did not come onto the board"
    assert_stroke_count(xr, 1, "after a pinch begun off the board moved onto it")
    assert_state(xr, "during a pinch begun off the board", strokes=1, drawing=False)
    lift(xr, g2, "non_dominant", yaw=-STEP_DEG)
    assert_stroke_count(xr, 1, "after a pinch begun off the board ended")
    # Released: the next pinch draws again.
    again = draw(xr, "non_dominant", [(0.0, -4.5), (-4.5, 0.0)])
    found = assert_stroke_count(xr, 2, "after a new pinch on the board")
    assert_follows(stroke_for(found, *again), *again, "of the next pinch")
    assert_state(xr, "after a new pinch on the board", strokes=2, drawing=False)
    assert_no_errors(xr)


def test_a_shake_undoes_the_last_stroke_only(xr):
    xr.step(1)
    made = []
    pinches = (
        ("dominant", (-0.35, 1.75), [(-4.5, -4.5)]),
        ("non_dominant", (0.3, 1.7), [(0.0, -7.5)]),
        ("dominant", (-0.1, 1.3), [(-6.0, 1.5)]),
    )
    for k, (role, at, moves) in enumerate(pinches, start=1):
        look_at_board(xr, *at)
        draw(xr, role, moves)
        made = assert_stroke_count(xr, k, f"after {k} pinches")
    # The strokes in the order drawn, told apart by where they were drawn.
    order = []
    for spot in [at for _, at, _ in pinches]:
        order.append(min(made, key=lambda st, at=spot: nearest(st, at)))
    assert len({st["uuid"] for st in order}) == 3, "test set-up: could not tell the three strokes apart"
    look_at_board(xr, 0.0, 1.5)
    expected_gestures: list[str] = []

    # Shake left: the newest stroke goes, within 0.2 s of the head being back; the others stay.
    for n_left, (axis, angle), what in (
        (2, ("yaw", 20.0), "a shake to the left"),
        (2, ("pitch", -20.0), "a nod after it"),
        (1, ("yaw", -22.0), "a shake to the right"),
        (0, ("yaw", 20.0), "a third shake"),
        (0, ("yaw", -20.0), "a shake with no stroke left"),
    ):
        keep = order[:n_left]
        before = len(strokes(xr))
        shake_or_nod(xr, axis, angle)
        xr.step(UNDO_FRAMES)
        expected_gestures.append("shake" if axis == "yaw" else "nod")
        found = strokes(xr)  # 12 frames (0.2 s) after the head was back
        assert len(found) == n_left, (
            f"expected {n_left} stroke(s) left within 0.2 s after {what} (there were {before}); observed {len(found)}"
        )
        unmoved(xr, keep, f"after {what}")
        assert_state(xr, f"after {what}", strokes=n_left, drawing=False)
        xr.wait(500)
        assert_stroke_count(xr, n_left, f"half a second after {what}")
    assert_gestures(xr, expected_gestures)
    # Drawing goes on as before.
    look_at_board(xr, 0.2, 1.6)
    again = draw(xr, "non_dominant", [(4.5, -3.0)])
    [st] = assert_stroke_count(xr, 1, "after drawing again")
    assert_follows(st, *again, "drawn after the undos")
    assert_state(xr, "after drawing again", strokes=1, drawing=False)
    assert_no_errors(xr)


def test_a_shake_while_pinching_undoes_nothing(xr):
    xr.step(1)
    look_at_board(xr, -0.3, 1.75)
    first = draw(xr, "dominant", [(-6.0, -3.0)])
    [kept] = assert_stroke_count(xr, 1, "after the first pinch")
    look_at_board(xr, 0.05, 1.45)
    g = Gaze(xr)
    start = press(xr, g, "non_dominant", yaw=0.0, pitch=STEP_DEG)
    # While the pinch is held: keep still, shake left and back.
    xr.wait(STILL_MS)
    xr.head.rotate(yaw=20.0, speed=90)
    xr.head.rotate(yaw=-20.0, speed=90)
    g.frame = xr.frame
    g.record()
    for _ in range(UNDO_FRAMES + 18):
        g.step(1)
        assert_stroke_count(xr, 2, "during and after a shake made while pinching")
    assert head_gestures(xr) == ["shake"] or not head_gestures(xr), f"test set-up: {head_gestures(xr)}"
    end = lift(xr, g, "non_dominant", yaw=0.0, pitch=-STEP_DEG)
    for _ in range(UNDO_FRAMES + 18):
        xr.step(1)
    found = assert_stroke_count(xr, 2, "after releasing the pinch a shake was made with")
    unmoved(xr, [kept], "after a shake made while pinching")
    during = next(s for s in found if s["uuid"] != kept["uuid"])
    xs = [p[0] for p in during["points"]]
    assert min(xs) <= -0.4, (
        f"expected the shake's gaze movement drawn in the stroke being drawn (it reached x = -0.5); observed its "
        f"points from x = {min(xs):.3f}"
    )
    assert_state(xr, "after a shake made while pinching", strokes=2, drawing=False)
    del first, start, end
    # Now released: a shake undoes the stroke drawn during the shake, and only it.
    shake_or_nod(xr, "yaw", -20.0)
    xr.step(UNDO_FRAMES)
    [left] = assert_stroke_count(xr, 1, "after a shake with no pinch held")
    assert left["uuid"] == kept["uuid"], "expected the newest stroke undone, the first one kept"
    assert_gestures(xr, ["shake", "shake"])
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room")
def test_the_cursor_and_the_strokes_wherever_the_user_is(xr):
    xr.step(1)
    b0 = board(xr)
    look_at_board(xr, -0.2, 1.6)
    first = draw(xr, "dominant", [(-4.5, -3.0)])
    made = assert_stroke_count(xr, 1, "after a pinch from the start")
    # Walk to the right and forward, then look at the board from there.
    xr.head.walk([(0.45, 1.5, -0.55)])
    unmoved(xr, made, "after walking to the right")
    b1 = board(xr)
    assert math.dist(b1.position, b0.position) <= 0.003, (
        f"expected the board to stay where it was; it moved from {fmt(b0.position)} to {fmt(b1.position)}"
    )
    look_at_board(xr, 0.3, 1.35)
    check_cursor(xr, "after walking to the right, looking at the board")
    turn(xr, None, 9.0, 6.0, cursor="on every frame while looking across the board from the right")
    turn(xr, None, 0.0, -20.0, cursor="on every frame while looking down, below the board")
    look_at_board(xr, 0.35, 1.55)
    second = draw_here(xr, "non_dominant", [(-6.0, -3.0), (-3.0, 4.5)])
    made = assert_stroke_count(xr, 2, "after a pinch from the right")
    # Crouch 40 cm and draw from there.
    xr.head.move((0.0, -0.4, 0.0), speed=0.5)
    assert xr.camera_pose().position[1] <= 1.12, "test set-up: the head did not go down"
    unmoved(xr, made, "after crouching")
    look_at_board(xr, 0.0, 1.2)
    turn(xr, None, 0.0, -12.0, cursor="on every frame while looking down from a crouch, below the board")
    turn(xr, None, 6.0, 18.0, cursor="on every frame while looking back up onto the board from a crouch")
    third = draw_here(xr, "dominant", [(0.0, 4.5), (4.5, 0.0)])
    found = assert_stroke_count(xr, 3, "after a pinch from a crouch")
    for k, rec in enumerate((first, second, third), start=1):
        assert_follows(stroke_for(found, *rec), *rec, f"of pinch {k}")
    made = found
    # Stand up, walk to the left, turn away: nothing moves, the cursor hides and shows again.
    xr.head.move((0.0, 0.4, 0.0), speed=0.5)
    xr.head.walk([(-0.5, 1.5, -0.3)])
    look_at_board(xr, -0.1, 1.5)
    check_cursor(xr, "from the left, looking at the board")
    xr.head.look_at((-0.5, 1.5, 1.0))
    xr.step(1)
    check_cursor(xr, "turned away from the board")
    assert not xr.find_by_tag(CURSOR).visible, "expected the cursor hidden while turned away from the board"
    unmoved(xr, made, "after walking to the left and turning away")
    look_at_board(xr, 0.2, 1.7)
    check_cursor(xr, "turned back to the board from the left")
    turn(xr, None, -9.0, -6.0, cursor="on every frame while looking across the board from the left")
    assert math.dist(board(xr).position, b0.position) <= 0.003, "expected the board to stay where it was"
    assert_gestures(xr, [])
    assert_no_errors(xr)


def draw_here(xr, role, moves):
    return draw(xr, role, moves)
