"""Readers: what an XR app under test did and what exists, read from the page in one round trip each.

- **Events** the app received, recorded by the harness without the app's cooperation: the
  session wraps XR Blocks' script dispatch (targeted and global hooks), the input's squeeze
  dispatch and the gesture recogniser before the first frame (`js/read_lib.js`). Each event is
  an `XREvent` with the hand, the target's tag and the frame it happened in.
- **World**: detected planes (`xb.world.planes`), depth availability, the scene's named locations.
- **Pictures**: a rectangle of the scene drawn by the app's renderer, seen straight on.
- **Hands**: what the simulator knows about each hand (visible, connected, pose, ray, fingertip).
- **Targets**: `resolve()` turns what a test names (a tag, a scene location, a plane label, a
  point, a node, an actor) into a point and a world bounding box, for actors and assertions.

These functions take an `XRSession`; the session exposes them as methods (`session.events()`,
`session.planes()`, `session.resolve()`, ...).
"""

from __future__ import annotations

import base64
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from xrbench.xrtest.errors import TagNotFoundError
from xrbench.xrtest.session import SceneNode, Vec3

if TYPE_CHECKING:
    from xrbench.xrtest.session import XRSession

# Short names a test may use for the event types the harness records (see `XREvent.type`).
EVENT_ALIASES: dict[str, str] = {
    "touch": "object_touch_start",
    "grab": "object_grab_start",
    "hover": "hover_enter",
    "squeeze": "squeeze_start",
    "gesture": "gesture_start",
}

EVENT_TYPES = (
    "object_select_start",
    "object_select_end",
    "object_long_select",
    "object_touch_start",
    "object_touch_end",
    "object_grab_start",
    "object_grab_end",
    "hover_enter",
    "hover_exit",
    "select_start",
    "select",
    "select_end",
    "long_select",
    "squeeze_start",
    "squeeze",
    "squeeze_end",
    "gesture_start",
    "gesture_update",
    "gesture_end",
    "head_gesture",
)


def _vec(values: Sequence[float]) -> Vec3:
    return (float(values[0]), float(values[1]), float(values[2]))


def fmt_point(p: Sequence[float]) -> str:
    """`(x, y, z)` with millimetre precision, for messages."""
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


@dataclass(frozen=True)
class XREvent:
    """One interaction event the app received.

    `type` is the XR Blocks hook in snake case: targeted hooks (`object_select_start`,
    `object_select_end`, `object_long_select`, `object_touch_start`, `object_touch_end`,
    `object_grab_start`, `object_grab_end`, `hover_enter`, `hover_exit`; scope 'target'), global
    script hooks (`select_start`, `select`, `select_end`, `long_select`; scope 'global'), controller
    squeezes (`squeeze_start`, `squeeze`, `squeeze_end`; scope 'input') and recognised hand
    gestures (`gesture_start`, `gesture_update` while it is held, `gesture_end`, with the gesture in
    `name`; scope 'gesture') and head gestures (`head_gesture`, 'nod' or 'shake' in `name`; scope
    'head').
    Per-frame hooks (hovering, touching, grabbing, selecting, squeezing) are not recorded.
    `hand` is 'left', 'right' or 'none' (mouse, gaze). `tags` are the semantic tags of the object
    hit and of its ancestors, the most specific first (a touch on the lamp's button: 'lamp-button',
    'lamp'); `tag` is the first. `frame` counts the frames the core has run (1 = the first).
    """

    type: str
    scope: str
    hand: str
    frame: int
    target: str | None = None
    tags: tuple[str, ...] = ()
    script: str | None = None
    name: str | None = None

    @property
    def tag(self) -> str | None:
        """The most specific tag of the target (None when nothing tagged was hit)."""
        return self.tags[0] if self.tags else None

    @classmethod
    def from_js(cls, d: dict[str, Any]) -> XREvent:
        return cls(
            type=d["type"],
            scope=d.get("scope") or "",
            hand=d.get("hand") or "none",
            frame=int(d.get("frame") or 0),
            target=d.get("target"),
            tags=tuple(d.get("tags") or ()),
            script=d.get("script"),
            name=d.get("name"),
        )

    def __str__(self) -> str:
        what = f"{self.type}[{self.name}]" if self.name else self.type
        on = f" on {self.tag!r}" if self.tag else (f" on {self.target!r}" if self.target else "")
        return f"{what}({self.hand}){on}@{self.frame}"


@dataclass(frozen=True)
class Plane:
    """A detected plane: `orientation` 'horizontal' or 'vertical'; `bbox` its world box;
    `polygon` its boundary as detection reported it, in world coordinates, in order."""

    label: str | None
    orientation: str | None
    position: Vec3
    quaternion: tuple[float, float, float, float]
    bbox: tuple[Vec3, Vec3] | None
    polygon: tuple[Vec3, ...] = ()

    @property
    def top(self) -> float:
        """Height of a horizontal plane (its bbox top, which equals its y)."""
        return self.bbox[1][1] if self.bbox else self.position[1]

    def covers(self, point: Sequence[float], margin: float = 0.0) -> bool:
        """Whether `point` lies over the plane's extent (x and z within the box, plus `margin`)."""
        if self.bbox is None:
            return False
        lo, hi = self.bbox
        return lo[0] - margin <= point[0] <= hi[0] + margin and lo[2] - margin <= point[2] <= hi[2] + margin


@dataclass(frozen=True)
class DepthInfo:
    """Whether the app enabled depth sensing and whether a depth frame has arrived."""

    enabled: bool
    available: bool
    width: int | None
    height: int | None


@dataclass(frozen=True)
class HandState:
    """What the simulator knows about one hand, in the world frame."""

    handedness: str
    visible: bool
    connected: bool
    selected: bool
    squeezing: bool
    pose: str | None
    position: Vec3 | None
    quaternion: tuple[float, float, float, float] | None
    ray_direction: Vec3 | None
    fingertip: Vec3 | None


@dataclass(frozen=True)
class Target:
    """Something a test points at, resolved to world coordinates.

    `label` names it in messages ("'cube'", "location 'table'", "point (0.000, 1.000, -1.000)");
    `point` is the centre of its bounding box (or its position when it has no geometry);
    `bbox` is None for points, locations and planes without extent.
    """

    label: str
    point: Vec3
    bbox: tuple[Vec3, Vec3] | None = None
    node: SceneNode | None = None
    kind: str = "point"

    @property
    def bottom(self) -> float:
        """Lowest y of the bbox (the point's y without one)."""
        return self.bbox[0][1] if self.bbox else self.point[1]

    @property
    def top(self) -> float:
        """Highest y of the bbox (the point's y without one)."""
        return self.bbox[1][1] if self.bbox else self.point[1]

    @property
    def box(self) -> tuple[Vec3, Vec3]:
        """The bbox, or a zero-size box at the point."""
        return self.bbox if self.bbox else (self.point, self.point)


# --- events ---------------------------------------------------------------------------------


def read_events(session: XRSession, since: int = 0) -> list[XREvent]:
    """Every event recorded since the session opened (`since`: skip that many first entries)."""
    return [XREvent.from_js(d) for d in session.call("read.events", {"since": since})]


def canonical_event_type(event_type: str) -> str:
    """`event_type` with the short aliases ('touch', 'grab', 'hover', 'squeeze', 'gesture') expanded."""
    t = EVENT_ALIASES.get(event_type, event_type)
    if t not in EVENT_TYPES:
        raise ValueError(
            f"unknown event type {event_type!r}; known: {', '.join(EVENT_TYPES)} (aliases: {', '.join(EVENT_ALIASES)})"
        )
    return t


def filter_events(
    events: Iterable[XREvent],
    event_type: str | None = None,
    *,
    hand: str | None = None,
    target: str | None = None,
    name: str | None = None,
    since_frame: int | None = None,
) -> list[XREvent]:
    """The events matching every given criterion.

    `target` matches any of the event's tags (so 'lamp' matches a touch on the lamp's button) or
    the target object's name.
    """
    t = canonical_event_type(event_type) if event_type else None
    return [
        e
        for e in events
        if (t is None or e.type == t)
        and (hand is None or e.hand == hand)
        and (target is None or target in e.tags or target == e.target)
        and (name is None or e.name == name)
        and (since_frame is None or e.frame > since_frame)
    ]


# --- what exists ----------------------------------------------------------------------------


def read_tagged(session: XRSession, tag: str | None = None) -> list[SceneNode]:
    """Tagged nodes of the app's scene, then of the simulated room (`node.root` says which)."""
    nodes = session.call("read.tagged", {"tag": tag})
    return [SceneNode.from_js(n) for n in nodes]


DRAWN_KINDS = ("mesh", "line", "points", "sprite")


@dataclass(frozen=True)
class Drawn:
    """A mesh, line, points or sprite of the app's scene that is shown (see `read_drawn`)."""

    name: str
    type: str  # three.js type: 'Mesh', 'InstancedMesh', 'Line2', ...
    kind: str  # one of DRAWN_KINDS
    geometry: str  # the geometry's type ('BoxGeometry', ...), '' when none
    tags: tuple[str, ...]  # its own tag first, then its ancestors' (nearest first)
    uuid: str = field(repr=False, compare=False)


def read_drawn(session: XRSession, kinds: Iterable[str] = DRAWN_KINDS) -> list[Drawn]:
    """What the app draws: shown meshes, lines, points and sprites of its scene, of `kinds`.

    Shown means the object and all its ancestors are visible. XR Blocks' own systems (hand and
    controller visuals, reticles, the simulator, detected planes) are left out.
    """
    wanted = set(kinds)
    unknown = wanted - set(DRAWN_KINDS)
    if unknown:
        raise ValueError(f"unknown kinds {sorted(unknown)}; choose from {', '.join(DRAWN_KINDS)}")
    return [
        Drawn(d["name"], d["type"], d["kind"], d["geometry"], tuple(d["tags"]), d["uuid"])
        for d in session.call("read.drawn")
        if d["kind"] in wanted
    ]


def read_picture(
    session: XRSession,
    centre: Sequence[float],
    right: Sequence[float],
    up: Sequence[float],
    size: tuple[float, float],
    pixels: tuple[int, int] = (96, 64),
    distance: float = 0.3,
) -> np.ndarray:
    """`XRSession.picture`: an RGB array (height, width, 3) of a rectangle of the scene, seen straight
    on by an orthographic camera `distance` in front of it (the side right x up points to)."""
    width, height = (int(v) for v in pixels)
    if not (0 < width <= 1024 and 0 < height <= 1024):
        raise ValueError(f"picture: pixels must be 1..1024 each, got {pixels}")
    if not (size[0] > 0 and size[1] > 0 and distance > 0):
        raise ValueError(f"picture: size and distance must be positive, got {size} and {distance}")
    r, u = np.asarray(right, dtype=float), np.asarray(up, dtype=float)
    out = np.cross(r, u)
    norm = float(np.linalg.norm(out))
    if norm < 1e-9:
        raise ValueError("picture: right and up must not be parallel")
    got = session.call(
        "read.picture",
        {
            "centre": [float(v) for v in centre],
            "up": [float(v) for v in u],
            "out": [float(v) / norm for v in out],
            "size": [float(size[0]), float(size[1])],
            "width": width,
            "height": height,
            "depth": float(distance),
        },
    )
    rgba = np.frombuffer(base64.b64decode(got), dtype=np.uint8).reshape(height, width, 4)
    return rgba[:, :, :3].copy()


@dataclass(frozen=True)
class WorldInfo:
    """Planes, depth and named locations, as the app's XR Blocks world sees them."""

    planes: list[Plane]
    planes_enabled: bool
    depth: DepthInfo
    locations: dict[str, Vec3]


def read_world(session: XRSession) -> WorldInfo:
    """Detected planes (empty unless the app enabled plane detection), depth, scene locations."""
    d = session.call("read.world")
    planes = [
        Plane(
            label=p.get("label"),
            orientation=p.get("orientation"),
            position=_vec(p["position"]),
            quaternion=tuple(p["quaternion"]),  # type: ignore[arg-type]
            bbox=(_vec(p["bbox"][0]), _vec(p["bbox"][1])) if p.get("bbox") else None,
            polygon=tuple(_vec(q) for q in p.get("polygon") or ()),
        )
        for p in d["planes"]
    ]
    depth = d["depth"]
    locations = {k: _vec(v["position"]) for k, v in (d.get("locations") or {}).items() if v.get("position")}
    return WorldInfo(
        planes=planes,
        planes_enabled=bool(d.get("planesEnabled")),
        depth=DepthInfo(bool(depth["enabled"]), bool(depth["available"]), depth.get("width"), depth.get("height")),
        locations=locations,
    )


@dataclass(frozen=True)
class RoomHit:
    """Where a ray first meets the simulated room: point, distance from the ray's origin, the
    mesh's name, and the surface's world normal there (None for a mesh without faces)."""

    point: Vec3
    distance: float
    name: str
    normal: Vec3 | None


@dataclass(frozen=True)
class ViewDepths:
    """A world point's place in the view (`u`, `v` in 0..1 from the bottom left), its depth along
    the viewing direction, and the least and greatest depth the room shows there and a few depth
    pixels around it (`math.inf` where nothing is within 60 m)."""

    u: float
    v: float
    depth: float
    room_min: float
    room_max: float


@dataclass(frozen=True)
class RoomRay:
    """The simulated room's truth along a ray (`XRSession.room_ray`)."""

    eye: Vec3
    hit: RoomHit | None
    view: ViewDepths | None


def read_room_ray(
    session: XRSession,
    origin: Sequence[float],
    direction: Sequence[float],
    view_point: Sequence[float] | None = None,
    pixels: float = 1.5,
) -> RoomRay:
    """The simulated room along a ray from `origin`, and around `view_point`'s place in the view."""
    d = session.call(
        "read.roomRay",
        {
            "origin": [float(c) for c in origin],
            "direction": [float(c) for c in direction],
            "at": [float(c) for c in view_point] if view_point is not None else None,
            "pixels": float(pixels),
        },
    )
    h, at = d.get("hit"), d.get("at")
    hit = None
    if h:
        normal = _vec(h["normal"]) if h.get("normal") else None
        hit = RoomHit(_vec(h["point"]), float(h["distance"]), str(h["name"]), normal)
    view = None
    if at:  # JSON has no infinity: null is "nothing within 60 m"
        low, high = (math.inf if x is None else float(x) for x in (at["min"], at["max"]))
        view = ViewDepths(float(at["u"]), float(at["v"]), float(at["depth"]), low, high)
    return RoomRay(eye=_vec(d["eye"]), hit=hit, view=view)


def read_hand(session: XRSession, handedness: str) -> HandState:
    """The simulator's state of the 'left' or 'right' hand."""
    d = session.call("read.hand", 0 if handedness == "left" else 1)

    def opt(v: Any) -> Any:
        return _vec(v) if v else None

    return HandState(
        handedness=handedness,
        visible=bool(d["visible"]),
        connected=bool(d["connected"]),
        selected=bool(d["selected"]),
        squeezing=bool(d["squeezing"]),
        pose=d.get("pose"),
        position=opt(d.get("position")),
        quaternion=tuple(d["quaternion"]) if d.get("quaternion") else None,  # type: ignore[arg-type]
        ray_direction=opt(d.get("rayDirection")),
        fingertip=opt(d.get("fingertip")),
    )


def read_locations(session: XRSession) -> dict[str, Vec3]:
    """Named points of the active simulator environment (from its manifest), in metres."""
    locs = read_world(session).locations
    if not locs and session.scene is not None:
        locs = dict(session.scene.locations)
    return locs


# --- targets --------------------------------------------------------------------------------


def _is_point(value: Any) -> bool:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and len(value) == 3
        and all(isinstance(v, int | float) for v in value)
    )


def node_target(node: SceneNode, label: str | None = None) -> Target:
    """A `Target` for a scene node: a UI element's rendered centre, else its bbox centre (or position)."""
    if node.ui_rect is not None:
        point = node.ui_rect.center
    elif node.bbox:
        lo, hi = node.bbox
        point = ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2)
    else:
        point = node.position
    name = label or (repr(node.tag) if node.tag else repr(node.name or node.type))
    return Target(label=name, point=point, bbox=node.bbox, node=node, kind="node")


def resolve(session: XRSession, target: Any) -> Target:
    """Resolve what a test names into world coordinates.

    Accepts: a `Target`; a `SceneNode`; anything with a `target()` method (actors, physical
    objects); an (x, y, z) point; or a string, tried as a semantic tag (the app's scene first,
    then the simulated room's objects), a location of the scene's manifest ("table", "wall", ...),
    then a detected plane's label. A string that is none of these raises `TagNotFoundError`
    naming it and listing what exists.
    """
    if isinstance(target, Target):
        return target
    if isinstance(target, SceneNode):
        return node_target(target)
    if hasattr(target, "target") and callable(target.target):
        return target.target()
    if _is_point(target):
        p = _vec(target)
        return Target(label=f"point {fmt_point(p)}", point=p, kind="point")
    if not isinstance(target, str):
        raise TypeError(f"cannot resolve {target!r}: give a tag, a location, an (x, y, z) point or a node")
    nodes = read_tagged(session, target)
    if nodes:
        return node_target(nodes[0], repr(target))
    world = read_world(session)
    locations = world.locations or (dict(session.scene.locations) if session.scene else {})
    if target in locations:
        return Target(label=f"location {target!r}", point=locations[target], kind="location")
    planes = [p for p in world.planes if p.label == target]
    if planes:
        head = session.camera_pose().position
        plane = min(planes, key=lambda p: math.dist(p.position, head))
        return Target(label=f"plane {target!r}", point=plane.position, bbox=plane.bbox, kind="plane")
    tags = sorted({n.tag for n in read_tagged(session) if n.tag})
    raise TagNotFoundError(
        f"no object tagged {target!r} in the scene or the simulated room (tags present: "
        f"{', '.join(tags) or 'none'}), and no location or plane of that name (locations: "
        f"{', '.join(sorted(locations)) or 'none'}; planes: "
        f"{', '.join(sorted({p.label for p in world.planes if p.label})) or 'none'})"
    )


@dataclass(frozen=True)
class Surface:
    """A horizontal surface something can rest on: its height and, when known, its extent."""

    label: str
    top: float
    extent: tuple[Vec3, Vec3] | None  # x/z extent (a box); None: only the height is known


def resolve_surface(session: XRSession, surface: Any, near: Sequence[float] | None = None) -> Surface:
    """A horizontal surface by plane label ('table', 'floor'), tag (its bbox top) or location.

    Plane labels win (several planes can share a label: the one under `near`, else the closest);
    then tags; then locations of the scene's manifest (height only). Planes come from the app's
    plane detection, else from the bundled scene's planes file.
    """
    if isinstance(surface, str):
        planes = [p for p in read_world(session).planes if p.label == surface and p.orientation != "vertical"]
        if not planes and session.scene is not None:
            planes = [p for p in scene_planes(session) if p.label == surface and p.orientation != "vertical"]
        if planes:
            ref = near if near is not None else session.camera_pose().position
            under = [p for p in planes if p.covers(ref)]
            # Planes under the reference point: the one whose height is closest to it (a table
            # top over a floor of the same label is unlikely, but two table planes can stack).
            # None under it: the closest plane, so the message names the surface it missed.
            if under:
                plane = min(under, key=lambda p: abs(p.top - ref[1]))
            else:
                plane = min(planes, key=lambda p: math.dist(p.position, ref))
            return Surface(label=f"plane {surface!r}", top=plane.top, extent=plane.bbox)
    t = resolve(session, surface)
    if t.kind in ("node",) and t.bbox:
        return Surface(label=t.label, top=t.top, extent=t.bbox)
    return Surface(label=t.label, top=t.point[1], extent=None)


def scene_planes(session: XRSession) -> list[Plane]:
    """The bundled scene's planes as in its `_planes.json` (ground truth, whether or not the app detects them)."""
    import json

    if session.scene is None:
        return []
    doc = json.loads(session.scene.file("planes").read_text(encoding="utf-8"))
    out = []
    for p in doc.get("planes", []):
        pos = (p["position"]["x"], p["position"]["y"], p["position"]["z"])
        xs = [v["x"] for v in p.get("polygon", [])] or [0.0]
        zs = [v["y"] for v in p.get("polygon", [])] or [0.0]
        horizontal = p.get("type") == "horizontal"
        # Horizontal planes in these files are unrotated: polygon (x, y) is world (x, z) offset.
        bbox = (
            ((pos[0] + min(xs), pos[1], pos[2] + min(zs)), (pos[0] + max(xs), pos[1], pos[2] + max(zs)))
            if horizontal
            else None
        )
        out.append(Plane(p.get("label"), p.get("type"), pos, tuple(p.get("quaternion", (0, 0, 0, 1))), bbox))  # type: ignore[arg-type]
    return out


__all__ = [
    "EVENT_ALIASES",
    "EVENT_TYPES",
    "DepthInfo",
    "HandState",
    "Plane",
    "RoomHit",
    "RoomRay",
    "Surface",
    "Target",
    "ViewDepths",
    "WorldInfo",
    "XREvent",
    "canonical_event_type",
    "filter_events",
    "fmt_point",
    "node_target",
    "read_events",
    "read_hand",
    "read_locations",
    "read_room_ray",
    "read_tagged",
    "read_world",
    "resolve",
    "resolve_surface",
    "scene_planes",
]
