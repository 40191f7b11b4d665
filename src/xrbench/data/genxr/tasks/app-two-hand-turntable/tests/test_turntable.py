"""Runtime tests of the two-handed turntable app.

They check that
- the object tagged 'turntable-model' is one box 0.3 x 0.1 x 0.16 m centred at (0, 1.2, -0.7),
  axis-aligned (its world bounding box and orientation), that the cylinder is gone and that its
  state starts at `hands` 0;
- a hand grabs it by pinching while its ray points at it (`state.hands`), either hand first; one
  hand's pinch alone, hands moving without a pinch, and a pinch with the ray 35 cm beside it turn
  nothing;
- turning starts when the second hand pinches: while its fingers close the yaw does not change;
  after every step of a steering motion (the right hand forward and the left back, then the other
  way past the start) the car's yaw is its yaw at the second grab plus the change of the
  horizontal direction from the left to the right wrist (world wrist joints), within 3 degrees,
  two frames after the hands stop; moving both hands sideways together or raising/lowering one
  hand does not turn it; a grabbing hand whose ray is turned away keeps holding;
- turning stops when either hand lets go: the yaw stays (within 0.5 degrees) while its fingers
  open and while either hand moves afterwards; a new two-handed grab in the other order turns it
  from the kept angle;
- whatever the hands do, the car's centre stays put, it stays upright and keeps its size.

Each test runs for a right- and for a left-dominant user. The car is read from the tagged
object's world bounding box, world orientation and world scale; the wrists from the simulated
hands' wrist joints, in one reading per frame. The hands stay at least 3 cm from the car (no
direct touch).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors

CAR = "turntable-model"
CENTRE = (0.0, 1.2, -0.7)
SIZE = (0.3, 0.1, 0.16)
SIZE_TOL = 0.01  # metres, the stated box edges
CENTRE_TOL = 0.01  # metres the car's centre may be from (0, 1.2, -0.7)
TILT_TOL = 2.0  # degrees the car's up axis may lean
FOLLOW = 3.0  # degrees: the stated tolerance of the yaw against the wrist direction
STILL = 0.5  # degrees the yaw may change where it must not
CLEARANCE = 0.03  # metres between the fingertips and the car
CLOSE_FRAMES = 24  # frames for the simulated fingers to close or open
STEP = 0.04  # metres each hand moves forward/back per steering step

pytestmark = pytest.mark.xr_scenes("empty")

Vec = tuple[float, float, float]

# One frame's reading: every object tagged `arg.tag` (world bounding box, yaw, tilt, world scale,
# state) and both hands' wrists and index fingertips in the world.
_SAMPLE_JS = """
(h, arg) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const cars = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== arg.tag) return;
    const box = new THREE.Box3().setFromObject(o);
    const state = d.state && typeof d.state === 'object' ? JSON.parse(JSON.stringify(d.state)) : null;
    const pos = new THREE.Vector3(), quat = new THREE.Quaternion(), scale = new THREE.Vector3();
    o.matrixWorld.decompose(pos, quat, scale);
    const x = new THREE.Vector3(1, 0, 0).applyQuaternion(quat);
    const up = new THREE.Vector3(0, 1, 0).applyQuaternion(quat);
    cars.push({min: box.isEmpty() ? null : box.min.toArray(), max: box.isEmpty() ? null : box.max.toArray(),
               state, yaw: Math.atan2(-x.z, x.x) * 180 / Math.PI,
               tilt: Math.acos(Math.max(-1, Math.min(1, up.y))) * 180 / Math.PI, scale: scale.toArray()});
  });
  const wrists = {}, tips = {};
  for (const [i, name] of [[0, 'left'], [1, 'right']]) {
    const space = h.core.input.hands[i];
    const joints = space && space.joints;
    if (!joints || !joints['wrist'] || !joints['index-finger-tip']) continue;
    for (const [key, out] of [['wrist', wrists], ['index-finger-tip', tips]]) {
      h.guard(joints[key], name + ' ' + key).updateWorldMatrix(true, false);
      out[name] = new THREE.Vector3().setFromMatrixPosition(joints[key].matrixWorld).toArray();
    }
  }
  return {cars, wrists, tips};
}
"""


def _fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def wrap(a: float) -> float:
    """An angle in degrees, wrapped to (-180, 180]."""
    a = math.fmod(a + 180.0, 360.0)
    if a <= 0:
        a += 360.0
    return a - 180.0


@dataclass
class Obs:
    lo: Vec
    hi: Vec
    yaw: float  # degrees, counter-clockwise seen from above
    tilt: float  # degrees the car's up axis leans
    scale: Vec
    state: Any
    wrists: dict[str, Vec]
    tips: dict[str, Vec]

    @property
    def size(self) -> Vec:
        return tuple(self.hi[i] - self.lo[i] for i in range(3))

    @property
    def centre(self) -> Vec:
        return tuple((self.hi[i] + self.lo[i]) / 2 for i in range(3))

    @property
    def direction(self) -> float:
        """Horizontal direction from the left to the right wrist, degrees counter-clockwise from +x."""
        a, b = self.wrists["left"], self.wrists["right"]
        return math.degrees(math.atan2(-(b[2] - a[2]), b[0] - a[0]))

    def hands(self) -> Any:
        return self.state.get("hands") if isinstance(self.state, dict) else None


def look(xr) -> Obs:
    r = xr.probe(_SAMPLE_JS, {"tag": CAR})
    cars = r["cars"]
    assert len(cars) == 1, f"expected exactly one object tagged {CAR!r}; observed {len(cars)}"
    c = cars[0]
    assert c["min"] is not None, f"expected the object tagged {CAR!r} to have geometry; its bounding box is empty"
    assert set(r["wrists"]) == {"left", "right"}, "the simulated hands have no joints"
    return Obs(
        tuple(c["min"]),
        tuple(c["max"]),
        c["yaw"],
        c["tilt"],
        tuple(c["scale"]),
        c["state"],
        {k: tuple(v) for k, v in r["wrists"].items()},
        {k: tuple(v) for k, v in r["tips"].items()},
    )


def side(xr, role: str) -> float:
    """+1 for the hand on the user's right, -1 for the left one."""
    return 1.0 if xr.handedness(role) == "right" else -1.0


def assert_in_place(obs: Obs, start: Obs, when: str) -> None:
    """The car's centre is at CENTRE, it is upright and has its starting world scale."""
    off = math.dist(obs.centre, CENTRE)
    assert off <= CENTRE_TOL, (
        f"expected the car's centre to stay at {CENTRE} (within {CENTRE_TOL} m) {when}; observed {_fmt(obs.centre)}"
    )
    assert obs.tilt <= TILT_TOL, f"expected the car to stay upright {when}; observed it tilted {obs.tilt:.1f} degrees"
    for a, b in zip(obs.scale, start.scale, strict=True):
        assert abs(a - b) <= 0.01 * abs(b), (
            f"expected the car to keep its size {when}; observed its world scale {_fmt(obs.scale)}, "
            f"at the start {_fmt(start.scale)}"
        )
    for name, tip in obs.tips.items():
        d = math.dist(tip, tuple(min(max(tip[i], obs.lo[i]), obs.hi[i]) for i in range(3)))
        assert d >= CLEARANCE, f"test setup: the {name} fingertip came within {d:.3f} m of the car {when}"


def assert_yaw(obs: Obs, want: float, tol: float, when: str) -> None:
    err = abs(wrap(obs.yaw - want))
    assert err <= tol, (
        f"expected the car's yaw {want:.1f} degrees (within {tol} degrees, counter-clockwise seen from above) "
        f"{when}; observed {obs.yaw:.1f} degrees (the wrist direction {obs.direction:.1f} degrees)"
    )


def assert_hands(obs: Obs, hands: int, when: str) -> None:
    assert obs.hands() == hands, f"expected state.hands {hands} {when}; observed state {obs.state!r}"


def get_ready(xr) -> Obs:
    """Both hands 25 cm to either side, below and in front of the eyes, their rays on the car."""
    xr.step(1)
    for role in ("dominant", "non_dominant"):
        xr.hand(role).move_hand((side(xr, role) * 0.25, 1.05, -0.2))
    for role in ("dominant", "non_dominant"):
        xr.hand(role).point_to(CAR)
    xr.step(2)
    obs = look(xr)
    assert_in_place(obs, obs, "with both hands ready")
    return obs


def aim(xr, role: str, at: Any) -> None:
    xr.hand(role).point_to(at)
    xr.step(1)


def pinch_still(xr, role: str, start: Obs, when: str) -> Obs:
    """`role` pinches: frame by frame while its fingers close, the car's yaw does not change."""
    before = look(xr)
    xr.hand(role).start_select(1)
    for _ in range(CLOSE_FRAMES):
        assert_yaw(look(xr), before.yaw, STILL, f"while {when} pinched")
        xr.step(1)
    obs = look(xr)
    assert_yaw(obs, before.yaw, STILL, f"once {when} had pinched")
    assert_in_place(obs, start, f"once {when} had pinched")
    return obs


def release_still(xr, role: str, start: Obs, when: str) -> Obs:
    """`role` opens its pinch: frame by frame while its fingers open, the yaw does not change."""
    before = look(xr)
    xr.hand(role).end_select(1)
    for _ in range(CLOSE_FRAMES):
        assert_yaw(look(xr), before.yaw, STILL, f"while {when} let go")
        xr.step(1)
    obs = look(xr)
    assert_in_place(obs, start, f"after {when} let go")
    return obs


@dataclass
class Turn:
    """A two-handed turn: the car's yaw and the wrist direction when the second hand grabbed."""

    yaw: float
    direction: float

    def want(self, obs: Obs) -> float:
        return self.yaw + wrap(obs.direction - self.direction)

    def check(self, xr, start: Obs, when: str) -> Obs:
        xr.step(2)
        obs = look(xr)
        assert_yaw(
            obs,
            self.want(obs),
            FOLLOW,
            f"{when} (the car's yaw was {self.yaw:.1f} degrees at the grab, "
            f"the wrist direction turned {wrap(obs.direction - self.direction):.1f} degrees since)",
        )
        assert_in_place(obs, start, when)
        assert_hands(obs, 2, when)
        return obs


def grab_both(xr, first: str, second: str, start: Obs, when: str) -> Turn:
    obs = pinch_still(xr, first, start, f"the {first} hand (first) {when}")
    assert_hands(obs, 1, f"once the {first} hand grabbed first {when}")
    obs = pinch_still(xr, second, start, f"the {second} hand (second) {when}")
    assert_hands(obs, 2, f"once both hands grabbed {when}")
    return Turn(obs.yaw, obs.direction)


def steer(xr, d: float, roles=("dominant", "non_dominant")) -> None:
    """The right hand moves `d` metres forward (-z) and the left `d` back (+z): counter-clockwise seen from above."""
    for role in roles:
        xr.hand(role).move_by((0.0, 0.0, -d * side(xr, role)))


# --- tests ------------------------------------------------------------------------------------


def test_a_model_car_replaces_the_cylinder(xr):
    xr.step(1)
    obs = look(xr)
    assert all(abs(s - w) <= SIZE_TOL for s, w in zip(obs.size, SIZE, strict=True)), (
        f"expected a box {SIZE} m along x, y, z (within {SIZE_TOL} m); observed its bounding box {_fmt(obs.size)}"
    )
    assert_in_place(obs, obs, "at the start")
    assert_yaw(obs, 0.0, 1.0, "at the start (axis-aligned)")
    assert_hands(obs, 0, "at the start")
    cylinders = [m for m in xr.drawn(("mesh",)) if "Cylinder" in m.geometry]
    assert not cylinders, f"expected the cylinder replaced by the car; observed visible cylinders {cylinders}"
    assert_no_errors(xr)


@pytest.mark.parametrize("first", ["dominant", "non_dominant"])
def test_both_hands_turn_it_like_a_steering_wheel(xr, first):
    start = get_ready(xr)
    second = "non_dominant" if first == "dominant" else "dominant"
    obs = pinch_still(xr, first, start, f"the {first} hand (first)")
    assert_hands(obs, 1, f"once the {first} hand grabbed first")
    xr.hand(first).move_by((0.0, 0.0, -side(xr, first) * STEP))  # alone, as a steering move: nothing
    xr.step(2)
    assert_yaw(look(xr), 0.0, STILL, f"after the {first} hand moved 4 cm while holding the car alone")
    obs = pinch_still(xr, second, start, f"the {second} hand (second)")
    assert_hands(obs, 2, "once both hands grabbed")
    turn = Turn(obs.yaw, obs.direction)
    for i in range(1, 4):  # the right hand forward, the left back: counter-clockwise
        steer(xr, STEP)
        obs = turn.check(xr, start, f"after a steering step of {STEP * i * 100:.0f} cm each")
    assert obs.yaw >= 20.0, f"expected the car turned counter-clockwise by about 30 degrees; observed {obs.yaw:.1f}"
    # The first hand's ray turns away from the car: it still holds it.
    aim(xr, first, (side(xr, first) * 0.8, 1.6, -0.5))
    turn.check(xr, start, "after the first hand's ray turned away from the car")
    steer(xr, -3 * STEP)
    obs = turn.check(xr, start, "after steering back to about the start")
    steer(xr, -3 * STEP)
    obs = turn.check(xr, start, "after steering further clockwise")
    assert obs.yaw <= -10.0, f"expected the car turned clockwise past its start; observed {obs.yaw:.1f} degrees"
    # Both hands sideways together, then one up and the other down: the direction does not change.
    before = obs.yaw
    for role in (first, second):
        xr.hand(role).move_by((0.06, 0.0, 0.0))
    obs = turn.check(xr, start, "after both hands moved 6 cm to the right")
    assert_yaw(obs, before, 1.0, "after both hands moved 6 cm to the right together")
    xr.hand(first).move_by((0.0, 0.1, 0.0))
    xr.hand(second).move_by((0.0, -0.05, 0.0))
    obs = turn.check(xr, start, "after one hand rose 10 cm and the other went down 5 cm")
    assert_yaw(obs, before, 1.0, "after one hand rose 10 cm and the other went down 5 cm")
    steer(xr, 1.5 * STEP)
    turn.check(xr, start, "after steering counter-clockwise again from there")
    assert_no_errors(xr)


def test_one_hand_alone_or_hands_without_pinching_do_not_turn_it(xr):
    start = get_ready(xr)
    for d in (STEP * 2, -STEP * 3):
        steer(xr, d)
        xr.step(2)
        obs = look(xr)
        assert_yaw(obs, 0.0, STILL, f"after both hands steered {d * 100:.0f} cm without pinching")
        assert_hands(obs, 0, "while no hand pinched")
        assert_in_place(obs, start, "while no hand pinched")
    start = get_ready(xr)
    obs = pinch_still(xr, "non_dominant", start, "the non-dominant hand alone")
    assert_hands(obs, 1, "while one hand held the car")
    hand, other = xr.hand("non_dominant"), xr.hand("dominant")
    for delta in ((0.0, 0.0, -0.08), (side(xr, "non_dominant") * -0.06, 0.0, 0.06), (0.0, 0.08, 0.0)):
        hand.move_by(delta)
        xr.step(2)
        obs = look(xr)
        assert_yaw(obs, 0.0, STILL, f"while one hand held the car and moved by {_fmt(delta)}")
        assert_in_place(obs, start, "while one hand held the car")
    for delta in ((0.0, 0.0, 0.08), (0.0, 0.0, -0.16)):
        other.move_by(delta)
        xr.step(2)
        obs = look(xr)
        assert_yaw(obs, 0.0, STILL, f"while the other hand moved by {_fmt(delta)} without pinching")
        assert_hands(obs, 1, "while the other hand did not pinch")
    # The other hand pinches with its ray 35 cm beside the car: not a grab.
    aim(xr, "dominant", (side(xr, "dominant") * 0.35, CENTRE[1], CENTRE[2]))
    other.pinch()
    obs = look(xr)
    assert_hands(obs, 1, "after the other hand pinched with its ray 35 cm beside the car")
    other.move_by((0.0, 0.0, 0.1))
    hand.move_by((0.0, 0.0, -0.05))
    xr.step(2)
    obs = look(xr)
    assert_yaw(obs, 0.0, STILL, "after the hands steered while the other hand's pinch missed the car")
    assert_in_place(obs, start, "while the other hand's pinch missed the car")
    other.release()
    hand.release()
    xr.step(2)
    obs = look(xr)
    assert_hands(obs, 0, "after the only hand that held the car let go")
    assert_yaw(obs, 0.0, STILL, "after the only hand that held the car let go")
    assert_no_errors(xr)


@pytest.mark.parametrize("first_out", ["dominant", "non_dominant"])
def test_letting_go_stops_the_turn_and_a_new_grab_turns_from_the_kept_angle(xr, first_out):
    start = get_ready(xr)
    turn = grab_both(xr, "dominant", "non_dominant", start, "")
    steer(xr, 2 * STEP)
    obs = turn.check(xr, start, f"after a steering step of {2 * STEP * 100:.0f} cm each")
    assert obs.yaw >= 15.0, f"expected the car turned counter-clockwise; observed {obs.yaw:.1f} degrees"
    other = "non_dominant" if first_out == "dominant" else "dominant"
    obs = release_still(xr, first_out, start, f"the {first_out} hand")
    assert_hands(obs, 1, f"after the {first_out} hand let go")
    kept = obs.yaw
    for d, roles in ((-STEP * 2, (first_out, other)), (STEP, (other,)), (-STEP, (first_out,))):
        steer(xr, d, roles)
        xr.step(2)
        obs = look(xr)
        assert_yaw(obs, kept, STILL, f"after the {first_out} hand let go and {' and '.join(roles)} hand(s) steered")
        assert_in_place(obs, start, "after one hand let go")
    obs = release_still(xr, other, start, f"the {other} hand too")
    assert_hands(obs, 0, "after both hands let go")
    xr.step(30)
    assert_yaw(look(xr), kept, STILL, "half a second after both hands let go")
    # Both grab again, the other hand first, and steer clockwise: from the kept angle.
    for role in (first_out, other):
        aim(xr, role, CAR)
    turn = grab_both(xr, other, first_out, start, "again")
    assert abs(wrap(turn.yaw - kept)) <= STILL
    for i in range(1, 3):
        steer(xr, -1.5 * STEP)
        obs = turn.check(xr, start, f"after steering {1.5 * STEP * i * 100:.0f} cm clockwise from the new grab")
    assert obs.yaw <= kept - 10.0, f"expected the car turned clockwise from {kept:.1f} degrees; observed {obs.yaw:.1f}"
    assert_no_errors(xr)
