"""Runtime tests of XR Blocks' SurfacePen (sdk/src/depth/SurfacePen.ts), through the demo app, in two
furnished rooms.

The demo app makes one pen (colour #ff3d00, maxStrokes 3, minSpacing 1 cm) and tags each stroke the
pen reports starting ('surface-stroke', state {hand, done}). Strokes are read from the scene graph:
their type, material and colour, their parent, and their drawn vertices in the world (the draw range
of their geometry, through their matrixWorld).

Where a vertex lies is judged against the room itself: the hand's ray (the controller's position and
-Z, read by the harness in the frame the vertex came) is cast into the simulated room (the scene the
simulator renders its depth image from, the hands left out), and the vertex must lie on that ray
(2 cm) and on the real surface: its depth along the viewing direction within 3 cm plus 2% of the
depths the room shows at the vertex's place in the view and 1.5 depth pixels around it (the depth
image is 160 x 160, so near an object's edge either side counts). Every target is a surface the user
sees, with nothing between the eyes and the ray's path beyond 0.3 m, so the depth data and the room
agree there.

Rays are turned by whole steps of one frame each (`point_to` at a turn speed done in one frame), so
the frame a vertex must come is known: a frame in which the room's point on the ray lies more than
minSpacing plus 2 cm from the stroke's last vertex must add one, a frame in which the hand is still
adds none. Each test runs for a right- and a left-dominant user.
"""

from __future__ import annotations

import itertools
import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.session import rotate

pytestmark = [pytest.mark.xr_scenes("living_room", "kitchen"), pytest.mark.xr_timeout(600), pytest.mark.fail_to_pass]

STROKE, PEN = "surface-stroke", "surface-pen"
COLOUR = "ff3d00"
SPACING = 0.01
MAX_STROKES = 3
FAST = 100000.0  # deg/s: a turn done in one frame
HAND_SPEED = 6.0  # m/s: 10 cm a frame
FRESH_FRAMES = 5  # frames after a pose change: the depth data of the new view has arrived
QUERY_PX = 1.5  # neighbourhood of a vertex's place in the view, in depth pixels
ON_RAY = 0.02  # metres off the ray
STILL = 0.002  # metres a vertex may move once added
MIN_RANGE, MAX_RANGE = 0.3, 5.0
MUST_ADD = SPACING + 0.02  # the room's point this far from the last vertex: a vertex must come

Vec = tuple[float, float, float]


def line_path(a: Vec, b: Vec, n: int) -> list[Vec]:
    """n points from a (excluded) to b (included)."""
    return [tuple(x + (y - x) * (i + 1) / n for x, y in zip(a, b, strict=True)) for i in range(n)]  # type: ignore[misc]


# Where the user stands and looks, and the strokes' paths, per room: world points on real surfaces.
PLANS = {
    "living_room": {
        "start": ((0.0, 1.5, 0.0), (0.0, 1.2, -3.0)),
        "wall": ((0.4, 1.8, -4.0), (1.4, 1.8, -4.0)),  # the north wall, 3.8 m from the hand
        "table": ((0.15, 0.75, -1.3), (0.45, 0.75, -1.3)),  # the table top, below the middle of the view
        "sofa": ((0.2, 0.8, -3.75), (0.8, 0.8, -3.75)),  # the sofa's back (no plane)
        "turned": ((0.5, 1.5, 0.3), (2.87, 1.15, -1.5)),  # walked, facing the TV
        "tv": ((2.87, 1.3, -1.6), (2.87, 1.1, -1.0)),  # the TV's screen (no plane)
        "crouched": ((1.0, 1.0, 0.5), (-2.6, 1.0, -1.0)),  # crouched, facing the bookshelf
        "far": ((-2.5, 1.5, 1.5), (2.5, 1.0, -3.5), (2.3, 1.2, -4.0)),  # a wall 7 m from the hand
    },
    "kitchen": {
        "start": ((0.0, 1.5, 0.0), (0.0, 1.2, -3.0)),
        "wall": ((-0.9, 1.3, -3.5), (0.1, 1.3, -3.5)),  # the north wall, about 3.8 m from the hand
        "table": ((0.25, 0.94, -1.2), (0.55, 0.94, -1.2)),  # the island top
        "sofa": ((-1.3, 1.9, -3.145), (-0.7, 1.9, -3.145)),  # the upper cabinets' front (no plane)
        "turned": ((0.5, 1.5, 0.3), (2.1, 1.1, -2.75)),  # walked, facing the fridge
        "tv": ((2.0, 1.5, -2.85), (2.0, 1.1, -2.6)),  # the fridge's door (no plane)
        "crouched": ((-1.0, 1.0, 0.5), (0.0, 0.9, -3.0)),  # crouched, facing the island
        "far": ((-2.2, 1.5, 1.2), (2.2, 1.0, -3.2), (2.4, 1.2, -3.5)),  # the fridge, 5.3 m from the hand
    },
}

# Every object of the app's scene tagged as a stroke: how it is made and its drawn vertices in the
# world (the draw range of its geometry, through its matrixWorld).
STROKES = r"""
(h, tag) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const out = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== tag) return;
    let shown = true;
    for (let p = o; p; p = p.parent) if (!p.visible) shown = false;
    const g = o.geometry;
    const points = [];
    if (g && g.attributes && g.attributes.position) {
      const pos = g.attributes.position;
      const from = g.index ? 0 : Math.max(0, g.drawRange.start);
      const to = g.index ? pos.count : Math.min(pos.count, from + g.drawRange.count);
      const v = new THREE.Vector3();
      for (let i = from; i < to; i++) {
        v.fromBufferAttribute(pos, i).applyMatrix4(o.matrixWorld);
        points.push([v.x, v.y, v.z]);
      }
    }
    const m = Array.isArray(o.material) ? o.material[0] : o.material;
    const pd = o.parent && o.parent.userData && o.parent.userData.xrblocksDevtools;
    out.push({
      uuid: o.uuid, shown, type: o.type, isLine: !!o.isLine, isSegments: !!o.isLineSegments,
      isLoop: !!o.isLineLoop, indexed: !!(g && g.index), material: m ? m.type : null,
      color: m && m.color ? m.color.getHexString() : null, parentTag: pd ? String(pd.tag) : null,
      state: JSON.parse(JSON.stringify(d.state ?? null)), points,
    });
  });
  return out;
}
"""


# The demo pen's `strokes` (uuids, oldest first).
PEN_STROKES = r"""
(h, tag) => {
  let pen = null;
  h.guard(h.core.scene, 'the scene').traverse((o) => {
    const d = o.userData && o.userData.xrblocksDevtools;
    if (d && String(d.tag) === tag) pen = o;
  });
  if (!pen) return null;
  h.guard(pen, 'the pen');
  return Array.isArray(pen.strokes) ? pen.strokes.map((s) => s && s.uuid) : String(pen.strokes);
}
"""

# The class's declared interface: a pen made with no options and one made with options.
INTERFACE = r"""
(h) => {
  const P = h.xb.SurfacePen;
  if (typeof P !== 'function') return {error: 'xb.SurfacePen is ' + typeof P};
  const read = (pen) => ({
    color: pen.color && pen.color.isColor ? pen.color.getHexString() : String(pen.color),
    maxStrokes: pen.maxStrokes, minSpacing: pen.minSpacing, strokes: Array.isArray(pen.strokes),
    script: !!pen.isXRScript,
  });
  return {NEAR: P.NEAR, FAR: P.FAR, plain: read(new P()),
          given: read(new P({color: 0x123456, maxStrokes: 4, minSpacing: 0.02}))};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def depth_tol(d: float) -> float:
    return 0.03 + 0.02 * d


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
    xr.step(FRESH_FRAMES)


def ray_of(xr, role: str) -> tuple[Vec, Vec]:
    state = xr.hand(role).state
    assert state.position is not None and state.ray_direction is not None, f"the {role} hand has no ray"
    return state.position, state.ray_direction


def aim(xr, role: str, target) -> tuple[Vec, Vec]:
    """Raise the hand, point its ray at `target`, hold still until fresh depth data has arrived."""
    raise_hand(xr, role)
    xr.hand(role).point_to(target, speed=FAST)
    xr.step(FRESH_FRAMES)
    return ray_of(xr, role)


def turn(xr, role: str, target) -> tuple[Vec, Vec]:
    """Turn the hand's ray to `target` in exactly one frame; the ray of that frame."""
    frames = xr.hand(role).point_to(target, speed=FAST)
    if frames == 0:
        xr.step(1)
    else:
        assert frames == 1, f"test setup: the turn took {frames} frames"
    return ray_of(xr, role)


def ready(xr) -> None:
    """Both hands tracked and out of the way; steps until depth data is available."""
    for _ in range(60):
        if xr.depth().available:
            break
        xr.step(1)
    assert xr.depth().enabled, "test setup: the demo app turns depth sensing on"
    assert xr.depth().available, "expected depth data within 60 frames of the start; none arrived"
    park(xr, "dominant")
    park(xr, "non_dominant")


# --- reading ------------------------------------------------------------------------------------


def strokes(xr) -> list[dict]:
    """The strokes shown in the app's scene (removed ones may be taken out or hidden)."""
    return [s for s in xr.probe(STROKES, STROKE) if s["shown"]]


def assert_pen_strokes(xr, expected: list[dict], when: str) -> None:
    """pen.strokes lists exactly these strokes, oldest first."""
    found = xr.probe(PEN_STROKES, PEN)
    want = [s["uuid"] for s in expected]
    assert found == want, (
        f"{when}: expected pen.strokes to list {len(want)} strokes, oldest first ({[u[:8] for u in want]}); "
        f"observed {found if not isinstance(found, list) else [str(u)[:8] for u in found]}"
    )


def by_uuid(xr, uuid: str, when: str) -> dict:
    found = [s for s in strokes(xr) if s["uuid"] == uuid]
    assert found, f"{when}: expected the stroke {uuid[:8]} still shown; it is gone"
    return found[0]


def truth(xr, ray: tuple[Vec, Vec], pin=None):
    return xr.room_ray(ray[0], ray[1], view_point=pin, pixels=QUERY_PX)


def room_point(xr, ray: tuple[Vec, Vec]) -> Vec | None:
    """Where the ray meets the simulated room within range, or None."""
    hit = truth(xr, ray).hit
    if hit is None or not MIN_RANGE < hit.distance < MAX_RANGE:
        return None
    return hit.point


def check_vertex(xr, when: str, p: Vec, ray: tuple[Vec, Vec], hand: str) -> None:
    """The vertex lies on the hand's ray and on the real surface there."""
    origin, direction = ray
    t = truth(xr, ray, p)
    hit = t.hit
    assert hit is not None and MIN_RANGE < hit.distance < MAX_RANGE, f"test setup: the ray meets no surface {t}"
    rel = [a - b for a, b in zip(p, origin, strict=True)]
    along = sum(r * d for r, d in zip(rel, direction, strict=True))
    off = math.sqrt(max(0.0, sum(r * r for r in rel) - along * along))
    where = (
        f"the {hand} hand's ray from {fmt(origin)} along {fmt(direction)} meets the room ({hit.name}) "
        f"at {fmt(hit.point)}, {hit.distance:.2f} m from the hand"
    )
    assert off <= ON_RAY, f"{when}: expected the vertex on the ray: {where}; observed it at {fmt(p)}, {off:.3f} m off"
    q = t.view
    lo_d, hi_d = q.room_min - depth_tol(q.room_min), q.room_max + depth_tol(q.room_max)
    assert lo_d <= q.depth <= hi_d, (
        f"{when}: expected the vertex on the real surface where {where}; observed it at {fmt(p)}, {along:.2f} m "
        f"along the ray, {q.depth:.2f} m ahead of the eyes where the room is {q.room_min:.2f}-{q.room_max:.2f} m ahead"
    )


def check_made(stroke: dict, when: str, hand: str) -> None:
    """One THREE.Line strip with a LineBasicMaterial of the pen's colour, under the pen, tagged for the hand."""
    assert stroke["isLine"] and not stroke["isSegments"] and not stroke["isLoop"] and not stroke["indexed"], (
        f"{when}: expected the stroke to be a THREE.Line (a line strip, not indexed); observed {stroke['type']} "
        f"(indexed: {stroke['indexed']})"
    )
    assert stroke["material"] == "LineBasicMaterial", (
        f"{when}: expected a LineBasicMaterial; observed {stroke['material']}"
    )
    assert stroke["color"] == COLOUR, f"{when}: expected the pen's colour #{COLOUR}; observed #{stroke['color']}"
    assert stroke["parentTag"] == PEN, (
        f"{when}: expected the stroke added under the pen; its parent is tagged {stroke['parentTag']!r}"
    )
    state = stroke["state"] if isinstance(stroke["state"], dict) else {}
    assert state.get("hand") == hand, (
        f"{when}: expected the strokestart event's handedness to be the {hand} hand; the demo app recorded {state}"
    )


def assert_same_points(before: list, after: list, when: str) -> None:
    """The vertices before are still there, in order and in place (more may follow)."""
    assert len(after) >= len(before), (
        f"{when}: expected the stroke's {len(before)} vertices kept; observed {len(after)}"
    )
    for i, (a, b) in enumerate(zip(before, after, strict=False)):
        assert math.dist(a, b) <= STILL, f"{when}: expected vertex {i} to stay at {fmt(a)}; observed {fmt(b)}"


def assert_unchanged(before: dict, after: dict, when: str) -> None:
    assert len(after["points"]) == len(before["points"]), (
        f"{when}: expected the stroke to keep its {len(before['points'])} vertices; observed {len(after['points'])}"
    )
    assert_same_points(before["points"], after["points"], when)


def start(xr, role: str, when: str, existing: int) -> dict:
    """Pinch and run exactly that frame: one new stroke, shown, with the hand's state; returns it."""
    before = {s["uuid"] for s in strokes(xr)}
    xr.hand(role).start_select(1)
    now = strokes(xr)
    fresh = [s for s in now if s["uuid"] not in before]
    assert len(fresh) == 1, (
        f"{when}: expected exactly one new stroke (tagged {STROKE!r} on the strokestart event) in the frame of "
        f"the pinch; observed {len(fresh)} new, {len(now)} shown"
    )
    assert len(now) == existing + 1, f"{when}: expected {existing + 1} strokes shown; observed {len(now)}"
    hand = xr.hand(role).handedness
    check_made(fresh[0], when, hand)
    assert fresh[0]["state"].get("done") is False, (
        f"{when}: expected no strokeend event yet; observed {fresh[0]['state']}"
    )
    return fresh[0]


def sweep(xr, role: str, stroke: dict, targets: list, when: str, others: tuple = ()) -> dict:
    """Turn the ray through `targets`, a frame each; after every frame, the stroke keeps its vertices and
    gains one exactly where the rule says (and on the ray); the `others` strokes do not change."""
    hand = xr.hand(role).handedness
    uuid = stroke["uuid"]
    points = stroke["points"]
    kept = [by_uuid(xr, o["uuid"], when) for o in others]
    for i, target in enumerate(targets):
        ray = turn(xr, role, target)
        now = by_uuid(xr, uuid, f"{when}, frame {i + 1}")
        assert_same_points(points, now["points"], f"{when}, frame {i + 1}")
        added = now["points"][len(points) :]
        assert len(added) <= 1, (
            f"{when}, frame {i + 1}: expected at most one vertex added in a frame; observed {len(added)}"
        )
        room = room_point(xr, ray)
        if added:
            p = tuple(added[0])
            check_vertex(xr, f"{when}, frame {i + 1}", p, ray, hand)
            if points:
                gap = math.dist(p, points[-1])
                assert gap >= SPACING - 1e-4, (
                    f"{when}, frame {i + 1}: expected a new vertex at least {SPACING} m from the last one "
                    f"{fmt(points[-1])}; observed {fmt(p)}, {gap:.4f} m away"
                )
        elif room is not None and (not points or math.dist(room, points[-1]) > MUST_ADD):
            gap = math.dist(room, points[-1]) if points else math.inf
            raise AssertionError(
                f"{when}, frame {i + 1}: expected a vertex where the {hand} hand's ray meets the room at {fmt(room)} "
                f"({gap:.3f} m from the last vertex); observed none added ({len(now['points'])} vertices)"
            )
        points = now["points"]
        for o in kept:
            assert_unchanged(o, by_uuid(xr, o["uuid"], when), f"{when}, frame {i + 1}: the other stroke")
    return by_uuid(xr, uuid, when)


def end(xr, role: str, stroke: dict, when: str) -> dict | None:
    """Release and run exactly that frame: the strokeend event came; the stroke if it is still shown."""
    xr.hand(role).end_select(1)
    found = [s for s in xr.probe(STROKES, STROKE) if s["uuid"] == stroke["uuid"]]
    if found:
        state = found[0]["state"] if isinstance(found[0]["state"], dict) else {}
        assert state.get("done") is True, (
            f"{when}: expected the strokeend event in the frame of the release; the demo app recorded {state}"
        )
    now = [s for s in strokes(xr) if s["uuid"] == stroke["uuid"]]
    return now[0] if now else None


# --- tests ---------------------------------------------------------------------------------------


def test_a_stroke_follows_the_surface_frame_by_frame(xr):
    """A stroke of the dominant hand: its first vertex in the frame of the pinch, one per frame along a
    wall, none while the hand is still, one per 1 cm while it creeps; nothing after the release; it
    stays while the user walks, turns and crouches. A second stroke, of the other hand, on the TV or
    the fridge, and one over the table or island top."""
    p = plan(xr)
    api = xr.probe(INTERFACE)
    want = {
        "NEAR": 0.3,
        "FAR": 5.0,
        "plain": {"color": "ffffff", "maxStrokes": 10, "minSpacing": 0.01, "strokes": True, "script": True},
        "given": {"color": "123456", "maxStrokes": 4, "minSpacing": 0.02, "strokes": True, "script": True},
    }
    assert api == want, f"expected SurfacePen's declared interface and defaults {want}; observed {api}"
    ready(xr)
    stand(xr, p["start"])
    assert not strokes(xr), f"expected no stroke before the first pinch; observed {len(strokes(xr))}"

    a, b = p["wall"]
    ray = aim(xr, "dominant", a)
    assert not strokes(xr), "expected no stroke while the hand only points"
    stroke = start(xr, "dominant", "stroke 1", 0)
    dom = xr.hand("dominant").handedness
    assert len(stroke["points"]) == 1, (
        f"stroke 1: expected its first vertex in the frame of the pinch; observed {len(stroke['points'])} vertices"
    )
    check_vertex(xr, "stroke 1, the frame of the pinch", tuple(stroke["points"][0]), ray, dom)

    # Along the wall, 4 cm a frame: a vertex every frame.
    path = line_path(a, b, 25)
    stroke = sweep(xr, "dominant", stroke, path[:20], "stroke 1 along the wall")
    assert len(stroke["points"]) >= 18, (
        f"stroke 1: expected a vertex in (nearly) every frame of a sweep of 4 cm a frame; observed "
        f"{len(stroke['points'])} vertices after 20 frames"
    )
    # Held still: nothing is added.
    held = stroke
    for i in range(10):
        xr.step(1)
        assert_unchanged(held, by_uuid(xr, held["uuid"], "held still"), f"stroke 1, hand held still, frame {i + 1}")
    # Creeping, 2 mm a frame for 24 frames (4.8 cm): a vertex each time the point is 1 cm from the last.
    creep_from = path[19]
    direction = [(y - x) / math.dist(a, b) for x, y in zip(a, b, strict=True)]
    creep = [tuple(c + d * 0.002 * (i + 1) for c, d in zip(creep_from, direction, strict=True)) for i in range(24)]
    before = len(stroke["points"])
    stroke = sweep(xr, "dominant", stroke, creep, "stroke 1 creeping")
    pts = stroke["points"][before - 1 :]
    gaps = [math.dist(x, y) for x, y in itertools.pairwise(pts)]
    assert 3 <= len(gaps) <= 5 and all(g < 0.016 for g in gaps), (
        f"stroke 1 creeping 2 mm a frame over 4.8 cm: expected a vertex each time the ray's point is 1 cm from "
        f"the last vertex (3 to 5 vertices, each under 1.6 cm from the one before); observed {len(gaps)} "
        f"added, spaced {[round(g, 4) for g in gaps]} m"
    )

    # Released: the strokeend event; nothing more, wherever the hand points.
    kept = end(xr, "dominant", stroke, "stroke 1 released")
    assert kept is not None, "stroke 1: expected a stroke of many vertices kept after the release"
    assert_unchanged(stroke, kept, "in the frame of the release")
    for i, target in enumerate(line_path(path[19], b, 5)):
        turn(xr, "dominant", target)
        assert_unchanged(stroke, by_uuid(xr, stroke["uuid"], "after the release"), f"after the release, frame {i + 1}")
    park(xr, "dominant")

    # The user walks and turns: the stroke stays; the other hand draws on the TV / fridge.
    stand(xr, p["turned"])
    assert_unchanged(stroke, by_uuid(xr, stroke["uuid"], "walked"), "after walking and turning")
    c, d = p["tv"]
    ray = aim(xr, "non_dominant", c)
    other = xr.hand("non_dominant").handedness
    second = start(xr, "non_dominant", "stroke 2 (the other hand)", 1)
    assert len(second["points"]) == 1, (
        f"stroke 2: expected its first vertex in the frame of the pinch; observed {len(second['points'])}"
    )
    check_vertex(xr, "stroke 2, the frame of the pinch", tuple(second["points"][0]), ray, other)
    second = sweep(xr, "non_dominant", second, line_path(c, d, 10), "stroke 2", others=(stroke,))
    second = end(xr, "non_dominant", second, "stroke 2 released")
    assert second is not None, "stroke 2: expected it kept after the release"
    park(xr, "non_dominant")

    # Crouched and turned; then back at the start, a stroke over the table (or island) top.
    stand(xr, p["crouched"])
    assert_unchanged(stroke, by_uuid(xr, stroke["uuid"], "crouched"), "stroke 1, crouched")
    assert_unchanged(second, by_uuid(xr, second["uuid"], "crouched"), "stroke 2, crouched")
    stand(xr, p["start"])
    e, f = p["table"]
    aim(xr, "dominant", e)
    third = start(xr, "dominant", "stroke 3 (table top)", 2)
    third = sweep(xr, "dominant", third, line_path(e, f, 8), "stroke 3 over the table top", others=(stroke, second))
    assert len(third["points"]) >= 5, (
        f"stroke 3: expected at least 5 vertices over 30 cm of table; observed {len(third['points'])}"
    )
    end(xr, "dominant", third, "stroke 3 released")
    assert_no_errors(xr)


def test_both_hands_draw_at_once_taps_are_discarded_and_the_oldest_goes(xr):
    """The dominant hand draws on the wall; the other hand pinches while it still draws and draws on the
    sofa's back (the cabinets); both strokes grow each from its own ray. A tap (pinch and release, the
    hand still) is discarded in the frame of its release. A third kept stroke; the fourth stroke's pinch
    removes the oldest in its frame; the next pinch removes the next oldest, and its tap goes too."""
    p = plan(xr)
    ready(xr)
    stand(xr, p["start"])
    a, b = p["wall"]
    c, d = p["sofa"]
    wall, sofa = line_path(a, b, 24), line_path(c, d, 12)
    aim(xr, "dominant", a)
    first = start(xr, "dominant", "stroke 1 (dominant)", 0)
    first = sweep(xr, "dominant", first, wall[:4], "stroke 1")

    aim(xr, "non_dominant", c)  # the dominant hand still pinches
    first = sweep(xr, "dominant", first, [], "stroke 1")
    second = start(xr, "non_dominant", "stroke 2 (the other hand, while the first draws)", 1)
    assert len(second["points"]) == 1, (
        f"stroke 2: expected its first vertex in the frame of the pinch; observed {len(second['points'])}"
    )
    assert_same_points(
        first["points"], by_uuid(xr, first["uuid"], "stroke 2 started")["points"], "stroke 1 when stroke 2 starts"
    )
    for i in range(4):  # both draw: a frame for each hand in turn
        second = sweep(xr, "non_dominant", second, sofa[2 * i : 2 * i + 2], f"stroke 2, round {i + 1}", others=(first,))
        first = sweep(xr, "dominant", first, wall[4 + 2 * i : 6 + 2 * i], f"stroke 1, round {i + 1}", others=(second,))
    assert len(second["points"]) >= 4, f"stroke 2: expected it to grow; observed {len(second['points'])} vertices"

    # The other hand releases: its stroke ends and is kept; the dominant hand draws on.
    second = end(xr, "non_dominant", second, "stroke 2 released")
    assert second is not None, "stroke 2: expected it kept after the release"
    first = by_uuid(xr, first["uuid"], "stroke 2 released")
    assert first["state"].get("done") is False, (
        f"stroke 1: expected it still drawn (no strokeend); observed {first['state']}"
    )
    first = sweep(xr, "dominant", first, wall[12:16], "stroke 1 after the other hand released", others=(second,))
    first = end(xr, "dominant", first, "stroke 1 released")
    assert first is not None, "stroke 1: expected it kept after the release"

    # A tap of the other hand: one vertex, discarded in the frame of its release.
    tap = start(xr, "non_dominant", "a tap", 2)
    for _ in range(6):
        xr.step(1)
    tapped = by_uuid(xr, tap["uuid"], "tap held")
    assert len(tapped["points"]) == 1, (
        f"a tap: expected one vertex while the hand is still; observed {len(tapped['points'])}"
    )
    assert end(xr, "non_dominant", tap, "the tap released") is None, (
        "a tap: expected the stroke of a single vertex removed from the scene in the frame of its release; "
        "it is still shown"
    )
    assert {s["uuid"] for s in strokes(xr)} == {first["uuid"], second["uuid"]}, (
        "expected strokes 1 and 2 only, after the tap"
    )
    assert_pen_strokes(xr, [first, second], "after the tap")

    # A third kept stroke (3 = maxStrokes).
    third = start(xr, "non_dominant", "stroke 3", 2)
    third = sweep(xr, "non_dominant", third, sofa[8:12], "stroke 3", others=(first, second))
    third = end(xr, "non_dominant", third, "stroke 3 released")
    assert third is not None, "stroke 3: expected it kept"
    assert len(strokes(xr)) == MAX_STROKES, f"expected {MAX_STROKES} strokes shown; observed {len(strokes(xr))}"
    assert_pen_strokes(xr, [first, second, third], "after stroke 3")

    # The fourth stroke removes the oldest (stroke 1) in the frame of its pinch.
    fourth = start(xr, "dominant", "stroke 4 (one more than maxStrokes)", 2)
    shown_now = {s["uuid"] for s in strokes(xr)}
    assert shown_now == {second["uuid"], third["uuid"], fourth["uuid"]}, (
        f"stroke 4: expected the oldest stroke (stroke 1) removed in the frame of the pinch, strokes 2, 3 and 4 "
        f"shown; observed stroke 1 {'shown' if first['uuid'] in shown_now else 'gone'}, stroke 2 "
        f"{'shown' if second['uuid'] in shown_now else 'gone'}, stroke 3 "
        f"{'shown' if third['uuid'] in shown_now else 'gone'}, {len(shown_now)} shown"
    )
    assert_pen_strokes(xr, [second, third, fourth], "in the frame of stroke 4's pinch")
    fourth = sweep(xr, "dominant", fourth, wall[16:20], "stroke 4", others=(second, third))
    fourth = end(xr, "dominant", fourth, "stroke 4 released")
    assert fourth is not None, "stroke 4: expected it kept"
    # Another pinch removes the next oldest (stroke 2); being a tap, it goes at its release too.
    tap = start(xr, "non_dominant", "a tap after stroke 4", 2)
    shown_now = {s["uuid"] for s in strokes(xr)}
    assert shown_now == {third["uuid"], fourth["uuid"], tap["uuid"]}, (
        "a pinch after stroke 4: expected the oldest stroke (stroke 2) removed in the frame of the pinch; observed "
        f"stroke 2 {'shown' if second['uuid'] in shown_now else 'gone'}, {len(shown_now)} shown"
    )
    xr.step(3)
    assert end(xr, "non_dominant", tap, "the second tap released") is None, (
        "the second tap: expected it removed at its release"
    )
    park(xr, "dominant")
    park(xr, "non_dominant")
    stand(xr, p["turned"])
    assert_unchanged(third, by_uuid(xr, third["uuid"], "walked"), "stroke 3 after walking")
    assert_unchanged(fourth, by_uuid(xr, fourth["uuid"], "walked"), "stroke 4 after walking")
    assert len(strokes(xr)) == 2, f"expected strokes 3 and 4 only; observed {len(strokes(xr))}"
    assert_pen_strokes(xr, [third, fourth], "at the end")
    assert_no_errors(xr)


def test_frames_that_meet_no_surface_add_nothing_and_the_stroke_goes_on(xr):
    """A pinch before any depth data starts a stroke with no vertex; its vertices start once depth data
    is there. Later a stroke on the wall: the ray turned below the view adds nothing, the stroke goes on
    and its next vertex is where the ray meets the wall again."""
    p = plan(xr)
    xr.step(1)
    assert not xr.depth().available, "test setup: expected no depth data in the first frame"
    stroke = start(xr, "dominant", "a pinch before depth data", 0)
    assert not stroke["points"], f"expected no vertex before any depth data; observed {len(stroke['points'])}"
    for _ in range(60):
        if xr.depth().available:
            break
        now = by_uuid(xr, stroke["uuid"], "waiting for depth")
        assert not now["points"], f"expected no vertex before any depth data; observed {len(now['points'])}"
        xr.step(1)
    assert xr.depth().available, "expected depth data within 60 frames of the start; none arrived"
    xr.step(FRESH_FRAMES)
    now = by_uuid(xr, stroke["uuid"], "depth arrived")
    ray = ray_of(xr, "dominant")
    if room_point(xr, ray) is not None:
        assert len(now["points"]) >= 1, "expected the stroke's vertices to start once depth data is there; none came"
        check_vertex(
            xr,
            "the first vertex once depth data is there",
            tuple(now["points"][-1]),
            ray,
            xr.hand("dominant").handedness,
        )
    xr.hand("dominant").end_select(1)
    xr.step(2)
    ready(xr)
    stand(xr, p["start"])
    a, b = p["wall"]
    path = line_path(a, b, 20)
    existing = len(strokes(xr))
    aim(xr, "dominant", a)
    stroke = start(xr, "dominant", "a stroke on the wall", existing)
    stroke = sweep(xr, "dominant", stroke, path[:6], "on the wall")
    count = len(stroke["points"])
    # Below the view: no depth data there.
    below = head_local(xr, (0.2 * side(xr, "dominant"), -1.4, -0.6))
    for i in range(4):
        turn(xr, "dominant", below if i % 2 == 0 else head_local(xr, (0.3 * side(xr, "dominant"), -1.45, -0.5)))
        now = by_uuid(xr, stroke["uuid"], "ray below the view")
        assert len(now["points"]) == count, (
            f"frame {i + 1} with the ray below the view (no depth data there): expected nothing added; observed "
            f"{len(now['points']) - count} vertices added"
        )
        assert now["state"].get("done") is False, (
            f"expected the stroke to go on (no strokeend); observed {now['state']}"
        )
    # Back on the wall, 20 cm further: the stroke goes on from there.
    stroke = sweep(xr, "dominant", by_uuid(xr, stroke["uuid"], "back"), path[11:14], "back on the wall")
    assert len(stroke["points"]) >= count + 2, (
        f"expected the stroke to go on once the ray meets the wall again; observed {len(stroke['points']) - count} "
        "vertices added"
    )
    kept = end(xr, "dominant", stroke, "released")
    assert kept is not None, "expected the stroke kept after the release"
    park(xr, "dominant")

    # Only surfaces farther than 5 m from the hand: nothing is added.
    position, look, target = p["far"]
    stand(xr, (position, look))
    ray = aim(xr, "non_dominant", target)
    hit = truth(xr, ray).hit
    assert hit and hit.distance > MAX_RANGE + 0.2, f"test setup: {hit}"
    far = start(xr, "non_dominant", f"a pinch at a surface {hit.distance:.1f} m from the hand", 1)
    assert not far["points"], (
        f"expected no vertex from a surface {hit.distance:.1f} m from the hand; observed {far['points']}"
    )
    for i, dy in enumerate((0.1, 0.2, 0.3)):
        ray = turn(xr, "non_dominant", (target[0], target[1] + dy, target[2]))
        hit = truth(xr, ray).hit
        now = by_uuid(xr, far["uuid"], "far")
        assert hit is None or hit.distance > MAX_RANGE + 0.2 or now["points"] == [], f"test setup: {hit}"
        assert not now["points"], (
            f"frame {i + 1} with the ray at surfaces farther than 5 m: expected nothing added; observed {now['points']}"
        )
    assert_unchanged(kept, by_uuid(xr, kept["uuid"], "far"), "the wall stroke while the other hand points far")
    assert end(xr, "non_dominant", far, "the far pinch released") is None, (
        "expected the far pinch's empty stroke discarded"
    )
    park(xr, "non_dominant")

    # A stroke of exactly two vertices is kept.
    stand(xr, p["start"])
    aim(xr, "dominant", path[16])
    short = start(xr, "dominant", "a short stroke", 1)
    short = sweep(xr, "dominant", short, [path[17]], "a short stroke")
    assert len(short["points"]) == 2, f"test setup: expected the short stroke to have 2 vertices; observed {short}"
    short = end(xr, "dominant", short, "the short stroke released")
    assert short is not None and len(short["points"]) == 2, (
        "expected a stroke of 2 vertices kept after its release; it was removed"
    )
    assert_no_errors(xr)
