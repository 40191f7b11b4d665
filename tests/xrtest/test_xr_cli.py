"""`xrbench xr open`: load an app, print what happened, save a screenshot."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from xrbench.cli.xr_cmd import app

pytestmark = pytest.mark.xr


def test_open_prints_status_and_saves_a_screenshot(tmp_path, example_app):
    shot = tmp_path / "shots" / "app.png"
    result = CliRunner().invoke(
        app,
        [
            "open",
            str(example_app),
            "--scene",
            "office",
            "--screenshot",
            str(shot),
            "--viewport",
            "320x180",
            "--frames",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "ready" in out and "environment='Office (xrbench)'" in out
    assert "lamp: (-0.300, 1.200, -1.000)" in out
    assert "failed requests: none" in out and "page errors: none" in out
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_open_reports_init_failure(test_apps):
    result = CliRunner().invoke(app, ["open", str(test_apps / "init_throws"), "--frames", "0"])
    assert result.exit_code == 1
    assert "init failed" in result.output and "boom in Broken.init" in result.output


def test_open_rejects_unknown_scene(example_app):
    result = CliRunner().invoke(app, ["open", str(example_app), "--scene", "castle"])
    assert result.exit_code == 2
    assert "unknown scene 'castle'" in result.output
