"""Runtime tests of the footprints app.

Plane detection is held back at the start (`withhold`), so that the app sees no floor until the
test gives it one: the scene's own floor, or a floor the test describes (a raised one, 5 cm up).
The user walks frame by frame (2 cm a frame, 1.2 m/s); after every frame the objects tagged
'footprint' are read as the world-space vertices of their visible geometry.

They check that
- nothing is drawn before a floor is detected (and no cylinder); once it is, a footprint appears
  within 6 frames, its centre within 5 cm of the point of the floor below the eyes, lying flat on
  the floor (all of it 0-2 cm above the floor's height, checked to -2 mm), 20-35 cm long and 8-15 cm
  wide (checked to 1 cm), its length along the way the user faces (within 10 degrees);
- walking 2 m ahead, then 1.6 m sideways (facing ahead), then 1.1 m backwards, a footprint appears on
  the frame the point below the eyes comes 0.5 m (+-5 mm) from where the last footprint was laid (the
  point below the eyes in the frame it appeared), or the next frame, centred at that point (within
  5 cm), each pointing along the step from the previous one (within 10 degrees) and none in between;
- on a raised floor (5 cm up), turning on the spot, looking up and down, crouching 0.4 m and
  shuffling up to 0.4 m from the last footprint and back add none; 0.6 m of walking then adds
  exactly one;
- with a 13th footprint the oldest goes: after 15 the 12 newest remain, the footprints never move,
  and the count stays at 12.

Tested in the living room and the kitchen (the raised floor in the kitchen, the twelve footprints in
the living room); the hands play no part, so one (right-dominant) user is enough.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.rooms import floor_plane
from xrbench.xrtest.strokes import read_strokes

# The hands play no part: one variant (the default right-dominant user) is enough.
pytestmark = [pytest.mark.xr_scenes("living_room", "kitchen"), pytest.mark.xr_hands("right")]

TAG = "footprint"
STEP = 0.5
KEEP = 12
NEAR = 0.05  # "within 5 cm of the point below the eyes"
FLAT = (-0.002, 0.02)  # metres above the floor every vertex lies in
LENGTH = (0.19, 0.36)
WIDTH = (0.07, 0.16)
ANGLE = 10.0
PACE = 0.02  # metres the head moves a frame
EDGE = 0.005  # metres of slack either side of the 0.5 m (rounding; where exactly a print was laid)
SOON = 6  # frames a first footprint may take after the floor is detected
RAISED = 0.05
ROOM = [(-3.0, -4.0), (3.0, -4.0), (3.0, 3.0), (-3.0, 3.0)]

Vec = tuple[float, float, float]


def _fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


class Print:
    """A footprint read from its vertices: centre, height range, width (its narrowest horizontal
    extent), length (across that) and the length's heading (degrees, atan2(x, z))."""

    def __init__(self, raw: dict):
        self.uuid = raw["uuid"]
        pts = raw["points"]
        self.points = pts
        xs, ys, zs = [p[0] for p in pts], [p[1] for p in pts], [p[2] for p in pts]
        self.centre = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, (min(zs) + max(zs)) / 2)
        self.low, self.high = min(ys), max(ys)
        best = None
        for deg in range(0, 180):
            a = math.radians(deg)
            u = (math.sin(a), math.cos(a))
            along = [p[0] * u[0] + p[2] * u[1] for p in pts]
            across = [-p[0] * u[1] + p[2] * u[0] for p in pts]
            length, width = max(along) - min(along), max(across) - min(across)
            if best is None or width < best[1]:  # the narrowest extent is across the print
                best = (length, width, deg)
        self.length, self.width, self.heading = best  # type: ignore[misc]


def prints(xr) -> list[Print]:
    return [Print(r) for r in read_strokes(xr, TAG) if r["points"]]


# Per frame, cheaply: the eyes' world position and the uuids of the footprints drawn (with visible
# geometry).
_GLANCE_JS = """
(h, tag) => {
  const scene = h.guard(h.core.scene, 'the scene');
  const camera = h.guard(h.core.camera, 'the camera');
  camera.updateWorldMatrix(true, false);
  const eye = camera.matrixWorld.elements;
  const visibleUp = (o) => { for (let p = o; p; p = p.parent) if (!p.visible) return false; return true; };
  const ids = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== tag) return;
    let drawn = false;
    o.traverse((c) => {
      if (c.geometry && c.geometry.attributes && c.geometry.attributes.position && visibleUp(c)) drawn = true;
    });
    if (drawn) ids.push(o.uuid);
  });
  return {eye: [eye[12], eye[13], eye[14]], ids};
}
"""


def ground(xr, floor: float) -> Vec:
    p = xr.camera_pose().position
    return (p[0], floor, p[2])


def heading_of(dx: float, dz: float) -> float:
    return math.degrees(math.atan2(dx, dz))


def off_axis(a: float, b: float) -> float:
    """Angle between two axes (a footprint's length has no front), degrees."""
    d = abs((a - b) % 180.0)
    return min(d, 180.0 - d)


def assert_print(p: Print, floor: float, at: Vec, heading: float, what: str) -> None:
    __tracebackhide__ = True
    gap = math.hypot(p.centre[0] - at[0], p.centre[2] - at[2])
    assert gap <= NEAR, (
        f"expected the footprint {what} centred within {NEAR} m of the point below the eyes {_fmt(at)}; "
        f"its centre is {_fmt(p.centre)}, {gap:.3f} m away"
    )
    assert p.low >= floor + FLAT[0] and p.high <= floor + FLAT[1], (
        f"expected the footprint {what} flat on the floor (height {floor:.3f} m), all of it 0-2 cm above it; it "
        f"spans heights {p.low:.3f} to {p.high:.3f} m"
    )
    assert LENGTH[0] <= p.length <= LENGTH[1] and WIDTH[0] <= p.width <= WIDTH[1], (
        f"expected the footprint {what} 20-35 cm long and 8-15 cm wide; observed {p.length:.3f} x {p.width:.3f} m"
    )
    turn = off_axis(p.heading, heading)
    assert turn <= ANGLE, (
        f"expected the footprint {what} to point along {heading:.0f} degrees (its length within {ANGLE} degrees of "
        f"it); it points along {p.heading:.0f} degrees, {turn:.0f} degrees off"
    )


def give_floor(xr, height: float | None) -> float:
    """Detect a floor: the scene's own (None) or one the test describes at `height`; its height."""
    if height is None:
        xr.plane_detection.deliver("floor")
    else:
        xr.plane_detection.add(floor_plane(ROOM, height))
    xr.step(1)
    if height is not None:
        return height
    floors = [p for p in xr.probe(_FLOORS_JS) if p is not None]
    assert floors, "test set-up: the scene has no floor plane"
    return max(floors)


_FLOORS_JS = """
(h) => (h.xb.world && h.xb.world.planes ? h.xb.world.planes.get() : [])
  .filter((p) => String(p.label || '').toLowerCase() === 'floor')
  .map((p) => { p.updateWorldMatrix(true, false); return p.matrixWorld.elements[13]; })
"""


class Walker:
    """Moves the head frame by frame and checks, after each frame, when footprints appear."""

    def __init__(self, xr, floor: float, last: Vec):
        self.xr, self.floor = xr, floor
        self.known = {p.uuid: p for p in prints(xr)}
        # Where the newest footprint was laid: the point below the eyes in the frame it appeared
        # (its centre may be up to 5 cm from it).
        self.last = last
        self.order: list[str] = list(self.known)

    def walk(self, delta: Vec, what: str) -> None:
        """Walk by `delta` (eye height kept), PACE a frame, facing as before."""
        n = max(1, math.ceil(math.hypot(delta[0], delta[2]) / PACE))
        step = (delta[0] / n, 0.0, delta[2] / n)
        due: int | None = None  # frames since the point below the eyes came 0.5 m from the last print
        target: Vec | None = None
        for _ in range(n):
            self.xr.head.move(step, speed=PACE * 60.0)
            glance = self.xr.probe(_GLANCE_JS, TAG)
            here = (glance["eye"][0], self.floor, glance["eye"][2])
            fresh = [uid for uid in glance["ids"] if uid not in self.known]
            new = [p for p in prints(self.xr) if p.uuid in fresh] if fresh else []
            gone = math.hypot(here[0] - self.last[0], here[2] - self.last[2])
            if due is None and gone >= STEP + EDGE:
                due, target = 0, here
            elif due is not None:
                due += 1
            if new:
                assert len(new) == 1, f"expected one new footprint at a time {what}; {len(new)} appeared in a frame"
                assert gone >= STEP - EDGE, (
                    f"expected no footprint before the point below the eyes is {STEP} m from the last one ({what}); "
                    f"one appeared {gone:.3f} m from it"
                )
                if target is None:
                    target = here
                p = new[0]
                heading = heading_of(target[0] - self.last[0], target[2] - self.last[2])
                assert_print(p, self.floor, target, heading, f"{what}, placed {STEP} m on")
                self.known[p.uuid] = p
                self.order.append(p.uuid)
                self.last = here
                due, target = None, None
            assert due is None or due <= 1, (
                f"expected a footprint on the frame the point below the eyes came {STEP} m from the last one, or the "
                f"next ({what}); none {due} frames later"
            )
            kept = set(self.order[-KEEP:])
            assert set(glance["ids"]) == kept, (
                f"expected the {len(kept)} newest footprints shown and no other ({what}); "
                f"{len(kept - set(glance['ids']))} of them missing, {len(set(glance['ids']) - kept)} others shown"
            )
        self.check_unmoved(prints(self.xr), what)

    def check_unmoved(self, now: list[Print], what: str) -> None:
        __tracebackhide__ = True
        ids = {p.uuid: p for p in now}
        kept = self.order[-KEEP:]
        for uid in self.order:
            if uid in kept:
                assert uid in ids, (
                    f"expected the {len(kept)} newest footprints kept ({what}); footprint {self.order.index(uid) + 1} "
                    "is gone"
                )
                moved = math.dist(ids[uid].centre, self.known[uid].centre)
                assert moved <= 0.003, (
                    f"expected footprints to stay where they were placed ({what}); one moved {moved:.3f} m"
                )
            else:
                assert uid not in ids, (
                    f"expected at most {KEEP} footprints, the oldest removed ({what}); footprint "
                    f"{self.order.index(uid) + 1} of {len(self.order)} is still there"
                )
        assert len(now) == len(kept), f"expected {len(kept)} footprints ({what}); observed {len(now)}"


def first_print(xr, height: float | None) -> Walker:
    xr.plane_detection.withhold()
    xr.settle()
    xr.step(30)
    assert not prints(xr), "expected no footprint before a floor is detected"
    cylinders = [d for d in xr.drawn() if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the cylinder removed; observed {cylinders}"
    floor = give_floor(xr, height)
    below = ground(xr, floor)
    for _ in range(SOON):
        if prints(xr):
            break
        xr.step(1)
    found = prints(xr)
    assert len(found) == 1, (
        f"expected one footprint within {SOON} frames of the floor's detection; observed {len(found)}"
    )
    f = xr.camera_pose().forward
    assert_print(found[0], floor, below, heading_of(f[0], f[2]), "placed when the floor was detected")
    return Walker(xr, floor, below)


def test_a_first_footprint_appears_under_the_user_once_the_floor_is_found(xr):
    w = first_print(xr, None)
    xr.head.rotate(yaw=-35)
    xr.wait(300)
    assert len(prints(xr)) == 1, "expected no new footprint while the user only turned"
    w.walk((0.0, 0.0, -0.45), "after 0.45 m of walking")
    assert len(prints(xr)) == 1, "expected no new footprint before the user walked 0.5 m"
    assert_no_errors(xr)


def test_a_footprint_every_half_metre_along_the_walk(xr):
    w = first_print(xr, None)
    w.walk((0.0, 0.0, -2.0), "walking 2 m ahead")
    assert len(w.order) == 5, f"expected 4 footprints in 2 m of walking; observed {len(w.order) - 1}"
    w.walk((1.6, 0.0, 0.0), "walking 1.6 m sideways, facing ahead")
    w.walk((0.0, 0.0, 1.1), "walking 1.1 m backwards, facing ahead")
    assert len(w.order) == 10, f"expected 9 footprints after walking 4.7 m; observed {len(w.order) - 1}"
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_on_a_raised_floor_turning_crouching_and_shuffling_add_no_footprints(xr):
    w = first_print(xr, RAISED)
    w.walk((0.3, 0.0, -0.45), "walking 0.54 m")
    assert len(w.order) == 2, "test set-up: one step"
    count = len(w.order)
    xr.head.rotate(yaw=180)
    xr.head.rotate(yaw=170)
    xr.head.rotate(pitch=-50)
    xr.head.rotate(pitch=80)
    xr.head.move((0.0, -0.4, 0.0), speed=0.5)
    w.walk((0.0, 0.0, -0.4), "shuffling 0.4 m ahead, crouched")
    w.walk((0.0, 0.0, 0.4), "shuffling back")
    xr.head.move((0.0, 0.4, 0.0), speed=0.5)
    w.walk((-0.35, 0.0, 0.0), "shuffling 0.35 m to the side")
    w.walk((0.35, 0.0, 0.0), "shuffling back")
    xr.wait(500)
    assert len(prints(xr)) == count, (
        f"expected no footprint from turning, looking up and down, crouching and shuffling; observed "
        f"{len(prints(xr)) - count} more"
    )
    w.walk((0.0, 0.0, 0.6), "walking 0.6 m")
    assert len(w.order) == count + 1, f"expected exactly one footprint after 0.6 m; observed {len(w.order) - count}"
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room")
def test_only_the_twelve_newest_footprints_stay(xr):
    w = first_print(xr, None)
    for k in range(7):
        w.walk((0.0, 0.0, -1.05 if k % 2 == 0 else 1.05), f"walking back and forth, lap {k + 1}")
    assert len(w.order) == 15, f"test set-up: expected 15 footprints placed; observed {len(w.order)}"
    xr.wait(500)
    w.check_unmoved(prints(xr), "after 15 footprints")
    assert_no_errors(xr)
