"""Build the harness's simulator scenes: a small box-model GLB, a planes JSON, a navmesh GLB and a manifest.

Run `python src/xrbench/xrtest/scenes/build_scenes.py` to regenerate every scene directory next to
this file. The output is deterministic (same bytes on every run and machine): geometry is a
single shared unit cube placed by node translation and scale, so each room is a few kilobytes.

Coordinates are XR Blocks' world frame: metres, +Y up, the user starts at (0, 1.5, 0) looking
down -Z. Floors have their top at y = 0.

File formats:
- `<name>.glb`: glTF 2.0 binary; one node per box under a root node named after the scene.
- `<name>_planes.json`: `{"planes": [{type, label, area, position: {x,y,z}, quaternion: [x,y,z,w],
  polygon: [{x, y}]}]}`, what `SimulatorWorld.preparePlanes` reads (xrblocks 0.21.1); the
  quaternion turns +Y into the plane normal and the polygon is in the plane's local X/Z.
- `<name>_navmesh.glb`: the walkable floor as one mesh (`SimulatorNavMesh` takes the first mesh).
- `manifest.json`: a `SimulatorSceneManifest` (paths relative to the manifest) with named
  `locations` ({description, position}), the points tests refer to by name.
"""

from __future__ import annotations

import json
import math
import struct
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent

# glTF constants
_FLOAT, _USHORT = 5126, 5123
_ARRAY_BUFFER, _ELEMENT_ARRAY_BUFFER = 34962, 34963


@dataclass(frozen=True)
class Box:
    """An axis-aligned box: centre and size in metres, and a material name from `MATERIALS`."""

    name: str
    center: tuple[float, float, float]
    size: tuple[float, float, float]
    material: str


@dataclass(frozen=True)
class Plane:
    """A detected plane: 'horizontal' (normal +Y) or 'vertical' with an outward normal in XZ."""

    label: str
    kind: str
    center: tuple[float, float, float]
    extent: tuple[float, float]  # width, depth (horizontal) or width, height (vertical)
    normal: tuple[float, float, float] = (0.0, 1.0, 0.0)


@dataclass(frozen=True)
class SceneSpec:
    """Everything one scene directory is built from."""

    name: str
    title: str
    boxes: tuple[Box, ...]
    planes: tuple[Plane, ...]
    walkable: tuple[float, float, float, float]  # x0, z0, x1, z1 of the navmesh floor
    locations: dict[str, tuple[str, tuple[float, float, float]]]


# Linear RGB base colours.
MATERIALS: dict[str, tuple[float, float, float]] = {
    "floor": (0.42, 0.36, 0.30),
    "wall": (0.80, 0.80, 0.76),
    "ceiling": (0.92, 0.92, 0.90),
    "wood": (0.45, 0.28, 0.15),
    "fabric": (0.20, 0.30, 0.50),
    "metal": (0.55, 0.57, 0.60),
    "stone": (0.70, 0.70, 0.68),
    "white": (0.90, 0.90, 0.90),
    "dark": (0.08, 0.08, 0.09),
    "plant": (0.15, 0.45, 0.18),
}


# --- geometry -------------------------------------------------------------------------------


def unit_cube() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions, normals (24 vertices, flat shaded) and uint16 indices of a 1 m cube at the origin."""
    positions, normals, indices = [], [], []
    for axis in range(3):
        for sign in (1.0, -1.0):
            n = [0.0, 0.0, 0.0]
            n[axis] = sign
            u, v = [(a) for a in range(3) if a != axis]
            base = len(positions)
            for du, dv in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)):
                p = [0.0, 0.0, 0.0]
                p[axis] = 0.5 * sign
                p[u], p[v] = du, dv
                positions.append(p)
                normals.append(n)
            # Counter-clockwise seen from outside: flip the winding on faces whose (u, v, n) is left-handed.
            cross = np.cross(np.eye(3)[u], np.eye(3)[v]) @ np.array(n)
            quad = [0, 1, 2, 0, 2, 3] if cross > 0 else [0, 2, 1, 0, 3, 2]
            indices.extend(base + i for i in quad)
    return (
        np.asarray(positions, dtype="<f4"),
        np.asarray(normals, dtype="<f4"),
        np.asarray(indices, dtype="<u2"),
    )


def floor_quad(x0: float, z0: float, x1: float, z1: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A horizontal quad at y = 0 facing +Y."""
    positions = np.asarray([[x0, 0, z1], [x1, 0, z1], [x1, 0, z0], [x0, 0, z0]], dtype="<f4")
    normals = np.asarray([[0, 1, 0]] * 4, dtype="<f4")
    indices = np.asarray([0, 1, 2, 0, 2, 3], dtype="<u2")
    return positions, normals, indices


class GlbBuilder:
    """Accumulates one binary buffer plus the glTF JSON that describes it."""

    def __init__(self, generator: str = "xrbench build_scenes.py"):
        self.buffer = bytearray()
        self.gltf: dict = {
            "asset": {"version": "2.0", "generator": generator},
            "scene": 0,
            "scenes": [{"nodes": []}],
            "nodes": [],
            "meshes": [],
            "materials": [],
            "accessors": [],
            "bufferViews": [],
            "buffers": [],
        }

    def _view(self, data: bytes, target: int) -> int:
        while len(self.buffer) % 4:
            self.buffer.append(0)
        self.gltf["bufferViews"].append(
            {"buffer": 0, "byteOffset": len(self.buffer), "byteLength": len(data), "target": target}
        )
        self.buffer.extend(data)
        return len(self.gltf["bufferViews"]) - 1

    def _accessor(self, array: np.ndarray, target: int, kind: str, component: int) -> int:
        acc: dict = {
            "bufferView": self._view(array.tobytes(), target),
            "componentType": component,
            "count": int(array.shape[0]),
            "type": kind,
        }
        if kind == "VEC3":
            acc["min"] = [round(float(x), 6) for x in array.min(axis=0)]
            acc["max"] = [round(float(x), 6) for x in array.max(axis=0)]
        self.gltf["accessors"].append(acc)
        return len(self.gltf["accessors"]) - 1

    def add_geometry(self, positions: np.ndarray, normals: np.ndarray, indices: np.ndarray) -> dict:
        """Store a geometry once; returns the primitive attributes to reuse across meshes."""
        return {
            "attributes": {
                "POSITION": self._accessor(positions, _ARRAY_BUFFER, "VEC3", _FLOAT),
                "NORMAL": self._accessor(normals, _ARRAY_BUFFER, "VEC3", _FLOAT),
            },
            "indices": self._accessor(indices, _ELEMENT_ARRAY_BUFFER, "SCALAR", _USHORT),
        }

    def add_material(self, name: str, rgb: tuple[float, float, float]) -> int:
        self.gltf["materials"].append(
            {
                "name": name,
                "pbrMetallicRoughness": {
                    "baseColorFactor": [*rgb, 1.0],
                    "metallicFactor": 0.0,
                    "roughnessFactor": 0.9,
                },
            }
        )
        return len(self.gltf["materials"]) - 1

    def add_mesh(self, name: str, geometry: dict, material: int | None) -> int:
        prim = {"attributes": dict(geometry["attributes"]), "indices": geometry["indices"]}
        if material is not None:
            prim["material"] = material
        self.gltf["meshes"].append({"name": name, "primitives": [prim]})
        return len(self.gltf["meshes"]) - 1

    def add_node(self, node: dict, *, root: bool = False) -> int:
        self.gltf["nodes"].append(node)
        index = len(self.gltf["nodes"]) - 1
        if root:
            self.gltf["scenes"][0]["nodes"].append(index)
        return index

    def to_bytes(self) -> bytes:
        while len(self.buffer) % 4:
            self.buffer.append(0)
        gltf = {k: v for k, v in self.gltf.items() if v != []}
        gltf["buffers"] = [{"byteLength": len(self.buffer)}]
        return pack_glb(gltf, bytes(self.buffer))


def pack_glb(gltf: dict, binary: bytes) -> bytes:
    """Serialise glTF JSON plus a BIN chunk as a GLB container."""
    js = json.dumps(gltf, separators=(",", ":")).encode("utf-8")
    js += b" " * (-len(js) % 4)
    binary += b"\x00" * (-len(binary) % 4)
    total = 12 + 8 + len(js) + 8 + len(binary)
    return b"".join(
        [
            struct.pack("<4sII", b"glTF", 2, total),
            struct.pack("<I4s", len(js), b"JSON"),
            js,
            struct.pack("<I4s", len(binary), b"BIN\x00"),
            binary,
        ]
    )


def unpack_glb(data: bytes) -> tuple[dict, bytes]:
    """Split a GLB into its JSON document and BIN chunk."""
    magic, version, total = struct.unpack_from("<4sII", data, 0)
    if magic != b"glTF" or version != 2 or total != len(data):
        raise ValueError("not a glTF 2.0 binary")
    js_len, js_type = struct.unpack_from("<I4s", data, 12)
    if js_type != b"JSON":
        raise ValueError("first GLB chunk is not JSON")
    gltf = json.loads(data[20 : 20 + js_len])
    offset = 20 + js_len
    binary = b""
    if offset < len(data):
        bin_len, _ = struct.unpack_from("<I4s", data, offset)
        binary = data[offset + 8 : offset + 8 + bin_len]
    return gltf, binary


def build_room_glb(spec: SceneSpec) -> bytes:
    """The scene's boxes as a GLB: one shared cube geometry, one mesh per material."""
    glb = GlbBuilder()
    cube = glb.add_geometry(*unit_cube())
    mesh_for: dict[str, int] = {}
    for box in spec.boxes:
        if box.material not in mesh_for:
            mat = glb.add_material(box.material, MATERIALS[box.material])
            mesh_for[box.material] = glb.add_mesh(f"box_{box.material}", cube, mat)
    children = []
    for box in spec.boxes:
        children.append(
            glb.add_node(
                {
                    "name": box.name,
                    "mesh": mesh_for[box.material],
                    "translation": [round(c, 4) for c in box.center],
                    "scale": [round(s, 4) for s in box.size],
                }
            )
        )
    glb.add_node({"name": spec.name, "children": children}, root=True)
    return glb.to_bytes()


def build_navmesh_glb(spec: SceneSpec) -> bytes:
    """The walkable floor rectangle as a one-mesh GLB."""
    glb = GlbBuilder()
    geom = glb.add_geometry(*floor_quad(*spec.walkable))
    mesh = glb.add_mesh("navmesh", geom, None)
    glb.add_node({"name": f"{spec.name}_navmesh", "mesh": mesh}, root=True)
    return glb.to_bytes()


def plane_record(plane: Plane) -> dict:
    """One entry of the planes JSON."""
    nx, _, nz = plane.normal
    if plane.kind == "horizontal":
        q = (0.0, 0.0, 0.0, 1.0)
    else:
        # Rotate +Y onto the horizontal normal: first +90 deg about X (+Y -> +Z), then yaw.
        yaw = math.atan2(nx, nz)
        qx = (math.sin(math.pi / 4), 0.0, 0.0, math.cos(math.pi / 4))
        qy = (0.0, math.sin(yaw / 2), 0.0, math.cos(yaw / 2))
        q = _qmul(qy, qx)
    w, d = plane.extent
    return {
        "type": plane.kind,
        "label": plane.label,
        "area": round(w * d, 4),
        "position": {"x": plane.center[0], "y": plane.center[1], "z": plane.center[2]},
        "quaternion": [round(c, 6) + 0.0 for c in q],
        "polygon": [
            {"x": round(x, 4), "y": round(y, 4)}
            for x, y in ((-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2))
        ],
    }


def _qmul(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float, float]:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


# --- rooms ------------------------------------------------------------------------------------

WALL_H = 2.6
WALL_T = 0.1


def _room_shell(x0: float, z0: float, x1: float, z1: float, door: tuple[str, float, float]) -> list[Box]:
    """Floor, ceiling and four walls (inner faces on the given bounds) with a 2.1 m doorway in one wall.

    `door` is (wall, from, to): the wall ('north', 'south', 'east', 'west') and the doorway's span
    along it (x for north/south, z for east/west).
    """
    cx, cz = (x0 + x1) / 2, (z0 + z1) / 2
    w, d = x1 - x0, z1 - z0
    boxes = [
        Box("floor", (cx, -0.025, cz), (w + 2 * WALL_T, 0.05, d + 2 * WALL_T), "floor"),
        Box("ceiling", (cx, WALL_H + 0.025, cz), (w + 2 * WALL_T, 0.05, d + 2 * WALL_T), "ceiling"),
    ]
    walls = {
        "north": ("x", z0 - WALL_T / 2, x0 - WALL_T, x1 + WALL_T),
        "south": ("x", z1 + WALL_T / 2, x0 - WALL_T, x1 + WALL_T),
        "west": ("z", x0 - WALL_T / 2, z0, z1),
        "east": ("z", x1 + WALL_T / 2, z0, z1),
    }
    door_wall, door_a, door_b = door
    for name, (along, fixed, a, b) in walls.items():
        spans = [(a, b)] if name != door_wall else [(a, door_a), (door_b, b)]
        parts = []
        for i, (s0, s1) in enumerate(spans):
            parts.append((f"wall_{name}" if len(spans) == 1 else f"wall_{name}_{i + 1}", s0, s1, 0.0, WALL_H))
        if name == door_wall:
            parts.append((f"wall_{name}_lintel", door_a, door_b, 2.1, WALL_H))
        for part, s0, s1, y0, y1 in parts:
            mid, length = (s0 + s1) / 2, s1 - s0
            if along == "x":
                boxes.append(Box(part, (mid, (y0 + y1) / 2, fixed), (length, y1 - y0, WALL_T), "wall"))
            else:
                boxes.append(Box(part, (fixed, (y0 + y1) / 2, mid), (WALL_T, y1 - y0, length), "wall"))
    return boxes


def _wall_planes(x0: float, z0: float, x1: float, z1: float) -> list[Plane]:
    cx, cz = (x0 + x1) / 2, (z0 + z1) / 2
    h = WALL_H / 2
    return [
        Plane("wall", "vertical", (cx, h, z0), (x1 - x0, WALL_H), (0.0, 0.0, 1.0)),
        Plane("wall", "vertical", (cx, h, z1), (x1 - x0, WALL_H), (0.0, 0.0, -1.0)),
        Plane("wall", "vertical", (x0, h, cz), (z1 - z0, WALL_H), (1.0, 0.0, 0.0)),
        Plane("wall", "vertical", (x1, h, cz), (z1 - z0, WALL_H), (-1.0, 0.0, 0.0)),
    ]


def _table(name: str, top: tuple[float, float, float], size: tuple[float, float], height: float) -> list[Box]:
    """A table whose top surface centre is `top` (y = height), with four legs."""
    x, _, z = top
    w, d = size
    leg = height - 0.04
    boxes = [Box(f"{name}_top", (x, height - 0.02, z), (w, 0.04, d), "wood")]
    for i, (sx, sz) in enumerate(((-1, -1), (1, -1), (1, 1), (-1, 1))):
        boxes.append(
            Box(
                f"{name}_leg_{i + 1}",
                (x + sx * (w / 2 - 0.05), leg / 2, z + sz * (d / 2 - 0.05)),
                (0.05, leg, 0.05),
                "wood",
            )
        )
    return boxes


def _loc(description: str, *position: float) -> tuple[str, tuple[float, float, float]]:
    return description, (float(position[0]), float(position[1]), float(position[2]))


def _common_locations(floor: tuple[float, float, float]) -> dict[str, tuple[str, tuple[float, float, float]]]:
    return {
        "start": _loc("Default standing viewpoint at eye height (the simulator camera start).", 0, 1.5, 0),
        "floor": _loc("A clear point on the floor in front of the start position.", *floor),
    }


def empty_scene() -> SceneSpec:
    boxes = (Box("floor", (0.0, -0.025, -2.0), (10.0, 0.05, 10.0), "floor"),)
    planes = (Plane("floor", "horizontal", (0.0, 0.0, -2.0), (10.0, 10.0)),)
    locs = _common_locations((0.0, 0.0, -1.0))
    locs["floor-far"] = _loc("A floor point 3 m ahead.", 0, 0, -3)
    return SceneSpec("empty", "Empty (xrbench)", boxes, planes, (-5.0, -7.0, 5.0, 3.0), locs)


def living_room_scene() -> SceneSpec:
    x0, z0, x1, z1 = -3.0, -4.0, 3.0, 2.0
    boxes = _room_shell(x0, z0, x1, z1, ("south", 0.5, 1.5))
    boxes += _table("table", (0.0, 0.75, -1.5), (1.2, 0.8), 0.75)
    boxes += [
        Box("sofa_seat", (0.0, 0.22, -3.45), (2.0, 0.44, 0.8), "fabric"),
        Box("sofa_back", (0.0, 0.62, -3.85), (2.0, 0.8, 0.2), "fabric"),
        Box("sofa_arm_left", (-1.1, 0.32, -3.45), (0.2, 0.64, 0.8), "fabric"),
        Box("sofa_arm_right", (1.1, 0.32, -3.45), (0.2, 0.64, 0.8), "fabric"),
        Box("tv_stand", (2.75, 0.25, -1.5), (0.45, 0.5, 1.6), "wood"),
        Box("tv", (2.9, 1.15, -1.5), (0.06, 0.7, 1.2), "dark"),
        Box("bookshelf", (-2.8, 0.9, -1.0), (0.35, 1.8, 1.0), "wood"),
        Box("plant_pot", (-2.5, 0.2, 1.5), (0.35, 0.4, 0.35), "stone"),
        Box("plant", (-2.5, 0.75, 1.5), (0.5, 0.7, 0.5), "plant"),
    ]
    planes = (
        Plane("floor", "horizontal", ((x0 + x1) / 2, 0.0, (z0 + z1) / 2), (x1 - x0, z1 - z0)),
        Plane("table", "horizontal", (0.0, 0.75, -1.5), (1.2, 0.8)),
        Plane("couch", "horizontal", (0.0, 0.44, -3.45), (2.0, 0.8)),
        *_wall_planes(x0, z0, x1, z1),
    )
    locs = _common_locations((-1.0, 0.0, -0.8))
    locs.update(
        {
            "table": _loc("Centre of the table top.", 0, 0.75, -1.5),
            "table-edge": _loc("Near edge of the table top, within reach from the start.", 0, 0.75, -1.15),
            "wall": _loc("North wall surface at eye height, behind the sofa.", 0, 1.5, -4.0),
            "doorway": _loc("Centre of the doorway in the south wall, on the floor.", 1.0, 0, 2.0),
            "sofa": _loc("Middle of the sofa seat.", 0, 0.44, -3.45),
            "tv": _loc("Centre of the TV screen on the east wall.", 2.87, 1.15, -1.5),
        }
    )
    return SceneSpec("living_room", "Living Room (xrbench)", tuple(boxes), planes, (x0, z0, x1, z1), locs)


def kitchen_scene() -> SceneSpec:
    x0, z0, x1, z1 = -2.5, -3.5, 2.5, 1.5
    boxes = _room_shell(x0, z0, x1, z1, ("east", -0.5, 0.5))
    boxes += [
        Box("counter_base", (-0.4, 0.45, -3.2), (4.2, 0.9, 0.6), "white"),
        Box("counter_top", (-0.4, 0.92, -3.19), (4.2, 0.04, 0.62), "stone"),
        Box("sink", (-0.8, 0.925, -3.2), (0.6, 0.02, 0.4), "metal"),
        Box("upper_cabinets", (-0.4, 1.85, -3.32), (4.2, 0.7, 0.35), "white"),
        Box("island_base", (0.0, 0.45, -1.4), (1.6, 0.9, 0.8), "wood"),
        Box("island_top", (0.0, 0.92, -1.4), (1.7, 0.04, 0.9), "stone"),
        Box("fridge", (2.1, 0.9, -3.1), (0.7, 1.8, 0.7), "metal"),
        Box("stool_1", (-0.4, 0.33, -0.7), (0.35, 0.66, 0.35), "dark"),
        Box("stool_2", (0.4, 0.33, -0.7), (0.35, 0.66, 0.35), "dark"),
    ]
    planes = (
        Plane("floor", "horizontal", ((x0 + x1) / 2, 0.0, (z0 + z1) / 2), (x1 - x0, z1 - z0)),
        Plane("table", "horizontal", (0.0, 0.94, -1.4), (1.7, 0.9)),
        Plane("table", "horizontal", (-0.4, 0.94, -3.19), (4.2, 0.62)),
        *_wall_planes(x0, z0, x1, z1),
    )
    locs = _common_locations((0.0, 0.0, -0.3))
    locs.update(
        {
            "table": _loc("Centre of the kitchen island top (the room's table surface).", 0, 0.94, -1.4),
            "island": _loc("Centre of the kitchen island top.", 0, 0.94, -1.4),
            "counter": _loc("Counter top left of the sink, along the north wall.", -1.6, 0.94, -3.2),
            "sink": _loc("Centre of the sink.", -0.8, 0.935, -3.2),
            "wall": _loc("West wall surface at eye height.", -2.5, 1.5, -1.0),
            "doorway": _loc("Centre of the doorway in the east wall, on the floor.", 2.5, 0, 0.0),
            "fridge": _loc("Front face of the fridge at handle height.", 2.1, 1.1, -2.75),
        }
    )
    return SceneSpec("kitchen", "Kitchen (xrbench)", tuple(boxes), planes, (x0, z0, x1, z1), locs)


def office_scene() -> SceneSpec:
    x0, z0, x1, z1 = -2.5, -3.5, 2.5, 1.5
    boxes = _room_shell(x0, z0, x1, z1, ("south", -1.8, -0.8))
    boxes += _table("desk", (0.0, 0.75, -1.6), (1.4, 0.7), 0.75)
    boxes += [
        Box("monitor", (0.0, 1.1, -1.8), (0.6, 0.36, 0.04), "dark"),
        Box("monitor_stand", (0.0, 0.84, -1.82), (0.06, 0.18, 0.06), "metal"),
        Box("keyboard", (0.0, 0.76, -1.45), (0.44, 0.02, 0.14), "dark"),
        Box("chair_seat", (0.0, 0.45, -0.85), (0.5, 0.06, 0.5), "dark"),
        Box("chair_back", (0.0, 0.78, -0.62), (0.5, 0.6, 0.05), "dark"),
        Box("chair_post", (0.0, 0.21, -0.85), (0.06, 0.42, 0.06), "metal"),
        Box("shelf", (-2.3, 1.0, -2.0), (0.35, 2.0, 1.2), "wood"),
        Box("cabinet", (2.2, 0.4, -3.1), (0.5, 0.8, 0.7), "metal"),
        Box("whiteboard", (1.0, 1.5, -3.48), (1.6, 1.0, 0.03), "white"),
    ]
    planes = (
        Plane("floor", "horizontal", ((x0 + x1) / 2, 0.0, (z0 + z1) / 2), (x1 - x0, z1 - z0)),
        Plane("table", "horizontal", (0.0, 0.75, -1.6), (1.4, 0.7)),
        *_wall_planes(x0, z0, x1, z1),
    )
    locs = _common_locations((1.2, 0.0, -0.8))
    locs.update(
        {
            "table": _loc("Centre of the desk top (the room's table surface).", 0, 0.75, -1.6),
            "desk": _loc("Centre of the desk top.", 0, 0.75, -1.6),
            "monitor": _loc("Centre of the monitor screen.", 0, 1.1, -1.78),
            "chair": _loc("Middle of the chair seat.", 0, 0.48, -0.85),
            "wall": _loc("North wall surface at eye height, left of the whiteboard.", -1.0, 1.5, -3.5),
            "whiteboard": _loc("Centre of the whiteboard.", 1.0, 1.5, -3.46),
            "doorway": _loc("Centre of the doorway in the south wall, on the floor.", -1.3, 0, 1.5),
        }
    )
    return SceneSpec("office", "Office (xrbench)", tuple(boxes), planes, (x0, z0, x1, z1), locs)


SCENE_BUILDERS = (empty_scene, living_room_scene, kitchen_scene, office_scene)


def manifest_for(spec: SceneSpec) -> dict:
    """The scene's `SimulatorSceneManifest` (paths relative to the manifest file)."""
    return {
        "name": spec.title,
        "scenePath": f"{spec.name}.glb",
        "scenePlanesPath": f"{spec.name}_planes.json",
        "navMeshPath": f"{spec.name}_navmesh.glb",
        "locations": {
            name: {"description": desc, "position": [round(c, 4) + 0.0 for c in pos]}
            for name, (desc, pos) in spec.locations.items()
        },
        "objects": [],
    }


def build_scene(spec: SceneSpec, out_dir: Path) -> dict[str, int]:
    """Write the four files of one scene into `out_dir/<name>/`; returns file sizes."""
    d = out_dir / spec.name
    d.mkdir(parents=True, exist_ok=True)
    files = {
        f"{spec.name}.glb": build_room_glb(spec),
        f"{spec.name}_navmesh.glb": build_navmesh_glb(spec),
        f"{spec.name}_planes.json": (
            json.dumps({"planes": [plane_record(p) for p in spec.planes]}, indent=2) + "\n"
        ).encode(),
        "manifest.json": (json.dumps(manifest_for(spec), indent=2) + "\n").encode(),
    }
    for name, data in files.items():
        (d / name).write_bytes(data)
    return {name: len(data) for name, data in files.items()}


def main(argv: list[str] | None = None) -> int:
    """Build every scene into the directory given as the only argument (default: next to this file)."""
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else HERE
    for builder in SCENE_BUILDERS:
        spec = builder()
        sizes = build_scene(spec, out)
        print(f"{spec.name}: " + ", ".join(f"{k} {v} B" for k, v in sizes.items()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
