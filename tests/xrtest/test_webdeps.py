"""Locating and verifying the pinned node_modules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from xrbench.xrtest.errors import WebDepsError
from xrbench.xrtest.webdeps import REQUIRED_VERSIONS, find_web_deps


def fake_web_dir(root: Path, versions: dict[str, str]) -> Path:
    (root / "node_modules").mkdir(parents=True)
    (root / "package.json").write_text("{}")
    for name, version in versions.items():
        d = root / "node_modules" / name
        d.mkdir(parents=True)
        (d / "package.json").write_text(json.dumps({"name": name, "version": version}))
    return root


def test_finds_the_repository_node_modules(monkeypatch):
    monkeypatch.delenv("XRBENCH_WEB_DIR", raising=False)
    deps = find_web_deps()
    assert deps.node_modules.name == "node_modules"
    assert deps.versions["xrblocks"] == "0.21.1" and deps.versions["three"] == "0.184.0"
    assert deps.has("@webxr-input-profiles/assets")
    assert deps.path("three", "build", "three.module.js").is_file()


def test_env_var_points_elsewhere(tmp_path, monkeypatch):
    fake_web_dir(tmp_path, REQUIRED_VERSIONS)
    monkeypatch.setenv("XRBENCH_WEB_DIR", str(tmp_path))
    assert find_web_deps().root == tmp_path.resolve()
    monkeypatch.setenv("XRBENCH_WEB_DIR", str(tmp_path / "node_modules"))
    assert find_web_deps().root == tmp_path.resolve()


def test_wrong_version_is_named(tmp_path, monkeypatch):
    fake_web_dir(tmp_path, {"xrblocks": "0.17.0", "three": "0.184.0"})
    monkeypatch.setenv("XRBENCH_WEB_DIR", str(tmp_path))
    with pytest.raises(WebDepsError, match=r"xrblocks 0\.17\.0 is installed .* but 0\.21\.1 is required"):
        find_web_deps()


def test_missing_package_is_named(tmp_path, monkeypatch):
    fake_web_dir(tmp_path, {"xrblocks": "0.21.1"})
    monkeypatch.setenv("XRBENCH_WEB_DIR", str(tmp_path))
    with pytest.raises(WebDepsError, match=r"three is not installed"):
        find_web_deps()


def test_missing_node_modules(tmp_path, monkeypatch):
    monkeypatch.setenv("XRBENCH_WEB_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(WebDepsError, match="npm ci"):
        find_web_deps()
