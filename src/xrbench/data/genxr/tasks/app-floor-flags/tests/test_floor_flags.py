"""Runtime tests of planting flags on the floor.

They check that
- the starting app's cylinder is gone and no flag stands at the start;
- a pinch with a hand's ray on the floor plants one flag, its foot (the centre of its lowest
  vertices, read in world coordinates) within 3 cm of where the ray, as the harness reads it in the
  frame of the pinch, meets the floor (checked to 3.5 cm); at points near and far (0.8 to 4.5 m from
  the hand), ahead and to either side, by either hand; holding the pinch for half a second and
  releasing it plant nothing more;
- a flag stands on the floor (lowest vertex within 1 cm of y = 0, checked to 1.2 cm), is 30 cm tall
  (within 2 cm) and at most 15 cm across (every vertex within 15 cm of its foot along the floor);
- pinches whose ray misses the floor within 5 m (level, up, and at a floor point 6.5 m away) plant
  nothing;
- at most five flags stand: the sixth and seventh remove the oldest ones, in order; both hands
  pinching in the same frame plant two flags; flags stay where they were planted (within 1 cm) while
  the user walks and turns.

Each test runs for a right- and a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "floor-flag"
FOOT_TOL = 0.035  # "within 3 cm", with 5 mm of slack
FLOOR_TOL = 0.012
HEIGHT, HEIGHT_TOL = 0.30, 0.02
ACROSS = 0.15
STILL = 0.01
HOLD = 30

Vec = tuple[float, float, float]

READ = r"""
(h, tag) => {
  const THREE = h.THREE, scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const shown = new Set();
  scene.traverseVisible((o) => { shown.add(o); });
  const flags = [];
  let cylinder = 0;
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const g = o.geometry;
    if (o.isMesh && g && g.type === 'CylinderGeometry' && shown.has(o) && g.parameters &&
        Math.abs(g.parameters.radiusTop - 0.2) < 1e-6 && Math.abs(g.parameters.height - 0.4) < 1e-6) cylinder++;
    const t = o.userData && o.userData.xrblocksDevtools;
    if (!t || String(t.tag) !== tag || !shown.has(o)) return;
    const verts = [];
    const v = new THREE.Vector3();
    o.traverseVisible((m) => {
      const pos = m.geometry && m.geometry.attributes && m.geometry.attributes.position;
      if (!pos) return;
      for (let i = 0; i < pos.count; i++) {
        v.fromBufferAttribute(pos, i).applyMatrix4(m.matrixWorld);
        verts.push([v.x, v.y, v.z]);
      }
    });
    flags.push({uuid: o.uuid, verts});
  });
  return {flags, cylinder};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def flags(xr) -> list[dict]:
    """Each flag as {uuid, foot, low, height, across}."""
    out = []
    for f in xr.probe(READ, TAG)["flags"]:
        vs = f["verts"]
        if not vs:
            out.append({"uuid": f["uuid"], "foot": None})
            continue
        low = min(v[1] for v in vs)
        bottom = [v for v in vs if v[1] <= low + 0.01]
        foot = tuple(sum(v[i] for v in bottom) / len(bottom) for i in range(3))
        across = max(math.hypot(v[0] - foot[0], v[2] - foot[2]) for v in vs)
        out.append(
            {"uuid": f["uuid"], "foot": foot, "low": low, "height": max(v[1] for v in vs) - low, "across": across}
        )
    return out


def floor_hit(xr, role: str) -> Vec | None:
    st = xr.hand(role).state
    o, d = st.position, st.ray_direction
    assert o is not None and d is not None, f"the {role} hand has no ray"
    if d[1] >= 0:
        return None
    t = -o[1] / d[1]
    return (o[0] + t * d[0], 0.0, o[2] + t * d[2]) if t <= 5.0 else None


def expect_flag(flag: dict, at: Vec, what: str) -> None:
    __tracebackhide__ = True
    assert flag["foot"] is not None, f"{what}: the flag has no geometry"
    gap = math.hypot(flag["foot"][0] - at[0], flag["foot"][2] - at[2])
    assert gap <= FOOT_TOL, (
        f"{what}: expected the flag's foot where the ray meets the floor, {fmt(at)} (within 3 cm); it is at "
        f"{fmt(flag['foot'])}, {100 * gap:.1f} cm away"
    )
    assert abs(flag["low"]) <= FLOOR_TOL, (
        f"{what}: expected the flag's foot on the floor; it is at y = {flag['low']:.3f}"
    )
    assert abs(flag["height"] - HEIGHT) <= HEIGHT_TOL, (
        f"{what}: expected the flag 30 cm tall (within 2 cm); it is {100 * flag['height']:.1f} cm"
    )
    assert flag["across"] <= ACROSS, (
        f"{what}: expected the flag at most 15 cm across, upright over its foot; part of it is "
        f"{100 * flag['across']:.1f} cm from its foot"
    )


def pinch_at(xr, role: str, point: Vec, what: str) -> Vec | None:
    """Aim at `point`, start a pinch; returns where the ray met the floor in that frame."""
    hand = xr.hand(role)
    hand.point_to(point)
    xr.step(2)
    hand.start_select(1)
    return floor_hit(xr, role)


def plant(xr, role: str, point: Vec, what: str) -> dict:
    """A pinch at a floor point plants exactly one flag there; holding and releasing add none."""
    __tracebackhide__ = True
    before = {f["uuid"] for f in flags(xr)}
    at = pinch_at(xr, role, point, what)
    assert at is not None, f"test set-up: the ray misses the floor ({what})"
    xr.step(1)
    new = [f for f in flags(xr) if f["uuid"] not in before]
    assert len(new) == 1, f"{what}: expected one new flag within a frame of the pinch; observed {len(new)}"
    expect_flag(new[0], at, what)
    xr.step(HOLD)
    xr.hand(role).end_select(5)
    later = [f for f in flags(xr) if f["uuid"] not in before]
    assert len(later) == 1, f"{what}: expected holding and releasing the pinch to plant nothing more; {len(later)} new"
    return new[0]


def side(xr) -> float:
    return 1.0 if xr.handedness("dominant") == "right" else -1.0


def test_a_pinch_at_the_floor_plants_a_flag_where_the_ray_meets_it(xr):
    xr.step(2)
    assert xr.probe(READ, TAG)["cylinder"] == 0, "expected the starting app's cylinder to be removed"
    assert flags(xr) == [], "expected no flag at the start"
    s = side(xr)
    plant(xr, "dominant", (s * 0.2, 0.0, -1.0), "the dominant hand, 1 m ahead")
    plant(xr, "non_dominant", (-s * 1.5, 0.0, -2.5), "the non-dominant hand, far ahead to its side")
    plant(xr, "dominant", (s * 2.5, 0.0, -0.3), "the dominant hand, far to its side")
    plant(xr, "non_dominant", (0.0, 0.0, -4.1), "the non-dominant hand, 4.5 m along the ray")
    assert len(flags(xr)) == 4
    assert_no_errors(xr)


def test_a_pinch_whose_ray_misses_the_floor_within_5_m_plants_nothing(xr):
    xr.step(2)
    s = side(xr)
    for role, point, what in (
        ("dominant", (s * 0.3, 1.3, -3.0), "pointing level"),
        ("non_dominant", (-s * 0.5, 3.0, -1.0), "pointing up"),
        ("dominant", (0.0, 0.0, -6.5), "at the floor 6.5 m away"),
    ):
        assert pinch_at(xr, role, point, what) is None, f"test set-up: the ray meets the floor ({what})"
        xr.step(HOLD)
        xr.hand(role).end_select(5)
        assert flags(xr) == [], f"{what}: expected no flag; observed {len(flags(xr))}"
    plant(xr, "dominant", (0.0, 0.0, -2.0), "then at the floor 2 m ahead")
    assert_no_errors(xr)


def test_at_most_five_flags_stand_and_both_hands_plant_at_once(xr):
    xr.step(2)
    s = side(xr)
    spots = [(s * x, 0.0, z) for x, z in ((0.6, -0.8), (-0.6, -0.8), (0.9, -1.6), (-0.9, -1.6), (0.0, -2.2))]
    planted = []
    for i, spot in enumerate(spots):
        planted.append(plant(xr, "dominant" if i % 2 == 0 else "non_dominant", spot, f"flag {i + 1}"))
    feet = {f["uuid"]: f["foot"] for f in flags(xr)}
    assert len(feet) == 5, f"expected five flags; observed {len(feet)}"
    xr.head.move((0.5, 0.0, -0.5))
    xr.head.rotate(yaw=60)
    xr.step(5)
    for f in flags(xr):
        moved = math.dist(f["foot"], feet[f["uuid"]])
        assert moved <= STILL, (
            f"expected planted flags to stay put while the user walks and turns; one moved {moved:.3f} m"
        )
    sixth = plant(xr, "non_dominant", (s * 1.2, 0.0, -2.6), "the sixth flag")
    now = {f["uuid"] for f in flags(xr)}
    assert len(now) == 5, f"expected five flags after the sixth; observed {len(now)}"
    assert planted[0]["uuid"] not in now, "expected the sixth flag to remove the oldest (the first planted)"
    assert sixth["uuid"] in now
    plant(xr, "dominant", (-s * 1.2, 0.0, -2.6), "the seventh flag")
    now = {f["uuid"] for f in flags(xr)}
    assert planted[1]["uuid"] not in now and planted[2]["uuid"] in now, (
        "expected the seventh flag to remove the second planted, the oldest standing, and keep the third"
    )
    # both hands in the same frame
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    dom.point_to((s * 0.4, 0.0, -3.0))
    non.point_to((-s * 0.4, 0.0, -3.0))
    xr.step(2)
    before = {f["uuid"] for f in flags(xr)}
    non.start_select(0)
    dom.start_select(1)
    hits = [floor_hit(xr, "dominant"), floor_hit(xr, "non_dominant")]
    xr.step(1)
    new = [f for f in flags(xr) if f["uuid"] not in before]
    assert len(new) == 2, f"expected both hands' pinches in the same frame to plant two flags; observed {len(new)}"
    for at in hits:
        assert at is not None
        flag = min(new, key=lambda f: math.dist(f["foot"], at))
        expect_flag(flag, at, "both hands pinching in the same frame")
    now = {f["uuid"] for f in flags(xr)}
    assert len(now) == 5 and planted[2]["uuid"] not in now and planted[3]["uuid"] not in now, (
        "expected two more flags to remove the two oldest standing (the third and fourth planted)"
    )
    non.end_select(0)
    dom.end_select(5)
    assert_no_errors(xr)
