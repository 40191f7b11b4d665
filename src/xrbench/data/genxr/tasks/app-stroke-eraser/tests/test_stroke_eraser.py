"""Runtime tests of the draw-and-erase app.

They check that
- the app starts with nothing drawn (no stroke, no visible mesh or line: the cylinder is gone), and
  that open, relaxed, pointing, thumbs-up and closed hands of both sides moving about draw nothing;
- a pinch draws a stroke (an object tagged 'stroke') while it is held: mid-stroke the stroke is
  already there and covers the fingertip's path so far; when released it passes within 1 cm
  (checked to 1.25 cm) of every position the index fingertip took while the pinch was held, and
  none of its vertices lies more than 1.5 cm (checked to 1.7 cm) from the fingertip's path, in
  world coordinates; moving the hand after the release adds nothing to it;
- `state.hand` names the drawing hand, and `state.points` counts at least one point per
  centimetre of the path (and equals the number of drawn points of a line, points or instanced
  object), grows while drawing and stops at the release;
- each pinch starts a new stroke that follows only its own path; either hand draws; both hands
  pinching and moving in turn draw two strokes at once, each following its hand;
- a fist with either hand erases every stroke while the fist is still closing or held: watched
  frame by frame, the strokes go all in the same frame, and once gone nothing of them (nor
  anything else) stays drawn, including the stroke the other hand is drawing at that moment, and
  that hand draws nothing more until it pinches again;
- a fist erases once: strokes the other hand draws while the fist is held stay
  until the next fist; open, relaxed, pointing and thumbs-up hands (both at once) and pinches
  erase nothing; after erasing, both hands draw again;
- strokes stay, unmoved and visible, while the user walks, turns, looks down and crouches and for
  two seconds more; a fist made while looking down and crouched erases them all, and they stay
  erased when the user stands up.

The drawn geometry is read from the strokes' vertices (lines, tubes, meshes, fat lines or
instanced dots), transformed to the world frame. Each test runs for a right- and a left-dominant
user.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pytest

from xrbench.xrtest.actors import POSE_SETTLE_FRAMES
from xrbench.xrtest.assertions import assert_no_errors

STROKE = "stroke"
COVERS = 0.0125  # "passes within 1 cm of every position the fingertip took", within 25 %
STRAY = 0.017  # "nothing of a stroke lies more than 1.5 cm from the path" (+2 mm)
STILL = 0.003  # metres a drawn stroke may move afterwards
SPEED = 0.3  # m/s of the drawing hand: 5 mm a frame

pytestmark = pytest.mark.xr_scenes("empty")

# World-space vertices of the visible geometry under each object tagged `tag`, and per drawable the
# number of points it draws (a line's vertices in its draw range, a fat line's segments + 1, an
# instanced mesh's instances).
_VERTICES_JS = """
(h, tag) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const visibleUp = (o) => { for (let p = o; p; p = p.parent) if (!p.visible) return false; return true; };
  const roots = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (d && String(d.tag) === tag) roots.push(o);
  });
  return roots.map((root) => {
    const points = [];
    const parts = [];
    const v = new THREE.Vector3(), m = new THREE.Matrix4();
    root.traverse((o) => {
      const g = o.geometry;
      if (!g || !g.attributes || !visibleUp(o)) return;
      const push = (attr, from, to, matrix) => {
        for (let i = from; i < to; i++) {
          v.fromBufferAttribute(attr, i).applyMatrix4(matrix);
          points.push([v.x, v.y, v.z]);
        }
      };
      if (o.isInstancedMesh) {  // one point per instance: its origin
        for (let i = 0; i < o.count; i++) {
          o.getMatrixAt(i, m);
          v.set(0, 0, 0).applyMatrix4(m).applyMatrix4(o.matrixWorld);
          points.push([v.x, v.y, v.z]);
        }
        parts.push({kind: 'instanced', count: o.count});
        return;
      }
      if (g.attributes.instanceStart) {  // fat lines (Line2 / LineSegments2)
        const n = Math.min(g.attributes.instanceStart.count, g.instanceCount ?? Infinity);
        push(g.attributes.instanceStart, 0, n, o.matrixWorld);
        push(g.attributes.instanceEnd, 0, n, o.matrixWorld);
        parts.push({kind: o.isLineSegments2 && !o.isLine2 ? 'segments' : 'line2', count: n});
        return;
      }
      const pos = g.attributes.position;
      if (!pos) return;
      const from = g.index ? 0 : Math.max(0, g.drawRange.start);
      const to = g.index ? pos.count : Math.min(pos.count, from + g.drawRange.count);
      push(pos, from, to, o.matrixWorld);
      const kind = o.isLineSegments ? 'segments' : o.isLine ? 'line' : o.isPoints ? 'points' : 'mesh';
      parts.push({kind, count: Math.max(0, to - from)});
    });
    const d = root.userData.xrblocksDevtools;
    return {uuid: root.uuid, state: JSON.parse(JSON.stringify(d.state ?? null)), points, parts};
  });
}
"""


# How many objects tagged `tag` have visible geometry with something in it (a cheap per-frame count).
_SHOWN_JS = """
(h, tag) => {
  const scene = h.guard(h.core.scene, 'the scene');
  const visibleUp = (o) => { for (let p = o; p; p = p.parent) if (!p.visible) return false; return true; };
  const drawsSomething = (o) => {
    const g = o.geometry;
    if (!g || !g.attributes || !visibleUp(o)) return false;
    if (o.isInstancedMesh) return o.count > 0;
    if (g.attributes.instanceStart) return Math.min(g.attributes.instanceStart.count, g.instanceCount ?? Infinity) > 0;
    const pos = g.attributes.position;
    if (!pos) return false;
    return g.index ? pos.count > 0 : Math.min(pos.count - Math.max(0, g.drawRange.start), g.drawRange.count) > 0;
  };
  let n = 0;
  scene.traverse((o) => {
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== tag) return;
    let found = false;
    o.traverse((c) => { found = found || drawsSomething(c); });
    if (found) n++;
  });
  return n;
}
"""


def shown_count(xr) -> int:
    """How many strokes have visible geometry (the same as `len(shown(xr))`, cheaper)."""
    return xr.probe(_SHOWN_JS, STROKE)


def strokes(xr) -> list[dict]:
    """Every tagged stroke: {'uuid', 'state', 'points': world-space vertices, 'parts'}."""
    return xr.probe(_VERTICES_JS, STROKE)


def _fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _sample(points: list, n: int = 400) -> list:
    return points[:: max(1, len(points) // n)]


def _gap(p, points) -> float:
    return min(math.dist(p, q) for q in points)


def _seg_dist(p, a, b) -> float:
    ab = [b[i] - a[i] for i in range(3)]
    ap = [p[i] - a[i] for i in range(3)]
    n = sum(c * c for c in ab)
    t = 0.0 if n < 1e-12 else max(0.0, min(1.0, sum(ab[i] * ap[i] for i in range(3)) / n))
    return math.dist(p, [a[i] + t * ab[i] for i in range(3)])


def _path_gap(p, path: list) -> float:
    """Distance from `p` to the polyline through `path` (consecutive fingertip positions)."""
    if len(path) == 1:
        return math.dist(p, path[0])
    return min(_seg_dist(p, path[i], path[i + 1]) for i in range(len(path) - 1))


def _length(path: list) -> float:
    return sum(math.dist(path[i], path[i + 1]) for i in range(len(path) - 1))


@dataclass
class Trail:
    """Where one hand's index fingertip went during one pinch.

    `path`: while the pinch was held (the stroke must cover it); `allowed`: also while the fingers
    were closing and opening again (a stroke may include those bits).
    """

    role: str
    handedness: str
    path: list = field(default_factory=list)
    allowed: list = field(default_factory=list)


def assert_follows(stroke: dict, trail: Trail, *, path: list | None = None) -> None:
    """The stroke's vertices run along the fingertip's path: every sample of the path (or of
    `path`, a part of it) has a vertex within COVERS, and no vertex is farther than STRAY from
    the polyline of the fingertip's positions."""
    __tracebackhide__ = True
    points = stroke["points"]
    assert points, f"expected a drawn stroke; observed a stroke with no geometry (state {stroke['state']})"
    samples = path if path is not None else trail.path
    sampled = _sample(points, 1500)
    missed = max(samples, key=lambda p: _gap(p, sampled))
    gap = _gap(missed, points)
    assert gap <= COVERS, (
        f"expected the {trail.role} hand's stroke to pass within 1 cm of every position of the index fingertip "
        f"while the pinch was held; observed nothing drawn within {gap:.3f} m of the fingertip at {_fmt(missed)}"
    )
    worst = max(_sample(points), key=lambda q: _path_gap(q, trail.allowed))
    far = _path_gap(worst, trail.allowed)
    assert far <= STRAY, (
        f"expected the {trail.role} hand's stroke drawn only along its index fingertip's path (nothing more than "
        f"1.5 cm from it); observed a point at {_fmt(worst)}, {far:.3f} m from it"
    )


def assert_hand(stroke: dict, trail: Trail) -> None:
    __tracebackhide__ = True
    state = stroke["state"] if isinstance(stroke["state"], dict) else {}
    assert state.get("hand") == trail.handedness, (
        f"expected the {trail.role} hand's stroke to have state.hand {trail.handedness!r}; observed {stroke['state']}"
    )


def assert_points(stroke: dict, drawn: list) -> int:
    """`state.points` counts the recorded points: at least one per centimetre of `drawn` (the path
    so far), and, for a stroke drawn as one line, points or instanced object, that object's points."""
    __tracebackhide__ = True
    state = stroke["state"] if isinstance(stroke["state"], dict) else {}
    n = state.get("points")
    assert isinstance(n, int | float) and not isinstance(n, bool) and n == int(n), (
        f"expected state.points to be the number of points of the stroke; observed state {stroke['state']}"
    )
    least = int(0.8 * _length(drawn) / 0.01)
    assert n >= max(2, least), (
        f"expected state.points to count the stroke's points (at least one per cm of the {_length(drawn):.3f} m "
        f"drawn so far, so at least {max(2, least)}); observed {n}"
    )
    parts = stroke["parts"]
    if len(parts) == 1 and parts[0]["kind"] in ("line", "points", "instanced", "line2"):
        count = parts[0]["count"] + (1 if parts[0]["kind"] == "line2" else 0)
        assert abs(n - count) <= 2, (
            f"expected state.points equal to the number of points the stroke holds; observed state.points {n} "
            f"for a {parts[0]['kind']} of {count} points"
        )
    return int(n)


def _settle(xr, trails) -> None:
    """Step while the fingers close or open, recording each fingertip after every frame."""
    for _ in range(POSE_SETTLE_FRAMES):
        xr.step(1)
        for t in trails:
            t.allowed.append(tuple(xr.hand(t.role).fingertip))


def begin(xr, *roles: str) -> list[Trail]:
    """Pinch with each role's hand in the same frame and wait for the fingers to close."""
    trails = [Trail(role, xr.handedness(role)) for role in roles]
    for t in trails:
        t.allowed.append(tuple(xr.hand(t.role).fingertip))
    for t in trails:
        xr.hand(t.role).start_select(frames=0)
    _settle(xr, trails)
    for t in trails:
        t.path.append(tuple(xr.hand(t.role).fingertip))
    return trails


def move(xr, trail: Trail, moves: list, others: tuple = (), *, speed: float = SPEED) -> None:
    """Move the pinching hand's fingertip by each delta in turn (the other pinching hands stay)."""
    hand = xr.hand(trail.role)
    for delta in moves:
        goal = tuple(a + b for a, b in zip(trail.path[-1], delta, strict=True))
        trail.path += [tuple(p) for p in hand.move_hand(goal, anchor="fingertip", speed=speed)["anchor"]]
    for o in others:
        o.path.append(tuple(xr.hand(o.role).fingertip))


def end(xr, *trails: Trail) -> None:
    for t in trails:
        t.allowed += t.path
    for t in trails:
        xr.hand(t.role).end_select(frames=0)
    _settle(xr, trails)


def draw(xr, role: str, moves: list) -> Trail:
    [t] = begin(xr, role)
    move(xr, t, moves)
    end(xr, t)
    return t


def side(xr, role: str) -> float:
    """+1 for the right hand, -1 for the left: outwards, away from the body's midline."""
    return 1.0 if xr.handedness(role) == "right" else -1.0


def shown(xr) -> list[dict]:
    """The strokes with visible geometry (an erased stroke may stay in the scene, hidden)."""
    return [s for s in strokes(xr) if s["points"]]


def assert_count(xr, n: int, what: str) -> list[dict]:
    __tracebackhide__ = True
    found = shown(xr)
    assert len(found) == n, f"expected {n} visible stroke(s) {what}; observed {len(found)}"
    return found


def assert_erased(xr, what: str) -> None:
    """No stroke is visible and nothing else the app draws is left (a light is fine)."""
    __tracebackhide__ = True
    assert_count(xr, 0, what)
    left = xr.drawn()
    assert not left, f"expected nothing drawn {what}; observed {left}"


def match(found: list[dict], trail: Trail) -> dict:
    """The stroke that covers this trail's path best."""
    return min(
        found, key=lambda st: max(_gap(p, _sample(st["points"], 600)) if st["points"] else 9.0 for p in trail.path)
    )


def assert_unmoved(xr, before: list[dict], what: str) -> None:
    __tracebackhide__ = True
    now = {s["uuid"]: s for s in strokes(xr)}
    for k, old in enumerate(before, start=1):
        assert old["uuid"] in now, f"expected stroke {k} still in the scene {what}; it is gone"
        new = now[old["uuid"]]
        assert new["points"], f"expected stroke {k} still drawn (visible) {what}; it shows no geometry"
        a, b = _sample(old["points"], 300), _sample(new["points"], 300)
        moved = max(max(_gap(p, b) for p in a), max(_gap(q, a) for q in b))
        assert moved <= STILL, (
            f"expected stroke {k} to stay where it was drawn {what}; observed its points up to {moved:.3f} m away"
        )


def close_fist(xr, role: str, what: str) -> None:
    """Close `role`'s hand into a fist frame by frame and keep it closed: every visible stroke must
    go, all in the same frame, before the hand has finished closing, and stay gone."""
    __tracebackhide__ = True
    before = len(shown(xr))
    assert before, "the test needs strokes to erase"
    xr.hand(role).set_pose("fist", frames=0)
    gone = None
    for k in range(1, POSE_SETTLE_FRAMES + 1):
        xr.step(1)
        n = shown_count(xr)
        if gone is None:
            assert n in (0, before), (
                f"expected every stroke erased at once (in the same frame) by the {role} hand's fist {what}; "
                f"observed {n} of {before} strokes still visible {k} frames after the hand began to close"
            )
            if n == 0:
                gone = k
        else:
            assert n == 0, f"expected the erased strokes to stay erased {what}; {n} visible again"
    assert gone is not None, (
        f"expected the {role} hand's fist to erase every stroke {what} as soon as it is made, while the hand is "
        f"closed; observed all {before} strokes still visible {POSE_SETTLE_FRAMES} frames after the hand began "
        "to close"
    )
    assert_erased(xr, f"once the {role} hand made a fist {what}")


def open_hand(xr, role: str) -> None:
    xr.hand(role).set_pose("relaxed")


def test_nothing_is_drawn_until_a_pinch(xr):
    xr.step(2)
    assert_count(xr, 0, "at the start")
    visible = xr.drawn()
    assert not visible, f"expected nothing drawn at the start (the cylinder removed); observed {visible}"
    dom, other = xr.hand("dominant"), xr.hand("non_dominant")
    s = side(xr, "dominant")
    for k, pose in enumerate(("neutral", "pointing", "thumbs_up", "fist")):
        dom.set_pose(pose)
        other.set_pose(pose)
        dom.move_hand((0.25 * s - 0.1 * k * s, 1.3 + 0.05 * k, -0.4), anchor="fingertip", speed=0.5)
        other.move_hand((-0.2 * s, 1.45 - 0.05 * k, -0.35 - 0.03 * k), anchor="fingertip", speed=0.5)
        assert_count(xr, 0, f"after {pose} hands moved about without pinching")
    dom.set_pose("relaxed")
    other.set_pose("relaxed")
    dom.move_by((0.05 * s, 0.05, 0.05), speed=0.5)
    visible = xr.drawn()
    assert not visible, f"expected nothing drawn by hands moving without a pinch; observed {visible}"
    assert_no_errors(xr)


def test_a_fist_with_either_hand_erases_every_stroke_at_once(xr):
    xr.step(1)
    s = side(xr, "dominant")
    xr.hand("dominant").move_hand((0.15 * s, 1.4, -0.4), anchor="fingertip")
    draw(xr, "dominant", [(-s * 0.12, 0.0, 0.0)])
    xr.hand("dominant").move_by((0.0, -0.1, 0.0))
    draw(xr, "dominant", [(0.0, 0.0, -0.05), (-s * 0.1, 0.08, 0.0)])
    xr.hand("non_dominant").move_hand((-0.2 * s, 1.3, -0.4), anchor="fingertip")
    draw(xr, "non_dominant", [(0.0, 0.1, 0.0)])
    assert_count(xr, 3, "after three pinches")
    close_fist(xr, "non_dominant", "")
    xr.step(30)  # the fist held
    assert_erased(xr, "while the fist is held")
    open_hand(xr, "non_dominant")
    assert_erased(xr, "after the fist opened again")
    xr.hand("dominant").move_hand((0.1 * s, 1.35, -0.45), anchor="fingertip")
    again = draw(xr, "dominant", [(s * 0.1, 0.0, 0.0)])  # drawing works again
    [stroke] = assert_count(xr, 1, "after a pinch once the strokes were erased")
    assert_follows(stroke, again)
    assert_hand(stroke, again)
    close_fist(xr, "dominant", "the second time")
    assert_no_errors(xr)


def test_a_fist_erases_the_stroke_being_drawn_and_erases_once(xr):
    xr.step(1)
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    non.move_hand((-0.2 * s, 1.3, -0.4), anchor="fingertip")
    draw(xr, "non_dominant", [(0.0, 0.08, 0.0)])
    dom.move_hand((0.2 * s, 1.35, -0.4), anchor="fingertip")
    [t] = begin(xr, "dominant")
    move(xr, t, [(-s * 0.1, 0.0, 0.0)])
    assert_count(xr, 2, "while the dominant hand draws its stroke")
    close_fist(xr, "non_dominant", "while the other hand is drawing")
    # The dominant hand still pinches and moves on: it draws only with its next pinch.
    move(xr, t, [(0.0, 0.08, 0.0), (s * 0.06, 0.0, 0.0)])
    assert_erased(xr, "while the pinch that was drawing at the fist is still held")
    end(xr, t)
    assert_erased(xr, "after the pinch that was drawing at the fist was released")
    # The fist stays closed: strokes drawn now stay until the next fist.
    dom.move_by((0.0, -0.1, 0.0))
    held = draw(xr, "dominant", [(-s * 0.1, 0.05, 0.0)])
    xr.wait(1000)
    [stroke] = assert_count(xr, 1, "drawn while the other hand's fist was held (a fist erases once)")
    assert_follows(stroke, held)
    open_hand(xr, "non_dominant")
    [stroke] = assert_count(xr, 1, "after the fist opened again")
    assert_follows(stroke, held)
    close_fist(xr, "dominant", "")
    open_hand(xr, "dominant")
    non.move_hand((-0.15 * s, 1.4, -0.45), anchor="fingertip")
    left = draw(xr, "non_dominant", [(s * 0.08, 0.0, 0.0)])
    dom.move_hand((0.2 * s, 1.3, -0.45), anchor="fingertip")
    right = draw(xr, "dominant", [(0.0, 0.08, 0.0)])
    found = assert_count(xr, 2, "after both hands drew again")
    for trail in (left, right):
        best = match(found, trail)
        assert_follows(best, trail)
        assert_hand(best, trail)
    assert_no_errors(xr)


def test_only_a_fist_erases(xr):
    xr.step(1)
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    dom.move_hand((0.2 * s, 1.35, -0.4), anchor="fingertip")
    draw(xr, "dominant", [(-s * 0.1, 0.05, 0.0)])
    non.move_hand((-0.2 * s, 1.3, -0.4), anchor="fingertip")
    draw(xr, "non_dominant", [(0.0, 0.08, 0.0)])
    made = assert_count(xr, 2, "after two pinches")
    for pose in ("neutral", "relaxed", "pointing", "thumbs_up"):
        dom.set_pose(pose, frames=0)
        non.set_pose(pose, frames=40)  # both hands at once, held
        assert_unmoved(xr, made, f"after both hands made a {pose} pose (only a fist erases)")
    dom.set_pose("relaxed")
    dom.move_by((0.0, -0.1, 0.0))
    draw(xr, "dominant", [(s * 0.08, 0.0, 0.0)])
    assert_unmoved(xr, made, "after another pinch (only a fist erases)")
    assert_count(xr, 3, "after three pinches")
    close_fist(xr, "non_dominant", "")
    assert_no_errors(xr)


def test_a_pinch_draws_a_stroke_along_the_index_fingertip(xr):
    xr.step(1)
    hand = xr.hand("dominant")
    s = side(xr, "dominant")
    hand.move_hand((0.2 * s, 1.35, -0.4), anchor="fingertip")
    assert_count(xr, 0, "before the pinch")
    [t] = begin(xr, "dominant")
    move(xr, t, [(-s * 0.15, 0.0, 0.0)])
    # Mid-stroke, the pinch still held: the stroke is there and covers the path so far.
    [mid] = assert_count(xr, 1, "while the pinch is held")
    assert_follows(mid, Trail(t.role, t.handedness, t.path, t.allowed + t.path))
    early = assert_points(mid, t.path)
    move(xr, t, [(0.0, 0.1, -0.05), (s * 0.06, -0.04, 0.04)], speed=0.2)
    move(xr, t, [(0.0, -0.08, 0.0)], speed=0.4)
    end(xr, t)
    [stroke] = assert_count(xr, 1, "after one pinch")
    assert_follows(stroke, t)
    assert_hand(stroke, t)
    drawn = assert_points(stroke, t.path)
    assert drawn > early, f"expected state.points to grow while drawing; it stayed {early}"
    hand.move_by((s * 0.12, -0.12, 0.05))  # released: the stroke ends
    hand.move_by((-s * 0.05, 0.1, -0.1))
    xr.wait(200)
    [after] = assert_count(xr, 1, "after the hand moved on released")
    assert len(after["points"]) == len(stroke["points"]), (
        f"expected the stroke to end at the release; it grew from {len(stroke['points'])} to "
        f"{len(after['points'])} vertices as the hand moved without pinching"
    )
    assert_follows(after, t)
    assert after["state"].get("points") == drawn, (
        f"expected state.points to stay {drawn} after the release; observed {after['state']}"
    )
    assert_no_errors(xr)


def test_each_pinch_draws_its_own_stroke_with_either_hand_and_both_at_once(xr):
    xr.step(1)
    s = side(xr, "dominant")
    xr.hand("dominant").move_hand((0.15 * s, 1.4, -0.4), anchor="fingertip")
    first = draw(xr, "dominant", [(-s * 0.12, 0.0, 0.0)])
    xr.hand("dominant").move_by((0.0, -0.1, 0.0))
    second = draw(xr, "dominant", [(s * 0.1, 0.0, -0.05)])
    xr.hand("non_dominant").move_hand((-0.2 * s, 1.3, -0.4), anchor="fingertip")
    other = draw(xr, "non_dominant", [(0.0, 0.1, 0.0), (s * 0.08, 0.0, 0.0)])
    found = assert_count(xr, 3, "after three pinches")
    used = set()
    for trail in (first, second, other):
        best = match(found, trail)
        assert_follows(best, trail)  # follows this path, and only it
        assert_hand(best, trail)
        assert_points(best, trail.path)
        used.add(best["uuid"])
    assert len(used) == 3, "expected each pinch to draw its own stroke"
    # Both hands pinch in the same frame and draw, moving in turn.
    xr.hand("dominant").move_hand((0.2 * s, 1.3, -0.5), anchor="fingertip")
    xr.hand("non_dominant").move_hand((-0.2 * s, 1.45, -0.5), anchor="fingertip")
    dom, non = begin(xr, "dominant", "non_dominant")
    move(xr, dom, [(0.0, 0.1, 0.0)], others=(non,))
    move(xr, non, [(0.0, -0.1, -0.05)], others=(dom,))
    assert_count(xr, 5, "while both hands pinch")
    move(xr, dom, [(-s * 0.1, 0.0, 0.0)], others=(non,))
    move(xr, non, [(s * 0.08, 0.05, 0.0)], others=(dom,))
    end(xr, dom, non)
    found = assert_count(xr, 5, "after both hands drew at once")
    a, b = match(found, dom), match(found, non)
    assert a["uuid"] != b["uuid"] and not {a["uuid"], b["uuid"]} & used, "expected each hand to draw its own stroke"
    for stroke, trail in ((a, dom), (b, non)):
        assert_follows(stroke, trail)
        assert_hand(stroke, trail)
        assert_points(stroke, trail.path)
    assert_no_errors(xr)


def test_strokes_stay_in_the_room_until_a_fist(xr):
    xr.step(1)
    s = side(xr, "dominant")
    xr.hand("dominant").move_hand((0.2 * s, 1.35, -0.4), anchor="fingertip")
    first = draw(xr, "dominant", [(-s * 0.1, 0.05, 0.0)])
    xr.hand("non_dominant").move_hand((-0.2 * s, 1.25, -0.45), anchor="fingertip")
    second = draw(xr, "non_dominant", [(0.0, 0.08, -0.05)])
    xr.hand("dominant").move_by((0.05 * s, -0.1, 0.1))  # the hands move on
    xr.hand("non_dominant").move_by((-0.05 * s, 0.1, 0.0))
    found = assert_count(xr, 2, "after two pinches")
    made = [match(found, first), match(found, second)]
    xr.hand("dominant").rest()
    xr.hand("non_dominant").rest()
    xr.head.walk([(0.4, 1.5, 0.3)])  # turns towards it and walks there
    assert_unmoved(xr, made, "after the user walked away")
    xr.head.rotate(yaw=60)
    xr.head.rotate(pitch=-20)  # looks down ...
    xr.head.move((0.0, -0.3, 0.0), speed=0.5)  # ... and crouches
    assert_unmoved(xr, made, "after the user turned, looked down and crouched")
    pose = xr.camera_pose()
    assert pose.position[1] <= 1.25, f"the head did not go down: {pose.position}"
    ahead = tuple(pose.position[i] + 0.35 * pose.forward[i] for i in range(3))
    xr.hand("dominant").move_hand(ahead, anchor="fingertip")
    third = draw(xr, "dominant", [(0.0, 0.06, 0.0), (0.08, 0.0, 0.05)])  # drawn while looking down, crouched
    found = assert_count(xr, 3, "after a pinch while looking down and crouching")
    made.append(match(found, third))
    assert_follows(made[-1], third)
    xr.wait(2000)
    assert_unmoved(xr, made, "two seconds after the last stroke was drawn")
    close_fist(xr, "non_dominant", "while looking down and crouching")
    open_hand(xr, "non_dominant")
    xr.head.rotate(pitch=20)
    xr.head.move((0.0, 0.3, 0.0), speed=0.5)
    assert_erased(xr, "after the user stood up again")
    assert_no_errors(xr)
