"""Runtime tests of the hidden beacon found by ear.

Every sound comes from the harness's own log of the sounds the page starts (`xr.audio()`: the frame
a sound started, its pitch, its length); a sound within 1 % of 1320 Hz is the chime, every other
sound counts as a beep. The tests step every frame themselves, with frame lengths they choose, so
they know the virtual time of every frame; after each frame they read the camera's pose and the
angle between its forward direction and the direction from the eyes to the beacon (`Timeline`).
The rules are checked frame by frame from those readings: the next beep is due in the first frame
at which the time since the last beep reaches `0.2 s + 0.8 s x min(angle, 90) / 90` for that
frame's angle (1 ms of slack for rounding), and must sound in that frame or the next, never
earlier; the beacon is found in the first frame at which 1.0 s has passed since the start of an
unbroken run of frames with the angle at most 10 degrees (or in the next frame).

They check that
- before plane detection has found a table nothing plays and nothing is shown; once the planes
  arrive the beacon sits at the centre of the table top (in the kitchen the larger of two tables,
  the counter) within a quarter second, the first beep in that very frame; the beeps are 0.1 s
  tones of 880 Hz played through a THREE.PositionalAudio under the beacon, at its place, whose
  listener rides on the camera, each a new start of that positional audio; nothing is shown;
- with the user turned and walked to other places, the beeps follow the rate of every angle held
  (15 to 150 degrees), also with frames of uneven lengths, and a turn towards the beacon brings a
  beep at once when the new, shorter interval makes it due;
- looking within 10 degrees for 1.0 s finds the beacon: in that frame (or the next) the chime of
  1320 Hz, 0.4-0.6 s long, starts once, no beep sounds then or ever after, `state.found` becomes
  true and a marker 0.05-0.3 m in size appears resting on the table top over the beacon, and
  stays; looking away before the second is up starts the count again; 13 degrees off never finds it;
- the beacon is placed once: on the only table detected first, it stays when a larger table is
  detected later; in a room without any table the app stays silent.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.scenes import get_scene

Vec = tuple[float, float, float]

DT = 1000.0 / 60.0  # ms: the harness's default frame
UNEVEN = (16.7, 11.0, 25.0, 33.0, 14.0, 20.0)  # ms: frames of uneven lengths
SLACK_MS = 1.0  # rounding slack for "has reached"
FOUND_DEG = 10.0
DWELL_MS = 1000.0
SOON = 15  # frames: a quarter of a second
BEEP_HZ, CHIME_HZ = 880.0, 1320.0
PITCH_TOL = 0.01
BEEP_S, BEEP_TOL = 0.1, 0.02
CHIME_MIN, CHIME_MAX = 0.4, 0.6
AT_TOL = 0.02  # the beacon at the table top's centre, the audio at the beacon
REST_TOL = 0.01
CENTRE_TOL = 0.05
MARKER_MIN, MARKER_MAX = 0.05, 0.3
SNAP = 1e6  # degrees/s: a head turn done in one frame

pytestmark = pytest.mark.xr_scenes("living_room", "kitchen")


def interval_ms(deg: float) -> float:
    return 200.0 + 800.0 * min(deg, 90.0) / 90.0


def _fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _sub(a, b) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _norm(a) -> Vec:
    n = math.sqrt(sum(v * v for v in a)) or 1.0
    return (a[0] / n, a[1] / n, a[2] / n)


def angle_deg(forward, eye, target) -> float:
    u, f = _norm(_sub(target, eye)), _norm(forward)
    return math.degrees(math.acos(max(-1.0, min(1.0, sum(x * y for x, y in zip(u, f, strict=True))))))


# --- the scene's tables -------------------------------------------------------------------------


def tables(scene: str) -> list[dict[str, Any]]:
    return [p for p in get_scene(scene).planes() if p["label"] == "table"]


def centre_of(plane: dict[str, Any]) -> Vec:
    p = plane["position"]
    return (p["x"], p["y"], p["z"])


def largest_table(scene: str) -> dict[str, Any]:
    return max(tables(scene), key=lambda p: p["area"])


# --- time and angle -----------------------------------------------------------------------------


class Timeline:
    """The virtual time (ms) and the head's angle off the beacon (degrees) of every frame stepped."""

    def __init__(self, xr) -> None:
        self.xr = xr
        self.target: Vec | None = None
        self.t: dict[int, float] = {xr.frame: 0.0}
        self.theta: dict[int, float | None] = {xr.frame: None}
        self.last = xr.frame

    def angle(self) -> float | None:
        if self.target is None:
            return None
        pose = self.xr.camera_pose()
        return angle_deg(pose.forward, pose.position, self.target)

    def step(self, frames: int, dt: float | tuple[float, ...] = DT) -> int:
        """Step `frames` frames (with a tuple, three frames of each length in turn). The head stands still
        between actors' moves, so the angle read after the last move holds for every frame stepped here."""
        self.sync()
        theta = self.theta[self.last]
        done = 0
        while done < frames:
            if isinstance(dt, tuple):
                d = dt[(self.last // 3) % len(dt)]
                n = min(frames - done, 3)
            else:
                d, n = dt, frames - done
            self.xr.step(n, d)
            assert self.xr.frame == self.last + n, f"stepped {n} frames from {self.last}; the app ran {self.xr.frame}"
            for f in range(self.last + 1, self.last + n + 1):
                self.t[f] = self.t[f - 1] + d
                self.theta[f] = theta
            self.last += n
            done += n
        return self.last

    def wait(self, ms: float, dt: float | tuple[float, ...] = DT) -> int:
        start = self.t[self.sync()]
        while self.t[self.last] < start + ms - SLACK_MS:
            left = start + ms - self.t[self.last]
            self.step(max(1, int(left / (max(dt) if isinstance(dt, tuple) else dt))), dt)
        return self.last

    def sync(self) -> int:
        """Frames an actor stepped by itself ran at the default length; only the last one's angle is known."""
        now = self.xr.frame
        if now > self.last:
            for f in range(self.last + 1, now + 1):
                self.t[f] = self.t[f - 1] + DT
                self.theta[f] = None
            self.theta[now] = self.angle()
            self.last = now
        return now

    def look_off(self, deg: float, side: float = 1.0) -> int:
        """Turn the head, in one frame, to look `deg` degrees off the beacon; returns that frame."""
        assert self.target is not None
        eye = self.xr.camera_pose().position
        u = _norm(_sub(self.target, eye))
        w = _norm((-u[2] * side, 0.0, u[0] * side))  # horizontal, across the line of sight
        r = math.radians(deg)
        d = tuple(math.cos(r) * u[i] + math.sin(r) * w[i] for i in range(3))
        self.xr.head.look_at(tuple(eye[i] + 2.0 * d[i] for i in range(3)), speed=SNAP)
        f = self.sync()
        got = self.theta[f]
        assert got is not None and abs(got - deg) < 1.0, f"test set-up: asked the head {deg} deg off, it is {got}"
        return f

    def due_after(self, prev: int) -> int | None:
        """The frame the beep after the one in frame `prev` is due in (None: not within what was stepped)."""
        for f in range(prev + 1, self.last + 1):
            th = self.theta[f]
            assert th is not None, f"test set-up: frame {f} has no angle reading (between beeps)"
            if self.t[f] - self.t[prev] >= interval_ms(th) - SLACK_MS:
                return f
        return None

    def found_due(self, since: int, until: int | None = None) -> int | None:
        """The frame the beacon is due to be found in, looking at frames `since`..`until`."""
        start = None
        for f in range(since, (self.last if until is None else until) + 1):
            th = self.theta[f]
            assert th is not None, f"test set-up: frame {f} has no angle reading"
            if th <= FOUND_DEG:
                if start is None:
                    start = f
                if self.t[f] - self.t[start] >= DWELL_MS - SLACK_MS:
                    return f
            else:
                start = None
        return None

    def describe(self, frames: list[int]) -> str:
        out = []
        for f in frames[:14]:
            th = self.theta.get(f)
            out.append(f"{f} (t={self.t[f]:.1f} ms" + (f", {th:.1f} deg)" if th is not None else ")"))
        return ", ".join(out) + (f" and {len(frames) - 14} more" if len(frames) > 14 else "") if out else "none"


# --- sounds -------------------------------------------------------------------------------------


def is_chime(e: dict) -> bool:
    return bool(e["frequency"]) and abs(e["frequency"] - CHIME_HZ) <= PITCH_TOL * CHIME_HZ


def beep_frames(xr, since_frame: int = -1) -> list[int]:
    return [e["frame"] for e in xr.audio() if not is_chime(e) and e["frame"] > since_frame]


def chimes(xr) -> list[dict]:
    return [e for e in xr.audio() if is_chime(e)]


def assert_rate(tl: Timeline, beeps: list[int], anchor: int, end: int, what: str) -> None:
    """The beeps after the one in frame `anchor`, up to frame `end`, follow the rate rule."""
    __tracebackhide__ = True
    later = sorted(f for f in beeps if anchor < f <= end)
    doubles = sorted({f for f in later if later.count(f) > 1})
    assert not doubles, f"{what}: expected one beep at a time; observed several beeps in frames {doubles}"
    prev = anchor
    for n in later:
        due = tl.due_after(prev)
        rule = (
            f"after the beep in frame {prev} (t={tl.t[prev]:.1f} ms), the next is due in frame {due} "
            f"(or the next frame); beeps observed in frames {tl.describe(later)}"
        )
        assert due is not None and n >= due, f"{what}: a beep came too early, in frame {n}: {rule}"
        assert n <= due + 1, f"{what}: a beep is missing or late (next beep in frame {n}): {rule}"
        prev = n
    due = tl.due_after(prev)
    assert due is None or due + 1 > end, (
        f"{what}: after the beep in frame {prev} (t={tl.t[prev]:.1f} ms) the next was due in frame {due} "
        f"(t={tl.t[due]:.1f} ms, {tl.theta[due]:.1f} deg, interval {interval_ms(tl.theta[due]):.0f} ms) or the "
        f"next; none came up to frame {end} (beeps observed after frame {anchor}: {tl.describe(later)})"
    )


# --- the beacon ---------------------------------------------------------------------------------

_AUDIO_JS = """
(h, tag) => {
  const THREE = h.THREE;
  const camera = h.core.camera;
  camera.updateMatrixWorld(true);
  const head = camera.getWorldPosition(new THREE.Vector3());
  const seen = Symbol.for('xrbench.app-sound-compass.seen');
  const out = [];
  const underTag = (o) => {
    for (let p = o; p; p = p.parent) {
      const d = p.userData && p.userData.xrblocksDevtools;
      if (d && String(d.tag) === tag) return true;
    }
    return false;
  };
  h.core.scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    if (o.type !== 'PositionalAudio' && o.type !== 'Audio') return;
    let listenerGap = null;
    if (o.listener) {
      o.listener.updateWorldMatrix(true, false);
      listenerGap = o.listener.getWorldPosition(new THREE.Vector3()).distanceTo(head);
    }
    let fresh = false;
    const src = o.source;
    if (src && typeof src === 'object' && !src[seen]) {
      Object.defineProperty(src, seen, {value: true});
      fresh = true;
    }
    out.push({
      positional: o.type === 'PositionalAudio' || !!o.panner,
      underBeacon: underTag(o),
      listenerGap,
      loop: !!o.loop,
      bufferSeconds: o.buffer ? o.buffer.duration : null,
      sameBuffer: !!(src && o.buffer && src.buffer === o.buffer),
      fresh,
      position: o.getWorldPosition(new THREE.Vector3()).toArray(),
    });
  });
  return out;
}
"""


def beacon_node(xr):
    nodes = [n for n in xr.tagged("beacon") if n.root == "scene"]
    assert len(nodes) <= 1, f"expected one object tagged 'beacon'; observed {len(nodes)}"
    return nodes[0] if nodes else None


def marker_node(xr):
    nodes = [n for n in xr.tagged("beacon-marker") if n.root == "scene"]
    assert len(nodes) <= 1, f"expected one object tagged 'beacon-marker'; observed {len(nodes)}"
    return nodes[0] if nodes else None


def assert_nothing_shown(xr, when: str) -> None:
    __tracebackhide__ = True
    shown = xr.drawn()
    assert not shown, f"expected the app to show nothing {when} (the beacon is invisible); observed {shown}"


def wait_for_beacon(xr, tl: Timeline, table: Vec, since: int, what: str) -> int:
    """Step frame by frame until the beacon is at the table's centre (at most a quarter second after
    frame `since`); the first beep must sound in that frame. Returns the frame; sets the timeline's target."""
    __tracebackhide__ = True
    while True:
        node = beacon_node(xr)
        if node is not None and math.dist(node.position, table) <= AT_TOL:
            beeps = beep_frames(xr)
            assert beeps and beeps[0] == xr.frame, (
                f"expected the first beep in the frame the beacon was placed (frame {xr.frame}, {what}); observed "
                f"beeps in frames {beeps[:5]}"
            )
            tl.target = node.position
            tl.theta[xr.frame] = tl.angle()
            return xr.frame
        beeps = beep_frames(xr)
        assert not beeps, (
            f"expected no beep before the beacon is placed at the table's centre {_fmt(table)} ({what}); observed "
            f"beeps in frames {beeps[:5]} with the beacon "
            + ("not made yet" if node is None else f"at {_fmt(node.position)}")
        )
        assert xr.frame - since < SOON, (
            f"expected the beacon at the centre of the table top {_fmt(table)} (within {AT_TOL} m) within a quarter "
            f"second ({SOON} frames) of the table being detected, {what}; after {xr.frame - since} frames it is "
            + ("not made" if node is None else f"at {_fmt(node.position)}")
        )
        tl.step(1)


def start(xr, scene: str, table: Vec | None = None) -> tuple[Timeline, int]:
    """Deliver the scene's planes a few frames after the start; returns the timeline and the placement frame."""
    tl = Timeline(xr)
    xr.plane_detection.withhold()
    tl.step(5)
    xr.plane_detection.add(*get_scene(scene).planes())
    since = xr.frame
    tl.step(1)
    placed = wait_for_beacon(xr, tl, table or centre_of(largest_table(scene)), since, f"in the {scene}")
    return tl, placed


def assert_found_at(xr, tl: Timeline, since: int, what: str) -> int:
    """The beacon is found in the frame the rule makes due (or the next): the chime starts once, no beep
    sounds from then on, state.found turns true. Returns the chime's frame."""
    __tracebackhide__ = True
    due = tl.found_due(since)
    assert due is not None, f"test set-up: the beacon was not due to be found ({what})"
    found = chimes(xr)
    assert found, (
        f"{what}: expected the chime (1320 Hz) when the beacon is found, due in frame {due} (t={tl.t[due]:.1f} ms) "
        f"or the next; observed no chime up to frame {tl.last} (sounds: {xr.audio()[-4:]})"
    )
    frame = found[0]["frame"]
    assert due <= frame <= due + 1, (
        f"{what}: expected the beacon found (the chime) in frame {due} (t={tl.t[due]:.1f} ms, 1.0 s after the angle "
        f"came within {FOUND_DEG} deg) or the next; observed the chime in frame {frame} (t={tl.t[frame]:.1f} ms)"
    )
    assert len(found) == 1, f"{what}: expected one chime; observed {len(found)} in frames {[e['frame'] for e in found]}"
    e = found[0]
    length = e["duration"]
    if e["stop_frame"] is not None:
        stopped = (tl.t[e["stop_frame"]] - tl.t[frame]) / 1000 + (e["stop_delay"] or 0.0)
        length = stopped if length is None else min(length, stopped)
    assert length is not None and CHIME_MIN <= length <= CHIME_MAX, (
        f"{what}: expected a chime of 0.5 s ({CHIME_MIN}-{CHIME_MAX} s); observed {length}"
    )
    late = [f for f in beep_frames(xr) if f >= frame]
    assert not late, f"{what}: expected no beep from the frame the beacon was found ({frame}) on; observed {late}"
    return frame


def watch_the_finding(xr, tl: Timeline, since: int) -> None:
    """Step up to just before the beacon is due to be found (the head still), check nothing is found yet,
    then step frame by frame until the chime (at most 6 frames), checking state.found in its frame, then on."""
    __tracebackhide__ = True
    tl.wait(DWELL_MS - 50 - (tl.t[tl.last] - tl.t[since]))
    what = f"{tl.t[tl.last] - tl.t[since]:.0f} ms after the head came within {FOUND_DEG} deg"
    assert not chimes(xr), f"expected no chime {what}; observed {chimes(xr)}"
    assert_found_state(xr, False, what)
    assert_marker_hidden(xr, f"before the beacon is found ({what})")
    assert_nothing_shown(xr, f"before the beacon is found ({what})")
    for _ in range(6):
        tl.step(1)
        if chimes(xr):
            assert_found_state(xr, True, f"in the frame the beacon is found (frame {tl.last})")
            tl.step(1)
            node = marker_node(xr)
            assert node is not None and node.visible, (
                f"expected the marker shown from the frame the beacon was found (frame {tl.last - 1}) or the next; "
                f"observed none shown in frame {tl.last}"
            )
            break
    tl.wait(300)


def assert_marker(xr, beacon: Vec, table_y: float, what: str) -> None:
    __tracebackhide__ = True
    node = marker_node(xr)
    assert node is not None and node.visible, f"expected the marker shown on the table ({what}); observed none shown"
    assert node.bbox is not None, f"expected the marker to have geometry ({what})"
    lo, hi = node.bbox
    size = [hi[i] - lo[i] for i in range(3)]
    assert all(MARKER_MIN - 0.005 <= s <= MARKER_MAX + 0.005 for s in size), (
        f"expected a marker {MARKER_MIN}-{MARKER_MAX} m in width, height and depth ({what}); observed {_fmt(size)}"
    )
    assert abs(lo[1] - table_y) <= REST_TOL, (
        f"expected the marker's bottom on the table top at y = {table_y:.3f} (within {REST_TOL} m, {what}); "
        f"observed y = {lo[1]:.3f}"
    )
    cx, cz = (lo[0] + hi[0]) / 2, (lo[2] + hi[2]) / 2
    off = math.hypot(cx - beacon[0], cz - beacon[2])
    assert off <= CENTRE_TOL, (
        f"expected the marker's centre over the beacon at x = {beacon[0]:.3f}, z = {beacon[2]:.3f} (within "
        f"{CENTRE_TOL} m, {what}); observed x = {cx:.3f}, z = {cz:.3f}, {off:.3f} m away"
    )


def assert_marker_hidden(xr, what: str) -> None:
    __tracebackhide__ = True
    node = marker_node(xr)
    assert node is None or not node.visible, f"expected no marker shown {what}; observed it at {_fmt(node.position)}"


def assert_found_state(xr, found: bool, what: str) -> None:
    __tracebackhide__ = True
    node = beacon_node(xr)
    state = node.state if node is not None and isinstance(node.state, dict) else {}
    assert state.get("found") is found, (
        f"expected the beacon's state.found {found} {what}; observed {node and node.state!r}"
    )


# --- tests --------------------------------------------------------------------------------------


def test_silent_and_hidden_until_a_table_is_found_then_it_beeps_from_the_tables_centre(xr):
    xr_scene = xr.scene.name
    tl = Timeline(xr)
    xr.plane_detection.withhold()
    for _ in range(4):
        tl.step(15)
        assert not xr.audio(), f"expected silence before any plane is detected; observed {xr.audio()}"
        assert_nothing_shown(xr, "before any plane is detected")
    table = largest_table(xr_scene)
    xr.plane_detection.add(*get_scene(xr_scene).planes())
    since = xr.frame
    tl.step(1)
    placed = wait_for_beacon(xr, tl, centre_of(table), since, f"in the {xr_scene}, the largest table")
    sources = 0
    for k in range(26):  # a probe at least every 6 frames sees every start (beeps are 12 or more frames apart)
        found = [a for a in xr.probe(_AUDIO_JS, "beacon") if a["positional"] and a["underBeacon"]]
        assert found, "expected a THREE.PositionalAudio among the beacon's descendants; observed none"
        a = found[0]
        sources += sum(1 for x in found if x["fresh"])
        if k == 0:
            tl.look_off(70)
            tl.step(5)
        elif k < 25:
            tl.step(6)
    beacon = beacon_node(xr).position
    assert a["listenerGap"] is not None and a["listenerGap"] < 0.02, (
        f"expected the positional audio's listener on the user's camera; observed it {a['listenerGap']} m away"
    )
    gap = math.dist(a["position"], beacon)
    assert gap <= AT_TOL, f"expected the positional audio at the beacon {_fmt(beacon)}; observed it {gap:.3f} m away"
    assert not a["loop"], "expected the beep not to loop"
    assert a["sameBuffer"], "expected the positional audio to play its own buffer (setBuffer)"
    beeps = [e for e in xr.audio() if not is_chime(e)]
    frames = [e["frame"] for e in beeps]
    assert_rate(tl, frames, placed, tl.last, "looking 70 deg off the beacon")
    assert sources == len(frames), (
        f"expected every beep to be a new start of the beacon's positional audio (stop() then play()); observed "
        f"{len(frames)} beeps and {sources} new starts of the positional audio"
    )
    for e in beeps:
        hz, length = e["frequency"], e["duration"]
        assert e["kind"] == "buffer" and hz and abs(hz - BEEP_HZ) <= PITCH_TOL * BEEP_HZ, (
            f"expected each beep a tone of {BEEP_HZ:.0f} Hz from a generated buffer; observed {e}"
        )
        assert length is not None and abs(length - BEEP_S) <= BEEP_TOL, (
            f"expected each beep {BEEP_S} s long (within {BEEP_TOL} s); observed {e}"
        )
    assert_nothing_shown(xr, "while the beacon beeps, not found yet")
    assert_marker_hidden(xr, "before the beacon is found")
    assert not xr.failed_requests, f"expected no request for an audio file; observed {xr.failed_requests}"
    assert_no_errors(xr)


def walk_away(xr, tl: Timeline, scene: str) -> None:
    """The user turns away and walks to the table's side (living room) or between the kitchen's tables."""
    if scene == "living_room":
        xr.head.rotate(yaw=120)
        path = [(1.2, 1.5, -0.6)]
    else:
        path = [(1.3, 1.5, -0.6), (1.3, 1.5, -2.3)]
    tl.sync()
    xr.head.walk(path, speed=1.5)
    tl.sync()


def first_beep_after(xr, tl: Timeline, frame: int, what: str) -> int:
    """Step until a beep comes after `frame` (at most 1.1 s); returns its frame."""
    __tracebackhide__ = True
    while True:
        later = beep_frames(xr, frame)
        if later:
            return later[0]
        assert tl.t[tl.last] - tl.t[frame] <= 1100, f"expected a beep within a second {what}; observed none"
        tl.step(1)


def test_the_beep_interval_follows_the_view_angle(xr):
    scene = xr.scene.name
    tl, _ = start(xr, scene)
    walk_away(xr, tl, scene)
    anchor = first_beep_after(xr, tl, tl.look_off(150), "looking 150 deg off the beacon")
    tl.wait(1100)
    for k, (deg, dt, ms) in enumerate(((90, UNEVEN, 1600), (60, DT, 1000), (35, UNEVEN, 1000), (15, DT, 800))):
        tl.look_off(deg, side=1 if k % 2 else -1)
        tl.wait(ms, dt)
    assert_rate(tl, beep_frames(xr), anchor, tl.last, "looking 150, 90, 60, 35, 15, then 45 deg off the beacon")
    assert not chimes(xr), "expected no chime: the user never looked within 10 deg"
    assert_nothing_shown(xr, "before the beacon is found")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room")
def test_a_turn_towards_the_beacon_brings_a_due_beep_at_once(xr):
    tl, _ = start(xr, "living_room")
    tl.look_off(120)
    anchor = first_beep_after(xr, tl, tl.last, "looking 120 deg off the beacon")
    checks = []
    for deg, after_ms, new in ((120, 450, 20), (120, 700, 45), (100, 350, 12)):
        tl.look_off(deg)
        beep = first_beep_after(xr, tl, tl.last, f"looking {deg} deg off")
        tl.wait(after_ms)
        assert beep_frames(xr, beep) == [], f"test set-up: a beep came within {after_ms} ms at {deg} deg"
        turn = tl.look_off(new, side=-1)  # now the interval of the new angle has passed: due at once
        checks.append((beep, turn))
        tl.wait(400)
    tl.look_off(30)
    tl.wait(300)
    tl.look_off(110, side=-1)  # a turn away just after a beep: the next comes a full second later
    tl.wait(1500)
    assert_rate(tl, beep_frames(xr), anchor, tl.last, "turning between angles")
    for beep, turn in checks:
        got = beep_frames(xr, beep)
        assert got and got[0] <= turn + 1, (
            f"expected a beep at once (frame {turn} or the next) when the head turned towards the beacon "
            f"{tl.t[turn] - tl.t[beep]:.0f} ms after the last beep (frame {beep}), past the new interval; "
            f"observed the next beep in frame {got[0] if got else None}"
        )
    assert_no_errors(xr)


def test_looking_at_the_beacon_for_a_second_finds_it(xr):
    scene = xr.scene.name
    table = largest_table(scene)
    tl, _ = start(xr, scene)
    walk_away(xr, tl, scene)
    if scene == "living_room":
        xr.head.move((0.0, -0.3, 0.0), speed=0.5)  # crouching
    tl.look_off(60)
    anchor = first_beep_after(xr, tl, tl.last, "looking 60 deg off the beacon")
    tl.wait(300)
    since = tl.look_off(4, side=-1)
    watch_the_finding(xr, tl, since)
    chime = assert_found_at(xr, tl, since, f"looking 4 deg off the beacon in the {scene}")
    assert_rate(tl, beep_frames(xr), anchor, chime - 1, "before the beacon was found")
    beacon = tl.target
    assert_marker(xr, beacon, centre_of(table)[1], "just after the beacon was found")
    for deg in (120, 0, 45):
        tl.look_off(deg)
        tl.wait(1100 if deg == 0 else 700, UNEVEN)
    late = beep_frames(xr, chime - 1)
    assert not late, f"expected no beep after the beacon was found (frame {chime}); observed {tl.describe(late)}"
    assert len(chimes(xr)) == 1, f"expected the chime once; observed it in frames {[e['frame'] for e in chimes(xr)]}"
    assert_found_state(xr, True, "after the beacon was found")
    assert_marker(xr, beacon, centre_of(table)[1], "3 s after the beacon was found, the user looking about")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room")
def test_looking_away_before_the_second_is_up_starts_the_count_again(xr):
    tl, _ = start(xr, "living_room")
    tl.look_off(50)
    anchor = first_beep_after(xr, tl, tl.last, "looking 50 deg off the beacon")
    since = tl.look_off(13)  # just outside 10 deg: never found
    tl.wait(1500)
    tl.look_off(6, side=-1)
    tl.wait(800)
    tl.look_off(25)  # a glance away for three frames
    tl.step(2)
    tl.look_off(3)
    tl.wait(500, UNEVEN)
    tl.look_off(14, side=-1)  # one frame off
    tl.look_off(8)
    back = tl.last
    tl.wait(1200, UNEVEN)
    due = tl.found_due(since)
    assert due is not None and tl.t[due] - tl.t[back] >= DWELL_MS - SLACK_MS, "test set-up: found too early"
    chime = assert_found_at(xr, tl, since, "after looking away twice before the second was up")
    assert_rate(tl, beep_frames(xr), anchor, chime - 1, "before the beacon was found")
    assert_marker(xr, tl.target, centre_of(largest_table("living_room"))[1], "once the beacon was found")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_the_beacon_stays_on_the_first_table_found(xr):
    planes = get_scene("kitchen").planes()
    island, counter = sorted(tables("kitchen"), key=lambda p: p["area"])
    tl = Timeline(xr)
    xr.plane_detection.withhold()
    tl.step(5)
    xr.plane_detection.add(*[p for p in planes if p["label"] != "table"], island)
    since = xr.frame
    tl.step(1)
    wait_for_beacon(xr, tl, centre_of(island), since, "in the kitchen, the island being the only table")
    tl.wait(300)
    xr.plane_detection.add(counter)  # larger, detected later
    for _ in range(3):
        tl.step(10)
        node = beacon_node(xr)
        gap = math.dist(node.position, tl.target)
        assert gap <= 0.003, (
            f"expected the beacon to stay at the island's centre {_fmt(tl.target)} after the larger counter was "
            f"detected; observed it at {_fmt(node.position)}"
        )
    xr.head.walk([(1.3, 1.5, -0.6), (1.3, 1.5, -2.3)], speed=1.5)
    tl.sync()
    tl.look_off(70)
    anchor = first_beep_after(xr, tl, tl.last, "looking 70 deg off the island")
    tl.wait(600)
    since = tl.look_off(2)
    watch_the_finding(xr, tl, since)
    chime = assert_found_at(xr, tl, since, "looking at the island's centre from beside the counter")
    assert_rate(tl, beep_frames(xr), anchor, chime - 1, "looking at the island")
    assert_marker(xr, tl.target, centre_of(island)[1], "on the island once the beacon was found")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("empty")
def test_silent_in_a_room_without_a_table(xr):
    xr.wait(1000)
    xr.head.walk([(0.0, 1.5, -1.5), (1.0, 1.5, -2.5)], speed=1.0)
    xr.head.rotate(yaw=90, pitch=-30)
    xr.wait(1000)
    assert not xr.audio(), f"expected silence in a room without a table; observed {xr.audio()[:4]}"
    assert_nothing_shown(xr, "in a room without a table")
    assert_no_errors(xr)
