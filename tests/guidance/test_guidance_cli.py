"""`xrbench guidance` commands: bad input is one line (exit 2), nothing is generated before every
selection is valid, no provider means "skipped", and `score`/`check` print what they promise."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import BASIC_SPEC, make_task
from llm_fakes import FakeServer
from typer.testing import CliRunner

from xrbench.cli.guidance_cmd import check_result
from xrbench.cli.main import app
from xrbench.guidance.task import TASKS_DIR

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, ["guidance", *args])


def error_lines(result) -> list[str]:
    return [ln for ln in result.output.splitlines() if ln.startswith("error: ")]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--modes", "with-skill,nope"], "--modes: unsupported mode 'nope'"),
        (["--modes", "with-skill,with-skill"], "--modes: a mode is listed twice"),
        (["--modes", "with-skill,with-baseline"], "--baseline-file is required"),
        (["--baseline-file", "x.txt"], "--baseline-file is only accepted"),
        (["--modes", "with-baseline", "--baseline-file", "/nonexistent/p.txt"], "baseline file does not exist"),
        (["--tasks", "nope"], "--tasks: nope: no such task"),
        (["--tasks", "../etc"], "invalid task id"),
    ],
)
def test_run_rejects_bad_selections_before_any_call(fake_server: FakeServer, tmp_path: Path, args, message):
    r = invoke("run", *args, "--base-url", fake_server.url + "/v1", "--model", "m", "--out", str(tmp_path / "o"))
    assert r.exit_code == 2, r.output
    assert any(message in ln for ln in error_lines(r)), r.output
    assert "Traceback" not in r.output
    assert fake_server.requests == []  # validated before anything was generated
    assert not (tmp_path / "o" / "results").exists()


def test_every_task_problem_is_listed_before_any_call(fake_server: FakeServer, tmp_path: Path):
    root = tmp_path / "tasks"
    make_task(root, "good", BASIC_SPEC)
    make_task(root, "bad", {**BASIC_SPEC, "skill": "xb-missing", "template": "templates/missing"})
    r = invoke(
        "run", "--tasks-root", str(root), "--base-url", fake_server.url + "/v1", "--model", "m", "--out", str(tmp_path)
    )
    assert r.exit_code == 2
    lines = error_lines(r)
    assert len(lines) == 2 and all(str(root / "bad" / "spec.json") in ln for ln in lines)
    assert fake_server.requests == []


def test_run_without_provider_is_skipped(tmp_path: Path):
    r = invoke("run", "--out", str(tmp_path))
    assert r.exit_code == 0 and r.output.startswith("skipped: no provider configured")
    assert not (tmp_path / "results").exists()
    r = invoke("ablate", "gestures-thumbs-up", "--out", str(tmp_path))
    assert r.exit_code == 0 and r.output.startswith("skipped: no provider configured")


def test_score_prints_the_fixed_json(tmp_path: Path):
    ws = tmp_path / "ws"
    shutil.copytree(TASKS_DIR / "select-cube-color" / "reference", ws)
    r = invoke("score", str(TASKS_DIR / "select-cube-color"), str(ws))
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert list(out)[:7] == ["task", "skill", "import_match", "api_match", "forbidden_clean", "parse_ok", "composite"]
    assert out["composite"] == 1.0
    other = tmp_path / "other"
    shutil.copytree(ws, other)
    (other / "main.js").write_text("const nothing = 1;\n")
    many = invoke("score", str(TASKS_DIR / "select-cube-color"), str(ws), str(other))
    first, second = json.loads(many.output)
    assert first == {"workspace": str(ws), **out}  # each score names its workspace
    assert second["workspace"] == str(other) and second["composite"] < 1.0


def test_score_errors_are_one_line(tmp_path: Path):
    r = invoke("score", str(tmp_path / "nope"), str(tmp_path))
    assert r.exit_code == 2 and error_lines(r) == [f"error: {tmp_path / 'nope'}: not a task directory"]
    d = make_task(tmp_path, "t", {**BASIC_SPEC, "forbidden_patterns": ["(bad"]})
    r = invoke("score", str(d), str(tmp_path))
    assert r.exit_code == 2 and "forbidden_patterns[0]: invalid regex" in error_lines(r)[0]
    (d / "spec.json").write_text('{"skill": 1}')
    r = invoke("score", str(d), str(tmp_path))
    assert r.exit_code == 2 and all(ln.startswith(f"error: {d / 'spec.json'}: line 1: ") for ln in error_lines(r))


def test_score_of_a_workspace_without_the_edit_file(tmp_path: Path):
    r = invoke("score", str(TASKS_DIR / "select-cube-color"), str(tmp_path))
    assert r.exit_code == 0 and json.loads(r.output) == {
        "task": "select-cube-color",
        "error": f"missing {tmp_path / 'main.js'}",
    }


def test_summarize_and_plot_without_results_are_one_line(tmp_path: Path):
    for cmd in ("summarize", "plot"):
        r = invoke(cmd, "--out", str(tmp_path))
        assert r.exit_code == 2 and len(error_lines(r)) == 1 and "no result cells" in r.output


def test_check_without_browser_is_a_dict_and_passes_on_the_bundled_tasks():
    result = check_result(smoke=False)
    assert result["ok"], result["problems"]
    assert result["counts"]["tasks"] >= 15 and result["smoke"] == "skipped (--no-smoke)"
    for row in result["tasks"]:
        assert row["noop_composite"] < 1.0 and row["reference_composite"] == 1.0
        assert all(not isinstance(v, dict) for v in row.values())  # flat rows for any table
    r = invoke("check", "--no-smoke")
    assert r.exit_code == 0 and r.output.rstrip().endswith("ok")


def test_check_reports_problems(tmp_path: Path):
    root = tmp_path / "tasks"
    make_task(root, "noop-wins", {**BASIC_SPEC, "expected_apis": ["xb.init"], "forbidden_patterns": []})
    make_task(root, "broken", {**BASIC_SPEC, "skill": "xb-missing"})
    result = check_result(root, smoke=False)
    assert not result["ok"]
    assert any("noop-wins: the untouched template already scores composite 1.0" in p for p in result["problems"])
    assert any("no skill 'xb-missing'" in p for p in result["problems"])
    assert invoke("check", "--no-smoke", "--tasks-root", str(root)).exit_code == 1
