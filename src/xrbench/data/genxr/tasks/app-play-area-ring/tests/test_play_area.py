"""Runtime tests of the play-area ring.

They check that
- the cylinder is gone; one object tagged 'play-area-ring' is shown, its geometry (in world
  coordinates) lies on the floor (0 to 2 cm up, checked to 2.5 cm), every vertex 1.45 to 1.55 m from
  (0, 0, 0) along the floor, and it goes all the way round (vertices in every 10 degree sector);
- it stays put (every vertex within 1 cm) and shown while the user walks, turns and crouches;
- it starts calm (green or blue at least as strong as red) and stays calm for the first second;
- walking out 2 cm a frame, it turns red (red >= 200, green and blue <= 80) in the first frame the
  eyes are more than 1.2 m from the centre along the floor, or the next, and not before; walking back
  it turns calm in the first frame they are within 1.0 m, or the next, and not before; in two
  directions;
- between 1.0 and 1.2 m it keeps its colour: held for a second at 1.1 m after coming in from
  outside (red) and at 1.15 m after coming out from inside (calm), and crouching 40 cm or turning
  and looking around there changes nothing; crouching just outside 1.2 m keeps it red.

Colours and geometry are read from the scene graph; the eyes' position from the harness's own
reading of the camera. Each test runs for a right- and a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "play-area-ring"
RADIUS_MIN, RADIUS_MAX = 1.45, 1.55
FLOOR_MAX = 0.025  # "at most 2 cm above it", with 5 mm of slack
WARN_BEYOND = 1.2
CALM_WITHIN = 1.0
STEP = 0.02  # metres the user walks per frame in a sweep
STILL = 0.01

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
    const m = Array.isArray(o.material) ? o.material[0] : o.material;
    const hex = m && m.color ? m.color.getHex() : null;  // sRGB, as a developer writes colours
      const color = hex === null ? null : [(hex >> 16) & 255, (hex >> 8) & 255, hex & 255];
    const entry = {shown: shown.has(o), color, vertices: null};
    const pos = o.geometry && o.geometry.attributes && o.geometry.attributes.position;
    if (arg.vertices && pos) {
      const v = new THREE.Vector3();
      entry.vertices = [];
      for (let i = 0; i < pos.count; i++) {
        v.fromBufferAttribute(pos, i).applyMatrix4(o.matrixWorld);
        entry.vertices.push([v.x, v.y, v.z]);
      }
    }
    out.push(entry);
  });
  return {rings: out, cylinders};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def read(xr, vertices: bool = False) -> dict:
    return xr.probe(READ, {"tag": TAG, "vertices": vertices})


def ring(xr, vertices: bool = False) -> dict:
    __tracebackhide__ = True
    rings = read(xr, vertices)["rings"]
    assert len(rings) == 1, f"expected exactly one object tagged {TAG!r}; observed {len(rings)}"
    assert rings[0]["shown"], "expected the ring to be shown at all times; it is hidden"
    assert rings[0]["color"] is not None, "expected the ring's material to have a colour"
    return rings[0]


def is_red(c) -> bool:
    return c[0] >= 200 and c[1] <= 80 and c[2] <= 80


def is_calm(c) -> bool:
    return max(c[1], c[2]) >= c[0]


def strayed(xr) -> float:
    p = xr.camera_pose().position
    return math.hypot(p[0], p[2])


def expect(xr, red: bool, what: str) -> None:
    __tracebackhide__ = True
    c = ring(xr)["color"]
    ok = is_red(c) if red else is_calm(c)
    assert ok, (
        f"{what} ({strayed(xr):.2f} m from the centre): expected the ring "
        f"{'red (red >= 200, green and blue <= 80)' if red else 'its calm colour (green or blue >= red)'}; "
        f"its colour is rgb{tuple(c)}"
    )


def walk_to(xr, direction: Vec, radius: float, what: str) -> None:
    """Walk along `direction` (from the centre) until `radius` m out, 2 cm a frame, checking the
    ring turns red (or calm) in the frame the threshold is passed, or the next, and not before."""
    __tracebackhide__ = True
    state = is_red(ring(xr)["color"])
    crossed = False
    while True:
        d = strayed(xr)
        if abs(radius - d) < 1e-3:
            break
        here = xr.camera_pose().position
        step = max(-STEP, min(STEP, radius - d))
        goal_r = d + step
        xr.head.move(
            (direction[0] * goal_r - here[0], 0.0, direction[2] * goal_r - here[2]),
            speed=1000.0,
        )
        d = strayed(xr)
        c = ring(xr)["color"]
        now = is_red(c)
        passed = not crossed and ((d > WARN_BEYOND and not state) or (d < CALM_WITHIN and state))
        if not crossed and not passed and now != state:
            pytest.fail(
                f"{what}: the ring turned {'red' if now else 'calm'} at {d:.2f} m from the centre; expected it to stay "
                f"{'red' if state else 'calm'} until {'within 1.0' if state else 'beyond 1.2'} m"
            )
        if passed:
            if now == state:
                xr.step(1)  # within a frame
                now = is_red(ring(xr)["color"])
            assert now != state, (
                f"{what}: the user is {d:.2f} m from the centre but the ring is still "
                f"{'red' if state else 'calm'} a frame later (colour rgb{tuple(ring(xr)['color'])})"
            )
            expect(xr, not state, what)
            state = not state
            crossed = True
        elif crossed:
            assert now == state, f"{what}: the ring changed colour again at {d:.2f} m"


def flat(v: Vec) -> Vec:
    n = math.hypot(v[0], v[2])
    return (v[0] / n, 0.0, v[2] / n)


def test_the_ring_lies_on_the_floor_round_the_start_and_stays_there(xr):
    xr.step(2)
    assert read(xr)["cylinders"] == 0, "expected the starting app's cylinder to be removed"
    first = ring(xr, vertices=True)["vertices"] or []
    assert len(first) >= 8, f"expected the ring's geometry; observed {len(first)} vertices"
    low, high = min(v[1] for v in first), max(v[1] for v in first)
    assert low >= -0.001 and high <= FLOOR_MAX, (
        f"expected the ring on the floor, at most 2 cm above it; its vertices reach from y = {low:.3f} to {high:.3f}"
    )
    near = min(first, key=lambda v: math.hypot(v[0], v[2]))
    far = max(first, key=lambda v: math.hypot(v[0], v[2]))
    assert math.hypot(near[0], near[2]) >= RADIUS_MIN and math.hypot(far[0], far[2]) <= RADIUS_MAX, (
        "expected every part of the ring 1.45 to 1.55 m from (0, 0, 0) along the floor; it reaches from "
        f"{math.hypot(near[0], near[2]):.3f} to {math.hypot(far[0], far[2]):.3f} m"
    )
    sectors = {int(math.degrees(math.atan2(v[2], v[0])) % 360 // 10) for v in first}
    missing = sorted(set(range(36)) - sectors)
    assert not missing, f"expected the ring to go all the way round; nothing of it at {missing[0] * 10} degrees"
    for _ in range(6):
        expect(xr, False, "when the app starts")
        xr.step(10)
    xr.head.move((0.8, 0.0, -0.6))
    xr.head.rotate(yaw=120, pitch=-30)
    xr.head.move((0.0, -0.4, 0.0))
    xr.step(5)
    now = ring(xr, vertices=True)["vertices"] or []
    assert len(now) == len(first), "the ring's geometry changed while the user moved"
    moved = max(math.dist(a, b) for a, b in zip(first, now, strict=True))
    assert moved <= STILL, (
        f"expected the ring to stay where it is while the user walks and turns; it moved {moved:.3f} m"
    )
    assert_no_errors(xr)


@pytest.mark.parametrize("heading", [(1.0, 0.0, 0.0), (-0.6, 0.0, -0.8)], ids=["to-the-right", "ahead-left"])
def test_it_turns_red_beyond_1_2_m_and_calm_within_1_0_m(xr, heading):
    xr.step(2)
    u = flat(heading)
    expect(xr, False, "at the start")
    walk_to(xr, u, 1.4, "walking out")
    expect(xr, True, "1.4 m out")
    xr.head.rotate(yaw=90)
    xr.head.rotate(pitch=-40)
    xr.step(30)
    expect(xr, True, "turning and looking down 1.4 m out")
    walk_to(xr, u, 0.5, "walking back in")
    expect(xr, False, "0.5 m out")
    walk_to(xr, u, 1.3, "walking out again")
    walk_to(xr, u, 0.8, "walking back in again")
    assert_no_errors(xr)


def test_between_1_0_and_1_2_m_it_keeps_its_colour(xr):
    xr.step(2)
    u = flat((0.0, 0.0, 1.0))
    walk_to(xr, u, 1.15, "walking out to 1.15 m")
    for _ in range(6):
        xr.step(10)
        expect(xr, False, "standing 1.15 m out, come from inside")
    xr.head.move((0.0, -0.4, 0.0))
    xr.head.rotate(yaw=150)
    expect(xr, False, "crouching and turning 1.15 m out, come from inside")
    xr.head.move((0.0, 0.4, 0.0))
    walk_to(xr, u, 1.25, "walking out to 1.25 m")
    xr.head.move((0.0, -0.4, 0.0))
    expect(xr, True, "crouching 1.25 m out")
    xr.head.move((0.0, 0.4, 0.0))
    walk_to(xr, u, 1.1, "walking back to 1.1 m")
    for _ in range(6):
        xr.step(10)
        expect(xr, True, "standing 1.1 m out, come from outside")
    xr.head.rotate(yaw=-100, pitch=20)
    expect(xr, True, "turning and looking up 1.1 m out, come from outside")
    assert_no_errors(xr)
