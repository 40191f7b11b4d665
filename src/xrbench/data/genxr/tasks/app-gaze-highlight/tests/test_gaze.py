"""Runtime tests of the gaze-highlighted targets.

They check that
- three spheres tagged 'gaze-target', each 0.2 m across, have their centres at eye height (1.5 m)
  on an arc 1.5 m from the start, straight ahead and 40 degrees to either side; the tagged object
  is the sphere itself, the cylinder is gone, and looking straight ahead at the start highlights
  the centre target only;
- a target is highlighted exactly while the angle between the head's view direction and the
  direction from the head to its centre is at most 10 degrees: the head sweeps across all three
  targets sideways and across the centre target up and down in 2-degree steps, and looks 7 and
  13 degrees off each target's centre to its side, above, below and diagonally (approaching and
  leaving), so a highlight that starts or stops a degree or more from 10 degrees, that uses only
  the sideways angle, or that measures to the sphere's edge fails;
- nothing is highlighted while the user looks between two targets (20 degrees from each), above
  them, down at the floor or behind;
- the gaze is measured from where the head is now: after a step to the side; crouching by 0.6 m
  (looking level, up at the targets, and above them) and standing up again with the head held
  still; and 3 m behind the start, where two targets are both within 10 degrees and only the one
  closer to the view direction may be highlighted (once the centre one, once the left one, so
  "the first in a list" fails whatever the list's order). The targets do not move while the user
  walks and crouches;
- every check is made 3 frames after the head reaches its pose, and the highlight holds while the
  user keeps looking (5 s, read every half second) and stays off while they look away;
- every check of which target is highlighted reads the targets' materials too: a highlighted
  target's colour or glow (emissive colour times emissiveIntensity) differs from its normal look
  (read while the user looks down at the floor) by at least 0.2 in a red, green or blue channel
  (the instruction: 0.25), and every other target looks exactly normal, so `state.highlighted`
  alone never passes and a highlight that fades out slowly fails.

Each test runs for a right- and for a left-dominant user (the hands play no part).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "gaze-target"
NAMES = ("left", "centre", "right")
EYE = 1.5
RADIUS = 1.5
HOMES = {
    "left": (-RADIUS * math.sin(math.radians(40)), EYE, -RADIUS * math.cos(math.radians(40))),
    "centre": (0.0, EYE, -RADIUS),
    "right": (RADIUS * math.sin(math.radians(40)), EYE, -RADIUS * math.cos(math.radians(40))),
}
HOME_TOL = 0.08  # metres (3 degrees at 1.5 m)
DIAMETER = 0.2
DIAMETER_TOL = 0.03  # a stated size, checked to within 15 %
STILL_TOL = 0.005  # metres a target may move while the user moves
LIMIT = 10.0  # degrees
MARGIN = 0.75  # degrees: no verdict is asked for where an angle is this close to 10 degrees
SETTLE = 2  # frames stepped after the frame the head reaches its pose: 3 frames with the pose
CLEAR = 0.2  # least change of a colour channel (0-1) that counts as a visible highlight
FAST = 100000.0  # degrees/s: a head turn in one frame
FLOOR = (0.0, 0.0, -1.0)  # a spot on the floor: every target is over 40 degrees from it

Vec = tuple[float, float, float]

# One reading: the head (position, forward) and every object tagged `gaze-target` (world centre of
# its bounding box, world position, size, state, and its material's colour, emissive colour and
# emissiveIntensity).
_READ_JS = """
(h, arg) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  const camera = h.guard(h.core.camera, 'the camera');
  scene.updateMatrixWorld(true);
  camera.updateMatrixWorld(true);
  const head = new THREE.Vector3().setFromMatrixPosition(camera.matrixWorld);
  const forward = new THREE.Vector3(0, 0, -1).transformDirection(camera.matrixWorld);
  const targets = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== arg.tag) return;
    const box = new THREE.Box3().setFromObject(o);
    const state = d.state && typeof d.state === 'object' ? JSON.parse(JSON.stringify(d.state)) : null;
    let m = o.material;
    if (Array.isArray(m)) m = m[0];
    if (m) h.guard(m, 'the material of ' + (o.name || o.type));
    const hex = (c) => (c && c.isColor ? c.getHex() : null);
    targets.push({
      centre: box.isEmpty() ? null : box.getCenter(new THREE.Vector3()).toArray(),
      size: box.isEmpty() ? null : box.getSize(new THREE.Vector3()).toArray(),
      position: o.getWorldPosition(new THREE.Vector3()).toArray(),
      state,
      color: m ? hex(m.color) : null,
      emissive: m ? hex(m.emissive) : null,
      intensity: m && typeof m.emissiveIntensity === 'number' ? m.emissiveIntensity : null,
    });
  });
  return {head: head.toArray(), forward: forward.toArray(), targets};
}
"""


def _sub(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _add(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _scale(a: Sequence[float], k: float) -> Vec:
    return (a[0] * k, a[1] * k, a[2] * k)


def _norm(a: Sequence[float]) -> Vec:
    n = math.sqrt(sum(c * c for c in a))
    return _scale(a, 1.0 / n)


def _cross(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _angle(a: Sequence[float], b: Sequence[float]) -> float:
    a, b = _norm(a), _norm(b)
    return math.degrees(math.acos(max(-1.0, min(1.0, sum(x * y for x, y in zip(a, b, strict=True))))))


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _look_of(t: dict) -> tuple:
    """(colour r, g, b, glow r, g, b) on a 0-1 scale; glow = emissive colour x emissiveIntensity."""

    def rgb(x):
        x = 0 if x is None else int(x)
        return ((x >> 16) & 255) / 255.0, ((x >> 8) & 255) / 255.0, (x & 255) / 255.0

    k = 1.0 if t["intensity"] is None else float(t["intensity"])
    return rgb(t["color"]) + tuple(round(c * k, 5) for c in rgb(t["emissive"]))


def _describe(look: tuple) -> str:
    return "colour " + _fmt(look[:3]) + ", glow " + _fmt(look[3:])


@dataclass
class Reading:
    head: Vec
    forward: Vec
    targets: list[dict]  # left, centre, right

    def angles(self) -> list[float]:
        """Degrees between the view direction and the direction from the head to each centre."""
        return [_angle(self.forward, _sub(t["centre"], self.head)) for t in self.targets]

    def highlighted(self) -> list[bool]:
        out = []
        for name, t in zip(NAMES, self.targets, strict=True):
            s = t["state"]
            assert isinstance(s, dict) and isinstance(s.get("highlighted"), bool), (
                f"expected state.highlighted (true or false) on the {name} target; observed state {s!r}"
            )
            out.append(s["highlighted"])
        return out

    def looks(self) -> list[tuple]:
        return [_look_of(t) for t in self.targets]


def read(xr) -> Reading:
    r = xr.probe(_READ_JS, {"tag": TAG})
    ts = r["targets"]
    assert len(ts) == 3, f"expected 3 objects tagged {TAG!r}; observed {len(ts)}"
    for t in ts:
        assert t["centre"] is not None, f"a target tagged {TAG!r} has no geometry (empty bounding box)"
        assert t["color"] is not None or t["emissive"] is not None, (
            f"a target tagged {TAG!r} has no material with a colour: the tagged object must be the target mesh"
        )
    ts = sorted(ts, key=lambda t: t["centre"][0])
    return Reading(tuple(r["head"]), tuple(r["forward"]), ts)


def hold(xr, frames: int = SETTLE) -> Reading:
    if frames:
        xr.step(frames)
    return read(xr)


def look(xr, point: Sequence[float], *, speed: float = FAST) -> Reading:
    """Turn the head to look at `point` (in one frame by default) and read 3 frames later."""
    xr.head.look_at(tuple(point), speed=speed)
    return hold(xr)


def gaze_point(head: Sequence[float], target: Sequence[float], off: float, toward: float) -> Vec:
    """A point 2 m from the head, `off` degrees from the target's centre; `toward` is the direction
    of the offset around it, in degrees: 0 to the target's right, 90 above it, 180 left, 270 below."""
    u = _norm(_sub(target, head))
    right = _norm(_cross(u, (0.0, 1.0, 0.0)))
    up = _cross(right, u)
    a, b = math.radians(off), math.radians(toward)
    side = _add(_scale(right, math.cos(b)), _scale(up, math.sin(b)))
    d = _add(_scale(u, math.cos(a)), _scale(side, math.sin(a)))
    return _add(head, _scale(d, 2.0))


def normal_looks(xr) -> list[tuple]:
    """Each target's normal look, read while the user looks down at the floor (no target within 10 degrees)."""
    r = look(xr, FLOOR)
    assert r.highlighted() == [False, False, False], (
        f"looking down at the floor (every target over 40 degrees away): expected no target highlighted; "
        f"observed {dict(zip(NAMES, r.highlighted(), strict=True))}"
    )
    return r.looks()


def expect(r: Reading, which: str | None, why: str, normal: list[tuple] | None) -> None:
    """Only `which` (or no target) is highlighted, by state and, given the targets' `normal` looks,
    by material: the highlighted one clearly differs from its normal look, the others look normal."""
    want = [name == which for name in NAMES]
    got = r.highlighted()
    angles = ", ".join(f"{n} {a:.1f}" for n, a in zip(NAMES, r.angles(), strict=True))
    assert got == want, (
        f"{why}: expected {'only the ' + which + ' target' if which else 'no target'} highlighted; observed "
        f"highlighted = {dict(zip(NAMES, got, strict=True))} (degrees from the view direction: {angles}; "
        f"head at {_fmt(r.head)})"
    )
    if normal is None:
        return
    for name, now, usual in zip(NAMES, r.looks(), normal, strict=True):
        if name == which:
            change = max(abs(a - b) for a, b in zip(now, usual, strict=True))
            assert change >= CLEAR, (
                f"{why}: the {name} target is highlighted but its material changed by only {change:.3f} "
                f"(at least 0.25 in a red, green or blue channel asked): {_describe(now)}; normal {_describe(usual)}"
            )
        else:
            assert max(abs(a - b) for a, b in zip(now, usual, strict=True)) < 1e-3, (
                f"{why}: the {name} target is not highlighted but does not look normal: {_describe(now)} "
                f"instead of {_describe(usual)}"
            )


def expect_by_angle(r: Reading, why: str, normal: list[tuple]) -> bool:
    """Check the highlight against the head's real pose: the target closest to the view direction if
    it is within 10 degrees, else none. Returns False (and checks nothing) where an angle is within
    MARGIN of 10 degrees or two targets within 10 degrees are nearly equally close."""
    angles = r.angles()
    if any(abs(a - LIMIT) < MARGIN for a in angles):
        return False
    inside = sorted((a, n) for a, n in zip(angles, NAMES, strict=True) if a <= LIMIT)
    if len(inside) > 1 and inside[1][0] - inside[0][0] < 1.0:
        return False
    expect(r, inside[0][1] if inside else None, why, normal)
    return True


def centres(xr) -> dict[str, Vec]:
    return dict(zip(NAMES, (tuple(t["centre"]) for t in read(xr).targets), strict=True))


def expect_still(xr, where: dict[str, Vec], why: str) -> None:
    now = centres(xr)
    for name in NAMES:
        moved = math.dist(now[name], where[name])
        assert moved <= STILL_TOL, (
            f"{why}: expected the {name} target to stay at {_fmt(where[name])}; observed it at "
            f"{_fmt(now[name])}, {moved:.3f} m away"
        )


def test_three_targets_on_the_arc_replace_the_cylinder(xr):
    r = hold(xr, 3)
    for name, t in zip(NAMES, r.targets, strict=True):
        size = t["size"]
        assert all(abs(s - DIAMETER) <= DIAMETER_TOL for s in size), (
            f"expected the {name} target to be a sphere {DIAMETER} m across (within {DIAMETER_TOL} m); "
            f"observed bounding box size {_fmt(size)}"
        )
        off = math.dist(t["centre"], HOMES[name])
        assert off <= HOME_TOL, (
            f"expected the {name} target's centre at {_fmt(HOMES[name])} (eye height, 1.5 m from the start, "
            f"{'straight ahead' if name == 'centre' else '40 degrees to the ' + name}; within {HOME_TOL} m); "
            f"observed {_fmt(t['centre'])}, {off:.3f} m away"
        )
        apart = math.dist(t["position"], t["centre"])
        assert apart <= 0.01, (
            f"expected the tagged object to be the {name} sphere itself (its position the sphere's centre); "
            f"observed its position {_fmt(t['position'])}, {apart:.3f} m from the centre {_fmt(t['centre'])}"
        )
    cylinders = [m for m in xr.drawn(("mesh",)) if "Cylinder" in m.geometry]
    assert not cylinders, f"expected the cylinder replaced by the targets; observed visible cylinders {cylinders}"
    expect(r, "centre", "at the start, looking straight ahead at the centre target", None)
    assert_no_errors(xr)


def test_the_highlight_starts_and_stops_at_10_degrees_while_the_head_sweeps(xr):
    xr.step(1)
    normal = normal_looks(xr)
    checked = 0
    # Sideways, at eye level, from 56 degrees right to 56 degrees left in 2-degree steps.
    for yaw in range(-56, 57, 2):
        a = math.radians(yaw)
        r = look(xr, (-2.0 * math.sin(a), EYE, -2.0 * math.cos(a)))
        checked += expect_by_angle(r, f"looking {abs(yaw)} degrees to the {'left' if yaw > 0 else 'right'}", normal)
    # Up and down across the centre target, from 24 degrees below to 24 degrees above.
    for pitch in range(-24, 25, 2):
        a = math.radians(pitch)
        r = look(xr, (0.0, EYE + 2.0 * math.sin(a), -2.0 * math.cos(a)))
        checked += expect_by_angle(
            r, f"looking straight ahead, {abs(pitch)} degrees {'up' if pitch > 0 else 'down'}", normal
        )
    assert checked >= 70, f"only {checked} poses away from the 10-degree boundary were checked"
    assert_no_errors(xr)


def test_off_centre_gaze_highlights_within_10_degrees_in_every_direction(xr):
    xr.step(1)
    normal = normal_looks(xr)
    where = centres(xr)
    head = read(xr).head
    # For each target, around it: approach from 13 to 7 degrees off its centre, then leave again.
    for name, toward in (("left", 90), ("left", 315), ("right", 270), ("right", 135), ("centre", 45), ("centre", 200)):
        for off in (13, 7, 3, 7, 13):
            r = look(xr, gaze_point(head, where[name], off, toward))
            side = {
                0: "right",
                45: "upper right",
                90: "above",
                135: "upper left",
                200: "left, a little below",
                270: "below",
                315: "lower right",
            }[toward]
            expect(
                r,
                name if off < LIMIT else None,
                f"looking {off} degrees off the {name} target's centre ({side})",
                normal,
            )
    assert_no_errors(xr)


def test_nothing_is_highlighted_between_targets_or_looking_away(xr):
    xr.step(1)
    normal = normal_looks(xr)
    where = centres(xr)
    between = tuple((a + b) / 2 for a, b in zip(where["centre"], where["right"], strict=True))  # 20 deg from each
    expect(look(xr, between), None, "looking half-way between the centre and right targets", normal)
    between = tuple((a + b) / 2 for a, b in zip(where["centre"], where["left"], strict=True))
    expect(look(xr, between), None, "looking half-way between the centre and left targets", normal)
    expect(look(xr, (0.0, EYE + 0.6, -1.5)), None, "looking 22 degrees above the centre target", normal)
    expect(look(xr, (0.0, 3.0, -0.2)), None, "looking up at the ceiling", normal)
    expect(look(xr, where["right"]), "right", "looking at the right target", normal)
    expect(look(xr, (0.3, EYE, 2.0)), None, "looking behind", normal)
    expect(look(xr, FLOOR), None, "looking down at the floor", normal)
    assert_no_errors(xr)


def test_the_highlight_follows_the_head_from_target_to_target(xr):
    xr.step(1)
    normal = normal_looks(xr)
    where = centres(xr)
    # Gradual turns (3 degrees a frame), read 3 frames after the head stops.
    for name in ("centre", "left", "right", "centre", "left"):
        expect(look(xr, where[name], speed=180.0), name, f"after turning to the {name} target", normal)
    # The highlight holds while the user keeps looking, and stays off while they look away.
    for i in range(10):
        expect(hold(xr, 30), "left", f"{(i + 1) * 0.5:.1f} s after turning to the left target", normal)
    expect(look(xr, FLOOR), None, "3 frames after looking away from the left target to the floor", normal)
    for i in range(4):
        expect(hold(xr, 30), None, f"{(i + 1) * 0.5:.1f} s after looking away to the floor", normal)
    assert_no_errors(xr)


def test_the_gaze_is_measured_from_where_the_head_is_after_a_step_aside(xr):
    xr.step(1)
    normal = normal_looks(xr)
    where = centres(xr)
    xr.head.move((0.9, 0.0, 0.0))  # a step to the right, still looking at the floor
    expect_still(xr, where, "after a step to the right")
    expect(look(xr, where["centre"]), "centre", "looking at the centre target from 0.9 m to the right", normal)
    expect(look(xr, where["left"]), "left", "looking at the left target from 0.9 m to the right", normal)
    # Straight ahead from here, the right target is 3 degrees away and the centre one 31 degrees.
    home = read(xr).head
    expect(
        look(xr, _add(home, (0.0, 0.0, -2.0))),
        "right",
        "looking straight ahead (along -z, as at the start) from 0.9 m to the right",
        normal,
    )
    assert_no_errors(xr)


def test_crouching_and_standing_up_change_what_is_looked_at(xr):
    xr.step(1)
    normal = normal_looks(xr)
    where = centres(xr)
    xr.head.look_at((0.0, EYE, -2.0), speed=FAST)  # level, straight ahead
    xr.head.move((0.0, -0.6, 0.0))  # crouch: eyes at 0.9 m, still looking level
    expect_still(xr, where, "after crouching")
    expect(
        hold(xr), None, "crouching (eyes 0.6 m lower) and looking level: the centre target is 22 degrees above", normal
    )
    expect(look(xr, where["centre"]), "centre", "crouching and looking up at the centre target", normal)
    head = read(xr).head
    expect(
        look(xr, gaze_point(head, where["centre"], 12, 90)),
        None,
        "crouching and looking 12 degrees above the centre target",
        normal,
    )
    expect(look(xr, where["right"]), "right", "crouching and looking up at the right target", normal)
    xr.head.move((0.0, 0.6, 0.0))  # stand up, the head held still: the right target is 22 degrees below
    expect(hold(xr), None, "standing up again while looking where the right target was seen from the crouch", normal)
    xr.head.move((0.0, -0.6, 0.0))  # and crouch again, the head held still
    expect(hold(xr), "right", "crouching again, looking where the right target is", normal)
    assert_no_errors(xr)


def test_only_the_closest_of_two_targets_within_10_degrees_is_highlighted(xr):
    xr.step(1)
    normal = normal_looks(xr)
    where = centres(xr)
    xr.head.move((0.0, 0.0, 3.0))  # 3 m behind the start: the left and centre targets 13 degrees apart
    expect_still(xr, where, "after walking back 3 m")
    head = read(xr).head
    apart = _angle(_sub(where["left"], head), _sub(where["centre"], head))
    to_left = 180.0  # around the centre target, towards the left one (both at eye height)
    for off, which in ((5.0, "centre"), (apart - 5.0, "left"), (5.0, "centre"), (apart - 5.0, "left")):
        r = look(xr, gaze_point(head, where["centre"], off, to_left))
        a = r.angles()
        assert a[0] <= LIMIT - 1 and a[1] <= LIMIT - 1, (
            f"test setup: both targets should be within 10 degrees; angles {a}"
        )
        expect(
            r,
            which,
            f"3 m behind the start, looking {a[1]:.1f} degrees from the centre target and {a[0]:.1f} "
            f"from the left target",
            normal,
        )
    expect(look(xr, where["right"]), "right", "3 m behind the start, looking at the right target", normal)
    assert_no_errors(xr)
