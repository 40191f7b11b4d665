"""Runtime tests of the volume knob.

The knob's angle is read from the scene graph every frame: the centre of the tagged pointer's
geometry box, seen from above, around the centre of the tagged knob's geometry box (clockwise from
-z). The hand's turn is read from the harness: the world orientation of the holding hand's wrist
joint, whose change since the grab is decomposed into its rotation about the vertical. The tests
point a hand straight down at the knob and turn it about a vertical line 2 degrees per frame, so
no frame falls within 0.5 degrees of a point half-way between two detents. Sounds come from the
harness's own log of the sounds the page starts (`xr.audio()`), pinches from its event record
(XR Blocks' `select_start` / `select_end`).

They check that
- the knob (a cylinder 8 cm across, 3 cm tall, centre (0, 1.0, -0.4), axis vertical), the base
  (12 x 12 x 3 cm under it), the pointer (at -27 degrees, value 4) and the readout (8 x 5 cm at
  (0, 1.13, -0.47), facing +z, showing '4' as text) are laid out as stated, and the starting
  cylinder is gone; nothing sounds at start;
- a pinch with the fingertip in the knob grabs it: turning the hand clockwise seen from above
  turns the knob clockwise by the same angle every frame (within 1.5 degrees, the hand of that
  frame or the frame before), the value is the nearest detent, and each change of value plays one
  sound in the frame the knob crosses a half-way point (one frame either side): a 1200 Hz click of
  0.02-0.1 s, or on reaching 0 or 10 a 600 Hz end tone of 0.15-0.35 s, with no scheduled delay;
  the readout's text (and its picture) follows the value; the knob clamps at 135 degrees while
  the hand turns on past the end (silently), and follows back only once the hand returns to where
  it stopped; with either hand, both ways, to both ends;
- a grab lasts until the pinch ends even when the fingertip slips off the knob; moving the hand
  without turning it does not turn the knob; on release the knob snaps to its value's detent (in
  the frame of the release or the next, within 0.5 degrees), silently, and then stays put while the
  released hand turns and moves;
- pinches that do not touch the knob (3 cm above it, 3 cm in front of its rim, at rest, and one
  that then moves into the knob) neither turn it nor sound;
- while one hand holds the knob, the other hand's pinch in the knob and its turning do nothing,
  and when the holder lets go the other hand's held pinch does not take the knob over, until it
  pinches again;
- everything holds with the user standing beside the stand, turned 90 degrees and looking down.
Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

Vec = tuple[float, float, float]

KNOB_CENTRE = (0.0, 1.0, -0.4)
KNOB_DIAMETER, KNOB_HEIGHT = 0.08, 0.03
BASE_CENTRE, BASE_SIZE = (0.0, 0.97, -0.4), (0.12, 0.03, 0.12)
READOUT_CENTRE, READOUT_SIZE = (0.0, 1.13, -0.47), (0.08, 0.05)
SIZE_TOL = 0.008  # m: stated sizes
PLACE_TOL = 0.01  # m: stated positions
DETENT = 27.0  # degrees
LO, HI = -135.0, 135.0
START_VALUE = 4
FOLLOW_TOL = 1.5  # degrees: "within 1.5 degrees every frame"
SNAP_TOL = 0.5  # degrees: "snaps to the detent of its value (within 0.5 degrees)"
STILL_TOL = 0.5  # degrees a knob nobody holds may stray
STEP = 2.0  # degrees the test turns the hand per frame
CLICK_HZ, END_HZ = 1200.0, 600.0
PITCH_TOL = 0.01
CLICK_LEN, END_LEN = (0.02, 0.1), (0.15, 0.35)  # s
START_DELAY = 0.005  # s: "not scheduled for later"
CLOSE_FRAMES = 12  # frames the simulated fingers close or open before the test goes on
TOUCH_DEPTH = 0.015  # the fingertip 1.5 cm below the knob's top face


# One frame's reading in one call: the tagged objects and both hands.
_SAMPLE_JS = """
(h, arg) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const tags = {};
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || !arg.tags.includes(String(d.tag))) return;
    let visible = true;
    for (let p = o; p; p = p.parent) visible = visible && p.visible;
    const out = {visible, position: o.getWorldPosition(new THREE.Vector3()).toArray(),
                 quaternion: o.getWorldQuaternion(new THREE.Quaternion()).toArray(), centre: null, extent: null,
                 state: d.state && typeof d.state === 'object' ? JSON.parse(JSON.stringify(d.state)) : null,
                 geometry: o.geometry ? o.geometry.type : null};
    const g = o.geometry;
    if (g && g.isBufferGeometry) {
      if (g.boundingBox === null) g.computeBoundingBox();
      const c = g.boundingBox.getCenter(new THREE.Vector3());
      out.centre = c.applyMatrix4(o.matrixWorld).toArray();
      if (arg.extent) {
        // The geometry's vertices in the object's world frame, as offsets from its centre along world axes,
        // and its radius about the vertical through that centre.
        const pos = g.getAttribute('position');
        const v = new THREE.Vector3();
        const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
        let radius = 0;
        const cc = new THREE.Vector3(...out.centre);
        for (let i = 0; i < pos.count; i++) {
          v.fromBufferAttribute(pos, i).applyMatrix4(o.matrixWorld);
          const a = v.toArray();
          for (let k = 0; k < 3; k++) { lo[k] = Math.min(lo[k], a[k]); hi[k] = Math.max(hi[k], a[k]); }
          radius = Math.max(radius, Math.hypot(v.x - cc.x, v.z - cc.z));
        }
        out.extent = {lo, hi, radius};
      }
    }
    (tags[d.tag] = tags[d.tag] || []).push(out);
  });
  const hands = {};
  const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
  for (const [name, index] of [['left', 0], ['right', 1]]) {
    const space = h.core.input.hands[index];
    const wrist = space && space.joints && space.joints['wrist'];
    const tip = space && space.joints && space.joints['index-finger-tip'];
    if (!wrist || !tip) continue;
    h.guard(wrist, 'wrist'); h.guard(tip, 'tip');
    wrist.updateWorldMatrix(true, false);
    wrist.matrixWorld.decompose(p, q, s);
    const wq = q.toArray();
    tip.updateWorldMatrix(true, false);
    hands[name] = {wrist: wq, tip: tip.getWorldPosition(new THREE.Vector3()).toArray()};
  }
  return {tags, hands};
}
"""

# Shown cylinder meshes larger than 20 cm across (the starting app's is 40 cm).
_BIG_CYLINDERS_JS = """
(h) => {
  const out = [];
  h.core.scene.updateMatrixWorld(true);
  h.core.scene.traverse((o) => {
    if (!o.isMesh || !o.geometry || o.geometry.type !== 'CylinderGeometry') return;
    let visible = true;
    for (let p = o; p; p = p.parent) visible = visible && p.visible;
    if (!visible) return;
    if (o.geometry.boundingBox === null) o.geometry.computeBoundingBox();
    const size = o.geometry.boundingBox.clone().applyMatrix4(o.matrixWorld).getSize(new h.THREE.Vector3());
    if (Math.max(size.x, size.z) > 0.2) out.push({name: o.name, size: size.toArray()});
  });
  return out;
}
"""

TAGS = ["volume-dial", "dial-pointer", "dial-base", "dial-readout"]


def fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def wrap(a: float) -> float:
    return (a + 180.0) % 360.0 - 180.0


def qmul(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float, float]:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def qinv(q: Sequence[float]) -> tuple[float, float, float, float]:
    return (-q[0], -q[1], -q[2], q[3])


def clockwise_turn(q0: Sequence[float], q1: Sequence[float]) -> float:
    """Degrees the orientation q1 is turned clockwise (seen from above) about the vertical from q0."""
    d = qmul(q1, qinv(q0))
    return -wrap(math.degrees(2.0 * math.atan2(d[1], d[3])))


def detent(value: int) -> float:
    return (value - 5) * DETENT


def nearest_value(angle: float) -> int:
    return max(0, min(10, round(angle / DETENT + 5)))


@dataclass
class Sample:
    frame: int
    angle: float | None  # the knob's angle (degrees, clockwise from -z seen from above)
    knob: Vec | None
    base: dict | None
    text: Any
    wrist: dict[str, tuple[float, float, float, float]]
    tip: dict[str, Vec]


def read(xr, extent: bool = False) -> dict:
    return xr.probe(_SAMPLE_JS, {"tags": TAGS, "extent": extent})


def one(got: dict, tag: str) -> dict:
    __tracebackhide__ = True
    nodes = got["tags"].get(tag, [])
    assert len(nodes) == 1, f"expected exactly one object tagged {tag!r} in the scene; observed {len(nodes)}"
    return nodes[0]


def sample(xr) -> Sample:
    __tracebackhide__ = True
    got = read(xr)
    knob, pointer = one(got, "volume-dial"), one(got, "dial-pointer")
    readout = one(got, "dial-readout")
    base = one(got, "dial-base")
    angle = None
    if knob["centre"] and pointer["centre"]:
        c, p = knob["centre"], pointer["centre"]
        dx, dz = p[0] - c[0], p[2] - c[2]
        if math.hypot(dx, dz) > 0.005:
            angle = math.degrees(math.atan2(dx, -dz))
    text = readout["state"].get("text") if isinstance(readout["state"], dict) else None
    return Sample(
        xr.frame,
        angle,
        tuple(knob["centre"]) if knob["centre"] else None,
        base,
        text,
        {k: tuple(v["wrist"]) for k, v in got["hands"].items()},
        {k: tuple(v["tip"]) for k, v in got["hands"].items()},
    )


def angle_of(s: Sample, when: str) -> float:
    __tracebackhide__ = True
    assert s.angle is not None, f"{when}: the pointer's centre is not away from the knob's axis; cannot read its angle"
    return s.angle


# --- sounds ---------------------------------------------------------------------------------------


def sound_length(xr, e: dict) -> float | None:
    ends = []
    if e["duration"] is not None:
        ends.append(e["duration"])
    if e["stop_frame"] is not None:
        ends.append((e["stop_frame"] - e["frame"]) * xr.dt_ms / 1000 + (e["stop_delay"] or 0.0))
    return min(ends) if ends else None


def describe(xr, found: list[dict]) -> str:
    out = []
    for e in found[:12]:
        hz = f"{e['frequency']:.0f} Hz" if e["frequency"] else f"a {e['kind']} sound of unknown pitch"
        n = sound_length(xr, e)
        out.append(
            f"{hz} in frame {e['frame']}"
            + (f", scheduled {e['start_delay']:.3f} s later" if (e["start_delay"] or 0) > START_DELAY else "")
            + (", still playing" if n is None else f", {n:.3f} s long")
        )
    more = f" and {len(found) - 12} more" if len(found) > 12 else ""
    return "; ".join(out) + more if out else "nothing"


def assert_silent(xr, since: int, when: str) -> None:
    __tracebackhide__ = True
    found = xr.audio()[since:]
    assert not found, f"{when}: expected no sound; observed {describe(xr, found)}"


# --- the session ----------------------------------------------------------------------------------


class Knob:
    """The test's view of the knob: every frame it stepped, and the sounds since it began."""

    def __init__(self, xr) -> None:
        self.xr = xr
        xr.step(1)
        self.since = len(xr.audio())
        self.samples: list[Sample] = [sample(xr)]
        self.value = START_VALUE  # the value the knob was last seen at rest with
        self.holder: str | None = None
        self.grab_angle = 0.0
        self.grab_wrist: tuple[float, float, float, float] | None = None
        self.held_from = 0  # index in samples of the grab frame
        self.start_picture = readout_picture(xr)

    @property
    def last(self) -> Sample:
        return self.samples[-1]

    def take(self) -> Sample:
        s = sample(self.xr)
        self.samples.append(s)
        return s

    # -- hands --

    def point_down(self, role: str) -> None:
        """Turn the hand so that it points straight down (in the world), whatever the head's pitch."""
        hand = self.xr.hand(role)
        hand.point_forward()
        fwd = self.xr.camera_pose().forward or (0.0, 0.0, -1.0)
        pitch = math.degrees(math.asin(max(-1.0, min(1.0, fwd[1]))))
        hand.rotate_hand(pitch=-90.0 - pitch)

    def hover(self, role: str, at: Sequence[float], above: float) -> None:
        """Put the hand (pointing down) with its controller over `at` (x, z) and its fingertip at height `above`."""
        hand = self.xr.hand(role)
        c, t = hand.position, hand.fingertip
        dy = t[1] - c[1]
        hand.move_hand((c[0], above - dy + 0.06, c[2]))
        hand.move_hand((at[0], above - dy + 0.06, at[2]))
        hand.move_hand((at[0], above - dy, at[2]))

    def reach(self, role: str, depth: float = TOUCH_DEPTH, at: Sequence[float] | None = None) -> None:
        """Point the hand down over the knob (its controller over `at`, the knob's axis by default) and lower
        the fingertip `depth` below the knob's top face."""
        self.point_down(role)
        at = at or KNOB_CENTRE
        self.hover(role, at, KNOB_CENTRE[1] + KNOB_HEIGHT / 2 - depth)

    def withdraw(self, role: str) -> None:
        hand = self.xr.hand(role)
        c = hand.position
        hand.move_hand((c[0], c[1] + 0.12, c[2]))
        hand.rest()

    def pinch(self, role: str) -> int:
        """Start a pinch; the frame XR Blocks reported it. The fingers then close (sampled every frame)."""
        __tracebackhide__ = True
        hand, h = self.xr.hand(role), self.xr.handedness(role)
        before = self.xr.frame
        hand.start_select(1)
        frames = [e.frame for e in self.xr.events("select_start") if e.hand == h and e.frame > before]
        assert len(frames) == 1, f"expected one pinch of the {h} hand after frame {before}; observed frames {frames}"
        self.take()
        return frames[0]

    def unpinch(self, role: str) -> int:
        __tracebackhide__ = True
        hand, h = self.xr.hand(role), self.xr.handedness(role)
        before = self.xr.frame
        hand.end_select(1)
        frames = [e.frame for e in self.xr.events("select_end") if e.hand == h and e.frame > before]
        assert len(frames) == 1, f"expected one release of the {h} hand after frame {before}; observed {frames}"
        self.take()
        return frames[0]

    def hold_still(self, frames: int) -> None:
        for _ in range(frames):
            self.xr.step(1)
            self.take()

    def move(self, role: str, delta: Sequence[float]) -> None:
        """Move the hand by `delta` (world, metres) without turning it, about 1 cm per frame, sampling."""
        hand = self.xr.hand(role)
        c = hand.position
        n = max(1, math.ceil(math.dist((0, 0, 0), delta) / 0.01))
        for i in range(1, n + 1):
            hand.move_hand(tuple(c[j] + delta[j] * i / n for j in range(3)))
            self.take()

    def turn(self, role: str, degrees: float, step: float = STEP) -> None:
        """Turn the hand clockwise (seen from above; negative: counterclockwise) `step` degrees per frame."""
        hand = self.xr.hand(role)
        n = round(abs(degrees) / step)
        sign = 1.0 if degrees > 0 else -1.0
        # Fast enough for one step per frame (a quick twist of the wrist when `step` is large).
        speed = max(1000.0, 1.05 * step * 1000.0 / self.xr.dt_ms)
        for _ in range(n):
            hand.rotate_hand(roll=-sign * step, speed=speed)  # the hand points down: roll is about +y
            self.take()

    # -- the grab, checked --

    def grab(self, role: str, when: str) -> None:
        """Reach into the knob with `role`'s hand and pinch: the knob must not turn or sound."""
        __tracebackhide__ = True
        self.reach(role)
        h = self.xr.handedness(role)
        start = len(self.samples)
        self.take()
        angle = angle_of(self.last, when)
        self.pinch(role)
        self.hold_still(CLOSE_FRAMES)
        self.holder = h
        self.grab_angle = angle
        self.grab_wrist = self.samples[start].wrist[h]
        self.held_from = start
        self.assert_follows(start, f"{when}: while the {role} ({h}) hand's fingers closed on the knob")
        self.assert_sounds(start, f"{when}: the {role} ({h}) hand's grab")

    def expected(self, s: Sample) -> float:
        assert self.holder and self.grab_wrist
        return max(LO, min(HI, self.grab_angle + clockwise_turn(self.grab_wrist, s.wrist[self.holder])))

    def assert_follows(self, start: int, when: str, end: int | None = None) -> None:
        """Every frame from samples[start] on, the knob's angle is the grab angle plus the holding hand's
        clockwise turn since the grab, clamped (this frame's hand or the frame before's)."""
        __tracebackhide__ = True
        prev = None
        for s in self.samples[start:end]:
            want = self.expected(s)
            got = angle_of(s, when)
            options = [want] + ([prev] if prev is not None else [])
            off = min(abs(wrap(got - w)) for w in options)
            turned = clockwise_turn(self.grab_wrist, s.wrist[self.holder])
            assert off <= FOLLOW_TOL, (
                f"{when}: expected the knob at {want:.1f} degrees in frame {s.frame} (its {self.grab_angle:.1f} at the "
                f"grab plus the {self.holder} hand's {turned:.1f} degrees clockwise since, clamped to "
                f"{LO:.0f}..{HI:.0f}; within {FOLLOW_TOL}); observed {got:.1f}"
            )
            prev = want

    def assert_sounds(self, start: int, when: str) -> None:
        """From samples[start] on: one sound per change of the value seen on the knob (the nearest detent of
        its angle), within a frame of the change, the click or the end tone, and no other sound; the
        readout's text follows the value."""
        __tracebackhide__ = True
        xr = self.xr
        window = self.samples[start - 1 if start > 0 else 0 :]
        changes: list[tuple[int, int]] = []  # (frame, new value)
        values: dict[int, int] = {}
        prev_value = None
        for s in window:
            v = nearest_value(angle_of(s, when))
            values[s.frame] = v
            if prev_value is not None and v != prev_value:
                changes.append((s.frame, v))
            prev_value = v
        first_frame = self.samples[start].frame
        found = [e for e in xr.audio()[self.since :] if e["frame"] >= first_frame]
        found_all = list(found)
        for f, v in changes:
            match = [e for e in found if f - 1 <= e["frame"] <= f + 1]
            tone, want_hz, (lo, hi) = ("end tone", END_HZ, END_LEN) if v in (0, 10) else ("click", CLICK_HZ, CLICK_LEN)
            assert len(match) == 1, (
                f"{when}: the knob's value changed to {v} in frame {f}; expected one sound (the {tone}, {want_hz:.0f} "
                f"Hz) in frame {f} or the next; observed {describe(xr, match)} (all sounds since: "
                f"{describe(xr, found_all)})"
            )
            e = match[0]
            found.remove(e)
            hz = e["frequency"]
            assert hz and abs(hz - want_hz) <= PITCH_TOL * want_hz, (
                f"{when}: expected the {tone} ({want_hz:.0f} Hz) when the value changed to {v} in frame {f}; observed "
                f"{describe(xr, [e])}"
            )
            delay = e["start_delay"] or 0.0
            assert delay <= START_DELAY, (
                f"{when}: expected the sound for the value {v} to start at once; observed {describe(xr, [e])}"
            )
            n = sound_length(xr, e)
            if n is None and xr.frame - e["frame"] < 30:
                continue
            assert n is not None and lo <= n <= hi, (
                f"{when}: expected the {tone} for the value {v} to stop {lo}-{hi} s after it starts; observed "
                f"{describe(xr, [e])}"
            )
        assert not found, (
            f"{when}: expected a sound only when the value changes (changes seen: {changes[:12]} as (frame, value)); "
            f"these sounds are extra: {describe(xr, found)}"
        )
        # The readout shows the value: the frame's value, or the one a frame before or after.
        frames = [s.frame for s in window]
        for i, s in enumerate(window):
            ok = {str(values[frames[j]]) for j in range(max(0, i - 1), min(len(window), i + 2))}
            assert isinstance(s.text, str) and s.text.strip() in ok, (
                f"{when}: expected the readout to show the value {values[s.frame]} in frame {s.frame}; observed its "
                f"state.text {s.text!r}"
            )

    def release(self, role: str, when: str) -> None:
        """Open the holder's pinch: the knob snaps to its value's detent at once, silently."""
        __tracebackhide__ = True
        h = self.xr.handedness(role)
        assert self.holder == h
        start = len(self.samples)
        held_value = nearest_value(angle_of(self.last, when))
        f = self.unpinch(role)
        self.hold_still(CLOSE_FRAMES)
        self.holder = None
        want = detent(held_value)
        snapped = [s for s in self.samples[start:] if s.frame >= f + 1]
        after = [s for s in self.samples[start:] if s.frame >= f]
        at_release = [abs(wrap(angle_of(s, when) - want)) for s in after[:2]]
        assert min(at_release) <= SNAP_TOL, (
            f"{when}: expected the knob to snap to the detent of its value {held_value} ({want:.0f} degrees) in the "
            f"frame of the {h} hand's release ({f}) or the next; observed "
            f"{[round(angle_of(s, when), 1) for s in after[:2]]}"
        )
        for s in snapped[1:]:
            got = angle_of(s, when)
            assert abs(wrap(got - want)) <= SNAP_TOL, (
                f"{when}: expected the released knob to stay at {want:.0f} degrees; observed {got:.1f} in frame "
                f"{s.frame}"
            )
        self.value = held_value
        self.assert_sounds(start, f"{when}: the {h} hand's release (no sound)")

    def assert_at_rest(self, start: int, when: str) -> None:
        """From samples[start] on, the free knob stays at its value's detent, silently, showing its value."""
        __tracebackhide__ = True
        want = detent(self.value)
        for s in self.samples[start:]:
            got = angle_of(s, when)
            assert abs(wrap(got - want)) <= STILL_TOL, (
                f"{when}: expected the knob to stay at the detent of its value {self.value} ({want:.0f} degrees); "
                f"observed {got:.1f} in frame {s.frame}"
            )
            assert isinstance(s.text, str) and s.text.strip() == str(self.value), (
                f"{when}: expected the readout to show {self.value}; observed its state.text {s.text!r}"
            )
        first = self.samples[start].frame
        found = [e for e in self.xr.audio()[self.since :] if e["frame"] >= first]
        assert not found, f"{when}: expected no sound; observed {describe(self.xr, found)}"


def side_of(xr, role: str) -> float:
    return 1.0 if xr.handedness(role) == "right" else -1.0


# --- tests ------------------------------------------------------------------------------------------


def test_the_knob_base_pointer_and_readout_are_laid_out_as_stated(xr):
    xr.step(1)
    since = len(xr.audio())
    got = read(xr, extent=True)
    knob = one(got, "volume-dial")
    assert knob["extent"], "expected the object tagged 'volume-dial' to be the knob's mesh; it has no geometry"
    e = knob["extent"]
    diameter, height = 2 * e["radius"], e["hi"][1] - e["lo"][1]
    assert abs(diameter - KNOB_DIAMETER) <= SIZE_TOL and abs(height - KNOB_HEIGHT) <= SIZE_TOL, (
        f"expected the knob an upright cylinder {KNOB_DIAMETER} m across and {KNOB_HEIGHT} m tall; observed "
        f"{diameter:.3f} m across (about the vertical through its centre) and {height:.3f} m tall"
    )
    lo, hi = e["lo"], e["hi"]
    assert abs((hi[0] - lo[0]) - KNOB_DIAMETER) <= SIZE_TOL and abs((hi[2] - lo[2]) - KNOB_DIAMETER) <= SIZE_TOL, (
        f"expected the knob {KNOB_DIAMETER} m across in x and z (an upright cylinder); observed "
        f"{hi[0] - lo[0]:.3f} x {hi[2] - lo[2]:.3f} m"
    )
    centre = tuple((lo[k] + hi[k]) / 2 for k in range(3))
    assert math.dist(centre, KNOB_CENTRE) <= PLACE_TOL, (
        f"expected the knob's centre at {KNOB_CENTRE}; observed {fmt(centre)}"
    )
    base = one(got, "dial-base")
    read_base = read(xr, extent=True)
    b = one(read_base, "dial-base")["extent"]
    assert b, "expected the object tagged 'dial-base' to be the base's mesh; it has no geometry"
    bsize = tuple(b["hi"][k] - b["lo"][k] for k in range(3))
    bcentre = tuple((b["lo"][k] + b["hi"][k]) / 2 for k in range(3))
    assert all(abs(bsize[k] - BASE_SIZE[k]) <= SIZE_TOL for k in range(3)), (
        f"expected the base a box {BASE_SIZE} m (width, height, depth); observed {fmt(bsize)}"
    )
    assert math.dist(bcentre, BASE_CENTRE) <= PLACE_TOL, (
        f"expected the base's centre at {BASE_CENTRE}; observed {fmt(bcentre)}"
    )
    assert base["visible"] and knob["visible"], "expected the knob and the base visible"
    pointer = one(got, "dial-pointer")
    assert pointer["visible"] and pointer["centre"], "expected the pointer a visible mesh"
    pc = pointer["centre"]
    r = math.hypot(pc[0] - centre[0], pc[2] - centre[2])
    assert 0.015 - 0.002 <= r <= 0.035 + 0.002, (
        f"expected the pointer's centre 1.5-3.5 cm from the knob's axis; observed {r * 100:.1f} cm"
    )
    assert pc[1] >= centre[1], f"expected the pointer on the knob's top; its centre is at height {pc[1]:.3f}"
    s = sample(xr)
    angle = angle_of(s, "at start")
    assert abs(wrap(angle - detent(START_VALUE))) <= SNAP_TOL, (
        f"expected the knob to start at the detent of the value {START_VALUE} ({detent(START_VALUE):.0f} degrees, "
        f"clockwise from -z seen from above); observed the pointer at {angle:.1f} degrees"
    )
    readout = one(got, "dial-readout")
    assert readout["state"] and readout["state"].get("text") == str(START_VALUE), (
        f"expected the readout's state.text {str(START_VALUE)!r} at start; observed {readout['state']!r}"
    )
    rd = one(read(xr, extent=True), "dial-readout")["extent"]
    assert rd, "expected the object tagged 'dial-readout' to be the panel's mesh"
    rsize = tuple(rd["hi"][k] - rd["lo"][k] for k in range(3))
    rcentre = tuple((rd["lo"][k] + rd["hi"][k]) / 2 for k in range(3))
    assert (
        abs(rsize[0] - READOUT_SIZE[0]) <= SIZE_TOL
        and abs(rsize[1] - READOUT_SIZE[1]) <= SIZE_TOL
        and rsize[2] <= 0.005
    ), f"expected the readout a flat upright panel {READOUT_SIZE} m facing +z; observed a box {fmt(rsize)}"
    assert math.dist(rcentre, READOUT_CENTRE) <= PLACE_TOL, (
        f"expected the readout's centre at {READOUT_CENTRE}; observed {fmt(rcentre)}"
    )
    q = readout["quaternion"]
    normal = _rotate(q, (0.0, 0.0, 1.0))
    assert normal[2] >= math.cos(math.radians(10)), (
        f"expected the readout's front (local +z) to face +z; observed {fmt(normal)}"
    )
    pic = readout_picture(xr)
    assert_shows_text(pic, "the readout at start")
    big = xr.probe(_BIG_CYLINDERS_JS)
    assert not big, f"expected the starting cylinder replaced by the knob; observed shown cylinders {big}"
    xr.step(60)
    assert_silent(xr, since, "the first second after the app opened")
    assert_no_errors(xr)


def _rotate(q: Sequence[float], v: Sequence[float]) -> Vec:
    x, y, z, w = q
    p = qmul(qmul(q, (v[0], v[1], v[2], 0.0)), (-x, -y, -z, w))
    return (p[0], p[1], p[2])


def readout_picture(xr) -> np.ndarray:
    return xr.picture(READOUT_CENTRE, (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), READOUT_SIZE, (80, 50), distance=0.3).astype(
        int
    )


def assert_shows_text(pic: np.ndarray, what: str) -> None:
    __tracebackhide__ = True
    flat = pic.reshape(-1, 3)
    median = np.median(flat, axis=0)
    marked = int((np.abs(flat - median).sum(axis=1) > 90).sum())
    assert 0.02 * len(flat) <= marked <= 0.6 * len(flat), (
        f"expected {what}'s front to show its value as text; {marked} of {len(flat)} pixels differ from its background"
    )


def test_turning_clockwise_raises_the_value_click_by_click_and_clamps_at_10(xr):
    k = Knob(xr)
    role = "dominant"
    k.grab(role, "the first grab")
    start = len(k.samples)
    # From 4 (-27) to 10 (135) is 162 degrees: 8 more past the end. On the way, a quick twist of 14
    # degrees in one frame (from 3 to 17 degrees: 5 to 6), which the knob follows in that frame.
    k.turn(role, 30.0)
    k.turn(role, 14.0, step=14.0)
    k.turn(role, 126.0)
    k.assert_follows(start, "turning clockwise to the end and 8 degrees past it, with a quick twist on the way")
    k.assert_sounds(start, "turning clockwise from 4 to 10")
    assert nearest_value(angle_of(k.last, "")) == 10
    start = len(k.samples)
    k.turn(role, -40.0)  # back: the knob waits for 8 degrees, then follows
    k.assert_follows(start, "turning back counterclockwise from 8 degrees past the end")
    k.assert_sounds(start, "turning back from past the end")
    k.release(role, "releasing between detents")
    k.withdraw(role)
    pic = readout_picture(xr)
    assert_shows_text(pic, f"the readout showing {k.value}")
    assert differing(pic, k.start_picture) >= 30, (
        f"expected the readout to look different showing {k.value} than showing {START_VALUE}; it looks the same"
    )
    assert_no_errors(xr)


def differing(a: np.ndarray, b: np.ndarray) -> int:
    return int((np.abs(a - b).sum(axis=2) > 90).sum())


def test_turning_counterclockwise_with_the_other_hand_lowers_the_value_to_0(xr):
    k = Knob(xr)
    role = "non_dominant"
    k.grab(role, "the non-dominant hand's grab")
    start = len(k.samples)
    k.turn(role, -150.0)  # from 4 (-27) to 0 (-135) is 108 degrees: 42 more past the end
    k.assert_follows(start, "turning counterclockwise to the end and 42 degrees past it")
    k.assert_sounds(start, "turning counterclockwise from 4 to 0 and past the end")
    start = len(k.samples)
    k.turn(role, 20.0)  # back 20 of the 42 degrees: the knob stays at the end, silently
    k.turn(role, 44.0)  # on: it follows for the last 22 degrees, to value 1
    k.assert_follows(start, "turning back clockwise from 42 degrees past the end")
    k.assert_sounds(start, "turning back clockwise from past the end")
    k.release(role, "releasing at value 1, 9 degrees past its detent")
    assert k.value == 1, f"expected the knob released at the value 1; it was at {k.value}"
    k.withdraw(role)
    pic_one = readout_picture(xr)
    assert_shows_text(pic_one, "the readout showing 1")
    assert differing(pic_one, k.start_picture) >= 30, "expected the readout to look different showing 1 than showing 4"
    # Again with the same hand, from where it was left: down to 0 (the end tone), past it, and released there.
    k.grab(role, "the second grab")
    start = len(k.samples)
    k.turn(role, -40.0)
    k.assert_follows(start, "the second grab, turning counterclockwise past 0")
    k.assert_sounds(start, "the second grab, turning from 1 to 0")
    k.release(role, "releasing at 0")
    assert k.value == 0, f"expected the knob released at 0; it was at {k.value}"
    k.withdraw(role)
    pic_zero = readout_picture(xr)
    assert_shows_text(pic_zero, "the readout showing 0")
    assert differing(pic_zero, pic_one) >= 30, "expected the readout to look different showing 0 than showing 1"
    start = len(k.samples)
    k.hold_still(30)
    k.assert_at_rest(start, "after the release at 0")
    assert_no_errors(xr)


def test_a_grab_lasts_until_the_pinch_ends_and_the_knob_snaps_on_release(xr):
    k = Knob(xr)
    role = "dominant"
    side = side_of(xr, role)
    k.grab(role, "the grab")
    # The hand moves up and sideways without turning: the fingertip leaves the knob, the knob does not turn.
    start = len(k.samples)
    k.move(role, (0.1 * side, 0.1, 0.05))
    tip = k.last.tip[xr.handedness(role)]
    off = math.hypot(tip[0] - KNOB_CENTRE[0], tip[2] - KNOB_CENTRE[2])
    assert off > KNOB_DIAMETER / 2 + 0.03 or tip[1] > KNOB_CENTRE[1] + 0.05, "the fingertip did not leave the knob"
    k.assert_follows(start, "the holding hand moving away without turning (the knob must stay at its angle)")
    # Still held: turning the hand there turns the knob.
    start = len(k.samples)
    k.turn(role, 60.0)
    k.assert_follows(start, "the holding hand, its fingertip off the knob, turning 60 degrees clockwise")
    k.assert_sounds(start, "turning 60 degrees clockwise with the fingertip off the knob")
    k.release(role, "releasing at 33 degrees (value 6, 6 degrees past its detent)")
    assert k.value == 6, f"expected the knob released at the value 6; it was at {k.value}"
    # The released hand turns and moves: the knob stays.
    start = len(k.samples)
    k.turn(role, -50.0)
    k.move(role, (-0.1 * side, -0.1, -0.05))
    k.turn(role, 30.0)
    k.assert_at_rest(start, "the released hand turning and moving")
    k.withdraw(role)
    # Grabbed again: from 27 degrees back counterclockwise.
    k.grab(role, "the second grab")
    start = len(k.samples)
    k.turn(role, -36.0)
    k.assert_follows(start, "the second grab, turning 36 degrees counterclockwise")
    k.assert_sounds(start, "the second grab, turning from 6 to 5")
    k.release(role, "releasing at -9 degrees (value 5)")
    assert k.value == 5, f"expected the knob released at the value 5; it was at {k.value}"
    assert_no_errors(xr)


def test_pinches_that_do_not_touch_the_knob_do_nothing(xr):
    k = Knob(xr)
    me, other = "dominant", "non_dominant"
    start = len(k.samples)
    # 3 cm above the knob's top, then, still pinching, down into it and turning.
    k.point_down(me)
    k.hover(me, KNOB_CENTRE, KNOB_CENTRE[1] + KNOB_HEIGHT / 2 + 0.03)
    k.take()
    k.pinch(me)
    k.hold_still(CLOSE_FRAMES)
    k.turn(me, 60.0)
    k.assert_at_rest(start, "a pinch 3 cm above the knob, turning 60 degrees")
    k.turn(me, -60.0)
    k.move(me, (0.0, -0.045, 0.0))
    tip = k.last.tip[xr.handedness(me)]
    assert tip[1] < KNOB_CENTRE[1] + KNOB_HEIGHT / 2, f"the fingertip did not reach into the knob: {fmt(tip)}"
    k.turn(me, 60.0)
    k.assert_at_rest(start, "a pinch begun 3 cm above the knob, then moved into it and turning 60 degrees")
    k.unpinch(me)
    k.hold_still(CLOSE_FRAMES)
    k.withdraw(me)
    k.assert_at_rest(start, "after that pinch opened")
    # The other hand: 3 cm in front of the knob's rim (towards the user), at the knob's height.
    k.point_down(other)
    hand = xr.hand(other)
    front = (KNOB_CENTRE[0], KNOB_CENTRE[1], KNOB_CENTRE[2] + KNOB_DIAMETER / 2 + 0.03)
    c = hand.position
    hand.move_hand((c[0], c[1] + 0.05, c[2]))
    t = hand.fingertip
    hand.move_hand((front[0], t[1], front[2]), anchor="fingertip")
    hand.move_hand(front, anchor="fingertip")
    k.take()
    k.pinch(other)
    k.hold_still(CLOSE_FRAMES)
    k.turn(other, -60.0)
    k.assert_at_rest(start, "a pinch 3 cm in front of the knob's rim, turning 60 degrees")
    k.unpinch(other)
    k.hold_still(CLOSE_FRAMES)
    k.withdraw(other)
    # A pinch at rest, beside the user.
    hand.point_forward()
    k.pinch(other)
    k.hold_still(CLOSE_FRAMES)
    k.unpinch(other)
    k.hold_still(CLOSE_FRAMES)
    k.assert_at_rest(start, "pinches that did not touch the knob")
    # And a pinch in the knob does grab it.
    k.grab(me, "a grab after those pinches")
    begin = len(k.samples)
    k.turn(me, 30.0)
    k.assert_follows(begin, "a grab after those pinches, turning 30 degrees")
    k.assert_sounds(begin, "a grab after those pinches, turning 30 degrees")
    assert_no_errors(xr)


def test_the_other_hand_cannot_take_the_knob_while_it_is_held(xr):
    k = Knob(xr)
    me, other = "dominant", "non_dominant"
    mine, theirs = xr.handedness(me), xr.handedness(other)
    s = side_of(xr, other)
    k.grab(me, "the dominant hand's grab")
    # The other hand reaches in beside it, its fingertip in the knob too, and pinches.
    start = len(k.samples)
    k.reach(other, at=(KNOB_CENTRE[0] - 0.012 * s, 0.0, KNOB_CENTRE[2] + 0.012))
    tip = xr.hand(other).fingertip
    assert math.hypot(tip[0] - KNOB_CENTRE[0], tip[2] - KNOB_CENTRE[2]) < KNOB_DIAMETER / 2 - 0.004, (
        f"the {theirs} fingertip is not in the knob: {fmt(tip)}"
    )
    k.take()
    k.pinch(other)
    k.hold_still(CLOSE_FRAMES)
    k.turn(other, -40.0)
    k.assert_follows(start, f"the {theirs} hand pinching in the knob and turning while the {mine} hand holds it")
    k.assert_sounds(start, f"the {theirs} hand pinching in the knob and turning while the {mine} hand holds it")
    start = len(k.samples)
    k.turn(me, 30.0)
    k.assert_follows(start, f"the {mine} hand turning on while the {theirs} hand pinches in the knob")
    k.assert_sounds(start, f"the {mine} hand turning on while the {theirs} hand pinches in the knob")
    k.release(me, f"the {mine} hand releasing while the {theirs} hand pinches")
    # The other hand, still pinching from before, turns: the knob stays.
    start = len(k.samples)
    k.turn(other, 40.0)
    k.assert_at_rest(start, f"the {theirs} hand turning its old pinch after the {mine} hand let go")
    k.withdraw(me)
    k.unpinch(other)
    k.hold_still(CLOSE_FRAMES)
    k.assert_at_rest(start, f"the {theirs} hand opening its old pinch")
    # A new pinch of the other hand grabs it.
    k.grab(other, f"the {theirs} hand's new pinch")
    start = len(k.samples)
    k.turn(other, 30.0)
    k.assert_follows(start, f"the {theirs} hand holding the knob, turning 30 degrees")
    k.assert_sounds(start, f"the {theirs} hand holding the knob, turning 30 degrees")
    k.release(other, f"the {theirs} hand's release")
    assert_no_errors(xr)


def test_from_beside_the_stand_looking_down_at_the_knob(xr):
    k = Knob(xr)
    eye = xr.head.position[1]
    for x, role in ((0.45, "dominant"), (-0.45, "non_dominant")):
        # Walk round to stand beside the stand, turned towards it, and look down at the knob.
        xr.head.walk([(x, eye, 0.0), (x, eye, KNOB_CENTRE[2])])
        xr.head.look_at(KNOB_CENTRE)
        k.take()
        h = xr.handedness(role)
        when = f"standing at x={x} looking down at the knob, the {role} ({h}) hand"
        k.grab(role, when)
        start = len(k.samples)
        k.turn(role, 50.0)
        k.turn(role, -100.0)
        k.assert_follows(start, f"{when}: turning 50 degrees clockwise, then 100 back")
        k.assert_sounds(start, f"{when}: turning 50 degrees clockwise, then 100 back")
        k.release(role, f"{when}: releasing")
        k.withdraw(role)
    assert_no_errors(xr)
