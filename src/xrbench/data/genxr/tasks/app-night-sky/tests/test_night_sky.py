"""Runtime tests of the night sky shown while the user looks up.

They check that
- the cylinder is gone and the sky (a `THREE.Points` tagged 'night-sky') is hidden at the start and
  for the first second;
- looking up one degree a frame, the sky shows in the first frame the view is more than 40 degrees
  up, or the next, and not before; looking down one degree a frame, it hides in the first frame the
  view is less than 30 degrees up, or the next, and not before; the same after turning 90 degrees
  and 180 degrees;
- between 30 and 40 degrees it keeps its state: held at 35 degrees for a second coming up from
  below (hidden) and coming down from above (shown), and looking around (turning) at 35 and at
  60 degrees changes nothing;
- the stars: at least 200 points, each 8 m from the eyes (checked to 0.25 m) and at least 10
  degrees above eye level (checked to 9), some in each quarter of the compass and some more than
  60 degrees up;
- the sky is centred on the eyes (within 2 cm, checked to 2.5 cm) after the user walks, crouches
  and stands up, read every few frames along the way; and turning the head leaves every star where
  it was (within 2 cm).

"Shown" is read from the scene graph: the tagged Points in the scene, visible with all its parents.
The view's angle comes from the harness's own reading of the camera. Each test runs for a right-
and a left-dominant user.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "night-sky"
SHOW_ABOVE = 40.0
HIDE_BELOW = 30.0
MIN_STARS = 200
RADIUS = 8.0
RADIUS_TOL = 0.25  # "within 0.2 m", with 5 cm of slack
MIN_UP = 9.0  # "at least 10 degrees above eye level", with a degree of slack
HIGH = 60.0
CENTRE_TOL = 0.025  # "within 2 cm", with 5 mm of slack
FAST = 100000.0  # degrees a second: a turn in one frame

Vec = tuple[float, float, float]

READ = r"""
(h, arg) => {
  const THREE = h.THREE, scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const shown = new Set();
  scene.traverseVisible((o) => { shown.add(o); });
  const out = [];
  let cylinders = 0;
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    if (o.isMesh && o.geometry && o.geometry.type === 'CylinderGeometry' && shown.has(o)) cylinders++;
    const t = o.userData && o.userData.xrblocksDevtools;
    if (!t || String(t.tag) !== arg.tag) return;
    const entry = {points: o.isPoints === true && o.type === 'Points', shown: shown.has(o), stars: null};
    const pos = o.geometry && o.geometry.attributes && o.geometry.attributes.position;
    if (arg.stars && pos) {
      const v = new THREE.Vector3();
      entry.stars = [];
      for (let i = 0; i < pos.count; i++) {
        v.fromBufferAttribute(pos, i).applyMatrix4(o.matrixWorld);
        entry.stars.push([v.x, v.y, v.z]);
      }
    }
    out.push(entry);
  });
  return {skies: out, cylinders};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def read(xr, stars: bool = False) -> dict:
    return xr.probe(READ, {"tag": TAG, "stars": stars})


def sky(xr, stars: bool = False) -> dict:
    __tracebackhide__ = True
    skies = read(xr, stars)["skies"]
    assert len(skies) == 1, f"expected exactly one object tagged {TAG!r}; observed {len(skies)}"
    assert skies[0]["points"], f"expected the object tagged {TAG!r} to be a THREE.Points"
    return skies[0]


def shown(xr) -> bool:
    return sky(xr)["shown"]


def up_angle(xr) -> float:
    f = xr.camera_pose().forward
    return math.degrees(math.asin(max(-1.0, min(1.0, f[1]))))


def eyes(xr) -> Vec:
    return xr.camera_pose().position


def expect(xr, want: bool, what: str) -> None:
    __tracebackhide__ = True
    got = shown(xr)
    assert got == want, (
        f"{what}: expected the sky {'shown' if want else 'hidden'}; it is {'shown' if got else 'hidden'}"
    )


def sweep(xr, to: float, what: str) -> None:
    """Pitch one degree a frame towards `to` degrees up; the sky must switch at its threshold."""
    __tracebackhide__ = True
    going_up = to > up_angle(xr)
    state = shown(xr)
    crossed_at = None  # (frame, angle) where the threshold was first passed
    while abs(to - up_angle(xr)) > 0.5:
        step = max(-1.0, min(1.0, to - up_angle(xr)))
        xr.head.rotate(pitch=step, speed=FAST)
        a, now = up_angle(xr), shown(xr)
        if crossed_at is None:
            passed = (a > SHOW_ABOVE and not state) if going_up else (a < HIDE_BELOW and state)
            if passed:
                crossed_at = (xr.frame, a)
            if now != state and not passed:
                until = "over 40" if going_up else "under 30"
                pytest.fail(
                    f"{what}: the sky {'showed' if now else 'hid'} at {a:.1f} degrees up; expected it to stay "
                    f"{'shown' if state else 'hidden'} until the view is {until} degrees"
                )
            if passed and now == state:
                xr.step(1)  # within a frame
                assert shown(xr) != state, (
                    f"{what}: the view passed {'40' if going_up else '30'} degrees ({a:.1f} up) but the sky stays "
                    f"{'shown' if state else 'hidden'} a frame later"
                )
            if passed:
                state = not state
        else:
            assert now == state, f"{what}: the sky changed again at {a:.1f} degrees up"


def test_the_sky_shows_above_40_degrees_and_hides_below_30(xr):
    xr.step(2)
    assert read(xr)["cylinders"] == 0, "expected the starting app's cylinder to be removed"
    for _ in range(6):
        expect(xr, False, "when the app starts, looking straight ahead")
        xr.step(10)
    for yaw in (0.0, 90.0, 180.0):
        xr.head.rotate(yaw=yaw, speed=FAST)
        xr.step(2)
        sweep(xr, 55.0, f"looking up (turned {yaw:.0f} degrees)")
        expect(xr, True, f"looking 55 degrees up (turned {yaw:.0f} degrees)")
        sweep(xr, 5.0, f"looking back down (turned {yaw:.0f} degrees)")
        expect(xr, False, f"looking 5 degrees up (turned {yaw:.0f} degrees)")
    assert_no_errors(xr)


def test_between_30_and_40_degrees_the_sky_keeps_its_state(xr):
    xr.step(2)
    sweep(xr, 35.0, "looking up to 35 degrees")
    for _ in range(6):
        xr.step(10)
        expect(xr, False, "holding the view 35 degrees up, coming from below")
    xr.head.rotate(yaw=120, speed=200)
    expect(xr, False, "turning around at 35 degrees up, coming from below")
    sweep(xr, 60.0, "looking up to 60 degrees")
    xr.head.rotate(yaw=-200, speed=200)
    expect(xr, True, "turning around at 60 degrees up")
    sweep(xr, 35.0, "looking down to 35 degrees")
    for _ in range(6):
        xr.step(10)
        expect(xr, True, "holding the view 35 degrees up, coming from above")
    xr.head.rotate(yaw=90, speed=200)
    expect(xr, True, "turning at 35 degrees up, coming from above")
    sweep(xr, 20.0, "looking down to 20 degrees")
    sweep(xr, 38.0, "looking up again to 38 degrees")
    xr.step(30)
    expect(xr, False, "at 38 degrees up, coming from below again")
    assert_no_errors(xr)


def elevation(p: Vec, eye: Vec) -> float:
    d = [a - b for a, b in zip(p, eye, strict=True)]
    return math.degrees(math.atan2(d[1], math.hypot(d[0], d[2])))


def expect_stars(xr, what: str) -> list[list[float]]:
    """Checks the star field around the current eyes; returns the stars' world positions."""
    __tracebackhide__ = True
    s = sky(xr, stars=True)
    stars = s["stars"] or []
    eye = eyes(xr)
    assert len(stars) >= MIN_STARS, f"{what}: expected at least 200 stars; observed {len(stars)}"
    far = max(stars, key=lambda p: abs(math.dist(p, eye) - RADIUS))
    assert abs(math.dist(far, eye) - RADIUS) <= RADIUS_TOL, (
        f"{what}: expected every star 8 m from the eyes {fmt(eye)} (within 0.2 m); one is {math.dist(far, eye):.2f} m "
        f"away at {fmt(far)}"
    )
    low = min(stars, key=lambda p: elevation(p, eye))
    assert elevation(low, eye) >= MIN_UP, (
        f"{what}: expected every star at least 10 degrees above eye level; one is {elevation(low, eye):.1f} degrees up"
    )
    quarters = {"ahead (-z)": 0, "behind (+z)": 0, "left (-x)": 0, "right (+x)": 0}
    for p in stars:
        dx, dz = p[0] - eye[0], p[2] - eye[2]
        if abs(dz) >= abs(dx):
            quarters["ahead (-z)" if dz < 0 else "behind (+z)"] += 1
        else:
            quarters["left (-x)" if dx < 0 else "right (+x)"] += 1
    empty = [q for q, n in quarters.items() if n == 0]
    assert not empty, f"{what}: expected stars in every quarter of the compass; none {', '.join(empty)}"
    assert any(elevation(p, eye) > HIGH for p in stars), f"{what}: expected some stars more than 60 degrees up"
    return stars


def expect_centred(xr, what: str) -> None:
    __tracebackhide__ = True
    stars = sky(xr, stars=True)["stars"] or []
    assert stars, f"{what}: the sky has no stars"
    eye = eyes(xr)
    shift = centre_offset(stars, eye)
    assert math.dist(shift, (0.0, 0.0, 0.0)) <= CENTRE_TOL, (
        f"{what}: expected the sky centred on the eyes {fmt(eye)} (within 2 cm); it is centred {fmt(shift)} m off"
    )


def centre_offset(stars: list[list[float]], eye: Vec) -> Vec:
    """Offset from the eyes of the sphere best fitting the stars (linear least squares:
    |p|^2 = 2 p.c + (r^2 - |c|^2) for every star p, solved for the centre c)."""
    p = np.asarray(stars, dtype=float) - np.asarray(eye, dtype=float)
    a = np.hstack([2 * p, np.ones((len(p), 1))])
    c = np.linalg.lstsq(a, (p * p).sum(axis=1), rcond=None)[0]
    return (float(c[0]), float(c[1]), float(c[2]))


def test_the_stars_fill_the_upper_sky_and_go_with_the_user_without_turning(xr):
    xr.step(2)
    sweep(xr, 60.0, "looking up")
    expect_stars(xr, "looking 60 degrees up at the start")
    expect_centred(xr, "looking 60 degrees up at the start")
    for delta, what in (
        ((0.6, 0.0, -0.8), "walking a metre"),
        ((0.0, -0.4, 0.0), "crouching 40 cm"),
        ((-1.0, 0.4, 0.5), "standing up while walking back"),
    ):
        goal = tuple(a + b for a, b in zip(eyes(xr), delta, strict=True))
        for _ in range(40):
            if math.dist(eyes(xr), goal) < 1e-3:
                break
            here = eyes(xr)
            scale = min(1.0, 0.1 / math.dist(goal, here))  # 10 cm at a time
            xr.head.move(tuple((g - e) * scale for g, e in zip(goal, here, strict=True)))
            expect_centred(xr, f"{what}, on the way")
        expect(xr, True, f"after {what}, still looking up")
        expect_stars(xr, f"after {what}")
    before = sky(xr, stars=True)["stars"]
    xr.head.rotate(yaw=75, speed=FAST)
    xr.step(2)
    after = sky(xr, stars=True)["stars"]
    assert len(before) == len(after), "the number of stars changed while the user turned"
    moved = max(math.dist(a, b) for a, b in zip(before, after, strict=True))
    assert moved <= CENTRE_TOL, f"expected the stars to stay put when the user turns; one moved {moved:.2f} m"
    assert_no_errors(xr)
