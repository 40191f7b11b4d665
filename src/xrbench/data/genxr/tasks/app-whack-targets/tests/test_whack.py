"""Runtime tests of the whack-a-target game.

They check that
- before the first game the cylinder is gone; the start button tagged 'start-button' is a mesh,
  a box 0.2 x 0.1 x 0.04 m along its local axes (within 0.03 / 0.02 / 0.01 m) centred within 3 cm
  of (0, 1.1, -0.7), with a label on its front (seen straight on, its front shows two clearly
  different colours); the score panel tagged 'score-panel' is a mesh 0.5 x 0.2 m (within 0.06 /
  0.03 m), at most 5 cm thick, centred within 4 cm of (0, 2.0, -2.0), its local +Z turned towards
  the head within 20 degrees, showing text; no target is shown; `state` is score 0, running false;
  no tagged object is (part of) an XR Blocks UICard / UIPanel / UIButton;
- selecting the start button (dominant hand) starts a game at the frame the selection ends: score 0,
  running true, one target, a mesh 0.2 m across on each local axis (within 0.03 m), its centre
  within 3 cm of the first position; the start button stays visible;
- eleven hits taking turns between both hands and both controllers each add exactly one and move
  the target along the sequence, wrapping after the fifth position twice; during two of the hits
  (a hand's and a controller's) the target is read every frame: at each frame it is at its old or
  its new position, never in between, and at the new one six frames after the release; the panel,
  pictured about half a second after the release, looks different at every score of 0-2 and 10-11
  (a display that lags, shows the last digit only, or is never redrawn does not);
- misses change nothing: pointing at the target for a second (open and pointing dominant hand,
  relaxed non-dominant hand), selecting 4 cm beside its surface on four sides, at the corner of its bounding box
  (outside the sphere), where it was before it jumped, on the score panel and at empty space, with
  hands and controllers; the panel still shows the same score;
- the target is hit anywhere on it (0.6 of its radius off its centre, four sides, taking turns
  between both hands and both controllers), also while the user crouches 0.4 m and looks at it
  (head pitched), and while the user looks away from it;
- one selection scores once: a pinch held three seconds, its ray then swept onto the target's new
  position while still held, scores once; both hands play, also while the other hand holds a pinch
  (aimed away, or the one that hit the target) or the other controller holds its trigger;
- the start button restarts a game: score 0, running still true, first position, the panel
  showing 0 again, and the next hit goes to the second position; also after a restart at the fifth
  position followed at once by another.

What the panel and the button show is read from pixels of the app's scene rendered off screen by
an orthographic camera straight in front of the tagged mesh (both hands lowered, their rays on the
floor). Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.session import rotate

pytestmark = pytest.mark.xr_scenes("empty")

START, TARGET, PANEL = "start-button", "whack-target", "score-panel"
SEQUENCE = [(-0.4, 1.5, -1.5), (0.4, 1.7, -1.5), (0.0, 1.3, -1.2), (0.5, 1.4, -1.3), (-0.5, 1.6, -1.3)]
BUTTON_CENTRE, BUTTON_SIZE, BUTTON_TOL = (0.0, 1.1, -0.7), (0.2, 0.1, 0.04), (0.03, 0.02, 0.01)
PANEL_CENTRE, PANEL_SIZE, PANEL_TOL, PANEL_THICK = (0.0, 2.0, -2.0), (0.5, 0.2), (0.06, 0.03), 0.05
TARGET_RADIUS, TARGET_TOL = 0.1, 0.03
POS_TOL = 0.03  # metres from a stated position (the button's and the target's centres)
PANEL_POS_TOL = 0.04
FACING_MAX = 20.0  # degrees
START_HEAD = (0.0, 1.5, 0.0)
HOLD = 6  # frames a click holds the pinch (and waits after releasing it)
SETTLE = 18  # frames after the rays turn to the floor before a picture (about half a second after a release)
LOWER_SPEED = 720.0  # degrees/s the rays turn down to the floor before a picture
PICTURE_WIDTH = 512
CHANGED = 16  # pixels that must differ between pictures of two different scores
SAME = 8  # pixels that may always differ between two pictures of the same score
TEXT_PIXELS = 150  # pixels of the panel's face (and of the button's front) apart from its main colour
LABEL_PIXELS = 60
BESIDE = 0.04  # metres outside the target's surface
OFF_CENTRE = 0.6  # of the radius
PICTURED = (0, 1, 2, 10, 11)

Vec = tuple[float, float, float]

# Every object tagged `tag`: whether it is a mesh and shown, its geometry's type, its world pose,
# its geometry's box in its local frame (metres, scale applied) and the XR Blocks UI classes it
# is, or is part of.
_BUILD_JS = """
(h, {tag}) => {
  const THREE = h.THREE, xb = h.xb;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const uiClasses = ['UICard', 'UIPanel', 'UIButton', 'UIText'].filter((n) => typeof xb[n] === 'function');
  const out = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== tag) return;
    let shown = true;
    for (let p = o; p; p = p.parent) if (!p.visible) shown = false;
    const ui = [];
    for (let p = o; p; p = p.parent) for (const n of uiClasses) if (p instanceof xb[n]) ui.push(n);
    const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
    o.matrixWorld.decompose(p, q, s);
    const g = o.geometry;
    let lo = null, hi = null;
    if (g && g.attributes && g.attributes.position) {
      const box = new THREE.Box3().setFromBufferAttribute(g.attributes.position);
      lo = [box.min.x * s.x, box.min.y * s.y, box.min.z * s.z];
      hi = [box.max.x * s.x, box.max.y * s.y, box.max.z * s.z];
    }
    out.push({isMesh: !!o.isMesh, type: o.type, geometry: (g && g.type) || '', shown,
              position: p.toArray(), quaternion: q.toArray(), lo, hi, ui});
  });
  return out;
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _angle(u: Sequence[float], v: Sequence[float]) -> float:
    nu, nv = math.sqrt(sum(x * x for x in u)), math.sqrt(sum(x * x for x in v))
    if nu < 1e-9 or nv < 1e-9:
        return 180.0
    return math.degrees(math.acos(max(-1.0, min(1.0, sum(a * b for a, b in zip(u, v, strict=True)) / (nu * nv)))))


def _sub(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _unit(v: Sequence[float]) -> Vec:
    n = math.sqrt(sum(x * x for x in v))
    return (v[0] / n, v[1] / n, v[2] / n)


def _cross(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@dataclass
class Part:
    """A tagged mesh as built: its centre, local axes in the world and size along them."""

    centre: Vec
    axes: tuple[Vec, Vec, Vec]
    size: Vec
    raw: dict


def parts(xr, tag: str) -> list[Part]:
    out = []
    for raw in xr.probe(_BUILD_JS, {"tag": tag}):
        q = raw["quaternion"]
        axes = (rotate(q, (1, 0, 0)), rotate(q, (0, 1, 0)), rotate(q, (0, 0, 1)))
        lo, hi = raw["lo"] or [0, 0, 0], raw["hi"] or [0, 0, 0]
        mid = [(lo[i] + hi[i]) / 2 for i in range(3)]
        centre = tuple(raw["position"][i] + sum(mid[k] * axes[k][i] for k in range(3)) for i in range(3))
        out.append(Part(centre, axes, tuple(hi[i] - lo[i] for i in range(3)), raw))  # type: ignore[arg-type]
    return out


def part(xr, tag: str) -> Part:
    __tracebackhide__ = True
    shown = [p for p in parts(xr, tag) if p.raw["shown"]]
    assert len(shown) == 1, f"expected exactly one shown object tagged {tag!r}; observed {len(shown)}"
    p = shown[0]
    assert p.raw["isMesh"], f"expected the object tagged {tag!r} to be a mesh; it is a {p.raw['type']}"
    assert p.raw["lo"] is not None, f"expected the object tagged {tag!r} to have geometry"
    assert not p.raw["ui"], f"expected {tag!r} built from three.js meshes; it is (part of) XR Blocks {p.raw['ui']}"
    return p


def target(xr):
    """The one visible target (its scene node)."""
    __tracebackhide__ = True
    shown = [n for n in xr.tagged(TARGET) if n.root == "scene" and n.visible]
    assert len(shown) == 1, f"expected exactly one visible {TARGET!r}; observed {len(shown)}"
    assert shown[0].bbox is not None, f"expected the {TARGET!r} to have geometry"
    return shown[0]


def centre_of(node) -> Vec:
    lo, hi = node.bbox
    return tuple((lo[i] + hi[i]) / 2 for i in range(3))  # type: ignore[return-value]


def assert_target_at(xr, k: int, when: str) -> None:
    __tracebackhide__ = True
    c = centre_of(target(xr))
    d = math.dist(c, SEQUENCE[k])
    assert d <= POS_TOL, (
        f"{when}: expected the target at position {k + 1} of the sequence {_fmt(SEQUENCE[k])} (within {POS_TOL} m); "
        f"observed its centre at {_fmt(c)}, {d:.3f} m away"
    )


def state(xr) -> dict:
    __tracebackhide__ = True
    s = xr.find_by_tag(PANEL).state
    assert isinstance(s, dict), f"expected the score panel's state to be an object; observed {s!r}"
    return s


def score_of(xr) -> int:
    __tracebackhide__ = True
    s = state(xr)
    score = s.get("score")
    assert isinstance(score, int) and not isinstance(score, bool), f"expected state.score, a number; observed {s!r}"
    return score


class Game:
    """The score and the target's position in the sequence, as the test expects them."""

    def __init__(self, xr):
        self.xr = xr
        self.score = 0
        self.index = 0

    def expect(self, added: int, what: str) -> None:
        __tracebackhide__ = True
        now = score_of(self.xr)
        assert now == self.score + added, (
            f"expected {what} to add {added} to the score (from {self.score}); observed state.score {now}"
        )
        self.score = now
        self.index = (self.index + added) % len(SEQUENCE)
        assert_target_at(self.xr, self.index, f"after {what} (score {self.score})")

    def start(self, select, what: str) -> None:
        __tracebackhide__ = True
        select(START)
        s = state(self.xr)
        assert s.get("score") == 0 and s.get("running") is True, (
            f"expected {what} to start a game (state.score 0, state.running true); observed {s!r}"
        )
        self.score, self.index = 0, 0
        assert_target_at(self.xr, 0, f"after {what}")
        assert_button_visible(self.xr, f"after {what}")


def assert_button_visible(xr, when: str) -> None:
    __tracebackhide__ = True
    shown = [n for n in xr.tagged(START) if n.root == "scene" and n.visible]
    assert shown, f"{when}: expected the start button visible the whole time; it is hidden"


def clicker(xr, role: str, controller: bool = False):
    if controller:
        return lambda where: xr.controller(role).select(where, hold_frames=HOLD)
    return lambda where: xr.hand(role).click(where, hold_frames=HOLD)


ACTORS = [("dominant", False), ("non_dominant", False), ("dominant", True), ("non_dominant", True)]


def actor_name(role: str, controller: bool) -> str:
    return f"the {role.replace('_', '-')} {'controller' if controller else 'hand'}"


def around(xr, role: str, centre: Vec, r: float, angle: float) -> Vec:
    """A point `r` from `centre`, across the line from the `role` hand to it, towards `angle`
    degrees (0 right, 90 up)."""
    d = _unit(_sub(centre, xr.hand(role).position))
    right = _unit(_cross(d, (0.0, 1.0, 0.0)))
    up = _cross(right, d)
    a = math.radians(angle)
    return tuple(centre[i] + r * (math.cos(a) * right[i] + math.sin(a) * up[i]) for i in range(3))  # type: ignore[return-value]


def ray_misses_sphere(origin: Sequence[float], point: Sequence[float], centre: Sequence[float], r: float) -> bool:
    d = _unit(_sub(point, origin))
    oc = _sub(centre, origin)
    t = sum(oc[i] * d[i] for i in range(3))
    closest = [origin[i] + max(t, 0.0) * d[i] for i in range(3)]
    return math.dist(closest, centre) > r


# --- pictures ------------------------------------------------------------------------------------


def lower_hands(xr) -> None:
    """Both hands at rest, their rays on the floor: nothing is pointed at; then a moment for any
    effect of the last selection to fade (about half a second after a click's release)."""
    for role in ("dominant", "non_dominant"):
        hand = xr.hand(role)
        hand.rest()
        x, _, z = hand.position
        hand.point_to((x, 0.0, z - 0.5), speed=LOWER_SPEED)
    xr.step(SETTLE)


def front_view(xr, p: Part, flip: bool = False) -> np.ndarray:
    """The face of `p` on its local +Z side (-Z with `flip`), seen straight on: RGB rows."""
    right, up, out = p.axes
    if flip:
        right, out = tuple(-v for v in right), tuple(-v for v in out)
    w, h = p.size[0], p.size[1]
    width = PICTURE_WIDTH
    height = max(16, round(width * h / w))
    face = tuple(p.centre[i] + out[i] * p.size[2] / 2 for i in range(3))
    # Drawn by the app's renderer from 0.3 m in front of the face, orthographically.
    return xr.picture(face, right, up, (w, h), (width, height), distance=0.3).astype(int)


def off_main_colour(pixels: np.ndarray) -> int:
    """Pixels that clearly differ (by over 48 in a colour channel) from the face's most common colour."""
    flat = pixels.reshape(-1, 3)
    colours, counts = np.unique(flat // 8, axis=0, return_counts=True)
    main = colours[np.argmax(counts)] * 8 + 4
    return int((np.abs(flat - main).max(axis=1) > 48).sum())


def render_panel(xr) -> np.ndarray:
    return front_view(xr, part(xr, PANEL))


def picture(xr) -> np.ndarray:
    """The panel once the hands are lowered and its look has settled: text laid out off the main
    thread (SDF text, for example) may take a moment of real time to show a new score, so this
    renders again until two pictures agree (a few tries at most)."""
    lower_hands(xr)
    shot = render_panel(xr)
    for _ in range(4):
        time.sleep(0.05)
        xr.step(2)
        again = render_panel(xr)
        if differing(shot, again) <= SAME:
            return again
        shot = again
    return shot


def differing(a: np.ndarray, b: np.ndarray) -> int:
    """Pixels that clearly differ (by over 48 in a colour channel)."""
    return int((np.abs(a - b).max(axis=2) > 48).sum())


def assert_shows_new_score(before: np.ndarray, after: np.ndarray, when: str) -> int:
    __tracebackhide__ = True
    n = differing(before, after)
    assert n >= CHANGED, (
        f"{when}: expected the score panel to show a different score; it looks the same "
        f"({n} of {after.shape[0] * after.shape[1]} pixels differ, at least {CHANGED} expected)"
    )
    return n


def assert_shows_same_score(before: np.ndarray, after: np.ndarray, changed: int, when: str) -> None:
    """The two pictures differ far less (a quarter) than a change of score (`changed` pixels) does."""
    __tracebackhide__ = True
    n, most = differing(before, after), max(SAME, changed // 4)
    assert n <= most, (
        f"{when}: expected the score panel to show the same score as before; {n} of "
        f"{after.shape[0] * after.shape[1]} pixels changed (a change of score changed {changed}; at most {most} "
        "allowed)"
    )


# --- tests ---------------------------------------------------------------------------------------


def test_before_and_at_the_start_of_the_first_game(xr):
    xr.step(2)
    cylinders = [d for d in xr.drawn(("mesh",)) if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed {cylinders}"
    assert not [n for n in xr.tagged(TARGET) if n.root == "scene" and n.visible], (
        "expected no target shown before the first game"
    )
    s = state(xr)
    assert s.get("score") == 0 and s.get("running") is False, (
        f"expected the score panel's state score 0, running false before the first game; observed {s!r}"
    )
    # The start button.
    b = part(xr, START)
    for k, (what, want, tol) in enumerate(zip(("width", "height", "depth"), BUTTON_SIZE, BUTTON_TOL, strict=True)):
        assert abs(b.size[k] - want) <= tol, (
            f"expected the start button {want} m in {what} (along its local {'xyz'[k]}, within {tol} m); "
            f"observed {b.size[k]:.3f} m"
        )
    d = math.dist(b.centre, BUTTON_CENTRE)
    assert d <= POS_TOL, (
        f"expected the start button centred at {_fmt(BUTTON_CENTRE)} (within {POS_TOL} m); observed {_fmt(b.centre)}"
    )
    # The button's front is the side of its local z towards the user.
    flip = sum(b.axes[2][i] * (START_HEAD[i] - b.centre[i]) for i in range(3)) < 0
    # The panel.
    p = part(xr, PANEL)
    for k, (what, want, tol) in enumerate(zip(("width", "height"), PANEL_SIZE, PANEL_TOL, strict=True)):
        assert abs(p.size[k] - want) <= tol, (
            f"expected the score panel {want} m in {what} (along its local {'xy'[k]}, within {tol} m); "
            f"observed {p.size[k]:.3f} m"
        )
    assert p.size[2] <= PANEL_THICK + 0.005, (
        f"expected a flat score panel (at most {PANEL_THICK} m thick); observed {p.size[2]:.3f} m"
    )
    d = math.dist(p.centre, PANEL_CENTRE)
    assert d <= PANEL_POS_TOL, (
        f"expected the score panel centred at {_fmt(PANEL_CENTRE)} (within {PANEL_POS_TOL} m); observed "
        f"{_fmt(p.centre)}"
    )
    facing = _angle(p.axes[2], _sub(xr.head.pose.position, p.centre))
    assert facing <= FACING_MAX, (
        f"expected the score panel's front (local +Z) turned towards the head within {FACING_MAX} deg; "
        f"observed {facing:.1f} deg"
    )
    lower_hands(xr)
    label = off_main_colour(front_view(xr, b, flip))
    assert label >= LABEL_PIXELS, (
        f"expected a label on the start button's front; seen straight on, {label} pixels differ from its main colour "
        f"(at least {LABEL_PIXELS} expected)"
    )
    text = off_main_colour(render_panel(xr))
    assert text >= TEXT_PIXELS, (
        f"expected the score panel to show its score before the first game; seen straight on, {text} pixels "
        f"differ from its main colour (at least {TEXT_PIXELS} expected)"
    )
    # Starting a game.
    game = Game(xr)
    game.start(clicker(xr, "dominant"), "selecting the start button with the dominant hand")
    t = part(xr, TARGET)
    for k in range(3):
        assert abs(t.size[k] - 2 * TARGET_RADIUS) <= TARGET_TOL, (
            f"expected the target a sphere {2 * TARGET_RADIUS} m in diameter (within {TARGET_TOL} m); observed "
            f"{t.size[k]:.3f} m along its local {'xyz'[k]}"
        )
    assert_no_errors(xr)


def test_each_hit_scores_one_and_moves_the_target_along_the_sequence(xr):
    xr.step(2)
    game = Game(xr)
    game.start(clicker(xr, "non_dominant", True), "the non-dominant controller selecting the start button")
    shown = {0: picture(xr)}
    for hit in range(1, 12):
        role, controller = ACTORS[(hit - 1) % len(ACTORS)]
        name = actor_name(role, controller)
        old, new = SEQUENCE[game.index], SEQUENCE[(game.index + 1) % len(SEQUENCE)]
        if hit in (1, 3):
            # Frame by frame: the target is where it was or at its next position, never between.
            actor = xr.controller(role) if controller else xr.hand(role)
            actor.point_to(target(xr))
            seen = []
            actor.start_select(0)
            for frame in range(2 * HOLD):
                if frame == HOLD:
                    actor.end_select(0)
                xr.step(1)
                c = centre_of(target(xr))
                seen.append(c)
                assert min(math.dist(c, old), math.dist(c, new)) <= POS_TOL, (
                    f"hit {hit} ({name}), frame {frame + 1} after the press: expected the target to jump from "
                    f"{_fmt(old)} to {_fmt(new)}; observed it at {_fmt(c)}"
                )
        else:
            clicker(xr, role, controller)(target(xr))
        game.expect(1, f"hit {hit} ({name})")
        assert_button_visible(xr, f"after hit {hit}")
        if hit in PICTURED:
            shown[hit] = picture(xr)
            if hit - 1 in shown:
                assert_shows_new_score(shown[hit - 1], shown[hit], f"after hit {hit} (score {hit - 1} -> {hit})")
    # Every score pictured looks different from every other one.
    for a, b in itertools.combinations(shown, 2):
        assert_shows_new_score(shown[a], shown[b], f"at score {b} (compared with score {a})")
    assert state(xr).get("running") is True, f"expected state.running true during the game; observed {state(xr)!r}"
    assert_no_errors(xr)


def test_misses_do_not_score_or_move_the_target(xr):
    xr.step(2)
    game = Game(xr)
    game.start(clicker(xr, "dominant"), "selecting the start button")
    clicker(xr, "dominant")(target(xr))
    game.expect(1, "a hit")
    before = picture(xr)
    hovers = [("dominant", "neutral"), ("dominant", "pointing"), ("non_dominant", "relaxed")]
    for role, pose in hovers:  # pointing at the target without selecting it
        hand = xr.hand(role)
        hand.set_pose(pose)
        hand.point_to(target(xr))
        xr.wait(1000)
        game.expect(0, f"pointing the {role} hand ({pose}) at the target for a second without selecting it")
        hand.point_forward()
        hand.set_pose("relaxed")
    c = centre_of(target(xr))
    for k, angle in enumerate((10, 100, 190, 280)):
        role, controller = ACTORS[k]
        point = around(xr, role, c, TARGET_RADIUS + BESIDE, angle)
        clicker(xr, role, controller)(point)
        game.expect(0, f"{actor_name(role, controller)} selecting {BESIDE} m beside the target, at {_fmt(point)}")
    for role in ("dominant", "non_dominant"):
        # The corner of the target's bounding box, outside the sphere (0.12 m from its centre).
        corner = around(xr, role, c, TARGET_RADIUS * 0.85 * math.sqrt(2), 45 if role == "dominant" else 225)
        clicker(xr, role)(corner)
        game.expect(
            0, f"{actor_name(role, False)} selecting beside the sphere, at the corner of its box {_fmt(corner)}"
        )
    elsewhere = [
        ("where the target was before it jumped", SEQUENCE[0]),
        ("the score panel", PANEL_CENTRE),
        ("empty space", (1.2, 1.5, -1.5)),
        ("empty space above the panel", (0.0, 2.6, -2.5)),
    ]
    for k, (what, point) in enumerate(elsewhere):
        role, controller = ACTORS[(k + 1) % len(ACTORS)]
        origin = xr.hand(role).position
        assert ray_misses_sphere(origin, point, c, TARGET_RADIUS + 0.02), f"test geometry: {what} behind the target"
        clicker(xr, role, controller)(point)
        game.expect(0, f"{actor_name(role, controller)} selecting {what}, at {_fmt(point)}")
    missed = picture(xr)
    clicker(xr, "non_dominant")(target(xr))
    game.expect(1, "a hit after the misses")
    changed = assert_shows_new_score(before, picture(xr), "after a hit (score 1 -> 2)")
    assert_shows_same_score(before, missed, changed, "after the misses")
    assert_no_errors(xr)


def test_the_target_is_hit_anywhere_on_it(xr):
    xr.step(2)
    game = Game(xr)
    game.start(clicker(xr, "dominant"), "selecting the start button")
    for k, angle in enumerate((13, 103, 193, 283)):
        role, controller = ACTORS[k]
        c = centre_of(target(xr))
        point = around(xr, role, c, OFF_CENTRE * TARGET_RADIUS, angle)
        clicker(xr, role, controller)(point)
        game.expect(1, f"{actor_name(role, controller)} selecting the target off its centre, at {_fmt(point)}")
    # Crouching and looking down at the target.
    xr.head.move((0.0, -0.4, 0.0), speed=0.5)
    for j, role in enumerate(("dominant", "non_dominant")):
        xr.head.look_at(target(xr))
        xr.hand(role).rest()
        c = centre_of(target(xr))
        point = around(xr, role, c, 0.5 * TARGET_RADIUS, 137 + 90 * j)
        clicker(xr, role)(point)
        game.expect(1, f"a pinch of the {role} hand while the user crouched and looked at the target, at {_fmt(point)}")
    # Looking away from the target (45 degrees to the side of it).
    xr.head.move((0.0, 0.4, 0.0), speed=0.5)
    for role in ("dominant", "non_dominant"):
        c = centre_of(target(xr))
        xr.head.look_at((c[0] + (1.5 if c[0] <= 0 else -1.5), c[1], c[2]))
        clicker(xr, role, True)(target(xr))
        game.expect(1, f"the {role} controller selecting the target while the user looked away from it")
    assert_no_errors(xr)


def held_hit_then_other(xr, game: Game, holder, role: str, other: str) -> None:
    """`holder` pinches the target and holds; the `other` hand then hits it where it is."""
    __tracebackhide__ = True
    holder.point_to(target(xr))
    holder.start_select(HOLD)
    done = score_of(xr) - game.score
    assert done in (0, 1), f"expected a pinch of the {role} hand on the target to score at most once; observed {done}"
    if done:
        game.expect(1, f"a hit of the {role} hand (held)")
    clicker(xr, other)(target(xr))
    game.expect(1, f"a hit of the {other} hand while the {role} hand held its pinch (which had hit the target)")
    score = game.score
    holder.end_select(HOLD)
    if not done:  # an app that scores at the release may count the held pinch now, or not at all
        late = score_of(xr) - score
        assert late in (0, 1), f"expected the release of the {role} hand's pinch to score at most once; observed {late}"
        game.expect(late, f"the release of the {role} hand's pinch")
    else:
        game.expect(0, f"the release of the {role} hand's pinch")


def test_held_and_overlapping_selections(xr):
    xr.step(2)
    game = Game(xr)
    game.start(clicker(xr, "dominant"), "selecting the start button")
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    # A pinch held three seconds scores once; its ray swept onto the target's new position while
    # still held scores nothing more.
    dom.point_to(target(xr))
    dom.start_select(HOLD)
    xr.wait(3000)
    done = score_of(xr)
    assert done in (0, 1), f"expected a held pinch on the target to score at most once; observed state.score {done}"
    if done:
        game.expect(1, "a pinch on the target held three seconds")
        dom.point_to(target(xr), speed=90.0)
        xr.wait(1000)
        game.expect(0, "the held pinch's ray swept onto the target's new position and held there for a second")
        dom.end_select(HOLD)
        game.expect(0, "releasing the held pinch")
    else:
        dom.end_select(HOLD)
        game.expect(1, "a pinch on the target held three seconds, then released")
    dom.point_to((0.0, 2.6, -2.5))  # empty space above the panel
    dom.start_select(2)  # a quick pinch
    dom.end_select(HOLD)
    game.expect(0, "a quick pinch aimed at nothing")
    clicker(xr, "dominant")(target(xr))
    game.expect(1, "a hit after the held pinch")
    # The non-dominant hand holds a pinch aimed away while the dominant one hits.
    non.point_to((0.0, 2.6, -2.5))
    non.start_select(HOLD)
    clicker(xr, "dominant")(target(xr))
    game.expect(1, "a hit of the dominant hand while the non-dominant hand held a pinch aimed above the panel")
    non.end_select(HOLD)
    # One hand hits and keeps holding its pinch; the other one hits the target's new position.
    held_hit_then_other(xr, game, dom, "dominant", "non_dominant")
    held_hit_then_other(xr, game, non, "non_dominant", "dominant")
    # The dominant controller holds its trigger on the score panel while the other one hits.
    a, b = xr.controller("dominant"), xr.controller("non_dominant")
    a.point_to(PANEL_CENTRE)
    a.start_select(HOLD)
    b.select(target(xr), hold_frames=HOLD)
    a.end_select(HOLD)
    game.expect(1, "a hit of the non-dominant controller while the dominant one held its trigger on the panel")
    assert_no_errors(xr)


def test_the_start_button_restarts_the_game(xr):
    xr.step(2)
    game = Game(xr)
    game.start(clicker(xr, "dominant"), "selecting the start button")
    zero = picture(xr)
    for hit in range(3):
        clicker(xr, ("dominant", "non_dominant")[hit % 2])(target(xr))
        game.expect(1, f"hit {hit + 1}")
    three = picture(xr)
    changed = assert_shows_new_score(zero, three, "after three hits (score 0 -> 3)")
    game.start(clicker(xr, "non_dominant"), "selecting the start button during a game (at score 3)")
    assert_shows_same_score(zero, picture(xr), changed, "after restarting (score 0 again)")
    clicker(xr, "dominant")(target(xr))
    game.expect(1, "the first hit after restarting")
    for hit in range(3):
        clicker(xr, ("non_dominant", "dominant")[hit % 2])(target(xr))
        game.expect(1, f"hit {hit + 2} after restarting")
    game.start(clicker(xr, "dominant", True), "the dominant controller selecting the start button (at score 4)")
    game.start(clicker(xr, "non_dominant", True), "selecting the start button again at once (at score 0)")
    clicker(xr, "non_dominant")(target(xr))
    game.expect(1, "the first hit after restarting twice")
    assert_no_errors(xr)
