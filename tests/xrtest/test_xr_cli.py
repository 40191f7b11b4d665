"""`xrbench xr open` (load an app, print what happened) and `xrbench xr test` (run XR tests on an app)."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xrbench.cli.xr_cmd import app
from xrbench.xrtest.runner import TestOutcome, classify

SUITES = Path(__file__).resolve().parent / "plugin_suites"

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


# --- `xrbench xr test` and its runner ----------------------------------------------------------------


def test_xr_test_writes_junit_and_json_and_records_with_record(tmp_path, example_app, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SUITES / "suite_smoke.py", tmp_path)
    junit, out = tmp_path / "out" / "junit.xml", tmp_path / "out" / "result.json"
    art = tmp_path / "art"
    args = ["test", str(example_app), str(tmp_path / "suite_smoke.py"), "--junit", str(junit), "--json", str(out)]
    result = CliRunner().invoke(app, [*args, "--record", "--artifacts", str(art)])
    assert result.exit_code == 0, result.output
    assert "passed   suite_smoke.py::test_lamp_exists[right]" in result.output
    data = json.loads(out.read_text())
    assert data["passed"] is True and data["infra_error"] is None and data["app"] == str(example_app)
    (test,) = data["tests"]
    assert test["id"] == "suite_smoke.py::test_lamp_exists[right]" and test["outcome"] == "passed"
    assert test["duration"] > 0 and test["message"] == ""
    assert data["summary"]["passed"] == 1 and data["summary"]["total"] == 1 and data["summary"]["xr_tests_ran"] == 1
    # --record keeps the recording of a passing test too.
    assert test["artifacts"] == str(art / "suite_smoke.py--test_lamp_exists-right")
    assert (art / "suite_smoke.py--test_lamp_exists-right" / "01-end.png").is_file()
    cases = list(ET.parse(junit).getroot().iter("testcase"))
    assert [c.get("name") for c in cases] == ["test_lamp_exists[right]"]


def test_xr_test_infra_error_exits_3(tmp_path, example_app, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(SUITES / "suite_no_xr.py", tmp_path)
    out = tmp_path / "result.json"
    result = CliRunner().invoke(app, ["test", str(example_app), str(tmp_path / "suite_no_xr.py"), "--json", str(out)])
    assert result.exit_code == 3, result.output
    assert "infrastructure error" in result.output and "no XR test ran" in result.output
    data = json.loads(out.read_text())
    assert data["passed"] is False and data["infra_class"] == "no_tests_ran"


def _t(outcome: str, message: str = "", xr: bool = True) -> TestOutcome:
    return TestOutcome(id="t.py::test_x[right]", outcome=outcome, message=message, xr=xr)


@pytest.mark.parametrize(
    ("tests", "kwargs", "expected"),
    [
        ([_t("passed")], {}, None),
        ([_t("failed", "AssertionError: off")], {"exit_code": 1}, None),
        ([_t("passed")], {"timed_out": True, "exit_code": None}, "timeout"),
        ([], {"exit_code": 4}, "runner_error"),
        ([_t("passed")], {"report_found": False}, "runner_error"),
        (
            [_t("error", 'failed on setup with "xrbench.xrtest.errors.BrowserLaunchError: no"')],
            {},
            "browser_launch_failed",
        ),
        ([_t("error", "xrbench.xrtest.errors.AppInitError: boom")], {"exit_code": 1}, "app_init_failed"),
        ([], {"exit_code": 5}, "no_tests_ran"),
        ([_t("skipped")], {}, "no_tests_ran"),
        ([_t("passed", xr=False)], {}, "no_tests_ran"),
    ],
)
def test_classify(tests, kwargs, expected):
    args = {"exit_code": 0, "timed_out": False, "report_found": True, **kwargs}
    infra = classify(tests, **args)
    assert (infra.partition(":")[0] if infra else None) == expected, infra
