"""Bundled scenes: deterministic, small, valid glTF, and in the formats the XR Blocks simulator reads."""

from __future__ import annotations

import json
import re
import struct

import pytest

from xrbench.xrtest.errors import SceneError
from xrbench.xrtest.scenes import (
    DEFAULT_ENVIRONMENTS,
    SCENES_DIR,
    default_environment_asset,
    get_scene,
    glb_with_offset,
    list_scenes,
)
from xrbench.xrtest.scenes.build_scenes import main as build_main
from xrbench.xrtest.scenes.build_scenes import unpack_glb
from xrbench.xrtest.webdeps import find_web_deps

SCENES = ["empty", "kitchen", "living_room", "office"]
# SimulatorEnvironmentManifest.ts (xrblocks 0.21.1) rejects any other key.
MANIFEST_KEYS = {
    "name", "scenePath", "videoPath", "scenePlanesPath", "navMeshPath",
    "position", "quaternion", "scale", "locations", "objects",
}  # fmt: skip


def test_the_four_scenes_exist():
    assert set(SCENES) <= set(list_scenes())


def test_build_is_deterministic_and_matches_the_committed_files(tmp_path):
    build_main([str(tmp_path / "a")])
    build_main([str(tmp_path / "b")])
    for name in SCENES:
        for f in (tmp_path / "a" / name).iterdir():
            assert f.read_bytes() == (tmp_path / "b" / name / f.name).read_bytes(), f
            assert f.read_bytes() == (SCENES_DIR / name / f.name).read_bytes(), (
                f"{f.name} is stale: rerun build_scenes.py"
            )


@pytest.mark.parametrize("name", SCENES)
def test_glb_is_valid_and_small(name):
    scene = get_scene(name)
    for kind in ("glb", "navmesh"):
        data = scene.file(kind).read_bytes()
        assert len(data) < 200_000
        gltf, binary = unpack_glb(data)
        assert gltf["asset"]["version"] == "2.0"
        assert gltf["buffers"][0]["byteLength"] == len(binary)
        for view in gltf["bufferViews"]:
            assert view["byteOffset"] + view["byteLength"] <= len(binary)
        for acc in gltf["accessors"]:
            if acc["type"] == "VEC3":
                assert "min" in acc and "max" in acc
        assert len(data) % 4 == 0 and struct.unpack_from("<I", data, 8)[0] == len(data)


@pytest.mark.parametrize("name", SCENES)
def test_manifest_and_planes_follow_the_sdk_formats(name):
    scene = get_scene(name)
    m = scene.manifest
    assert set(m) <= MANIFEST_KEYS
    for key in ("scenePath", "scenePlanesPath", "navMeshPath"):
        assert (scene.dir / m[key]).is_file()
    assert {"start", "floor"} <= set(m["locations"])
    for loc in m["locations"].values():
        assert set(loc) == {"description", "position"} and loc["description"]
        assert len(loc["position"]) == 3
    planes = scene.planes()
    assert planes == json.loads(scene.file("planes").read_text())["planes"]
    assert any(p["label"] == "floor" for p in planes)
    for p in planes:
        assert p["type"] in ("horizontal", "vertical")
        assert set(p["position"]) == {"x", "y", "z"} and len(p["quaternion"]) == 4
        assert len(p["polygon"]) >= 3 and all(set(pt) == {"x", "y"} for pt in p["polygon"])
        assert p["area"] > 0


@pytest.mark.parametrize("name", ["living_room", "kitchen", "office"])
def test_rooms_have_the_named_locations(name):
    locs = get_scene(name).locations
    assert {"table", "wall", "floor", "doorway", "start"} <= set(locs)
    assert locs["floor"][1] == 0.0
    assert 0.6 < locs["table"][1] < 1.1


def test_unknown_scene_lists_the_available_ones():
    with pytest.raises(SceneError, match=r"available: .*living_room"):
        get_scene("castle")
    with pytest.raises(SceneError, match="no location"):
        get_scene("office").location("garden")


def test_default_environment_offsets_match_the_sdk():
    """The offsets the harness undoes are the `position`s of XR Blocks' default manifests."""
    src = find_web_deps().path("xrblocks", "src", "simulator", "DefaultManifests.ts").read_text()
    found = {}
    for block in re.finditer(r"scenePath: `\$\{SIMULATOR_SCENES_PATH\}(\w+)\.glb`.*?position: \[([^\]]+)\]", src, re.S):
        found[block[1]] = tuple(float(x) for x in block[2].split(","))
    assert set(found) == set(DEFAULT_ENVIRONMENTS)
    for base, (_, position) in DEFAULT_ENVIRONMENTS.items():
        assert found[base] == position


def test_default_environment_stand_ins():
    glb, ctype = default_environment_asset("XREmulatorsceneV5_livingRoom.glb")
    assert ctype == "model/gltf-binary"
    gltf, _ = unpack_glb(glb)
    root = gltf["nodes"][gltf["scenes"][0]["nodes"][0]]
    assert root["name"] == "xrtest_offset" and root["translation"] == [1.6, -0.3, -0.0]
    planes, ctype = default_environment_asset("XREmulatorsceneV5_office_planes.json")
    floor = json.loads(planes)["planes"][0]
    assert ctype == "application/json" and floor["position"]["y"] == pytest.approx(-0.3)
    assert default_environment_asset("xr_blocks_simulator_hands.webm") is None
    # Forcing a scene replaces every default room.
    forced, _ = default_environment_asset("XREmulatorsceneV5_livingRoom.glb", "kitchen")
    assert any(n.get("name") == "island_top" for n in unpack_glb(forced)[0]["nodes"])


def test_glb_with_zero_offset_is_unchanged():
    data = get_scene("empty").file("glb").read_bytes()
    assert glb_with_offset(data, (0.0, 0.0, 0.0)) is data
