"""Browser checks: smoke tests of a good and a broken app, benign patterns; runtime tests of a task;
`check` with its template smoke tests; a sweep with --smoke --runtime. Browser runs are kept few."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from llm_fakes import FakeServer
from typer.testing import CliRunner

from xrbench.cli.guidance_cmd import check_result
from xrbench.cli.main import app
from xrbench.guidance.runner import Layout
from xrbench.guidance.runtime import run_runtime_tests
from xrbench.guidance.smoke import classify, is_benign, smoke_test
from xrbench.guidance.task import TASKS_DIR, TEMPLATES_DIR
from xrbench.xrtest import close_shared_browser


@pytest.fixture(scope="module", autouse=True)
def _one_browser() -> Iterator[None]:
    yield
    close_shared_browser()


def app_with(tmp_path: Path, init_body: str) -> Path:
    ws = tmp_path / "app"
    shutil.copytree(TEMPLATES_DIR / "basic", ws)
    main = (ws / "main.js").read_text()
    (ws / "main.js").write_text(main.replace("  init() {\n", "  init() {\n" + init_body, 1))
    return ws


def test_benign_patterns_and_classification():
    assert is_benign("The AudioContext was not allowed to start. It must be resumed after a user gesture on the page.")
    assert is_benign("Failed to load resource: the server responded with a status of 404 (Not Found)")
    assert not is_benign("TypeError: xb.SpatialPanel is not a constructor")
    out = classify({"console_errors": ["favicon missing", "real problem"], "failed_requests": []})
    assert out["smoke_ok"] == 0.0 and out["console_errors"] == ["real problem"]
    assert out["benign_ignored"] == ["favicon missing"]


@pytest.mark.xr
def test_smoke_good_app_with_a_benign_message(tmp_path: Path):
    ws = app_with(tmp_path, "    console.error('The AudioContext was not allowed to start: needs a user gesture');\n")
    res = smoke_test(ws)
    assert res["smoke_ok"] == 1.0, res
    assert res["benign_ignored"] and res["page_errors"] == res["console_errors"] == res["failed_requests"] == []


@pytest.mark.xr
def test_smoke_loads_the_app_as_a_users_browser_would(tmp_path: Path):
    # The harness imports XR Blocks itself and runs the page with ?debug=1, where XR Blocks puts
    # `window.xb` on the page: an app that never imports it must still fail, as in a browser.
    ws = app_with(tmp_path, "")
    main = ws / "main.js"
    main.write_text(main.read_text().replace("import * as xb from 'xrblocks';\n", ""))
    res = smoke_test(ws)
    assert res["smoke_ok"] == 0.0, res
    assert any("xb is not defined" in e for e in res["page_errors"]), res


@pytest.mark.xr
def test_smoke_broken_app(tmp_path: Path):
    res = smoke_test(TEMPLATES_DIR / "legacy_ui")
    assert res["smoke_ok"] == 0.0
    assert "threw before calling xb.init" in res["init_error"]
    assert any("enableUI is not a function" in e for e in res["page_errors"])


@pytest.mark.xr
def test_smoke_app_with_errors_and_a_remote_request(tmp_path: Path):
    ws = app_with(
        tmp_path,
        "    console.error('boom');\n    fetch('https://cdn.example.com/data.json').catch(() => {});\n",
    )
    res = smoke_test(ws)
    assert res["smoke_ok"] == 0.0
    assert "boom" in res["console_errors"]
    assert any("cdn.example.com/data.json" in f for f in res["failed_requests"])


@pytest.mark.xr
@pytest.mark.slow
def test_runtime_tests_pass_the_reference_and_fail_the_template(tmp_path: Path):
    task = TASKS_DIR / "select-cube-color"
    good = tmp_path / "good"
    shutil.copytree(TEMPLATES_DIR / "basic", good)
    shutil.copyfile(task / "reference" / "main.js", good / "main.js")
    res = run_runtime_tests(task / "tests", good)
    assert res["runtime_pass"] == 1.0, res
    assert res["passed"] == res["total"] == 4  # 2 tests x 2 dominant hands
    bad = run_runtime_tests(task / "tests", TEMPLATES_DIR / "basic")  # the untouched template: no tagged cube
    assert bad["runtime_pass"] == 0.0 and bad["passed"] == 0


def test_runtime_tests_that_do_not_import_leave_the_app_unjudged(tmp_path: Path):
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_broken.py").write_text("import no_such_module\n\ndef test_x(xr):\n    pass\n")
    res = run_runtime_tests(tests, TEMPLATES_DIR / "basic")
    assert res["runtime_pass"] is None
    assert res["runtime_error"].startswith("collection failed: ") and "test_broken.py" in res["runtime_error"]


def test_runtime_tests_without_an_xr_test_leave_the_app_unjudged(tmp_path: Path):
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_plain.py").write_text("def test_x():\n    assert True\n")
    res = run_runtime_tests(tests, TEMPLATES_DIR / "basic")
    assert res["runtime_pass"] is None and res["runtime_error"].startswith("no_tests_ran: no XR test ran")


@pytest.mark.xr
@pytest.mark.slow
def test_check_smoke_tests_every_template_and_reference():
    result = check_result(smoke=True, references_smoke=True, references_runtime=True)
    assert result["ok"], result["problems"]
    assert all(row["reference_smoke_ok"] == 1.0 for row in result["tasks"])
    passing = [row["id"] for row in result["tasks"] if row.get("reference_runtime_pass") == 1.0]
    assert passing == ["lipsync-talking-head", "netblocks-presence", "select-cube-color", "virtualkeyboard-notes"]
    assert result["templates"]["legacy_ui"]["expected_broken"] and result["templates"]["legacy_ui"]["smoke_ok"] == 0.0
    assert all(t["smoke_ok"] == 1.0 for n, t in result["templates"].items() if n != "legacy_ui")


@pytest.mark.xr
@pytest.mark.slow
def test_sweep_with_smoke_and_runtime(fake_server: FakeServer, tmp_path: Path, two_tasks: Path):
    out = tmp_path / "run"
    r = CliRunner().invoke(
        app,
        [
            *["guidance", "run", "--tasks", "select-cube-color", "--modes", "with-skill", "--smoke", "--runtime"],
            *["--tasks-root", str(two_tasks), "--base-url", fake_server.url + "/v1", "--model", "m", "--out", str(out)],
        ],
    )
    assert r.exit_code == 0, r.output
    cell = json.loads(Layout(out).result_path("m", "with-skill", "select-cube-color").read_text())
    assert cell["smoke_ok"] == 1.0 and cell["runtime_pass"] == 1.0
    assert cell["smoke"]["page_errors"] == [] and len(cell["runtime"]["tests"]) == 4
