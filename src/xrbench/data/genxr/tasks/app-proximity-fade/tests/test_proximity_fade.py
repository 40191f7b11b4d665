"""Runtime tests of the sculpture that fades as the user walks up to it.

They check that
- the cylinder is gone; exactly one mesh is tagged 'sculpture', with one material, its world
  bounding box centred at (0, 1.3, -2) (within 2 cm, checked to 2.5 cm) and 0.3-0.5 m along its
  longest side; walking, crouching and turning neither move, turn nor resize it;
- walking up to it from the front and from the side, 5 cm a frame, and back out, its opacity is
  in every frame within 0.03 of the line (1.0 from 1.6 m, 0.25 up to 0.6 m, linear between) for
  the eyes' horizontal distance in that frame or the frame before; whenever the opacity is below
  1 the material is transparent;
- 1.1 m away, crouching to 0.8 m, standing up to 1.8 m, looking up, down and turning away leave
  the opacity at the line's value for the distance on the floor.

The opacity, transparency and bounding box are read from the live scene graph (the tagged mesh
and its material); the eyes' position comes from the harness's own reading of the camera. Each
test runs for a right- and a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "sculpture"
CENTRE = (0.0, 1.3, -2.0)
CENTRE_TOL = 0.025  # "within 2 cm", with 5 mm of slack
NEAR, FAR = 0.6, 1.6
NEAR_OPACITY = 0.25
OPACITY_TOL = 0.03
STEP = 0.05  # metres a frame while walking
WALK_SPEED = 3.0  # m/s: one 5 cm step a frame at 60 frames a second

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
    const m = o.material;
    const entry = {mesh: o.isMesh === true, shown: shown.has(o), materials: Array.isArray(m) ? m.length : (m ? 1 : 0)};
    if (m && !Array.isArray(m)) {
      entry.opacity = m.opacity;
      entry.transparent = m.transparent === true;
    }
    if (o.isMesh) {
      const box = new THREE.Box3().setFromObject(o);
      entry.centre = box.getCenter(new THREE.Vector3()).toArray();
      entry.size = box.getSize(new THREE.Vector3()).toArray();
      entry.matrix = o.matrixWorld.toArray();
    }
    out.push(entry);
  });
  return {found: out, cylinders};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def sculpture(xr) -> dict:
    __tracebackhide__ = True
    found = xr.probe(READ, {"tag": TAG})["found"]
    assert len(found) == 1, f"expected exactly one object tagged {TAG!r}; observed {len(found)}"
    s = found[0]
    assert s["mesh"], f"expected the object tagged {TAG!r} to be a mesh"
    assert s["materials"] == 1, f"expected the sculpture to have one material; it has {s['materials']}"
    assert s["shown"], "expected the sculpture to be shown"
    return s


def eyes(xr) -> Vec:
    return xr.camera_pose().position


def floor_distance(eye: Vec) -> float:
    return math.hypot(eye[0] - CENTRE[0], eye[2] - CENTRE[2])


def expected_opacity(d: float) -> float:
    if d >= FAR:
        return 1.0
    if d <= NEAR:
        return NEAR_OPACITY
    return NEAR_OPACITY + (1.0 - NEAR_OPACITY) * (d - NEAR) / (FAR - NEAR)


def expect_opacity(xr, eye_now: Vec, eye_before: Vec, what: str) -> None:
    __tracebackhide__ = True
    s = sculpture(xr)
    got = s["opacity"]
    wants = [expected_opacity(floor_distance(e)) for e in (eye_now, eye_before)]
    d = floor_distance(eye_now)
    assert isinstance(got, (int, float)) and any(abs(got - w) <= OPACITY_TOL for w in wants), (
        f"{what}: the eyes are {d:.2f} m from the sculpture on the floor (eyes at {fmt(eye_now)}); expected its "
        f"opacity {wants[0]:.3f} (within 0.03); observed {got}"
    )
    if got < 0.99:
        assert s["transparent"], (
            f"{what}: the sculpture's opacity is {got:.3f} but its material is not transparent, so it is drawn solid"
        )


def walk_to(xr, goal_xz: tuple[float, float], what: str) -> None:
    """Walk on the floor to `goal_xz` 5 cm a frame, checking the opacity after every step."""
    __tracebackhide__ = True
    for _ in range(200):
        here = eyes(xr)
        dx, dz = goal_xz[0] - here[0], goal_xz[1] - here[2]
        left = math.hypot(dx, dz)
        if left < 1e-3:
            return
        k = min(1.0, STEP / left)
        xr.head.move((dx * k, 0.0, dz * k), speed=WALK_SPEED)
        expect_opacity(xr, eyes(xr), here, f"{what}, on the way")
    pytest.fail(f"{what}: could not walk to {goal_xz}")


def test_the_sculpture_stands_still_where_it_belongs(xr):
    xr.step(2)
    assert xr.probe(READ, {"tag": TAG})["cylinders"] == 0, "expected the starting app's cylinder to be removed"
    first = sculpture(xr)
    off = math.dist(first["centre"], CENTRE)
    assert off <= CENTRE_TOL, (
        f"expected the sculpture's centre at {fmt(CENTRE)} (within 2 cm); it is at {fmt(first['centre'])}"
    )
    longest = max(first["size"])
    assert 0.3 - 0.005 <= longest <= 0.5 + 0.005, (
        f"expected the sculpture 0.3-0.5 m across along its longest side; it is {longest:.3f} m"
    )
    xr.head.move((0.8, 0.0, -1.0), speed=1.0)
    xr.head.move((0.0, -0.5, 0.0), speed=1.0)
    xr.head.rotate(yaw=70, pitch=-20)
    xr.step(30)
    later = sculpture(xr)
    moved = max(abs(a - b) for a, b in zip(first["matrix"], later["matrix"], strict=True))
    assert moved <= 0.005, (
        f"expected the sculpture to stay put, unturned and unscaled while the user walks, crouches and turns; its "
        f"world matrix changed by up to {moved:.3f} (centre now {fmt(later['centre'])})"
    )
    assert_no_errors(xr)


def test_the_opacity_follows_the_distance_on_the_floor(xr):
    xr.step(2)
    expect_opacity(xr, eyes(xr), eyes(xr), "at the start, 2 m away")
    walk_to(xr, (0.0, -1.6), "walking straight up to the sculpture")
    xr.step(20)
    expect_opacity(xr, eyes(xr), eyes(xr), "standing 0.4 m from it")
    walk_to(xr, (0.9, 0.1), "stepping back at a slant")
    walk_to(xr, (1.7, -2.0), "walking round to its right")
    walk_to(xr, (0.25, -2.0), "walking up to it from the side")
    xr.step(20)
    expect_opacity(xr, eyes(xr), eyes(xr), "standing 0.25 m beside it")
    walk_to(xr, (1.2, -2.9), "stepping back behind it")
    assert_no_errors(xr)


def test_height_and_where_the_user_looks_do_not_matter(xr):
    xr.step(2)
    xr.head.move((0.0, 0.0, -0.9), speed=1.0)  # 1.1 m away on the floor
    xr.step(2)
    checks = (
        ("crouching to 0.8 m", lambda: xr.head.move((0.0, 0.8 - eyes(xr)[1], 0.0), speed=1.0)),
        ("standing up to 1.8 m", lambda: xr.head.move((0.0, 1.8 - eyes(xr)[1], 0.0), speed=1.0)),
        ("looking 50 degrees up", lambda: xr.head.rotate(pitch=50)),
        ("looking 60 degrees down", lambda: xr.head.rotate(pitch=-110)),
        ("turning away", lambda: xr.head.rotate(yaw=150, pitch=60)),
        ("stepping sideways while turned away", lambda: xr.head.move((-0.6, 0.0, 0.3), speed=1.0)),
    )
    for what, act in checks:
        act()
        xr.step(3)
        expect_opacity(xr, eyes(xr), eyes(xr), what)
    assert_no_errors(xr)
