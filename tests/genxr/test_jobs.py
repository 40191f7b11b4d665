"""GenXR agent runs: metrics, the agent sandbox, built-in agents, jobs, resume, regrade, Ray.

Tasks here are small synthetic ones with file-level tests (no browser), so a trial takes a few
seconds; the bundled suite's oracle/nop gate runs the real harness through `genxr validate`
(valid and empty candidates are exactly what oracle and nop submit) and `make run`.
"""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest
from llm_fakes import FakeServer, openai_default
from llm_fakes import serve as _serve
from typer.testing import CliRunner

from xrbench.cli.genxr_cmd import app
from xrbench.errors import UserError
from xrbench.genxr import metrics
from xrbench.genxr.agents import make_agent
from xrbench.genxr.job import SUMMARY_FILE, JobConfig, load_results, regrade_job, resume_job, run_job
from xrbench.genxr.sandbox import Sandbox

from .builders import make_app_task

runner = CliRunner()
serve = contextlib.contextmanager(_serve)


@pytest.fixture
def suite(tmp_path) -> Path:
    root = tmp_path / "suite"
    make_app_task(root, "red-button")
    make_app_task(root, "blue-button")
    return root


def config(suite: Path, agent: str = "oracle", **kw) -> JobConfig:
    return JobConfig(agent=agent, tasks_dir=str(suite), workers=kw.pop("workers", 2), **kw)


# --- metrics ---------------------------------------------------------------------------------------


def test_pass_at_k_and_pass_hat_k_by_hand():
    # n=4, c=1: pass@2 = 1 - C(3,2)/C(4,2) = 1 - 3/6; pass^2 = C(1,2)/C(4,2) = 0.
    assert metrics.pass_at_k(4, 1, 2) == pytest.approx(0.5)
    assert metrics.pass_hat_k(4, 1, 2) == 0.0
    assert metrics.pass_at_k(4, 3, 2) == 1.0  # every pair holds a success
    assert metrics.pass_hat_k(4, 3, 2) == pytest.approx(3 / 6)
    assert metrics.pass_at_k(5, 2, 1) == pytest.approx(2 / 5) == metrics.pass_hat_k(5, 2, 1)
    with pytest.raises(ValueError):
        metrics.pass_at_k(2, 1, 3)


def test_score_counts_infra_errors_as_failures_and_apart():
    results = [
        {"task": "a", "reward": 1},
        {"task": "a", "reward": 0},
        {"task": "b", "reward": 0, "infra_error": "browser_launch_failed: x"},
        {"task": "b", "reward": 1},
    ]
    s = metrics.score(results)
    assert s["pass_at_1"] == 0.5 and s["infra_errors"] == 1 and s["tasks"] == 2 and s["trials"] == 4
    assert s["pass_at_k"]["2"]["value"] == 1.0 and s["pass_hat_k"]["2"]["value"] == 0.0
    lo, hi = s["pass_at_1_ci95"]
    assert lo <= 0.5 <= hi
    assert metrics.score(results) == s  # seeded bootstrap: the same numbers every time


# --- sandbox -----------------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap not installed")
def test_sandbox_hides_tasks_and_confines_writes_and_network(tmp_path):
    ws, secret = tmp_path / "ws", tmp_path / "tasks"
    ws.mkdir()
    (secret / "t" / "tests").mkdir(parents=True)
    (secret / "t" / "tests" / "test_x.py").write_text("SECRET")
    box = Sandbox(ws, hidden=[secret], enabled=True, own_workspace=True)
    r = box.run(f"echo ok > out.txt && cat out.txt && (ls -A {secret} 2>/dev/null || true)", timeout_s=30)
    assert r.returncode == 0 and r.output.split() == ["ok"]  # the tasks folder does not exist inside
    assert (ws / "out.txt").read_text() == "ok\n"
    box.run(f"touch {tmp_path}/escape.txt", timeout_s=30)  # lands in the sandbox's private /tmp
    assert not (tmp_path / "escape.txt").exists()
    # Outside /tmp (private inside) the host is read-only; a checkout may itself live under /tmp.
    host_file = Path("/usr/xrbench-escape-test.txt")
    r = box.run(f"touch {host_file}", timeout_s=30)
    assert r.returncode != 0 and "Read-only file system" in r.output and not host_file.exists()
    with serve(FakeServer(default=openai_default)) as server:  # a host server on 127.0.0.1
        probe = f"python3 -c \"import urllib.request as u; u.urlopen('{server.url}/v1/models', timeout=3)\""
        assert box.run(probe, timeout_s=30).returncode != 0  # no network, not even the host's loopback
    r = box.run("sleep 30", timeout_s=1)
    assert r.timed_out and r.returncode is None and r.seconds < 10


def test_sandbox_off_and_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_TOKEN", "s3")
    monkeypatch.setenv("PASSED_VAR", "p")
    box = Sandbox(tmp_path, env_pass=["PASSED_VAR"], enabled=False)
    r = box.run("echo ${SECRET_TOKEN:-none} $PASSED_VAR", timeout_s=30)
    assert r.output.split() == ["none", "p"]  # a cleared environment, named variables only


# --- agents ------------------------------------------------------------------------------------------


def test_agent_registry_errors():
    with pytest.raises(UserError, match="unknown"):
        make_agent("claude-of-the-future")
    with pytest.raises(UserError, match="template"):
        make_agent("command")
    with pytest.raises(UserError, match="bad placeholder"):
        make_agent("command", {"template": "x {nope}"})
    with pytest.raises(UserError, match="cannot import"):
        make_agent("no_such_module_xyz:Agent")


# --- jobs --------------------------------------------------------------------------------------------


def test_oracle_scores_one_and_nop_zero(suite, tmp_path):
    job, summary = run_job(config(suite, "oracle", attempts=2), tmp_path / "runs")
    assert summary["pass_at_1"] == 1.0 and summary["trials_finished"] == 4 and summary["tasks"] == 2
    assert summary["pass_at_k"]["2"]["value"] == 1.0 and summary["pass_hat_k"]["2"]["value"] == 1.0
    assert summary["by_type"]["app"]["pass_at_1"] == 1.0
    assert set(summary["by_capability"]) == {"interaction", "ui"}
    trial = job / "blue-button__oracle__2"
    assert json.loads((trial / "verifier" / "reward.json").read_text()) == {"reward": 1}
    result = json.loads((trial / "result.json").read_text())
    assert result["reward"] == 1 and result["agent_result"]["exit_status"] == "completed"
    lock = json.loads((job / "lock.json").read_text())
    assert set(lock["tasks"]) == {"red-button", "blue-button"} and "xrblocks" in lock["web_dependencies"]
    assert "| oracle |" in (job / "summary.md").read_text()

    _, summary = run_job(config(suite, "nop"), tmp_path / "runs")
    assert summary["pass_at_1"] == 0.0 and summary["infra_errors"] == 0


def test_resume_runs_only_unfinished_trials_and_matches(suite, tmp_path):
    job, full = run_job(config(suite, "oracle", attempts=2), tmp_path / "runs")
    # Simulate a job killed mid-way: two trials never finished (no result.json), one half-written.
    for name in ("red-button__oracle__2", "blue-button__oracle__1"):
        (job / name / "result.json").unlink()
    (job / SUMMARY_FILE).unlink()
    ran = []
    summary = resume_job(job, on_trial=lambda r: ran.append(r["trial"]))
    assert sorted(ran) == ["blue-button__oracle__1", "red-button__oracle__2"]
    assert summary == full
    assert len(load_results(job)) == 4


def test_recordings_land_in_the_trial_folder_of_a_relative_job_folder(tmp_path, monkeypatch):
    # `xrbench run` names its folder relative to the working directory, while the verifier's pytest
    # runs in a temporary copy of the task: a relative artifacts path once put every video there.
    tests = {
        "test_app.py": (
            "from pathlib import Path\n\n\n"
            "def test_keeps_a_recording(request):\n"
            "    folder = Path(request.config.getoption('--xr-artifacts')).resolve()\n"
            "    folder.mkdir(parents=True, exist_ok=True)\n"
            "    (folder / 'video.webm').write_text('frames')\n"
        )
    }
    make_app_task(tmp_path / "suite", tests=tests)
    monkeypatch.chdir(tmp_path)
    job, summary = run_job(config(Path("suite"), "oracle", record=True), Path("runs"))
    assert summary["pass_at_1"] == 1.0
    assert (tmp_path / job / "red-button__oracle__1" / "artifacts" / "video.webm").read_text() == "frames"


def test_regrade_reruns_only_the_verifier(suite, tmp_path):
    job, _ = run_job(config(suite, "oracle", only=["red-button"]), tmp_path / "runs")
    report = regrade_job(job, repeats=2)
    assert report["disagreeing_trials"] == []
    assert report["trials"][0]["regrades"] == [1, 1]
    assert (job / "red-button__oracle__1" / "verifier-regrade-2" / "reward.json").is_file()


def test_user_agent_and_command_agent(suite, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    _, summary = run_job(config(suite, "user_agent_example:AppendsLine", only=["red-button"]), tmp_path / "runs")
    assert summary["pass_at_1"] == 1.0 and summary["tool_usage"]["total"] == {"edit": 1}
    # An external CLI agent: reads the instruction file, edits the workspace (in the sandbox).
    template = "grep -q red-button {instruction_file} && printf '// red-button 0xff0000\\n' >> {workspace}/main.js"
    cfg = config(suite, "command", only=["red-button"], agent_args={"template": template})
    job, summary = run_job(cfg, tmp_path / "runs")
    assert summary["pass_at_1"] == 1.0, (job / "red-button__command__1" / "agent" / "agent-output.txt").read_text()


# --- CLI and Ray ------------------------------------------------------------------------------------


def test_cli_run_resume_and_errors(suite, tmp_path):
    out = tmp_path / "runs"
    r = runner.invoke(app, ["run", "--agent", "nop", "--tasks", str(suite), "--out", str(out), "--workers", "2"])
    assert r.exit_code == 0, r.output
    assert "nop on 2 task(s)" in r.output and "0.000" in r.output
    (job,) = out.iterdir()
    r = runner.invoke(app, ["run", "--resume", str(job)])
    assert r.exit_code == 0 and "2 of 2 already done" in r.output
    r = runner.invoke(app, ["run", "--agent", "bogus", "--tasks", str(suite), "--out", str(out)])
    assert r.exit_code == 2 and r.stderr.startswith("error: --agent 'bogus': unknown")
    r = runner.invoke(app, ["run", "--agent", "mini-swe-agent", "--tasks", str(suite), "--out", str(out)])
    assert r.exit_code == 2 and "needs a model: no provider configured" in r.stderr and "Traceback" not in r.output
    r = runner.invoke(app, ["run", "--resume", str(tmp_path)])
    assert r.exit_code == 2 and "not a GenXR job folder" in r.stderr


def test_ray_executor_gives_the_local_summary(suite, tmp_path):
    pytest.importorskip("ray")
    _, local = run_job(config(suite, "oracle"), tmp_path / "local")
    _, on_ray = run_job(config(suite, "oracle", executor="ray"), tmp_path / "ray")
    assert on_ray["trials_finished"] == 2
    assert on_ray == local


def test_failure_categories_of_failed_tests_are_counted(tmp_path):
    tests = {
        "test_app.py": (
            "import pytest\n\n\n"
            '@pytest.mark.failure_category("hand-asymmetry")\n'
            "def test_has_button(workspace_dir):\n"
            "    assert 'red-button' in (workspace_dir / 'main.js').read_text()\n"
        )
    }
    suite = tmp_path / "suite"
    make_app_task(suite, tests=tests)
    job, summary = run_job(config(suite, "nop"), tmp_path / "runs")
    assert summary["failure_categories"] == {"hand-asymmetry": 1}
    assert "| hand-asymmetry | 1 |" in (job / "summary.md").read_text()


def test_fail_fast_stops_each_verification_at_its_first_failure(tmp_path):
    tests = {
        "test_app.py": (
            "def test_first(workspace_dir):\n"
            "    assert 'red-button' in (workspace_dir / 'main.js').read_text()\n\n\n"
            "def test_second(workspace_dir):\n"
            "    assert '0xff0000' in (workspace_dir / 'main.js').read_text()\n"
        )
    }
    suite = tmp_path / "suite"
    make_app_task(suite, tests=tests)
    outcomes = {}
    for fail_fast in (False, True):
        job, summary = run_job(config(suite, "nop", fail_fast=fail_fast), tmp_path / f"runs-{fail_fast}")
        assert summary["pass_at_1"] == 0.0
        verdict = json.loads((job / "red-button__nop__1" / "verifier" / "verdict.json").read_text())
        outcomes[fail_fast] = [t["outcome"] for t in verdict["tests"]]
    assert outcomes[False] == ["failed", "failed"]
    assert outcomes[True][0] == "failed" and outcomes[True][1] != "failed"
