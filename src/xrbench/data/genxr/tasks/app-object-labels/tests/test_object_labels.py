"""Runtime tests of the object-labels app, in two rooms with tables of different heights.

Physical objects (the simulator's objects, which XR Blocks' object detection reports) are put on
the table, slid along it and taken away while the app runs, and the user turns away, turns back and
walks to other spots. The tests read each label as built (its mesh, its local axes and size, through
a probe on the captured three.js), check that exactly one label tagged 'object-label' floats over
each object in view, centred over it and 0.1-0.25 m above its top, 0.16 m x 0.05 m, turned towards
the user, showing its object's name (its front drawn by the app's renderer: text, different for
different names); that labels appear, follow and disappear within about a second (1.5 s allowed);
that objects out of view have no label; and, frame by frame while objects and the user move, that
no object ever has two labels. The hands play no part: one hand variant per scene is enough.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors

LABEL = "object-label"
# Object detection needs XR Blocks' AI service, which logs these without an API key.
EXPECTED_NOISE = [r"@google/genai", r"[Gg]emini", r"keys\.json", r"status of 404"]

DEADLINE = 90  # frames (1.5 s): "within about a second", with a margin
SIZE = (0.16, 0.05)  # the label's width and height
SIZE_TOL = (0.03, 0.0125)
MAX_THICKNESS = 0.02
OUTLINE_MARGIN = 0.03  # "within the object's outline seen from above", give or take
ABOVE = (0.09, 0.26)  # the label's centre above the object's top: 0.1-0.25 m, give or take 1 cm
MAX_YAW = 20.0  # degrees between the label's front and the direction to the head, seen from above
MAX_ANGLE = 40.0  # degrees between the label's front and the direction to the head (upright labels tilt)
MAX_ROLL = 10.0  # degrees its width axis may tilt from level

Vec = tuple[float, float, float]

pytestmark = [pytest.mark.xr_scenes("living_room", "kitchen"), pytest.mark.xr_hands("right")]

_LABELS_JS = """
(h, {tag}) => {
  const THREE = h.THREE, xb = h.xb;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const uiClasses = ['UICard', 'UIPanel', 'UIButton', 'UIText'].filter((n) => typeof xb[n] === 'function');
  const out = [];
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!d || String(d.tag) !== tag) return;
    let shown = true;
    for (let p = o; p; p = p.parent) if (!p.visible) shown = false;
    if (!shown) return;
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
    out.push({isMesh: !!o.isMesh, type: o.type, label: state.label === undefined ? null : String(state.label),
              position: p.toArray(), quaternion: q.toArray(), lo, hi, ui});
  });
  return out;
}
"""


# --- geometry ------------------------------------------------------------------------------------


def _rotate(q: Sequence[float], v: Sequence[float]) -> Vec:
    x, y, z, w = q
    vx, vy, vz = v
    tx, ty, tz = 2 * (y * vz - z * vy), 2 * (z * vx - x * vz), 2 * (x * vy - y * vx)
    return (vx + w * tx + y * tz - z * ty, vy + w * ty + z * tx - x * tz, vz + w * tz + x * ty - y * tx)


def _angle(u: Sequence[float], v: Sequence[float]) -> float:
    nu, nv = math.sqrt(sum(a * a for a in u)), math.sqrt(sum(a * a for a in v))
    if nu < 1e-9 or nv < 1e-9:
        return 180.0
    return math.degrees(math.acos(max(-1.0, min(1.0, sum(a * b for a, b in zip(u, v, strict=True)) / (nu * nv)))))


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


@dataclass(frozen=True)
class Label:
    """A shown label as built: the name its state gives, its centre, local axes and size along them."""

    name: str | None
    centre: Vec
    axes: tuple[Vec, Vec, Vec]
    size: Vec
    raw: dict


def labels(xr, name: str | None = None) -> list[Label]:
    """The shown labels (optionally only those whose state names `name`)."""
    out = []
    for raw in xr.probe(_LABELS_JS, {"tag": LABEL}):
        q = raw["quaternion"]
        axes = (_rotate(q, (1, 0, 0)), _rotate(q, (0, 1, 0)), _rotate(q, (0, 0, 1)))
        lo, hi = raw["lo"] or [0, 0, 0], raw["hi"] or [0, 0, 0]
        mid = [(lo[i] + hi[i]) / 2 for i in range(3)]
        centre = tuple(raw["position"][i] + sum(mid[k] * axes[k][i] for k in range(3)) for i in range(3))
        size = tuple(abs(hi[i] - lo[i]) for i in range(3))
        out.append(Label(raw["label"], centre, axes, size, raw))  # type: ignore[arg-type]
    return [lb for lb in out if name is None or lb.name == name]


def names(xr) -> list:
    return sorted(str(lb.name) for lb in labels(xr))


def outline_distance(centre: Sequence[float], box) -> float:
    """Horizontal distance from `centre` to the object's outline seen from above (0 inside it)."""
    (lo, hi) = box
    dx = max(lo[0] - centre[0], 0.0, centre[0] - hi[0])
    dz = max(lo[2] - centre[2], 0.0, centre[2] - hi[2])
    return math.hypot(dx, dz)


def labels_over(found: list[Label], box, margin: float = OUTLINE_MARGIN) -> list[Label]:
    """Those of `found` whose centre is over the object's outline (with a margin), above its bottom."""
    return [lb for lb in found if outline_distance(lb.centre, box) <= margin and lb.centre[1] >= box[0][1]]


def run(xr, frames: int) -> None:
    """Let `frames` frames pass, a few at a time: the harness runs the frames of one step in one go,
    so work an app chains on promises (XR Blocks' detection runs do) moves on between steps."""
    while frames > 0:
        xr.step(min(3, frames))
        frames -= 3


def wait_for(xr, check, frames: int = DEADLINE, every: int = 3) -> int | None:
    """Step `every` frames at a time until `check()` holds; the frames it took, or None if it never
    did within `frames`."""
    k = 0
    while True:
        if check():
            return k
        if k >= frames:
            return None
        n = min(every, frames - k)
        xr.step(n)
        k += n


# --- checks ----------------------------------------------------------------------------------------


def assert_label_over(xr, obj, when: str = "") -> Label:
    """Exactly one shown label names `obj`'s label over it: a mesh 0.16 x 0.05 m, centred over it,
    0.1-0.25 m above its top, upright and turned towards the user."""
    __tracebackhide__ = True
    box = obj.node.bbox
    at = f"{when}: " if when else ""
    found = labels(xr)
    over = labels_over(found, box)
    assert len(over) == 1, (
        f"{at}expected exactly one label over the {obj.label!r} (its outline {_fmt(box[0])}-{_fmt(box[1])}); observed "
        f"{len(over)}, naming {[lb.name for lb in over]} (all labels: {[(lb.name, _fmt(lb.centre)) for lb in found]})"
    )
    lb = over[0]
    assert lb.name == obj.label, f"{at}expected the label over the {obj.label!r} to name it; its state says {lb.name!r}"
    assert lb.raw["isMesh"] and not lb.raw["ui"], (
        f"{at}expected the label to be a three.js mesh (tag the panel mesh itself); the tagged object is a "
        f"{lb.raw['type']}{' inside XR Blocks ' + '/'.join(lb.raw['ui']) if lb.raw['ui'] else ''}"
    )
    assert lb.raw["lo"] is not None, f"{at}expected the tagged label mesh to have geometry"
    for k, what in ((0, "wide"), (1, "high")):
        assert abs(lb.size[k] - SIZE[k]) <= SIZE_TOL[k], (
            f"{at}expected the {obj.label!r} label {SIZE[k]} m {what} (along its local {'xy'[k]}, within "
            f"{SIZE_TOL[k]} m); observed {lb.size[k]:.3f} m"
        )
    assert lb.size[2] <= MAX_THICKNESS, (
        f"{at}expected the {obj.label!r} label flat (at most {MAX_THICKNESS} m thick); observed {lb.size[2]:.3f} m"
    )
    top = box[1][1]
    above = lb.centre[1] - top
    assert ABOVE[0] <= above <= ABOVE[1], (
        f"{at}expected the {obj.label!r} label's centre 0.1 to 0.25 m above the object's top (y = {top:.3f}); "
        f"observed it at y = {lb.centre[1]:.3f}, {above:.3f} m above"
    )
    assert_faces_user(xr, lb, at)
    return lb


def assert_faces_user(xr, lb: Label, at: str = "") -> None:
    __tracebackhide__ = True
    head = xr.camera_pose().position
    right, up, front = lb.axes
    to_head = tuple(head[i] - lb.centre[i] for i in range(3))
    yaw = _angle((front[0], 0.0, front[2]), (to_head[0], 0.0, to_head[2]))
    full = _angle(front, to_head)
    roll = math.degrees(math.asin(max(-1.0, min(1.0, right[1]))))
    assert yaw <= MAX_YAW and full <= MAX_ANGLE and up[1] > 0.5 and abs(roll) <= MAX_ROLL, (
        f"{at}expected the {lb.name!r} label upright with its front (local +Z) turned towards the user's head at "
        f"{_fmt(head)}; observed {yaw:.1f} deg off seen from above (at most {MAX_YAW}), {full:.1f} deg off in all "
        f"(at most {MAX_ANGLE}), its up axis {_fmt(up)}, its width axis tilted {roll:.1f} deg"
    )


def assert_at_most_one_each(xr, present: dict[str, int], when: str) -> None:
    """No object has two labels: no more labels naming a name than objects with it, no more in all."""
    __tracebackhide__ = True
    found = labels(xr)
    counts: dict[str, int] = {}
    for lb in found:
        counts[str(lb.name)] = counts.get(str(lb.name), 0) + 1
    extra = {n: c for n, c in counts.items() if c > present.get(n, 0)}
    assert not extra and len(found) <= sum(present.values()), (
        f"{when}: expected at most one label per object ({present}); observed {counts}"
    )


def front_picture(xr, lb: Label) -> np.ndarray:
    """The label's front (its local +Z side), seen straight on: RGB rows."""
    right, up, _ = lb.axes
    return xr.picture(lb.centre, right, up, (lb.size[0], lb.size[1]), (96, 30), distance=0.3).astype(int)


def differing(a: np.ndarray, b: np.ndarray) -> int:
    return int((np.abs(a - b).max(axis=2) > 48).sum())


def assert_shows_text(pic: np.ndarray, name: str) -> None:
    __tracebackhide__ = True
    flat = pic.reshape(-1, 3)
    colours, counts = np.unique(flat // 16, axis=0, return_counts=True)
    main = colours[np.argmax(counts)] * 16 + 8
    marked = int((np.abs(flat - main).max(axis=1) > 64).sum())
    assert marked >= 40, (
        f"expected the {name!r} label's front to show its name as text; it is one flat colour ({marked} of "
        f"{len(flat)} pixels differ clearly from its main colour)"
    )


def put(xr, label: str, size: Vec, offset: tuple[float, float]):
    return xr.objects.add(label, on="table", size=size, offset=(offset[0], 0.0, offset[1]))


def slide(xr, obj, to: tuple[float, float], present: dict[str, int], per_frame: float = 0.015) -> None:
    """Slide `obj` along the table to `to` (x, z offsets from the table's centre), 1.5 cm a frame,
    checking every few frames that no object has two labels."""
    lo, hi = obj.node.bbox
    here = ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2)
    table = xr.find("table").point
    goal = (table[0] + to[0], here[1], table[2] + to[1])
    n = max(1, math.ceil(math.dist(here, goal) / per_frame))
    for k in range(1, n + 1):
        obj.move_to(at=tuple(here[i] + (goal[i] - here[i]) * k / n for i in range(3)))
        xr.step(1)
        if k % 3 == 0 or k == n:
            assert_at_most_one_each(xr, present, f"while the {obj.label!r} slides along the table (frame {k} of {n})")


# --- tests -----------------------------------------------------------------------------------------


def test_each_object_gets_one_label_above_it(xr):
    xr.step(5)
    cylinders = [d for d in xr.drawn(("mesh",)) if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed {cylinders}"
    assert not labels(xr), f"expected no label before any object is in the room; observed {names(xr)}"
    objs = [
        put(xr, "mug", (0.08, 0.1, 0.08), (-0.3, 0.05)),
        put(xr, "mug", (0.09, 0.12, 0.09), (0.0, 0.15)),
        put(xr, "book", (0.2, 0.04, 0.15), (0.3, 0.1)),
        put(xr, "vase", (0.1, 0.28, 0.1), (0.05, -0.2)),
    ]
    took = wait_for(xr, lambda: len(labels(xr)) >= 4)
    assert took is not None, f"expected labels for two mugs, a book and a vase within 1.5 s; observed {names(xr)}"
    run(xr, 10)
    shown = {}
    for obj in objs:
        shown[obj.id] = assert_label_over(xr, obj)
    assert len(labels(xr)) == 4, f"expected four labels, one per object; observed {names(xr)}"
    pictures = {obj.id: front_picture(xr, shown[obj.id]) for obj in objs}
    for obj in objs:
        assert_shows_text(pictures[obj.id], obj.label)
    mug, book, vase = pictures["mug-1"], pictures["book-3"], pictures["vase-4"]
    pairs = ((mug, book, "'mug' and 'book'"), (mug, vase, "'mug' and 'vase'"), (book, vase, "'book' and 'vase'"))
    for a, b, what in pairs:
        n = differing(a, b)
        assert n >= 40, (
            f"expected the labels of the {what} to show different names; their fronts look the same ({n} of "
            f"{a.shape[0] * a.shape[1]} pixels differ)"
        )
    assert_no_errors(xr, allow=EXPECTED_NOISE)


def test_labels_come_follow_and_go_with_their_objects(xr):
    xr.step(5)
    mug = put(xr, "mug", (0.08, 0.1, 0.08), (-0.3, 0.0))
    took = wait_for(xr, lambda: bool(labels(xr, "mug")))
    assert took is not None, f"expected a label for the mug within 1.5 s of putting it down; observed {names(xr)}"
    run(xr, 42)  # later, a second object is put down
    bottle = put(xr, "bottle", (0.07, 0.22, 0.07), (0.1, 0.1))
    took = wait_for(xr, lambda: bool(labels(xr, "bottle")))
    assert took is not None, f"expected a label for the bottle put down later within 1.5 s; observed {names(xr)}"
    run(xr, 10)
    assert_label_over(xr, bottle, "after the bottle was put down")
    assert_label_over(xr, mug, "after the bottle was put down")
    present = {"mug": 1, "bottle": 1}
    # The bottle is slid 0.35 m to the right, then 0.3 m away from the user.
    for to in ((0.45, 0.1), (0.4, -0.2)):
        slide(xr, bottle, to, present)
        where = f"once the bottle stopped at {to} from the table's centre"
        took = wait_for(xr, lambda: len(labels_over(labels(xr, "bottle"), bottle.node.bbox)) == 1)
        assert took is not None, (
            f"{where}: expected its label over it within 1.5 s; observed labels at "
            f"{[(lb.name, _fmt(lb.centre)) for lb in labels(xr)]}, the bottle's outline {bottle.node.bbox}"
        )
        run(xr, 30)
        assert_label_over(xr, bottle, where)
        assert_label_over(xr, mug, where)
    spot = mug.node.bbox
    mug.remove()
    took = wait_for(xr, lambda: not labels(xr, "mug") and not labels_over(labels(xr), spot, 0.1))
    assert took is not None, (
        f"expected the mug's label gone within 1.5 s of taking the mug away; observed {len(labels(xr, 'mug'))} "
        f"label(s) naming it and {len(labels_over(labels(xr), spot, 0.1))} still over where it was (labels: "
        f"{names(xr)})"
    )
    run(xr, 30)
    assert names(xr) == ["bottle"], f"expected only the bottle's label left; observed {names(xr)}"
    assert_label_over(xr, bottle, "after the mug was taken away")
    assert_no_errors(xr, allow=EXPECTED_NOISE)


def test_labels_face_the_user_who_walks_to_other_spots(xr):
    xr.step(5)
    objs = [put(xr, "mug", (0.08, 0.1, 0.08), (-0.2, 0.0)), put(xr, "book", (0.2, 0.04, 0.15), (0.2, 0.05))]
    assert wait_for(xr, lambda: len(labels(xr)) >= 2) is not None, f"expected two labels; observed {names(xr)}"
    run(xr, 10)
    for obj in objs:
        assert_label_over(xr, obj, "from the start")
    present = {"mug": 1, "book": 1}
    table = xr.find("table").point
    for dx, dz, crouch in ((1.1, 0.9, 0.0), (-1.2, 0.6, 0.25)):
        spot = (table[0] + dx, 1.5 - crouch, table[2] + dz)
        where = f"after the user walked to {_fmt(spot)}"
        here = xr.head.position
        steps = max(1, math.ceil(math.dist(here, spot) / 0.2))
        for k in range(1, steps + 1):
            xr.head.teleport_to(tuple(here[i] + (spot[i] - here[i]) * k / steps for i in range(3)))
            xr.head.look_at(table)
            xr.step(3)
            assert_at_most_one_each(xr, present, f"while the user walks to {_fmt(spot)}")
        run(xr, 60)
        for obj in objs:
            assert_label_over(xr, obj, where)
    assert_no_errors(xr, allow=EXPECTED_NOISE)


def test_labels_only_for_objects_in_view(xr):
    xr.step(5)
    table = xr.find("table").point
    behind = (table[0], 1.3, -table[2])  # the other way from the table
    xr.head.look_at(behind, speed=720)
    xr.step(5)
    mug = put(xr, "mug", (0.08, 0.1, 0.08), (-0.2, 0.0))
    book = put(xr, "book", (0.2, 0.04, 0.15), (0.2, 0.05))
    run(xr, 60)
    assert not labels(xr), f"expected no label for objects behind the user; observed {names(xr)}"
    xr.head.look_at(table, speed=720)
    took = wait_for(xr, lambda: len(labels(xr)) >= 2)
    assert took is not None, (
        f"expected labels for the mug and the book within 1.5 s of turning to the table; observed {names(xr)}"
    )
    run(xr, 15)
    assert_label_over(xr, mug, "after turning to the table")
    assert_label_over(xr, book, "after turning to the table")
    xr.head.look_at(behind, speed=720)
    took = wait_for(xr, lambda: not labels(xr))
    assert took is not None, (
        f"expected the labels gone within 1.5 s of the objects leaving the user's view; observed {names(xr)}"
    )
    # The mug is taken away while the user looks elsewhere: turning back shows only the book's label.
    mug.remove()
    run(xr, 10)
    xr.head.look_at(table, speed=720)
    took = wait_for(xr, lambda: bool(labels(xr, "book")))
    assert took is not None, f"expected the book's label within 1.5 s of turning back; observed {names(xr)}"
    run(xr, DEADLINE)
    assert names(xr) == ["book"], f"expected only the book's label once the mug was gone; observed {names(xr)}"
    assert_label_over(xr, book, "after turning back")
    assert_no_errors(xr, allow=EXPECTED_NOISE)
