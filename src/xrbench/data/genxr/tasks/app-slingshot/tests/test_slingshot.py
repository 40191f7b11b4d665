"""Runtime tests of the two-handed slingshot.

They check that
- the app starts with nothing drawn (the cylinder is gone); a pinch of either hand alone takes the
  slingshot: an object tagged 'slingshot', shown, its position (the fork point) at that hand's
  index fingertip frame by frame while the fingers close and the hand moves 1 cm per frame, its
  meshes within 15 cm of it, `state.hand` the holding hand; no band and no ball; when that pinch
  ends the slingshot is no longer shown in that frame (`state.hand` null), and the other hand's
  pinch then takes it;
- while one hand holds it, the other hand's pinch 18 cm from the fork point grabs nothing, even
  when the hand then comes within 3 cm, and its release launches nothing; a pinch 5 cm from it
  grabs the band: from that frame, frame by frame while both hands move, a shown object tagged
  'sling-band' is one straight band (its vertices within 1.5 cm of the segment) reaching from the
  holding fingertip to the pulling one (each end within 1.5 cm; this frame's or the previous
  frame's fingertips); a release 11 cm from the fork point launches nothing and hides the band, a
  later grab and a 19 cm pull launch;
- a release of the pulling hand with a pull of 19 cm or more launches, in the frame of the
  release, one ball tagged 'sling-ball' (a sphere 6 cm across, its bounding box) from the pouch;
  frame by frame, with frame times that vary (30 to 90 Hz), its centre is P0 + V0 t + g t^2 / 2
  with V0 = 15 (F - P0), g = 9.81 m/s^2 down and t counted in frame times (from 0 or from the
  release frame's time at the release frame), within 1 cm, until the first frame the path goes
  below 3 cm, where it stops at that frame's x and z with its centre at y = 0.03 and then stays
  (within 1 mm) for a second; `state.landed` false in flight, true once it rests; the band is
  hidden from the release frame and the slingshot stays in the holding hand; aims: up and
  forward, sideways (both hands moving while the ball flies; a landed ball stays where it is,
  also when the slingshot is let go), and, after the user walked, turned 90 degrees and
  crouched, forward with a second ball launched while the first one flies (both on their own
  paths);
- a release of the holding hand while the band is pulled hides the slingshot and the band in that
  frame and launches nothing, then or when the pulling hand lets go; the pulling hand's held
  pinch does not take the slingshot; a new pinch of that hand does, and the hands' roles are
  swapped for a shot that flies as stated;
- at most 3 balls: the fourth launch removes the first ball in that frame and leaves the others
  as they were, a fifth launched while the fourth flies removes the second.

Each test runs for a right- and for a left-dominant user. Everything is read from the scene graph
(the tagged objects, their shown meshes and lines in world coordinates) and the simulated hands'
`index-finger-tip` joints, in one reading per frame; frame times are those the test steps.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors

SLING, BAND, BALL = "slingshot", "sling-band", "sling-ball"
GRAB = 0.10  # metres: the stated grab distance from the fork point
MIN_PULL = 0.15
SPEED = 15.0  # m/s per metre of pull
G = 9.81
RADIUS = 0.03
MAX_BALLS = 3
REACH = 0.15  # the slingshot's model within 15 cm of the fork point
TRACK_TOL = 0.01  # metres: fork point against the holding fingertip
BAND_TOL = 0.015  # metres: the band's vertices against the segment, its ends against the fingertips
PATH_TOL = 0.01  # metres: a ball's centre against the stated path
STILL_TOL = 0.001
SIZE_TOL = 0.006
NEAR_FLOOR = 0.003  # a path this close to 3 cm at a frame may land on either side of it
CLOSE_FRAMES = 24
DTS = (1000 / 60, 1000 / 90, 1000 / 40, 1000 / 72, 1000 / 60, 1000 / 30)  # ms: frame times in flight

pytestmark = pytest.mark.xr_scenes("empty")

Vec = tuple[float, float, float]

# One frame's reading: the tagged slingshot(s), band(s) and balls, both index fingertips, the frame.
_READ_JS = """
(h, arg) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const shown = (o) => { for (let p = o; p; p = p.parent) if (!p.visible) return false; return true; };
  const v = new THREE.Vector3();
  const vertices = (o, meshesOnly) => {
    const out = [];
    o.traverse((m) => {
      if (!shown(m)) return;
      if (!(m.isMesh || (!meshesOnly && m.isLine))) return;
      const pos = m.geometry && m.geometry.attributes && m.geometry.attributes.position;
      if (!pos) return;
      if (m.isInstancedMesh) {
        const im = new THREE.Matrix4(), w = new THREE.Matrix4();
        for (let k = 0; k < m.count; k++) {
          m.getMatrixAt(k, im);
          w.multiplyMatrices(m.matrixWorld, im);
          for (let i = 0; i < pos.count; i++) out.push(v.fromBufferAttribute(pos, i).applyMatrix4(w).toArray());
        }
        return;
      }
      const range = m.geometry.drawRange;
      const index = m.geometry.index;
      const n = index ? index.count : pos.count;
      const start = Math.max(0, range.start);
      const end = Math.min(n, range.start + range.count);
      const seen = new Set();
      for (let j = start; j < end; j++) {
        const i = index ? index.getX(j) : j;
        if (seen.has(i)) continue;
        seen.add(i);
        out.push(v.fromBufferAttribute(pos, i).applyMatrix4(m.matrixWorld).toArray());
      }
    });
    return out;
  };
  const state = (d) => (d.state && typeof d.state === 'object' ? JSON.parse(JSON.stringify(d.state)) : null);
  const out = {slings: [], bands: [], balls: [], tips: {}, frame: h.frames};
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d) return;
    const tag = String(d.tag);
    if (tag === arg.sling) {
      const p = o.getWorldPosition(new THREE.Vector3());
      const vs = vertices(o, true);
      let reach = 0;
      for (const q of vs) reach = Math.max(reach, Math.hypot(q[0] - p.x, q[1] - p.y, q[2] - p.z));
      out.slings.push({uuid: o.uuid, shown: shown(o) && vs.length > 0, position: p.toArray(), reach,
                       state: state(d)});
    } else if (tag === arg.band) {
      const vs = vertices(o, false);
      out.bands.push({uuid: o.uuid, shown: shown(o) && vs.length > 0, vertices: vs.slice(0, 2000)});
    } else if (tag === arg.ball) {
      const vs = vertices(o, true);
      const box = new THREE.Box3();
      for (const q of vs) box.expandByPoint(v.fromArray(q));
      out.balls.push({uuid: o.uuid, shown: shown(o) && vs.length > 0, state: state(d),
                      min: box.isEmpty() ? null : box.min.toArray(), max: box.isEmpty() ? null : box.max.toArray()});
    }
  });
  for (const [i, name] of [[0, 'left'], [1, 'right']]) {
    const space = h.core.input.hands[i];
    const joint = space && space.joints && space.joints['index-finger-tip'];
    if (!joint) continue;
    h.guard(joint, name + ' index fingertip').updateWorldMatrix(true, false);
    out.tips[name] = new THREE.Vector3().setFromMatrixPosition(joint.matrixWorld).toArray();
  }
  return out;
}
"""


def _fmt(p: Sequence[float] | None) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")" if p is not None else "none"


def _add(a: Sequence[float], b: Sequence[float], k: float = 1.0) -> Vec:
    return (a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2])


def _sub(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


@dataclass
class Sling:
    uuid: str
    shown: bool
    position: Vec
    reach: float
    state: Any

    @property
    def hand(self) -> Any:
        return self.state.get("hand", "missing") if isinstance(self.state, dict) else "missing"


@dataclass
class Ball:
    uuid: str
    shown: bool
    state: Any
    min: Vec | None
    max: Vec | None

    @property
    def centre(self) -> Vec | None:
        if self.min is None or self.max is None:
            return None
        return tuple((self.min[i] + self.max[i]) / 2 for i in range(3))  # type: ignore[return-value]

    @property
    def size(self) -> Vec | None:
        if self.min is None or self.max is None:
            return None
        return tuple(self.max[i] - self.min[i] for i in range(3))  # type: ignore[return-value]

    @property
    def landed(self) -> Any:
        return self.state.get("landed", "missing") if isinstance(self.state, dict) else "missing"


@dataclass
class Reading:
    slings: list[Sling]
    bands: list[tuple[str, bool, list[Vec]]]
    balls: list[Ball]
    tips: dict[str, Vec]
    frame: int

    def shown_slings(self) -> list[Sling]:
        return [s for s in self.slings if s.shown]

    def shown_bands(self) -> list[list[Vec]]:
        return [vs for _u, shown, vs in self.bands if shown]

    def ball(self, uuid: str) -> Ball | None:
        return next((b for b in self.balls if b.uuid == uuid), None)


def look(xr) -> Reading:
    r = xr.probe(_READ_JS, {"sling": SLING, "band": BAND, "ball": BALL})
    slings = [Sling(s["uuid"], s["shown"], tuple(s["position"]), s["reach"], s["state"]) for s in r["slings"]]
    bands = [(b["uuid"], b["shown"], [tuple(v) for v in b["vertices"]]) for b in r["bands"]]
    balls = [
        Ball(
            b["uuid"],
            b["shown"],
            b["state"],
            tuple(b["min"]) if b["min"] else None,
            tuple(b["max"]) if b["max"] else None,
        )
        for b in r["balls"]
    ]
    return Reading(slings, bands, balls, {k: tuple(v) for k, v in r["tips"].items()}, int(r["frame"]))


def side(xr, role: str) -> float:
    """+1 for the hand on the user's right, -1 for the left one."""
    return 1.0 if xr.handedness(role) == "right" else -1.0


def other(role: str) -> str:
    return "non_dominant" if role == "dominant" else "dominant"


def place(xr, role: str, at: Sequence[float]) -> None:
    xr.hand(role).move_hand(tuple(at), anchor="fingertip")


def tip(r: Reading, xr, role: str) -> Vec:
    return r.tips[xr.handedness(role)]


def seg_dist(p: Sequence[float], a: Sequence[float], b: Sequence[float]) -> float:
    ab = _sub(b, a)
    ap = _sub(p, a)
    n2 = sum(c * c for c in ab)
    t = 0.0 if n2 < 1e-12 else max(0.0, min(1.0, sum(ap[i] * ab[i] for i in range(3)) / n2))
    return math.dist(p, _add(a, ab, t))


# --- assertions on one frame ------------------------------------------------------------------


def assert_no_sling(r: Reading, when: str) -> None:
    __tracebackhide__ = True
    shown = r.shown_slings()
    assert not shown, f"expected no slingshot shown {when}; observed one at {_fmt(shown[0].position)}"
    for s in r.slings:
        assert s.hand is None, f"expected the slingshot's state.hand null {when}; observed state {s.state!r}"


def assert_held(xr, r: Reading, before: Reading | None, role: str, when: str) -> Sling:
    """One slingshot shown, its fork point at `role`'s fingertip (this frame's or the previous one's)."""
    __tracebackhide__ = True
    shown = r.shown_slings()
    assert len(shown) == 1, (
        f"expected one slingshot shown (tagged {SLING!r}, with meshes) while the {role} hand holds it {when}; "
        f"observed {len(shown)} of {len(r.slings)} tagged"
    )
    s = shown[0]
    tips = [tip(r, xr, role)] + ([tip(before, xr, role)] if before is not None else [])
    err = min(math.dist(s.position, t) for t in tips)
    assert err <= TRACK_TOL, (
        f"expected the slingshot's fork point (its position) at the {role} hand's index fingertip {_fmt(tips[0])} "
        f"{when} (within {TRACK_TOL * 100:.0f} cm); observed {_fmt(s.position)}, {err * 100:.1f} cm away"
    )
    assert s.reach <= REACH + 0.005, (
        f"expected the slingshot's meshes within {REACH * 100:.0f} cm of its fork point {when}; observed a vertex "
        f"{s.reach * 100:.1f} cm from it"
    )
    want = xr.handedness(role)
    assert s.hand == want, f"expected the slingshot's state.hand {want!r} {when}; observed state {s.state!r}"
    return s


def assert_no_band(r: Reading, when: str) -> None:
    __tracebackhide__ = True
    shown = r.shown_bands()
    assert not shown, f"expected no band shown {when}; observed one with {len(shown[0])} vertices"


def band_error(vs: list[Vec], a: Vec, b: Vec) -> tuple[float, str]:
    off = max(seg_dist(v, a, b) for v in vs)
    end_a = min(math.dist(v, a) for v in vs)
    end_b = min(math.dist(v, b) for v in vs)
    worst = max(off, end_a, end_b)
    what = (
        f"its vertices up to {off * 100:.1f} cm off the segment, its nearest vertex {end_a * 100:.1f} cm from the "
        f"fork point and {end_b * 100:.1f} cm from the pouch"
    )
    return worst, what


def assert_band(xr, r: Reading, before: Reading | None, holder: str, puller: str, when: str) -> None:
    """One band shown, a straight band from the holding fingertip to the pulling one."""
    __tracebackhide__ = True
    shown = r.shown_bands()
    assert len(shown) == 1, (
        f"expected one band shown (tagged {BAND!r}, a line or mesh) while the band is pulled {when}; "
        f"observed {len(shown)}"
    )
    vs = shown[0]
    readings = [r] + ([before] if before is not None else [])
    fits = [band_error(vs, tip(x, xr, holder), tip(x, xr, puller)) for x in readings]
    (err, what) = min(fits, key=lambda f: f[0])
    assert err <= BAND_TOL, (
        f"expected the band drawn straight from the fork point (the {holder} fingertip "
        f"{_fmt(tip(r, xr, holder))}) to the pouch (the {puller} fingertip {_fmt(tip(r, xr, puller))}) {when}, "
        f"within {BAND_TOL * 100:.1f} cm; observed {what}"
    )


def assert_ball_count(r: Reading, n: int, when: str) -> None:
    __tracebackhide__ = True
    assert len(r.balls) == n, f"expected {n} ball(s) tagged {BALL!r} {when}; observed {len(r.balls)}"


def assert_drawn_only_tagged(xr, when: str) -> None:
    __tracebackhide__ = True
    extra = [d for d in xr.drawn() if not ({SLING, BAND, BALL} & set(d.tags))]
    assert not extra, f"expected the app to draw nothing but the slingshot, band and balls {when}; observed {extra}"


# --- actions, one reading per frame -------------------------------------------------------------


def move_frames(
    xr, role: str, delta: Sequence[float], per_frame: float, check: Callable[[int, Reading], None] | None = None
) -> Reading:
    """Move `role` by `delta`, `per_frame` metres per frame, reading (and checking) after every frame."""
    dist = math.hypot(*delta)
    n = max(1, math.ceil(dist / per_frame - 1e-9))
    step = tuple(c / n for c in delta)
    speed = (dist / n) * 1000.0 / xr.dt_ms * 1.001
    r = None
    for i in range(n):
        res = xr.hand(role).move_by(step, speed=speed)
        assert res["frames"] == 1, f"test setup: a one-frame move took {res['frames']} frames"
        r = look(xr)
        if check is not None:
            check(i, r)
    assert r is not None
    return r


def pinch_frames(xr, role: str, frames: int, check: Callable[[int, Reading], None] | None = None) -> Reading:
    """`role` starts a pinch; a reading (and check) after each of `frames` frames."""
    xr.hand(role).start_select(1)
    r = look(xr)
    if check is not None:
        check(0, r)
    for i in range(1, frames):
        xr.step(1)
        r = look(xr)
        if check is not None:
            check(i, r)
    return r


def release_frames(xr, role: str, frames: int, check: Callable[[int, Reading], None] | None = None) -> Reading:
    xr.hand(role).end_select(1)
    r = look(xr)
    if check is not None:
        check(0, r)
    for i in range(1, frames):
        xr.step(1)
        r = look(xr)
        if check is not None:
            check(i, r)
    return r


@dataclass
class Shot:
    """One launch: the readings before and at the release, then (time since the release frame, reading)."""

    uuid: str
    holder: str  # handedness
    puller: str
    pre: Reading
    rel: Reading
    rel_dt: float  # seconds: the release frame's time
    samples: list[tuple[float, Reading]] = field(default_factory=list)
    what: str = ""

    def add(self, dt: float, r: Reading) -> None:
        tau = (self.samples[-1][0] if self.samples else 0.0) + dt
        self.samples.append((tau, r))


def launch(xr, holder: str, puller: str, known: set[str], what: str) -> Shot:
    """The pulling hand (held still) releases: one new ball in the release frame, no band."""
    __tracebackhide__ = True
    xr.step(2)
    pre = look(xr)
    assert_band(xr, pre, None, holder, puller, f"just before the release {what}")
    xr.hand(puller).end_select(1)
    rel = look(xr)
    new = [b for b in rel.balls if b.uuid not in known]
    pull = math.dist(tip(pre, xr, holder), tip(pre, xr, puller))
    assert len(new) == 1, (
        f"expected one ball launched in the frame the pulling hand released {what} (a pull of {pull * 100:.0f} cm); "
        f"observed {len(new)} new ball(s)"
    )
    assert_no_band(rel, f"in the frame of the release {what}")
    assert_held(xr, rel, pre, holder, f"in the frame of the release {what}")
    known.add(new[0].uuid)
    shot = Shot(new[0].uuid, xr.handedness(holder), xr.handedness(puller), pre, rel, xr.dt_ms / 1000.0, what=what)
    shot.samples.append((0.0, rel))
    return shot


def path(p0: Vec, v0: Vec, t: float) -> Vec:
    return (p0[0] + v0[0] * t, p0[1] + v0[1] * t - 0.5 * G * t * t, p0[2] + v0[2] * t)


def shot_fit(shot: Shot) -> tuple[float, str, int | None]:
    """Best fit of the ball's centres to the stated path: (worst error, description, landing index)."""
    best: tuple[float, str, int | None] = (math.inf, "", None)
    for src, label in ((shot.pre, "the frame before the release"), (shot.rel, "the frame of the release")):
        p0, f = src.tips[shot.puller], src.tips[shot.holder]
        v0 = tuple(SPEED * c for c in _sub(f, p0))
        for off in (0.0, shot.rel_dt):
            preds = [path(p0, v0, tau + off) for tau, _r in shot.samples]
            first = next((j for j, p in enumerate(preds) if p[1] < RADIUS), None)
            landings: list[int | None] = [first]
            if first is not None:
                if first > 0 and preds[first - 1][1] - RADIUS < NEAR_FLOOR:
                    landings.append(first - 1)
                if RADIUS - preds[first][1] < NEAR_FLOOR:
                    landings.append(first + 1)
            for land in landings:
                worst, at, want_at = 0.0, 0, preds[0]
                for j, (_tau, r) in enumerate(shot.samples):
                    want = preds[j]
                    if land is not None and j >= land:
                        lp = preds[min(land, len(preds) - 1)]
                        want = (lp[0], RADIUS, lp[2])
                    b = r.ball(shot.uuid)
                    c = b.centre if b is not None else None
                    err = math.inf if c is None else math.dist(c, want)
                    if err > worst:
                        worst, at, want_at = err, j, want
                if worst < best[0]:
                    tau, r = shot.samples[at]
                    b = r.ball(shot.uuid)
                    desc = (
                        f"launched from the pouch {_fmt(p0)} towards the fork point {_fmt(f)} (as in {label}) at "
                        f"{_fmt(v0)} m/s, t counted from {off * 1000:.1f} ms at the release frame: at "
                        f"{(tau + off) * 1000:.0f} ms (frame {at} after the release) its centre should be at "
                        f"{_fmt(want_at)}; observed {_fmt(b.centre if b else None)}"
                    )
                    best = (worst, desc, land)
    return best


def assert_shot(shot: Shot) -> None:
    """The ball flew on the stated path and landed as stated (checked over every sample)."""
    __tracebackhide__ = True
    first = shot.samples[0][1].ball(shot.uuid)
    assert first is not None and first.size is not None, f"expected the ball shown at the release {shot.what}"
    assert all(abs(s - 2 * RADIUS) <= SIZE_TOL for s in first.size), (
        f"expected the ball a sphere of radius {RADIUS * 100:.0f} cm (a box {2 * RADIUS * 100:.0f} cm on each side) "
        f"{shot.what}; observed a bounding box {_fmt(first.size)}"
    )
    worst, desc, land = shot_fit(shot)
    assert worst <= PATH_TOL, (
        f"expected the ball's centre on the path P0 + V0 t + g t^2/2 every frame (V0 = {SPEED:.0f} x (fork - pouch), "
        f"g = {G} m/s^2 down, t in frame times), resting at y = {RADIUS} m from the first frame it would go lower, "
        f"within {PATH_TOL * 100:.0f} cm, {shot.what}: {desc} ({worst * 100:.1f} cm off)"
    )
    for j, (_tau, r) in enumerate(shot.samples):
        b = r.ball(shot.uuid)
        assert b is not None and b.shown, f"expected the ball shown {j} frames after the release {shot.what}"
        if land is None or j < land:
            assert b.landed is False, (
                f"expected the ball's state.landed false while it flies ({j} frames after the release) {shot.what}; "
                f"observed state {b.state!r}"
            )
        elif j > land:
            assert b.landed is True, (
                f"expected the ball's state.landed true once it rests on the floor {shot.what}; observed state "
                f"{b.state!r} {j - land} frames after it landed"
            )


def fly(xr, shots: list[Shot], frames: int, pattern: Sequence[float] = DTS) -> None:
    """Step `frames` frames of varying length, adding a reading per frame to every shot."""
    for i in range(frames):
        dt = pattern[i % len(pattern)]
        xr.step(1, dt)
        r = look(xr)
        for s in shots:
            s.add(dt / 1000.0, r)


def fly_moving(xr, shots: list[Shot], role: str, per_frame: Vec, frames: int) -> None:
    """`role` moves by `per_frame` in each of `frames` frames, a reading per frame added to every shot."""
    speed = math.hypot(*per_frame) * 1000.0 / xr.dt_ms * 1.001
    for _ in range(frames):
        res = xr.hand(role).move_by(per_frame, speed=speed)
        assert res["frames"] == 1, f"test setup: a one-frame move took {res['frames']} frames"
        r = look(xr)
        for s in shots:
            s.add(xr.dt_ms / 1000.0, r)


def fly_until_landed(xr, shots: list[Shot], after: int = 12, limit: int = 240) -> None:
    """Step until every shot's ball rests (two equal readings at y ~ 0.03), then `after` frames more."""
    for i in range(limit):
        fly(xr, shots, 1, DTS[i % len(DTS) :] + DTS[: i % len(DTS)])
        if all(_rests(s) for s in shots):
            break
    fly(xr, shots, after)


def _rests(shot: Shot) -> bool:
    if len(shot.samples) < 3:
        return False
    a, b = shot.samples[-2][1].ball(shot.uuid), shot.samples[-1][1].ball(shot.uuid)
    if a is None or b is None or a.centre is None or b.centre is None:
        return True  # gone: the fit reports it
    return math.dist(a.centre, b.centre) < 1e-4 and b.centre[1] < 0.2


def assert_stays(xr, ball: Ball, ms: float, when: str) -> None:
    __tracebackhide__ = True
    xr.wait(ms)
    b = look(xr).ball(ball.uuid)
    assert b is not None and b.centre is not None and math.dist(b.centre, ball.centre) <= STILL_TOL, (
        f"expected the landed ball to stay at {_fmt(ball.centre)} {when}; observed {_fmt(b.centre if b else None)}"
    )


# --- composite actions ----------------------------------------------------------------------------


def hold(xr, role: str, at: Vec, known: set[str], when: str) -> Reading:
    """`role` pinches at `at`: it holds the slingshot, frame by frame while its fingers close."""
    place(xr, role, at)
    prev = look(xr)

    def check(i: int, r: Reading) -> None:
        nonlocal prev
        assert_held(xr, r, prev, role, f"{when}, {i + 1} frames after its pinch started")
        assert_no_band(r, f"while one hand pinches ({when})")
        new = [b for b in r.balls if b.uuid not in known]
        assert not new, f"expected no ball while only one hand pinches ({when}); observed {len(new)}"
        prev = r

    return pinch_frames(xr, role, CLOSE_FRAMES, check)


def grab(xr, holder: str, puller: str, offset: Vec, when: str) -> Reading:
    """`puller` pinches at the fork point + `offset`: the band is shown from that frame on."""
    r = look(xr)
    fork = tip(r, xr, holder)
    place(xr, puller, _add(fork, offset))
    prev = look(xr)

    def check(i: int, r: Reading) -> None:
        nonlocal prev
        assert_band(xr, r, prev, holder, puller, f"{when}, {i + 1} frames after the pinch near the fork started")
        assert_held(xr, r, prev, holder, f"while the band is grabbed ({when})")
        prev = r

    return pinch_frames(xr, puller, CLOSE_FRAMES, check)


def pull(xr, holder: str, puller: str, delta: Vec, when: str, per_frame: float = 0.01) -> Reading:
    """`puller` moves by `delta`: the band follows every frame, the slingshot stays in the holding hand."""
    prev = look(xr)

    def check(i: int, r: Reading) -> None:
        nonlocal prev
        assert_band(xr, r, prev, holder, puller, f"{when}, frame {i + 1}")
        assert_held(xr, r, prev, holder, f"{when}, frame {i + 1}")
        prev = r

    return move_frames(xr, puller, delta, per_frame, check)


def to_pull(xr, holder: str, puller: str, pouch_from_fork: Vec, when: str, per_frame: float = 0.01) -> Reading:
    """Pull until the pouch is at the fork point + `pouch_from_fork`."""
    r = look(xr)
    want = _add(tip(r, xr, holder), pouch_from_fork)
    return pull(xr, holder, puller, _sub(want, tip(r, xr, puller)), when, per_frame)


def release_all(xr) -> None:
    for role in ("dominant", "non_dominant"):
        xr.hand(role).release()


# --- tests ------------------------------------------------------------------------------------


def test_either_hand_holds_the_slingshot_at_its_pinch_point(xr):
    xr.step(2)
    r = look(xr)
    assert not r.shown_slings() and not r.shown_bands() and not r.balls, (
        f"expected no slingshot, band or ball shown at the start; observed {len(r.shown_slings())} slingshot(s), "
        f"{len(r.shown_bands())} band(s), {len(r.balls)} ball(s)"
    )
    drawn = xr.drawn()
    assert not drawn, f"expected nothing drawn at the start (the cylinder removed); observed {drawn}"
    known: set[str] = set()
    for role in ("dominant", "non_dominant"):
        s = side(xr, role)
        hold(xr, role, (s * 0.12, 1.3, -0.42), known, f"(the {role} hand alone)")
        prev = look(xr)
        for d, what in (
            ((-s * 0.08, 0.0, 0.0), "inwards"),
            ((0.0, 0.06, -0.04), "up and away"),
            ((0.0, -0.1, 0.05), "down and nearer"),
        ):

            def check(i: int, r: Reading, what: str = what, role: str = role) -> None:
                nonlocal prev
                assert_held(xr, r, prev, role, f"while the {role} hand moved {what}, frame {i + 1}")
                assert_no_band(r, f"while only the {role} hand pinches")
                assert not r.balls, f"expected no ball while the {role} hand pinches alone; observed {len(r.balls)}"
                prev = r

            move_frames(xr, role, d, 0.01, check)
        assert_drawn_only_tagged(xr, f"while the {role} hand holds the slingshot")

        def gone(i: int, r: Reading, role: str = role) -> None:
            assert_no_sling(r, f"{i + 1} frame(s) after the {role} hand's pinch ended")
            assert_no_band(r, f"after the {role} hand let go")
            assert not r.balls, f"expected no ball after the {role} hand let go; observed {len(r.balls)}"

        release_frames(xr, role, CLOSE_FRAMES, gone)
    assert not xr.drawn(), f"expected nothing drawn once no hand holds the slingshot; observed {xr.drawn()}"
    assert_no_errors(xr)


def test_the_band_is_grabbed_near_the_fork_and_follows_both_hands(xr):
    xr.step(1)
    holder, puller = "non_dominant", "dominant"
    sp = side(xr, puller)
    known: set[str] = set()
    fork0 = (side(xr, holder) * 0.06, 1.25, -0.45)
    hold(xr, holder, fork0, known, "(the non-dominant hand)")
    # A pinch 18 cm from the fork point grabs nothing, even when the hand comes nearer.
    r = look(xr)
    place(xr, puller, _add(tip(r, xr, holder), (sp * 0.15, 0.0, 0.1)))
    r = look(xr)
    far = math.dist(tip(r, xr, holder), tip(r, xr, puller))
    assert far > GRAB + 0.05, f"test setup: the far pinch is only {far * 100:.1f} cm from the fork point"

    def nothing(i: int, r: Reading) -> None:
        assert_no_band(r, f"after a pinch {far * 100:.0f} cm from the fork point ({i + 1} frames)")
        assert_held(xr, r, None, holder, "while the other hand pinched far from the fork point")
        assert not r.balls, f"expected no ball after a pinch far from the fork point; observed {len(r.balls)}"

    pinch_frames(xr, puller, CLOSE_FRAMES, nothing)
    move_frames(
        xr, puller, _sub(_add(tip(look(xr), xr, holder), (sp * 0.02, -0.01, 0.02)), tip(r, xr, puller)), 0.01, nothing
    )
    release_frames(xr, puller, CLOSE_FRAMES, nothing)
    # A pinch 5 cm from it grabs the band, which follows both hands every frame.
    grab(xr, holder, puller, (sp * 0.03, -0.02, 0.035), "(5 cm from the fork point)")
    pull(xr, holder, puller, (sp * 0.02, -0.04, 0.14), "while the pulling hand pulled back")
    pull(xr, holder, puller, (-sp * 0.08, 0.05, 0.0), "while the pulling hand moved sideways and up")
    prev = look(xr)

    def both(i: int, r: Reading) -> None:
        nonlocal prev
        assert_band(xr, r, prev, holder, puller, f"while the holding hand moved, frame {i + 1}")
        assert_held(xr, r, prev, holder, f"while the holding hand moved, frame {i + 1}")
        assert not r.balls, f"expected no ball while the band is pulled; observed {len(r.balls)}"
        prev = r

    move_frames(xr, holder, (0.0, 0.05, -0.05), 0.01, both)
    assert_drawn_only_tagged(xr, "while the band is pulled")
    # A release 11 cm from the fork point launches nothing and lets the band go.
    to_pull(xr, holder, puller, (sp * 0.03, -0.03, 0.1), "while the pull shortened to 11 cm")
    xr.step(2)
    r = look(xr)
    short = math.dist(tip(r, xr, holder), tip(r, xr, puller))
    assert short < MIN_PULL - 0.02, f"test setup: the short pull is {short * 100:.1f} cm"

    def no_shot(i: int, r: Reading) -> None:
        assert_no_band(r, f"{i + 1} frame(s) after the pulling hand let go")
        assert not r.balls, (
            f"expected no ball after a release {short * 100:.0f} cm from the fork point (less than "
            f"{MIN_PULL * 100:.0f} cm); observed {len(r.balls)} {i + 1} frame(s) later"
        )
        assert_held(xr, r, None, holder, "after a short pull")

    release_frames(xr, puller, 40, no_shot)
    # The band can be grabbed again; 19 cm launches.
    grab(xr, holder, puller, (0.0, -0.03, 0.04), "(grabbed again)")
    to_pull(xr, holder, puller, (sp * 0.04, -0.05, 0.18), "while pulling 19 cm")
    shot = launch(xr, holder, puller, known, "(a 19 cm pull)")
    assert math.dist(tip(shot.pre, xr, holder), tip(shot.pre, xr, puller)) < 0.2
    fly_until_landed(xr, [shot])
    assert_shot(shot)
    assert_no_errors(xr)


def test_a_ball_flies_on_its_path_and_stops_on_the_floor(xr):
    xr.step(1)
    holder, puller = "dominant", "non_dominant"
    sp = side(xr, puller)
    known: set[str] = set()
    hold(xr, holder, (side(xr, holder) * 0.05, 1.2, -0.45), known, "(the dominant hand)")
    # Up and forward: pulled down and back.
    grab(xr, holder, puller, (sp * 0.03, -0.02, 0.03), "(first shot)")
    to_pull(xr, holder, puller, (0.0, -0.14, 0.24), "while pulling down and back")
    up = launch(xr, holder, puller, known, "(aimed up and forward)")
    fly_until_landed(xr, [up])
    assert_shot(up)
    landed = look(xr).ball(up.uuid)
    assert landed is not None and landed.centre is not None
    assert landed.centre[2] < -1.5, f"test setup: the upward shot landed at {_fmt(landed.centre)}"
    assert_stays(xr, landed, 1000, "a second after it landed")
    # Sideways: pulled out to the pulling hand's side, level.
    grab(xr, holder, puller, (sp * 0.04, 0.0, 0.02), "(second shot)")
    to_pull(xr, holder, puller, (sp * 0.26, 0.02, 0.06), "while pulling sideways")
    flat = launch(xr, holder, puller, known, "(aimed sideways)")
    fly(xr, [flat], 4)
    # Both hands move while it flies: the ball keeps its own path.
    fly_moving(xr, [flat], holder, (0.0, 0.012, 0.01), 8)
    fly_moving(xr, [flat], puller, (-sp * 0.01, 0.01, 0.0), 6)
    b = flat.samples[-1][1].ball(flat.uuid)
    assert b is not None and b.centre is not None
    away = b.centre[0] * sp < flat.rel.tips[flat.puller][0] * sp - 0.3
    assert away, (
        f"expected the ball shot sideways to fly away from the pulling hand's side; observed it at {_fmt(b.centre)}"
    )
    fly_until_landed(xr, [flat])
    assert_shot(flat)
    r = look(xr)
    assert_ball_count(r, 2, "after two shots")
    first = r.ball(up.uuid)
    assert first is not None and first.centre is not None and math.dist(first.centre, landed.centre) <= STILL_TOL, (
        f"expected the first ball to stay where it landed, {_fmt(landed.centre)}, while the second flew; observed "
        f"{_fmt(first.centre if first else None)}"
    )
    assert_held(xr, r, None, holder, "after two shots")
    assert_drawn_only_tagged(xr, "after two shots")
    # Letting go of the slingshot leaves the landed balls where they are.
    rested = {u: r.ball(u) for u in (up.uuid, flat.uuid)}

    def balls_stay(i: int, r: Reading) -> None:
        assert_no_sling(r, f"{i + 1} frame(s) after the holding hand let go")
        for u, was in rested.items():
            b = r.ball(u)
            assert (
                b is not None and b.shown and b.centre is not None and math.dist(b.centre, was.centre) <= STILL_TOL
            ), (
                f"expected the landed ball to stay shown at {_fmt(was.centre)} after the slingshot was let go; "
                f"observed {_fmt(b.centre) if b and b.shown else 'it not shown'}"
            )

    release_frames(xr, holder, CLOSE_FRAMES, balls_stay)
    assert_no_errors(xr)


def test_letting_go_of_the_slingshot_cancels_the_shot(xr):
    xr.step(1)
    known: set[str] = set()
    holder, puller = "dominant", "non_dominant"
    hold(xr, holder, (side(xr, holder) * 0.05, 1.25, -0.42), known, "(the dominant hand)")
    grab(xr, holder, puller, (side(xr, puller) * 0.03, -0.02, 0.03), "(before the cancel)")
    to_pull(xr, holder, puller, (0.0, -0.1, 0.25), "before the cancel")
    xr.step(2)

    def cancelled(i: int, r: Reading) -> None:
        assert_no_sling(r, f"{i + 1} frame(s) after the holding hand let go while the band was pulled")
        assert_no_band(r, f"{i + 1} frame(s) after the holding hand let go")
        assert not r.balls, (
            f"expected no ball after the holding hand let go (a cancelled shot); observed {len(r.balls)}"
        )

    release_frames(xr, holder, CLOSE_FRAMES, cancelled)
    # The pulling hand still pinches: it does not take the slingshot, and its release launches nothing.
    move_frames(xr, puller, (0.0, 0.05, -0.1), 0.01, cancelled)
    release_frames(xr, puller, 40, cancelled)
    assert not xr.drawn(), f"expected nothing drawn after a cancelled shot; observed {xr.drawn()}"
    # The roles swap: the hand that pulled now holds, the other pulls.
    holder, puller = puller, holder
    hold(xr, holder, (side(xr, holder) * 0.05, 1.3, -0.4), known, "(the non-dominant hand, roles swapped)")
    grab(xr, holder, puller, (side(xr, puller) * 0.03, 0.0, 0.04), "(roles swapped)")
    to_pull(xr, holder, puller, (side(xr, puller) * 0.1, -0.12, 0.2), "with the roles swapped")
    shot = launch(xr, holder, puller, known, "(roles swapped)")
    fly_until_landed(xr, [shot])
    assert_shot(shot)
    assert_no_errors(xr)


def test_after_turning_two_balls_fly_at_once(xr):
    xr.step(1)
    known: set[str] = set()
    xr.head.walk([(0.6, 1.5, 0.5)])
    xr.head.look_at((-1.0, 1.5, 0.5))
    xr.head.move((0.0, -0.3, 0.0), speed=0.5)
    pose = xr.camera_pose()
    assert pose.position[1] <= 1.25 and pose.forward[0] < -0.9, f"the head did not turn and crouch: {pose}"
    eye = pose.position

    # In front of the turned user (looking along -x): their right is -z.
    def ahead(right: float, up: float, depth: float) -> Vec:
        return (eye[0] - depth, eye[1] + up, eye[2] - right)

    holder, puller = "non_dominant", "dominant"
    sp = side(xr, puller)
    hold(xr, holder, ahead(side(xr, holder) * 0.05, -0.2, 0.45), known, "(turned and crouched)")
    grab(xr, holder, puller, (0.03, -0.02, -sp * 0.03), "(turned)")
    to_pull(xr, holder, puller, (0.24, -0.2, 0.0), "(turned, pulling down towards the user)", per_frame=0.02)
    first = launch(xr, holder, puller, known, "(turned, aimed up along -x)")
    # While it flies: grab again at once and shoot sideways (to the user's right, -z... or left).
    shots = [first]
    r = look(xr)
    back = _sub(_add(tip(r, xr, holder), (0.03, 0.0, -sp * 0.03)), tip(r, xr, puller))
    n = max(1, math.ceil(math.hypot(*back) / 0.04))
    for _ in range(n):
        res = xr.hand(puller).move_by(tuple(c / n for c in back), speed=math.hypot(*back) / n * 60 * 1.001)
        assert res["frames"] == 1
        first.add(xr.dt_ms / 1000.0, look(xr))
    xr.hand(puller).start_select(1)
    r = look(xr)
    first.add(xr.dt_ms / 1000.0, r)
    assert_band(xr, r, None, holder, puller, "when the band was grabbed again while a ball flies")
    want = _add(tip(r, xr, holder), (0.05, 0.0, -sp * 0.25))
    d = _sub(want, tip(r, xr, puller))
    n = max(1, math.ceil(math.hypot(*d) / 0.04))
    prev = r
    for _ in range(n):
        res = xr.hand(puller).move_by(tuple(c / n for c in d), speed=math.hypot(*d) / n * 60 * 1.001)
        assert res["frames"] == 1
        r = look(xr)
        first.add(xr.dt_ms / 1000.0, r)
        assert_band(xr, r, prev, holder, puller, "while pulling sideways as a ball flies")
        prev = r
    xr.step(1)
    pre = look(xr)
    first.add(xr.dt_ms / 1000.0, pre)
    xr.hand(puller).end_select(1)
    rel = look(xr)
    first.add(xr.dt_ms / 1000.0, rel)
    new = [b for b in rel.balls if b.uuid not in known]
    assert len(new) == 1, f"expected a second ball launched while the first flies; observed {len(new)} new ball(s)"
    known.add(new[0].uuid)
    second = Shot(
        new[0].uuid, xr.handedness(holder), xr.handedness(puller), pre, rel, xr.dt_ms / 1000.0, what="(second, turned)"
    )
    second.samples.append((0.0, rel))
    shots.append(second)
    first_b = rel.ball(first.uuid)
    assert first_b is not None and first_b.landed is False, (
        f"test setup: the first ball should still fly when the second is launched; observed {first_b}"
    )
    fly_until_landed(xr, shots)
    for s in shots:
        assert_shot(s)
    c1 = first.samples[-1][1].ball(first.uuid)
    assert c1 is not None and c1.centre is not None and c1.centre[0] < eye[0] - 1.0, (
        f"test setup: the first ball should land ahead of the turned user (-x); observed "
        f"{_fmt(c1.centre if c1 else None)}"
    )
    assert_no_errors(xr)


def test_at_most_three_balls(xr):
    xr.step(1)
    known: set[str] = set()
    holder, puller = "dominant", "non_dominant"
    sp = side(xr, puller)
    hold(xr, holder, (side(xr, holder) * 0.04, 1.3, -0.45), known, "(the dominant hand)")
    order: list[str] = []
    pulls = [
        (-sp * 0.08, 0.0, 0.2),
        (-sp * 0.04, -0.03, 0.2),
        (0.0, -0.06, 0.2),
        (0.0, -0.22, 0.16),
        (sp * 0.08, -0.03, 0.2),
    ]
    for k, pouch in enumerate(pulls):
        if k < 4:
            grab(xr, holder, puller, (sp * 0.03, -0.02, 0.03), f"(shot {k + 1})")
            to_pull(xr, holder, puller, pouch, f"(shot {k + 1})", per_frame=0.03)
        else:
            # Shot 5 at once, while shot 4 still flies.
            r = look(xr)
            xr.hand(puller).move_hand(_add(tip(r, xr, holder), (sp * 0.03, -0.02, 0.03)), anchor="fingertip", speed=3.0)
            xr.hand(puller).start_select(1)
            assert_band(xr, look(xr), None, holder, puller, "when the band was grabbed for shot 5")
            to_pull(xr, holder, puller, pouch, "(shot 5)", per_frame=0.04)
        before = look(xr)
        shot = launch(xr, holder, puller, known, f"(shot {k + 1})")
        order.append(shot.uuid)
        r = shot.rel
        if k >= MAX_BALLS:
            gone = order[k - MAX_BALLS]
            assert r.ball(gone) is None, (
                f"expected the oldest ball removed in the frame shot {k + 1} was launched (at most {MAX_BALLS}); "
                f"it is still there"
            )
        assert_ball_count(r, min(k + 1, MAX_BALLS), f"when shot {k + 1} was launched")
        for uuid in order[max(0, k + 1 - MAX_BALLS) : k]:
            a, b = before.ball(uuid), r.ball(uuid)
            assert b is not None, f"expected the {MAX_BALLS} most recent balls kept when shot {k + 1} was launched"
            if a is not None and a.centre is not None and a.centre[1] < RADIUS + 0.005:
                assert b.centre is not None and math.dist(a.centre, b.centre) <= STILL_TOL, (
                    f"expected a landed ball to stay where it was, {_fmt(a.centre)}, when shot {k + 1} was launched; "
                    f"observed {_fmt(b.centre)}"
                )
        if k == 4:
            flying = r.ball(order[3])
            assert flying is not None and flying.centre is not None and flying.centre[1] > 0.2, (
                f"test setup: shot 4 should still fly when shot 5 is launched; observed {flying}"
            )
        if k != 3:
            fly_until_landed(xr, [shot], after=2)
        else:
            fly(xr, [shot], 3)
    r = look(xr)
    assert_ball_count(r, MAX_BALLS, "after five shots")
    assert [b.uuid for b in r.balls if b.uuid in order[2:]] and {b.uuid for b in r.balls} == set(order[2:]), (
        "expected the three most recent balls to remain after five shots"
    )
    assert_no_errors(xr)
