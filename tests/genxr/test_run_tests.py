"""`run_task_tests` + grading on tiny fake tasks whose tests are plain pytest tests (no browser)."""

from __future__ import annotations

import pytest

from xrbench.genxr.grading import InfraClass, Outcome, grade, run_task_tests, verify
from xrbench.genxr.task import load_task
from xrbench.genxr.workspace import materialize_solution, prepare_workspace

from .builders import make_app_task, write


def candidate(tmp_path, main_js: str, name: str = "cand"):
    ws = tmp_path / name
    write(ws / "index.html", "<!doctype html><script type=module src=main.js></script>\n")
    write(ws / "main.js", main_js)
    return ws


def test_passing_and_failing_candidates(app_task, tmp_path):
    task = load_task(app_task)
    good = candidate(tmp_path, "// red-button 0xff0000\n", "good")
    v = verify(task, good, tmp_path / "out-good", pytest_args=[])
    assert v.passed and v.infra_error is None
    assert [t.outcome for t in v.tests] == [Outcome.PASSED, Outcome.PASSED]
    assert v.run.exit_code == 0 and v.run.duration_sec is not None
    out = tmp_path / "out-good"
    assert (out / "junit.xml").is_file() and (out / "results.jsonl").is_file()
    assert "2 passed" in (out / "pytest-output.txt").read_text()

    bad = candidate(tmp_path, "// red-button\n", "bad")
    v = verify(task, bad, tmp_path / "out-bad", pytest_args=[])
    assert not v.passed and v.infra_error is None
    assert [t.outcome for t in v.tests] == [Outcome.PASSED, Outcome.FAILED]
    assert "0xff0000" in v.tests[1].message


def test_workspace_is_copied_never_modified(app_task, tmp_path):
    tests = {
        "test_app.py": (
            "def test_writes(workspace_dir):\n"
            "    assert workspace_dir.name == 'workspace'\n"
            "    assert not (workspace_dir / 'node_modules').exists()\n"
            "    (workspace_dir / 'main.js').write_text('tampered')\n"
        )
    }
    task = load_task(make_app_task(tmp_path / "t", tests=tests, instruction="Tag `red-button`.\n"))
    ws = candidate(tmp_path, "// red-button\n")
    write(ws / "node_modules" / "big" / "index.js", "x")  # never copied
    v = verify(task, ws, tmp_path / "out", pytest_args=[])
    assert v.passed, v.tests
    assert (ws / "main.js").read_text() == "// red-button\n"
    assert v.run.extra["verification_dir"] is None  # removed after the run


def test_zero_tests_ran_is_an_infra_error(app_task, tmp_path):
    task = load_task(app_task)
    ws = candidate(tmp_path, "// red-button 0xff0000\n")
    # Every test deselected: pytest collects nothing and exits 5.
    v = verify(task, ws, tmp_path / "out", pytest_args=["-k", "no_such_test"])
    assert not v.passed and v.infra_class is InfraClass.NO_TESTS_RAN
    assert v.run.exit_code == 5
    assert all(t.outcome is Outcome.MISSING for t in v.tests)


def test_all_skipped_is_an_infra_error(tmp_path):
    tests = {
        "test_app.py": (
            "import pytest\n\n\n"
            "@pytest.fixture\ndef xr():\n    pytest.skip('chromium not found')\n\n\n"
            "def test_a(xr):\n    pass\n\n\ndef test_b(xr):\n    pass\n"
        )
    }
    task = load_task(make_app_task(tmp_path / "t", tests=tests, instruction="Tag `red-button`.\n"))
    v = verify(task, candidate(tmp_path, ""), tmp_path / "out", pytest_args=[])
    assert not v.passed and v.infra_class is InfraClass.NO_TESTS_RAN
    assert "every test was skipped" in v.infra_error


def test_timeout_kills_the_run_and_keeps_finished_results(tmp_path):
    tests = {
        "test_app.py": (
            "import time\n\n\ndef test_fast(workspace_dir):\n    pass\n\n\n"
            "def test_hangs(workspace_dir):\n    time.sleep(120)\n"
        )
    }
    task = load_task(make_app_task(tmp_path / "t", tests=tests, instruction="Tag `red-button`.\n"))
    report = run_task_tests(task, candidate(tmp_path, ""), tmp_path / "out", pytest_args=[], timeout_sec=10)
    assert report.timed_out and report.exit_code is None
    assert report.duration_sec is not None and report.duration_sec < 60
    v = grade(task.id, task.type, task.tests, report)
    assert not v.passed and v.infra_class is InfraClass.TIMEOUT
    assert [(t.id.split("::")[1], t.outcome) for t in v.tests] == [
        ("test_fast", Outcome.PASSED),
        ("test_hangs", Outcome.MISSING),
    ]


def test_task_timeout_comes_from_task_toml(app_task, tmp_path):
    task = load_task(app_task)
    report = run_task_tests(task, candidate(tmp_path, "// red-button 0xff0000\n"), tmp_path / "out", pytest_args=[])
    assert report.extra["timeout_sec"] == 60


def test_broken_test_file_fails_only_its_tests(tmp_path):
    tests = {
        "test_app.py": "def test_ok(workspace_dir):\n    pass\n",
        "test_broken.py": "import no_such_module_xyz\n\n\ndef test_never(workspace_dir):\n    pass\n",
    }
    task = load_task(make_app_task(tmp_path / "t", tests=tests, instruction="Tag `red-button`.\n"))
    v = verify(task, candidate(tmp_path, ""), tmp_path / "out", pytest_args=[])
    assert not v.passed and v.infra_error is None
    got = {t.id: (t.outcome, t.message) for t in v.tests}
    assert got["tests/test_app.py::test_ok"][0] is Outcome.PASSED
    outcome, message = got["tests/test_broken.py::test_never"]
    assert outcome is Outcome.ERROR and "no_such_module_xyz" in message


def test_crashed_runner_is_an_infra_error(tmp_path):
    tests = {"test_app.py": "import os\n\n\ndef test_exit(workspace_dir):\n    os._exit(0)\n"}
    task = load_task(make_app_task(tmp_path / "t", tests=tests, instruction="Tag `red-button`.\n"))
    v = verify(task, candidate(tmp_path, ""), tmp_path / "out", pytest_args=[])
    assert not v.passed and v.infra_class is InfraClass.REPORT_MISSING


def test_pytest_args_substitution(tmp_path):
    tests = {
        "conftest.py": (
            # --xr-app comes from the xrtest pytest plugin (installed as an entry point).
            "def pytest_addoption(parser):\n    parser.addoption('--sc')\n"
        ),
        "test_app.py": (
            "def test_args(request, workspace_dir):\n"
            "    assert request.config.getoption('--xr-app') == str(workspace_dir)\n"
            "    assert request.config.getoption('--sc') == 'empty'\n"
        ),
    }
    task = load_task(make_app_task(tmp_path / "t", tests=tests, instruction="Tag `red-button`.\n"))
    args = ["--xr-app", "{workspace}", "--sc={scenes}"]
    v = verify(task, candidate(tmp_path, ""), tmp_path / "out", pytest_args=args)
    assert v.passed, [t.message for t in v.tests]


def test_unusable_workspace_is_an_infra_error(app_task, tmp_path):
    v = verify(load_task(app_task), tmp_path / "nope", tmp_path / "out", pytest_args=[])
    assert not v.passed and v.infra_class is InfraClass.SETUP_FAILED


def test_example_task_workspaces(tmp_path):
    from xrbench.genxr.task import DEFAULT_TASKS_DIR

    task = load_task(DEFAULT_TASKS_DIR / "example-cube-color")
    start = tmp_path / "start"
    prepare_workspace(task, start)
    assert (start / "index.html").is_file() and "new xb.Options()" in (start / "main.js").read_text()
    for i, solution in enumerate(task.solutions):
        ws = materialize_solution(task, solution, tmp_path / f"s{i}")
        # Metadata never reaches the workspace; a patch solution changes main.js in place.
        assert not (ws / "NOTE.md").exists() and not (ws / "solution.toml").exists()
        assert not list(ws.glob("*.patch")) and (ws / "main.js").read_text() != (start / "main.js").read_text()


def test_default_pytest_args_use_the_harness_plugin_when_present(monkeypatch):
    from xrbench.genxr import grading

    monkeypatch.setattr(grading, "find_spec", lambda name: None)
    assert grading.default_pytest_args() == []
    monkeypatch.setattr(grading, "find_spec", lambda name: object() if name == grading.HARNESS_PLUGIN else None)
    assert grading.default_pytest_args() == [
        "-p",
        "xrbench.xrtest.pytest_plugin",
        "--xr-app",
        "{workspace}",
        "--xr-scenes",
        "{scenes}",
    ]


def test_patch_solution_applies_inside_another_git_repository(tmp_path):
    import subprocess

    from xrbench.genxr.task import DEFAULT_TASKS_DIR

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    task = load_task(DEFAULT_TASKS_DIR / "example-cube-color")
    (patch,) = [s for s in task.solutions if s.patch is not None and s.kind != "mutant"]
    ws = materialize_solution(task, patch, tmp_path / "deep" / "ws")
    assert "BoxGeometry" in (ws / "main.js").read_text()


# Tests that stand in for XR tests: they "record" (write a file where the harness would keep a
# failed test's recording) unless the run says `--xr-no-recording`, and can tell the two runs apart.
RECORDING_TESTS = """\
from pathlib import Path

import pytest


def record(request, name):
    if not request.config.getoption('--xr-no-recording'):
        folder = Path(request.config.getoption('--xr-artifacts')) / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / 'video.webm').write_text('frames')


def test_good(request):
    record(request, 'good')


@pytest.mark.parametrize('hand', ['right', 'left'])
def test_wrong_colour(request, hand):
    record(request, 'wrong-' + hand)
    assert False, 'the light is blue, not red'


def test_only_when_watched(request):
    record(request, 'watched')
    assert not request.config.getoption('--xr-no-recording'), 'fails unless recorded'


def test_hangs(request):
    record(request, 'hangs')

    class XRTimeoutError(AssertionError):
        pass

    raise XRTimeoutError('test_hangs ran past its xr_timeout of 30 s')
"""


def test_failed_tests_are_recorded_by_a_rerun_and_the_first_run_is_graded(tmp_path):
    task = load_task(make_app_task(tmp_path / "t", tests={"test_app.py": RECORDING_TESTS}))
    out = tmp_path / "out"
    v = verify(task, candidate(tmp_path, ""), out, pytest_args=["--xr-app", "{workspace}"])
    outcomes = {t.id.rpartition("::")[2]: t.outcome for t in v.tests}
    # The verdict is the unrecorded run's: the test that passes only when recorded failed there.
    assert outcomes == {
        "test_good": Outcome.PASSED,
        "test_wrong_colour[right]": Outcome.FAILED,
        "test_wrong_colour[left]": Outcome.FAILED,
        "test_only_when_watched": Outcome.FAILED,
        "test_hangs": Outcome.FAILED,
    }
    assert not v.passed and v.infra_error is None
    assert "--xr-no-recording" in v.run.extra["pytest_command"]
    rerun = v.details()["recording_rerun"]
    right, left, watched, hangs = (
        f"tests/test_app.py::{n}"
        for n in ("test_wrong_colour[right]", "test_wrong_colour[left]", "test_only_when_watched", "test_hangs")
    )
    # Only failed tests ran again: one variant of each, and not the one that ran out of time.
    assert rerun["tests"] == [right, watched]
    assert rerun["left_out"] == {left: f"not rerun: {right} is recorded", hangs: "not rerun: it ran out of time"}
    assert rerun["outcomes"] == {right: "failed", watched: "passed"} and rerun["flaky"] == [watched]
    # Recordings land beside the verdict, of the rerun tests only.
    assert sorted(p.name for p in (out / "artifacts").iterdir()) == ["watched", "wrong-right"]
    assert "1 failed, 1 passed" in (out / "pytest-output-rerun.txt").read_text()

    # A passing candidate runs once, records nothing and leaves no stale recordings behind.
    tests = {"test_app.py": RECORDING_TESTS.split("@pytest.mark.parametrize")[0]}
    task = load_task(make_app_task(tmp_path / "t2", tests=tests))
    v = verify(task, candidate(tmp_path, "", "c2"), out, pytest_args=["--xr-app", "{workspace}"])
    assert v.passed and "recording_rerun" not in v.details()
    assert not (out / "artifacts").exists() and not (out / "pytest-output-rerun.txt").exists()


@pytest.mark.parametrize(
    ("args", "by_rerun"),
    [
        (["--xr-record"], True),  # every test recorded: one run
        (["--xr-no-recording"], True),  # nothing recorded: one run
        ([], False),  # one run, recording as it goes
    ],
)
def test_recording_in_one_run(tmp_path, args, by_rerun):
    task = load_task(make_app_task(tmp_path / "t", tests={"test_app.py": RECORDING_TESTS}))
    out = tmp_path / "out"
    v = verify(
        task, candidate(tmp_path, ""), out, pytest_args=["--xr-app", "{workspace}", *args], record_by_rerun=by_rerun
    )
    assert "recording_rerun" not in v.details() and not (out / "pytest-output-rerun.txt").exists()
    outcomes = {t.id.rpartition("::")[2]: t.outcome for t in v.tests}
    assert outcomes["test_only_when_watched"] is (Outcome.FAILED if "--xr-no-recording" in args else Outcome.PASSED)
    recorded = sorted(p.name for p in (out / "artifacts").iterdir()) if (out / "artifacts").exists() else []
    assert recorded == (
        [] if "--xr-no-recording" in args else ["good", "hangs", "watched", "wrong-left", "wrong-right"]
    )
