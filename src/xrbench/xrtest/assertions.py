"""Spatial, state and event assertions for XR tests, each failing with expected vs observed numbers.

    from xrbench.xrtest.assertions import assert_near, assert_resting_on, assert_event

    assert_resting_on(s, "plant", "table")           # bottom of its bbox on the table plane
    assert_near(s, "cube", s.hand("dominant"), within=0.15)
    assert_event(s, "touch", hand="dominant", target="lamp-button")

Every assertion takes the session first, then targets: a semantic tag, a scene location
("table"), a plane label, an (x, y, z) point, a `SceneNode`, an actor (`s.hand("dominant")`,
`s.head`) or a physical object. A tag that does not exist fails with a message naming it (and
the tags that do). Failures raise `AssertionError` saying what was expected and what was
observed, with numbers in metres and degrees; reading the page never advances time, except
where an assertion says so (`assert_follows_hand` moves the hand, `within_frames` steps).

Families: position and distance (`assert_position`, `assert_distance`, `assert_near`,
`assert_far`); relations (`assert_above`, `assert_below`, `assert_resting_on`, `assert_inside`,
`assert_facing_user`, `assert_within_reach`); motion (`assert_follows_hand`); contact
(`assert_touching`, `assert_colliding`, `assert_not_colliding`); presence (`assert_visible`,
`assert_not_visible`, `assert_appears`, `assert_disappears`, `assert_count`); state and colour
(`assert_state`, `assert_color`, `assert_changes`); events (`assert_event`, `assert_no_event`);
health (`assert_no_errors`).
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from xrbench.xrtest.errors import TagNotFoundError
from xrbench.xrtest.readers import (
    Target,
    XREvent,
    canonical_event_type,
    fmt_point,
    resolve_surface,
)
from xrbench.xrtest.session import SceneNode, Vec3, rotate

if TYPE_CHECKING:
    from xrbench.xrtest.actors import Hand
    from xrbench.xrtest.session import XRSession

Box = tuple[Vec3, Vec3]


def _fail(message: str) -> None:
    __tracebackhide__ = True
    raise AssertionError(message)


def _target(session: XRSession, target: Any) -> Target:
    """`session.find`, turning a missing tag into an assertion failure that names it."""
    __tracebackhide__ = True
    try:
        return session.find(target)
    except TagNotFoundError as e:
        raise AssertionError(str(e)) from None


def _box(t: Target) -> Box:
    return t.box


def box_gap(a: Box, b: Box) -> float:
    """Euclidean distance between two axis-aligned boxes (0 when they touch or overlap)."""
    d = [max(0.0, a[0][i] - b[1][i], b[0][i] - a[1][i]) for i in range(3)]
    return math.sqrt(sum(v * v for v in d))


def box_penetration(a: Box, b: Box) -> float:
    """How deep two boxes overlap: the smallest per-axis overlap (<= 0 when they do not overlap)."""
    return min(min(a[1][i], b[1][i]) - max(a[0][i], b[0][i]) for i in range(3))


def _fmt_box(b: Box | None) -> str:
    return "no bbox" if b is None else f"{fmt_point(b[0])}..{fmt_point(b[1])}"


def _angle_deg(u: Sequence[float], v: Sequence[float]) -> float:
    nu, nv = math.sqrt(sum(x * x for x in u)), math.sqrt(sum(x * x for x in v))
    if nu < 1e-12 or nv < 1e-12:
        return 0.0
    c = sum(a * b for a, b in zip(u, v, strict=True)) / (nu * nv)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


# --- position and distance -----------------------------------------------------------------


def assert_position(session: XRSession, target: Any, expected: Any, *, tol: float = 0.01) -> Vec3:
    """The target's centre is within `tol` metres of `expected` (a point, location or tag)."""
    __tracebackhide__ = True
    t = _target(session, target)
    e = _target(session, expected)
    d = math.dist(t.point, e.point)
    if d > tol:
        delta = tuple(t.point[i] - e.point[i] for i in range(3))
        _fail(
            f"expected {t.label} at {fmt_point(e.point)}"
            + (f" ({e.label})" if e.kind != "point" else "")
            + f" within {tol:.3f} m; observed {fmt_point(t.point)}, {d:.3f} m away (delta {fmt_point(delta)})"
        )
    return t.point


def assert_distance(
    session: XRSession,
    a: Any,
    b: Any,
    expected: float | None = None,
    *,
    tol: float = 0.01,
    at_least: float | None = None,
    at_most: float | None = None,
) -> float:
    """The distance between the centres of `a` and `b` is `expected` +- `tol`, and/or in [at_least, at_most]."""
    __tracebackhide__ = True
    ta, tb = _target(session, a), _target(session, b)
    d = math.dist(ta.point, tb.point)
    where = f"({ta.label} at {fmt_point(ta.point)}, {tb.label} at {fmt_point(tb.point)})"
    if expected is not None and abs(d - expected) > tol:
        _fail(f"expected {ta.label} {expected:.3f} +- {tol:.3f} m from {tb.label}; observed {d:.3f} m {where}")
    if at_least is not None and d < at_least:
        _fail(f"expected {ta.label} at least {at_least:.3f} m from {tb.label}; observed {d:.3f} m {where}")
    if at_most is not None and d > at_most:
        _fail(f"expected {ta.label} at most {at_most:.3f} m from {tb.label}; observed {d:.3f} m {where}")
    return d


def assert_near(session: XRSession, a: Any, b: Any, *, within: float = 0.1) -> float:
    """`a` is near `b`: their bounding boxes (points for points) are at most `within` metres apart."""
    __tracebackhide__ = True
    ta, tb = _target(session, a), _target(session, b)
    gap = box_gap(_box(ta), _box(tb))
    if gap > within:
        _fail(
            f"expected {ta.label} within {within:.3f} m of {tb.label}; observed a gap of {gap:.3f} m "
            f"(centres {fmt_point(ta.point)} and {fmt_point(tb.point)}, {math.dist(ta.point, tb.point):.3f} m apart)"
        )
    return gap


def assert_far(session: XRSession, a: Any, b: Any, *, beyond: float) -> float:
    """`a` is more than `beyond` metres from `b` (gap between their boxes)."""
    __tracebackhide__ = True
    ta, tb = _target(session, a), _target(session, b)
    gap = box_gap(_box(ta), _box(tb))
    if gap <= beyond:
        _fail(f"expected {ta.label} more than {beyond:.3f} m from {tb.label}; observed a gap of {gap:.3f} m")
    return gap


# --- relations ------------------------------------------------------------------------------


def assert_above(session: XRSession, a: Any, b: Any, *, tol: float = 0.005, directly: bool = False) -> float:
    """`a` is above `b`: the bottom of `a` is at or over the top of `b` (within `tol`).

    With `directly`, `a`'s centre must also be over `b`'s footprint. Returns the vertical gap.
    """
    __tracebackhide__ = True
    ta, tb = _target(session, a), _target(session, b)
    gap = ta.bottom - tb.top
    if gap < -tol:
        _fail(
            f"expected {ta.label} above {tb.label}: its bottom at or over y = {tb.top:.3f} (tol {tol:.3f} m); "
            f"observed bottom at y = {ta.bottom:.3f}, {-gap:.3f} m too low"
        )
    if directly:
        lo, hi = _box(tb)
        x, z = ta.point[0], ta.point[2]
        if not (lo[0] - tol <= x <= hi[0] + tol and lo[2] - tol <= z <= hi[2] + tol):
            _fail(
                f"expected {ta.label} directly above {tb.label} (x in [{lo[0]:.3f}, {hi[0]:.3f}], z in "
                f"[{lo[2]:.3f}, {hi[2]:.3f}]); observed its centre at x = {x:.3f}, z = {z:.3f}"
            )
    return gap


def assert_below(session: XRSession, a: Any, b: Any, *, tol: float = 0.005) -> float:
    """`a` is below `b`: the top of `a` is at or under the bottom of `b` (within `tol`)."""
    __tracebackhide__ = True
    ta, tb = _target(session, a), _target(session, b)
    gap = tb.bottom - ta.top
    if gap < -tol:
        _fail(
            f"expected {ta.label} below {tb.label}: its top at or under y = {tb.bottom:.3f} (tol {tol:.3f} m); "
            f"observed top at y = {ta.top:.3f}, {-gap:.3f} m too high"
        )
    return gap


def assert_resting_on(session: XRSession, obj: Any, surface: Any, *, tol: float = 0.01) -> float:
    """`obj` rests on `surface`: the bottom of its bbox is within `tol` of the surface's top, and
    its centre is over the surface's extent (when known).

    `surface` is a plane label ('table', 'floor'; detected planes, else the bundled scene's),
    a tag (the top of its bbox) or a location of the scene (its height only). Returns the
    signed height of the bottom over the surface.
    """
    __tracebackhide__ = True
    t = _target(session, obj)
    try:
        s = resolve_surface(session, surface, near=(t.point[0], t.bottom, t.point[2]))
    except TagNotFoundError as e:
        raise AssertionError(str(e)) from None
    height = t.bottom - s.top
    if abs(height) > tol:
        state = "floating" if height > 0 else "sunk into it"
        _fail(
            f"expected {t.label} resting on {s.label} (bottom at y = {s.top:.3f} +- {tol:.3f} m); observed bottom at "
            f"y = {t.bottom:.3f}, {abs(height):.3f} m {'above' if height > 0 else 'below'} the surface ({state})"
        )
    if s.extent is not None:
        lo, hi = s.extent
        x, z = t.point[0], t.point[2]
        if not (lo[0] - tol <= x <= hi[0] + tol and lo[2] - tol <= z <= hi[2] + tol):
            _fail(
                f"expected {t.label} resting on {s.label} (x in [{lo[0]:.3f}, {hi[0]:.3f}], z in [{lo[2]:.3f}, "
                f"{hi[2]:.3f}]); observed its centre at x = {x:.3f}, z = {z:.3f}, off the surface"
            )
    return height


def assert_inside(session: XRSession, inner: Any, outer: Any, *, tol: float = 0.0) -> None:
    """`inner`'s bounding box lies within `outer`'s (each face within `tol` metres)."""
    __tracebackhide__ = True
    ti, to = _target(session, inner), _target(session, outer)
    if to.bbox is None:
        _fail(f"expected {ti.label} inside {to.label}, but {to.label} has no bounding box")
    (ilo, ihi), (olo, ohi) = _box(ti), _box(to)
    out = []
    for i, axis in enumerate("xyz"):
        if ilo[i] < olo[i] - tol:
            out.append(f"{axis}-min {ilo[i]:.3f} < {olo[i]:.3f}")
        if ihi[i] > ohi[i] + tol:
            out.append(f"{axis}-max {ihi[i]:.3f} > {ohi[i]:.3f}")
    if out:
        _fail(
            f"expected {ti.label} {_fmt_box(ti.bbox)} inside {to.label} {_fmt_box(to.bbox)} (tol {tol:.3f} m); "
            f"observed it sticking out: {', '.join(out)}"
        )


def assert_facing_user(
    session: XRSession,
    target: Any,
    *,
    max_angle: float = 30.0,
    forward: Sequence[float] = (0.0, 0.0, 1.0),
) -> float:
    """The target's front faces the user: the angle between its `forward` axis (local, default +Z,
    the axis `Object3D.lookAt` turns towards a point) and the direction to the head is at most
    `max_angle` degrees. Returns the angle.
    """
    __tracebackhide__ = True
    t = _target(session, target)
    if t.node is None:
        _fail(f"expected {t.label} facing the user, but it is not an object with an orientation")
    head = session.camera_pose().position
    front = rotate(t.node.quaternion, forward)
    to_head = tuple(head[i] - t.node.position[i] for i in range(3))
    angle = _angle_deg(front, to_head)
    if angle > max_angle:
        _fail(
            f"expected {t.label} facing the user within {max_angle:.1f} deg; observed {angle:.1f} deg between its "
            f"front {fmt_point(front)} and the direction to the head at {fmt_point(head)}"
        )
    return angle


def assert_within_reach(
    session: XRSession,
    target: Any,
    *,
    hand: str = "dominant",
    min_distance: float = 0.3,
    max_distance: float = 0.75,
) -> float:
    """The target is within comfortable reach: `min_distance`..`max_distance` metres from the
    shoulder of `hand` (XR Blocks' hand origin: 0.2 m to that side of and 0.2 m below the eyes,
    turned with the head's heading only: shoulders do not tilt when the user looks down) and in
    front of the user (not behind the shoulders). Returns the distance.
    """
    __tracebackhide__ = True
    t = _target(session, target)
    pose = session.camera_pose()
    fwd = pose.forward or rotate(pose.quaternion, (0.0, 0.0, -1.0))
    norm = math.hypot(fwd[0], fwd[2])
    # Looking straight up or down leaves no heading; take the head's up vector's instead.
    if norm < 1e-6:
        up = rotate(pose.quaternion, (0.0, 1.0, 0.0))
        fwd, norm = (-up[0] * fwd[1], 0.0, -up[2] * fwd[1]), math.hypot(up[0], up[2]) or 1.0
    ahead_dir = (fwd[0] / norm, 0.0, fwd[2] / norm)
    right_dir = (-ahead_dir[2], 0.0, ahead_dir[0])
    side = 0.2 if session.handedness(hand) == "right" else -0.2
    shoulder = (
        pose.position[0] + right_dir[0] * side,
        pose.position[1] - 0.2,
        pose.position[2] + right_dir[2] * side,
    )
    d = math.dist(t.point, shoulder)
    ahead = sum((t.point[i] - shoulder[i]) * ahead_dir[i] for i in range(3))
    where = f"{t.label} at {fmt_point(t.point)}, {session.handedness(hand)} shoulder at {fmt_point(shoulder)}"
    if ahead <= 0:
        _fail(f"expected {t.label} within reach in front of the user; observed it {-ahead:.3f} m behind ({where})")
    if not (min_distance <= d <= max_distance):
        _fail(
            f"expected {t.label} within comfortable reach, {min_distance:.2f}-{max_distance:.2f} m from the "
            f"shoulder; observed {d:.3f} m ({where})"
        )
    return d


# --- motion ---------------------------------------------------------------------------------


def assert_follows_hand(
    session: XRSession,
    target: Any,
    hand: Hand | str,
    path: Sequence[Any],
    *,
    max_deviation: float = 0.02,
    speed: float | None = None,
) -> float:
    """Move `hand` through `path` and check that `target` keeps its offset to the hand.

    The hand moves gradually (see `Hand.move_hand`); after every frame the target's position is
    sampled, and the deviation is how far its offset from the hand's controller drifted from
    the offset at the start. Fails when the largest deviation exceeds `max_deviation` metres.
    Advances time by the frames the motion takes. Returns the largest deviation.
    """
    __tracebackhide__ = True
    from xrbench.xrtest.actors import DEFAULT_HAND_SPEED

    h = session.hand(hand) if isinstance(hand, str) else hand
    t = _target(session, target)
    if t.node is None:
        _fail(f"expected {t.label} to follow the hand, but it is not an object of the scene")
    start_hand = h.position
    start_obj = t.node.position
    offset0 = tuple(start_obj[i] - start_hand[i] for i in range(3))
    worst, worst_at, frames = 0.0, None, 0
    for point in path:
        r = h.move_hand(point, speed=speed or DEFAULT_HAND_SPEED, track=[t.node])
        for obj, anchor in zip(r["samples"][0], r["anchor"], strict=True):
            frames += 1
            if obj is None:
                _fail(f"expected {t.label} to follow the {h.role} hand; observed it disappear at frame {frames}")
            dev = math.dist([obj[i] - anchor[i] for i in range(3)], offset0)
            if dev > worst:
                worst, worst_at = dev, (frames, obj, anchor)
    if worst > max_deviation and worst_at is not None:
        n, obj, anchor = worst_at
        _fail(
            f"expected {t.label} to follow the {h.role} hand ({h.handedness}) keeping its offset "
            f"{fmt_point(offset0)} within {max_deviation:.3f} m; observed a deviation of {worst:.3f} m after "
            f"{n} of {frames} frames (object at {fmt_point(obj)}, hand at {fmt_point(anchor)})"
        )
    return worst


# --- contact --------------------------------------------------------------------------------


def assert_touching(session: XRSession, a: Any, b: Any, *, tol: float = 0.005) -> float:
    """The bounding boxes of `a` and `b` touch: at most `tol` apart and interpenetrating at most `tol`."""
    __tracebackhide__ = True
    ta, tb = _target(session, a), _target(session, b)
    gap, pen = box_gap(_box(ta), _box(tb)), box_penetration(_box(ta), _box(tb))
    boxes = f"({ta.label} {_fmt_box(ta.bbox)}, {tb.label} {_fmt_box(tb.bbox)})"
    if gap > tol:
        _fail(f"expected {ta.label} touching {tb.label} (gap <= {tol:.3f} m); observed a gap of {gap:.3f} m {boxes}")
    if pen > tol:
        _fail(
            f"expected {ta.label} touching {tb.label} (overlap <= {tol:.3f} m); observed them interpenetrating by "
            f"{pen:.3f} m {boxes}"
        )
    return gap


def assert_colliding(session: XRSession, a: Any, b: Any, *, min_overlap: float = 0.0) -> float:
    """The bounding boxes of `a` and `b` overlap by more than `min_overlap` metres on every axis."""
    __tracebackhide__ = True
    ta, tb = _target(session, a), _target(session, b)
    pen = box_penetration(_box(ta), _box(tb))
    if pen <= min_overlap:
        what = f"a gap of {box_gap(_box(ta), _box(tb)):.3f} m" if pen < 0 else f"an overlap of only {pen:.3f} m"
        _fail(
            f"expected {ta.label} colliding with {tb.label} (overlap > {min_overlap:.3f} m); observed {what} "
            f"({ta.label} {_fmt_box(ta.bbox)}, {tb.label} {_fmt_box(tb.bbox)})"
        )
    return pen


def assert_not_colliding(session: XRSession, a: Any, b: Any, *, tol: float = 0.001) -> float:
    """The bounding boxes of `a` and `b` do not interpenetrate (by more than `tol`)."""
    __tracebackhide__ = True
    ta, tb = _target(session, a), _target(session, b)
    pen = box_penetration(_box(ta), _box(tb))
    if pen > tol:
        _fail(
            f"expected {ta.label} not colliding with {tb.label}; observed them interpenetrating by {pen:.3f} m "
            f"({ta.label} {_fmt_box(ta.bbox)}, {tb.label} {_fmt_box(tb.bbox)})"
        )
    return pen


# --- presence -------------------------------------------------------------------------------


def _nodes(session: XRSession, tag: str) -> list[SceneNode]:
    return session.tagged(tag)


def _visible_now(session: XRSession, tag: str) -> tuple[bool, str]:
    nodes = _nodes(session, tag)
    if not nodes:
        return False, f"no object tagged {tag!r}"
    if any(n.visible for n in nodes):
        return True, f"{tag!r} visible"
    hidden = nodes[0]
    why = "its own visible flag is false" if not hidden.own_visible else "an ancestor is hidden"
    return False, f"{tag!r} present but hidden ({why})"


def _step_until(session: XRSession, check: Callable[[], tuple[bool, str]], within_frames: int) -> tuple[bool, str, int]:
    ok, why = check()
    n = 0
    while not ok and n < within_frames:
        session.step(1)
        n += 1
        ok, why = check()
    return ok, why, n


def assert_visible(session: XRSession, tag: str, *, within_frames: int = 0) -> None:
    """An object tagged `tag` exists and is visible (stepping up to `within_frames` frames for it)."""
    __tracebackhide__ = True
    ok, why, n = _step_until(session, lambda: _visible_now(session, tag), within_frames)
    if not ok:
        extra = f" after {n} frame(s)" if within_frames else ""
        known = sorted({x.tag for x in session.tagged() if x.tag})
        hint = f" (tags present: {', '.join(known) or 'none'})" if why.startswith("no object") else ""
        _fail(f"expected {tag!r} visible{extra}; observed {why}{hint}")


def assert_not_visible(session: XRSession, tag: str, *, within_frames: int = 0) -> None:
    """No object tagged `tag` is visible (absent or hidden), stepping up to `within_frames` frames."""
    __tracebackhide__ = True

    def check() -> tuple[bool, str]:
        ok, why = _visible_now(session, tag)
        return not ok, why

    ok, _, n = _step_until(session, check, within_frames)
    if not ok:
        nodes = [x for x in _nodes(session, tag) if x.visible]
        extra = f" after {n} frame(s)" if within_frames else ""
        _fail(f"expected {tag!r} not visible{extra}; observed {len(nodes)} visible, at {fmt_point(nodes[0].position)}")


@contextlib.contextmanager
def assert_appears(session: XRSession, tag: str, *, within_frames: int = 0) -> Iterator[None]:
    """Context manager: `tag` is not visible before the block and is visible after it.

    with assert_appears(s, "menu"):
        s.controller("dominant").squeeze()
    """
    __tracebackhide__ = True
    before, why = _visible_now(session, tag)
    if before:
        _fail(f"expected {tag!r} to appear, but it was already visible before the action")
    yield
    ok, why, n = _step_until(session, lambda: _visible_now(session, tag), within_frames)
    if not ok:
        extra = f" (waited {n} more frame(s))" if within_frames else ""
        _fail(f"expected {tag!r} to appear; observed {why} after the action{extra}")


@contextlib.contextmanager
def assert_disappears(session: XRSession, tag: str, *, within_frames: int = 0) -> Iterator[None]:
    """Context manager: `tag` is visible before the block and not visible (hidden or removed) after."""
    __tracebackhide__ = True
    before, why = _visible_now(session, tag)
    if not before:
        _fail(f"expected {tag!r} to disappear, but before the action: {why}")
    yield

    def check() -> tuple[bool, str]:
        ok, w = _visible_now(session, tag)
        return not ok, w

    ok, why, n = _step_until(session, check, within_frames)
    if not ok:
        extra = f" (waited {n} more frame(s))" if within_frames else ""
        _fail(f"expected {tag!r} to disappear; observed it still visible after the action{extra}")


def assert_count(session: XRSession, tag: str, expected: int, *, visible_only: bool = True) -> int:
    """Exactly `expected` objects are tagged `tag` (counting only visible ones unless `visible_only=False`)."""
    __tracebackhide__ = True
    nodes = _nodes(session, tag)
    counted = [n for n in nodes if n.visible] if visible_only else nodes
    if len(counted) != expected:
        hidden = len(nodes) - len(counted)
        extra = f" (+{hidden} hidden)" if hidden else ""
        _fail(f"expected {expected} object(s) tagged {tag!r}; observed {len(counted)}{extra}")
    return len(counted)


# --- state and colour -----------------------------------------------------------------------


def _node(session: XRSession, tag: str) -> SceneNode:
    __tracebackhide__ = True
    t = _target(session, tag)
    if t.node is None:
        _fail(f"expected an object tagged {tag!r}; {t.label} is not an object")
    return t.node  # type: ignore[return-value]


def assert_state(session: XRSession, tag: str, expected: Mapping[str, Any] | None = None, **fields: Any) -> Any:
    """The tagged object's `userData.xrblocksDevtools.state` has these fields with these values.

    assert_state(s, "lamp", on=True, toggles=1)
    """
    __tracebackhide__ = True
    want = {**(expected or {}), **fields}
    state = _node(session, tag).state
    if not isinstance(state, Mapping):
        _fail(f"expected {tag!r} state {want}; observed state {state!r}")
    wrong = {k: state.get(k, "<missing>") for k, v in want.items() if state.get(k, object()) != v}
    if wrong:
        diffs = ", ".join(f"{k}: expected {want[k]!r}, observed {v!r}" for k, v in wrong.items())
        _fail(f"expected {tag!r} state to include {want}; {diffs} (full state {state})")
    return state


def _hex_rgb(color: str) -> tuple[int, int, int]:
    m = re.fullmatch(r"#?([0-9a-fA-F]{6})", color.strip())
    if not m:
        raise ValueError(f"colours are '#rrggbb' strings, not {color!r}")
    v = int(m[1], 16)
    return (v >> 16) & 255, (v >> 8) & 255, v & 255


def assert_color(session: XRSession, tag: str, expected: str, *, emissive: bool = False, tol: int = 0) -> str:
    """The tagged object's material colour (or emissive colour) is `expected` ('#rrggbb'), each
    channel within `tol` (0-255)."""
    __tracebackhide__ = True
    node = _node(session, tag)
    observed = node.emissive if emissive else node.color
    kind = "emissive colour" if emissive else "colour"
    if observed is None:
        _fail(f"expected {tag!r} {kind} {expected}; observed no material {kind}")
    a, b = _hex_rgb(expected), _hex_rgb(observed)  # type: ignore[arg-type]
    diff = max(abs(x - y) for x, y in zip(a, b, strict=True))
    if diff > tol:
        _fail(f"expected {tag!r} {kind} {expected.lower()} (tol {tol}); observed {observed} (off by {diff})")
    return observed  # type: ignore[return-value]


def _read_attribute(session: XRSession, tag: str, attribute: str) -> Any:
    node = _node(session, tag)
    if attribute == "color":
        return node.color
    if attribute == "emissive":
        return node.emissive
    if attribute == "visible":
        return node.visible
    if attribute == "position":
        return node.position
    if attribute.startswith("state."):
        value: Any = node.state
        for part in attribute[len("state.") :].split("."):
            value = value.get(part) if isinstance(value, Mapping) else None
        return value
    raise ValueError(
        f"attribute must be 'color', 'emissive', 'visible', 'position' or 'state.<key>', not {attribute!r}"
    )


_UNSET: Any = object()


@contextlib.contextmanager
def assert_changes(
    session: XRSession, tag: str, attribute: str, *, to: Any = _UNSET, from_: Any = _UNSET
) -> Iterator[None]:
    """Context manager: the block changes `attribute` of the tagged object ('color', 'emissive',
    'visible', 'position' or 'state.<key>'), optionally from `from_` and to `to`.

        with assert_changes(s, "lamp-button", "color", to="#ffcc33"):
            s.hand("dominant").reach_to("lamp-button")
    """
    __tracebackhide__ = True
    before = _read_attribute(session, tag, attribute)
    if from_ is not _UNSET and before != from_:
        _fail(f"expected {tag!r} {attribute} to start as {from_!r}; observed {before!r} before the action")
    yield
    after = _read_attribute(session, tag, attribute)
    if after == before:
        _fail(f"expected {tag!r} {attribute} to change; observed {before!r} before and after the action")
    if to is not _UNSET and after != to:
        _fail(f"expected {tag!r} {attribute} to change to {to!r}; observed {before!r} -> {after!r}")


# --- events ---------------------------------------------------------------------------------


def _match(
    session: XRSession, event_type: str, hand: str | None, target: str | None, name: str | None, since_frame: int | None
) -> tuple[list[XREvent], list[XREvent], str]:
    t = canonical_event_type(event_type)
    h = session.handedness(hand) if hand not in (None, "none") else hand
    if not hasattr(session, "events"):
        raise TypeError(f"{type(session).__name__} does not record app events; event assertions need an XRSession")
    events = session.events()
    from xrbench.xrtest.readers import filter_events

    matching = filter_events(events, t, hand=h, target=target, name=name, since_frame=since_frame)
    want = t + (f"[{name}]" if name else "")
    if h:
        want += f" by the {h} hand" + (f" ({hand})" if hand not in (h, None) else "")
    if target:
        want += f" on {target!r}"
    if since_frame is not None:
        want += f" after frame {since_frame}"
    return matching, events, want


def _describe(events: Sequence[XREvent], limit: int = 12) -> str:
    if not events:
        return "none"
    shown = [str(e) for e in events[-limit:]]
    more = f"... ({len(events) - limit} earlier) " if len(events) > limit else ""
    return more + ", ".join(shown)


def assert_event(
    session: XRSession,
    event_type: str,
    *,
    hand: str | None = None,
    target: str | None = None,
    name: str | None = None,
    since_frame: int | None = None,
    count: int | None = None,
) -> list[XREvent]:
    """The app received an event of `event_type` (see `readers.XREvent`; aliases 'touch', 'grab',
    'hover', 'squeeze', 'gesture'), by `hand` (a role or 'left'/'right'), on `target` (a tag of the
    object or of an ancestor), named `name` (gestures), after `since_frame`; `count` exactly.
    Returns the matching events.
    """
    __tracebackhide__ = True
    matching, events, want = _match(session, event_type, hand, target, name, since_frame)
    if not matching or (count is not None and len(matching) != count):
        same_type = [e for e in events if e.type == canonical_event_type(event_type)]
        n = f"{count} x " if count is not None else ""
        _fail(
            f"expected {n}{want}; observed {len(matching)} matching. Events of that type: {_describe(same_type)}. "
            f"All events: {_describe(events)}"
        )
    return matching


def assert_no_event(
    session: XRSession,
    event_type: str,
    *,
    hand: str | None = None,
    target: str | None = None,
    name: str | None = None,
    since_frame: int | None = None,
) -> None:
    """The app received no event matching these criteria (see `assert_event`)."""
    __tracebackhide__ = True
    matching, _, want = _match(session, event_type, hand, target, name, since_frame)
    if matching:
        _fail(f"expected no {want}; observed {len(matching)}: {_describe(matching)}")


# --- health ---------------------------------------------------------------------------------


def assert_no_errors(
    session: XRSession,
    *,
    allow: Sequence[str] = (),
    console: bool = True,
    requests: bool = True,
) -> None:
    """No uncaught page errors, no exceptions in Script hooks, no console errors (unless
    `console=False`) and no failed requests (unless `requests=False`). `allow` holds regular
    expressions for messages to ignore."""
    __tracebackhide__ = True
    errors = session.errors()
    kinds = ["page_errors", "script_errors"]
    if console:
        kinds.append("console_errors")
    if requests:
        kinds.append("failed_requests")
    found = {k: [m for m in errors[k] if not any(re.search(p, m) for p in allow)] for k in kinds if errors.get(k)}
    found = {k: v for k, v in found.items() if v}
    if found:
        total = sum(len(v) for v in found.values())
        lines = [
            f"{k.replace('_', ' ')} ({len(v)}): " + " | ".join(m.splitlines()[0][:200] for m in v[:5])
            for k, v in found.items()
        ]
        _fail(f"expected no errors; observed {total}:\n  " + "\n  ".join(lines))


__all__ = [
    "assert_above",
    "assert_appears",
    "assert_below",
    "assert_changes",
    "assert_colliding",
    "assert_color",
    "assert_count",
    "assert_disappears",
    "assert_distance",
    "assert_event",
    "assert_facing_user",
    "assert_far",
    "assert_follows_hand",
    "assert_inside",
    "assert_near",
    "assert_no_errors",
    "assert_no_event",
    "assert_not_colliding",
    "assert_not_visible",
    "assert_position",
    "assert_resting_on",
    "assert_state",
    "assert_touching",
    "assert_visible",
    "assert_within_reach",
    "box_gap",
    "box_penetration",
]
