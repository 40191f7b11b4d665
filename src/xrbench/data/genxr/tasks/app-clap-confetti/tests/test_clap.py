"""Runtime tests of clap-for-confetti.

They check that
- the cylinder is gone and nothing bursts or sounds at the start, nor while one hand moves about on
  its own, pinches, or brings its palm within 12 cm of the other's;
- a clap (palm centres, the middle-finger metacarpal joints as the simulator places them, within
  10 cm) makes one burst and one sound in the frame the palms first come within 10 cm, or the next;
  the palms are brought together in steps of 5 mm a frame, and the frame is found from the joints;
- the burst: at least 20 direct children (meshes) of one group tagged 'confetti-burst', each at most
  3 cm across (its world bounding box, checked to 3.5 cm), in at least three colours that differ by
  64 or more in a channel; every piece within 5 cm of the palms' midpoint when first seen, at least
  30 cm from it half a second later, with pieces at least 10 cm out on each side along x, y and z,
  and the burst shown until 1.4 s after the clap and gone by 1.6 s;
- the sound: one new sound per clap, starting in the clap's frame or the next, at most 0.3 s long
  (checked to 0.32 s);
- holding the palms together for a second, parting them to 20 cm and bringing them back make no
  new clap; parting them to 30 cm re-arms it;
- two claps half a second apart, the second up high and to the side, make two bursts, each at its
  own midpoint, the first gone at its own 1.5 s while the second keeps flying.

Bursts, pieces, colours and sizes are read from the scene graph; sounds from the harness's own log
of the sounds the page starts. Each test runs for a right- and a left-dominant user, and the hand
that moves to clap alternates between tests.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "confetti-burst"
PALM = "middle-finger-metacarpal"
CLAP = 0.10
NEAR_MISS = 0.12
REARM = 0.25
STEP = 0.005  # metres a palm moves per frame while clapping
MIN_PIECES = 20
PIECE_SIZE = 0.035  # "at most 3 cm across", with 5 mm of slack
START_TOL = 0.05
SPREAD = 0.30
SPREAD_FRAMES = 30  # half a second at 60 frames a second
SIDE = 0.10  # metres a piece must have gone to each side by then
SHOWN_UNTIL = 84  # 1.4 s
GONE_BY = 96  # 1.6 s
MAX_SOUND = 0.32
CHANNEL_GAP = 64

Vec = tuple[float, float, float]

READ = r"""
(h, tag) => {
  const THREE = h.THREE, scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const shown = new Set();
  scene.traverseVisible((o) => { shown.add(o); });
  const bursts = [];
  let cylinders = 0;
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    if (o.isMesh && o.geometry && o.geometry.type === 'CylinderGeometry' && shown.has(o)) cylinders++;
    const t = o.userData && o.userData.xrblocksDevtools;
    if (!t || String(t.tag) !== tag || !shown.has(o)) return;
    const pieces = [];
    for (const c of o.children) {
      h.guard(c, c.name || c.type);
      if (!c.isMesh || !shown.has(c)) continue;
      const box = new THREE.Box3().setFromObject(c);
      const size = box.isEmpty() ? [0, 0, 0] : box.getSize(new THREE.Vector3()).toArray();
      const m = Array.isArray(c.material) ? c.material[0] : c.material;
      const hex = m && m.color ? m.color.getHex() : null;  // sRGB, as a developer writes colours
      const color = hex === null ? null : [(hex >> 16) & 255, (hex >> 8) & 255, hex & 255];
      pieces.push({position: box.isEmpty() ? new THREE.Vector3().setFromMatrixPosition(c.matrixWorld).toArray()
                                           : box.getCenter(new THREE.Vector3()).toArray(),
                   size, color});
    }
    bursts.push({uuid: o.uuid, pieces});
  });
  return {bursts, cylinders};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def read(xr) -> dict:
    return xr.probe(READ, TAG)


def bursts(xr) -> list[dict]:
    return read(xr)["bursts"]


def palms(xr) -> tuple[Vec, Vec]:
    left = xr.hand_joints("left")[PALM].position
    right = xr.hand_joints("right")[PALM].position
    return left, right


def gap(xr) -> float:
    return math.dist(*palms(xr))


def midpoint(xr) -> Vec:
    a, b = palms(xr)
    return tuple((x + y) / 2 for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def palm_of(xr, role: str) -> Vec:
    left, right = palms(xr)
    return left if xr.handedness(role) == "left" else right


def place_palm(xr, role: str, at: Vec, speed: float = 1.0) -> None:
    """Move a hand so its palm centre ends at `at`."""
    hand = xr.hand(role)
    palm = palm_of(xr, role)
    offset = [p - c for p, c in zip(palm, hand.position, strict=True)]
    hand.move_hand(tuple(a - o for a, o in zip(at, offset, strict=True)), speed=speed)


class Log:
    """What happened since it was made: new bursts (by uuid) and new sounds."""

    def __init__(self, xr) -> None:
        self.xr = xr
        self.known = {b["uuid"] for b in bursts(xr)}
        self.sounds = len(xr.audio())

    def new_bursts(self) -> list[dict]:
        return [b for b in bursts(self.xr) if b["uuid"] not in self.known]

    def new_sounds(self) -> list[dict]:
        return self.xr.audio()[self.sounds :]

    def expect_nothing(self, what: str) -> None:
        __tracebackhide__ = True
        new = self.new_bursts()
        assert not new, f"{what}: expected no confetti; observed {len(new)} new burst(s)"
        sounds = self.new_sounds()
        assert not sounds, f"{what}: expected no sound; observed {len(sounds)} ({sounds[:2]})"


def bring_together(xr, mover: str, until: float, what: str) -> tuple[int, Vec] | None:
    """Move `mover`'s palm towards the other's, 5 mm a frame, until the palms are `until` apart.

    Stops at the first frame the palms are within 10 cm and returns (frame, midpoint) of it, or
    None if they never were. Fails if a burst or a sound appears before that frame."""
    __tracebackhide__ = True
    log = Log(xr)
    other = "non_dominant" if mover == "dominant" else "dominant"
    for _ in range(200):
        d = gap(xr)
        if d <= until + 1e-4:
            break
        a, b = palm_of(xr, mover), palm_of(xr, other)
        step = min(STEP, d - until)
        goal = tuple(p + (q - p) * step / d for p, q in zip(a, b, strict=True))
        place_palm(xr, mover, goal, speed=STEP * 60)
        if gap(xr) <= CLAP:
            return xr.frame, midpoint(xr)
        log.expect_nothing(f"{what}: palms {100 * gap(xr):.1f} cm apart, before any clap")
    return None


def part(xr, mover: str, to: float, speed: float = 1.0) -> None:
    """Move `mover`'s palm straight away from the other's until they are `to` apart."""
    other = "non_dominant" if mover == "dominant" else "dominant"
    a, b = palm_of(xr, mover), palm_of(xr, other)
    d = math.dist(a, b)
    away = [(p - q) / d for p, q in zip(a, b, strict=True)]
    place_palm(xr, mover, tuple(q + u * to for q, u in zip(b, away, strict=True)), speed=speed)


def colour_groups(pieces: list[dict]) -> int:
    groups: list[list[int]] = []
    for p in pieces:
        c = p["color"]
        if c is None:
            continue
        if all(max(abs(x - y) for x, y in zip(c, g, strict=True)) >= CHANNEL_GAP for g in groups):
            groups.append(c)
    return len(groups)


def expect_clap(xr, log: Log, clap: tuple[int, Vec], what: str) -> dict:
    """One new burst and one new sound at the clap's frame (or the next); the burst's first look."""
    __tracebackhide__ = True
    frame, mid = clap
    if xr.frame == frame:
        xr.step(1)
    new = log.new_bursts()
    assert len(new) == 1, (
        f"{what}: expected one new burst of confetti within a frame of the clap (palms within 10 cm at frame "
        f"{frame}); observed {len(new)}"
    )
    sounds = log.new_sounds()
    assert len(sounds) == 1, f"{what}: expected one clap sound within a frame of the clap; observed {len(sounds)}"
    s = sounds[0]
    assert frame <= (s.get("frame") or 0) <= frame + 1 and not s.get("start_delay"), (
        f"{what}: expected the clap sound to start in the frame of the clap ({frame}) or the next; it started at "
        f"frame {s.get('frame')} (delay {s.get('start_delay')})"
    )
    length = s.get("duration")
    if s.get("stop_frame") is not None:
        by_stop = (s["stop_frame"] - s["frame"]) / 60 + (s.get("stop_delay") or 0)
        length = by_stop if length is None else min(length, by_stop)
    lasts = "until stopped" if length is None else f"{length:.3f} s"
    assert length is not None and length <= MAX_SOUND, (
        f"{what}: expected a short clap sound (at most 0.3 s); it lasts {lasts}"
    )
    burst = new[0]
    pieces = burst["pieces"]
    assert len(pieces) >= MIN_PIECES, f"{what}: expected at least 20 confetti pieces; observed {len(pieces)}"
    big = max(pieces, key=lambda p: max(p["size"]))
    assert max(big["size"]) <= PIECE_SIZE, (
        f"{what}: expected every piece at most 3 cm across; one measures {fmt(big['size'])} m"
    )
    n = colour_groups(pieces)
    assert n >= 3, f"{what}: expected pieces in at least three clearly different colours; observed {n}"
    far = max(pieces, key=lambda p: math.dist(p["position"], mid))
    assert math.dist(far["position"], mid) <= START_TOL, (
        f"{what}: expected every piece to start at the palms' midpoint {fmt(mid)} (within 5 cm); one is at "
        f"{fmt(far['position'])}, {100 * math.dist(far['position'], mid):.1f} cm away"
    )
    return burst


def find(xr, uuid: str) -> dict | None:
    return next((b for b in bursts(xr) if b["uuid"] == uuid), None)


def expect_spread(xr, burst: dict, clap: tuple[int, Vec], what: str) -> None:
    """Half a second after the clap every piece is at least 30 cm from the clap's midpoint."""
    __tracebackhide__ = True
    frame, mid = clap
    xr.step(frame + SPREAD_FRAMES - xr.frame)
    now = find(xr, burst["uuid"])
    assert now is not None, f"{what}: expected the burst still shown half a second after the clap; it is gone"
    for axis, name in enumerate(("left and right", "down and up", "forward and back")):
        lo = min(p["position"][axis] - mid[axis] for p in now["pieces"])
        hi = max(p["position"][axis] - mid[axis] for p in now["pieces"])
        assert lo <= -SIDE and hi >= SIDE, (
            f"{what}: expected the pieces to fly out to all sides ({name}) of the clap's midpoint; half a second "
            f"after it they reach from {100 * lo:.0f} to {100 * hi:.0f} cm along that axis"
        )
    near = min(now["pieces"], key=lambda p: math.dist(p["position"], mid))
    assert math.dist(near["position"], mid) >= SPREAD, (
        f"{what}: expected every piece at least 30 cm from the clap's midpoint half a second after it; one is "
        f"{100 * math.dist(near['position'], mid):.1f} cm away"
    )


def expect_lifetime(xr, burst: dict, frame: int, what: str) -> None:
    __tracebackhide__ = True
    while xr.frame < frame + SHOWN_UNTIL:
        xr.step(min(10, frame + SHOWN_UNTIL - xr.frame))
        assert find(xr, burst["uuid"]) is not None, (
            f"{what}: expected the burst shown until 1.5 s after the clap; it was gone {(xr.frame - frame) / 60:.2f} s "
            "after it"
        )
    xr.step(frame + GONE_BY - xr.frame)
    assert find(xr, burst["uuid"]) is None, (
        f"{what}: expected the burst to disappear 1.5 s after the clap (within 0.1 s); it is still shown 1.6 s after it"
    )


def ready(xr) -> None:
    xr.step(2)
    assert read(xr)["cylinders"] == 0, "expected the starting app's cylinder to be removed"
    # hands side by side in front of the chest, palms 40 cm apart
    place_palm(xr, "dominant", (0.2 if xr.handedness("dominant") == "right" else -0.2, 1.2, -0.4))
    place_palm(xr, "non_dominant", (-0.2 if xr.handedness("dominant") == "right" else 0.2, 1.2, -0.4))
    xr.step(5)


def test_a_clap_makes_one_burst_and_one_sound_and_one_hand_alone_makes_none(xr):
    xr.step(2)
    log = Log(xr)
    xr.step(60)
    log.expect_nothing("during the first second")
    ready(xr)
    dom = xr.hand("dominant")
    dom.move_by((0.0, 0.3, -0.2))
    dom.pinch()
    dom.release()
    dom.move_by((0.0, -0.3, 0.2))
    log.expect_nothing("while only the dominant hand moved and pinched")
    assert bring_together(xr, "dominant", NEAR_MISS, "bringing the palms to 12 cm") is None
    xr.step(30)
    log.expect_nothing("with the palms 12 cm apart")
    part(xr, "dominant", 0.4)
    log = Log(xr)
    clap = bring_together(xr, "dominant", 0.05, "a clap with the dominant hand")
    assert clap is not None, "test set-up: the palms never came within 10 cm"
    burst = expect_clap(xr, log, clap, "a clap with the dominant hand")
    expect_spread(xr, burst, clap, "a clap with the dominant hand")
    expect_lifetime(xr, burst, clap[0], "a clap with the dominant hand")
    assert len(log.new_sounds()) == 1, "expected one sound per clap; more followed while the palms stayed together"
    assert_no_errors(xr)


def test_the_next_clap_counts_only_after_the_palms_part_by_25_cm(xr):
    ready(xr)
    log = Log(xr)
    clap = bring_together(xr, "non_dominant", 0.05, "a clap with the non-dominant hand")
    assert clap is not None, "test set-up: the palms never came within 10 cm"
    expect_clap(xr, log, clap, "a clap with the non-dominant hand")
    log = Log(xr)
    xr.step(60)
    log.expect_nothing("holding the palms together for a second after a clap")
    part(xr, "non_dominant", 0.20)
    xr.step(10)
    bring_together(xr, "non_dominant", 0.05, "after parting the palms by only 20 cm")
    xr.step(10)
    log.expect_nothing("bringing the palms back together after parting them by only 20 cm")
    part(xr, "non_dominant", 0.30)
    xr.step(10)
    log = Log(xr)
    clap = bring_together(xr, "non_dominant", 0.05, "after parting the palms by 30 cm")
    assert clap is not None
    expect_clap(xr, log, clap, "a clap after parting the palms by 30 cm")
    assert_no_errors(xr)


def test_two_quick_claps_in_different_places_make_independent_bursts(xr):
    ready(xr)
    log = Log(xr)
    first = bring_together(xr, "dominant", 0.05, "the first clap")
    assert first is not None
    burst1 = expect_clap(xr, log, first, "the first clap")
    # up high and to the side, quickly; the palms pass more than 25 cm apart on the way
    side = 1.0 if xr.handedness("dominant") == "right" else -1.0
    place_palm(xr, "dominant", (side * 0.65, 1.75, -0.3), speed=6.0)
    place_palm(xr, "non_dominant", (side * 0.51, 1.75, -0.3), speed=6.0)
    log = Log(xr)
    second = bring_together(xr, "non_dominant", 0.05, "the second clap")
    assert second is not None
    assert second[0] - first[0] <= 54, "test set-up: the second clap came too late after the first"
    burst2 = expect_clap(xr, log, second, "the second clap, up high and to the side")
    expect_spread(xr, burst2, second, "the second clap, up high and to the side")
    assert find(xr, burst1["uuid"]) is not None, "expected the first burst to keep flying after the second clap"
    expect_lifetime(xr, burst1, first[0], "the first burst, with a second one flying")
    assert find(xr, burst2["uuid"]) is not None, "expected the second burst to keep flying after the first one is gone"
    expect_lifetime(xr, burst2, second[0], "the second burst")
    assert_no_errors(xr)
