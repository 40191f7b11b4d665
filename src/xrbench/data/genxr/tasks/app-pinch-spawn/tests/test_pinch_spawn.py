"""Runtime tests of pinch-to-spawn.

They check that
- the scene starts empty: no sphere, and no visible mesh (the cylinder is gone);
- a pinch of the dominant hand, then one of the non-dominant hand, then one of both hands in the
  same frame each add exactly one sphere per pinching hand (`pinch-sphere`), while the fingers
  close (at the moment of the pinch, not at the release), at that hand's index fingertip where
  the fingers meet (not at the wrist, not at the other hand), with `state.hand` naming the hand.
  Each is a sphere (its vertices equidistant from its centre) 4 cm across, within 1 cm (25 %);
- moving an open or a partly curled hand makes no sphere; a quick pinch makes one; a pinch held
  for ten seconds makes exactly one, also while the other hand pinches meanwhile; opening the
  fingers makes none;
- spheres stay where they were made, in the room: while the pinching hand moves on (still
  pinched, then released) and while the user walks, turns, looks down and crouches; a pinch made
  while looking down and crouching still puts its sphere at the fingertip;
- seven pinches of alternating hands at seven places make seven spheres, one more each time, and
  all seven are still in the scene, visible and where they were made three seconds later (the
  quick pinch's sphere in the long-pinch test is checked again some seventeen seconds after it
  was made).

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "pinch-sphere"
DIAMETER = 0.04
DIAMETER_TOL = 0.01  # a stated size, checked to within 25 %
NEAR_TIP = 0.04  # metres from the fingertip (it moves ~4 cm while the fingers close)
STILL_TOL = 0.003  # metres a sphere may move once made
PINCH_FRAMES = 24  # the fingers close (and open) over these frames

Vec = tuple[float, float, float]

# The shape of every object tagged `tag`: how far its world-space vertices lie from the centre of
# their bounding box (a sphere's all lie at one radius) and how many distinct vertices it has.
_SHAPES_JS = """
(h, tag) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const out = [];
  scene.traverse((root) => {
    h.guard(root, root.name || root.type);
    const d = root.userData && root.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== tag) return;
    const points = [];
    const v = new THREE.Vector3();
    root.traverse((o) => {
      const g = o.geometry;
      const pos = g && g.attributes && g.attributes.position;
      if (!pos || o.isInstancedMesh) return;
      for (let i = 0; i < pos.count; i++) {
        points.push(v.fromBufferAttribute(pos, i).applyMatrix4(o.matrixWorld).clone());
      }
    });
    if (!points.length) { out.push({uuid: root.uuid, distinct: 0, rmin: 0, rmax: 0}); return; }
    const box = new THREE.Box3().setFromPoints(points);
    const c = box.getCenter(new THREE.Vector3());
    let rmin = Infinity, rmax = 0;
    const distinct = new Set();
    for (const p of points) {
      const r = p.distanceTo(c);
      rmin = Math.min(rmin, r);
      rmax = Math.max(rmax, r);
      distinct.add([p.x, p.y, p.z].map((x) => Math.round(x * 1e4)).join(','));
    }
    out.push({uuid: root.uuid, distinct: distinct.size, rmin, rmax});
  });
  return out;
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def spheres(xr) -> dict:
    return {n.uuid: n for n in xr.tagged(TAG) if n.root == "scene"}


def centre(node) -> Vec:
    lo, hi = node.bbox or (node.position, node.position)
    return tuple((lo[i] + hi[i]) / 2 for i in range(3))


def side_of(xr, role: str) -> float:
    return 1.0 if xr.handedness(role) == "right" else -1.0


def assert_count(xr, n: int, what: str) -> None:
    __tracebackhide__ = True
    got = len(spheres(xr))
    assert got == n, f"expected {n} spheres {what}; observed {got}"


class Pinch:
    """One pinch of one hand: where its fingers were, and the sphere it made."""

    def __init__(self, xr, role: str):
        self.xr = xr
        self.role = role
        self.hand = xr.hand(role)
        self.handedness = xr.handedness(role)
        self.fingers: list[Vec] = []
        self.wrist: Vec | None = None
        self.sphere = None

    def open_fingers(self) -> None:
        self.fingers = [tuple(self.hand.fingertip)]

    def closed_fingers(self) -> None:
        joints = self.hand.joints
        self.fingers += [tuple(joints["index-finger-tip"].position), tuple(joints["thumb-tip"].position)]
        self.wrist = tuple(joints["wrist"].position)

    def check(self, new: Sequence) -> None:
        """`new` are the spheres that appeared with this pinch (and any other made with it)."""
        __tracebackhide__ = True
        mine = [n for n in new if min(math.dist(centre(n), p) for p in self.fingers) <= NEAR_TIP]
        if len(mine) != 1:
            seen = ", ".join(_fmt(centre(n)) for n in new) or "none"
            far = (
                f"; the nearest is {min(math.dist(centre(n), self.fingers[0]) for n in new):.3f} m from the fingertip, "
                f"{min(math.dist(centre(n), self.wrist) for n in new):.3f} m from the wrist"
                if new and self.wrist
                else ""
            )
            raise AssertionError(
                f"expected one new sphere at the {self.role} ({self.handedness}) hand's index fingertip, about "
                f"{_fmt(self.fingers[0])} (within {NEAR_TIP} m of where the fingers met); observed new spheres at "
                f"{seen}{far}"
            )
        self.sphere = mine[0]
        size = self.sphere.size
        assert size is not None and all(abs(s - DIAMETER) <= DIAMETER_TOL for s in size), (
            f"expected a sphere about {DIAMETER} m across (within {DIAMETER_TOL} m); observed size {size}"
        )
        state = self.sphere.state
        assert isinstance(state, dict) and state.get("hand") == self.handedness, (
            f"expected state.hand {self.handedness!r} on the sphere of the {self.role} hand; observed state {state!r}"
        )


def pinch(xr, roles: Sequence[str], places: Sequence[Vec] | None = None, *, hold: int = PINCH_FRAMES) -> list[Pinch]:
    """Move each hand to its place (if given), then pinch them all in the same frame and hold.

    Checks that each hand made exactly one sphere at its fingertip before any is released.
    """
    __tracebackhide__ = True
    pinches = [Pinch(xr, role) for role in roles]
    for p, where in zip(pinches, places or [None] * len(pinches), strict=True):
        if where is not None:
            p.hand.move_hand(where)
        p.open_fingers()
    before = spheres(xr)
    for p in pinches[:-1]:
        p.hand.start_select(0)  # the same frame as the last one
    pinches[-1].hand.start_select(hold)
    now = spheres(xr)
    new = [n for uuid, n in now.items() if uuid not in before]
    gone = [uuid for uuid in before if uuid not in now]
    assert not gone, f"expected the earlier spheres to stay; {len(gone)} disappeared when the hand pinched"
    assert len(new) == len(pinches), (
        f"expected {len(pinches)} new sphere(s), one per pinching hand, while the fingers closed ({hold} frames); "
        f"observed {len(new)}"
    )
    for p in pinches:
        p.closed_fingers()
        p.check(new)
    return pinches


def release(xr, pinches: Sequence[Pinch]) -> None:
    __tracebackhide__ = True
    n = len(spheres(xr))
    for p in pinches[:-1]:
        p.hand.end_select(0)
    pinches[-1].hand.end_select(PINCH_FRAMES)
    assert_count(xr, n, "after the fingers opened again (opening them makes no sphere)")


def assert_unmoved(xr, made: Sequence[Pinch], what: str) -> None:
    __tracebackhide__ = True
    now = spheres(xr)
    for k, p in enumerate(made, start=1):
        assert p.sphere.uuid in now, f"expected sphere {k} (of the {p.role} hand) still in the scene {what}; it is gone"
        node = now[p.sphere.uuid]
        moved = math.dist(centre(node), centre(p.sphere))
        assert moved <= STILL_TOL, (
            f"expected sphere {k} to stay where it was made, at {_fmt(centre(p.sphere))}, {what}; observed it "
            f"{moved:.3f} m away at {_fmt(centre(node))}"
        )
        assert node.visible, f"expected sphere {k} to stay in the scene (visible) {what}; it is hidden"


def test_the_scene_starts_empty(xr):
    xr.step(2)
    assert_count(xr, 0, "before any pinch")
    visible = xr.drawn()
    assert not visible, f"expected an empty scene at the start (the cylinder removed); observed {visible}"
    assert_no_errors(xr)


def test_a_pinch_of_either_hand_spawns_a_sphere_at_its_fingertip(xr):
    xr.step(1)
    made = []
    for role in ("dominant", "non_dominant"):
        p = pinch(xr, [role], [(0.2 * side_of(xr, role), 1.3, -0.4)])
        release(xr, p)
        made += p
        assert_count(xr, len(made), f"after a pinch of the {role} hand")
    for role in ("dominant", "non_dominant"):
        xr.hand(role).move_hand((0.12 * side_of(xr, role), 1.4, -0.35))
    both = pinch(xr, ["dominant", "non_dominant"])  # both hands at once: one sphere each
    release(xr, both)
    made += both
    assert_count(xr, 4, "after the two hands pinched together")
    shapes = {s["uuid"]: s for s in xr.probe(_SHAPES_JS, TAG)}
    for p in made:
        s = shapes.get(p.sphere.uuid)
        assert s and s["distinct"] >= 12 and s["rmax"] > 0 and s["rmin"] >= 0.85 * s["rmax"], (
            f"expected a sphere (its vertices all about one radius from its centre); observed {s}"
        )
    assert_no_errors(xr)


def test_one_pinch_makes_one_sphere_however_long_it_is_held(xr):
    xr.step(1)
    hand, other = xr.hand("dominant"), xr.hand("non_dominant")
    side = side_of(xr, "dominant")
    for pose in ("neutral", "relaxed"):  # an open hand, then a partly curled one, moving about
        hand.set_pose(pose)
        other.set_pose(pose)
        hand.move_hand((0.15 * side, 1.35, -0.4))
        other.move_by((0.0, 0.1, -0.1))
        hand.rest()
        other.rest()
    assert_count(xr, 0, "after open and partly curled hands moved about without pinching")
    quick = pinch(xr, ["dominant"], [(0.2 * side, 1.3, -0.4)], hold=12)  # a quick pinch, 0.2 s
    hand.end_select(12)
    assert_count(xr, 1, "after one quick pinch")
    held = pinch(xr, ["dominant"], [(0.1 * side, 1.25, -0.45)])
    xr.wait(10_000)  # held for ten seconds
    assert_count(xr, 2, "after a second pinch held for ten seconds")
    release(xr, held)
    xr.wait(1000)
    assert_count(xr, 2, "a second after the long pinch was released")
    # The other hand pinches and holds while the dominant hand pinches twice.
    long = pinch(xr, ["non_dominant"], [(-0.2 * side, 1.3, -0.4)])
    for k, spot in enumerate([(0.25 * side, 1.35, -0.35), (0.05 * side, 1.3, -0.45)]):
        p = pinch(xr, ["dominant"], [spot])
        release(xr, p)
        assert_count(xr, 4 + k, "while the other hand kept its pinch")
    xr.wait(2000)
    release(xr, long)
    assert_count(xr, 5, "after five pinches")
    assert_unmoved(xr, quick + held + long, "after the other pinches")
    assert_no_errors(xr)


def test_spheres_stay_where_they_were_made_in_the_room(xr):
    xr.step(1)
    role = "dominant"
    side = side_of(xr, role)
    hand = xr.hand(role)
    first = pinch(xr, [role], [(0.25 * side, 1.35, -0.35)])
    hand.move_by((0.1 * side, 0.05, -0.1))  # still pinching, the hand moves on
    assert_unmoved(xr, first, "while the pinching hand moved on")
    release(xr, first)
    hand.move_hand((0.0, 1.5, -0.3))
    assert_unmoved(xr, first, "after the hand moved away")
    second = pinch(xr, ["non_dominant"], [(-0.2 * side, 1.25, -0.45)])
    release(xr, second)
    xr.hand("non_dominant").rest()
    hand.rest()
    made = first + second
    xr.head.walk([(0.4, 1.5, 0.3)])  # turns towards it and walks there
    assert_unmoved(xr, made, "after the user walked away")
    xr.head.rotate(yaw=60)
    xr.head.rotate(pitch=-35)  # looks down ...
    xr.head.move((0.0, -0.3, 0.0), speed=0.5)  # ... and crouches
    assert_unmoved(xr, made, "after the user turned, looked down and crouched")
    pose = xr.camera_pose()
    assert pose.position[1] <= 1.25, f"the head did not go down: {pose.position}"
    fwd = pose.forward
    ahead = tuple(pose.position[i] + 0.35 * fwd[i] for i in range(3))
    third = pinch(xr, [role], [ahead])  # a pinch while looking down and crouching
    release(xr, third)
    hand.rest()
    xr.head.rotate(pitch=35)
    xr.head.move((0.0, 0.3, 0.0), speed=0.5)
    assert_unmoved(xr, made + third, "after the user stood up again")
    assert_no_errors(xr)


def test_every_sphere_stays_and_their_number_grows_with_each_pinch(xr):
    xr.step(1)
    made: list[Pinch] = []
    spots = [
        (0.25, 1.35, -0.35),
        (0.1, 1.25, -0.45),
        (0.3, 1.2, -0.5),
        (0.15, 1.45, -0.4),
        (0.05, 1.3, -0.3),
        (0.35, 1.4, -0.45),
        (0.2, 1.15, -0.35),
    ]
    for k, (x, y, z) in enumerate(spots):
        role = "dominant" if k % 2 == 0 else "non_dominant"
        p = pinch(xr, [role], [(x * side_of(xr, role), y, z)])
        release(xr, p)
        made += p
        assert_count(xr, k + 1, f"after {k + 1} pinches (one more each time)")
        xr.hand(role).rest()
    xr.wait(3000)
    assert_count(xr, len(spots), "three seconds after the last pinch")
    assert_unmoved(xr, made, "three seconds after the last pinch")
    assert_no_errors(xr)
