"""Actors: a simulated user (head, hands, controllers) and simulated physical objects, in virtual time.

Named after the XR Blocks DevTools action vocabulary, in Python style:

    s.head.teleport_to((0, 1.5, 0.5)); s.head.look_at("lamp"); s.head.walk([(0, 1.5, -0.5)])
    hand = s.hand("dominant")            # 'dominant' | 'non_dominant' | 'left' | 'right'
    hand.reach_to("lamp-button")         # the index fingertip to a point inside the target
    hand.point_to("cube"); hand.click()  # a ray select (pinch and release)
    hand.pinch(); hand.move_hand((0.2, 1.3, -0.6)); hand.release()
    hand.set_pose("thumbs up"); s.gesture("dominant", "thumbs-up")
    s.controller("dominant").squeeze()
    box = s.objects.add("box", on="table")

Every action drives XR Blocks' desktop simulator through its own API (simulated hands and
controller state, `moveUser`, the objects manager; see `js/actor_lib.js`) and advances time
only by stepping frames of `session.dt_ms` on the paused core: the same test gives the same
frames on any machine. Motions are gradual: a hand moves at most `speed * dt` per frame
(1 cm at the default 0.6 m/s), because XR Blocks ends a grab when the hand jumps ~0.2 m in a
frame; the head turns at most 3 degrees per frame (the hands are attached to the head).

Targets (`point_or_tag`) are resolved by `readers.resolve`: a semantic tag, a scene location
("table", "wall", ...), a plane label, an (x, y, z) point, a scene node or another actor.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from xrbench.xrtest.errors import XRTestError
from xrbench.xrtest.readers import (
    HandState,
    Target,
    node_target,
    read_hand,
    read_tagged,
    resolve,
    resolve_surface,
)
from xrbench.xrtest.session import Joint, Pose, SceneNode, Vec3, rotate

if TYPE_CHECKING:
    from xrbench.xrtest.session import XRSession

HAND_ROLES = ("dominant", "non_dominant", "left", "right")

# XR Blocks' SimulatorHandPose values.
POSES = ("neutral", "relaxed", "pinching", "fist", "thumbs_up", "pointing", "rock", "thumbs_down", "victory")

# Gesture names of XR Blocks' heuristic recogniser (and a few common words) -> the simulator
# pose that performs them. 'open-palm' and 'spread' are the flat, open neutral hand.
GESTURE_POSES: dict[str, str] = {
    "pinch": "pinching",
    "fist": "fist",
    "thumbs-up": "thumbs_up",
    "thumbs-down": "thumbs_down",
    "point": "pointing",
    "open-palm": "neutral",
    "spread": "neutral",
    "victory": "victory",
    "rock": "rock",
    "relaxed": "relaxed",
}

DEFAULT_HAND_SPEED = 0.6  # m/s: 1 cm per 60 Hz frame
DEFAULT_HEAD_SPEED = 1.0  # m/s, a walk
DEFAULT_TURN_SPEED = 180.0  # degrees/s: 3 degrees per frame
POSE_SETTLE_FRAMES = 24  # the simulator lerps joints 10% per frame: 24 frames leave < 8%
CLICK_HOLD_FRAMES = 12  # 200 ms at 60 Hz, as EmbodiedControl.click

# Where each hand rests, in the head's frame (the simulator's defaults).
REST_POSITIONS = {"left": (-0.3, -0.1, -0.3), "right": (0.3, -0.1, -0.3)}


def normalize_pose(name: str) -> str:
    """A simulator pose from a loose name: 'thumbs up', 'Thumbs-Up', 'thumbs_up' -> 'thumbs_up'."""
    key = re.sub(r"[\s\-]+", "_", name.strip().lower())
    key = {"pinch": "pinching", "point": "pointing", "open": "neutral", "open_palm": "neutral"}.get(key, key)
    if key not in POSES:
        raise ValueError(f"unknown hand pose {name!r}; the simulator's poses: {', '.join(POSES)}")
    return key


def _sub(a: Sequence[float], b: Sequence[float]) -> Vec3:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _add(a: Sequence[float], b: Sequence[float]) -> Vec3:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _scale(a: Sequence[float], k: float) -> Vec3:
    return (a[0] * k, a[1] * k, a[2] * k)


def entry_point(start: Sequence[float], box: tuple[Vec3, Vec3], depth: float) -> Vec3:
    """The point `depth` metres inside `box` on the straight line from `start` to the box centre.

    Where a fingertip moving from `start` towards the centre enters the box, plus `depth`
    (capped at the centre): inside the target, without pushing through it.
    """
    lo, hi = box
    centre = tuple((lo[i] + hi[i]) / 2 for i in range(3))
    d = _sub(centre, start)
    length = math.sqrt(sum(c * c for c in d))
    if length < 1e-9:
        return centre  # type: ignore[return-value]
    # Slab test: the parameter where the segment start->centre enters the box.
    t_enter = 0.0
    for i in range(3):
        if abs(d[i]) < 1e-12:
            continue
        t0, t1 = (lo[i] - start[i]) / d[i], (hi[i] - start[i]) / d[i]
        t_enter = max(t_enter, min(t0, t1))
    t = min(1.0, t_enter + depth / length)
    return _add(start, _scale(d, t))


class _Actor:
    def __init__(self, session: XRSession):
        self.session = session

    @property
    def _dt(self) -> float:
        return self.session.dt_ms

    def _act(self, op: str, args: dict[str, Any]) -> Any:
        args = {**args, "dt": self._dt}
        return self.session.call(f"act.{op}", args)

    def _per_frame(self, speed: float) -> float:
        if speed <= 0:
            raise ValueError("speed must be > 0")
        return speed * self._dt / 1000.0


class Head(_Actor):
    """The user's head: XR Blocks' main camera, which the simulated hands are attached to."""

    @property
    def pose(self) -> Pose:
        """World pose of the head (position, quaternion, forward)."""
        return self.session.camera_pose()

    @property
    def position(self) -> Vec3:
        """World position of the eyes."""
        return self.session.camera_pose().position

    def target(self) -> Target:
        """The head as a target of assertions (its position)."""
        return Target(label="the head", point=self.position, kind="head")

    def teleport_to(self, target: Any, *, distance: float | None = None, face: bool = True) -> None:
        """Jump to a place in one frame (a teleport ignores the navmesh).

        With `distance=None` the eyes go to the target point itself (a location such as "start",
        or an (x, y, z) point). With a distance the user stands that far from the target
        horizontally, on the line from the target towards where they are now, at the current
        eye height, and (with `face`) looks at it: `teleport_to("table", distance=0.6)`.
        """
        t = resolve(self.session, target)
        here = self.position
        if distance is None:
            self._act("headTeleport", {"position": list(t.point), "frames": 1})
            return
        away = (here[0] - t.point[0], 0.0, here[2] - t.point[2])
        length = math.hypot(away[0], away[2])
        away = (0.0, 0.0, 1.0) if length < 1e-6 else (away[0] / length, 0.0, away[2] / length)
        position = (t.point[0] + away[0] * distance, here[1], t.point[2] + away[2] * distance)
        self._act("headTeleport", {"position": list(position), "lookAt": list(t.point) if face else None, "frames": 1})

    def look_at(self, target: Any, *, speed: float = DEFAULT_TURN_SPEED) -> int:
        """Turn the head towards a point or tagged object at `speed` degrees/s; returns frames."""
        t = resolve(self.session, target)
        step = math.radians(speed) * self._dt / 1000.0
        return int(self._act("headTurn", {"lookAt": list(t.point), "maxAngleStep": step})["frames"])

    def rotate(self, yaw: float = 0.0, pitch: float = 0.0, *, speed: float = DEFAULT_TURN_SPEED) -> int:
        """Turn by `yaw` degrees (positive: to the left) and `pitch` degrees (positive: up).

        Pitch is clamped just short of straight up or down, as the simulator's own mouse look.
        Returns the frames it took.
        """
        step = math.radians(speed) * self._dt / 1000.0
        args = {"yaw": math.radians(yaw), "pitch": math.radians(pitch), "relative": True, "maxAngleStep": step}
        return int(self._act("headTurn", args)["frames"])

    def move(self, delta: Sequence[float], *, speed: float = DEFAULT_HEAD_SPEED) -> int:
        """Move by `delta` metres in the world frame, gradually, keeping the view direction."""
        goal = _add(self.position, delta)
        return self.walk([goal], speed=speed, face=False)

    def walk(self, path: Sequence[Any], speed: float = DEFAULT_HEAD_SPEED, *, face: bool = True) -> int:
        """Walk through the path's points (or locations / tags) at `speed` m/s; returns frames.

        Points are eye positions. Tags and locations keep the current eye height. With `face`
        the head first turns (gradually) towards each next point, as a person walking does.
        The simulator's navmesh, when the app enabled it, constrains the movement.
        """
        here = self.position
        points = []
        for p in path:
            t = resolve(self.session, p)
            points.append(list(t.point) if t.kind == "point" else [t.point[0], here[1], t.point[2]])
        step = self._per_frame(speed)
        turn = math.radians(DEFAULT_TURN_SPEED) * self._dt / 1000.0
        r = self._act("headWalk", {"path": points, "maxStep": step, "face": face, "maxAngleStep": turn})
        return int(r["frames"])


class Hand(_Actor):
    """One simulated hand ('left' or 'right'), with fingers, a ray and pinch selection."""

    def __init__(self, session: XRSession, handedness: str, role: str | None = None):
        super().__init__(session)
        if handedness not in ("left", "right"):
            raise ValueError(f"handedness must be 'left' or 'right', not {handedness!r}")
        self.handedness = handedness
        self.role = role or handedness
        self.index = 0 if handedness == "left" else 1

    def __repr__(self) -> str:
        return f"Hand({self.handedness!r}, role={self.role!r})"

    # --- reading ----------------------------------------------------------------------------

    @property
    def state(self) -> HandState:
        """What the simulator knows about this hand now."""
        return read_hand(self.session, self.handedness)

    @property
    def position(self) -> Vec3:
        """World position of the hand's controller (the grip, where its ray starts)."""
        p = self.state.position
        if p is None:
            raise XRTestError(f"the {self.handedness} hand has no controller")
        return p

    @property
    def fingertip(self) -> Vec3:
        """World position of the index fingertip (step one frame after opening to place the joints)."""
        p = self.state.fingertip
        if p is None:
            raise XRTestError(f"the {self.handedness} hand has no joints yet (step a frame first)")
        return p

    @property
    def joints(self) -> dict[str, Joint]:
        """The 25 joints in the world frame."""
        return self.session.hand_joints(self.handedness)

    def target(self) -> Target:
        """The hand as a target of assertions (its controller position)."""
        return Target(label=f"the {self.role} hand ({self.handedness})", point=self.position, kind="hand")

    def _ensure_joints(self) -> None:
        # At frame 0 the joints are not placed yet; one frame places them.
        if self.session.frame == 0:
            self.session.step(1)

    # --- moving -----------------------------------------------------------------------------

    def move_hand(
        self,
        position: Sequence[float] | Any,
        *,
        speed: float = DEFAULT_HAND_SPEED,
        anchor: str = "controller",
        track: Sequence[Any] = (),
    ) -> dict[str, Any]:
        """Move the hand gradually so its `anchor` ('controller' or 'fingertip') ends at `position`.

        `position` may be a point or anything `resolve` accepts (its centre). `track` lists scene
        nodes or tags whose world positions are sampled after every frame of the motion; the
        result holds them in `samples` (one list per tracked item) with the anchor's positions in
        `anchor`, and `frames`, `position`, `fingertip`.
        """
        if anchor not in ("controller", "fingertip"):
            raise ValueError("anchor must be 'controller' or 'fingertip'")
        self._ensure_joints()
        goal = resolve(self.session, position).point
        uuids = [self._uuid(t) for t in track]
        return self._act(
            "moveHand",
            {"hand": self.index, "to": list(goal), "anchor": anchor, "maxStep": self._per_frame(speed), "track": uuids},
        )

    move_to = move_hand

    def move_by(self, delta: Sequence[float], *, speed: float = DEFAULT_HAND_SPEED) -> dict[str, Any]:
        """Move the hand by `delta` metres (world frame), gradually."""
        return self.move_hand(_add(self.position, delta), speed=speed)

    def rest(self, *, speed: float = DEFAULT_HAND_SPEED) -> dict[str, Any]:
        """Bring the hand back to where the simulator rests it, beside and below the head."""
        pose = self.session.camera_pose()
        offset = rotate(pose.quaternion, REST_POSITIONS[self.handedness])
        return self.move_hand(_add(pose.position, offset), speed=speed)

    def reach_to(self, target: Any, *, depth: float = 0.02, speed: float = DEFAULT_HAND_SPEED) -> dict[str, Any]:
        """Put the index fingertip on a point inside the target: a direct touch (a poke).

        For objects with a bounding box the point is `depth` metres inside the box where a
        straight reach from the fingertip towards the box centre enters it (XR Blocks' touch is
        a box test, and a fingertip that stops on the surface touches nothing). For points and
        locations the fingertip goes to the point itself.
        """
        self._ensure_joints()
        t = resolve(self.session, target)
        goal = entry_point(self.fingertip, t.bbox, depth) if t.bbox else t.point
        return self._act(
            "moveHand",
            {"hand": self.index, "to": list(goal), "anchor": "fingertip", "maxStep": self._per_frame(speed)},
        )

    def point_to(self, target: Any, *, speed: float = DEFAULT_TURN_SPEED) -> int:
        """Turn the hand so its ray (the controller's -Z) points at the target; returns frames."""
        self._ensure_joints()
        t = resolve(self.session, target)
        step = math.radians(speed) * self._dt / 1000.0
        return int(self._act("pointHand", {"hand": self.index, "at": list(t.point), "maxAngleStep": step})["frames"])

    def rotate_hand(
        self, pitch: float = 0.0, yaw: float = 0.0, roll: float = 0.0, *, speed: float = DEFAULT_TURN_SPEED
    ) -> int:
        """Turn the hand by degrees in its own frame (pitch up, yaw left, roll), gradually; returns frames."""
        step = math.radians(speed) * self._dt / 1000.0
        euler = [math.radians(pitch), math.radians(yaw), math.radians(roll)]
        return int(self._act("rotateHand", {"hand": self.index, "euler": euler, "maxAngleStep": step})["frames"])

    def point_forward(self) -> int:
        """Reset the ray to the head's forward direction (the simulator's default orientation)."""
        pose = self.session.camera_pose()
        ahead = _add(self.position, _scale(pose.forward or (0.0, 0.0, -1.0), 2.0))
        return self.point_to(ahead)

    # --- selecting and poses ----------------------------------------------------------------

    def start_select(self, frames: int = 1) -> None:
        """Begin a pinch (XR Blocks' select on a hand) and run `frames` frames."""
        self._act("setPose", {"hand": self.index, "pose": "pinching", "frames": frames})

    def end_select(self, frames: int = 1) -> None:
        """Release the pinch (the pose returns to relaxed) and run `frames` frames."""
        self._act("setPose", {"hand": self.index, "pose": "relaxed", "frames": frames})

    def pinch(self, frames: int = POSE_SETTLE_FRAMES) -> None:
        """Pinch and hold until the fingers have closed (`frames`, default 24)."""
        self.start_select(frames)

    def release(self, frames: int = POSE_SETTLE_FRAMES) -> None:
        """Open the pinch and wait until the fingers have relaxed."""
        self.end_select(frames)

    def click(self, target: Any = None, *, hold_frames: int = CLICK_HOLD_FRAMES) -> None:
        """A ray click: point at `target` (if given), pinch for `hold_frames`, release, wait as long."""
        if target is not None:
            self.point_to(target)
        self.start_select(hold_frames)
        self.end_select(hold_frames)

    def set_pose(self, pose: str, frames: int = POSE_SETTLE_FRAMES) -> None:
        """Lerp into one of the simulator's poses ('pinching', 'fist', 'thumbs up', 'pointing',
        'victory', 'rock', 'thumbs down', 'relaxed', 'neutral') and run `frames` frames.

        Entering 'pinching' starts a select and leaving it ends one, as on a device.
        """
        self._act("setPose", {"hand": self.index, "pose": normalize_pose(pose), "frames": frames})

    def set_joint_rotations(
        self,
        rotations: Mapping[str, Sequence[float]],
        *,
        degrees: bool = True,
        constraints: bool = True,
        merge: bool = True,
        frames: int = POSE_SETTLE_FRAMES,
    ) -> None:
        """Set semantic joint angles [x, y, z] per joint name (e.g. 'index-finger-phalanx-proximal').

        x flexes towards the palm, y spreads, z rolls (XR Blocks' `SimulatorHandPoseRotations`).
        Angles are in degrees unless `degrees=False`; `constraints` clamps them to the hand's
        biomechanical ranges; `merge` keeps the other joints' current targets. The joints lerp
        over the next frames like a pose.
        """
        k = math.pi / 180.0 if degrees else 1.0
        rot = {name: [float(v) * k for v in angles] for name, angles in rotations.items()}
        self._act(
            "setRotations",
            {"hand": self.index, "rotations": rot, "constraints": constraints, "merge": merge, "frames": frames},
        )

    def show(self, frames: int = 1) -> None:
        """Make the hand visible and tracked again."""
        self._act("setHandVisible", {"hand": self.index, "visible": True, "frames": frames})

    def hide(self, frames: int = 1) -> None:
        """Hide the hand as if tracking were lost: invisible, and its input source disconnected.

        (XR Blocks 0.21.1 still tests a hidden hand's fingertip for direct touch.)
        """
        self._act("setHandVisible", {"hand": self.index, "visible": False, "frames": frames})

    def _uuid(self, item: Any) -> str:
        if isinstance(item, SceneNode):
            return item.uuid
        t = resolve(self.session, item)
        if t.node is None:
            raise ValueError(f"cannot track {t.label}: it is not an object of the scene")
        return t.node.uuid


class Controller(_Actor):
    """One simulated controller: a trigger (select), a grip (squeeze) and a ray.

    In the simulator a controller is the same input source as the hand of that side; its
    buttons dispatch `select*` / `squeeze*` without changing the hand's pose.
    """

    def __init__(self, session: XRSession, handedness: str, role: str | None = None):
        super().__init__(session)
        self._hand = Hand(session, handedness, role)
        self.handedness = handedness
        self.role = role or handedness
        self.index = self._hand.index

    def __repr__(self) -> str:
        return f"Controller({self.handedness!r}, role={self.role!r})"

    @property
    def position(self) -> Vec3:
        """World position of the controller."""
        return self._hand.position

    @property
    def ray_direction(self) -> Vec3 | None:
        """World direction of the controller's ray."""
        return self._hand.state.ray_direction

    def target(self) -> Target:
        """The controller as a target of assertions."""
        return Target(label=f"the {self.role} controller ({self.handedness})", point=self.position, kind="hand")

    def move_to(self, position: Any, *, speed: float = DEFAULT_HAND_SPEED) -> dict[str, Any]:
        """Move the controller gradually to a point (or a target's centre)."""
        return self._hand.move_hand(position, speed=speed)

    def point_to(self, target: Any, *, speed: float = DEFAULT_TURN_SPEED) -> int:
        """Aim the ray at the target; returns frames."""
        return self._hand.point_to(target, speed=speed)

    def _button(self, kind: str, phase: str, frames: int) -> None:
        self._hand._ensure_joints()
        self._act("button", {"hand": self.index, "kind": kind, "phase": phase, "frames": frames})

    def start_select(self, frames: int = 1) -> None:
        """Press the trigger."""
        self._button("select", "start", frames)

    def end_select(self, frames: int = 1) -> None:
        """Release the trigger."""
        self._button("select", "end", frames)

    def select(self, target: Any = None, *, hold_frames: int = CLICK_HOLD_FRAMES) -> None:
        """Aim at `target` (if given), press the trigger for `hold_frames`, release, wait as long."""
        if target is not None:
            self.point_to(target)
        self.start_select(hold_frames)
        self.end_select(hold_frames)

    def start_squeeze(self, frames: int = 1) -> None:
        """Press the grip."""
        self._button("squeeze", "start", frames)

    def end_squeeze(self, frames: int = 1) -> None:
        """Release the grip."""
        self._button("squeeze", "end", frames)

    def squeeze(self, *, hold_frames: int = CLICK_HOLD_FRAMES) -> None:
        """Press the grip for `hold_frames`, release, wait as long."""
        self.start_squeeze(hold_frames)
        self.end_squeeze(hold_frames)


def gesture(
    session: XRSession,
    hand: str | Hand,
    name: str,
    *,
    hold_frames: int = POSE_SETTLE_FRAMES,
    release: bool = True,
) -> None:
    """Perform a hand gesture: lerp into its pose, hold `hold_frames`, then relax (unless `release=False`).

    `name` is a gesture of XR Blocks' recogniser ('pinch', 'fist', 'thumbs-up', 'thumbs-down',
    'point', 'open-palm', 'spread') or any simulator pose ('victory', 'rock', ...). Apps that
    enable gesture recognition get `gesture_start` / `gesture_end` events.

    The simulated hands turn with the head. With the head pitched (looking 25-30 degrees down or
    up) the thumb of a fist points partly up or down, and XR Blocks' heuristic `detectFist`
    penalises that: a held fist stays under the 0.6 threshold and only flickers past it while the
    hand closes and opens (two `gesturestart('fist')`). Aim the hand level first
    (`hand.point_to(...)` along the heading) when a test needs one clean fist from a pitched head.
    """
    h = hand if isinstance(hand, Hand) else session.hand(hand)
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    pose = GESTURE_POSES.get(key) or normalize_pose(name)
    h.set_pose(pose, frames=hold_frames)
    if release:
        h.set_pose("relaxed", frames=hold_frames)


class PhysicalObject:
    """A box in the simulated room (XR Blocks' simulator objects manager), tagged with its label."""

    def __init__(self, objects: PhysicalObjects, object_id: str, label: str, uuid: str):
        self._objects = objects
        self.id = object_id
        self.label = label
        self.uuid = uuid

    def __repr__(self) -> str:
        return f"PhysicalObject({self.id!r}, label={self.label!r})"

    @property
    def node(self) -> SceneNode:
        """The object as it is now (world position, bbox, visibility)."""
        for n in read_tagged(self._objects.session, self.label):
            if n.uuid == self.uuid:
                return n
        raise XRTestError(f"physical object {self.id!r} is no longer in the simulated room")

    def target(self) -> Target:
        """The object as a target of actors and assertions."""
        return node_target(self.node, f"{self.label!r} ({self.id})")

    def move_to(self, at: Any = None, *, on: Any = None) -> None:
        """Move it so its centre is `at`, or so it rests `on` a surface (see `PhysicalObjects.add`)."""
        size = self.node.size or (0.0, 0.0, 0.0)
        position = self._objects._place(size, at, on, (0.0, 0.0, 0.0))
        self._objects._act("updateObject", {"id": self.id, "position": list(position)})

    def set_visible(self, visible: bool) -> None:
        """Show or hide it."""
        self._objects._act("updateObject", {"id": self.id, "visible": visible})

    def remove(self) -> None:
        """Take it out of the room."""
        self._objects.remove(self)


class PhysicalObjects(_Actor):
    """Labelled physical objects in the simulated room: `session.objects`.

    They live in the simulator's environment (not the app's scene graph), as the room's own
    furniture does; the app perceives them through XR Blocks' world sensing (object detection
    with `world.objects.simulatorOverride`, depth). The harness tags each with its label so
    `find` / assertions can name it. Adding or moving an object does not advance time.
    """

    def __init__(self, session: XRSession):
        super().__init__(session)
        self._count = 0
        self._items: dict[str, PhysicalObject] = {}

    def _place(self, size: Sequence[float], at: Any, on: Any, offset: Sequence[float]) -> Vec3:
        if (at is None) == (on is None):
            raise ValueError("give exactly one of at= (the centre) or on= (a surface to rest on)")
        if at is not None:
            return _add(resolve(self.session, at).point, offset)
        # Resting on a surface: the box's bottom on the surface's top, above the surface's point.
        t = resolve(self.session, on)
        x, z = t.point[0] + offset[0], t.point[2] + offset[2]
        surface = resolve_surface(self.session, on, near=(x, t.point[1], z))
        return (x, surface.top + size[1] / 2 + offset[1], z)

    def add(
        self,
        label: str,
        *,
        at: Any = None,
        on: Any = None,
        size: Sequence[float] = (0.1, 0.1, 0.1),
        offset: Sequence[float] = (0.0, 0.0, 0.0),
        color: str = "#b0b0b0",
        detectable: bool = True,
    ) -> PhysicalObject:
        """Add a box labelled `label` (its tag), `size` metres, centred `at` a point or resting `on`
        a surface (a location such as "table", a plane label or a tag), moved by `offset`.

        `detectable` makes it visible to XR Blocks' simulated object detection.
        """
        if len(size) != 3 or min(size) <= 0:
            raise ValueError("size must be three positive lengths in metres")
        position = self._place(size, at, on, offset)
        self._count += 1
        object_id = f"{label}-{self._count}"
        r = self._act(
            "addObject",
            {
                "id": object_id,
                "label": label,
                "size": list(size),
                "position": list(position),
                "color": color,
                "detect": detectable,
            },
        )
        obj = PhysicalObject(self, object_id, label, r["uuid"])
        self._items[object_id] = obj
        return obj

    def get(self, id_or_label: str) -> PhysicalObject:
        """An object added in this session, by id ('box-1') or label (the first with it)."""
        if id_or_label in self._items:
            return self._items[id_or_label]
        for obj in self._items.values():
            if obj.label == id_or_label:
                return obj
        known = ", ".join(self._items) or "none"
        raise KeyError(f"no physical object {id_or_label!r} (added: {known})")

    def list(self) -> list[PhysicalObject]:
        """Objects added in this session and still present, in order."""
        return list(self._items.values())

    def remove(self, obj: PhysicalObject | str) -> None:
        """Remove an object (or its id / label)."""
        o = obj if isinstance(obj, PhysicalObject) else self.get(obj)
        self._act("removeObject", {"id": o.id})
        self._items.pop(o.id, None)

    def clear(self) -> None:
        """Remove every object added in this session."""
        for o in list(self._items.values()):
            self.remove(o)


class PlaneDetection(_Actor):
    """When the app's plane detection finds the room's planes: `session.plane_detection`.

    XR Blocks' simulator reports every plane of its room before the first frame; a headset finds
    them over time. `withhold()` (at the start) takes them back, as if none had been found yet;
    `deliver()` reports them, all or those with given labels, in the simulator's order; `add()`
    reports planes the test describes (a raised floor, a room turned at an angle). None advances
    time. Each returns planes as {'label', 'type', 'position'} (the plane's centre).
    """

    def withhold(self) -> list[dict[str, Any]]:
        """From now on no plane has been detected; returns the planes withheld."""
        return self._act("withholdPlanes", {})["withheld"]

    def deliver(self, *labels: str) -> list[dict[str, Any]]:
        """Detect the withheld planes with these labels now (every withheld plane when none are
        given); returns the planes delivered. Planes not delivered stay withheld."""
        return self._act("deliverPlanes", {"labels": list(labels) or None})["delivered"]

    def add(self, *planes: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Detect these planes now, described as in a scene's planes file: 'label', 'type'
        ('horizontal' or 'vertical'), 'position' ({'x', 'y', 'z'} or [x, y, z]), 'quaternion'
        ([x, y, z, w]: the plane's local +Y is its normal) and 'polygon' (at least three
        {'x', 'y'} or [x, y] points in the plane's local x/z). Returns the planes added."""
        return self._act("addPlanes", {"planes": [_plane_spec(p, i) for i, p in enumerate(planes)]})["added"]


class DepthSensing(_Actor):
    """When the app's depth sensing knows the room: `session.depth_sensing`.

    XR Blocks' simulator renders depth from the first frames on; a headset's depth arrives later
    and reads 0 where it knows nothing. `withhold()` makes every depth image the app has or gets
    read 0 everywhere, at once; `deliver()` hands the simulator's images over again, the next one
    rendered at the next frame and received when its readback completes (a frame or two later).
    Neither advances time.
    """

    def withhold(self) -> bool:
        """From now on the depth images read 0 (unknown); returns whether the app had depth already."""
        return bool(self._act("withholdDepth", {})["hadDepth"])

    def deliver(self) -> None:
        """Depth images show the room again from the next frames on."""
        self._act("deliverDepth", {})


def _plane_spec(plane: Mapping[str, Any], index: int) -> dict[str, Any]:
    """A described plane checked and in the one shape the page takes; ValueError names the field."""

    def numbers(field: str, value: Any, n: int) -> list[float]:
        if isinstance(value, Mapping):
            value = [value.get(k) for k in "xyz"[:n]]
        if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != n:
            raise ValueError(f"plane {index}: {field} must have {n} numbers, got {value!r}")
        if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value):
            raise ValueError(f"plane {index}: {field} must have {n} finite numbers, got {value!r}")
        return [float(v) for v in value]

    if not isinstance(plane, Mapping):
        raise ValueError(f"plane {index} must be a mapping (an entry of a planes file), got {type(plane).__name__}")
    label = plane.get("label")
    if not isinstance(label, str) or not label:
        raise ValueError(f"plane {index}: label must be a non-empty string, got {label!r}")
    kind = plane.get("type")
    if kind not in ("horizontal", "vertical"):
        raise ValueError(f"plane {index}: type must be 'horizontal' or 'vertical', got {kind!r}")
    quaternion = numbers("quaternion", plane.get("quaternion"), 4)
    if not 0.99 < math.hypot(*quaternion) < 1.01:
        raise ValueError(f"plane {index}: quaternion must be a unit quaternion, got {quaternion!r}")
    polygon = plane.get("polygon")
    if not isinstance(polygon, Sequence) or len(polygon) < 3:
        raise ValueError(f"plane {index}: polygon must have at least 3 points, got {polygon!r}")
    return {
        "label": label,
        "type": kind,
        "area": plane.get("area"),
        "position": numbers("position", plane.get("position"), 3),
        "quaternion": quaternion,
        "polygon": [numbers(f"polygon[{k}]", q, 2) for k, q in enumerate(polygon)],
    }


__all__ = [
    "CLICK_HOLD_FRAMES",
    "DEFAULT_HAND_SPEED",
    "DEFAULT_HEAD_SPEED",
    "DEFAULT_TURN_SPEED",
    "GESTURE_POSES",
    "HAND_ROLES",
    "POSES",
    "POSE_SETTLE_FRAMES",
    "Controller",
    "DepthSensing",
    "Hand",
    "Head",
    "PhysicalObject",
    "PhysicalObjects",
    "PlaneDetection",
    "entry_point",
    "gesture",
    "normalize_pose",
]
