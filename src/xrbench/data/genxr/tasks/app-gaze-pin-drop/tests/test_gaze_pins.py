"""Runtime tests of the gaze pins, in two furnished rooms.

A pinch of either hand drops a pin (an object tagged 'gaze-pin') where the head's forward ray meets
the real surface: its world origin on the ray and on the surface, its local +Y axis along the
surface's normal; a positional audio that is a child of the pin starts a short sound in the frame
of the pinch. At most five pins; nothing within reach, nothing dropped.

Nothing the app reports is taken on trust. Pins are read from the live scene graph (their world
matrices, the visibility of them and their parents); their positional audios are found among their
descendants (type, world position, listener, started); the sounds started come from the harness's
own record of sounds (frame, length). The truth is the simulated room: the gaze ray (the camera's
position and -Z, read by the harness in the frame before the pinch, the head held still) is cast
into the room the simulator renders its depth image from; its first hit gives the distance and the
surface's normal. Every target is a flat surface at least 15 cm from any edge, seen with nothing
in between (the hands are kept low, out of view).

Targets: in the living room the table top, the floor, the west wall (from the start, after
walking and turning, crouched); in the kitchen the island top, the floor, the upper cabinets'
fronts. Each test runs for a right- and a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.session import rotate

pytestmark = [pytest.mark.xr_scenes("living_room", "kitchen"), pytest.mark.xr_timeout(420)]

TAG = "gaze-pin"
ON_RAY = 0.02
NORMAL_TOL = 15.0  # degrees
STILL = 0.002  # metres a pin may move once dropped
STILL_DEG = 1.0
AUDIO_AT = 0.02
MAX_SOUND = 0.5 + 0.05  # seconds, and audio-clock slack
MAX_RANGE = 4.0
MAX_PINS = 5
FAST = 100000.0  # deg/s: a turn done in one frame
FRESH_FRAMES = 5  # frames after a pose change: the depth data of the new view has arrived
HAND_SPEED = 6.0

Vec = tuple[float, float, float]

# Poses: (eye position, point looked at). Each drop target is a point on a flat real surface.
PLANS = {
    "living_room": {
        "drops": [
            ("the table top", ((0.0, 1.5, 0.0), (0.3, 0.75, -1.3))),
            ("the floor", ((0.0, 1.5, 0.0), (-1.5, 0.0, -1.0))),
            ("the west wall", ((0.0, 1.5, 0.0), (-3.0, 2.0, -0.3))),
            ("the floor, crouched", ((1.0, 1.0, 0.5), (1.5, 0.0, -0.4))),
            ("the west wall, after walking and turning", ((-1.0, 1.5, 0.8), (-3.0, 1.2, 0.3))),
        ],
        "wall_spots": [
            ((0.0, 1.5, -1.0), (x, y, -4.0))
            for x, y in ((-0.9, 2.0), (-0.3, 2.2), (0.4, 2.0), (1.0, 1.8), (-1.2, 1.4), (0.6, 2.4), (-0.5, 1.6))
        ],
        "walk": [((1.5, 1.5, -0.5), (-3.0, 1.0, -2.0)), ((0.8, 1.0, 1.0), (0.0, 0.4, -3.0))],
        "far": ((-2.5, 1.5, 1.5), (2.3, 1.2, -4.0)),
        "just_out": ((0.0, 1.5, 0.4), (0.3, 1.6, -4.0)),
    },
    "kitchen": {
        "drops": [
            ("the island top", ((0.0, 1.5, 0.0), (0.4, 0.94, -1.2))),
            ("the floor", ((0.0, 1.5, 0.0), (-1.5, 0.0, -0.5))),
            ("the upper cabinets' front", ((0.0, 1.5, 0.0), (-1.0, 1.9, -3.145))),
            ("the floor, crouched", ((1.0, 1.0, 0.5), (1.4, 0.0, -0.3))),
            ("the west wall, after walking and turning", ((0.5, 1.5, -0.3), (-2.5, 1.5, -0.8))),
        ],
        "wall_spots": [
            ((0.0, 1.5, -0.5), (x, y, -3.145))
            for x, y in ((-1.6, 1.9), (-1.2, 2.05), (-0.8, 1.9), (-0.4, 2.0), (0.0, 1.9), (-1.4, 1.8), (-0.6, 2.1))
        ],
        "walk": [((1.2, 1.5, -0.3), (-2.5, 1.0, -1.5)), ((-0.8, 1.0, 0.8), (0.0, 0.5, -3.0))],
        "far": ((-2.2, 1.5, 1.2), (2.4, 1.2, -3.5)),
        "just_out": ((0.0, 1.5, 1.2), (0.3, 2.0, -3.145)),
    },
}

# Every shown tagged pin: world origin, world +Y axis, whether it and its parents are visible, and
# the positional audios among its descendants (type, world position, distance from the listener to
# the camera, started, buffer). `started` is whether play() made a source for its buffer, not
# `isPlaying`: the sound ends on the audio clock, in wall-clock time, so under load it may have
# ended before the frame is read.
READ = r"""
(h, tag) => {
  const THREE = h.THREE, cam = h.guard(h.core.camera, 'the camera');
  const scene = h.guard(h.core.scene, 'the scene');
  cam.updateMatrixWorld(true);
  scene.updateMatrixWorld(true);
  const eye = cam.getWorldPosition(new THREE.Vector3());
  const pins = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const t = o.userData && o.userData.xrblocksDevtools;
    if (!t || String(t.tag) !== tag) return;
    for (let x = o; x; x = x.parent) if (!x.visible) return;
    const e = o.matrixWorld.elements;
    const axis = new THREE.Vector3(e[4], e[5], e[6]).normalize();
    const audios = [];
    o.traverse((a) => {
      h.guard(a, a.name || a.type);
      if (a.type !== 'PositionalAudio' && a.type !== 'Audio') return;
      let listenerGap = null;
      if (a.listener) {
        a.listener.updateWorldMatrix(true, false);
        listenerGap = a.listener.getWorldPosition(new THREE.Vector3()).distanceTo(eye);
      }
      audios.push({type: a.type, positional: (a instanceof THREE.PositionalAudio) && !!a.panner,
                   parentIsPin: a.parent === o,
                   position: a.getWorldPosition(new THREE.Vector3()).toArray(), listenerGap,
                   started: !!(a.source && a.buffer && a.source.buffer === a.buffer),
                   buffer: !!(a.buffer && a.buffer.duration > 0)});
    });
    pins.push({uuid: o.uuid, origin: [e[12], e[13], e[14]], axis: axis.toArray(), audios});
  });
  return pins;
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def sub(a, b) -> Vec:
    return tuple(x - y for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def dot(a, b) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def norm(a) -> Vec:
    n = math.sqrt(dot(a, a))
    return tuple(x / n for x in a)  # type: ignore[return-value]


def angle(a, b) -> float:
    return math.degrees(math.acos(max(-1.0, min(1.0, dot(norm(a), norm(b))))))


def plan(xr) -> dict:
    return PLANS["kitchen" if "fridge" in xr.locations() else "living_room"]


class Pin:
    def __init__(self, d: dict) -> None:
        self.uuid: str = d["uuid"]
        self.origin: Vec = tuple(d["origin"])  # type: ignore[assignment]
        self.axis: Vec = tuple(d["axis"])  # type: ignore[assignment]
        self.audios: list[dict] = d["audios"]

    def __repr__(self) -> str:
        return f"<pin at {fmt(self.origin)}, axis {fmt(self.axis)}>"


def pins(xr) -> dict[str, Pin]:
    return {d["uuid"]: Pin(d) for d in xr.probe(READ, TAG)}


def sounds(xr) -> list[dict]:
    return list(xr.audio())


# --- acting -------------------------------------------------------------------------------------


def head_local(xr, offset: Vec) -> Vec:
    pose = xr.camera_pose()
    off = rotate(pose.quaternion, offset)
    return tuple(p + o for p, o in zip(pose.position, off, strict=True))  # type: ignore[return-value]


def side(xr, role: str) -> float:
    return -1.0 if xr.hand(role).handedness == "left" else 1.0


def park(xr, role: str) -> None:
    """Keep a hand low and out of the view (still tracked), so it hides nothing from the depth data."""
    xr.hand(role).move_hand(head_local(xr, (0.25 * side(xr, role), -0.6, -0.05)), speed=HAND_SPEED)


def stand(xr, where) -> None:
    """Stand at `where`'s position, look at its point, keep the hands low; fresh depth data."""
    position, look = where
    xr.head.teleport_to(position)
    xr.head.look_at(look, speed=FAST)
    park(xr, "dominant")
    park(xr, "non_dominant")
    xr.step(FRESH_FRAMES)


def gaze(xr) -> tuple[Vec, Vec]:
    pose = xr.camera_pose()
    return tuple(pose.position), norm(rotate(pose.quaternion, (0.0, 0.0, -1.0)))  # type: ignore[return-value]


def ready(xr) -> None:
    for _ in range(60):
        if xr.depth().available:
            break
        xr.step(1)
    assert xr.depth().enabled, "expected XR Blocks' depth sensing to be on (options.enableDepth() before xb.init)"
    assert xr.depth().available, "expected depth data within 60 frames of the start; none arrived"
    park(xr, "dominant")
    park(xr, "non_dominant")


# --- checking -----------------------------------------------------------------------------------


def assert_kept(before: dict[str, Pin], after: dict[str, Pin], when: str) -> None:
    __tracebackhide__ = True
    gone = [p for u, p in before.items() if u not in after]
    added = [p for u, p in after.items() if u not in before]
    assert not gone and not added, (
        f"{when}: expected the same pins shown; removed {gone}, added {added} (shown: {list(after.values())})"
    )
    for u, p in before.items():
        q = after[u]
        moved = math.dist(p.origin, q.origin)
        turned = angle(p.axis, q.axis)
        assert moved <= STILL and turned <= STILL_DEG, (
            f"{when}: expected the pin dropped at {fmt(p.origin)} to stay put in the room; observed it at "
            f"{fmt(q.origin)} ({100 * moved:.1f} cm away), its axis turned by {turned:.1f} degrees"
        )


def truth_at_gaze(xr, what: str):
    eye, fwd = gaze(xr)
    truth = xr.room_ray(eye, fwd)
    assert truth.hit is not None and truth.hit.normal is not None, f"test setup: the gaze at {what} meets nothing"
    assert truth.hit.distance < MAX_RANGE - 0.2, f"test setup: {what} is {truth.hit.distance:.2f} m away"
    return eye, fwd, truth.hit


def check_pin(pin: Pin, eye: Vec, fwd: Vec, hit, what: str) -> None:
    __tracebackhide__ = True
    rel = sub(pin.origin, eye)
    along = dot(rel, fwd)
    off = math.sqrt(max(0.0, dot(rel, rel) - along * along))
    assert off <= ON_RAY, (
        f"{what}: expected the pin's origin on the gaze ray from {fmt(eye)} along {fmt(fwd)} (within "
        f"{100 * ON_RAY:.0f} cm); observed it at {fmt(pin.origin)}, {100 * off:.1f} cm off the ray"
    )
    tol = 0.03 + 0.02 * hit.distance
    assert abs(along - hit.distance) <= tol, (
        f"{what}: expected the pin's origin on the real surface, {hit.distance:.3f} m from the eyes along the gaze "
        f"(within {100 * tol:.1f} cm); observed it {along:.3f} m along the gaze (at {fmt(pin.origin)})"
    )
    normal = hit.normal if dot(hit.normal, fwd) < 0 else tuple(-c for c in hit.normal)
    off_deg = angle(pin.axis, normal)
    assert off_deg <= NORMAL_TOL, (
        f"{what}: expected the pin's +Y axis along the surface's normal {fmt(normal)}, out of the surface (within "
        f"{NORMAL_TOL:.0f} degrees); observed axis {fmt(pin.axis)}, {off_deg:.1f} degrees off"
    )


def check_tick(pin: Pin, new_sounds: list[dict], frame: int, what: str) -> None:
    __tracebackhide__ = True
    assert len(new_sounds) == 1, (
        f"{what}: expected exactly one sound started in the frame of the pinch; observed {len(new_sounds)}: "
        f"{new_sounds}"
    )
    s = new_sounds[0]
    assert s.get("frame") == frame, f"{what}: expected the sound started in the frame of the pinch ({frame}); {s}"
    length = s.get("duration")
    if s.get("stop_frame") is not None:
        late = (s["stop_frame"] - frame) / 60.0 + (s.get("stop_delay") or 0.0)
        length = late if length is None else min(length, late)
    assert length is not None and length <= MAX_SOUND, (
        f"{what}: expected a short sound (at most 0.5 s) with its length set when it starts; observed {s}"
    )
    positional = [a for a in pin.audios if a["positional"] and a["parentIsPin"]]
    assert positional, (
        f"{what}: expected a THREE.PositionalAudio that is a child of the pin; observed {pin.audios or 'none'}"
    )
    mine = [a for a in positional if a["started"] and a["buffer"]]
    assert mine, (
        f"{what}: expected the pin's positional audio to start its buffer in the frame of the pinch; {positional}"
    )
    a = mine[0]
    gap = math.dist(a["position"], pin.origin)
    assert gap <= AUDIO_AT, (
        f"{what}: expected the pin's positional audio at the pin's origin {fmt(pin.origin)} (within 2 cm); observed "
        f"it at {fmt(a['position'])}, {100 * gap:.1f} cm away"
    )
    assert a["listenerGap"] is not None and a["listenerGap"] <= 0.05, (
        f"{what}: expected the positional audio made with XR Blocks' listener on the camera; its listener is "
        f"{a['listenerGap']} m from the eyes"
    )


def drop(xr, roles: tuple[str, ...], what: str) -> Pin:
    """Pinch with `roles` (all in one frame) while looking at a surface within reach; exactly one new
    pin in the frame of the pinch, on the surface, with its tick. Fingers stay closed."""
    eye, fwd, hit = truth_at_gaze(xr, what)
    before, heard = pins(xr), len(sounds(xr))
    for role in roles[:-1]:
        xr.hand(role).start_select(0)
    xr.hand(roles[-1]).start_select(1)
    frame = xr.frame
    after = pins(xr)
    fresh = [p for u, p in after.items() if u not in before]
    who = " and ".join(xr.hand(r).handedness for r in roles)
    assert len(fresh) == 1, (
        f"{what} ({who} pinch): expected exactly one new pin in the frame of the pinch; observed {len(fresh)} "
        f"new (shown: {list(after.values())})"
    )
    pin = fresh[0]
    check_pin(pin, eye, fwd, hit, f"{what} ({who} pinch)")
    check_tick(pin, sounds(xr)[heard:], frame, f"{what} ({who} pinch)")
    return pin


def release(xr, roles: tuple[str, ...], when: str) -> None:
    before, heard = pins(xr), len(sounds(xr))
    for role in roles:
        xr.hand(role).end_select(1)
    xr.step(12)
    assert_kept(before, pins(xr), f"{when}: after the fingers opened")
    assert len(sounds(xr)) == heard, f"{when}: expected no sound when the fingers open; {sounds(xr)[heard:]}"


def assert_silent_nothing(xr, kept: dict[str, Pin], heard: int, when: str) -> None:
    __tracebackhide__ = True
    assert_kept(kept, pins(xr), when)
    new = sounds(xr)[heard:]
    assert not new, f"{when}: expected no sound; observed {new}"


def check_cylinder_removed(xr) -> None:
    """Before any pinch: nothing drawn by the app is a cylinder."""
    cylinders = [d for d in xr.drawn(("mesh",)) if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed {cylinders}"


# --- tests ---------------------------------------------------------------------------------------


def test_pins_land_flush_where_the_user_looks_and_stay(xr):
    """From several poses (standing, after walking and turning, crouched), the user looks at a table
    top, the floor and a wall and pinches, the hands taking turns: each pinch drops one pin in its
    frame, flush on the surface, with a tick from the pin. Nothing before the pinch; holding the
    pinch while looking elsewhere drops nothing more and moves nothing; opening drops nothing. The
    pins stay while the user walks, turns and crouches."""
    p = plan(xr)
    check_cylinder_removed(xr)
    ready(xr)
    assert not pins(xr), f"expected no pin before any pinch; observed {list(pins(xr).values())}"
    dropped: dict[str, Pin] = {}
    roles = ("dominant", "non_dominant")
    for k, (what, where) in enumerate(p["drops"]):
        role = roles[k % 2]
        stand(xr, where)
        xr.step(10)
        assert_silent_nothing(xr, dropped, len(sounds(xr)), f"before the pinch at {what}")
        heard = len(sounds(xr))
        assert heard == k, f"expected one sound per pin dropped so far ({k}); observed {sounds(xr)}"
        pin = drop(xr, (role,), what)
        dropped[pin.uuid] = pin
        heard = len(sounds(xr))
        # Still pinching, the user looks at another surface: nothing more, nothing moves.
        xr.head.look_at(p["drops"][(k + 1) % len(p["drops"])][1][1], speed=FAST)
        xr.step(20)
        assert_silent_nothing(xr, dropped, heard, f"while the pinch at {what} is held and the user looks elsewhere")
        release(xr, (role,), what)
    for k, where in enumerate(p["walk"]):
        xr.head.walk([where[0]], speed=1.0)
        xr.head.look_at(where[1], speed=90.0)
        xr.step(FRESH_FRAMES)
        assert_silent_nothing(xr, dropped, len(p["drops"]), f"after walking and turning ({k + 1})")
    assert_no_errors(xr)


def test_five_pins_at_most_and_both_hands_at_once(xr):
    """Five pins on the wall; both hands pinch in the same frame: one pin, one tick, and the oldest
    pin goes in that frame. The other hand then drops a 7th: the second oldest goes."""
    p = plan(xr)
    check_cylinder_removed(xr)
    ready(xr)
    spots = p["wall_spots"]
    order: list[Pin] = []
    for k in range(MAX_PINS):
        stand(xr, spots[k])
        order.append(drop(xr, ("dominant",), f"wall pin {k + 1}"))
        release(xr, ("dominant",), f"wall pin {k + 1}")
    kept = pins(xr)
    assert len(kept) == MAX_PINS, f"expected five pins; observed {list(kept.values())}"

    stand(xr, spots[5])
    heard = len(sounds(xr))
    sixth = drop(xr, ("non_dominant", "dominant"), "the 6th pin, both hands pinching in the same frame")
    now = pins(xr)
    assert order[0].uuid not in now, (
        f"in the frame of the 6th pin: expected the oldest pin, at {fmt(order[0].origin)}, removed; still shown"
    )
    assert_kept(
        {u: q for u, q in kept.items() if u != order[0].uuid},
        {u: q for u, q in now.items() if u != sixth.uuid},
        "in the frame of the 6th pin",
    )
    assert len(sounds(xr)) == heard + 1
    xr.step(20)
    assert len(pins(xr)) == MAX_PINS and len(sounds(xr)) == heard + 1, (
        f"while both pinches are held: expected five pins and one sound; observed {list(pins(xr).values())}, "
        f"{sounds(xr)[heard:]}"
    )
    release(xr, ("dominant", "non_dominant"), "the 6th pin")
    kept = pins(xr)

    stand(xr, spots[6])
    seventh = drop(xr, ("non_dominant",), "the 7th pin")
    now = pins(xr)
    assert order[1].uuid not in now, (
        f"in the frame of the 7th pin: expected the second oldest pin, at {fmt(order[1].origin)}, removed; still shown"
    )
    assert_kept(
        {u: q for u, q in kept.items() if u != order[1].uuid},
        {u: q for u, q in now.items() if u != seventh.uuid},
        "in the frame of the 7th pin",
    )
    release(xr, ("non_dominant",), "the 7th pin")
    assert len(sounds(xr)) == MAX_PINS + 2, f"expected one sound per pin; observed {sounds(xr)}"
    assert_no_errors(xr)


def test_nothing_out_of_reach(xr):
    """A pinch before depth data arrives (held while it arrives) drops nothing; with five pins shown,
    pinches while looking at a wall 4.3-4.7 m away and one 6-7 m away (held while the user turns to a
    near wall) drop nothing, play nothing and remove nothing; the other hand then drops a pin."""
    p = plan(xr)
    check_cylinder_removed(xr)
    xr.step(1)
    assert not xr.depth().available, "test setup: expected no depth data in the first frame"
    xr.hand("dominant").start_select(1)
    assert not pins(xr) and not sounds(xr), "expected no pin and no sound from a pinch before any depth data"
    for _ in range(30):
        xr.step(1)
    assert xr.depth().available, "expected depth data within 30 frames of the start"
    assert not pins(xr) and not sounds(xr), (
        f"expected no pin from a pinch made before depth data arrived (held while it arrived); observed "
        f"{list(pins(xr).values())}, sounds {sounds(xr)}"
    )
    xr.hand("dominant").end_select(12)
    assert not pins(xr) and not sounds(xr), "expected nothing when the fingers open"
    ready(xr)
    for k in range(MAX_PINS):
        stand(xr, p["wall_spots"][k])
        drop(xr, ("dominant",), f"wall pin {k + 1}")
        release(xr, ("dominant",), f"wall pin {k + 1}")
    kept = pins(xr)
    assert len(kept) == MAX_PINS

    for label, key, lo, hi in (("just out of reach", "just_out", 4.3, 4.7), ("far away", "far", 5.2, 9.0)):
        stand(xr, p[key])
        eye, fwd = gaze(xr)
        truth = xr.room_ray(eye, fwd)
        assert truth.hit and lo <= truth.hit.distance <= hi, f"test setup ({label}): {truth}"
        heard = len(sounds(xr))
        xr.hand("dominant").start_select(1)
        assert_silent_nothing(xr, kept, heard, f"in the frame of a pinch at a surface {truth.hit.distance:.2f} m away")
        # Held while the user turns to a near wall.
        xr.head.look_at(p["wall_spots"][5][1], speed=FAST)
        xr.step(20)
        assert_silent_nothing(
            xr,
            kept,
            heard,
            f"while a pinch at a surface {truth.hit.distance:.2f} m away is held "
            "and the user turns to a wall within reach",
        )
        xr.hand("dominant").end_select(12)
        assert_silent_nothing(xr, kept, heard, f"after a pinch at a surface {truth.hit.distance:.2f} m away")

    stand(xr, p["wall_spots"][5])
    pin = drop(xr, ("non_dominant",), "a pin after the misses")
    release(xr, ("non_dominant",), "a pin after the misses")
    now = pins(xr)
    assert len(now) == MAX_PINS and pin.uuid in now
    assert_no_errors(xr)
