"""The real mini-swe-agent as GenXR's model agent, driven by a local OpenAI-compatible server.

The server on 127.0.0.1 speaks the real chat-completions protocol and answers with scripted
replies; mini-swe-agent's own loop parses them, every action runs in the trial's sandbox, and
the trial ends in the real verifier's verdict (synthetic tasks for the loop's rules, the bundled
format example for a whole trial in the browser).
"""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest
from llm_fakes import FakeServer, chat_completion, openai_default
from llm_fakes import serve as _serve
from typer.testing import CliRunner

from xrbench.cli.genxr_cmd import app
from xrbench.errors import UserError
from xrbench.genxr.agents import make_agent, trajectory
from xrbench.genxr.agents.mini_swe_agent import load_config
from xrbench.genxr.job import JobConfig, run_job

from .builders import make_app_task

serve = contextlib.contextmanager(_serve)
runner = CliRunner()
SANDBOXED = shutil.which("bwrap") is not None
SUBMIT = "THOUGHT: the task is done.\n```mswea_bash_command\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"


def action(command: str, thought: str = "THOUGHT: next step.") -> str:
    return f"{thought}\n\n```mswea_bash_command\n{command}\n```"


@pytest.fixture
def suite(tmp_path) -> Path:
    root = tmp_path / "suite"
    make_app_task(root, "red-button")
    return root


def job_config(tasks: str, **kw) -> JobConfig:
    return JobConfig(agent="mini-swe-agent", tasks_dir=tasks, workers=1, **kw)


def read(path: Path) -> dict:
    return json.loads(path.read_text())


def test_a_whole_trial_live_then_replayed_from_the_recording(suite, tmp_path, monkeypatch):
    recording = tmp_path / "replies.jsonl"
    server = FakeServer(default=openai_default)
    for text in [
        action("ls && hostname", "THOUGHT: I look at the files first."),
        action("ls") + "\n" + action("ls"),  # two actions in one reply: a format error
        action("printf '// red-button 0xff0000\\n' >> main.js"),
        SUBMIT,
    ]:
        server.queue(200, chat_completion(text, model="scripted"))
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with serve(server) as srv:
        monkeypatch.setenv("XRBENCH_RECORD", str(recording))
        provider = {"provider": "openai", "model": "scripted", "base_url": f"{srv.url}/v1"}
        job, live = run_job(job_config(str(suite), only=["red-button"], provider=provider), tmp_path / "live")
    monkeypatch.delenv("XRBENCH_RECORD")
    assert live["pass_at_1"] == 1.0, live
    trial = job / "red-button__mini-swe-agent__1"

    # mini-swe-agent's own trajectory format, its own loop (system + instance templates first).
    traj = read(trial / "agent" / "trajectory.json")
    assert traj["trajectory_format"] == "mini-swe-agent-1.1" and traj["info"]["exit_status"] == "Submitted"
    assert traj["info"]["mini_version"].startswith("2.4")
    messages = traj["messages"]
    assert [m["role"] for m in messages[:2]] == ["system", "user"]
    assert "Cylinder" in messages[1]["content"] or "red-button" in messages[1]["content"]  # the instruction
    assert [s["kind"] for s in trajectory.steps(traj)] == ["inspect", "format_error", "edit", "submit"]
    first_observation = messages[3]["content"]
    assert "<returncode>0</returncode>" in first_observation and "main.js" in first_observation
    if SANDBOXED:  # the action ran in the trial's bubblewrap sandbox, not on the host
        assert "xrbench-agent" in first_observation
    # The model saw the first reply's observation in the real protocol's request.
    second_request = server.requests[1].body["messages"]
    assert second_request[-1]["content"] == first_observation

    result = read(trial / "result.json")
    assert result["agent_result"]["exit_status"] == "submitted"
    assert result["agent_result"]["tool_usage"] == {"edit": 1, "inspect": 1}
    assert result["agent_result"]["usage"]["api_calls"] == 4
    settings = result["model_settings"]
    assert settings["provider"] == "openai" and settings["model"] == "scripted" == result["model"]
    assert settings["base_url"] == f"{srv.url}/v1" and settings["mini_swe_agent"].startswith("2.4")
    assert settings["config"] == "mini-swe-agent.yaml" and settings["temperature"] == 0.0
    assert live["tool_usage"]["total"] == {"edit": 1, "inspect": 1}
    assert len(recording.read_text().splitlines()) == 4

    # The same job offline, from the recording: the same summary.
    provider = {"provider": "replay", "model": "scripted", "replay": str(recording)}
    _, replayed = run_job(job_config(str(suite), only=["red-button"], provider=provider), tmp_path / "replayed")
    assert {k: v for k, v in replayed.items() if k != "model"} == {k: v for k, v in live.items() if k != "model"}


def test_limits_map_to_mini_swe_agents_exit_statuses(suite, tmp_path, monkeypatch):
    server = FakeServer(default=lambda path, body: (200, chat_completion("no command here", model="m")))
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("XRBENCH_CACHE_DIR", "off")  # the three runs ask the same first question
    with serve(server) as srv:
        provider = {"provider": "openai", "model": "m", "base_url": f"{srv.url}/v1"}
        job, s = run_job(job_config(str(suite), only=["red-button"], provider=provider), tmp_path / "a")
        assert s["agent_exit_status"] == {"format_error": 1} and s["pass_at_1"] == 0.0
        assert len(server.requests) == 3  # three malformed replies in a row end the run

        server.default = lambda path, body: (200, chat_completion(action("ls"), model="m"))
        cfg = job_config(str(suite), only=["red-button"], provider=provider, limits={"steps": 2})
        _, s = run_job(cfg, tmp_path / "b")
        assert s["agent_exit_status"] == {"limits_exceeded": 1} and len(server.requests) == 3 + 2

        # The wall-clock limit bounds a running action too: the sleep is killed at the deadline.
        server.default = lambda path, body: (200, chat_completion(action("sleep 30"), model="m"))
        cfg = job_config(str(suite), only=["red-button"], provider=provider, limits={"wall_time_s": 2})
        job, s = run_job(cfg, tmp_path / "c")
        assert s["agent_exit_status"] == {"timeout": 1}
        result = read(job / "red-button__mini-swe-agent__1" / "result.json")
        assert result["timings"]["agent_s"] < 20


def test_the_task_sets_the_wall_time_unless_the_job_does(suite, tmp_path):
    toml = suite / "red-button" / "task.toml"
    toml.write_text(toml.read_text().replace("[agent]\ntimeout_sec = 600", "[agent]\ntimeout_sec = 420"))
    job, _ = run_job(JobConfig(agent="nop", tasks_dir=str(suite), workers=1), tmp_path / "a")
    assert read(job / "red-button__nop__1" / "result.json")["limits"]["wall_time_s"] == 420
    job, _ = run_job(JobConfig(agent="nop", tasks_dir=str(suite), limits={"wall_time_s": 60}), tmp_path / "b")
    assert read(job / "red-button__nop__1" / "result.json")["limits"]["wall_time_s"] == 60


def test_config_errors_name_the_file_and_the_field(tmp_path, monkeypatch):
    shipped = load_config()
    assert "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" in shipped["agent"]["instance_template"]
    bad = tmp_path / "mine.yaml"
    bad.write_text("agent:\n  system_template: hi\n  instance_template: '{{task}}'\n  step_limit: many\n")
    with pytest.raises(UserError, match=r"mine.yaml: agent.step_limit: .*integer"):
        load_config(bad)
    bad.write_text("agent: [1, 2\n")
    with pytest.raises(UserError, match=r"mine.yaml: line \d+ not valid YAML"):
        load_config(bad)
    bad.write_text("agents: {}\n")
    with pytest.raises(UserError, match="unknown section 'agents'"):
        load_config(bad)
    replay = tmp_path / "r.jsonl"
    replay.write_text("")
    provider = {"provider": "replay", "model": "m", "replay": str(replay)}
    with pytest.raises(UserError, match=r"temperature=.*not a number"):
        make_agent("mini-swe-agent", {"temperature": "warm"}, provider)
    with pytest.raises(UserError, match="replaced by the real mini-swe-agent"):
        make_agent("mini")
    suite = tmp_path / "suite"
    make_app_task(suite, "red-button")
    args = ["run", "--agent", "mini-swe-agent", "--agent-arg", f"config={bad}", "--replay", str(replay)]
    r = runner.invoke(app, [*args, "--model", "m", "--tasks", str(suite), "--out", str(tmp_path / "runs")])
    assert r.exit_code == 2 and "unknown section 'agents'" in r.stderr and "Traceback" not in r.output


# --- a whole trial on a bundled task, to the real verifier's verdict ------------------------------------

CUBE_APP = """\
import * as THREE from 'three';
import * as xb from 'xrblocks';

const COLORS = ['#d32f2f', '#1976d2', '#388e3c'];

class CubeApp extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x444444, 3));
    this.index = 0;
    this.cube = new THREE.Mesh(
        new THREE.BoxGeometry(0.3, 0.3, 0.3), new THREE.MeshStandardMaterial({color: COLORS[0]}));
    this.cube.position.set(0, xb.user.height, -1.2);
    this.cube.userData.xrblocksDevtools = {tag: 'color-cube', state: {color: COLORS[0]}};
    this.add(this.cube);
  }
%s
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new CubeApp());
  xb.init(new xb.Options());
});
"""
CYCLE = """
  onObjectSelectStart() {
    this.index = (this.index + 1) % COLORS.length;
    this.cube.material.color.set(COLORS[this.index]);
    this.cube.userData.xrblocksDevtools.state.color = COLORS[this.index];
  }"""


def write_app(source: str) -> str:
    return action(f"cat <<'EOF' > main.js\n{source}EOF", "THOUGHT: I replace main.js with the cube app.")


@pytest.mark.xr
def test_a_trial_on_the_cube_task_passes_and_a_wrong_edit_fails(tmp_path, monkeypatch):
    server = FakeServer(default=openai_default)
    # Attempt 1 builds the app the instruction asks for; attempt 2 forgets to change the colour.
    attempt_1 = [action("cat main.js index.html"), write_app(CUBE_APP % CYCLE), action("node --check main.js"), SUBMIT]
    attempt_2 = [write_app(CUBE_APP % ""), SUBMIT]
    for text in attempt_1 + attempt_2:
        server.queue(200, chat_completion(text, model="scripted"))
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with serve(server) as srv:
        provider = {"provider": "openai", "model": "scripted", "base_url": f"{srv.url}/v1"}
        cfg = JobConfig(agent="mini-swe-agent", only=["example-cube-color"], attempts=2, workers=1, provider=provider)
        job, summary = run_job(cfg, tmp_path / "runs")
    assert len(server.requests) == len(attempt_1) + len(attempt_2)
    ok = read(job / "example-cube-color__mini-swe-agent__1" / "result.json")
    bad = read(job / "example-cube-color__mini-swe-agent__2" / "result.json")
    assert ok["reward"] == 1 and not ok["infra_error"], ok
    assert ok["agent_result"]["tool_usage"] == {"edit": 1, "inspect": 1, "test": 1}
    assert bad["reward"] == 0 and not bad["infra_error"]
    assert any("test_each_selection_changes_the_colour" in t for t in bad["failed_tests"]), bad["failed_tests"]
    assert not any("test_cube_in_front_of_the_user" in t for t in bad["failed_tests"])  # the rest of the app is fine
    assert summary["pass_at_1"] == 0.5
