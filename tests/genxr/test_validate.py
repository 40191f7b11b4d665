"""`genxr validate`: every candidate N times, the FIXED summary keys, flakiness, resume.

File-level tests (no browser) keep these fast; the bundled suite's own validation runs the harness.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from xrbench.cli.genxr_cmd import app
from xrbench.genxr.task import load_task
from xrbench.genxr.validate import validate

from .builders import make_app_task

runner = CliRunner()
SUMMARY_KEYS = {"tasks", "candidates", "accuracy", "flaky_candidates", "tasks_by_type", "difficulty", "capabilities"}


def test_validate_scores_every_candidate_and_repeat(tmp_path):
    task = load_task(make_app_task(tmp_path / "suite"))
    out = tmp_path / "v.json"
    seen = []
    report = validate([task], out, repeats=2, pytest_args=[], on_run=lambda *a: seen.append(a[:3]))
    s = report["summary"]
    assert SUMMARY_KEYS | {"confusion"} <= set(s)
    assert s["tasks"] == 1 and s["candidates"] == 4 and s["runs"] == 8  # valid, 2 adversarial, empty; x2
    assert s["accuracy"] == 1.0 and s["flaky_candidates"] == []
    assert s["tasks_by_type"] == {"app": 1} and s["difficulty"] == {"easy": 1}
    assert s["capabilities"] == {"interaction": 1, "ui": 1}
    assert s["confusion"] == {
        "valid": {"pass": 2, "fail": 0, "infra_error": 0},
        "adversarial": {"pass": 0, "fail": 4, "infra_error": 0},
        "mutant": {"pass": 0, "fail": 0, "infra_error": 0},
        "empty": {"pass": 0, "fail": 2, "infra_error": 0},
    }
    assert s["mutants"] == 0 and s["mutation_score"] is None
    cands = report["tasks"]["red-button"]["candidates"]
    assert set(cands) == {"valid/ok", "adversarial/bad0", "adversarial/bad1", "empty"}
    assert [r["repeat"] for r in cands["valid/ok"]["runs"]] == [0, 1]
    assert cands["adversarial/bad0"]["note"].startswith("Adversarial 0")
    assert all(t["outcome"] for r in cands["empty"]["runs"] for t in r["tests"])
    assert json.loads(out.read_text()) == report
    # Repeat-major order: every candidate runs once before any runs twice.
    assert [r for _, _, r in seen] == [0, 0, 0, 0, 1, 1, 1, 1]


def test_wrong_verdicts_and_flaky_candidates(tmp_path):
    # The valid solution's test passes only on its second run (it leaves a marker behind), and an
    # adversarial solution passes: accuracy drops and the candidate is reported as flaky.
    marker = tmp_path / "ran-once"
    tests = {
        "test_app.py": (
            "from pathlib import Path\n\n\n"
            "def test_has_button(workspace_dir):\n"
            "    text = (workspace_dir / 'main.js').read_text()\n"
            "    assert 'red-button' in text\n"
            "    if 'ok-flaky' in text:\n"
            f"        m = Path({str(marker)!r})\n"
            "        first = not m.exists()\n"
            "        m.touch()\n"
            "        assert not first\n"
        )
    }
    base = make_app_task(tmp_path / "suite", tests=tests, valid={"main.js": "// red-button ok-flaky\n"})
    task = load_task(base)
    report = validate([task], tmp_path / "v.json", repeats=2, pytest_args=[])
    s = report["summary"]
    assert s["flaky_candidates"] == ["red-button/valid/ok"]
    # bad0 contains the tag, so it passes (wrong); bad1 and empty fail (right); valid: 1 of 2 right.
    assert s["confusion"]["adversarial"] == {"pass": 2, "fail": 2, "infra_error": 0}
    assert s["accuracy"] == round((1 + 2 + 2) / 8, 6)
    assert report["tasks"]["red-button"]["candidates"]["valid/ok"]["flaky"] is True


@pytest.mark.slow  # 16 verification runs
def test_rerun_reuses_finished_runs_until_the_task_changes(tmp_path):
    task_dir = make_app_task(tmp_path / "suite")
    out = tmp_path / "v.json"
    validate([load_task(task_dir)], out, repeats=1, pytest_args=[])
    ran = []
    report = validate([load_task(task_dir)], out, repeats=2, pytest_args=[], on_run=lambda *a: ran.append(a[2]))
    assert ran == [1, 1, 1, 1]  # only the second repeat of each candidate
    assert report["summary"]["runs"] == 8
    (task_dir / "instruction.md").write_text("Add a button tagged `red-button`; make it big.\n")
    ran.clear()
    validate([load_task(task_dir)], out, repeats=2, pytest_args=[], on_run=lambda *a: ran.append(a[2]))
    assert len(ran) == 8  # a changed task is validated from scratch


def test_cli_validate_exit_status_and_only(tmp_path):
    root = tmp_path / "suite"
    make_app_task(root, "red-button")
    make_app_task(root, "broken", toml="not toml [")  # --only never loads it
    out = tmp_path / "v.json"
    args = ["validate", "--tasks", str(root), "--only", "red-button", "--out", str(out), "--pytest-args", ""]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    assert "accuracy 1.0, flaky candidates 0" in r.output
    assert json.loads(out.read_text())["summary"]["tasks"] == 1
    r = runner.invoke(app, ["validate", "--tasks", str(root), "--only", "nope", "--out", str(out)])
    assert r.exit_code == 2 and "no such task directory or task id" in r.stderr
