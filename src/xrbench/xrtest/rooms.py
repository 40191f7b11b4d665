"""Rooms a test describes as detected planes, for `session.plane_detection.add(*planes)`.

The bundled scenes are rooms square to the axes with walls that meet. A test of room geometry
also needs rooms that are turned, not rectangular, or whose walls detection found only in part;
`room_planes` describes such a room from its floor outline, in the scenes' planes-file format
(the plane's local +Y is its normal; a polygon lies in the plane's local x/z).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Quat = tuple[float, float, float, float]
Point = tuple[float, float]  # world x, z

# A plane's local +Y is its normal: standing a plane up turns +Y to +Z.
_UPRIGHT: Quat = (math.sin(math.pi / 4), 0.0, 0.0, math.cos(math.pi / 4))


def qmul(a: Sequence[float], b: Sequence[float]) -> Quat:
    """The quaternion product a * b (x, y, z, w): b's rotation, then a's."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def yaw(degrees: float) -> Quat:
    """A turn about +y (counter-clockwise seen from above): +z turns towards +x."""
    h = math.radians(degrees) / 2
    return (0.0, math.sin(h), 0.0, math.cos(h))


def turned(points: Sequence[Point], degrees: float, about: Point = (0.0, 0.0)) -> list[Point]:
    """`points` (x, z) turned about +y by `degrees` around `about`, as `yaw` turns vectors."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    ox, oz = about
    return [(ox + c * (x - ox) + s * (z - oz), oz - s * (x - ox) + c * (z - oz)) for x, z in points]


def _signed_area(points: Sequence[Point]) -> float:
    return sum(x0 * z1 - x1 * z0 for (x0, z0), (x1, z1) in zip(points, [*points[1:], points[0]], strict=True)) / 2


def wall_plane(
    a: Point, b: Point, inside: Point, height: float, floor_y: float = 0.0, short: float = 0.0, label: str = "wall"
) -> dict[str, Any]:
    """A vertical plane standing on the floor along a -> b, facing `inside` (its normal points
    there), `height` tall; `short` metres of it are missing at each end."""
    (ax, az), (bx, bz) = a, b
    length = math.hypot(bx - ax, bz - az)
    if length <= 2 * short:
        raise ValueError(f"a wall {length:.3f} m long cannot be {short} m short at both ends")
    nx, nz = -(bz - az) / length, (bx - ax) / length
    mx, mz = (ax + bx) / 2, (az + bz) / 2
    if nx * (inside[0] - mx) + nz * (inside[1] - mz) < 0:
        nx, nz = -nx, -nz
    half = length / 2 - short
    return {
        "type": "vertical",
        "label": label,
        "area": round(2 * half * height, 6),
        "position": {"x": mx, "y": floor_y + height / 2, "z": mz},
        "quaternion": list(qmul(yaw(math.degrees(math.atan2(nx, nz))), _UPRIGHT)),
        "polygon": [{"x": u * half, "y": v * height / 2} for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))],
    }


def floor_plane(outline: Sequence[Point], y: float = 0.0, label: str = "floor") -> dict[str, Any]:
    """A horizontal plane (normal +y) at height `y` whose boundary is `outline` (world x, z)."""
    cx = sum(p[0] for p in outline) / len(outline)
    cz = sum(p[1] for p in outline) / len(outline)
    return {
        "type": "horizontal",
        "label": label,
        "area": round(abs(_signed_area(outline)), 6),
        "position": {"x": cx, "y": y, "z": cz},
        "quaternion": [0.0, 0.0, 0.0, 1.0],
        "polygon": [{"x": x - cx, "y": z - cz} for x, z in outline],
    }


def room_planes(
    outline: Sequence[Point], height: float = 2.4, floor_y: float = 0.0, short: float = 0.0
) -> list[dict[str, Any]]:
    """The floor and walls of a room whose floor outline (world x, z, in order round it) is
    `outline`: the floor first, then one wall per edge, each facing into the room (`short`:
    metres of each wall missing at both ends, as when furniture hides a room's corners)."""
    if len(outline) < 3:
        raise ValueError("a room's outline needs at least 3 points")
    sign = 1.0 if _signed_area(outline) > 0 else -1.0
    walls = []
    for a, b in zip(outline, [*outline[1:], outline[0]], strict=True):
        # A point just inside the room from the middle of this edge, whatever the room's shape.
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        nx, nz = -sign * (b[1] - a[1]) / length, sign * (b[0] - a[0]) / length  # left of a -> b when counter-clockwise
        inside = ((a[0] + b[0]) / 2 + 0.01 * nx, (a[1] + b[1]) / 2 + 0.01 * nz)
        walls.append(wall_plane(a, b, inside, height, floor_y, short))
    return [floor_plane(outline, floor_y), *walls]


__all__ = ["floor_plane", "qmul", "room_planes", "turned", "wall_plane", "yaw"]
