"""Runtime tests of the head-following HUD.

They check that
- the object tagged 'hud' is one panel 0.3 m wide, 0.15 m high and at most 2 cm thick (measured
  along its own axes), that the cylinder is gone, and that 1 s after start-up the panel's centre is
  within 2 cm of its resting place (0.6 m ahead of the eyes along the horizontal heading, 0.15 m
  below them), facing the user, within reach;
- after a sudden quarter turn to the left (90 deg in one frame) and then a steady half turn to the
  right (3 deg a frame), and after a sudden step aside, the HUD glides: read every frame, it never
  covers more than a quarter of the way it still has to go (while that is over 5 cm), it lags
  behind the steadily turning head, its front points at the head in every frame (horizontally
  within 10 deg; vertically between upright and pointing at the head), and 1 s after the head
  stopped it is within 2 cm of its resting place (0.5 s after the sudden turn it has at most 15 %
  of the way left: it catches up in 0.2-0.5 s);
- small motions (an 8 deg turn, a 6 cm step) are followed all the way (no dead zone);
- with the head turned 60 deg, looking 30 deg down and then 20 deg up moves the HUD by less than
  1 cm in any frame (the heading is horizontal and scaled back to 0.6 m);
- crouching 0.4 m, turning while crouched and standing up again (in one frame: the HUD glides up,
  read every frame) take the HUD down and up with the eyes;
- after the user walks to another spot, the HUD has followed and faces the user.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from xrbench.xrtest.assertions import (
    assert_facing_user,
    assert_no_errors,
    assert_within_reach,
)
from xrbench.xrtest.session import rotate

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "hud"
AHEAD, BELOW = 0.6, 0.15
WIDTH, HEIGHT, THICK = 0.3, 0.15, 0.02
WIDTH_TOL, HEIGHT_TOL = 0.045, 0.03  # stated sizes, checked to within 15 % and 20 %
REST_TOL = 0.02  # "back at its resting place (within 2 cm)"
MEASURE_TOL = 0.003  # metres of measurement slack (the panel's centre is read from its box)
MAX_STEP = 0.25  # "in no single frame does it cover more than a quarter of the way"
STEP_FROM = 0.05  # ... "while that is more than a few centimetres"
STEP_SLACK = 0.02
CAUGHT_UP = 0.15  # "catches up ... in roughly 0.2-0.5 s": at most this part of the way left after 0.5 s
MIN_LAG = 0.06  # metres behind the resting place during a steady 3 deg/frame turn
FACE_YAW = 10.0  # degrees: the front turned towards the head horizontally
FACE_PITCH = 6.0  # degrees of slack around "upright" .. "pointing at the head"
STILL = 0.01  # metres the HUD may move while only the head's pitch changes
SUDDEN = 100000.0  # degrees/s: a head turn done in a single frame

Vec = tuple[float, float, float]

# One frame's reading in one call: every object tagged `tag` in the app's scene (the centre of its
# subtree's world box, its world orientation) and the head (eye position, view direction).
_SAMPLE_JS = """
(h, tag) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  const camera = h.guard(h.core.camera, 'the camera');
  scene.updateMatrixWorld(true);
  camera.updateMatrixWorld(true);
  const huds = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== tag) return;
    const box = new THREE.Box3().setFromObject(o, true);
    const centre = box.isEmpty() ? o.getWorldPosition(new THREE.Vector3()) : box.getCenter(new THREE.Vector3());
    huds.push({centre: centre.toArray(), quaternion: o.getWorldQuaternion(new THREE.Quaternion()).toArray()});
  });
  const eyes = new THREE.Vector3().setFromMatrixPosition(camera.matrixWorld);
  const forward = new THREE.Vector3(0, 0, -1).transformDirection(camera.matrixWorld);
  return {huds, eyes: eyes.toArray(), forward: forward.toArray()};
}
"""

# The extent of the tagged object's geometry (its whole subtree) along its own axes, in metres of
# the world (the object's world scale included).
_EXTENT_JS = """
(h, tag) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  let root = null;
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!root && d && String(d.tag) === tag) root = o;
  });
  if (!root) return null;
  const origin = root.getWorldPosition(new THREE.Vector3());
  const inverse = root.getWorldQuaternion(new THREE.Quaternion()).invert();
  const box = new THREE.Box3();
  const v = new THREE.Vector3();
  root.traverse((o) => {
    if (!o.visible) return;
    const g = o.geometry;
    const pos = g && g.attributes && g.attributes.position;
    if (!pos || o.isInstancedMesh) return;
    const index = g.index;
    const total = index ? index.count : pos.count;
    const start = g.drawRange ? Math.max(0, g.drawRange.start) : 0;
    const end = g.drawRange && Number.isFinite(g.drawRange.count) ? Math.min(total, start + g.drawRange.count) : total;
    for (let i = start; i < end; i++) {
      const k = index ? index.getX(i) : i;
      v.fromBufferAttribute(pos, k).applyMatrix4(o.matrixWorld).sub(origin).applyQuaternion(inverse);
      box.expandByPoint(v);
    }
  });
  if (box.isEmpty()) return {size: [0, 0, 0]};
  return {size: box.getSize(new THREE.Vector3()).toArray()};
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


@dataclass
class Frame:
    hud: Vec  # the panel's centre
    quaternion: tuple[float, float, float, float]  # its world orientation
    eyes: Vec
    forward: Vec

    @property
    def rest(self) -> Vec:
        """The resting place: 0.6 m ahead of the eyes along the horizontal heading, 0.15 m below."""
        fx, _, fz = self.forward
        n = math.hypot(fx, fz) or 1.0
        x, y, z = self.eyes
        return (x + AHEAD * fx / n, y - BELOW, z + AHEAD * fz / n)

    @property
    def off(self) -> float:
        """How far the panel's centre is from its resting place."""
        return math.dist(self.hud, self.rest)

    def facing_problem(self) -> str | None:
        """Why the panel's front (+Z) does not point at the head, or None when it does.

        Horizontally it must point at the head within 10 deg; vertically anywhere from upright to
        pointing at the head (6 deg of slack either way).
        """
        front = rotate(self.quaternion, (0.0, 0.0, 1.0))
        to_head = tuple(self.eyes[i] - self.hud[i] for i in range(3))
        flat = math.hypot(front[0], front[2])
        if flat < 0.5:
            return f"its front {_fmt(front)} points {'up' if front[1] > 0 else 'down'}, not at the head"
        cross = front[0] * to_head[2] - front[2] * to_head[0]
        dot = front[0] * to_head[0] + front[2] * to_head[2]
        yaw = math.degrees(abs(math.atan2(cross, dot)))
        if yaw > FACE_YAW:
            return (
                f"its front {_fmt(front)} is turned {yaw:.0f} deg to the side of the direction to the head "
                f"(at most {FACE_YAW:.0f} deg)"
            )
        pitch = math.degrees(math.atan2(front[1], flat))
        to_head_pitch = math.degrees(math.atan2(to_head[1], math.hypot(to_head[0], to_head[2])))
        lo, hi = min(0.0, to_head_pitch) - FACE_PITCH, max(0.0, to_head_pitch) + FACE_PITCH
        if not lo <= pitch <= hi:
            return (
                f"its front {_fmt(front)} is pitched {pitch:+.0f} deg; expected between upright and pointing at "
                f"the head ({to_head_pitch:+.0f} deg)"
            )
        return None


def sample(xr) -> Frame:
    """The HUD and the head now."""
    __tracebackhide__ = True
    got = xr.probe(_SAMPLE_JS, TAG)
    huds = got["huds"]
    assert len(huds) == 1, f"expected exactly one object tagged {TAG!r} in the scene; observed {len(huds)}"
    return Frame(tuple(huds[0]["centre"]), tuple(huds[0]["quaternion"]), tuple(got["eyes"]), tuple(got["forward"]))


def assert_at_rest(xr, when: str, frame: Frame | None = None) -> Frame:
    """Within 2 cm of the resting place and facing the user."""
    __tracebackhide__ = True
    f = frame or sample(xr)
    rest = f.rest
    assert f.off <= REST_TOL + MEASURE_TOL, (
        f"{when}: expected the HUD's centre within {REST_TOL} m of its resting place {_fmt(rest)} (0.6 m ahead of "
        f"the eyes {_fmt(f.eyes)} along the horizontal heading, 0.15 m below them); observed {_fmt(f.hud)}, "
        f"{f.off:.3f} m away ({f.hud[1] - f.eyes[1]:+.3f} m from eye height, "
        f"{math.hypot(f.hud[0] - f.eyes[0], f.hud[2] - f.eyes[2]):.3f} m from the eyes horizontally)"
    )
    problem = f.facing_problem()
    assert problem is None, f"{when}: expected the HUD to face the user; {problem}"
    try:
        assert_facing_user(xr, TAG, max_angle=30)
    except AssertionError as e:
        raise AssertionError(f"{when}: {e}") from None
    return f


def follow_frames(xr, before: Frame, frames: int, what: str) -> list[Frame]:
    """Step `frames` frames one by one after a head motion; check every frame that the HUD glides
    (no frame covers more than a quarter of the way left, while that is over 5 cm) and faces the
    head. `before` is the reading just before the frame being checked first."""
    __tracebackhide__ = True
    out = []
    prev = before
    for i in range(frames):
        xr.step(1)
        f = sample(xr)
        check_glide_step(prev, f, f"{what}, frame {i + 1} after the head stopped")
        out.append(f)
        prev = f
    return out


def check_glide_step(prev: Frame, f: Frame, when: str) -> None:
    """One frame of gliding: covers at most a quarter of the way left, and faces the head."""
    __tracebackhide__ = True
    way = math.dist(prev.hud, f.rest)
    moved = math.dist(prev.hud, f.hud)
    if way > STEP_FROM:
        assert moved <= (MAX_STEP + STEP_SLACK) * way, (
            f"{when}: the HUD moved {moved:.3f} m in one frame, {moved / way:.0%} of the {way:.3f} m it still had to "
            f"go: it jumps instead of gliding (at most a quarter of the way per frame)"
        )
    problem = f.facing_problem()
    assert problem is None, f"{when}: expected the HUD to face the head while it glides; {problem}"


def turn_sampled(xr, yaw: float = 0.0, pitch: float = 0.0, *, step: float = 3.0) -> list[tuple[Frame, Frame]]:
    """Turn the head by `yaw`/`pitch` degrees, `step` degrees a frame, reading the HUD every frame.
    Returns (before, after) pairs of readings, one per frame."""
    n = max(1, math.ceil(max(abs(yaw), abs(pitch)) / step))
    pairs = []
    prev = sample(xr)
    for _ in range(n):
        xr.head.rotate(yaw=yaw / n, pitch=pitch / n, speed=SUDDEN)
        f = sample(xr)
        pairs.append((prev, f))
        prev = f
    return pairs


def hud_extent(xr) -> Vec:
    got = xr.probe(_EXTENT_JS, TAG)
    assert got is not None, f"expected an object tagged {TAG!r} in the scene"
    return tuple(got["size"])


# --- tests ------------------------------------------------------------------------------------


def test_the_hud_panel_replaces_the_cylinder_and_rests_ahead_below_the_eyes(xr):
    xr.step(1)
    xr.wait(1000)
    sample(xr)  # exactly one tagged object
    w, hgt, t = hud_extent(xr)
    assert abs(w - WIDTH) <= WIDTH_TOL and abs(hgt - HEIGHT) <= HEIGHT_TOL and t <= THICK + 0.002, (
        f"expected a panel 0.3 m wide (local x), 0.15 m high (local y) and at most 2 cm thick (local z); "
        f"observed {w:.3f} x {hgt:.3f} x {t:.3f} m"
    )
    cylinders = [m for m in xr.drawn(("mesh",)) if "Cylinder" in m.geometry]
    assert not cylinders, f"expected the starting app's cylinder to be replaced by the HUD; observed {cylinders}"
    f = assert_at_rest(xr, "1 s after start-up")
    assert abs(f.hud[1] - (f.eyes[1] - BELOW)) <= REST_TOL, (
        f"1 s after start-up: expected the HUD 0.15 m below the eyes; observed {f.hud[1] - f.eyes[1]:+.3f} m"
    )
    assert_within_reach(xr, TAG)
    assert_no_errors(xr)


def test_the_hud_glides_after_head_turns_facing_the_head(xr):
    """A sudden quarter turn to the left (in one frame), then a steady half turn to the right."""
    xr.step(1)
    xr.wait(1000)
    before = assert_at_rest(xr, "1 s after start-up")
    xr.head.rotate(yaw=90, speed=SUDDEN)  # in a single frame
    first = sample(xr)
    moved = math.dist(first.rest, before.rest)
    assert moved > 0.8, f"the head did not turn: the HUD's resting place moved {moved:.3f} m"
    check_glide_step(before, first, "the frame the head turned 90 deg to the left")
    way = math.dist(before.hud, first.rest)
    frames = follow_frames(xr, first, 29, "after a sudden 90 deg turn to the left")
    left = frames[-1].off
    assert left <= CAUGHT_UP * way, (
        f"0.5 s after a sudden 90 deg turn to the left the HUD still had {left:.3f} m to go, "
        f"{left / way:.0%} of the {way:.3f} m to its new resting place: it does not catch up in 0.2-0.5 s "
        f"(expected at most {CAUGHT_UP:.0%} left)"
    )
    frames = follow_frames(xr, frames[-1], 30, "after a sudden 90 deg turn to the left")
    assert_at_rest(xr, "1 s after the head turned 90 deg to the left in one frame", frames[-1])

    pairs = turn_sampled(xr, yaw=-180)  # 3 degrees a frame
    for i, (prev, f) in enumerate(pairs):
        check_glide_step(prev, f, f"frame {i + 1} of a steady 180 deg head turn to the right")
    lag = pairs[-1][1].off
    assert lag > MIN_LAG, (
        f"right after the head turned 180 deg to the right (3 deg a frame) the HUD was only {lag:.3f} m from its "
        f"resting place: it is glued to the head instead of following lazily (expected a lag over {MIN_LAG} m)"
    )
    frames = follow_frames(xr, pairs[-1][1], 60, "after a steady 180 deg turn to the right")
    assert_at_rest(xr, "1 s after turning the head 180 deg to the right", frames[-1])
    assert_no_errors(xr)


def test_small_head_motions_are_followed_all_the_way(xr):
    xr.step(1)
    xr.wait(1000)
    assert_at_rest(xr, "1 s after start-up")
    xr.head.rotate(yaw=8)
    xr.wait(1000)
    assert_at_rest(xr, "1 s after turning the head 8 deg to the left")
    xr.head.move((0.06, 0.0, 0.0), speed=0.5)
    xr.wait(1000)
    assert_at_rest(xr, "1 s after stepping 6 cm to the right")
    xr.head.rotate(yaw=-8)
    xr.wait(1000)
    assert_at_rest(xr, "1 s after turning the head back 8 deg")
    assert_no_errors(xr)


def test_looking_up_or_down_does_not_move_the_hud(xr):
    xr.step(1)
    xr.wait(500)
    xr.head.rotate(yaw=60)
    xr.wait(1000)
    start = assert_at_rest(xr, "1 s after turning the head 60 deg to the left")
    for pitch, what in ((-30, "looking 30 deg down"), (50, "looking up again, to 20 deg above the horizon")):
        for i, (_, f) in enumerate(turn_sampled(xr, pitch=pitch)):
            moved = math.dist(f.hud, start.hud)
            assert moved <= STILL, (
                f"{what} (frame {i + 1}): the HUD moved {moved:.3f} m from {_fmt(start.hud)} to {_fmt(f.hud)}; "
                f"looking up or down must not move it (its resting place follows the horizontal heading only)"
            )
            problem = f.facing_problem()
            assert problem is None, f"{what} (frame {i + 1}): expected the HUD to face the head; {problem}"
        xr.wait(1000)
        f = assert_at_rest(xr, f"1 s after {what}")
        moved = math.dist(f.hud, start.hud)
        assert moved <= STILL, (
            f"1 s after {what}: the HUD moved {moved:.3f} m from {_fmt(start.hud)} to {_fmt(f.hud)}; looking up or "
            f"down must not move it"
        )
    assert_no_errors(xr)


def test_the_hud_goes_down_and_up_with_the_eyes(xr):
    xr.step(1)
    xr.wait(1000)
    assert_at_rest(xr, "1 s after start-up")
    xr.head.move((0.0, -0.4, 0.0))  # crouch: eyes at 1.1 m
    xr.wait(1000)
    f = assert_at_rest(xr, "1 s after crouching 0.4 m")
    assert f.eyes[1] < 1.2, f"the user did not crouch: eyes at {f.eyes[1]:.3f} m"
    xr.head.rotate(yaw=-45)
    xr.wait(1000)
    assert_at_rest(xr, "1 s after turning 45 deg to the right while crouching")
    before = sample(xr)
    eyes = before.eyes
    xr.head.teleport_to((eyes[0], eyes[1] + 0.4, eyes[2]))  # stand up again, in one frame
    first = sample(xr)
    assert first.eyes[1] > 1.45, f"the user did not stand up: eyes at {first.eyes[1]:.3f} m"
    check_glide_step(before, first, "the frame the user stood up")
    frames = follow_frames(xr, first, 59, "after standing up in one frame")
    assert_at_rest(xr, "1 s after standing up again", frames[-1])
    assert_no_errors(xr)


def test_the_hud_follows_the_user_walking_elsewhere(xr):
    xr.step(1)
    xr.wait(500)
    xr.head.walk([(0.8, 1.5, -1.0)], speed=1.0)  # turns towards the spot, then walks there
    xr.wait(1000)
    assert_at_rest(xr, "1 s after walking to (0.8, 1.5, -1.0)")
    assert_within_reach(xr, TAG)
    before = sample(xr)
    eyes = before.eyes
    xr.head.teleport_to((eyes[0] - 0.5, eyes[1], eyes[2] + 0.3))  # a sudden step, same view direction
    first = sample(xr)
    assert math.dist(first.eyes, eyes) > 0.5, "the head did not move"
    check_glide_step(before, first, "the frame the user stepped 0.58 m aside")
    frames = follow_frames(xr, first, 59, "after a sudden step aside")
    assert_at_rest(xr, "1 s after a sudden step aside", frames[-1])
    assert_no_errors(xr)
