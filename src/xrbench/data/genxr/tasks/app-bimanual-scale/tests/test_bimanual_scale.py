"""Runtime tests of the two-handed scaling app.

They check that
- the object tagged 'scalable-cube' is one axis-aligned cube 0.2 m on a side centred at
  (0, 1.3, -0.5) (its world bounding box), that the cylinder is gone and that its state starts
  at `hands` 0, `scale` 1;
- one hand that touches and pinches it holds it (`state.hands` 1) and never resizes, moves or
  turns it, wherever it goes; a pinch of the other hand 10 cm beside the cube, or a touch of the
  other hand without a pinch, is not a second grab and resizes nothing;
- resizing starts when the second hand pinches inside the cube: frame by frame while its fingers
  close, the cube's size is its size when the grab started times the ratio of the fingertip
  distance to the distance then (no jump, whichever hand grabs first; the grab may start at the
  first frame of the pinch or when the fingers have met); after every step
  of a pull (both hands apart, together below the starting size, one hand alone, sideways or
  up and down) the cube's three edges are the size in proportion to the distance between the
  two index fingertips (world joints), within 4 %, two frames after the hands stop (so smoothing
  shows), its centre stays at (0, 1.3, -0.5) and `state.scale` is its size over 0.2 m;
- resizing stops when either hand lets go, in either order: while that hand's fingers open the
  size stays within 3 % of its size when the pinch opened, and then, while the hand still holding
  the cube and the released hand move, it does not change; after both let go it keeps that size for a second;
- a hand that lets go and grabs again while the other holds it (the first grabbing hand
  becomes the second) resizes from the new size and the new fingertip distance, as does a full
  regrab in the other order;
- the same holds in a second starting pose: the user crouches and the hands grab the cube one
  above the other and pull it apart vertically.

Each test runs for a right- and for a left-dominant user. Sizes are read from the tagged
object's world bounding box, distances from the simulated hands' index-fingertip joints, both in
one reading per frame. An app's size may lag its fingertips by one frame (XR Blocks reports a
grab's position during the frame); the frame-by-frame checks accept either frame's distance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors

CUBE = "scalable-cube"
CENTRE = (0.0, 1.3, -0.5)
SIZE = 0.2
SIZE_TOL = 0.01  # the stated 0.2 m edge, within 5 %
CENTRE_TOL = 0.01  # metres the cube's centre may be from (0, 1.3, -0.5)
STILL = 0.005  # relative size change allowed where the size must not change
FOLLOW = 0.04  # relative: the size against the fingertip distance after the hands stop
MOMENT = 0.03  # relative: frame by frame while fingers close
STATE_TOL = 0.03  # relative: state.scale against size / 0.2 m
CLOSE_FRAMES = 24  # frames for the simulated fingers to close or open

pytestmark = pytest.mark.xr_scenes("empty")

Vec = tuple[float, float, float]

# One frame's reading: every object tagged `arg.tag` (world bounding box, world orientation,
# state) and both index fingertips in the world.
_SAMPLE_JS = """
(h, arg) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const cubes = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== arg.tag) return;
    const box = new THREE.Box3().setFromObject(o);
    const state = d.state && typeof d.state === 'object' ? JSON.parse(JSON.stringify(d.state)) : null;
    cubes.push({min: box.isEmpty() ? null : box.min.toArray(), max: box.isEmpty() ? null : box.max.toArray(),
                state, quaternion: o.getWorldQuaternion(new THREE.Quaternion()).toArray()});
  });
  const tips = {};
  for (const [i, name] of [[0, 'left'], [1, 'right']]) {
    const space = h.core.input.hands[i];
    const joint = space && space.joints && space.joints['index-finger-tip'];
    if (!joint) continue;
    h.guard(joint, name + ' index fingertip').updateWorldMatrix(true, false);
    tips[name] = new THREE.Vector3().setFromMatrixPosition(joint.matrixWorld).toArray();
  }
  return {cubes, tips};
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


@dataclass
class Obs:
    size: Vec  # the cube's world bounding-box edges
    centre: Vec
    quaternion: tuple[float, float, float, float]
    state: Any
    tips: dict[str, Vec]  # 'left' / 'right' index fingertips

    @property
    def edge(self) -> float:
        return sum(self.size) / 3

    @property
    def distance(self) -> float:
        return math.dist(self.tips["left"], self.tips["right"])

    def hands(self) -> Any:
        return self.state.get("hands") if isinstance(self.state, dict) else None

    def scale(self) -> Any:
        return self.state.get("scale") if isinstance(self.state, dict) else None


def look(xr) -> Obs:
    r = xr.probe(_SAMPLE_JS, {"tag": CUBE})
    cubes = r["cubes"]
    assert len(cubes) == 1, f"expected exactly one object tagged {CUBE!r}; observed {len(cubes)}"
    c = cubes[0]
    assert c["min"] is not None, f"expected the object tagged {CUBE!r} to have geometry; its bounding box is empty"
    lo, hi = c["min"], c["max"]
    size = tuple(hi[i] - lo[i] for i in range(3))
    centre = tuple((hi[i] + lo[i]) / 2 for i in range(3))
    return Obs(size, centre, tuple(c["quaternion"]), c["state"], {k: tuple(v) for k, v in r["tips"].items()})


def side(xr, role: str) -> float:
    """+1 for the hand on the user's right, -1 for the left one."""
    return 1.0 if xr.handedness(role) == "right" else -1.0


def place(xr, role: str, x: float, dy: float = 0.0, dz: float = 0.0) -> None:
    """Put `role`'s index fingertip inside the cube, `x` metres from its centre towards that hand's side."""
    xr.hand(role).move_hand((side(xr, role) * x, CENTRE[1] + dy, CENTRE[2] + dz), anchor="fingertip")


def assert_in_place(obs: Obs, when: str) -> None:
    """The cube is uniform, axis-aligned and centred at CENTRE."""
    off = math.dist(obs.centre, CENTRE)
    assert off <= CENTRE_TOL, (
        f"expected the cube's centre to stay at {CENTRE} (within {CENTRE_TOL} m) {when}; observed {_fmt(obs.centre)}"
    )
    spread = max(obs.size) - min(obs.size)
    assert spread <= 0.02 * obs.edge, (
        f"expected an axis-aligned cube resized uniformly (equal edges) {when}; observed bounding box {_fmt(obs.size)}"
    )
    w = abs(obs.quaternion[3])
    assert w >= math.cos(math.radians(2) / 2), (
        f"expected the cube not to be turned {when}; observed its world orientation {obs.quaternion}"
    )


def assert_size(obs: Obs, want: float, tol: float, when: str) -> None:
    assert abs(obs.edge - want) <= tol * want, (
        f"expected the cube's edge {want:.3f} m (within {tol:.1%}) {when}; observed {_fmt(obs.size)} "
        f"with the fingertips {obs.distance:.3f} m apart"
    )


def assert_state(obs: Obs, hands: int, when: str) -> None:
    assert obs.hands() == hands, f"expected state.hands {hands} {when}; observed state {obs.state!r}"
    scale = obs.scale()
    want = obs.edge / SIZE
    assert isinstance(scale, (int, float)) and abs(scale - want) <= STATE_TOL * want, (
        f"expected state.scale {want:.3f} (the cube's edge {obs.edge:.3f} m over 0.2 m) {when}; observed {obs.state!r}"
    )


@dataclass
class Pull:
    """A two-handed resize: the size and fingertip distance at the frame the second hand grabbed."""

    size: float
    distance: float

    def want(self, obs: Obs) -> float:
        return self.size * obs.distance / self.distance

    def check(self, xr, when: str, settle: int = 2) -> Obs:
        """After the hands stopped (`settle` frames), the size is in proportion to the fingertip distance."""
        xr.step(settle)
        obs = look(xr)
        want = self.want(obs)
        assert abs(obs.edge - want) <= FOLLOW * want, (
            f"expected the cube's size in proportion to the distance between the grabbing fingertips {when}: "
            f"{self.size:.3f} m when they were {self.distance:.3f} m apart, so {want:.3f} m at {obs.distance:.3f} m "
            f"(within {FOLLOW:.0%}); observed {_fmt(obs.size)}"
        )
        assert_in_place(obs, when)
        assert_state(obs, 2, when)
        return obs


def pinch_alone(xr, role: str, when: str) -> Obs:
    """`role` pinches while the cube is not held by two hands: frame by frame, its size does not change."""
    before = look(xr)
    xr.hand(role).start_select(1)
    for _ in range(CLOSE_FRAMES):
        obs = look(xr)
        assert_size(obs, before.edge, STILL, f"while one hand pinched {when}")
        xr.step(1)
    obs = look(xr)
    assert_in_place(obs, f"after one hand pinched {when}")
    return obs


def second_grab(xr, role: str, when: str) -> Pull:
    """`role` grabs as the second hand: the cube does not jump, and frame by frame while its fingers
    close the size follows the fingertip distance from the size and distance of the frame the grab
    started.

    That frame is the pinch's first for an app that takes XR Blocks' select (whose event comes
    before that frame's hand joints move, so the reference may be the last distance before the
    pinch), later for one that waits for the thumb and index to meet: any frame `k` of the closing
    pinch (or the one before it) is accepted for which the size did not change up to `k` and
    followed the distance from `k` on (the distance of that frame or the one before).
    """
    before = look(xr)
    xr.hand(role).start_select(1)
    frames = [before, look(xr)]  # frame 0: the last one before the pinch (XR Blocks' select comes first)
    for _ in range(CLOSE_FRAMES):
        xr.step(1)
        frames.append(look(xr))
    size0 = before.edge

    def misfit(k: int) -> tuple[float, int]:
        """Largest relative error if the grab started at frame k, and the frame where it occurs."""
        worst, at = 0.0, 0
        d_k = frames[k].distance
        for t, obs in enumerate(frames):
            if t <= k:
                err = abs(obs.edge - size0) / size0
            else:
                wants = [size0 * frames[u].distance / d_k for u in (t, t - 1)]
                err = min(abs(obs.edge - w) / w for w in wants)
            if err > worst:
                worst, at = err, t
        return worst, at

    fits = [(misfit(k), k) for k in range(len(frames))]
    best = min(fits, key=lambda f: f[0][0])
    (worst, _at), k = best
    if worst > MOMENT:
        (_w0, t0), _ = fits[0]
        obs = frames[t0]
        want = size0 * obs.distance / frames[0].distance
        raise AssertionError(
            f"expected the cube's size to follow the fingertip distance from the frame the second hand grabbed "
            f"{when}, without a jump: {size0:.3f} m at {frames[0].distance:.3f} m, so {want:.3f} m at "
            f"{obs.distance:.3f} m {t0} frames after the pinch began (within {MOMENT:.0%}); observed {_fmt(obs.size)} "
            f"(no later starting frame fits either: best {worst:.1%} off)"
        )
    pull = Pull(size0, frames[k].distance)
    pull.check(xr, f"once the second hand's fingers closed {when}", settle=0)
    return pull


def shift(xr, moves: dict[str, Vec], steps: int = 1) -> None:
    """Move each hand of `moves` by its delta (metres, world), in `steps` alternating increments."""
    for _ in range(steps):
        for role, d in moves.items():
            xr.hand(role).move_by(tuple(v / steps for v in d))


def apart(xr, each: float, roles: Sequence[str] = ("dominant", "non_dominant")) -> dict[str, Vec]:
    """Sideways moves of `roles`, each `each` metres outward (negative: inward)."""
    return {role: (side(xr, role) * each, 0.0, 0.0) for role in roles}


def release_frozen(xr, role: str, others: Sequence[str], when: str) -> Obs:
    """`role` opens its pinch: the size stops following the hands. While its fingers open it stays
    within 3 % of its size at that frame (an app may see the pinch open a few frames late), and
    from then on, while `others` hands move, it does not change."""
    xr.step(2)
    before = look(xr)
    xr.hand(role).end_select(1)
    for _ in range(CLOSE_FRAMES):
        assert_size(look(xr), before.edge, MOMENT, f"while a hand let go and opened its fingers {when}")
        xr.step(1)
    frozen = look(xr)
    for other in others:
        xr.hand(other).move_by((side(xr, other) * 0.03, 0.0, 0.0))
        xr.step(2)
        assert_size(look(xr), frozen.edge, STILL, f"after one hand let go and the {other} hand moved out 3 cm {when}")
        xr.hand(other).move_by((0.0, 0.02, 0.0))
        xr.step(2)
        assert_size(look(xr), frozen.edge, STILL, f"after one hand let go and the {other} hand moved up 2 cm {when}")
    return look(xr)


# --- tests ------------------------------------------------------------------------------------


def test_a_cube_replaces_the_cylinder(xr):
    xr.step(1)
    obs = look(xr)
    assert all(abs(s - SIZE) <= SIZE_TOL for s in obs.size), (
        f"expected a cube {SIZE} m on each side (within {SIZE_TOL} m); observed its bounding box {_fmt(obs.size)}"
    )
    assert_in_place(obs, "at the start")
    assert obs.hands() == 0 and obs.scale() == pytest.approx(1.0, abs=0.01), (
        f"expected state {{hands: 0, scale: 1}} at the start; observed {obs.state!r}"
    )
    cylinders = [m for m in xr.drawn(("mesh",)) if "Cylinder" in m.geometry]
    assert not cylinders, f"expected the cylinder replaced by the cube; observed visible cylinders {cylinders}"
    assert_no_errors(xr)


def test_both_hands_resize_the_cube_in_proportion_from_the_second_grab(xr):
    xr.step(1)
    place(xr, "dominant", 0.06)
    place(xr, "non_dominant", 0.06)
    obs = pinch_alone(xr, "dominant", "(the dominant hand, first)")
    assert_state(obs, 1, "while the first hand held the cube")
    pull = second_grab(xr, "non_dominant", "(the non-dominant hand)")
    for i in range(1, 5):  # about twice as far apart, 1.5 cm per hand per step
        shift(xr, apart(xr, 0.015))
        obs = pull.check(xr, f"after the hands moved apart {1.5 * i:.1f} cm each")
    assert obs.distance >= 1.8 * pull.distance, f"the hands did not spread: {obs.distance:.3f} m apart"
    assert obs.edge >= 1.7 * pull.size, f"expected the cube about twice as large; observed {_fmt(obs.size)}"
    for i in range(1, 5):  # closer together than at the start
        shift(xr, apart(xr, -0.02))
        obs = pull.check(xr, f"after the hands moved together {2 * i} cm each")
    assert obs.edge <= 0.8 * pull.size, (
        f"expected the cube smaller than when the second hand grabbed ({pull.size:.3f} m); observed {_fmt(obs.size)}"
    )
    assert_no_errors(xr)


def test_one_hand_alone_or_a_pinch_that_misses_the_cube_does_not_resize_it(xr):
    xr.step(1)
    place(xr, "non_dominant", 0.06)
    obs = pinch_alone(xr, "non_dominant", "(the non-dominant hand, alone)")
    assert_state(obs, 1, "while one hand held the cube")
    hand = xr.hand("non_dominant")
    for delta in ((side(xr, "non_dominant") * 0.03, 0.0, 0.0), (0.0, 0.04, 0.0), (0.0, 0.0, 0.04), (0.0, -0.06, 0.0)):
        hand.move_by(delta)
        xr.step(2)
        obs = look(xr)
        assert_size(obs, SIZE, STILL, f"while one hand held it and moved by {_fmt(delta)}")
        assert_in_place(obs, f"while one hand held it and moved by {_fmt(delta)}")
    # The other hand pinches 10 cm beside the cube: not a grab.
    xr.hand("dominant").move_hand((side(xr, "dominant") * 0.2, CENTRE[1], CENTRE[2]), anchor="fingertip")
    xr.hand("dominant").pinch()
    obs = look(xr)
    assert obs.hands() == 1, (
        f"expected a pinch 10 cm beside the cube not to grab it (state.hands 1); observed {obs.state!r}"
    )
    shift(xr, apart(xr, 0.05, ["dominant"]), 2)
    xr.step(2)
    obs = look(xr)
    assert_size(obs, SIZE, STILL, "when the other hand pinched beside the cube and moved 5 cm further out")
    assert_state(obs, 1, "while one hand held the cube and the other pinched beside it")
    xr.hand("dominant").release()
    # The other hand touches the cube without pinching: not a grab either.
    place(xr, "dominant", 0.02)
    xr.step(5)
    shift(xr, apart(xr, 0.05, ["dominant"]), 2)
    xr.step(2)
    obs = look(xr)
    assert_size(obs, SIZE, STILL, "when the other hand touched the cube without a pinch and moved 5 cm out inside it")
    assert_state(obs, 1, "while one hand held the cube and the other only touched it")
    hand.release()
    xr.step(2)
    obs = look(xr)
    assert_size(obs, SIZE, STILL, "after the only hand that held it let go")
    assert_in_place(obs, "after the only hand that held it let go")
    assert_state(obs, 0, "after the only hand that held it let go")
    assert_no_errors(xr)


@pytest.mark.parametrize("first_out", ["dominant", "non_dominant"])
def test_resizing_stops_when_either_hand_lets_go(xr, first_out):
    xr.step(1)
    place(xr, "dominant", 0.06)
    place(xr, "non_dominant", 0.06)
    pinch_alone(xr, "dominant", "(the dominant hand, first)")
    pull = second_grab(xr, "non_dominant", "(the non-dominant hand)")
    shift(xr, apart(xr, 0.04), 4)
    grown = pull.check(xr, "after the hands moved apart 4 cm each")
    other = "non_dominant" if first_out == "dominant" else "dominant"
    obs = release_frozen(xr, first_out, [other, first_out], f"(the {first_out} hand let go first)")
    assert obs.edge >= 1.4 * pull.size, f"expected the cube to keep its grown size; observed {_fmt(obs.size)}"
    assert_in_place(obs, "after one hand let go")
    assert_state(obs, 1, "after one hand let go")
    kept = obs.edge
    xr.hand(other).release()
    xr.step(2)
    obs = look(xr)
    assert_size(obs, kept, STILL, "after the second hand let go")
    assert_state(obs, 0, "after both hands let go")
    for role in ("dominant", "non_dominant"):
        xr.hand(role).rest()
    xr.step(60)
    obs = look(xr)
    assert_size(obs, kept, STILL, "a second after both hands let go and went back to rest")
    assert_in_place(obs, "after both hands let go")
    assert abs(grown.edge - kept) <= 0.05 * grown.edge
    assert_no_errors(xr)


def test_a_hand_that_grabs_again_resizes_from_the_new_size(xr):
    xr.step(1)
    place(xr, "dominant", 0.06)
    place(xr, "non_dominant", 0.06)
    pinch_alone(xr, "dominant", "(the dominant hand, first)")
    pull = second_grab(xr, "non_dominant", "(the non-dominant hand)")
    shift(xr, apart(xr, 0.03), 3)
    pull.check(xr, "after the hands moved apart 3 cm each")
    # The first hand lets go and grabs again while the other holds on: it is now the second hand.
    release_frozen(xr, "dominant", ["dominant"], "(the dominant hand let go, the other held on)")
    pull = second_grab(xr, "dominant", "(the dominant hand again, while the other held on)")
    shift(xr, apart(xr, -0.025), 3)
    obs = pull.check(xr, "after the hands moved 2.5 cm towards each other from the regrab")
    shift(xr, apart(xr, -0.03, ["dominant"]), 3)
    obs = pull.check(xr, "after only the dominant hand moved 3 cm in")
    # Both let go, then both grab again, the other hand first.
    obs = release_frozen(xr, "non_dominant", [], "(the non-dominant hand let go)")
    xr.hand("dominant").release()
    kept = look(xr).edge
    assert abs(kept - obs.edge) <= STILL * obs.edge, (
        f"expected the cube to keep its size {obs.edge:.3f} m; observed {kept:.3f} m"
    )
    pinch_alone(xr, "non_dominant", "(the non-dominant hand, first, after both let go)")
    pull = second_grab(xr, "dominant", "(the dominant hand, second, after both let go)")
    assert abs(pull.size - kept) <= STILL * 2 * kept
    shift(xr, apart(xr, 0.03), 3)
    pull.check(xr, "after the hands moved apart 3 cm each in the new two-handed grab")
    assert_no_errors(xr)


def test_a_vertical_pull_from_a_crouch(xr):
    xr.step(1)
    xr.head.move((0.0, -0.25, 0.0), speed=0.5)  # the user crouches: eyes at 1.25 m
    # The hands grab the cube one above the other near its front face: the non-dominant hand above,
    # first, the dominant hand below, second.
    up, down = "non_dominant", "dominant"
    xr.hand(up).move_hand((side(xr, up) * 0.02, CENTRE[1] + 0.09, CENTRE[2] + 0.05), anchor="fingertip")
    xr.hand(down).move_hand((side(xr, down) * 0.02, CENTRE[1] - 0.02, CENTRE[2] + 0.05), anchor="fingertip")
    pinch_alone(xr, up, "(the upper, non-dominant hand, first, from a crouch)")
    pull = second_grab(xr, down, "(the lower, dominant hand, second, from a crouch)")
    for i in range(1, 4):
        shift(xr, {up: (0.0, 0.015, 0.0), down: (0.0, -0.015, 0.0)})
        obs = pull.check(xr, f"after the hands moved {1.5 * i:.1f} cm apart vertically")
    shift(xr, {down: (0.0, -0.03, 0.0)}, 3)
    obs = pull.check(xr, "after only the lower hand moved 3 cm down")
    assert obs.edge >= 1.3 * pull.size, f"expected the cube to grow with a vertical pull; observed {_fmt(obs.size)}"
    shift(xr, {up: (0.0, -0.04, 0.0), down: (0.0, 0.04, 0.0)}, 4)
    pull.check(xr, "after the hands moved 4 cm towards each other vertically")
    assert_no_errors(xr)
