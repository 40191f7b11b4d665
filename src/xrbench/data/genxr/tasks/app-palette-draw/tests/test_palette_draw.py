"""Runtime tests of the palette air-drawing app.

They check that
- the app starts with no stroke and no cylinder; the object tagged 'palette' has its centre 0.4-1.0 m
  ahead of the starting head, at most 0.3 m to the side and 0.1-0.5 m below eye height (each within
  2 cm); three meshes tagged 'swatch' name red, green and blue in `state.color`, are filled with that
  colour (their material's `color`), are at least 6 cm wide and high (checked to 5 cm), sit side by
  side and do not overlap;
- a pinch with the hand's ray away from the palette (pointed down and outwards) draws a stroke (an
  object tagged 'stroke') that is there, red, once the fingers have closed, covers the fingertip's
  path so far mid-stroke, and once released passes within 1 cm (checked to 1.25 cm) of every
  position the index fingertip took while the pinch was held, with no vertex more than 1.5 cm
  (checked to 1.7 cm) from that path, in world coordinates; moving the hand after the release adds
  nothing; the other hand draws a second, separate red stroke the same way;
- a pinch aimed at a swatch (off its centre, with either hand) makes its colour the colour of every
  stroke started afterwards, while the strokes drawn before keep theirs (every material of a stroke's
  visible drawables has that `color`, within 8 of 255 per channel, and no vertex colours or texture);
- a pinch that picks a swatch draws nothing (no new stroke, nothing new drawn), also while it is held
  for a second and when the hand moves away while holding it; pointing at the swatches without
  pinching for two seconds leaves the colour as it was;
- strokes stay, unmoved and in their colours, while the user walks, turns and crouches, and a colour
  picked and a stroke drawn while crouched, far from the start, work the same way.

Tested in the living room and the kitchen; each test runs for a right- and a left-dominant user.
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

pytestmark = pytest.mark.xr_scenes("living_room", "kitchen")

PALETTE, SWATCH, STROKE = "palette", "swatch", "stroke"
RED, GREEN, BLUE = "#ff0000", "#00ff00", "#0000ff"
COLOURS = (RED, GREEN, BLUE)
NAMES = {RED: "red", GREEN: "green", BLUE: "blue"}
AHEAD = (0.4, 1.0)
SIDE_MAX = 0.3
BELOW = (0.1, 0.5)
SLACK = 0.02
MIN_SIZE = 0.05  # "at least 6 cm wide and 6 cm high", with 1 cm of slack
OVERLAP = 0.003  # metres two swatches' boxes may overlap (rounding, borders)
CHANNEL = 8  # per colour channel, out of 255
HOLD = 12  # frames a pick holds the pinch (and waits after releasing it)

# Per stroke: the materials of its visible drawables ({color: '#rrggbb' or null, vertexColors, map}).
_MATERIALS_JS = """
(h, tag) => {
  const scene = h.guard(h.core.scene, 'the scene');
  const visibleUp = (o) => { for (let p = o; p; p = p.parent) if (!p.visible) return false; return true; };
  const out = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== tag) return;
    const materials = [];
    o.traverse((c) => {
      if (!c.geometry || !c.material || !visibleUp(c)) return;
      for (const m of Array.isArray(c.material) ? c.material : [c.material]) {
        materials.push({
          color: m.color && m.color.isColor ? '#' + m.color.getHexString() : null,
          vertexColors: !!m.vertexColors,
          map: !!m.map,
          type: m.type,
        });
      }
    });
    out.push({uuid: o.uuid, materials});
  });
  return out;
}
"""

Vec = tuple[float, float, float]


def _fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _rgb(hexstr: str) -> tuple[int, int, int]:
    return tuple(int(hexstr[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def _same_colour(a: str | None, b: str) -> bool:
    if not isinstance(a, str) or len(a) != 7 or not a.startswith("#"):
        return False
    try:
        return all(abs(x - y) <= CHANNEL for x, y in zip(_rgb(a.lower()), _rgb(b), strict=True))
    except ValueError:
        return False


def strokes(xr) -> list[dict]:
    return read_strokes(xr, STROKE)


def assert_count(xr, n: int, what: str) -> list[dict]:
    __tracebackhide__ = True
    found = strokes(xr)
    assert len(found) == n, f"expected {n} stroke(s) {what}; observed {len(found)}"
    return found


def swatches(xr) -> dict[str, object]:
    """The swatch nodes by the colour their state names."""
    __tracebackhide__ = True
    found = {}
    for node in xr.find_all_by_tag(SWATCH):
        state = node.state if isinstance(node.state, dict) else {}
        colour = str(state.get("color", "")).lower()
        found[colour] = node
    missing = [NAMES[c] for c in COLOURS if c not in found]
    assert not missing, (
        f"expected three objects tagged {SWATCH!r} with state.color {', '.join(COLOURS)}; missing "
        f"{', '.join(missing)} (observed state.color of {sorted(found)})"
    )
    return found


def centre(box) -> Vec:
    return tuple((box[0][i] + box[1][i]) / 2 for i in range(3))  # type: ignore[return-value]


def spot_on(xr, colour: str, spot: tuple[float, float]) -> Vec:
    """A point of the swatch of `colour`, `spot` of the way from its centre to its edges (x across,
    y up)."""
    node = swatches(xr)[colour]
    lo, hi = node.bbox
    c = centre(node.bbox)
    return (c[0] + spot[0] * (hi[0] - lo[0]) / 2, c[1] + spot[1] * (hi[1] - lo[1]) / 2, c[2])


def pick(xr, role: str, colour: str, spot: tuple[float, float] = (0.3, 0.15)) -> None:
    """A pinch of `role`'s hand aimed at a spot of the swatch of `colour`, held HOLD frames and
    released."""
    point = spot_on(xr, colour, spot)
    hand = xr.hand(role)
    hand.point_to(point)
    hand.start_select(HOLD)
    hand.end_select(HOLD)


def aim_away(xr, role: str) -> None:
    """Point the hand's ray down, outwards and back, away from the palette in front."""
    hand = xr.hand(role)
    pose = xr.camera_pose()
    f = pose.forward
    right = (-f[2], 0.0, f[0])
    n = math.hypot(right[0], right[2]) or 1.0
    s = side(xr, role)
    p = hand.position
    goal = (
        p[0] + s * 0.6 * right[0] / n - 0.3 * f[0],
        0.0,
        p[2] + s * 0.6 * right[2] / n - 0.3 * f[2],
    )
    hand.point_to(goal)


def draw(xr, role: str, moves: list) -> Trail:
    """A stroke: the ray aimed away from the palette, a pinch moved by `moves` and released."""
    aim_away(xr, role)
    [t] = begin(xr, role)
    move(xr, t, moves)
    end(xr, t)
    return t


def materials(xr) -> dict[str, list]:
    return {s["uuid"]: s["materials"] for s in xr.probe(_MATERIALS_JS, STROKE)}


def assert_colour(xr, stroke: dict, colour: str, what: str) -> None:
    """Every material of the stroke's visible drawables is plain and has `colour`."""
    __tracebackhide__ = True
    mats = materials(xr).get(stroke["uuid"])
    assert mats, f"expected the stroke {what} drawn with a material; observed none"
    for m in mats:
        assert not m["vertexColors"] and not m["map"], (
            f"expected the stroke {what} in a plain colour; observed a {m['type']} with "
            f"{'vertex colours' if m['vertexColors'] else 'a texture'}"
        )
        assert _same_colour(m["color"], colour), (
            f"expected the stroke {what} {NAMES[colour]} ({colour}); observed a {m['type']} of colour {m['color']}"
        )


def test_the_palette_is_in_front_with_three_coloured_swatches(xr):
    xr.step(2)
    assert_count(xr, 0, "at the start")
    cylinders = [d for d in xr.drawn() if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the cylinder removed; observed {cylinders}"
    palette = xr.find_by_tag(PALETTE)
    assert palette.bbox is not None, f"expected the object tagged {PALETTE!r} to have geometry; it has none"
    head = xr.head.pose.position
    c = centre(palette.bbox)
    ahead, across, below = head[2] - c[2], c[0] - head[0], head[1] - c[1]
    assert AHEAD[0] - SLACK <= ahead <= AHEAD[1] + SLACK, (
        f"expected the palette's centre {AHEAD[0]}-{AHEAD[1]} m in front of the user; observed {ahead:.3f} m "
        f"(centre {_fmt(c)})"
    )
    assert abs(across) <= SIDE_MAX + SLACK, (
        f"expected the palette's centre at most {SIDE_MAX} m to the side; observed {across:+.3f} m"
    )
    assert BELOW[0] - SLACK <= below <= BELOW[1] + SLACK, (
        f"expected the palette's centre {BELOW[0]}-{BELOW[1]} m below eye height; observed {below:.3f} m below"
    )
    found = swatches(xr)
    boxes = {}
    for colour, node in found.items():
        name = NAMES[colour]
        assert node.is_mesh, f"expected the {name} swatch (tagged {SWATCH!r}) to be a mesh; it is a {node.type}"
        assert node.visible, f"expected the {name} swatch shown; it is hidden"
        assert _same_colour(node.color, colour), (
            f"expected the {name} swatch's material colour {colour}; observed {node.color}"
        )
        lo, hi = node.bbox
        width = hi[0] - lo[0]
        height = math.hypot(hi[1] - lo[1], hi[2] - lo[2])
        assert width >= MIN_SIZE and height >= MIN_SIZE, (
            f"expected the {name} swatch at least 0.06 m wide and high; observed {width:.3f} x {height:.3f} m"
        )
        boxes[colour] = (lo, hi)
    for a, b in ((RED, GREEN), (GREEN, BLUE), (RED, BLUE)):
        (alo, ahi), (blo, bhi) = boxes[a], boxes[b]
        ox = min(ahi[0], bhi[0]) - max(alo[0], blo[0])
        oy = min(ahi[1], bhi[1]) - max(alo[1], blo[1])
        assert ox <= OVERLAP or oy <= OVERLAP, (
            f"expected the {NAMES[a]} and {NAMES[b]} swatches not to overlap; they overlap by {ox:.3f} x {oy:.3f} m"
        )
    xs = sorted(centre(b)[0] for b in boxes.values())
    ys = [centre(b)[1] for b in boxes.values()]
    assert xs[2] - xs[0] > max(ys) - min(ys), (
        f"expected the swatches side by side (left to right); their centres span {xs[2] - xs[0]:.3f} m across and "
        f"{max(ys) - min(ys):.3f} m up"
    )
    assert_no_errors(xr)


def test_a_pinch_away_from_the_palette_draws_a_red_stroke_along_the_fingertip(xr):
    xr.step(2)
    s = side(xr, "dominant")
    hand = xr.hand("dominant")
    hand.move_hand((0.25 * s, 1.35, -0.32), anchor="fingertip")
    aim_away(xr, "dominant")
    assert_count(xr, 0, "before the pinch")
    [t] = begin(xr, "dominant")
    [first] = assert_count(xr, 1, "once the fingers of a pinch have closed")
    assert_colour(xr, first, RED, "just started (before any colour was picked)")
    move(xr, t, [(-s * 0.12, 0.0, 0.0)])
    [mid] = assert_count(xr, 1, "while the pinch is held")
    assert_follows(mid, Trail(t.role, t.handedness, t.path, t.allowed + t.path))
    move(xr, t, [(0.0, 0.1, -0.04), (s * 0.06, -0.04, 0.03)], speed=0.2)
    end(xr, t)
    [stroke] = assert_count(xr, 1, "after one pinch")
    assert len(stroke["points"]) > len(mid["points"]), (
        f"expected the stroke to grow while the pinch was held; it had {len(mid['points'])} vertices mid-stroke and "
        f"{len(stroke['points'])} at the release"
    )
    assert_follows(stroke, t)
    assert_colour(xr, stroke, RED, "drawn before any colour was picked")
    hand.move_by((s * 0.1, -0.1, 0.05))  # released: the stroke ends
    hand.move_by((-s * 0.05, 0.1, -0.05))
    xr.wait(200)
    [after] = assert_count(xr, 1, "after the hand moved on released")
    assert len(after["points"]) == len(stroke["points"]), (
        f"expected the stroke to end at the release; it went from {len(stroke['points'])} to "
        f"{len(after['points'])} vertices as the hand moved without pinching"
    )
    other = xr.hand("non_dominant")
    other.move_hand((-0.25 * s, 1.3, -0.33), anchor="fingertip")
    second = draw(xr, "non_dominant", [(0.0, 0.08, 0.0), (s * 0.06, 0.0, 0.0)])
    found = assert_count(xr, 2, "after a pinch of each hand")
    a, b = match(found, t), match(found, second)
    assert a["uuid"] != b["uuid"], "expected each pinch to draw its own stroke"
    assert_follows(b, second)
    assert_follows(a, t)
    assert_colour(xr, b, RED, "of the non-dominant hand (no colour picked yet)")
    assert_no_errors(xr)


def test_a_picked_colour_applies_to_later_strokes_only(xr):
    xr.step(2)
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    dom.move_hand((0.25 * s, 1.35, -0.32), anchor="fingertip")
    red = draw(xr, "dominant", [(-s * 0.08, 0.0, 0.0)])
    pick(xr, "dominant", GREEN, (0.35, 0.2))
    non.rest()
    non.move_hand((-0.25 * s, 1.3, -0.33), anchor="fingertip")
    green = draw(xr, "non_dominant", [(0.0, 0.08, 0.0)])
    found = assert_count(xr, 2, "after a red and a green stroke (the pick drew none)")
    made = [match(found, red), match(found, green)]
    assert made[0]["uuid"] != made[1]["uuid"], "expected each pinch to draw its own stroke"
    assert_follows(made[1], green)
    assert_colour(xr, made[1], GREEN, "started after the dominant hand picked green")
    assert_colour(xr, made[0], RED, "drawn in red before green was picked")
    # A stroke drawn across the ray from the non-dominant hand to the blue swatch, 6 cm in front of
    # it; the pick goes through it.
    non.rest()
    aim = spot_on(xr, BLUE, (-0.3, -0.35))
    o = non.position
    k = 1.0 - 0.06 / math.dist(o, aim)
    q = tuple(o[i] + k * (aim[i] - o[i]) for i in range(3))
    dom.rest()
    start = (q[0] + 0.08 * s, q[1], q[2])
    aim_away(xr, "dominant")
    dom.move_hand(start, anchor="fingertip")
    [across] = begin(xr, "dominant")  # the fingers close: the fingertip moves a little ...
    back = tuple(start[i] - across.path[-1][i] for i in range(3))  # ... so it goes back to the start
    move(xr, across, [back, (-0.16 * s, 0.0, 0.0)])
    end(xr, across)
    dom.rest()
    found = assert_count(xr, 3, "after a green stroke drawn across the line of sight to the blue swatch")
    made.append(match(found, across))
    assert_follows(made[2], across)
    gap = min(math.dist(q, p) for p in made[2]["points"])
    assert gap <= 0.01, f"test set-up: the stroke meant to cross the ray passes {gap:.3f} m from it"
    pick(xr, "non_dominant", BLUE, (-0.3, -0.35))
    assert_count(xr, 3, "after a pinch aimed at the blue swatch through a stroke drawn in front of it")
    dom.move_hand((0.2 * s, 1.25, -0.33), anchor="fingertip")
    blue = draw(xr, "dominant", [(s * 0.06, 0.05, 0.0)])
    found = assert_count(xr, 4, "after a fourth stroke")
    made.append(match(found, blue))
    assert_follows(made[3], blue)
    assert_colour(
        xr, made[3], BLUE, "started after the non-dominant hand picked blue (aimed through a stroke in front of it)"
    )
    assert_colour(xr, made[2], GREEN, "drawn in green before blue was picked")
    assert_colour(xr, made[1], GREEN, "drawn in green before blue was picked")
    assert_colour(xr, made[0], RED, "drawn in red before green and blue were picked")
    pick(xr, "dominant", RED, (-0.2, 0.4))
    non.move_hand((-0.2 * s, 1.4, -0.32), anchor="fingertip")
    again = draw(xr, "non_dominant", [(0.0, -0.06, 0.0)])
    found = assert_count(xr, 5, "after a fifth stroke")
    made.append(match(found, again))
    assert_colour(xr, made[4], RED, "started after red was picked again")
    assert_colour(xr, made[3], BLUE, "drawn in blue before red was picked again")
    assert_colour(xr, made[1], GREEN, "drawn in green before red was picked again")
    assert_unmoved(xr, made, "after the other strokes were drawn")
    assert_no_errors(xr)


def test_picking_a_swatch_draws_nothing(xr):
    xr.step(2)
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    before = len(xr.drawn())
    # Pointing at the swatches without pinching picks nothing.
    for colour in (GREEN, BLUE, GREEN):
        dom.point_to(centre(swatches(xr)[colour].bbox))
        xr.wait(600)
    non.point_to(centre(swatches(xr)[BLUE].bbox))
    xr.wait(600)
    assert_count(xr, 0, "after pointing at the swatches without pinching")
    non.move_hand((-0.25 * s, 1.3, -0.33), anchor="fingertip")
    hovered = draw(xr, "non_dominant", [(0.0, 0.07, 0.0)])
    [first] = assert_count(xr, 1, "after one pinch away from the palette")
    assert_colour(xr, first, RED, "drawn after only pointing at the green and blue swatches (no pinch on them)")
    drawn = len(xr.drawn())
    # A pinch on a swatch, held a second while the hand moves away, draws nothing.
    node = swatches(xr)[GREEN]
    dom.point_to(centre(node.bbox))
    dom.start_select(HOLD)
    xr.wait(1000)
    assert_count(xr, 1, "while a pinch on the green swatch is held")
    dom.move_by((s * 0.1, -0.08, 0.06), speed=0.3)
    assert_count(xr, 1, "while a pinch that picked the green swatch is held and the hand moves")
    dom.end_select(HOLD)
    dom.move_by((-s * 0.05, 0.05, 0.0))
    assert_count(xr, 1, "after a pinch on the green swatch, moved while held, was released")
    assert len(xr.drawn()) == drawn, (
        f"expected a pinch on a swatch to draw nothing; {len(xr.drawn()) - drawn} more objects are drawn than before it"
    )
    pick(xr, "non_dominant", BLUE, (0.25, -0.3))  # a quick pick with the other hand
    assert_count(xr, 1, "after the non-dominant hand picked the blue swatch")
    assert len(xr.drawn()) == drawn, (
        f"expected a pinch on a swatch to draw nothing; {len(xr.drawn()) - drawn} more objects are drawn than before it"
    )
    dom.rest()
    dom.move_hand((0.22 * s, 1.35, -0.33), anchor="fingertip")
    blue = draw(xr, "dominant", [(-s * 0.07, 0.0, 0.0)])
    found = assert_count(xr, 2, "after a second pinch away from the palette")
    made = match(found, blue)
    assert_follows(made, blue)
    assert_colour(xr, made, BLUE, "started after the blue swatch was picked")
    assert_colour(xr, match(found, hovered), RED, "drawn before any pick")
    assert before >= 4, f"expected the palette and its swatches drawn; observed {before} drawn objects"
    assert_no_errors(xr)


def test_strokes_keep_their_place_and_colour_as_the_user_moves(xr):
    xr.step(2)
    s = side(xr, "dominant")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    dom.move_hand((0.25 * s, 1.35, -0.32), anchor="fingertip")
    red = draw(xr, "dominant", [(-s * 0.08, 0.04, 0.0)])
    pick(xr, "non_dominant", GREEN, (-0.3, 0.25))
    non.move_hand((-0.25 * s, 1.3, -0.33), anchor="fingertip")
    green = draw(xr, "non_dominant", [(0.0, 0.08, -0.03)])
    found = assert_count(xr, 2, "after two pinches")
    made = [match(found, red), match(found, green)]
    dom.rest()
    non.rest()
    xr.head.walk([(0.3, 1.5, 0.4)])
    xr.head.rotate(yaw=50)
    assert_unmoved(xr, made, "after the user walked away and turned")
    xr.head.look_at(centre(xr.find_by_tag(PALETTE).bbox))
    xr.head.move((0.0, -0.3, 0.0), speed=0.5)  # crouches, looking at the palette
    assert_unmoved(xr, made, "after the user crouched")
    dom.rest()
    pick(xr, "dominant", BLUE, (0.3, -0.3))
    pose = xr.camera_pose()
    assert pose.position[1] <= 1.25, f"the head did not go down: {_fmt(pose.position)}"
    f = pose.forward
    ahead = (pose.position[0] + 0.3 * f[0], pose.position[1] - 0.1, pose.position[2] + 0.3 * f[2])
    non.move_hand(ahead, anchor="fingertip")
    low = draw(xr, "non_dominant", [(0.0, 0.06, 0.0), (0.06, 0.0, 0.0)])
    found = assert_count(xr, 3, "after a pinch while crouching")
    made.append(match(found, low))
    assert_follows(made[2], low)
    assert_colour(xr, made[2], BLUE, "drawn crouching, after blue was picked")
    for stroke, colour in zip(made, (RED, GREEN), strict=False):
        assert_colour(xr, stroke, colour, "drawn before the user moved")
    dom.rest()
    non.rest()
    xr.head.move((0.0, 0.3, 0.0), speed=0.5)
    xr.head.walk([(0.0, 1.5, 0.0)])
    xr.head.look_at((0.0, 1.5, -1.0))
    xr.wait(3000)
    assert_count(xr, 3, "after the user came back")
    assert_unmoved(xr, made, "after the user stood up and walked back")
    for stroke, colour in zip(made, (RED, GREEN, BLUE), strict=True):
        assert_colour(xr, stroke, colour, "after the user stood up and walked back")
    assert_no_errors(xr)
