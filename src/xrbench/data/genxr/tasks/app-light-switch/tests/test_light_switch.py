"""Runtime tests of the light switch placed on the nearest wall, which toggles a lamp when touched.

The walls come from what plane detection reported (the harness's own record of each plane: its
pose and its polygon in world coordinates) and the head from the camera, never from the app; the
switch, the bulb and the light are read from the live scene graph (world vertices, material
colours, the light's intensity and effective visibility); the fingertips are the hands' joints.

They check that
- in the living room and the kitchen (planes detected before the first frame), within half a
  second of the start the switch is a 0.08 x 0.12 x 0.02 m plate on the wall whose plane is
  nearest the head, its back on the wall (within 5 mm), its centre 1.1 m above the wall's foot
  (within 1 cm) and straight across from the head (within 2 cm); the bulb is a sphere 0.12 m
  across with the point light at its centre; the lamp is off (bulb #334155, light dark, plate
  #64748b); all of it stays while the user turns and walks;
- with the planes withheld, the user moved to another spot (nearer another wall), nothing is shown
  while no wall is known (the floor and the furniture come first); once the walls are detected
  the switch is placed within 0.1 s on the wall nearest to where the head is then; a nearer wall
  detected later and a walk change nothing;
- a touch of the dominant index fingertip switches the lamp on within 0.1 s (bulb #fde68a, light
  shown with intensity >= 1, plate #22c55e), held for half a second it toggles nothing more, a
  fingertip hovering 2.5 cm in front toggles nothing, a second touch switches it off, and the
  non-dominant fingertip's touch switches it on again; before the touches, the lamp stays off.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.rooms import wall_plane
from xrbench.xrtest.session import rotate

PLATE = (0.08, 0.12, 0.02)  # width, height, depth
PLATE_TOL = 0.005  # metres each way on the plate's sizes (a plate turned 3 degrees spans 4 mm more)
BACK_TOL = 0.005  # the back face on the wall's plane
HEIGHT = 1.1  # the switch's centre above the wall's foot
HEIGHT_TOL = 0.01
ACROSS_TOL = 0.02  # straight across from the head
BULB = 0.12
BULB_TOL = 0.02
STILL_TOL = 0.003
PLATE_OFF, PLATE_ON = "#64748b", "#22c55e"
BULB_OFF, BULB_ON = "#334155", "#fde68a"
SOON = 6  # frames: 0.1 s at 60 Hz
STARTUP = 30  # frames: half a second at 60 Hz

Vec = tuple[float, float, float]

# The switch's and the bulb's world vertices and colours, and the light's state.
_READ_JS = """
(h) => {
  const T = h.THREE, out = {};
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const count = {};
  scene.traverse((o) => {
    const d = o.userData && o.userData.xrblocksDevtools;
    const tag = d && String(d.tag);
    if (tag !== 'light-switch' && tag !== 'lamp-bulb' && tag !== 'lamp-light') return;
    count[tag] = (count[tag] || 0) + 1;
    let shown = true;
    for (let p = o; p; p = p.parent) if (!p.visible) shown = false;
    const item = {shown, type: o.type};
    if (tag === 'lamp-light') {
      item.isPointLight = !!o.isPointLight;
      item.intensity = typeof o.intensity === 'number' ? o.intensity : null;
      item.position = o.getWorldPosition(new T.Vector3()).toArray();
    } else {
      const verts = [];
      o.traverse((m) => {
        const g = m.geometry, p = g && g.attributes && g.attributes.position;
        if (!p) return;
        for (let i = 0; i < p.count; i++) {
          verts.push(new T.Vector3().fromBufferAttribute(p, i).applyMatrix4(m.matrixWorld).toArray());
        }
      });
      item.verts = verts;
      const mat = o.material;
      item.color = mat && !Array.isArray(mat) && mat.color && mat.color.isColor
        ? '#' + h.guard(mat.color, 'a colour').getHexString() : null;
    }
    out[tag] = item;
  });
  out.count = count;
  return out;
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


class Spot:
    """Where the switch belongs: on the wall nearest `head`, as detection reported the walls."""

    def __init__(self, xr, head: Vec):
        walls = xr.planes("wall")
        assert walls, "test set-up: walls detected"
        best = None
        for w in walls:
            n = rotate(w.quaternion, (0.0, 1.0, 0.0))
            d = _dot(n, [h - p for h, p in zip(head, w.position, strict=True)])
            if best is None or abs(d) < abs(best[0]):
                best = (d, n, w)
        assert best is not None
        d, n, wall = best
        others = sorted(
            abs(_dot(rotate(w.quaternion, (0.0, 1.0, 0.0)), [h - p for h, p in zip(head, w.position, strict=True)]))
            for w in walls
        )
        assert len(others) < 2 or others[1] - others[0] > 0.2, "test set-up: one wall is clearly the nearest"
        self.n = n
        self.u = (-n[2], 0.0, n[0])  # horizontal, along the wall
        self.origin = wall.position
        foot = min(p[1] for p in wall.polygon)
        on_wall = [h - d * k for h, k in zip(head, n, strict=True)]
        self.centre = (on_wall[0], foot + HEIGHT, on_wall[2])
        self.wall = wall

    def describe(self) -> str:
        return f"the wall at {_fmt(self.wall.position)} (normal {_fmt(self.n)})"


def read(xr) -> dict:
    __tracebackhide__ = True
    r = xr.probe(_READ_JS)
    for tag, k in r["count"].items():
        assert k == 1, f"expected one object tagged '{tag}'; observed {k}"
    return r


def plate_problem(r: dict, spot: Spot) -> str | None:
    s = r.get("light-switch")
    if s is None or not s["shown"]:
        return "no switch is shown"
    if not s["verts"]:
        return "the object tagged 'light-switch' has no vertices"
    vs = s["verts"]
    out = [_dot(spot.n, [a - b for a, b in zip(v, spot.origin, strict=True)]) for v in vs]
    along = [_dot(spot.u, v) for v in vs]
    ys = [v[1] for v in vs]
    problems = []
    depth, width, height = max(out) - min(out), max(along) - min(along), max(ys) - min(ys)
    for got, want, name in ((width, PLATE[0], "wide"), (height, PLATE[1], "high"), (depth, PLATE[2], "deep")):
        if abs(got - want) > PLATE_TOL:
            problems.append(f"it is {got:.3f} m {name}, expected {want} m")
    if abs(min(out)) > BACK_TOL:
        problems.append(f"its back is {min(out):+.3f} m from the wall's plane (+: into the room)")
    cy = (max(ys) + min(ys)) / 2
    if abs(cy - spot.centre[1]) > HEIGHT_TOL:
        problems.append(f"its centre is at y = {cy:.3f}, expected {spot.centre[1]:.3f} (1.1 m above the wall's foot)")
    ca = (max(along) + min(along)) / 2
    want_a = _dot(spot.u, spot.centre)
    if abs(ca - want_a) > ACROSS_TOL:
        problems.append(
            f"its centre is {ca - want_a:+.3f} m along the wall from the point straight across from the head"
        )
    if not problems:
        return None
    return f"{'; '.join(problems)} (on {spot.describe()})"


def wait_placed(xr, spot: Spot, limit: int, what: str) -> dict:
    __tracebackhide__ = True
    since = xr.frame
    while True:
        r = read(xr)
        problem = plate_problem(r, spot)
        if problem is None:
            return r
        assert xr.frame - since < limit, (
            f"{what}: expected the switch on the wall nearest the head, centred at {_fmt(spot.centre)}, within "
            f"{limit} frames; {xr.frame - since} frames later {problem}"
        )
        xr.step(1)


def assert_lamp(r: dict, on: bool, what: str) -> None:
    __tracebackhide__ = True
    s, b, light = r.get("light-switch"), r.get("lamp-bulb"), r.get("lamp-light")
    state = "on" if on else "off"
    assert b is not None and b["shown"] and b["verts"], f"{what}: expected the bulb (tagged 'lamp-bulb') shown"
    assert light is not None and light["isPointLight"], f"{what}: expected a THREE.PointLight tagged 'lamp-light'"
    assert s["color"] == (PLATE_ON if on else PLATE_OFF), (
        f"{what}: expected the lamp {state}, the plate {PLATE_ON if on else PLATE_OFF}; observed {s['color']}"
    )
    assert b["color"] == (BULB_ON if on else BULB_OFF), (
        f"{what}: expected the lamp {state}, the bulb {BULB_ON if on else BULB_OFF}; observed {b['color']}"
    )
    lit = light["shown"] and (light["intensity"] or 0) > 0
    if on:
        assert light["shown"] and (light["intensity"] or 0) >= 1, (
            f"{what}: expected the lamp on, its point light shown with an intensity of at least 1; observed "
            f"{'shown' if light['shown'] else 'hidden'}, intensity {light['intensity']}"
        )
    else:
        assert not lit, f"{what}: expected the lamp off, its point light dark; observed intensity {light['intensity']}"


def assert_bulb_shape(r: dict, what: str) -> None:
    __tracebackhide__ = True
    vs = r["lamp-bulb"]["verts"]
    lo = [min(v[k] for v in vs) for k in range(3)]
    hi = [max(v[k] for v in vs) for k in range(3)]
    size = [b - a for a, b in zip(lo, hi, strict=True)]
    centre = [(a + b) / 2 for a, b in zip(lo, hi, strict=True)]
    assert all(abs(s - BULB) <= BULB_TOL for s in size), (
        f"{what}: expected the bulb a sphere {BULB} m across (within {BULB_TOL} m); it spans {_fmt(size)}"
    )
    off = math.dist(centre, r["lamp-light"]["position"])
    assert off <= BULB_TOL, f"{what}: expected the point light at the bulb's centre; it is {off:.3f} m from it"


def wait_lamp(xr, on: bool, what: str) -> dict:
    __tracebackhide__ = True
    since = xr.frame
    while True:
        r = read(xr)
        try:
            assert_lamp(r, on, what)
            return r
        except AssertionError:
            if xr.frame - since >= SOON:
                raise
        xr.step(1)


def assert_still(xr, r0: dict, on: bool, frames: int, what: str, every: int = 5) -> None:
    """For `frames` frames nothing moves and the lamp stays as it is."""
    __tracebackhide__ = True
    for k in range(0, frames + 1, every):
        r = read(xr)
        assert_lamp(r, on, f"{what} (frame {xr.frame})")
        for tag in ("light-switch", "lamp-bulb"):
            a = [sum(v[i] for v in r0[tag]["verts"]) / len(r0[tag]["verts"]) for i in range(3)]
            b = [sum(v[i] for v in r[tag]["verts"]) / len(r[tag]["verts"]) for i in range(3)]
            assert math.dist(a, b) <= STILL_TOL, (
                f"{what} (frame {xr.frame}): expected the {tag} to stay where it was placed; it moved "
                f"{math.dist(a, b):.3f} m, from {_fmt(a)} to {_fmt(b)}"
            )
        if k < frames:
            xr.step(min(every, frames - k))


def assert_nothing_shown(xr, frames: int, what: str) -> None:
    __tracebackhide__ = True
    for _ in range(frames):
        r = read(xr)
        for tag in ("light-switch", "lamp-bulb"):
            assert r.get(tag) is None or not r[tag]["shown"], f"expected no {tag} shown {what} (frame {xr.frame})"
        light = r.get("lamp-light")
        assert light is None or not (light["shown"] and (light["intensity"] or 0) > 0), (
            f"expected no lamp light {what} (frame {xr.frame})"
        )
        xr.step(1)


def walk_about(xr) -> None:
    xr.head.rotate(yaw=120)
    xr.head.walk([(0.5, 1.5, -0.8)], speed=1.0)
    xr.head.rotate(yaw=-60, pitch=-20)
    xr.wait(200)


# --- tests ---------------------------------------------------------------------------------------


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_the_switch_goes_on_the_nearest_wall_at_start_and_the_lamp_starts_off(xr):
    assert xr.planes("wall"), "plane detection reports no wall: the app did not enable plane detection"
    spot = Spot(xr, xr.camera_pose().position)
    r = wait_placed(xr, spot, STARTUP, "within half a second of the start")
    assert_lamp(r, False, "at the start")
    assert_bulb_shape(r, "at the start")
    assert_still(xr, r, False, 60, "during the first second", every=15)
    walk_about(xr)
    assert_still(xr, r, False, 0, "after the user turned and walked")
    assert_no_errors(xr)


SPOTS = {"living_room": (2.2, 1.5, -1.2), "kitchen": (-1.0, 1.5, -2.7)}


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_placed_when_walls_arrive_on_the_wall_nearest_the_user_then_kept(xr):
    xr.plane_detection.withhold()
    head = SPOTS[xr.scene.name]
    xr.head.teleport_to(head)
    xr.head.rotate(yaw=70)
    assert_nothing_shown(xr, 20, "before any plane was detected")
    xr.plane_detection.deliver(*(("floor", "table", "couch") if xr.scene.name == "living_room" else ("floor", "table")))
    assert_nothing_shown(xr, 20, "while only the floor and the furniture were detected")
    here = xr.camera_pose().position
    assert math.dist(here, head) < 0.01, "test set-up: the head stays where it was put"
    xr.plane_detection.deliver("wall")
    spot = Spot(xr, here)
    xr.step(1)
    r = wait_placed(xr, spot, SOON, "once the walls were detected")
    assert_lamp(r, False, "once the switch was placed")
    a, b = (head[0] - 0.5, head[2] + 0.4), (head[0] + 0.5, head[2] + 0.4)
    xr.plane_detection.add(wall_plane(a, b, inside=(head[0], head[2]), height=2.4, label="wall"))
    assert_still(xr, r, False, 20, "after a nearer wall was detected")
    walk_about(xr)
    assert_still(xr, r, False, 0, "after the user turned and walked")
    assert_no_errors(xr)


def front_point(r: dict, spot: Spot, gap: float) -> Vec:
    vs = r["light-switch"]["verts"]
    c = [sum(v[i] for v in vs) / len(vs) for i in range(3)]
    return tuple(c[i] + spot.n[i] * (PLATE[2] / 2 + gap) for i in range(3))  # type: ignore[return-value]


@pytest.mark.xr_scenes("living_room", "kitchen")
def test_each_touch_of_either_index_fingertip_toggles_the_lamp_once(xr):
    spot = Spot(xr, xr.camera_pose().position)
    r = wait_placed(xr, spot, STARTUP, "within half a second of the start")
    xr.head.teleport_to("light-switch", distance=0.5)
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    xr.step(2)
    dom.move_hand(front_point(r, spot, 0.08), anchor="fingertip")
    assert_still(xr, r, False, 10, "before any touch")
    dom.move_hand(front_point(r, spot, 0.025), anchor="fingertip", speed=0.3)
    assert_still(xr, r, False, 20, "while the dominant fingertip hovered 2.5 cm in front of the switch")
    dom.reach_to("light-switch", depth=0.01, speed=0.3)
    r = wait_lamp(xr, True, "after the dominant index fingertip touched the switch")
    assert_still(xr, r, True, 30, "while the dominant fingertip stayed in the switch")
    dom.move_hand(front_point(r, spot, 0.08), anchor="fingertip", speed=0.3)
    assert_still(xr, r, True, 10, "after the dominant fingertip left the switch")
    dom.reach_to("light-switch", depth=0.01, speed=0.3)
    r = wait_lamp(xr, False, "after the dominant index fingertip touched the switch again")
    dom.move_hand(front_point(r, spot, 0.08), anchor="fingertip", speed=0.3)
    dom.rest()
    assert_still(xr, r, False, 10, "after the dominant hand went back to rest")
    non.move_hand(front_point(r, spot, 0.08), anchor="fingertip")
    non.reach_to("light-switch", depth=0.01, speed=0.3)
    r = wait_lamp(xr, True, "after the non-dominant index fingertip touched the switch")
    non.move_hand(front_point(r, spot, 0.08), anchor="fingertip", speed=0.3)
    assert_still(xr, r, True, 20, "after the non-dominant fingertip left the switch")
    assert_no_errors(xr)
