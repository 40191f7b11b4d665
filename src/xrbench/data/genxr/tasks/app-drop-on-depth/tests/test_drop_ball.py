"""Runtime tests of the ball that drops onto the real surface below it, in two furnished rooms.

The ball (tagged 'drop-ball') is grabbed with a touch of the index fingertip and a pinch, carried,
and released above a real surface the user looks at. Read from the live scene graph every frame
(its world position and size), it must stay with the hand while held, start falling straight down
within a frame of the release, fall at 1 m/s of app time, never sink into the surface, and come to
rest with its bottom on the real surface below; a positional audio that is a descendant of the
ball starts one short sound in the frame it comes to rest (the harness's own record of sounds).
The truth is the simulated room: a ray cast straight down from the ball's centre at release into
the room the depth image is rendered from. Surfaces: the table or island top and the floor; the
ball is dropped by one hand, then grabbed again from where it rests by the other.
Each test runs for a right- and a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = [pytest.mark.xr_scenes("living_room", "kitchen"), pytest.mark.xr_timeout(420)]

TAG = "drop-ball"
HOME = (0.0, 1.2, -0.45)
HOME_TOL = 0.02
RADIUS = 0.04
SIZE_TOL = 0.005
SPEED = 1.0
SPEED_TOL = 0.1  # 10 %
STRAIGHT = 0.005
REST_TOL = 0.015
SINK_TOL = 0.015  # the same tolerance as the resting place
STILL = 0.002
FOLLOW_TOL = 0.02
FAST = 100000.0
FRESH_FRAMES = 5
MAX_SOUND = 0.5 + 0.05

Vec = tuple[float, float, float]

# (where the ball is carried to, what surface is below it)
PLANS = {
    "living_room": [((0.3, 1.15, -1.25), "the table top"), ((-0.8, 1.0, -0.7), "the floor")],
    "kitchen": [((0.4, 1.25, -1.15), "the island top"), ((-0.8, 1.0, -0.5), "the floor")],
}

READ = r"""
(h, tag) => {
  const THREE = h.THREE, cam = h.guard(h.core.camera, 'the camera');
  const scene = h.guard(h.core.scene, 'the scene');
  cam.updateMatrixWorld(true);
  scene.updateMatrixWorld(true);
  const eye = cam.getWorldPosition(new THREE.Vector3());
  const balls = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const t = o.userData && o.userData.xrblocksDevtools;
    if (!t || String(t.tag) !== tag) return;
    const audios = [];
    o.traverse((a) => {
      h.guard(a, a.name || a.type);
      if (a.type !== 'PositionalAudio' && a.type !== 'Audio') return;
      let listenerGap = null;
      if (a.listener) {
        a.listener.updateWorldMatrix(true, false);
        listenerGap = a.listener.getWorldPosition(new THREE.Vector3()).distanceTo(eye);
      }
      audios.push({positional: (a instanceof THREE.PositionalAudio) && !!a.panner,
                   position: a.getWorldPosition(new THREE.Vector3()).toArray(), listenerGap,
                   started: !!(a.source && a.buffer && a.source.buffer === a.buffer)});
    });
    const box = new THREE.Box3().setFromObject(o);
    balls.push({position: o.getWorldPosition(new THREE.Vector3()).toArray(),
                size: box.isEmpty() ? null : box.getSize(new THREE.Vector3()).toArray(), audios});
  });
  return balls;
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def plan(xr):
    return PLANS["kitchen" if "fridge" in xr.locations() else "living_room"]


def read(xr) -> dict:
    __tracebackhide__ = True
    balls = xr.probe(READ, TAG)
    assert len(balls) == 1, f"expected exactly one object tagged {TAG!r}; observed {len(balls)}"
    return balls[0]


def where(xr) -> Vec:
    return tuple(read(xr)["position"])  # type: ignore[return-value]


def ready(xr) -> None:
    for _ in range(60):
        if xr.depth().available:
            break
        xr.step(1)
    assert xr.depth().enabled, "expected XR Blocks' depth sensing to be on (options.enableDepth() before xb.init)"
    assert xr.depth().available, "expected depth data within 60 frames of the start; none arrived"


def grab(xr, role: str, what: str) -> None:
    """Touch the ball with the fingertip and pinch; the ball must not move until the hand does."""
    __tracebackhide__ = True
    hand = xr.hand(role)
    hand.reach_to(TAG, depth=0.015)
    before = where(xr)
    hand.start_select(30)
    after = where(xr)
    # the fingertip moves as the fingers close; the ball may follow it, but must not jump
    assert math.dist(before, after) <= 0.05, (
        f"{what}: expected the ball to stay near {fmt(before)} while the fingers close on it; observed {fmt(after)}"
    )


def carry(xr, role: str, goal: Vec, what: str) -> Vec:
    """Move the holding hand so the ball (if it follows) ends at `goal`; returns the ball's position."""
    __tracebackhide__ = True
    hand = xr.hand(role)
    start = where(xr)
    delta = tuple(g - s for g, s in zip(goal, start, strict=True))
    target = tuple(p + d for p, d in zip(hand.position, delta, strict=True))
    hand.move_hand(target, speed=1.5)
    xr.step(3)
    now = where(xr)
    off = math.dist(now, goal)
    assert off <= FOLLOW_TOL, (
        f"{what}: expected the held ball to move with the {role} hand to {fmt(goal)} (within 2 cm); observed it at "
        f"{fmt(now)}, {100 * off:.1f} cm away (it was at {fmt(start)})"
    )
    return now


def look_below(xr, spot: Vec) -> None:
    """Turn the head (before grabbing) towards the surface below `spot`, so it is in view."""
    truth = xr.room_ray(spot, (0.0, -1.0, 0.0))
    assert truth.hit is not None, f"test setup: nothing below {fmt(spot)}"
    xr.head.look_at((spot[0], spot[1] - truth.hit.distance, spot[2]), speed=FAST)
    xr.step(FRESH_FRAMES)


def drop(xr, role: str, surface_name: str, what: str) -> Vec:
    """Look at the spot below the held ball, release, follow the fall frame by frame."""
    __tracebackhide__ = True
    held = where(xr)
    truth = xr.room_ray(held, (0.0, -1.0, 0.0))
    assert truth.hit is not None, f"test setup: nothing below {fmt(held)}"
    surface = held[1] - truth.hit.distance
    xr.step(FRESH_FRAMES)
    sounds_before = len(xr.audio())
    hand = xr.hand(role)
    hand.end_select(1)
    release_frame = xr.frame
    ys: list[tuple[int, Vec]] = [(release_frame, where(xr))]
    for _ in range(int(60 * (held[1] - surface) / SPEED) + 40):
        xr.step(1)
        ys.append((xr.frame, where(xr)))
    # straight down
    for f, p in ys:
        side = math.hypot(p[0] - held[0], p[2] - held[2])
        assert side <= STRAIGHT, (
            f"{what}: expected the ball to fall straight down from {fmt(held)}; at frame {f - release_frame} after the "
            f"release it is at {fmt(p)}, {100 * side:.1f} cm to the side"
        )
        bottom = p[1] - RADIUS
        assert bottom >= surface - SINK_TOL, (
            f"{what}: expected the ball never to sink into {surface_name} (its top at y = {surface:.3f}); at frame "
            f"{f - release_frame} after the release its bottom is at y = {bottom:.3f}"
        )
    moving = [i for i, (_, p) in enumerate(ys) if held[1] - p[1] > 0.003]
    assert moving, (
        f"{what}: expected the released ball to fall onto {surface_name} (top at y = {surface:.3f}); it stayed at "
        f"{fmt(ys[-1][1])}"
    )
    first = moving[0]
    assert ys[first][0] - release_frame <= 2, (
        f"{what}: expected the ball to start falling in the frame it is released (within a frame); it started "
        f"{ys[first][0] - release_frame} frames later"
    )
    rest = ys[-1][1]
    bottom = rest[1] - RADIUS
    assert abs(bottom - surface) <= REST_TOL, (
        f"{what}: expected the ball to come to rest with its bottom on {surface_name} at y = {surface:.3f} (within "
        f"{100 * REST_TOL:.1f} cm); its bottom is at y = {bottom:.3f}"
    )
    for _, p in ys[-20:]:
        assert math.dist(p, rest) <= STILL, f"{what}: expected the ball to rest still on {surface_name}; it moves"
    landed = next(i for i, (_, p) in enumerate(ys) if math.dist(p, rest) <= STILL)
    land_frame = ys[landed][0]
    # speed: over the frames it was falling freely (before the last partial step)
    i0, i1 = first, max(first + 1, landed - 1)
    if i1 - i0 >= 6:
        dy = ys[i0][1][1] - ys[i1][1][1]
        dt = (ys[i1][0] - ys[i0][0]) / 60.0
        speed = dy / dt
        assert abs(speed - SPEED) <= SPEED_TOL * SPEED, (
            f"{what}: expected the ball to fall at a steady 1 m/s (within 10%); observed {speed:.2f} m/s"
        )
    fall_time = (land_frame - release_frame) / 60.0
    expected = (held[1] - RADIUS - surface) / SPEED
    assert abs(fall_time - expected) <= 0.1 * expected + 2 / 60, (
        f"{what}: expected the fall from {held[1]:.2f} m to take about {expected:.2f} s at 1 m/s; it took "
        f"{fall_time:.2f} s"
    )
    # the thud
    new = xr.audio()[sounds_before:]
    assert len(new) == 1, (
        f"{what}: expected exactly one sound, the thud when the ball lands on {surface_name}; observed {len(new)}: "
        f"{new}"
    )
    s = new[0]
    assert s.get("frame") is not None and abs(s["frame"] - land_frame) <= 1, (
        f"{what}: expected the thud to start in the frame the ball comes to rest ({land_frame - release_frame} "
        f"frames after the release); it started at frame {(s.get('frame') or 0) - release_frame}"
    )
    length = s.get("duration")
    if s.get("stop_frame") is not None:
        late = (s["stop_frame"] - s["frame"]) / 60.0 + (s.get("stop_delay") or 0.0)
        length = late if length is None else min(length, late)
    assert length is not None and length <= MAX_SOUND, f"{what}: expected a short thud (at most 0.5 s); observed {s}"
    ball = read(xr)
    mine = [a for a in ball["audios"] if a["positional"] and a["started"]]
    assert mine, f"{what}: expected the thud from a THREE.PositionalAudio on the ball; observed {ball['audios']}"
    a = mine[0]
    assert math.dist(a["position"], rest) <= RADIUS + 0.005, (
        f"{what}: expected the thud's positional audio at the ball {fmt(rest)}; observed it at {fmt(a['position'])}"
    )
    assert a["listenerGap"] is not None and a["listenerGap"] <= 0.05, (
        f"{what}: expected the positional audio made with XR Blocks' listener on the camera"
    )
    return rest


def test_the_ball_floats_in_front_of_the_user(xr):
    ready(xr)
    xr.step(30)
    ball = read(xr)
    assert math.dist(ball["position"], HOME) <= HOME_TOL, (
        f"expected the ball's centre at {fmt(HOME)}; observed {fmt(ball['position'])}"
    )
    size = ball["size"]
    assert size is not None and all(abs(c - 2 * RADIUS) <= 2 * SIZE_TOL for c in size), (
        f"expected a ball 8 cm across (radius 4 cm, within 5 mm); observed bounding box {size}"
    )
    assert not xr.audio(), f"expected no sound before anything lands; observed {xr.audio()}"
    xr.wait(1000)
    assert math.dist(where(xr), HOME) <= STILL, "expected the ball to float in place until it is grabbed"
    assert_no_errors(xr)


def test_drop_on_the_table_then_regrab_with_the_other_hand_and_drop_on_the_floor(xr):
    ready(xr)
    (table_spot, table), (floor_spot, floor) = plan(xr)
    # the floor spot on the side of the hand that carries it there
    side = 1.0 if xr.handedness("non_dominant") == "right" else -1.0
    floor_spot = (abs(floor_spot[0]) * side, floor_spot[1], floor_spot[2])
    below = xr.room_ray(floor_spot, (0.0, -1.0, 0.0)).hit
    assert below is not None and abs(floor_spot[1] - below.distance) < 0.02, "test setup: the floor spot is not clear"
    look_below(xr, table_spot)
    before = len(xr.audio())
    grab(xr, "dominant", "the first grab")
    carry(xr, "dominant", table_spot, "carrying it over " + table)
    assert len(xr.audio()) == before, "expected no sound while the ball is grabbed and carried"
    rest = drop(xr, "dominant", table, f"released over {table}")
    xr.hand("dominant").rest()
    look_below(xr, floor_spot)
    xr.wait(500)
    assert math.dist(where(xr), rest) <= STILL, f"expected the ball to stay on {table} after it landed"
    before = len(xr.audio())
    grab(xr, "non_dominant", f"grabbing it again from {table} with the other hand")
    lifted = carry(xr, "non_dominant", (rest[0], rest[1] + 0.2, rest[2]), f"lifting it off {table}")
    assert lifted[1] > rest[1] + 0.15
    carry(xr, "non_dominant", floor_spot, f"carrying it over {floor}")
    assert len(xr.audio()) == before, "expected no sound while the ball is grabbed again and carried"
    drop(xr, "non_dominant", floor, f"released over {floor}")
    assert_no_errors(xr)
