"""`xrbench setup`: the pinned web dependencies for a pip-installed toolkit."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from xrbench.cli.main import app
from xrbench.xrtest.webdeps import PACKAGED, REQUIRED_VERSIONS


def test_packaged_lock_pins_the_required_versions():
    lock = json.loads((PACKAGED / "package-lock.json").read_text())
    for name, version in REQUIRED_VERSIONS.items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == version
    assert all(
        "resolved" not in p or not p["resolved"].startswith("http") or "registry" in p["resolved"]
        for p in lock["packages"].values()
    )


def test_check_reports_deps_and_browser():
    r = CliRunner().invoke(app, ["setup", "--check"])
    assert r.exit_code == 0, r.output
    assert "xrblocks 0.21.1" in r.output and "three 0.184.0" in r.output
    assert "browser: /" in r.output


@pytest.mark.slow
def test_setup_installs_into_a_cache_dir(tmp_path):
    r = CliRunner().invoke(app, ["setup", "--web-dir", str(tmp_path / "web")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "web" / "node_modules" / "xrblocks" / "package.json").is_file()
