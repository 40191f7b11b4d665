"""Runtime tests of the arrow that points the way to a beacon out of view.

They check that
- the cylinder is gone; one mesh tagged 'beacon', 0.2 m across (a sphere of radius 0.1 m, checked
  to 1 cm), centred at (1.5, 1.2, 1.0) within 1 cm, there whatever the user does;
- one mesh tagged 'offscreen-arrow', a ConeGeometry at most 10 cm long, shown at the start (the
  beacon 123 degrees off the view);
- turning towards the beacon one degree a frame, the arrow hides in the first frame the beacon is
  less than 25 degrees off the view, or the next, and not before; turning away, it shows in the
  first frame the beacon is more than 35 degrees off, or the next, and not before; the same
  looking up and down; between 25 and 35 degrees it keeps its state (held there for a second,
  coming from either side);
- in every frame it is shown, in many poses (turned, looking up and down, walked, crouched, the
  beacon to either side, above and below) and along slow turns and walks: its centre 0.5 m ahead
  of the eyes along the view direction (within 2 cm, checked to 2.5 cm), its tip direction (the
  cone's local +y in world space) at right angles to the view direction and along the beacon's
  direction with its part along the view removed, each within 5 degrees (checked to 6), for the
  camera of that frame or the frame before; with the beacon within 10 degrees of straight behind,
  only flat in the view.

Everything is read from the live scene graph (world bounding boxes, world matrices, geometry
types, visibility with all parents); the eyes and view direction come from the harness's own
reading of the camera. Each test runs for a right- and a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

BEACON_TAG = "beacon"
ARROW_TAG = "offscreen-arrow"
BEACON = (1.5, 1.2, 1.0)
BEACON_TOL = 0.01
AHEAD = 0.5
AHEAD_TOL = 0.025  # "within 2 cm", with 5 mm of slack
ANGLE_TOL = 6.0  # "within 5 degrees", with a degree of slack
SHOW_ABOVE = 35.0
HIDE_BELOW = 25.0
BEHIND = 10.0
MAX_LEN = 0.105
FAST = 100000.0  # degrees a second: a turn in one frame

Vec = tuple[float, float, float]

READ = r"""
(h, tags) => {
  const THREE = h.THREE, scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const shown = new Set();
  scene.traverseVisible((o) => { shown.add(o); });
  const out = {};
  for (const t of tags) out[t] = [];
  let cylinders = 0;
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    if (o.isMesh && o.geometry && o.geometry.type === 'CylinderGeometry' && shown.has(o)) cylinders++;
    const t = o.userData && o.userData.xrblocksDevtools;
    if (!t || !(String(t.tag) in out)) return;
    const entry = {mesh: o.isMesh === true, geometry: o.geometry ? o.geometry.type : '', shown: shown.has(o)};
    if (o.isMesh) {
      const box = new THREE.Box3().setFromObject(o);
      entry.centre = box.getCenter(new THREE.Vector3()).toArray();
      entry.size = box.getSize(new THREE.Vector3()).toArray();
      entry.tip = new THREE.Vector3(0, 1, 0).transformDirection(o.matrixWorld).toArray();
      const g = o.geometry;
      if (!g.boundingBox) g.computeBoundingBox();
      entry.length = (g.boundingBox.max.y - g.boundingBox.min.y) * o.getWorldScale(new THREE.Vector3()).y;
    }
    out[String(t.tag)].push(entry);
  });
  return {found: out, cylinders};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def sub(a, b) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def dot(a, b) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def norm(a) -> float:
    return math.sqrt(dot(a, a))


def angle(a, b) -> float:
    c = dot(a, b) / ((norm(a) * norm(b)) or 1.0)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def read(xr) -> dict:
    return xr.probe(READ, [BEACON_TAG, ARROW_TAG])


def one(r: dict, tag: str) -> dict:
    __tracebackhide__ = True
    found = r["found"][tag]
    assert len(found) == 1, f"expected exactly one object tagged {tag!r}; observed {len(found)}"
    assert found[0]["mesh"], f"expected the object tagged {tag!r} to be a mesh"
    return found[0]


def view(xr) -> tuple[Vec, Vec]:
    pose = xr.camera_pose()
    return pose.position, pose.forward


def off_view(eye: Vec, fwd: Vec) -> float:
    return angle(fwd, sub(BEACON, eye))


class Tracker:
    """Frame-by-frame reader: the arrow, and the camera of this frame and the frame before."""

    def __init__(self, xr):
        self.xr = xr
        self.before = view(xr)

    def frame(self, act=None) -> tuple[dict, list[tuple[Vec, Vec]]]:
        self.before = view(self.xr)
        if act is None:
            self.xr.step(1)
        else:
            act()
        now = view(self.xr)
        return one(read(self.xr), ARROW_TAG), [now, self.before]


def expect_placed(arrow: dict, cams: list[tuple[Vec, Vec]], what: str) -> None:
    """The shown arrow is 0.5 m ahead, flat in the view and pointing the way, for one of `cams`."""
    __tracebackhide__ = True
    problems = []
    for eye, fwd in cams:
        ahead = tuple(e + AHEAD * f for e, f in zip(eye, fwd, strict=True))
        off = math.dist(arrow["centre"], ahead)
        tilt = abs(90.0 - angle(arrow["tip"], fwd))
        v = sub(BEACON, eye)
        along = dot(v, fwd)
        want = tuple(a - along * f for a, f in zip(v, fwd, strict=True))
        behind = angle(fwd, v) > 180.0 - BEHIND
        wrong = 0.0 if behind or norm(want) < 1e-6 else angle(arrow["tip"], want)
        if off <= AHEAD_TOL and tilt <= ANGLE_TOL and wrong <= ANGLE_TOL:
            return
        problems.append(
            f"for the eyes at {fmt(eye)} viewing {fmt(fwd)}: centre {off:.3f} m from 0.5 m ahead {fmt(ahead)}, tip "
            f"{tilt:.1f} degrees out of the view plane, {wrong:.1f} degrees off the way to the beacon "
            f"{fmt(want)}"
        )
    pytest.fail(
        f"{what}: expected the arrow 0.5 m ahead of the eyes (within 2 cm), its tip flat in the view and pointing the "
        f"way to the beacon (within 5 degrees); observed it at {fmt(arrow['centre'])}, tip {fmt(arrow['tip'])}: "
        + "; ".join(problems)
    )


def sweep(xr, tracker: Tracker, yaw: float, pitch: float, what: str) -> None:
    """Turn one degree a frame by (yaw, pitch); the arrow must switch at its thresholds only, and
    be in place in every frame it is shown."""
    __tracebackhide__ = True
    steps = int(max(abs(yaw), abs(pitch)))
    arrow, _ = tracker.frame()
    state = arrow["shown"]
    pending = None  # the frame a threshold was passed without the arrow switching yet
    for i in range(steps):
        arrow, cams = tracker.frame(lambda: xr.head.rotate(yaw=yaw / steps, pitch=pitch / steps, speed=FAST))
        a = off_view(*cams[0])
        passed = (a > SHOW_ABOVE and not state) or (a < HIDE_BELOW and state)
        if arrow["shown"] != state:
            # It may switch in the frame the threshold is passed or the one after.
            a_before = off_view(*cams[1])
            ok_now = (a > SHOW_ABOVE) if arrow["shown"] else (a < HIDE_BELOW)
            ok_before = (a_before > SHOW_ABOVE) if arrow["shown"] else (a_before < HIDE_BELOW)
            assert ok_now or ok_before, (
                f"{what}: the arrow {'showed' if arrow['shown'] else 'hid'} with the beacon {a:.1f} degrees off the "
                f"view; expected it to stay {'shown' if state else 'hidden'} until the beacon is "
                f"{'under 25' if state else 'over 35'} degrees off"
            )
            state = arrow["shown"]
            pending = None
        elif passed:
            if pending is not None and pending < i:
                pytest.fail(
                    f"{what}: the beacon is {a:.1f} degrees off the view (it passed the threshold a frame ago) but "
                    f"the arrow stays {'shown' if state else 'hidden'}"
                )
            if pending is None:
                pending = i
        if arrow["shown"]:
            expect_placed(arrow, cams, f"{what}, {a:.1f} degrees off the view")


def test_the_scene_and_the_arrow_at_the_start(xr):
    xr.step(2)
    r = read(xr)
    assert r["cylinders"] == 0, "expected the starting app's cylinder to be removed"
    beacon = one(r, BEACON_TAG)
    assert beacon["shown"], "expected the beacon to be shown"
    assert math.dist(beacon["centre"], BEACON) <= BEACON_TOL, (
        f"expected the beacon's centre at {fmt(BEACON)} (within 1 cm); it is at {fmt(beacon['centre'])}"
    )
    assert all(abs(s - 0.2) <= 0.01 for s in beacon["size"]), (
        f"expected the beacon a sphere of radius 0.1 m (0.2 m across); it is {fmt(beacon['size'])} m"
    )
    arrow = one(r, ARROW_TAG)
    assert arrow["geometry"] == "ConeGeometry", (
        f"expected the arrow made with THREE.ConeGeometry; it is {arrow['geometry']}"
    )
    assert arrow["length"] <= MAX_LEN, f"expected the arrow at most 10 cm long; it is {arrow['length']:.3f} m"
    assert arrow["shown"], "expected the arrow shown at the start (the beacon far out of view, behind)"
    expect_placed(arrow, [view(xr)], "at the start")
    xr.head.walk([(-1.0, 1.5, -1.5)], speed=1.5)
    xr.head.rotate(yaw=120, pitch=-30)
    xr.step(5)
    beacon = one(read(xr), BEACON_TAG)
    assert math.dist(beacon["centre"], BEACON) <= BEACON_TOL, (
        f"expected the beacon to stay at {fmt(BEACON)} while the user walks and turns; it is at {fmt(beacon['centre'])}"
    )
    assert_no_errors(xr)


def test_it_hides_under_25_degrees_and_shows_over_35(xr):
    tracker = Tracker(xr)
    xr.step(2)
    # Face the beacon: it is about 123 degrees to the right at the start (yaw: positive turns left).
    sweep(xr, tracker, -123.0, -9.0, "turning towards the beacon")
    arrow, _ = tracker.frame()
    assert not arrow["shown"], "expected the arrow hidden while looking at the beacon"
    sweep(xr, tracker, 60.0, 0.0, "turning away to the left")
    sweep(xr, tracker, -60.0, 0.0, "turning back to the beacon")
    sweep(xr, tracker, 0.0, 50.0, "looking up, away from the beacon")
    sweep(xr, tracker, 0.0, -50.0, "looking back down at the beacon")
    sweep(xr, tracker, 0.0, -60.0, "looking down, below the beacon")
    assert_no_errors(xr)


def test_between_25_and_35_degrees_it_keeps_its_state(xr):
    tracker = Tracker(xr)
    xr.step(2)
    sweep(xr, tracker, -93.0, -9.0, "turning to 30 degrees from the beacon")
    for _ in range(60):
        arrow, cams = tracker.frame()
    assert arrow["shown"], f"expected the arrow to stay shown 30 degrees off the view ({off_view(*cams[0]):.1f})"
    expect_placed(arrow, cams, "held 30 degrees off the view, coming from outside")
    sweep(xr, tracker, -30.0, 0.0, "turning on to the beacon")
    sweep(xr, tracker, 30.0, 0.0, "turning back to 30 degrees from the beacon")
    for _ in range(60):
        arrow, cams = tracker.frame()
    assert not arrow["shown"], (
        f"expected the arrow to stay hidden 30 degrees off the view, coming from the beacon ({off_view(*cams[0]):.1f})"
    )
    assert_no_errors(xr)


POSES = (
    # (eye position, yaw, pitch) from the start pose: the beacon far out of view in each
    ((0.0, 1.5, 0.0), 0.0, 0.0),
    ((0.0, 1.5, 0.0), 90.0, 0.0),
    ((0.0, 1.5, 0.0), 0.0, 50.0),
    ((0.0, 1.5, 0.0), -60.0, -55.0),
    ((-1.0, 1.5, -1.0), 30.0, 20.0),
    ((2.5, 1.5, -1.5), -150.0, 10.0),
    ((1.5, 0.9, -0.5), 0.0, 60.0),
    ((1.5, 0.9, -0.5), 180.0, -60.0),
    ((0.5, 1.7, 2.5), 70.0, -10.0),
    ((0.5, 1.7, 2.5), -90.0, 0.0),
)


def test_it_points_the_way_in_many_poses(xr):
    tracker = Tracker(xr)
    xr.step(2)
    for pos, yaw, pitch in POSES:
        xr.head.walk([pos], speed=2.0, face=False)
        xr.head.rotate(yaw=yaw, pitch=pitch, speed=FAST)
        arrow, cams = tracker.frame()
        a = off_view(*cams[0])
        what = f"eyes at {fmt(cams[0][0])}, turned {yaw:.0f} and {pitch:.0f} degrees up ({a:.0f} degrees off the view)"
        assert a > 40.0, f"test pose {what} should have the beacon far out of view"
        assert arrow["shown"], f"{what}: expected the arrow shown"
        expect_placed(arrow, cams, what)
        xr.head.rotate(yaw=-yaw, pitch=-pitch, speed=FAST)  # back to the start's view for the next
    # Along a slow turn and a walk, every frame.
    for _ in range(40):
        arrow, cams = tracker.frame(lambda: xr.head.rotate(yaw=2.0, speed=FAST))
        if arrow["shown"]:
            expect_placed(arrow, cams, "during a slow turn")
    for _ in range(40):
        arrow, cams = tracker.frame(lambda: xr.head.move((0.02, 0.0, -0.02), speed=2.0))
        if arrow["shown"]:
            expect_placed(arrow, cams, "during a slow walk")
    assert_no_errors(xr)
