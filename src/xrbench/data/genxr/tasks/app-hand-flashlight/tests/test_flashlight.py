"""Runtime tests of the hand flashlights.

They check that
- the cylinder is gone and no flashlight shines when the app starts, nor in the first second;
- a pinch switches on that hand's flashlight within a frame, wherever the hand points; holding the
  pinch for a second and releasing it change nothing; the next pinch switches it off (within a
  frame), and a third on again;
- a shining flashlight is a `SpotLight` with a 15 degree half-angle (checked to 1.1 degrees) that
  reaches 5 m or more, and its intensity is above 0;
- while on, it sits at the start of its hand's ray (within 2 cm, checked to 2.5 cm) and shines along
  it (within 2 degrees, checked to 2.5), read after every frame while the hand moves in small
  steps, after the hand turns to three directions, and after the user turns and walks;
- each hand answers only to its own pinches: one hand's pinch leaves the other's light as it was,
  both can shine at once, each at its own hand, and pinches of both hands in the same frame switch
  both.

"Shining" is read from the scene graph, never from the app's state: a tagged `SpotLight` in the
scene, visible with all its parents, with an intensity above 0. Its direction is the one three.js
renders with, from the light's world position to its target's world matrix. Each test runs for a
right- and a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "flashlight"
POS_TOL = 0.025  # "within 2 cm", with 5 mm of slack
DIR_TOL = 2.5  # degrees; "within 2 degrees", with half a degree of slack
HALF_ANGLE = 15.0
HALF_ANGLE_TOL = 1.1
REACH = 5.0
HOLD = 60  # frames a pinch is held

Vec = tuple[float, float, float]

READ = r"""
(h, tag) => {
  const THREE = h.THREE, scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const shown = new Set();
  scene.traverseVisible((o) => { shown.add(o); });
  const out = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const t = o.userData && o.userData.xrblocksDevtools;
    if (!t || String(t.tag) !== tag) return;
    const spot = o.isSpotLight === true && o.type === 'SpotLight';
    const at = new THREE.Vector3().setFromMatrixPosition(o.matrixWorld);
    let dir = null;
    if (spot && o.target) {
      const to = new THREE.Vector3().setFromMatrixPosition(o.target.matrixWorld);
      if (to.distanceTo(at) > 1e-9) dir = to.sub(at).normalize().toArray();
    }
    out.push({spot, position: at.toArray(), direction: dir, intensity: Number(o.intensity) || 0,
              angle: Number(o.angle), distance: Number(o.distance),
              shining: spot && shown.has(o) && Number(o.intensity) > 0});
  });
  const cylinders = [];
  scene.traverse((o) => {
    if (o.isMesh && o.geometry && o.geometry.type === 'CylinderGeometry') cylinders.push(o.uuid);
  });
  return {lights: out, cylinders: cylinders.length};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def angle(a, b) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(x * x for x in b))
    return math.degrees(math.acos(max(-1.0, min(1.0, dot / (na * nb)))))


def read(xr) -> dict:
    return xr.probe(READ, TAG)


def shining(xr) -> list[dict]:
    return [light for light in read(xr)["lights"] if light["shining"]]


def ray(xr, role: str) -> tuple[Vec, Vec]:
    state = xr.hand(role).state
    assert state.position is not None and state.ray_direction is not None, f"the {role} hand has no ray"
    return state.position, state.ray_direction


def expect(xr, on: dict[str, bool], what: str) -> None:
    """Exactly the hands marked True have a shining flashlight, at their ray and along it."""
    __tracebackhide__ = True
    lit = shining(xr)
    want = [role for role, v in on.items() if v]
    names = {role: f"the {xr.handedness(role)} hand's flashlight" for role in on}
    assert len(lit) == len(want), (
        f"{what}: expected {len(want)} flashlight(s) shining ({', '.join(names[r] for r in want) or 'none'}); "
        f"observed {len(lit)} shining at {[fmt(light['position']) for light in lit]}"
    )
    for role in want:
        origin, direction = ray(xr, role)
        light = min(lit, key=lambda li: math.dist(li["position"], origin))
        gap = math.dist(light["position"], origin)
        assert gap <= POS_TOL, (
            f"{what}: expected {names[role]} at the start of the hand's ray {fmt(origin)} (within 2 cm); the nearest "
            f"shining one is at {fmt(light['position'])}, {100 * gap:.1f} cm away"
        )
        assert light["direction"] is not None, f"{what}: {names[role]} has no target to shine at"
        off = angle(light["direction"], direction)
        assert off <= DIR_TOL, (
            f"{what}: expected {names[role]} to shine along the hand's ray {fmt(direction)} (within 2 degrees); "
            f"it shines along {fmt(light['direction'])}, {off:.1f} degrees off"
        )
        half = math.degrees(light["angle"])
        assert abs(half - HALF_ANGLE) <= HALF_ANGLE_TOL, (
            f"{what}: expected {names[role]}'s cone half-angle to be 15 degrees (within 1); observed {half:.2f}"
        )
        assert light["distance"] == 0 or light["distance"] >= REACH, (
            f"{what}: expected {names[role]} to reach at least 5 m (distance 0 or >= 5); observed distance "
            f"{light['distance']}"
        )


def expect_for(xr, frames: int, on: dict[str, bool], what: str, every: int = 5) -> None:
    __tracebackhide__ = True
    for i in range(0, frames, every):
        xr.step(every)
        expect(xr, on, f"{what} ({i + every} frames on)")


def aim(xr, role: str, point: Vec) -> None:
    xr.hand(role).point_to(point)
    xr.step(2)


def test_both_start_off_and_each_pinch_switches_its_hands_light(xr):
    xr.step(2)
    assert read(xr)["cylinders"] == 0, "expected the starting app's cylinder to be removed"
    on = {"dominant": False, "non_dominant": False}
    expect_for(xr, 60, on, "when the app starts")
    dom = xr.hand("dominant")
    aim(xr, "dominant", (0.4 if xr.handedness("dominant") == "right" else -0.4, 1.2, -2.0))
    dom.start_select(1)
    xr.step(1)
    on["dominant"] = True
    expect(xr, on, "in the frame after the first pinch of the dominant hand")
    expect_for(xr, HOLD, on, "while that pinch is held")
    dom.end_select(1)
    expect_for(xr, 30, on, "after that pinch is released")
    aim(xr, "dominant", (0.0, 2.5, -1.0))  # pointing up at nothing
    dom.start_select(1)
    xr.step(1)
    on["dominant"] = False
    expect(xr, on, "in the frame after the second pinch (pointing up)")
    expect_for(xr, HOLD, on, "while the second pinch is held")
    dom.end_select(1)
    expect_for(xr, 30, on, "after the second pinch is released")
    dom.start_select(1)
    xr.step(1)
    on["dominant"] = True
    expect(xr, on, "in the frame after the third pinch")
    dom.end_select(1)
    expect_for(xr, 20, on, "after the third pinch is released")
    assert_no_errors(xr)


def test_a_shining_light_follows_its_hand_as_it_moves_and_turns(xr):
    xr.step(2)
    dom = xr.hand("dominant")
    sign = 1.0 if xr.handedness("dominant") == "right" else -1.0
    dom.click()
    on = {"dominant": True, "non_dominant": False}
    expect_for(xr, 10, on, "after a pinch of the dominant hand")
    # small steps, read after each frame of motion
    for delta in ((0.0, 0.2, -0.1), (sign * -0.25, 0.0, 0.0), (0.0, -0.25, 0.1)):
        for _ in range(10):
            dom.move_by(tuple(c / 10 for c in delta), speed=0.6)
            expect(xr, on, f"while the hand moves by {fmt(delta)}")
    for point in ((sign * 1.5, 1.0, -0.5), (0.0, 0.2, -1.0), (-sign * 0.5, 2.2, -1.5)):
        aim(xr, "dominant", point)
        expect(xr, on, f"after the hand turned to point at {fmt(point)}")
    dom.point_forward()
    xr.head.rotate(yaw=40)
    expect_for(xr, 10, on, "after the user turned 40 degrees left")
    xr.head.move((0.5, 0.0, -0.5))
    expect_for(xr, 10, on, "after the user walked half a metre")
    assert_no_errors(xr)


def test_each_hand_switches_only_its_own_light_also_in_the_same_frame(xr):
    xr.step(2)
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    on = {"dominant": False, "non_dominant": False}
    non.click()
    on["non_dominant"] = True
    expect_for(xr, 10, on, "after a pinch of the non-dominant hand")
    dom.click()
    on["dominant"] = True
    expect_for(xr, 10, on, "after a pinch of the dominant hand, with the other hand's light on")
    # each follows its own hand, apart and turned differently
    dom.move_by((0.0, 0.15, 0.0))
    non.move_by((0.0, -0.15, 0.0))
    aim(xr, "non_dominant", (0.0, 0.3, -1.0))
    expect(xr, on, "with the hands apart, the non-dominant one pointing down")
    non.click()
    on["non_dominant"] = False
    expect_for(xr, 10, on, "after the non-dominant hand's second pinch")
    non.start_select(0)  # both pinch in the same frame
    dom.start_select(2)
    on = {"dominant": False, "non_dominant": True}
    expect(xr, on, "after both hands pinched in the same frame")
    non.end_select(0)
    dom.end_select(10)
    expect_for(xr, 20, on, "after both released")
    non.start_select(0)
    dom.start_select(2)
    on = {"dominant": True, "non_dominant": False}
    expect(xr, on, "after both hands pinched in the same frame again")
    non.end_select(0)
    dom.end_select(10)
    expect_for(xr, 20, on, "after both released again")
    assert_no_errors(xr)
