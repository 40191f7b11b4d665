"""Runtime tests of the ball-throwing game.

They check that
- the app starts with one ball (tagged 'throw-ball', a sphere 8 cm across by its bounding box) at
  S = (0, 1.1, -0.4), a stand (tagged 'ball-stand') whose meshes are all below y = 1.06 and within
  15 cm of S horizontally, three bins (tagged 'throw-bin') at their stated centres with meshes within
  30 cm horizontally and between 0 and 30 cm high, counts 0, and nothing drawn but tagged objects;
- a pinch 16 cm from the ball grabs nothing, also when the pinching hand then comes within 3 cm; a
  pinch 6 cm from it holds it: its centre at the pinching index fingertip in every frame (within
  1 cm; in the pinch's first frame this frame's or the last frame's fingertip) while the fingers
  close and the hand moves; the other hand's pinch near the held ball does not take it; either hand
  grabs;
- a release with the hand still drops the ball straight down to rest below the release point;
- a swing (the hand moving at varying speed, 2 to 5 m/s in its last frames) throws the ball from the
  fingertip at the release with the fingertip's mean velocity over the last 0.1 s (this frame and
  the one 5, 6 or 7 frames of 1/60 s earlier: the swing is made so that all three agree), and the
  ball's centre then follows P0 + V0 t + g t^2 / 2 (g = 9.8 m/s^2 down, t in frame times that vary,
  from 0 or from the release frame's time) within 2 cm every frame, until the first frame the path
  goes below 4 cm, where it rests at that frame's x and z with y = 0.04, then stays (within 1 mm);
- a ball landing within 25 cm of a bin's centre raises that bin's `state.count` by one in its landing
  frame and changes the picture of that bin's label (the 30 x 20 cm rectangle 0.5 m high and 35 cm
  behind the bin's centre) in that frame, while the other labels' pictures stay as they were; a ball
  landing 28 cm or more from every centre counts nowhere;
- a new ball appears at S in the first frame at least 1 s after the release frame, not before; a
  pinch at the stand while it is empty, held while the new ball appears, grabs nothing; a pinch at
  a thrown ball resting on the floor grabs nothing; a new pinch at the stand grabs the new ball, and
  a flick released 4 frames after the grab (a hold shorter than 0.1 s) throws it with the fingertip's
  mean velocity since the frame of the grab.

Each test runs for a right- and for a left-dominant user. Everything is read from the scene graph
(tagged objects, their shown meshes in world coordinates), the simulated hands' `index-finger-tip`
joints and pictures drawn by the app's renderer; frame times are those the test steps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors

STAND, BALL, BIN, LABEL = "ball-stand", "throw-ball", "throw-bin", "bin-label"
S = (0.0, 1.1, -0.4)  # where the waiting ball's centre rests
RADIUS = 0.04
GRAB = 0.10
WINDOW = 0.1  # seconds
G = 9.8
BINS = ((-0.7, 0.0, -1.6), (0.0, 0.0, -2.2), (0.7, 0.0, -1.6))
BIN_IN = 0.25
BIN_REACH = 0.30
RESPAWN = 1.0
DT = 1.0 / 60.0  # the frame time of every frame but the flights'
FOLLOW_TOL = 0.01
PATH_TOL = 0.02
STILL_TOL = 0.001
SIZE_TOL = 0.008
AT_TOL = 0.01
NEAR_FLOOR = 0.003
CLOSE_FRAMES = 24
DTS = (1000 / 60, 1000 / 90, 1000 / 40, 1000 / 72, 1000 / 60, 1000 / 30)  # ms: frame times in flight
PIXEL_DIFF = 60  # a pixel differs when a channel differs by more than this
CHANGED = 12  # pixels that must differ when a label's number changes
SAME = 3  # pixels that may differ in a label whose number did not change

pytestmark = pytest.mark.xr_scenes("empty")

Vec = tuple[float, float, float]

_READ_JS = """
(h, arg) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const shown = (o) => { for (let p = o; p; p = p.parent) if (!p.visible) return false; return true; };
  const v = new THREE.Vector3();
  const vertices = (o) => {
    const out = [];
    o.traverse((m) => {
      if (!shown(m) || !m.isMesh) return;
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
  const box = (vs) => {
    if (!vs.length) return null;
    const b = new THREE.Box3();
    for (const q of vs) b.expandByPoint(v.fromArray(q));
    return [b.min.toArray(), b.max.toArray()];
  };
  const out = {stands: [], bins: [], labels: [], balls: [], tips: {}, frame: h.frames};
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d) return;
    const tag = String(d.tag);
    if (tag === arg.ball) {
      const vs = vertices(o);
      out.balls.push({uuid: o.uuid, shown: shown(o) && vs.length > 0, box: box(vs)});
    } else if (tag === arg.stand || tag === arg.bin) {
      if (!arg.full) return;
      const vs = vertices(o);
      const p = o.getWorldPosition(new THREE.Vector3()).toArray();
      const item = {uuid: o.uuid, shown: shown(o) && vs.length > 0, position: p, state: state(d), box: box(vs),
                    vertices: vs.slice(0, 4000)};
      (tag === arg.stand ? out.stands : out.bins).push(item);
    } else if (tag === arg.label) {
      const vs = vertices(o);
      out.labels.push({uuid: o.uuid, shown: shown(o) && vs.length > 0, box: box(vs)});
    }
  });
  if (!arg.full) {
    scene.traverse((o) => {
      const d = o.userData && o.userData.xrblocksDevtools;
      if (d && String(d.tag) === arg.bin) out.bins.push({uuid: o.uuid, state: state(d)});
    });
  }
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


def _horiz(a: Sequence[float], b: Sequence[float]) -> float:
    return math.hypot(a[0] - b[0], a[2] - b[2])


@dataclass
class Ball:
    uuid: str
    shown: bool
    box: Any

    @property
    def centre(self) -> Vec | None:
        if not self.box:
            return None
        lo, hi = self.box
        return ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2)

    @property
    def size(self) -> Vec | None:
        if not self.box:
            return None
        lo, hi = self.box
        return (hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2])


@dataclass
class Reading:
    raw: dict
    balls: list[Ball]
    tips: dict[str, Vec]
    frame: int

    def ball(self, uuid: str) -> Ball | None:
        return next((b for b in self.balls if b.uuid == uuid), None)

    def shown_balls(self) -> list[Ball]:
        return [b for b in self.balls if b.shown and b.centre is not None]

    def counts(self) -> list[Any]:
        """Each stated bin's state.count, by the bin tagged nearest its centre (full readings) or order."""
        bins = self.raw["bins"]
        if bins and "position" in bins[0]:
            out = []
            for c in BINS:
                near = min(bins, key=lambda b: _horiz(b["position"], c))
                st = near["state"]
                out.append(st.get("count", "missing") if isinstance(st, dict) else "missing")
            return out
        return [b["state"].get("count", "missing") if isinstance(b["state"], dict) else "missing" for b in bins]


def look(xr, full: bool = False) -> Reading:
    r = xr.probe(_READ_JS, {"stand": STAND, "ball": BALL, "bin": BIN, "label": LABEL, "full": full})
    balls = [Ball(b["uuid"], b["shown"], b["box"]) for b in r["balls"]]
    return Reading(r, balls, {k: tuple(v) for k, v in r["tips"].items()}, int(r["frame"]))


def tip(r: Reading, xr, role: str) -> Vec:
    return r.tips[xr.handedness(role)]


def other(role: str) -> str:
    return "non_dominant" if role == "dominant" else "dominant"


def side(xr, role: str) -> float:
    return 1.0 if xr.handedness(role) == "right" else -1.0


def waiting(r: Reading) -> list[Ball]:
    return [b for b in r.shown_balls() if math.dist(b.centre, S) <= AT_TOL]


def bin_order(xr) -> list[str]:
    """The uuids of the tagged bins, nearest each stated centre first (fixed for the session)."""
    r = look(xr, full=True)
    return [min(r.raw["bins"], key=lambda b: _horiz(b["position"], c))["uuid"] for c in BINS]


def counts(r: Reading, order: list[str]) -> list[Any]:
    by = {b["uuid"]: b["state"] for b in r.raw["bins"]}
    out = []
    for u in order:
        st = by.get(u)
        out.append(st.get("count", "missing") if isinstance(st, dict) else "missing")
    return out


# --- label pictures ---------------------------------------------------------------------------------


def label_picture(xr, k: int) -> np.ndarray:
    x, _y, z = BINS[k]
    return xr.picture((x, 0.5, z - 0.35), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.3, 0.2), (48, 32)).astype(int)


def differing(a: np.ndarray, b: np.ndarray) -> int:
    return int((np.abs(a - b).max(axis=2) > PIXEL_DIFF).sum())


def pictures(xr) -> list[np.ndarray]:
    return [label_picture(xr, k) for k in range(3)]


def assert_labels(xr, before: list[np.ndarray], changed: set[int], when: str) -> list[np.ndarray]:
    __tracebackhide__ = True
    now = pictures(xr)
    for k in range(3):
        n = differing(before[k], now[k])
        where = f"the label of the bin at {_fmt(BINS[k])} (centred at {_fmt((BINS[k][0], 0.5, BINS[k][2] - 0.35))})"
        if k in changed:
            assert n >= CHANGED, (
                f"expected {where} to show a new number {when}; observed its picture nearly unchanged "
                f"({n} of {now[k].shape[0] * now[k].shape[1]} pixels differ)"
            )
        else:
            assert n <= SAME, (
                f"expected {where} to keep its number {when}; observed its picture changed ({n} pixels differ)"
            )
    return now


# --- actions ------------------------------------------------------------------------------------------


def place(xr, role: str, at: Sequence[float]) -> None:
    xr.hand(role).move_hand(tuple(at), anchor="fingertip", speed=1.5)


def step_move(xr, role: str, delta: Sequence[float]) -> None:
    """Move `role`'s hand by `delta` in exactly one frame of 1/60 s."""
    speed = math.hypot(*delta) / DT * 1.001 + 1e-6
    res = xr.hand(role).move_by(tuple(delta), speed=speed)
    assert res["frames"] == 1, f"test setup: a one-frame move took {res['frames']} frames"


def assert_follows(xr, r: Reading, role: str, uuid: str, when: str, before: Reading | None = None) -> None:
    __tracebackhide__ = True
    b = r.ball(uuid)
    tips = [tip(r, xr, role)] + ([tip(before, xr, role)] if before is not None else [])
    c = b.centre if b is not None and b.shown else None
    err = math.inf if c is None else min(math.dist(c, t) for t in tips)
    assert err <= FOLLOW_TOL, (
        f"expected the held ball's centre at the {role} hand's index fingertip {_fmt(tips[0])} {when} (within "
        f"{FOLLOW_TOL * 100:.0f} cm); observed {_fmt(c) if c else 'no ball shown'}"
        + (f", {err * 100:.1f} cm away" if c else "")
    )


@dataclass
class Hold:
    """A grab: the held ball and, per frame since the grab, (frame time, reading)."""

    role: str
    uuid: str
    samples: list[tuple[float, Reading]] = field(default_factory=list)

    def add(self, xr, r: Reading, when: str) -> None:
        assert_follows(xr, r, self.role, self.uuid, when)
        self.samples.append((DT, r))


def grab(xr, role: str, offset: Vec, when: str) -> Hold:
    """`role` pinches at S + offset: the waiting ball follows its fingertip while the fingers close."""
    r = look(xr)
    w = waiting(r)
    assert len(w) == 1, f"expected one ball waiting on the stand at {_fmt(S)} {when}; observed {len(w)}"
    place(xr, role, _add(S, offset))
    prev = look(xr)
    d = math.dist(tip(prev, xr, role), S)
    assert d > RADIUS + 0.005, f"test setup: the fingertip is {d * 100:.1f} cm from the ball's centre"
    xr.hand(role).start_select(1)
    r = look(xr)
    assert_follows(
        xr, r, role, w[0].uuid, f"in the frame its pinch {d * 100:.0f} cm from the ball started {when}", prev
    )
    hold = Hold(role, w[0].uuid, [(DT, r)])
    for i in range(1, CLOSE_FRAMES):
        xr.step(1)
        hold.add(xr, look(xr), f"{i} frames after its pinch started {when}")
    return hold


def carry(xr, hold: Hold, to: Sequence[float], when: str, per_frame: float = 0.015) -> None:
    """Move the holding hand's fingertip to `to`, `per_frame` metres a frame, the ball following."""
    r = look(xr)
    delta = _sub(to, tip(r, xr, hold.role))
    n = max(1, math.ceil(math.hypot(*delta) / per_frame))
    for i in range(n):
        step_move(xr, hold.role, tuple(c / n for c in delta))
        hold.add(xr, look(xr), f"while carried {when}, frame {i + 1}")


@dataclass
class Throw:
    uuid: str
    role: str
    hold: Hold
    rel: Reading
    samples: list[tuple[float, Reading]]  # (time since the release frame, reading), the release first
    what: str

    def add(self, dt: float, r: Reading) -> None:
        self.samples.append((self.samples[-1][0] + dt, r))


def swing(xr, hold: Hold, p0: Vec, v: Vec, when: str) -> Throw:
    """Swing so the fingertip leaves at `p0` with a 0.1 s mean velocity `v` (m/s), releasing in the swing.

    The last 11 frames move the hand by (6 x 1, 4 x 0.75, 1 x 2) times v x 1/60 s: a mean of v over
    the last 5, 6 or 7 frames, neither the last frame's velocity (2 v) nor the one before (0.75 v).
    """
    steps = [1.0] * 6 + [0.75] * 4 + [2.0]
    total = sum(steps)
    start = _add(p0, v, -total * DT)
    carry(xr, hold, start, f"to the start of the swing {when}")
    for _ in range(3):
        xr.step(1)
        hold.add(xr, look(xr), f"before the swing {when}")
    for k in steps[:-1]:
        step_move(xr, hold.role, tuple(c * k * DT for c in v))
        hold.add(xr, look(xr), f"during the swing {when}")
    xr.hand(hold.role).end_select(0)
    step_move(xr, hold.role, tuple(c * steps[-1] * DT for c in v))
    rel = look(xr)
    hold.samples.append((DT, rel))
    b = rel.ball(hold.uuid)
    assert b is not None and b.shown, f"expected the thrown ball shown in the frame of the release {when}"
    return Throw(hold.uuid, hold.role, hold, rel, [(0.0, rel)], when)


def drop(xr, hold: Hold, when: str) -> Throw:
    """Hold still for 10 frames and let go: a throw with (nearly) no speed."""
    for _ in range(10):
        xr.step(1)
        hold.add(xr, look(xr), f"held still {when}")
    xr.hand(hold.role).end_select(1)
    rel = look(xr)
    hold.samples.append((DT, rel))
    return Throw(hold.uuid, hold.role, hold, rel, [(0.0, rel)], when)


def path(p0: Vec, v0: Vec, t: float) -> Vec:
    return (p0[0] + v0[0] * t, p0[1] + v0[1] * t - 0.5 * G * t * t, p0[2] + v0[2] * t)


def stated_velocities(xr, throw: Throw) -> list[Vec]:
    """V0 by the stated rule: from the release frame back to the frame 5, 6 or 7 frames (0.1 s) earlier."""
    tips = [tip(r, xr, throw.role) for _dt, r in throw.hold.samples]
    out = []
    for k in (5, 6, 7):
        k = min(k, len(tips) - 1)
        d = _sub(tips[-1], tips[-1 - k])
        out.append(tuple(c / (k * DT) for c in d))
    return out


def throw_fit(xr, throw: Throw) -> tuple[float, str, int | None, Vec | None]:
    """Best fit of the ball's centres to the stated path: (worst error, description, landing index, landing)."""
    best: tuple[float, str, int | None, Vec | None] = (math.inf, "", None, None)
    p0 = tip(throw.rel, xr, throw.role)
    for v0 in stated_velocities(xr, throw):
        for off in (0.0, DT):
            preds = [path(p0, v0, tau + off) for tau, _r in throw.samples]
            first = next((j for j, p in enumerate(preds) if p[1] < RADIUS), None)
            landings: list[int | None] = [first]
            if first is not None:
                if first > 0 and preds[first - 1][1] - RADIUS < NEAR_FLOOR:
                    landings.append(first - 1)
                if RADIUS - preds[first][1] < NEAR_FLOOR:
                    landings.append(first + 1)
            for land in landings:
                worst, at, want_at = 0.0, 0, preds[0]
                spot = None
                for j, (_tau, r) in enumerate(throw.samples):
                    want = preds[j]
                    if land is not None and j >= land:
                        lp = preds[min(land, len(preds) - 1)]
                        want = (lp[0], RADIUS, lp[2])
                        spot = want
                    b = r.ball(throw.uuid)
                    c = b.centre if b is not None and b.shown else None
                    err = math.inf if c is None else math.dist(c, want)
                    if err > worst:
                        worst, at, want_at = err, j, want
                if worst < best[0]:
                    tau, r = throw.samples[at]
                    b = r.ball(throw.uuid)
                    desc = (
                        f"let go at {_fmt(p0)} with {_fmt(v0)} m/s (the fingertip's mean velocity over the last 0.1 s),"
                        " "
                        f"t counted from {off * 1000:.1f} ms at the release frame: at {(tau + off) * 1000:.0f} ms "
                        f"(frame {at} after the release) its centre should be at {_fmt(want_at)}; observed "
                        f"{_fmt(b.centre if b and b.shown else None)}"
                    )
                    best = (worst, desc, land, spot)
    return best


def fly(xr, throws: list[Throw], frames: int, pattern: Sequence[float] = DTS) -> None:
    for i in range(frames):
        dt = pattern[i % len(pattern)]
        xr.step(1, dt)
        r = look(xr)
        for t in throws:
            t.add(dt / 1000.0, r)


def _rests(throw: Throw) -> bool:
    if len(throw.samples) < 3:
        return False
    a, b = throw.samples[-2][1].ball(throw.uuid), throw.samples[-1][1].ball(throw.uuid)
    if a is None or b is None or a.centre is None or b.centre is None:
        return True
    return math.dist(a.centre, b.centre) < 1e-4 and b.centre[1] < 0.2


def fly_until_landed(xr, throws: list[Throw], after: int = 6, limit: int = 150) -> None:
    for i in range(limit):
        fly(xr, throws, 1, DTS[i % len(DTS) :] + DTS[: i % len(DTS)])
        if all(_rests(t) for t in throws):
            break
    fly(xr, throws, after)


def assert_throw(xr, throw: Throw) -> tuple[int | None, Vec | None]:
    """The ball flew on the stated path and rests where it landed; returns (landing index, landing spot)."""
    __tracebackhide__ = True
    worst, desc, land, _spot = throw_fit(xr, throw)
    assert worst <= PATH_TOL, (
        f"expected the thrown ball's centre on P0 + V0 t + g t^2/2 every frame (P0 the fingertip at the release, V0 "
        f"its mean velocity over the last 0.1 s of the hold, g = {G} m/s^2 down, t in frame times), resting at "
        f"y = {RADIUS} m from the first frame it would go lower, within {PATH_TOL * 100:.0f} cm, {throw.what}: {desc} "
        f"({worst * 100:.1f} cm off)"
    )
    assert land is not None, f"test setup: the ball did not land {throw.what}"
    rest = throw.samples[land][1].ball(throw.uuid)
    assert rest is not None and rest.centre is not None
    for j in range(land + 1, len(throw.samples)):
        b = throw.samples[j][1].ball(throw.uuid)
        c = b.centre if b is not None and b.shown else None
        assert c is not None and math.dist(c, rest.centre) <= STILL_TOL, (
            f"expected the ball to stay still where it landed, {_fmt(rest.centre)}, {throw.what}; observed "
            f"{_fmt(c)} {j - land} frames later"
        )
    return land, rest.centre


def aim(p0: Vec, target: Sequence[float], t_flight: float) -> Vec:
    """The velocity that lands a ball let go at `p0` at `target` (x, z) after `t_flight` seconds."""
    vx = (target[0] - p0[0]) / t_flight
    vz = (target[2] - p0[2]) / t_flight
    vy = (RADIUS - p0[1] + 0.5 * G * t_flight * t_flight) / t_flight
    return (vx, vy, vz)


def assert_start(xr) -> None:
    __tracebackhide__ = True
    r = look(xr, full=True)
    balls = r.shown_balls()
    assert len(balls) == 1 and math.dist(balls[0].centre, S) <= AT_TOL, (
        f"expected one ball (tagged {BALL!r}) waiting at {_fmt(S)} at the start; observed "
        f"{[_fmt(b.centre) for b in balls]}"
    )
    size = balls[0].size
    assert all(abs(s - 2 * RADIUS) <= SIZE_TOL for s in size), (
        f"expected the ball a sphere of radius {RADIUS * 100:.0f} cm (a box {2 * RADIUS * 100:.0f} cm on each side); "
        f"observed a bounding box {_fmt(size)}"
    )
    stands = [s for s in r.raw["stands"] if s["shown"]]
    assert len(stands) == 1, f"expected one stand shown (tagged {STAND!r}, with meshes); observed {len(stands)}"
    vs = stands[0]["vertices"]
    top = max(v[1] for v in vs)
    far = max(_horiz(v, S) for v in vs)
    assert top <= S[1] - RADIUS + 0.002 and far <= 0.15 + 0.002, (
        f"expected the stand's meshes below the ball (no higher than y = {S[1] - RADIUS:.2f}) and within 15 cm of "
        f"{_fmt(S)} horizontally; observed its top at y = {top:.3f} and a vertex {far * 100:.1f} cm away"
    )
    bins = [b for b in r.raw["bins"] if b["shown"]]
    assert len(bins) == 3, f"expected three bins shown (tagged {BIN!r}, with meshes); observed {len(bins)}"
    for c in BINS:
        near = min(bins, key=lambda b: _horiz(b["position"], c))
        assert math.dist(near["position"], c) <= AT_TOL, (
            f"expected a bin at {_fmt(c)} (its position); nearest observed at {_fmt(near['position'])}"
        )
        vs = near["vertices"]
        far = max(_horiz(v, c) for v in vs)
        lo, hi = min(v[1] for v in vs), max(v[1] for v in vs)
        assert far <= BIN_REACH + 0.002 and lo >= -0.002 and hi <= BIN_REACH + 0.002, (
            f"expected the bin at {_fmt(c)} drawn within {BIN_REACH * 100:.0f} cm of its centre horizontally and "
            f"between the floor and {BIN_REACH * 100:.0f} cm above it; observed a vertex {far * 100:.1f} cm away, "
            f"heights {lo:.3f} to {hi:.3f}"
        )
        st = near["state"]
        assert isinstance(st, dict) and st.get("count") == 0, (
            f"expected the bin at {_fmt(c)} to count 0 at the start; observed state {st!r}"
        )
    labels = [lab for lab in r.raw["labels"] if lab["shown"]]
    assert len(labels) >= 3, f"expected a count label shown (tagged {LABEL!r}) for each bin; observed {len(labels)}"
    extra = [d for d in xr.drawn() if not ({STAND, BALL, BIN, LABEL} & set(d.tags))]
    assert not extra, f"expected the app to draw nothing but the stand, balls, bins and labels; observed {extra}"


# --- tests ----------------------------------------------------------------------------------------


def test_either_hand_grabs_only_near_the_waiting_ball(xr):
    xr.step(2)
    assert_start(xr)
    role, second = "dominant", "non_dominant"
    s = side(xr, role)
    # A pinch 16 cm away grabs nothing, even when the hand comes nearer.
    place(xr, role, _add(S, (s * 0.12, 0.02, 0.1)))
    r = look(xr)
    far = math.dist(tip(r, xr, role), S)
    assert far > GRAB + 0.04, f"test setup: the far pinch is {far * 100:.1f} cm from the ball"
    xr.hand(role).start_select(1)

    def unmoved(r: Reading, when: str) -> None:
        w = waiting(r)
        assert len(w) == 1 and len(r.shown_balls()) == 1, (
            f"expected the ball to stay on the stand at {_fmt(S)} {when}; observed balls at "
            f"{[_fmt(b.centre) for b in r.shown_balls()]}"
        )

    for i in range(CLOSE_FRAMES):
        xr.step(1)
        unmoved(look(xr), f"after a pinch {far * 100:.0f} cm from it ({i + 1} frames)")
    near = _add(S, (s * 0.03, 0.0, 0.06))
    r0 = look(xr)
    delta = _sub(near, tip(r0, xr, role))
    for i in range(8):
        step_move(xr, role, tuple(c / 8 for c in delta))
        r = look(xr)
        unmoved(r, f"while a pinch that started {far * 100:.0f} cm away came nearer (frame {i + 1})")
    assert math.dist(tip(r, xr, role), S) < 0.08, "test setup: the pinching hand did not come near the ball"
    xr.hand(role).end_select(CLOSE_FRAMES)
    unmoved(look(xr), "after the far pinch ended")
    # A pinch 6 cm away holds it; the ball follows while the hand moves.
    hold = grab(xr, role, (s * 0.03, 0.0, 0.052), "(the dominant hand)")
    carry(xr, hold, _add(S, (s * 0.15, 0.1, 0.1)), "up and out")
    # The other hand pinches at the held ball: it does not take it.
    r = look(xr)
    held_at = tip(r, xr, role)
    place(xr, second, _add(held_at, (-s * 0.05, -0.02, 0.02)))
    xr.hand(second).start_select(1)
    for i in range(CLOSE_FRAMES):
        xr.step(1)
        hold.add(xr, look(xr), f"while the other hand pinched beside it ({i + 1} frames)")
    for i in range(8):
        step_move(xr, second, (-s * 0.012, -0.01, 0.0))
        hold.add(xr, look(xr), f"while the other hand's pinch moved away (frame {i + 1})")
    carry(xr, hold, _add(S, (s * 0.25, 0.05, 0.05)), "away from the other hand")
    xr.hand(second).end_select(6)
    hold.add(xr, look(xr), "after the other hand's pinch ended")
    assert not waiting(look(xr)), "expected no ball on the stand while the ball is held"
    assert_start_drawn = [d for d in xr.drawn() if not ({STAND, BALL, BIN, LABEL} & set(d.tags))]
    assert not assert_start_drawn, f"expected nothing drawn but the tagged objects; observed {assert_start_drawn}"
    # Let go with the hand still: the ball drops straight down.
    throw = drop(xr, hold, "(let go with the hand still)")
    fly_until_landed(xr, [throw])
    _land, spot = assert_throw(xr, throw)
    below = tip(throw.rel, xr, role)
    assert spot is not None and _horiz(spot, below) <= 0.02, (
        f"expected a ball let go with nearly no speed to land straight below {_fmt(below)}; observed {_fmt(spot)}"
    )
    # The other hand grabs the new ball.
    xr.step(70)
    hold2 = grab(xr, second, (-s * 0.02, 0.02, 0.05), "(the other hand, the new ball)")
    carry(xr, hold2, _add(S, (-s * 0.15, 0.1, 0.08)), "by the other hand")
    assert_no_errors(xr)


def _throw_into(xr, role: str, k: int | None, target: Vec, p0_offset: Vec, t_flight: float, what: str) -> Throw:
    hold = grab(xr, role, (side(xr, role) * 0.03, 0.0, 0.052), what)
    p0 = _add(S, p0_offset)
    v = aim(p0, target, t_flight)
    return swing(xr, hold, p0, v, what)


def test_a_swing_throws_with_the_hands_velocity(xr):
    xr.step(2)
    role = "dominant"
    order = bin_order(xr)
    before = pictures(xr)
    s = side(xr, role)
    # Into the middle bin, 12 cm off its centre.
    target = (0.08, 0.0, -2.2 + 0.09)
    throw = _throw_into(xr, role, 1, target, (s * 0.1, 0.15, -0.35), 0.6, "(into the middle bin)")
    speed = math.hypot(*stated_velocities(xr, throw)[1])
    assert speed > 2.0, f"test setup: the swing's speed is {speed:.2f} m/s"
    fly_until_landed(xr, [throw])
    land, spot = assert_throw(xr, throw)
    assert land is not None and spot is not None
    d = _horiz(spot, BINS[1])
    assert d < BIN_IN - 0.05, f"test setup: the ball landed {d * 100:.0f} cm from the middle bin's centre"
    prev_r = throw.samples[land - 1][1] if land > 0 else throw.rel
    land_r = throw.samples[land][1]
    assert counts(prev_r, order) == [0, 0, 0], (
        f"expected no bin to count the ball before it landed; observed counts {counts(prev_r, order)}"
    )
    got = counts(land_r, order)
    assert got == [0, 1, 0], (
        f"expected the middle bin to count 1 from the frame the ball landed {d * 100:.0f} cm from its centre (the "
        f"bins' counts left to right [0, 1, 0]); observed {got}"
    )
    assert counts(look(xr), order) == [0, 1, 0]
    assert_labels(xr, before, {1}, "after a ball landed in the middle bin")
    assert_no_errors(xr)


def test_bins_count_the_balls_that_land_in_them(xr):
    xr.step(2)
    order = bin_order(xr)
    shown = pictures(xr)
    expected = [0, 0, 0]
    plan = [
        # role, bin it lands in (None: none), landing point, release point from S, flight time
        ("non_dominant", 0, (-0.7 + 0.1, 0.0, -1.6 + 0.12), (-0.08, 0.1, -0.3), 0.55),
        ("dominant", None, (0.7 - 0.17, 0.0, -1.6 - 0.18), (0.05, 0.2, -0.3), 0.9),
        ("dominant", 2, (0.7 - 0.05, 0.0, -1.6 - 0.1), (0.05, 0.2, -0.3), 0.65),
        ("non_dominant", 2, (0.7 + 0.15, 0.0, -1.6 + 0.05), (0.0, 0.05, -0.3), 0.5),
    ]
    for n, (role, k, target, off, t_flight) in enumerate(plan):
        what = f"(throw {n + 1}, the {role} hand)"
        if n:
            xr.step(64)
        throw = _throw_into(xr, role, k, target, off, t_flight, what)
        fly_until_landed(xr, [throw])
        land, spot = assert_throw(xr, throw)
        assert land is not None and spot is not None
        dists = [_horiz(spot, c) for c in BINS]
        if k is None:
            # A near miss: outside the 25 cm of the bins, but within 30 cm of the right one.
            assert BIN_IN + 0.006 <= min(dists) <= BIN_REACH - 0.008, (
                f"test setup: the near miss landed {min(dists) * 100:.1f} cm from a bin's centre"
            )
        else:
            assert dists[k] <= BIN_IN - 0.03, f"test setup: the ball landed {dists[k] * 100:.0f} cm from its bin"
        for j, d in enumerate(dists):
            if d <= BIN_IN:
                expected[j] += 1
        got = counts(throw.samples[land][1], order)
        assert got == expected, (
            f"expected the bins' counts (left to right) {expected} from the frame the ball landed at {_fmt(spot)} "
            f"{what} ({', '.join(f'{d * 100:.0f} cm' for d in dists)} from their centres; a bin counts a ball that"
            " lands "
            f"within {BIN_IN * 100:.0f} cm); observed {got}"
        )
        shown = assert_labels(xr, shown, set() if k is None else {k}, f"after {what} landed")
    assert_no_errors(xr)


def test_a_new_ball_appears_a_second_after_each_throw(xr):
    xr.step(2)
    role, second = "non_dominant", "dominant"
    s = side(xr, role)
    hold = grab(xr, role, (s * 0.03, 0.0, 0.052), "(first ball)")
    carry(xr, hold, _add(S, (s * 0.2, 0.0, 0.0)), "aside")
    throw = drop(xr, hold, "(dropped beside the stand)")
    # The other hand pinches at the empty stand before the new ball appears, and holds the pinch.
    sp = side(xr, second)
    place_at = _add(S, (sp * 0.03, 0.0, 0.052))
    xr.hand(second).move_hand(place_at, anchor="fingertip", speed=3.0)
    throw.samples.extend([])
    r = look(xr)
    frames_since = r.frame - throw.rel.frame
    assert frames_since < 40, f"test setup: reaching the stand took {frames_since} frames"
    assert not waiting(r), "expected the stand empty right after the throw"
    xr.hand(second).start_select(1)
    frames = r.frame - throw.rel.frame + 1
    appeared = None
    new_uuid = None
    while frames < 75:
        xr.step(1)
        frames += 1
        r = look(xr)
        w = [b for b in waiting(r) if b.uuid != throw.uuid]
        if w and appeared is None:
            appeared, new_uuid = frames, w[0].uuid
        if appeared is None:
            assert frames <= 61, (
                f"expected a new ball on the stand in the first frame at least {RESPAWN:.0f} s after the release "
                f"(60 frames of 1/60 s); observed none {frames} frames after it"
            )
    assert appeared is not None and appeared >= 60, (
        f"expected no new ball on the stand before {RESPAWN:.0f} s after the release; observed one {appeared} frames "
        f"(of 1/60 s) after it"
    )
    # The pinch held since the stand was empty does not grab it.
    for i in range(10):
        step_move(xr, second, (sp * 0.01, 0.01, 0.01))
        r = look(xr)
        b = r.ball(new_uuid)
        assert b is not None and b.centre is not None and math.dist(b.centre, S) <= AT_TOL, (
            f"expected the new ball to stay on the stand while a pinch that started before it appeared moves away "
            f"(frame {i + 1}); observed it at {_fmt(b.centre if b else None)}"
        )
    xr.hand(second).end_select(CLOSE_FRAMES)
    # A pinch at the thrown ball resting on the floor grabs nothing.
    rest = look(xr).ball(throw.uuid)
    assert rest is not None and rest.centre is not None and rest.centre[1] < RADIUS + 0.01, (
        f"expected the dropped ball to rest on the floor; observed {_fmt(rest.centre if rest else None)}"
    )
    xr.hand(role).move_hand(_add(rest.centre, (s * 0.02, 0.0, 0.05)), anchor="fingertip", speed=3.0)
    xr.hand(role).start_select(1)
    xr.step(CLOSE_FRAMES)
    for _ in range(8):
        step_move(xr, role, (0.0, 0.02, 0.0))
    r = look(xr)
    b = r.ball(throw.uuid)
    assert b is not None and b.centre is not None and math.dist(b.centre, rest.centre) <= STILL_TOL, (
        f"expected a pinch at the thrown ball resting on the floor to grab nothing; observed it moved to "
        f"{_fmt(b.centre if b else None)}"
    )
    xr.hand(role).end_select(CLOSE_FRAMES)
    # A new pinch of the other hand at the stand grabs the new ball and flicks it at once (held less
    # than 0.1 s: its velocity from the frame of the grab); it is replaced again a second later.
    place(xr, second, _add(S, (sp * 0.03, 0.0, 0.052)))
    prev = look(xr)
    xr.hand(second).start_select(1)
    r = look(xr)
    assert_follows(xr, r, second, new_uuid, "in the frame the pinch at the new ball started", prev)
    hold2 = Hold(second, new_uuid, [(DT, r)])
    v = (-sp * 0.4, 1.2, -1.8)
    for i in range(3):
        step_move(xr, second, tuple(c * DT for c in v))
        hold2.add(xr, look(xr), f"while flicked, frame {i + 1}")
    xr.hand(second).end_select(0)
    step_move(xr, second, tuple(c * DT for c in v))
    r = look(xr)
    hold2.samples.append((DT, r))
    throw2 = Throw(new_uuid, second, hold2, r, [(0.0, r)], "(flicked, held for less than 0.1 s)")
    for i in range(1, 66):
        xr.step(1)
        r = look(xr)
        throw2.add(DT, r)
        w = [b for b in waiting(r) if b.uuid not in (new_uuid, throw.uuid)]
        if i < 60:
            assert not w, f"expected no new ball on the stand {i} frames after the second throw"
        elif i >= 61:
            assert len(w) == 1, f"expected a new ball on the stand {i} frames (of 1/60 s) after the second throw"
    assert_throw(xr, throw2)
    assert_no_errors(xr)
