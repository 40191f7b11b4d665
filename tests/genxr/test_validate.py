"""`genxr validate`: every candidate N times, the FIXED summary keys, flakiness, resume.

File-level tests (no browser) keep these fast; the bundled suite's own validation runs the harness.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from xrbench.cli.genxr_cmd import app
from xrbench.genxr.task import load_task, load_tasks
from xrbench.genxr.validate import (
    PINNED_REPRESENTATIVE,
    harness_fingerprint,
    known_runs,
    representative_tasks,
    validate,
)

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
    assert s["harness_versions"] == {harness_fingerprint(): 8}
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
    # Runs kept from a report another harness made are counted apart.
    data = json.loads(out.read_text())
    data["tasks"]["red-button"]["candidates"]["empty"]["runs"][0]["harness"] = "0123456789ab"
    out.write_text(json.dumps(data))
    report = validate([load_task(task_dir)], out, repeats=2, pytest_args=[])
    assert report["summary"]["harness_versions"] == {"0123456789ab": 1, harness_fingerprint(): 7}
    (task_dir / "instruction.md").write_text("Add a button tagged `red-button`; make it big.\n")
    ran.clear()
    validate([load_task(task_dir)], out, repeats=2, pytest_args=[], on_run=lambda *a: ran.append(a[2]))
    assert len(ran) == 8  # a changed task is validated from scratch


def test_runs_of_another_harness_are_rerun_only_when_asked(tmp_path):
    task_dir = make_app_task(tmp_path / "suite")
    out = tmp_path / "v.json"
    validate([load_task(task_dir)], out, pytest_args=[])
    data = json.loads(out.read_text())
    data["tasks"]["red-button"]["candidates"]["empty"]["runs"][0]["harness"] = "0123456789ab"
    out.write_text(json.dumps(data))
    ran = []
    report = validate([load_task(task_dir)], out, pytest_args=[], on_run=lambda *a: ran.append(a[1]))
    assert ran == [] and report["summary"]["harness_versions"] == {"0123456789ab": 1, harness_fingerprint(): 3}
    report = validate(
        [load_task(task_dir)], out, pytest_args=[], rerun_other_harness=True, on_run=lambda *a: ran.append(a[1])
    )
    assert ran == ["empty"] and report["summary"]["harness_versions"] == {harness_fingerprint(): 4}
    assert report["summary"]["accuracy"] == 1.0


def test_a_new_solution_keeps_the_runs_of_the_others(tmp_path):
    # A blind solution or a mutant added later must not re-run the whole task; a changed solution
    # (or test) runs again.
    # The report is kept compressed (as the bundled suite's is): the runs are read back from it.
    task_dir = make_app_task(tmp_path / "suite")
    out = tmp_path / "v.json.gz"
    validate([load_task(task_dir)], out, pytest_args=[])
    base = (task_dir / "solutions" / "valid" / "ok" / "main.js").read_text()
    (task_dir / "solutions" / "valid" / "blind").mkdir()
    (task_dir / "solutions" / "valid" / "blind" / "main.js").write_text(base + "// written blind\n")
    (task_dir / "solutions" / "adversarial" / "bad0" / "NOTE.md").write_text("Adversarial 0: no colour.\n")
    ran = []
    report = validate([load_task(task_dir)], out, pytest_args=[], on_run=lambda *a: ran.append(a[1]))
    assert sorted(ran) == ["adversarial/bad0", "valid/blind"]
    assert report["summary"]["runs"] == 5 and report["summary"]["accuracy"] == 1.0


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


def _kill_the_worker_of(marker, killed):
    """Once the marked test runs (its pytest pid is in `marker`), SIGKILL the Ray worker above it."""
    import os
    import signal
    import time

    import psutil

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not marker.exists():
        time.sleep(0.05)
    if not marker.exists():
        return
    proc = psutil.Process(int(marker.read_text()))
    while proc is not None and not " ".join(proc.cmdline()).startswith("ray::"):
        proc = proc.parent()
    if proc is not None:
        killed.append(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)


def test_validation_on_ray_survives_a_killed_worker_and_equals_the_local_one(tmp_path):
    # A local Ray cluster of two worker processes; the worker verifying one candidate is killed
    # mid-run. That candidate must be verified again elsewhere: no candidate lost or counted twice,
    # and the summary is the one a local validation gives.
    ray = pytest.importorskip("ray")
    import threading

    marker = tmp_path / "slow-started"
    tests = {
        "test_app.py": (
            "import os, time\n\n\n"
            "def test_has_button(workspace_dir):\n"
            "    text = (workspace_dir / 'main.js').read_text()\n"
            "    if 'slow' in text:\n"
            f"        marker = {str(marker)!r}\n"
            "        if not os.path.exists(marker):\n"
            "            open(marker, 'w').write(str(os.getpid()))\n"
            "            time.sleep(60)  # killed here, with its worker\n"
            "    assert 'red-button' in text\n"
        )
    }
    root = tmp_path / "suite"
    tasks = [
        load_task(make_app_task(root, "red-button", tests=tests, valid={"main.js": "// red-button slow\n"})),
        load_task(make_app_task(root, "blue-button", tests=tests)),
    ]
    marker.write_text("0")  # the local run does not wait
    local = validate(tasks, tmp_path / "local.json", pytest_args=[], jobs=2)
    marker.unlink()
    killed: list[int] = []
    killer = threading.Thread(target=_kill_the_worker_of, args=(marker, killed))
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        killer.start()
        on_ray = validate(tasks, tmp_path / "ray.json", pytest_args=[], executor="ray")
    finally:
        killer.join()
        ray.shutdown()
    assert killed, "no worker was killed: the test did not test anything"
    runs = [len(c["runs"]) for t in on_ray["tasks"].values() for c in t["candidates"].values()]
    assert runs == [1] * 8
    drop = {"candidate_seconds"}
    assert {k: v for k, v in on_ray["summary"].items() if k not in drop} == {
        k: v for k, v in local["summary"].items() if k not in drop
    }
    assert on_ray["summary"]["confusion"]["valid"] == {"pass": 2, "fail": 0, "infra_error": 0}


def test_a_jobs_trials_count_as_the_validation_runs_of_the_same_candidates(tmp_path):
    from xrbench.genxr.job import JobConfig, run_job

    root = tmp_path / "suite"
    make_app_task(root)
    tasks = load_tasks(root)
    job_dir, _ = run_job(JobConfig(agent="oracle", tasks_dir=str(root), verifier_retries=0), tmp_path / "jobs")
    known = known_runs(job_dir, tasks, lambda t: "valid/ok")
    ran: list[str] = []
    report = validate(tasks, tmp_path / "v.json", pytest_args=[], known=known, on_run=lambda *a: ran.append(a[1]))
    assert sorted(ran) == ["adversarial/bad0", "adversarial/bad1", "empty"]  # not the oracle's solution again
    (run,) = report["tasks"]["red-button"]["candidates"]["valid/ok"]["runs"]
    assert run["outcome"] == "pass" and run["trial"].startswith(str(job_dir))
    assert report["summary"]["runs"] == 4 and report["summary"]["accuracy"] == 1.0


def test_the_representative_subset_covers_every_type_and_capability_of_the_suite():
    tasks = [t for t in load_tasks() if not t.spec.example]
    chosen = representative_tasks(tasks)
    assert {t.type for t in chosen} == {t.type for t in tasks}
    assert {c for t in chosen for c in t.spec.capabilities} == {c for t in tasks for c in t.spec.capabilities}
    assert len(chosen) <= 8
    assert representative_tasks(list(reversed(tasks))) == chosen  # the same subset, whatever the order
    # The bundled suite's subset is the pinned one (its time measured).
    assert [t.id for t in chosen] == sorted(PINNED_REPRESENTATIVE)


def test_a_label_the_pinned_tasks_leave_uncovered_is_added_by_the_greedy_cover():
    tasks = [t for t in load_tasks() if not t.spec.example]
    pinned = ["app-air-drawing", "sdk-repair-followhead-parent"]  # leaves audio, depth, sdk-feature, ...
    chosen = representative_tasks(tasks, pinned=pinned)
    assert set(pinned) <= {t.id for t in chosen}
    assert {t.type for t in chosen} == {t.type for t in tasks}
    assert {c for t in chosen for c in t.spec.capabilities} == {c for t in tasks for c in t.spec.capabilities}
    assert len(chosen) > len(pinned)
