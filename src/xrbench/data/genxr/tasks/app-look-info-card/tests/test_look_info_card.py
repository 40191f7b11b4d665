"""Runtime tests of the look-to-learn info cards, in two furnished rooms (tables of different heights).

Physical objects (the simulator's objects, which XR Blocks' object detection reports) are put on
the room's table; the harness turns the user's head onto them (in one frame) and away, frame by
frame in virtual time, and reads every frame, through a probe on the captured three.js, the shown
meshes tagged 'info-card' (their world pose, their geometry's size, their name) and the
THREE.PositionalAudio objects of the scene (where they are, their listener, and whether a new sound
source started). Sounds come from the harness's own log of the sounds the page started.

They check that
- a look held on an object shows one card, 45-60 frames (0.75-1.0 s) after the head arrived, with
  the object's name (state and text on its front, different for different objects), 0.2 x 0.1 m,
  beside the object on the user's right (0.18-0.32 m from its centre, at its distance and height,
  clear of it in the user's view), turned towards the user, and exactly one 880 Hz chime of
  0.2-0.35 s from a buffer, started in that frame or the next, by a new start of a positional audio
  at the card whose listener rides on the camera;
- the card stays while the look goes on (no other sound), and disappears 15-30 frames (0.25-0.5 s)
  after the head turns away, silently; looking back shows it again with a new chime; turning
  straight from one object to another hides the first card before the second appears (never two);
- looking at a wall, an empty part of the table or empty space shows nothing and plays nothing;
  glances (shorter than 0.75 s), also from one object straight to another, show nothing;
- from two other spots (one crouching, at the table's sides) the card is placed and turned for the
  user's new position.
Each test runs for a right- and a left-dominant user (the hands play no part) in both rooms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors

CARD = "info-card"
# Object detection needs XR Blocks' AI service, which logs these without an API key.
EXPECTED_NOISE = [r"@google/genai", r"[Gg]emini", r"keys\.json", r"status of 404"]

FAST = 100000.0  # degrees/s: a head turn in one frame
APPEAR = (45, 60)  # frames after the head arrives: 0.75-1.0 s
HIDE = (15, 30)  # frames after the head leaves: 0.25-0.5 s
SIZE = (0.2, 0.1)
SIZE_TOL = 0.02
MAX_THICKNESS = 0.02
SIDE = (0.18, 0.32)  # to the user's right of the object's centre: 0.25 m give or take 7 cm
DEPTH_TOL = 0.15
ABOVE_TOP = 0.1
MAX_YAW = 20.0
MAX_TILT_OFF = 10.0  # degrees the front may tilt beyond upright or beyond the head
MAX_ROLL = 10.0
PITCH = 880.0
PITCH_TOL = 0.02
CHIME = (0.2, 0.35)
START_DELAY = 0.005
AUDIO_AT = 0.05  # the positional audio within 5 cm of the card's centre
LISTENER_GAP = 0.02

Vec = tuple[float, float, float]

pytestmark = pytest.mark.xr_scenes("living_room", "kitchen")

_STATE_JS = """
(h, {tag}) => {
  const THREE = h.THREE, xb = h.xb;
  const scene = h.guard(h.core.scene, 'the scene');
  const camera = h.guard(h.core.camera, 'the camera');
  scene.updateMatrixWorld(true);
  camera.updateMatrixWorld(true);
  const head = camera.getWorldPosition(new THREE.Vector3());
  const uiClasses = ['UICard', 'UIPanel', 'UIButton', 'UIText'].filter((n) => typeof xb[n] === 'function');
  const seen = Symbol.for('xrbench.app-look-info-card.seen');
  const cards = [], audios = [];
  const shown = (o) => { for (let p = o; p; p = p.parent) if (!p.visible) return false; return true; };
  const visit = (o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (d && String(d.tag) === tag && shown(o)) {
      const ui = [];
      for (let p = o; p; p = p.parent) for (const n of uiClasses) if (p instanceof xb[n]) ui.push(n);
      const p = new THREE.Vector3(), q = new THREE.Quaternion(), s = new THREE.Vector3();
      o.matrixWorld.decompose(p, q, s);
      const g = o.geometry;
      let lo = null, hi = null;
      if (g && g.attributes && g.attributes.position) {
        const box = new THREE.Box3().setFromBufferAttribute(g.attributes.position);
        lo = [box.min.x * s.x, box.min.y * s.y, box.min.z * s.z];
        hi = [box.max.x * s.x, box.max.y * s.y, box.max.z * s.z];
      }
      const state = d.state && typeof d.state === 'object' ? d.state : {};
      cards.push({isMesh: !!o.isMesh, type: o.type, label: state.label === undefined ? null : String(state.label),
                  position: p.toArray(), quaternion: q.toArray(), lo, hi, ui, uuid: o.uuid});
    }
    if (o instanceof THREE.Audio) {
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
      audios.push({positional: o instanceof THREE.PositionalAudio && !!o.panner, listenerGap, fresh,
                   sameBuffer: !!(src && o.buffer && src.buffer === o.buffer),
                   position: o.getWorldPosition(new THREE.Vector3()).toArray()});
    }
  };
  scene.traverse(visit);
  camera.traverse((o) => { if (o instanceof THREE.Audio) visit(o); });
  return {cards, audios, sounds: h.audio.length};
}
"""


# --- geometry ------------------------------------------------------------------------------------


def _sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _norm(a):
    n = math.sqrt(_dot(a, a))
    return (a[0] / n, a[1] / n, a[2] / n)


def _cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _rotate(q, v) -> Vec:
    x, y, z, w = q
    vx, vy, vz = v
    tx, ty, tz = 2 * (y * vz - z * vy), 2 * (z * vx - x * vz), 2 * (x * vy - y * vx)
    return (vx + w * tx + y * tz - z * ty, vy + w * ty + z * tx - x * tz, vz + w * tz + x * ty - y * tx)


def _angle(u, v) -> float:
    nu, nv = math.sqrt(_dot(u, u)), math.sqrt(_dot(v, v))
    if nu < 1e-9 or nv < 1e-9:
        return 180.0
    return math.degrees(math.acos(max(-1.0, min(1.0, _dot(u, v) / (nu * nv)))))


def _fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def centre_of(box) -> Vec:
    lo, hi = box
    return ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2)


def corners_of(box) -> list[Vec]:
    lo, hi = box
    return [(x, y, z) for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]


def off_gaze(head, point, box) -> float:
    """Degrees between the view towards `point` and the nearest part of the box (0 when the view
    passes through it), by sampling the box's surface."""
    lo, hi = box
    d = _sub(point, head)
    best = 180.0
    n = 6
    for i in range(n + 1):
        for j in range(n + 1):
            for k in range(n + 1):
                if 0 < i < n and 0 < j < n and 0 < k < n:
                    continue
                p = (lo[0] + (hi[0] - lo[0]) * i / n, lo[1] + (hi[1] - lo[1]) * j / n, lo[2] + (hi[2] - lo[2]) * k / n)
                best = min(best, _angle(d, _sub(p, head)))
    return best


@dataclass(frozen=True)
class Card:
    name: str | None
    centre: Vec
    axes: tuple[Vec, Vec, Vec]
    size: Vec
    raw: dict


def _card(raw: dict) -> Card:
    q = raw["quaternion"]
    axes = (_rotate(q, (1, 0, 0)), _rotate(q, (0, 1, 0)), _rotate(q, (0, 0, 1)))
    lo, hi = raw["lo"] or [0, 0, 0], raw["hi"] or [0, 0, 0]
    mid = [(lo[i] + hi[i]) / 2 for i in range(3)]
    centre = tuple(raw["position"][i] + sum(mid[k] * axes[k][i] for k in range(3)) for i in range(3))
    size = tuple(abs(hi[i] - lo[i]) for i in range(3))
    return Card(raw["label"], centre, axes, size, raw)  # type: ignore[arg-type]


# --- the session, frame by frame ---------------------------------------------------------------


class Watch:
    """Steps frame by frame, reading the shown cards and positional audios in every frame."""

    def __init__(self, xr):
        self.xr = xr
        self.cards: list[Card] = []
        self.audios: list[dict] = []
        self.fresh: dict[int, list[dict]] = {}  # frame -> positional audios with a new source
        self.read()

    def read(self) -> None:
        r = self.xr.probe(_STATE_JS, {"tag": CARD})
        self.cards = [_card(c) for c in r["cards"]]
        self.audios = r["audios"]
        new = [a for a in r["audios"] if a["fresh"]]
        if new:
            self.fresh[self.xr.frame] = new
        assert len(self.cards) <= 1, (
            f"frame {self.xr.frame}: expected at most one info card shown at a time; observed {len(self.cards)}: "
            f"{[(c.name, _fmt(c.centre)) for c in self.cards]}"
        )

    def step(self, frames: int = 1) -> None:
        for _ in range(frames):
            self.xr.step(1)
            self.read()

    def look(self, point) -> int:
        """Turn the head onto `point` in one frame; the frame it arrived in."""
        self.xr.head.look_at(tuple(point), speed=FAST)
        self.read()
        return self.xr.frame

    def until(self, check, frames: int) -> int | None:
        """Step until `check()`; the frame it first held, or None within `frames` frames."""
        for _ in range(frames):
            if check():
                return self.xr.frame
            self.step(1)
        return self.xr.frame if check() else None


def describe_sounds(xr, found: list[dict]) -> str:
    out = []
    for e in found:
        hz = f"{e['frequency']:.1f} Hz" if e["frequency"] else "unknown pitch"
        out.append(f"a {e['kind']} sound of {hz} in frame {e['frame']} (length {e['duration']})")
    return "; ".join(out) or "nothing"


def expect_silence(xr, since: int, when: str) -> None:
    __tracebackhide__ = True
    found = xr.audio()[since:]
    assert not found, f"{when}: expected no sound; observed {describe_sounds(xr, found)}"


def expect_nothing(w: Watch, frames: int, when: str) -> None:
    """`frames` frames with no card shown and no sound."""
    __tracebackhide__ = True
    since = len(w.xr.audio())
    for _ in range(frames):
        w.step(1)
        assert not w.cards, (
            f"{when}: expected no info card; observed one naming {w.cards[0].name!r} in frame {w.xr.frame}"
        )
    expect_silence(w.xr, since, when)


# --- checks ----------------------------------------------------------------------------------------


def assert_faces_user(card: Card, head: Vec, at: str) -> None:
    """Upright or tilted back towards the head (never beyond it, never forward), its front turned
    towards the head seen from above, its width level."""
    __tracebackhide__ = True
    right, up, front = card.axes
    to_head = _sub(head, card.centre)
    yaw = _angle((front[0], 0.0, front[2]), (to_head[0], 0.0, to_head[2]))
    tilt = math.degrees(math.asin(max(-1.0, min(1.0, front[1]))))
    towards = math.degrees(math.asin(max(-1.0, min(1.0, _norm(to_head)[1]))))
    lo, hi = min(0.0, towards) - MAX_TILT_OFF, max(0.0, towards) + MAX_TILT_OFF
    roll = math.degrees(math.asin(max(-1.0, min(1.0, right[1]))))
    assert yaw <= MAX_YAW and lo <= tilt <= hi and up[1] > 0.5 and abs(roll) <= MAX_ROLL, (
        f"{at}: expected the card upright (or tilted back towards the user's eyes) with its front (local +Z) turned "
        f"towards the user's head at {_fmt(head)}; observed {yaw:.1f} deg off seen from above (at most {MAX_YAW}), its "
        f"front tilted {tilt:.1f} deg up (between {lo:.1f} and {hi:.1f}), its up axis {_fmt(up)}, its width axis "
        f"tilted {roll:.1f} deg"
    )


def assert_card_beside(card: Card, obj, head: Vec, at: str) -> None:
    """The card of `obj`: a 0.2 x 0.1 m mesh naming it, beside it on the user's right, clear of it
    in the user's view, turned towards the user."""
    __tracebackhide__ = True
    assert card.name == obj.label, f"{at}: expected the card to name the {obj.label!r}; its state says {card.name!r}"
    assert card.raw["isMesh"] and not card.raw["ui"], (
        f"{at}: expected the card to be a three.js mesh (tag the panel mesh itself); the tagged object is a "
        f"{card.raw['type']}{' inside XR Blocks ' + '/'.join(card.raw['ui']) if card.raw['ui'] else ''}"
    )
    assert card.raw["lo"] is not None, f"{at}: expected the tagged card mesh to have geometry"
    for k, what in ((0, "wide"), (1, "high")):
        assert abs(card.size[k] - SIZE[k]) <= SIZE_TOL, (
            f"{at}: expected the card {SIZE[k]} m {what} (along its local {'xy'[k]}, within {SIZE_TOL} m); observed "
            f"{card.size[k]:.3f} m"
        )
    assert card.size[2] <= MAX_THICKNESS, f"{at}: expected a flat card; observed it {card.size[2]:.3f} m thick"
    box = obj.node.bbox
    o = centre_of(box)
    f = _norm((o[0] - head[0], 0.0, o[2] - head[2]))
    r = _cross(f, (0.0, 1.0, 0.0))
    d = _sub(card.centre, o)
    side, depth = _dot(d, r), _dot(d, f)
    assert SIDE[0] <= side <= SIDE[1], (
        f"{at}: expected the card's centre 0.25 m (give or take 7 cm) to the user's right of the "
        f"{obj.label!r}'s centre "
        f"{_fmt(o)}, seen from the head at {_fmt(head)}; observed {side:.3f} m to the right (card at "
        f"{_fmt(card.centre)})"
    )
    assert abs(depth) <= DEPTH_TOL, (
        f"{at}: expected the card about as far from the user as the {obj.label!r} (within {DEPTH_TOL} m); observed it "
        f"{depth:.3f} m {'farther' if depth > 0 else 'nearer'} (card at {_fmt(card.centre)})"
    )
    lo_y, hi_y = box[0][1], box[1][1] + ABOVE_TOP
    assert lo_y <= card.centre[1] <= hi_y, (
        f"{at}: expected the card's centre at the {obj.label!r}'s height (y between its bottom {box[0][1]:.3f} and "
        f"0.1 m above its top, {hi_y:.3f}); observed y = {card.centre[1]:.3f}"
    )
    # Clear of the object in the user's view: their rectangles, in angles seen from the head.
    fwd = _norm(_sub(o, head))
    right = _norm(_cross(fwd, (0.0, 1.0, 0.0)))
    up = _cross(right, fwd)

    def view(p):
        v = _sub(p, head)
        z = _dot(v, fwd)
        return (math.atan2(_dot(v, right), z), math.atan2(_dot(v, up), z))

    cx, cy = card.axes[0], card.axes[1]
    hw, hh = card.size[0] / 2, card.size[1] / 2
    card_pts = [
        view(tuple(card.centre[i] + a * hw * cx[i] + b * hh * cy[i] for i in range(3)))
        for a in (-1, 1)
        for b in (-1, 1)
    ]
    obj_pts = [view(p) for p in corners_of(box)]
    overlap = all(
        min(p[k] for p in card_pts) < max(p[k] for p in obj_pts)
        and min(p[k] for p in obj_pts) < max(p[k] for p in card_pts)
        for k in (0, 1)
    )
    assert not overlap, f"{at}: expected the card clear of the {obj.label!r} in the user's view; it lies over it"
    assert_faces_user(card, head, at)


def assert_chime(w: Watch, card: Card, since: int, shown: int, at: str) -> None:
    """Exactly one sound since log index `since`: an 880 Hz buffer chime of 0.2-0.35 s started in
    frame `shown` or the next, by a new start of a positional audio at the card."""
    __tracebackhide__ = True
    xr = w.xr
    found = xr.audio()[since:]
    assert len(found) == 1, (
        f"{at}: expected one chime as the card appeared in frame {shown}; observed {describe_sounds(xr, found)}"
    )
    e = found[0]
    assert shown <= e["frame"] <= shown + 1, (
        f"{at}: expected the chime in the frame the card appeared ({shown}) or the next; observed "
        f"{describe_sounds(xr, found)}"
    )
    assert (e["start_delay"] or 0.0) <= START_DELAY, f"{at}: expected the chime not scheduled for later; observed {e}"
    assert e["kind"] == "buffer" and e["frequency"] and abs(e["frequency"] - PITCH) <= PITCH_TOL * PITCH, (
        f"{at}: expected an 880 Hz (within 2 %) tone played from an AudioBuffer; observed {describe_sounds(xr, found)}"
    )
    length = e["duration"]
    if e["stop_frame"] is not None:
        stopped = (e["stop_frame"] - e["frame"]) * xr.dt_ms / 1000 + (e["stop_delay"] or 0.0)
        length = stopped if length is None else min(length, stopped)
    assert length is not None and CHIME[0] <= length <= CHIME[1], (
        f"{at}: expected the chime to last 0.25 s (between {CHIME[0]} and {CHIME[1]} s); observed {length}"
    )
    fresh = w.fresh.get(e["frame"], [])
    assert fresh, (
        f"{at}: expected the chime to be a new start of a THREE.PositionalAudio's buffer (play()) in frame "
        f"{e['frame']}; "
        f"no positional audio started a new sound then (audios: {w.audios})"
    )
    a = fresh[0]
    assert a["positional"], f"{at}: expected the chime to play through a THREE.PositionalAudio; observed {a}"
    assert a["sameBuffer"], f"{at}: expected the positional audio to play its own buffer (setBuffer); observed {a}"
    gap = math.dist(a["position"], card.centre)
    assert gap <= AUDIO_AT, (
        f"{at}: expected the chime's positional audio at the card {_fmt(card.centre)} (within {AUDIO_AT} m); "
        "observed it "
        f"{gap:.3f} m away at {_fmt(a['position'])}"
    )
    assert a["listenerGap"] is not None and a["listenerGap"] <= LISTENER_GAP, (
        f"{at}: expected the positional audio's listener on the user's camera; observed it {a['listenerGap']} m away"
    )


def expect_card(w: Watch, obj, arrived: int, at: str) -> Card:
    """The card of `obj` appears 45-60 frames after the head arrived, with its chime; no sound
    and no card before. Steps two frames past its appearance."""
    __tracebackhide__ = True
    xr = w.xr
    since = len(xr.audio())
    shown = w.until(lambda: bool(w.cards), arrived + APPEAR[1] - xr.frame)
    assert shown is not None, (
        f"{at}: expected the {obj.label!r}'s card within 1.0 s ({APPEAR[1]} frames) of the head arriving on "
        "it in frame "
        f"{arrived}; observed none by frame {xr.frame} (sounds: {describe_sounds(xr, xr.audio()[since:])})"
    )
    assert shown - arrived >= APPEAR[0], (
        f"{at}: expected the {obj.label!r}'s card after a 0.8 s look (not before 0.75 s, {APPEAR[0]} frames); it "
        f"appeared {shown - arrived} frames after the head arrived"
    )
    card = w.cards[0]
    head = xr.camera_pose().position
    assert_card_beside(card, obj, head, at)
    w.step(2)
    assert_chime(w, card, since, shown, at)
    return card


def expect_hidden(w: Watch, left: int, at: str) -> None:
    """The shown card disappears 15-30 frames after the head left its object (frame `left`)."""
    __tracebackhide__ = True
    xr = w.xr
    name = w.cards[0].name if w.cards else None
    gone = w.until(lambda: not any(c.name == name for c in w.cards), left + HIDE[1] - xr.frame)
    assert gone is not None, (
        f"{at}: expected the {name!r} card gone within 0.5 s ({HIDE[1]} frames) of looking away in frame {left}; "
        f"it is still shown in frame {xr.frame}"
    )
    assert gone - left >= HIDE[0], (
        f"{at}: expected the {name!r} card to stay 0.3 s after looking away (not gone before {HIDE[0]} frames); it was "
        f"gone {gone - left} frames after the head left"
    )


def front_picture(xr, card: Card) -> np.ndarray:
    right, up, _ = card.axes
    return xr.picture(card.centre, right, up, (card.size[0], card.size[1]), (80, 40), distance=0.3).astype(int)


def assert_shows_text(pic: np.ndarray, name: str) -> None:
    __tracebackhide__ = True
    flat = pic.reshape(-1, 3)
    colours, counts = np.unique(flat // 16, axis=0, return_counts=True)
    main = colours[np.argmax(counts)] * 16 + 8
    marked = int((np.abs(flat - main).max(axis=1) > 64).sum())
    assert marked >= 40, (
        f"expected the {name!r} card's front to show its name as text; it is one flat colour ({marked} of {len(flat)} "
        f"pixels differ clearly from its main colour)"
    )


# --- the room ------------------------------------------------------------------------------------


def furnish(xr):
    """A mug and a vase on the table; the points to look at that are no object."""
    mug = xr.objects.add("mug", on="table", size=(0.09, 0.11, 0.09), offset=(-0.5, 0.0, 0.0))
    vase = xr.objects.add("vase", on="table", size=(0.1, 0.24, 0.1), offset=(0.35, 0.0, -0.15))
    table = xr.find("table").point
    empty = {
        "the wall straight ahead": (0.0, 1.5, -3.4),
        "an empty part of the table": (table[0] - 0.05, table[1], table[2] + 0.37),
        "the wall to the left": (-2.4, 1.3, -0.4),
    }
    return mug, vase, empty


def assert_clear(xr, objs, point, what: str) -> None:
    """Test set-up: `point` is more than 12 degrees from every part of every object."""
    head = xr.head.position
    for obj in objs:
        off = off_gaze(head, point, obj.node.bbox)
        assert off > 12.0, f"test set-up: {what} is only {off:.1f} deg from the {obj.label!r}"


# --- tests -----------------------------------------------------------------------------------------


def test_a_held_look_shows_the_card_beside_the_object_with_a_chime(xr):
    xr.step(3)
    mug, vase, empty = furnish(xr)
    w = Watch(xr)
    wall = empty["the wall straight ahead"]
    spot = empty["an empty part of the table"]
    for what in ("the wall straight ahead", "an empty part of the table"):
        assert_clear(xr, (mug, vase), empty[what], what)
    w.look(wall)
    expect_nothing(w, 40, "looking at the wall straight ahead")

    arrived = w.look(centre_of(mug.node.bbox))
    card = expect_card(w, mug, arrived, "after looking at the mug")
    mug_picture = front_picture(xr, card)
    assert_shows_text(mug_picture, "mug")
    since = len(xr.audio())
    for _ in range(6):
        w.step(10)
        assert [c.name for c in w.cards] == ["mug"], (
            f"expected the mug's card to stay while the user keeps looking at it; observed {[c.name for c in w.cards]} "
            f"in frame {xr.frame}"
        )
    expect_silence(xr, since, "while the user keeps looking at the mug, its card shown")

    since = len(xr.audio())
    left = w.look(spot)
    expect_hidden(w, left, "after looking from the mug to an empty part of the table")
    expect_nothing(w, 50, "looking at an empty part of the table after the mug's card went")
    expect_silence(xr, since, "looking away from the mug and at an empty part of the table")

    arrived = w.look(centre_of(vase.node.bbox))
    card = expect_card(w, vase, arrived, "after looking at the vase")
    vase_picture = front_picture(xr, card)
    assert_shows_text(vase_picture, "vase")
    differ = int((np.abs(mug_picture - vase_picture).max(axis=2) > 48).sum())
    assert differ >= 40, "expected the mug's and the vase's cards to show different names; their fronts look the same"

    # Straight from the vase to the mug: the vase's card goes before the mug's comes.
    since = len(xr.audio())
    left = w.look(centre_of(mug.node.bbox))
    expect_hidden(w, left, "after looking from the vase straight to the mug")
    expect_silence(xr, since, "as the vase's card went")
    card = expect_card(w, mug, left, "after looking from the vase straight to the mug")
    w.step(20)
    assert [c.name for c in w.cards] == ["mug"], (
        f"expected the mug's card to stay; observed {[c.name for c in w.cards]}"
    )

    # Away and back again: the card comes back, with a new chime.
    left = w.look(wall)
    expect_hidden(w, left, "after looking from the mug to the wall")
    w.step(20)
    arrived = w.look(centre_of(mug.node.bbox))
    expect_card(w, mug, arrived, "after looking back at the mug")
    assert_no_errors(xr, allow=EXPECTED_NOISE)


def test_glances_walls_and_empty_space_show_nothing(xr):
    xr.step(3)
    mug, vase, empty = furnish(xr)
    w = Watch(xr)
    shown = xr.drawn()
    assert not shown, f"expected the app to show nothing before any card (the cylinder removed); observed {shown}"
    for what, point in empty.items():
        assert_clear(xr, (mug, vase), point, what)
        w.look(point)
        expect_nothing(w, 60, f"looking at {what}")
    w.look((0.0, 2.3, -1.2))
    expect_nothing(w, 40, "looking up into empty space over the table")
    mug_at, vase_at = centre_of(mug.node.bbox), centre_of(vase.node.bbox)
    # Glances: 0.5 s each, from an object to nothing and from one object straight to another.
    for point, what in (
        (mug_at, "a glance at the mug"),
        (empty["an empty part of the table"], "looking at the table"),
        (vase_at, "a glance at the vase"),
        (mug_at, "a glance at the mug, straight from the vase"),
        (vase_at, "a glance at the vase, straight from the mug"),
        (mug_at, "a glance at the mug, straight from the vase again"),
    ):
        w.look(point)
        expect_nothing(w, 30, what)
    w.look(empty["the wall to the left"])
    expect_nothing(w, 30, "looking at the wall after the glances")
    w.look(vase_at)
    expect_nothing(w, 40, "a glance of two thirds of a second at the vase")
    w.look(empty["the wall straight ahead"])
    expect_nothing(w, 40, "looking at the wall after a glance at the vase")
    shown = xr.drawn()
    assert not shown, f"expected the app to show nothing after glances only; observed {shown}"
    assert_no_errors(xr, allow=EXPECTED_NOISE)


def test_the_card_is_placed_for_where_the_user_stands(xr):
    xr.step(3)
    mug, vase, _ = furnish(xr)
    w = Watch(xr)
    table = xr.find("table").point
    for spot, obj in (
        ((table[0] + 1.15, 1.3, table[2] + 0.35), vase),  # at the table's right, crouching
        ((table[0] - 1.1, 1.5, table[2] - 0.3), mug),  # at its left, standing
    ):
        xr.head.teleport_to(spot)
        w.look((table[0], 2.6, table[2] - 3.0))
        w.step(30)
        assert not w.cards, f"expected no card while looking over the room from {_fmt(spot)}"
        arrived = w.look(centre_of(obj.node.bbox))
        expect_card(w, obj, arrived, f"looking at the {obj.label} from {_fmt(spot)}")
        w.step(20)
        assert [c.name for c in w.cards] == [obj.label], f"expected the {obj.label}'s card to stay"
        assert_card_beside(w.cards[0], obj, xr.camera_pose().position, f"a moment later, from {_fmt(spot)}")
        left = w.look((table[0], 2.6, table[2] - 3.0))
        expect_hidden(w, left, f"after looking away from the {obj.label}")
    assert_no_errors(xr, allow=EXPECTED_NOISE)
