"""Bad task input is one line (issue 13): broken symlinks in a task, and tasks that cannot be prepared.

`check` rejects symlinks in tests/ and solutions/ that loop, dangle or lead outside the task folder;
`verify` on such a task is an infrastructure error (exit 3, one line, no traceback); a `run` job
records a trial that cannot be prepared as an infrastructure error and always writes summary.json.
None of these reach the browser: every failure happens before pytest starts.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from xrbench.cli.genxr_cmd import EXIT_INFRA, app
from xrbench.genxr import grading, job, trial
from xrbench.genxr.grading import error_line
from xrbench.genxr.job import SUMMARY_FILE, JobConfig, run_job
from xrbench.genxr.task import TEMPLATES_DIR, link_problems, load_task
from xrbench.genxr.trial import RESULT_FILE

from .builders import APP_TOML, make_app_task

runner = CliRunner()


def link(task: Path, rel: str, target: str) -> Path:
    """Create the symlink `task/rel -> target` (folders made as needed)."""
    path = task / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, path)
    return path


def stderr_lines(result) -> list[str]:
    return [ln for ln in result.stderr.splitlines() if ln.strip()]


# --- check ------------------------------------------------------------------------------------------


def test_check_rejects_links_that_loop_dangle_or_leave(tmp_path):
    root = tmp_path / "suite"
    cases = {
        "dir-loop": ("tests/loop", ".", "symlink loop (-> .): following it leads back into tests"),
        "up-loop": ("tests/sub/up", "../..", "symlink loop (-> ../..): following it leads back into the task folder"),
        "self-loop": ("tests/test_self.py", "test_self.py", "symlink loop (-> test_self.py): it cannot be resolved"),
        "dangling": ("tests/test_gone.py", "gone.py", "dangling symlink (-> gone.py): the target does not exist"),
        "outside": ("tests/hosts", "/etc/hosts", "symlink leads outside the task folder (-> /etc/hosts)"),
        "sol-outside": (
            "solutions/valid/ok/up",
            "../../../..",
            "symlink leads outside the task folder (-> ../../../..)",
        ),
        "sol-loop": ("solutions/valid/ok/me.js", "me.js", "symlink loop (-> me.js): it cannot be resolved"),
        "sol-dangling": (
            "solutions/adversarial/bad0/x.js",
            "nowhere.js",
            "dangling symlink (-> nowhere.js): the target does not exist",
        ),
    }
    expected = []
    for task_id, (rel, target, message) in cases.items():
        link(make_app_task(root, task_id), rel, target)
        expected.append(f"error: {root / task_id / rel}: {message}")
    make_app_task(root, "fine")  # a valid task beside them is not reported

    r = runner.invoke(app, ["check", "--tasks", str(root)])
    assert r.exit_code == 2, r.output
    assert sorted(stderr_lines(r)) == sorted(expected)
    assert "Traceback" not in r.output


def test_links_inside_the_task_folder_are_fine(tmp_path):
    task = make_app_task(tmp_path / "suite")
    link(task, "tests/helper.js", "../solutions/valid/ok/main.js")
    link(task, "tests/shared", "../solutions/valid")  # a folder link that does not lead back
    link(task, "solutions/valid/ok/copy.js", "main.js")
    assert link_problems(task) == []
    assert load_task(task, strict=True).id == "red-button"
    r = runner.invoke(app, ["check", "--tasks", str(task.parent)])
    assert r.exit_code == 0, r.output


def test_loops_through_several_links_are_found(tmp_path):
    task = make_app_task(tmp_path / "suite")
    # Neither link points at a folder holding itself; together they never end.
    link(task, "tests/d1/x", "../d2")
    link(task, "tests/d2/y", "../d1")
    # A loop reached from tests/ through a folder elsewhere in the task is named where it is.
    (task / "assets" / "deep").mkdir(parents=True)
    link(task, "tests/assets", "../assets/deep")
    link(task, "assets/deep/back", "..")
    assert [str(p) for p in link_problems(task)] == [
        f"{task / 'assets' / 'deep' / 'back'}: symlink loop (-> ..): following it leads back into assets/deep",
        f"{task / 'tests' / 'd2' / 'y'}: symlink loop (-> ../d1): following it leads back into tests/d1",
    ]


def test_loading_for_a_run_does_not_refuse_broken_links(tmp_path):
    # `check` owns the rule; a run must get as far as the verifier, which reports the infra error.
    task = make_app_task(tmp_path / "suite")
    link(task, "tests/test_self.py", "test_self.py")
    link(task, "tests/loop", ".")
    loaded = load_task(task)
    assert [t.id for t in loaded.tests] == ["tests/test_app.py::test_has_button", "tests/test_app.py::test_turns_red"]
    with pytest.raises(Exception, match="symlink loop"):
        load_task(task, strict=True)


def test_unreadable_task_files_are_one_line(tmp_path):
    task = make_app_task(tmp_path / "suite")
    (task / "instruction.md").unlink()
    (task / "instruction.md").mkdir()  # a folder where a file belongs: read fails with EISDIR
    r = runner.invoke(app, ["check", "--tasks", str(task.parent)])
    assert r.exit_code == 2
    assert stderr_lines(r) == [f"error: {task / 'instruction.md'}: cannot read: Is a directory"]


def test_check_without_the_pinned_packages_is_one_line(tmp_path, monkeypatch):
    # SDK tasks' patches are checked against the pinned SDK: without node_modules that is one
    # error for the machine, not one per task (it once crashed splitting a message with no path).
    from xrbench.xrtest import webdeps

    suite = tmp_path / "suite"
    for tid in ("sdk-repair-touch-wrong-hand", "sdk-repair-slider-axis"):
        shutil.copytree(TEMPLATES_DIR.parent / "tasks" / tid, suite / tid)
    monkeypatch.setattr(webdeps, "_candidate_roots", lambda: [])
    r = runner.invoke(app, ["check", "--tasks", str(suite)])
    assert r.exit_code == 2, r.output
    assert stderr_lines(r) == [f"error: no node_modules found for the repository; {webdeps._FIX}"]


# --- verify ------------------------------------------------------------------------------------------


def _verify(tmp_path: Path, task: Path) -> tuple:
    ws = tmp_path / "candidate"
    ws.mkdir(exist_ok=True)
    (ws / "main.js").write_text("// red-button 0xff0000\n")
    out = tmp_path / "verdict" / "verdict.json"
    args = ["verify", "--task", str(task), "--workspace", str(ws), "--out", str(out), "--pytest-args", ""]
    return runner.invoke(app, args), out


@pytest.mark.parametrize(
    ("rel", "target"),
    [("tests/loop", "."), ("tests/test_self.py", "test_self.py"), ("tests/test_gone.py", "nowhere.py")],
    ids=["dir-loop", "file-loop", "dangling"],
)
def test_verify_of_a_task_whose_tests_cannot_be_copied_is_an_infra_error(tmp_path, rel, target):
    task = make_app_task(tmp_path / "suite")
    link(task, rel, target)
    r, out = _verify(tmp_path, task)
    assert r.exit_code == EXIT_INFRA, r.output
    assert "Traceback" not in r.output and (r.exception is None or isinstance(r.exception, SystemExit))
    errors = [ln for ln in stderr_lines(r) if not ln.startswith("wrote ")]
    assert len(errors) == 1 and errors[0].startswith("infra error: setup_failed: cannot copy the task's tests: ")
    assert str(task / "tests") in errors[0] and len(errors[0]) < 400
    verdict = json.loads(out.read_text())
    assert verdict["passed"] is False and verdict["infra_error"] == errors[0].removeprefix("infra error: ")
    assert json.loads((out.parent / "reward.json").read_text()) == {"reward": 0}


def test_verify_never_tracebacks(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("unforeseen\nin two lines")

    monkeypatch.setattr(grading, "run_task_tests", broken)
    r, out = _verify(tmp_path, make_app_task(tmp_path / "suite"))
    assert r.exit_code == EXIT_INFRA, r.output
    assert "Traceback" not in r.output
    assert stderr_lines(r)[0] == "infra error: runner_error: RuntimeError: unforeseen in two lines"
    details = json.loads((out.parent / "details.json").read_text())
    assert details["infra_class"] == "runner_error" and "RuntimeError" in details["traceback"]


def test_error_line_keeps_the_reason_of_a_long_copy_error():
    deep = "/t/tests/" + "loop/" * 100 + "x"
    err = shutil.Error([(deep, "/dst", f"[Errno 40] Too many levels of symbolic links: '{deep}'")])
    line = error_line(err)
    assert len(line) <= 300 and line.startswith("/t/tests/loop/") and "..." in line
    assert line.endswith("loop/x: [Errno 40] Too many levels of symbolic links")


# --- run -------------------------------------------------------------------------------------------


@pytest.fixture
def no_bwrap(monkeypatch):
    monkeypatch.setenv("XRBENCH_AGENT_SANDBOX", "off")


def _job(suite: Path, tmp_path: Path, agent: str = "oracle") -> tuple[Path, dict]:
    config = JobConfig(agent=agent, tasks_dir=str(suite), workers=1, verifier_retries=0)
    return run_job(config, tmp_path / "jobs")


def _results(job_dir: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(job_dir.glob(f"*/{RESULT_FILE}"))]


def test_run_records_a_task_whose_tests_loop_as_an_infra_error(tmp_path, no_bwrap):
    suite = tmp_path / "suite"
    link(make_app_task(suite), "tests/loop", ".")
    r = runner.invoke(app, ["run", "--agent", "oracle", "--tasks", str(suite), "--out", str(tmp_path / "jobs")])
    assert r.exit_code == 0, r.output
    (job_dir,) = (tmp_path / "jobs").iterdir()
    summary = json.loads((job_dir / SUMMARY_FILE).read_text())
    assert summary["trials_finished"] == 1 and summary["infra_errors"] == 1 and summary["pass_at_1"] == 0.0
    (result,) = _results(job_dir)
    assert result["infra_error"].startswith("setup_failed: cannot copy the task's tests: ")


def _unpreparable_task(root: Path, task_id: str) -> Path:
    """A task whose own starting workspace holds a named pipe: it loads, but cannot be copied."""
    task = make_app_task(root, task_id, toml=APP_TOML.replace('template = "basic"', 'dir = "workspace"'))
    shutil.copytree(TEMPLATES_DIR / "basic", task / "workspace")
    os.mkfifo(task / "workspace" / "pipe")
    return task


def test_run_writes_a_summary_when_every_trial_fails_setup(tmp_path, no_bwrap):
    suite = tmp_path / "suite"
    _unpreparable_task(suite, "one")
    _unpreparable_task(suite, "two")
    job_dir, _ = _job(suite, tmp_path)
    summary = json.loads((job_dir / SUMMARY_FILE).read_text())
    assert summary["trials_finished"] == summary["trials_expected"] == 2
    assert summary["infra_errors"] == 2 and summary["pass_at_1"] == 0.0
    for result in _results(job_dir):
        assert result["infra_error"].startswith("setup_failed: cannot prepare the trial: ")
        assert "named pipe" in result["infra_error"]
        assert result["agent_result"]["exit_status"] == "error" and result["verifier_tries"] == 0
        trial_dir = job_dir / result["trial"]
        assert json.loads((trial_dir / "verifier" / "reward.json").read_text()) == {"reward": 0}
        assert "Traceback" in (trial_dir / "agent" / "error.txt").read_text()


def test_run_records_a_task_that_no_longer_loads(tmp_path, monkeypatch, no_bwrap):
    suite = tmp_path / "suite"
    make_app_task(suite)

    def gone(task_dir):
        raise OSError(f"{task_dir}: vanished")

    monkeypatch.setattr(trial, "load_task", gone)  # the job loaded it; the trial cannot
    job_dir, summary = _job(suite, tmp_path)
    assert summary["trials_finished"] == 1 and summary["infra_errors"] == 1
    (result,) = _results(job_dir)
    assert result["task"] == "red-button" and result["task_type"] is None
    assert result["infra_error"].endswith("red-button: vanished")


def test_summary_is_written_even_when_a_trial_crashes(tmp_path, monkeypatch):
    suite = tmp_path / "suite"
    make_app_task(suite)

    def crash(spec):
        raise RuntimeError("crashed")

    monkeypatch.setattr(job, "run_trial", crash)
    with pytest.raises(RuntimeError, match="crashed"):
        _job(suite, tmp_path)
    (job_dir,) = (tmp_path / "jobs").iterdir()
    summary = json.loads((job_dir / SUMMARY_FILE).read_text())
    assert summary["trials_expected"] == 1 and summary["trials_finished"] == 0
