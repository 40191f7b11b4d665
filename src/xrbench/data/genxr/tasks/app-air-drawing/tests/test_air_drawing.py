"""Runtime tests of the air-drawing app.

They check that a pinch with either hand draws a stroke (an object tagged 'stroke') whose
geometry runs along the path the index fingertip took while pinching, in world coordinates and
nowhere else; that moving a hand without pinching, or after releasing, draws nothing; and that
each pinch makes a new, separate stroke while earlier strokes stay. The drawn geometry is read
from the strokes' vertices (lines, tubes, meshes, fat lines or instanced dots), transformed to
the world frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from xrbench.xrtest.actors import POSE_SETTLE_FRAMES
from xrbench.xrtest.assertions import assert_count, assert_no_errors, assert_state

STROKE = "stroke"

pytestmark = pytest.mark.xr_scenes("empty")

# World-space vertices of the visible geometry under each object tagged `tag`.
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
        return;
      }
      if (g.attributes.instanceStart) {  // fat lines (Line2 / LineSegments2)
        const n = Math.min(g.attributes.instanceStart.count, g.instanceCount ?? Infinity);
        push(g.attributes.instanceStart, 0, n, o.matrixWorld);
        push(g.attributes.instanceEnd, 0, n, o.matrixWorld);
        return;
      }
      const pos = g.attributes.position;
      if (!pos) return;
      const from = g.index ? 0 : Math.max(0, g.drawRange.start);
      const to = g.index ? pos.count : Math.min(pos.count, from + g.drawRange.count);
      push(pos, from, to, o.matrixWorld);
    });
    const d = root.userData.xrblocksDevtools;
    return {uuid: root.uuid, state: JSON.parse(JSON.stringify(d.state ?? null)), points};
  });
}
"""


def strokes(xr) -> list[dict]:
    """Every tagged stroke: {'uuid', 'state', 'points': world-space vertices}."""
    return xr.probe(_VERTICES_JS, STROKE)


def _gap(p, points) -> float:
    return min(math.dist(p, q) for q in points)


@dataclass
class Drawing:
    """Where the index fingertip went during one pinch.

    `path`: while the pinch was held and the hand moved (the stroke must cover it); `allowed`:
    also while the fingers were closing and opening again (a stroke may include those bits).
    """

    path: list
    allowed: list


def assert_follows_path(stroke: dict, drawing: Drawing, *, covers: float = 0.02, stray: float = 0.03) -> None:
    """The stroke's vertices run along the fingertip's path: every sample of `drawing.path` has a
    vertex within `covers` metres, and no vertex is farther than `stray` from `drawing.allowed`."""
    points = stroke["points"]
    assert points, f"expected a drawn stroke; observed a stroke with no geometry (state {stroke['state']})"
    missed = max(drawing.path, key=lambda p: _gap(p, points))
    assert _gap(missed, points) <= covers, (
        f"expected the stroke to pass through every position of the index fingertip (within {covers} m); "
        f"observed nothing drawn within {_gap(missed, points):.3f} m of the fingertip at "
        f"({missed[0]:.3f}, {missed[1]:.3f}, {missed[2]:.3f})"
    )
    # Every vertex near the path (sampled every few vertices: tubes have many).
    worst = max(points[:: max(1, len(points) // 400)], key=lambda q: _gap(q, drawing.allowed))
    assert _gap(worst, drawing.allowed) <= stray, (
        f"expected the stroke drawn only along the index fingertip's path (within {stray} m); observed a point "
        f"at ({worst[0]:.3f}, {worst[1]:.3f}, {worst[2]:.3f}), {_gap(worst, drawing.allowed):.3f} m from it"
    )


def _settle(xr, hand, trail: list) -> None:
    """Step while the fingers close or open, recording the fingertip after every frame."""
    for _ in range(POSE_SETTLE_FRAMES):
        xr.step(1)
        trail.append(hand.fingertip)


def draw(xr, role: str, moves: list) -> Drawing:
    """Pinch with `role`'s hand, wait for the fingers to close, move the index fingertip by each
    delta in turn, release and wait for the fingers to open."""
    hand = xr.hand(role)
    allowed = [hand.fingertip]
    hand.start_select(frames=0)
    _settle(xr, hand, allowed)
    path = [hand.fingertip]
    for delta in moves:
        goal = tuple(a + b for a, b in zip(path[-1], delta, strict=True))
        path += hand.move_hand(goal, anchor="fingertip", speed=0.3)["anchor"]
    allowed += path
    hand.end_select(frames=0)
    _settle(xr, hand, allowed)
    return Drawing(path, allowed)


def side(xr, role: str) -> float:
    """+1 for the right hand, -1 for the left: outwards, away from the body's midline."""
    return 1.0 if xr.handedness(role) == "right" else -1.0


def test_a_pinch_draws_a_stroke_along_the_index_fingertip(xr):
    xr.step(1)
    hand = xr.hand("dominant")
    s = side(xr, "dominant")
    hand.move_by((-s * 0.1, 0.05, 0.0))  # moving without a pinch draws nothing
    assert_count(xr, STROKE, 0)
    drawing = draw(xr, "dominant", [(-s * 0.15, 0.0, 0.0), (0.0, 0.1, -0.05)])
    assert_count(xr, STROKE, 1)
    [stroke] = strokes(xr)
    assert_follows_path(stroke, drawing)
    assert_state(xr, STROKE, hand=xr.handedness("dominant"))
    drawn = len(stroke["points"])
    hand.move_by((s * 0.12, -0.12, 0.05))  # released: the stroke ends
    xr.wait(200)
    [after] = strokes(xr)
    assert len(after["points"]) == drawn, (
        f"expected the stroke to end at the release; it grew from {drawn} to {len(after['points'])} vertices "
        "as the hand moved without pinching"
    )
    assert_follows_path(after, drawing)
    assert_no_errors(xr)


def test_each_pinch_starts_a_new_stroke_and_earlier_strokes_stay(xr):
    xr.step(1)
    s = side(xr, "dominant")
    first = draw(xr, "dominant", [(-s * 0.12, 0.0, 0.0)])
    xr.hand("dominant").move_by((0.0, -0.1, 0.0))
    second = draw(xr, "dominant", [(s * 0.1, 0.0, -0.05)])
    other = draw(xr, "non_dominant", [(0.0, 0.1, 0.0), (s * 0.08, 0.0, 0.0)])
    assert_count(xr, STROKE, 3)
    found = strokes(xr)
    for path, who in ((first, "dominant"), (second, "dominant"), (other, "non_dominant")):
        # The stroke that covers this path best must follow it (and only it).
        best = min(found, key=lambda st: max(_gap(p, st["points"]) if st["points"] else 9.0 for p in path.path))
        assert_follows_path(best, path)
        assert best["state"].get("hand") == xr.handedness(who), (
            f"expected the {who} hand's stroke to have state.hand {xr.handedness(who)!r}; observed {best['state']}"
        )
    assert_no_errors(xr)
