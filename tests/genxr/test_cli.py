"""`xrbench genxr` end to end: check, stats, verify (FIXED JSON, reward.json, details.json)."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from xrbench.cli.genxr_cmd import EXIT_FAILED, EXIT_INFRA, EXIT_PASSED, app
from xrbench.genxr.grading import base_id
from xrbench.genxr.task import load_task
from xrbench.genxr.workspace import materialize_solution, prepare_workspace
from xrbench.xrtest.recording import artifact_dir_name

from .builders import APP_TOML, EXAMPLE_TASK, make_app_task

runner = CliRunner()


def test_check_bundled_suite():
    r = runner.invoke(app, ["check"])
    assert r.exit_code == 0, r.output
    assert "example-cube-color" in r.output and "ok: " in r.output


def test_check_reports_one_line_per_problem(tmp_path):
    root = tmp_path / "suite"
    make_app_task(root, "good")
    make_app_task(root, "bad", toml=APP_TOML.replace('"easy"', '"trivial"'), adversarial=1)
    r = runner.invoke(app, ["check", "--tasks", str(root)])
    assert r.exit_code == 2
    errors = [ln for ln in r.stderr.splitlines() if ln.strip()]
    # (An invalid task.toml stops the checks that need the spec, such as the tags of the instruction.)
    assert errors == [
        f"error: {root / 'bad' / 'task.toml'}: line 4: difficulty: Input should be 'easy', 'medium' or 'hard'",
        f"error: {root / 'bad' / 'solutions' / 'adversarial'}: needs at least 2 adversarial solution(s), found 1",
    ]
    assert "Traceback" not in r.output


def test_a_valid_solution_can_be_prepared_before_the_adversarial_ones(tmp_path):
    # Authoring order: the valid solution first, the wrong ones after; only `check` asks for them.
    root = tmp_path / "suite"
    task = make_app_task(root, "early", adversarial=0)
    r = runner.invoke(
        app,
        ["prepare", "--tasks", str(root), "--task", "early", "--dest", str(tmp_path / "ws"), "--solution", "valid/ok"],
    )
    assert r.exit_code == 0, r.output
    assert "// red-button 0xff0000" in (tmp_path / "ws" / "main.js").read_text()
    r = runner.invoke(app, ["check", "--tasks", str(root)])
    assert r.exit_code == 2
    assert [ln for ln in r.stderr.splitlines() if ln.strip()] == [
        f"error: {task / 'solutions' / 'adversarial'}: needs at least 2 adversarial solution(s), found 0"
    ]


@pytest.mark.slow  # ten verification runs
def test_check_solutions_gate(example_copy):
    r = runner.invoke(app, ["check", "--tasks", str(example_copy.parent), "--solutions"])
    assert r.exit_code == 0, r.output
    assert "starting workspace" in r.output and "adversarial/no-tag" in r.output

    # An adversarial solution that actually passes fails the gate, naming the solution.
    bad = example_copy / "solutions" / "adversarial" / "wrong-tag"
    shutil.copy(example_copy / "solutions" / "valid" / "cube-cycles-colors" / "main.js", bad / "main.js")
    r = runner.invoke(app, ["check", "--tasks", str(example_copy.parent), "--solutions"])
    assert r.exit_code == 2
    assert f"error: {bad}: expected not passed, got: all tests passed" in r.stderr


def test_stats_tables_and_chart(tmp_path):
    root = tmp_path / "suite"
    make_app_task(root, "one")
    make_app_task(root, "two", toml=APP_TOML.replace('"easy"', '"hard"').replace('"ui"', '"hands"'))
    out = tmp_path / "fig" / "composition.png"
    r = runner.invoke(app, ["stats", "--tasks", str(root), "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "App generation" in r.output and "Capability coverage" in r.output and "interaction" in r.output
    assert out.is_file() and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    r = runner.invoke(app, ["stats", "--tasks", str(root), "--json"])
    doc = json.loads(r.stdout)
    assert doc["total"] == 2 and doc["by_type"] == {"app": 2, "sdk-feature": 0, "sdk-repair": 0}
    assert doc["by_type_difficulty"]["app"] == {"easy": 1, "medium": 0, "hard": 1}
    assert doc["by_capability"]["interaction"]["app"] == 2 and doc["by_capability"]["hands"]["app"] == 1
    targets = {t["name"]: t for t in doc["targets"]}
    assert targets["tasks"] == {"name": "tasks", "value": "2", "goal": ">= 112", "met": False}
    assert targets["easy share"]["value"] == "50% (1)" and not targets["easy share"]["met"]
    assert targets["tasks per capability (fewest)"]["value"].startswith("0 (")
    assert targets["SDK tasks naming no subsystem"]["met"]  # no SDK task at all


def test_scale_targets_count_focus_scenes_flows_and_subsystems(tmp_path):
    from xrbench.genxr.stats import scale_targets
    from xrbench.genxr.task import load_tasks

    root = tmp_path / "suite"
    extra = 'scenes = ["empty", "kitchen"]\nfocus = ["bimanual"]\nflow_steps = 4'
    multi = APP_TOML.replace('scenes = ["empty"]', extra)
    make_app_task(root, "a", toml=multi)
    make_app_task(root, "b")
    targets = {t.name: t for t in scale_targets(load_tasks(root))}
    assert targets["focus: bimanual"].value == "1" and targets["focus: room-geometry"].value == "0"
    assert targets["tasks in a furnished scene"].value == "1" and targets["tasks tested in >= 2 scenes"].value == "1"
    assert targets["multi-step flows (flow_steps >= 3)"].value == "1"
    assert targets["tasks proven (mutants, 2 valid, 1 blind)"].value == "0"  # no requirements, one valid solution
    # The bundled SDK tasks name their subsystems, and those cover what their edits change.
    bundled = {t.name: t for t in scale_targets(load_tasks())}
    assert bundled["SDK tasks naming no subsystem"].met, bundled["SDK tasks naming no subsystem"]


def _verify(tmp_path, ws, name, *extra):
    out = tmp_path / name / "verdict.json"
    r = runner.invoke(
        app, ["verify", "--task", "example-cube-color", "--workspace", str(ws), "--out", str(out), *extra]
    )
    return r, out


@pytest.mark.parametrize(
    ("solution", "passed", "status"),
    [
        ("valid/cube-cycles-colors", True, EXIT_PASSED),
        ("adversarial/color-on-timer", False, EXIT_FAILED),
        pytest.param("adversarial/no-tag", False, EXIT_FAILED, marks=pytest.mark.slow),
        pytest.param("adversarial/wrong-tag", False, EXIT_FAILED, marks=pytest.mark.slow),
        (None, False, EXIT_FAILED),  # the untouched template
    ],
)
def test_verify_example_task(tmp_path, solution, passed, status):
    """The real verifier end to end: pytest, the xrtest plugin and a browser, 2 tests x 2 hands."""
    task = load_task(EXAMPLE_TASK)
    ws = tmp_path / "ws"
    if solution is None:
        prepare_workspace(task, ws)
    else:
        (match,) = [s for s in task.solutions if f"{s.kind}/{s.name}" == solution]
        materialize_solution(task, match, ws)
    r, out = _verify(tmp_path, ws, "run")
    assert r.exit_code == status, r.output
    doc = json.loads(out.read_text())
    assert list(doc) == ["task", "passed", "infra_error", "tests"]
    assert doc["task"] == "example-cube-color" and doc["passed"] is passed and doc["infra_error"] is None
    assert len(doc["tests"]) == 4 and all(set(t) == {"id", "outcome", "message"} for t in doc["tests"])
    assert json.loads((out.parent / "reward.json").read_text()) == {"reward": int(passed)}
    details = json.loads((out.parent / "details.json").read_text())
    assert (
        details["passed"] is passed and details["task_type"] == "app" and details["exit_code"] == (0 if passed else 1)
    )
    assert (out.parent / "junit.xml").is_file() and (out.parent / "pytest-output.txt").is_file()
    # Graded unrecorded; the failed tests alone ran again, recorded, into artifacts/ beside the verdict.
    failed = [t["id"] for t in doc["tests"] if t["outcome"] != "passed"]
    rerun = details.get("recording_rerun")
    assert "--xr-no-recording" in details["pytest_command"]
    if passed:
        assert rerun is None and not (out.parent / "artifacts").exists()
    else:
        # One variant of each failed test function, recorded; it fails again (the harness is deterministic).
        assert {base_id(i) for i in rerun["tests"]} == {base_id(i) for i in failed}
        assert len(rerun["tests"]) == len({base_id(i) for i in failed})
        assert sorted([*rerun["tests"], *rerun["left_out"]]) == sorted(failed)
        assert rerun["flaky"] == [] and set(rerun["outcomes"].values()) == {"failed"}
        kept = {p.name for p in (out.parent / "artifacts").iterdir()}
        assert kept == {artifact_dir_name(i) for i in rerun["tests"]}
        assert all((out.parent / "artifacts" / name / "log.json").is_file() for name in kept)


def test_verify_infra_error_exit_status(tmp_path):
    task = load_task(EXAMPLE_TASK)
    ws = tmp_path / "ws"
    prepare_workspace(task, ws)
    r, out = _verify(tmp_path, ws, "run", "--pytest-args", "-k nothing_matches")
    assert r.exit_code == EXIT_INFRA, r.output
    doc = json.loads(out.read_text())
    assert doc["passed"] is False and doc["infra_error"].startswith("no_tests_ran:")
    assert json.loads((out.parent / "reward.json").read_text()) == {"reward": 0}


def test_verify_user_errors(tmp_path, app_task):
    ws = tmp_path / "ws"
    ws.mkdir()
    r, _ = _verify(tmp_path, ws, "x", "--tasks", str(app_task.parent))
    assert (
        r.exit_code == 2
        and "error: example-cube-color: no such task directory or task id (known: red-button)" in r.stderr
    )
    out = tmp_path / "reward.json"
    r = runner.invoke(app, ["verify", "--task", str(EXAMPLE_TASK), "--workspace", str(ws), "--out", str(out)])
    assert r.exit_code == 2 and "that name is taken" in r.stderr


def test_schema_command(tmp_path):
    r = runner.invoke(app, ["schema", "--out", str(tmp_path / "s.json")])
    assert r.exit_code == 0
    assert json.loads((tmp_path / "s.json").read_text())["title"] == "GenXR-Bench task.toml"
