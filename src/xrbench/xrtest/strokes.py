"""Drawing apps: strokes read from their vertices and the fingertip paths they must follow.

A stroke is an object the app tags (`userData.xrblocksDevtools.tag`, "stroke" by default) with
whatever it draws under it: lines, fat lines, tubes, meshes, points or instanced dots. The
readers take its visible vertices in world coordinates through the harness (`xr.probe`); the
actors pinch with a hand, move its index fingertip along a path and record every position it
took (`Trail`), so a test can check that a stroke covers the path and strays nowhere else.
Used by the drawing tasks of GenXR-Bench (air drawing, the stroke eraser).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xrbench.xrtest.actors import POSE_SETTLE_FRAMES

if TYPE_CHECKING:
    from xrbench.xrtest.session import XRSession

STROKE_TAG = "stroke"
COVERS = 0.0125  # "passes within 1 cm of every position the fingertip took", within 25 %
STRAY = 0.017  # "nothing of a stroke lies more than 1.5 cm from the path" (+2 mm)
STILL = 0.003  # metres a drawn stroke may move afterwards
SPEED = 0.3  # m/s of the drawing hand: 5 mm a frame

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


def read_strokes(xr: XRSession, tag: str = STROKE_TAG) -> list[dict]:
    """Every object tagged `tag`: {'uuid', 'state', 'points': world-space vertices of its visible
    geometry, 'parts': per drawable its kind and point count}."""
    return xr.probe(_VERTICES_JS, tag)


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


def path_length(path: list) -> float:
    """Length of the polyline through `path`."""
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


def assert_follows(
    stroke: dict, trail: Trail, *, path: list | None = None, covers: float = COVERS, stray: float = STRAY
) -> None:
    """The stroke's vertices run along the fingertip's path: every sample of the path (or of
    `path`, a part of it) has a vertex within `covers`, and no vertex is farther than `stray` from
    the polyline of the fingertip's positions (defaults: "within 1 cm" and "nothing more than 1.5 cm
    from it", with 25 % and 2 mm of slack)."""
    __tracebackhide__ = True
    points = stroke["points"]
    assert points, f"expected a drawn stroke; observed a stroke with no geometry (state {stroke['state']})"
    samples = path if path is not None else trail.path
    sampled = _sample(points, 1500)
    missed = max(samples, key=lambda p: _gap(p, sampled))
    gap = _gap(missed, points)
    assert gap <= covers, (
        f"expected the {trail.role} hand's stroke to pass within {covers:.4f} m of every position of its index "
        f"fingertip while the pinch was held; observed nothing drawn within {gap:.3f} m of it at {_fmt(missed)}"
    )
    worst = max(_sample(points), key=lambda q: _path_gap(q, trail.allowed))
    far = _path_gap(worst, trail.allowed)
    assert far <= stray, (
        f"expected the {trail.role} hand's stroke drawn only along its index fingertip's path (nothing more than "
        f"{stray:.4f} m from it); observed a point at {_fmt(worst)}, {far:.3f} m from it"
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
    least = int(0.8 * path_length(drawn) / 0.01)
    assert n >= max(2, least), (
        f"expected state.points to count the stroke's points (at least one per cm of the {path_length(drawn):.3f} m "
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


def match(found: list[dict], trail: Trail) -> dict:
    """The stroke that covers this trail's path best."""
    return min(
        found, key=lambda st: max(_gap(p, _sample(st["points"], 600)) if st["points"] else 9.0 for p in trail.path)
    )


def assert_unmoved(
    xr: XRSession, before: list[dict], what: str, *, tag: str = STROKE_TAG, still: float = STILL
) -> None:
    """Every stroke of `before` (read earlier) is still there, drawn, within `still` of where it was."""
    __tracebackhide__ = True
    now = {s["uuid"]: s for s in read_strokes(xr, tag)}
    for k, old in enumerate(before, start=1):
        assert old["uuid"] in now, f"expected stroke {k} still in the scene {what}; it is gone"
        new = now[old["uuid"]]
        assert new["points"], f"expected stroke {k} still drawn (visible) {what}; it shows no geometry"
        a, b = _sample(old["points"], 300), _sample(new["points"], 300)
        moved = max(max(_gap(p, b) for p in a), max(_gap(q, a) for q in b))
        assert moved <= still, (
            f"expected stroke {k} to stay where it was drawn {what}; observed its points up to {moved:.3f} m away"
        )
