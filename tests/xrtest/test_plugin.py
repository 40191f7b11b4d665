"""The pytest plugin (`xr` fixture, variants, timeouts, recordings, infrastructure errors).

Suites under plugin_suites/ run in pytest subprocesses against examples/tap_to_light (or a broken
app, or a browser that does not start); the rest are quick in-process checks.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest

from xrbench.xrtest.browser import video_supported
from xrbench.xrtest.pytest_plugin import (
    NO_XR_TESTS_LINE,
    XRTimeoutError,
    XRVariant,
    _State,
    _wall_clock_limit,
    variants_for,
)
from xrbench.xrtest.runner import run_xr_tests

from .conftest import EXAMPLE_APP, TEST_APPS

pytest_plugins = ["pytester"]

SUITES = Path(__file__).resolve().parent / "plugin_suites"
PLUGIN = "xrbench.xrtest.pytest_plugin"
WEBM_MAGIC = b"\x1a\x45\xdf\xa3"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run_suite(tmp_path: Path, *files: str, app: Path = EXAMPLE_APP, args: tuple[str, ...] = (), env=None):
    """Copy suite files into tmp_path and run pytest there; returns (process, plugin report)."""
    for f in files:
        shutil.copy(SUITES / f, tmp_path / f)
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        *files,
        "-p",
        PLUGIN,
        f"--xr-app={app}",
        "--xr-report=report.json",
        "--junitxml=junit.xml",
        "-p",
        "no:cacheprovider",
        "-q",
        "-rA",
        *args,
    ]
    proc = subprocess.run(
        cmd, cwd=tmp_path, capture_output=True, text=True, timeout=180, env={**os.environ, **(env or {})}
    )
    report_file = tmp_path / "report.json"
    report = json.loads(report_file.read_text()) if report_file.is_file() else None
    return proc, report


# --- in-process ----------------------------------------------------------------------------------


def _node(**markers):
    def get_closest_marker(name):
        return SimpleNamespace(args=markers[name], kwargs={}) if name in markers else None

    return SimpleNamespace(nodeid="t.py::test_x", get_closest_marker=get_closest_marker)


def _state(scenes=()):
    return _State(app=None, scenes=scenes, record=False, trace=False, artifacts=Path("a"), timeout_s=0, report=None)


def test_variants_from_markers_and_options():
    assert [v.id for v in variants_for(_node(), _state())] == ["right", "left"]
    both = variants_for(_node(xr_scenes=("empty", "kitchen")), _state(("office",)))
    assert [v.id for v in both] == ["right-empty", "right-kitchen", "left-empty", "left-kitchen"]
    assert [v.id for v in variants_for(_node(xr_hands=("left",)), _state(("office",)))] == ["left-office"]
    assert variants_for(_node(xr_hands=["right"]), _state()) == [XRVariant("right", None)]
    with pytest.raises(ValueError, match="unknown scene 'castle'"):
        variants_for(_node(xr_scenes=("castle",)), _state())
    with pytest.raises(ValueError, match="a hand is 'right' or 'left'"):
        variants_for(_node(xr_hands=("middle",)), _state())


def test_wall_clock_limit_stops_plain_python():
    t0 = time.monotonic()
    with pytest.raises(XRTimeoutError, match="too slow"), _wall_clock_limit(0.2, lambda: XRTimeoutError("too slow")):
        time.sleep(10)
    assert time.monotonic() - t0 < 2
    time.sleep(0.3)  # the timer is disarmed: nothing fires after the block
    # An alarm someone else set (pytest-timeout's signal method) survives the block.
    fired = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(1))
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.4)
        with _wall_clock_limit(5, lambda: XRTimeoutError("never")):
            time.sleep(0.1)
        time.sleep(0.6)
        assert fired == [1]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_collection_ids_markers_and_options(pytester, monkeypatch):
    pytester.makepyfile(
        suite_ids=(
            "import pytest\n\n\n"
            "def test_default(xr):\n    pass\n\n\n"
            "@pytest.mark.xr_hands('left')\n@pytest.mark.xr_scenes('empty', 'kitchen')\n"
            "def test_marked(xr):\n    pass\n\n\n"
            "def test_plain():\n    pass\n"
        ),
        suite_bad="import pytest\n\n\n@pytest.mark.xr_scenes('castle')\ndef test_x(xr):\n    pass\n",
    )
    monkeypatch.setenv("XRBENCH_XR_APP", str(EXAMPLE_APP))
    result = pytester.runpytest_inprocess("--co", "-q", "--xr-scenes=office", "suite_ids.py")
    assert [ln for ln in result.outlines if "::" in ln] == [
        "suite_ids.py::test_default[right-office]",
        "suite_ids.py::test_default[left-office]",
        "suite_ids.py::test_marked[left-empty]",
        "suite_ids.py::test_marked[left-kitchen]",
        "suite_ids.py::test_plain",
    ], result.outlines
    assert NO_XR_TESTS_LINE not in result.stdout.str()  # collecting only is not a run
    # Every test using `xr` carries the `xr` marker.
    result = pytester.runpytest_inprocess("--co", "-q", "-m", "not xr", "suite_ids.py")
    assert [ln for ln in result.outlines if "::" in ln] == ["suite_ids.py::test_plain"]
    result = pytester.runpytest_inprocess("--co", "suite_bad.py")
    assert result.ret != 0 and "unknown scene 'castle'" in result.stdout.str()
    # The header names the app (from $XRBENCH_XR_APP) and how the browser is confined.
    assert f"xrtest: app {EXAMPLE_APP}" in result.stdout.str() and "xrtest: browser sandbox" in result.stdout.str()


# --- browser runs ------------------------------------------------------------------------------------


@pytest.mark.xr
def test_variants_recordings_and_timeout(tmp_path):
    proc, report = run_suite(tmp_path, "suite_lamp.py")
    out = proc.stdout + proc.stderr
    assert report is not None, out
    got = {t["id"]: t for t in report["tests"]}
    starts_off = [f"suite_lamp.py::test_lamp_starts_off[{v}]" for v in ("right-empty", "right-kitchen")]
    starts_off += [f"suite_lamp.py::test_lamp_starts_off[{v}]" for v in ("left-empty", "left-kitchen")]
    assert sorted(got) == sorted(
        [*starts_off, "suite_lamp.py::test_lamp_is_on[right]", "suite_lamp.py::test_hangs_in_the_page[left]"]
    ), out
    for node_id in starts_off:  # a test marked with two scenes runs 4 times: 2 hands x 2 scenes
        assert got[node_id]["outcome"] == "passed", (node_id, got[node_id]["message"], out)
        assert got[node_id]["xr"] and "artifacts" not in got[node_id]
    assert (got[starts_off[3]]["hand"], got[starts_off[3]]["scene"]) == ("left", "kitchen")

    failed = got["suite_lamp.py::test_lamp_is_on[right]"]
    assert failed["outcome"] == "failed" and "the lamp is off" in failed["message"]
    hung = got["suite_lamp.py::test_hangs_in_the_page[left]"]
    assert hung["outcome"] == "failed" and hung["timed_out"]
    assert "xr_timeout: the test ran longer than 2 s" in hung["message"]
    assert hung["duration"] < 30  # stopped at 2 s (not the default 300 s), then its session was closed
    assert proc.returncode == 1 and report["xr_tests_ran"] == 6
    assert "xrtest: 6 XR test run(s)" in out and "xrtest artifacts" in out

    # Only failed tests keep their recordings.
    artifacts = tmp_path / ".xrtest-artifacts"
    kept = sorted(p.name for p in artifacts.iterdir())
    assert kept == ["suite_lamp.py--test_hangs_in_the_page-left", "suite_lamp.py--test_lamp_is_on-right"], kept
    lamp = artifacts / "suite_lamp.py--test_lamp_is_on-right"
    assert failed["artifacts"] == str(lamp)
    assert sorted(p.name for p in lamp.glob("*.png")) == ["01-before-check.png", "02-end.png"]
    assert (lamp / "02-end.png").read_bytes()[:8] == PNG_MAGIC
    log = json.loads((lamp / "log.json").read_text())
    assert log["page_errors"] == [] and log["app"].endswith("tap_to_light")
    hung_dir = artifacts / "suite_lamp.py--test_hangs_in_the_page-left"
    assert not list(hung_dir.glob("*.png"))  # a stuck page is not screenshotted
    for folder in (lamp, hung_dir):
        if video_supported():
            assert (folder / "video.webm").read_bytes()[:4] == WEBM_MAGIC
        else:
            assert "no video" in (folder / "log.json").read_text()

    cases = ET.parse(tmp_path / "junit.xml").getroot().iter("testcase")
    assert sum(1 for _ in cases) == 6


@pytest.mark.xr
def test_no_recording_keeps_nothing_and_the_same_outcomes(tmp_path):
    # What `genxr validate` runs with: its recordings would land in a folder it deletes.
    proc, report = run_suite(tmp_path, "suite_lamp.py", args=("--xr-no-recording", "-k", "not hangs"))
    got = {t["id"]: t["outcome"] for t in report["tests"]}
    assert got["suite_lamp.py::test_lamp_is_on[right]"] == "failed", proc.stdout
    assert sorted(set(got.values())) == ["failed", "passed"] and len(got) == 5
    artifacts = tmp_path / ".xrtest-artifacts"
    assert not artifacts.exists() or not any(artifacts.iterdir()), list(artifacts.iterdir())
    assert all("artifacts" not in t for t in report["tests"])
    proc, _ = run_suite(tmp_path, "suite_lamp.py", args=("--xr-no-recording", "--xr-record"))
    assert proc.returncode != 0 and "--xr-no-recording contradicts --xr-record" in proc.stdout + proc.stderr


@pytest.mark.xr
def test_full_frames_option(tmp_path):
    proc, report = run_suite(tmp_path, "suite_draw.py", args=("--xr-full-frames",))
    assert proc.returncode == 0 and report["xr_tests_ran"] == 1, proc.stdout + proc.stderr


@pytest.mark.xr
def test_app_that_does_not_initialise_is_an_error(tmp_path):
    shutil.copy(SUITES / "suite_smoke.py", tmp_path)
    result = run_xr_tests(TEST_APPS / "init_throws", ["suite_smoke.py"], cwd=tmp_path, timeout_s=120)
    assert result.infra_class == "app_init_failed", (result.infra_error, result.output_tail)
    (test,) = result.tests
    assert test.outcome == "error" and "AppInitError" in test.message and "boom in Broken.init" in test.message
    assert not result.passed
    # A failed init keeps its recording (the page log says what went wrong).
    assert test.artifacts and "boom" in (Path(test.artifacts) / "log.json").read_text()


def test_browser_that_does_not_start_is_an_error(tmp_path):
    fake = tmp_path / "bin" / "chromium"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 'no display, no luck' >&2\nexit 3\n")
    fake.chmod(0o755)
    proc, report = run_suite(tmp_path, "suite_smoke.py", env={"XRBENCH_CHROMIUM": str(fake)})
    (test,) = report["tests"]
    assert test["outcome"] == "error" and "BrowserLaunchError" in test["message"], proc.stdout
    assert report["xr_tests_ran"] == 0 and NO_XR_TESTS_LINE in proc.stdout


def test_zero_tests_ran_is_reported(tmp_path):
    shutil.copy(SUITES / "suite_no_xr.py", tmp_path)
    result = run_xr_tests(EXAMPLE_APP, ["suite_no_xr.py"], cwd=tmp_path, timeout_s=60)
    # pytest itself is content (a test passed), the plugin says so, the runner classifies it.
    assert result.exit_code == 0 and result.xr_tests_ran == 0 and NO_XR_TESTS_LINE in result.output_tail
    assert result.infra_class == "no_tests_ran" and "no XR test ran" in result.infra_error and not result.passed
    result = run_xr_tests(EXAMPLE_APP, ["suite_no_xr.py"], cwd=tmp_path, timeout_s=60, pytest_args=["-k", "nothing"])
    assert result.exit_code == 5 and result.infra_error == "no_tests_ran: pytest collected no tests"
