"""One GenXR trial: an agent on a task, then the verifier on a fresh copy of its workspace.

    <job>/<task>__<agent>__<attempt>/
      workspace/        what the agent left (kept for regrading)
      agent/            instruction.md, agent-output.txt or trajectory.json, error.txt
      verifier/         verdict.json (the FIXED verify JSON), reward.json, details.json, junit.xml, ...
      artifacts/        the verifier's recordings (videos, key frames) per XR test
      result.json       written last: its presence marks the trial finished

Flow (after Harbor): prepare the task's starting workspace; run the agent in the sandbox under
its limits (tests and solutions are hidden from it); copy the tests in only now, into a fresh
copy of the workspace, and verify. An infrastructure error of the verifier (browser did not
start, ...) is retried up to `verifier_retries` times; an agent's own failure never is.
"""

from __future__ import annotations

import shutil
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from xrbench.genxr.agents.base import AgentLimits, AgentResult, TrialContext
from xrbench.genxr.grading import (
    RunReport,
    Verdict,
    default_pytest_args,
    error_line,
    grade,
    verify,
    write_verdict,
)
from xrbench.genxr.sandbox import Sandbox
from xrbench.genxr.sdk import SDK_DIR, pinned_sdk_code
from xrbench.genxr.task import Task, TaskType, load_task
from xrbench.genxr.workspace import prepare_workspace
from xrbench.procs import interrupted
from xrbench.store.atomic import atomic_write_json, atomic_write_text

RESULT_FILE = "result.json"
REPO_ROOT = Path(__file__).resolve().parents[3]


@dataclass(frozen=True)
class AgentSpec:
    """An agent as plain data: name, `--agent-arg`s and provider settings (see `agents.registry`)."""

    name: str
    args: dict[str, str] = field(default_factory=dict)
    provider: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The agent's name in trial folder names (`module:Class` -> `Class`)."""
        return self.name.rsplit(":", 1)[-1]


@dataclass(frozen=True)
class TrialSpec:
    """Everything a worker needs to run one trial (picklable, for Ray)."""

    task_dir: str
    agent: AgentSpec
    attempt: int
    trial_dir: str
    limits: AgentLimits = field(default_factory=AgentLimits)
    hidden: tuple[str, ...] = ()
    network: bool = False
    env_pass: tuple[str, ...] = ()
    verifier_retries: int = 2
    record: bool = False
    fail_fast: bool = False
    seed: int = 0

    @property
    def trial_id(self) -> str:
        return Path(self.trial_dir).name


def trial_name(task_id: str, agent: AgentSpec, attempt: int) -> str:
    """`<task>__<agent>__<attempt>` (attempts count from 1 in names)."""
    return f"{task_id}__{agent.label}__{attempt + 1}"


def _resources() -> dict[str, str]:
    """Read-only resources the agent is told about through environment variables."""
    env: dict[str, str] = {}
    try:
        from xrbench.xrtest.webdeps import find_web_deps

        env["XRBLOCKS_DIR"] = str(find_web_deps().node_modules / "xrblocks")
    except Exception:  # no web deps: the verifier will say so as an infra error
        pass
    examples = REPO_ROOT / "examples"
    if examples.is_dir():
        env["XRBENCH_EXAMPLES"] = str(examples)
    return env


def _verify(spec: TrialSpec, task: Any, workspace: Path, out: Path) -> tuple[Verdict, int]:
    args = [*default_pytest_args(), "--xr-artifacts", str(Path(spec.trial_dir) / "artifacts")]
    if spec.record:
        args.append("--xr-record")
    if spec.fail_fast:
        args.append("-x")
    tries = 0
    while True:
        tries += 1
        verdict = verify(task, workspace, out, pytest_args=args)
        if not verdict.infra_error or tries > spec.verifier_retries:
            return verdict, tries


def failure_categories(task: Any, verdict: Verdict) -> list[str]:
    """The declared failure categories of the tests this candidate failed (not on infra errors)."""
    if verdict.infra_error:
        return []
    from xrbench.genxr.grading import base_id

    declared = {d.id: d.categories for d in task.tests}
    out: dict[str, None] = {}
    for t in verdict.tests:
        if not t.ok:
            for c in declared.get(base_id(t.id), ()):
                out[c] = None
    return list(out)


def run_trial(spec: TrialSpec) -> dict[str, Any]:
    """Run one trial (see the module docstring); returns the `result.json` record.

    A trial folder left by an interrupted run (no result.json) is started over. A trial that
    cannot be prepared (the task does not load, its starting workspace cannot be made) still
    finishes: it is recorded as a `setup_failed` infrastructure error, so the job goes on.
    """
    trial = Path(spec.trial_dir)
    if trial.exists():
        shutil.rmtree(trial)
    agent_dir, ws = trial / "agent", trial / "workspace"
    agent_dir.mkdir(parents=True)
    t0 = time.perf_counter()
    task: Task | None = None
    try:
        task = load_task(spec.task_dir)
        prepare_workspace(task, ws)
        sandbox = trial_sandbox(spec, ws, task)
    except Exception as e:  # the task's or the machine's problem, never the agent's: one line, no crash
        atomic_write_text(agent_dir / "error.txt", traceback.format_exc())
        return _setup_failed(spec, task, e, time.perf_counter() - t0)

    t_agent = time.perf_counter()
    agent_result = _run_agent(spec, task, ws, agent_dir, sandbox)
    agent_s = time.perf_counter() - t_agent

    t_verify = time.perf_counter()
    verdict, tries = _verify(spec, task, ws, trial / "verifier")
    write_verdict(verdict, trial / "verifier" / "verdict.json")
    verifier_s = time.perf_counter() - t_verify

    timings = {"agent_s": agent_s, "verifier_s": verifier_s, "total_s": time.perf_counter() - t0}
    result = _record(spec, task, verdict, tries, agent_result, timings, sandbox.describe())
    if interrupted():  # the agent or the verifier was killed by Ctrl-C: leave the trial unfinished
        raise KeyboardInterrupt
    atomic_write_json(trial / RESULT_FILE, result)
    return result


def trial_sandbox(spec: TrialSpec, ws: Path, task: Task) -> Sandbox:
    """The agent's sandbox: the workspace writable, the tasks and the job hidden.

    For SDK tasks the pinned SDK's code is hidden too (it is the unmodified SDK), and
    `$XRBLOCKS_DIR` names the workspace's own `sdk/` (the sources to change, the SDK's guides).
    """
    resources = _resources()
    # Also part of the toolkit the sandbox binds; named again so they show even if hidden.
    readable = [Path(p) for p in resources.values()]
    hidden = [Path(p) for p in spec.hidden]
    if task.type.is_sdk:
        hidden += pinned_sdk_code()
        resources["XRBLOCKS_DIR"] = str(ws / SDK_DIR)
    # The workspace was made for this trial just now: as root it is handed to the sandbox user.
    return Sandbox(
        ws,
        hidden=hidden,
        readable=readable,
        network=spec.network,
        env_pass=spec.env_pass,
        extra_env=resources,
        own_workspace=True,
    )


def _run_agent(spec: TrialSpec, task: Task, ws: Path, agent_dir: Path, sandbox: Sandbox) -> AgentResult:
    """Run the agent on the prepared workspace; its failure is recorded, graded as it stands, never retried."""
    from xrbench.genxr.agents.registry import make_agent

    ctx = TrialContext(
        task=task,
        instruction=task.instruction,
        workspace=ws,
        log_dir=agent_dir,
        limits=spec.limits,
        sandbox=sandbox,
        attempt=spec.attempt,
        seed=spec.seed + spec.attempt,
    )
    try:
        agent = make_agent(spec.agent.name, spec.agent.args, spec.agent.provider)
        return agent.run(ctx)
    except Exception as e:
        atomic_write_text(agent_dir / "error.txt", traceback.format_exc())
        return AgentResult("error", message=f"{type(e).__name__}: {e}")


def _setup_failed(spec: TrialSpec, task: Task | None, error: BaseException, seconds: float) -> dict[str, Any]:
    """Finish a trial that could not be prepared: a `setup_failed` infrastructure error, reward 0.

    The agent never ran and the verifier is not retried (the same setup would fail again); the
    verdict files are written as for any trial, so the trial reads like every other one.
    """
    trial = Path(spec.trial_dir)
    infra = f"setup_failed: cannot prepare the trial: {error_line(error)}"
    if task is None:
        # The task no longer loads (it changed after the job started): grade what is known of it.
        verdict = grade(Path(spec.task_dir).name, TaskType.APP, (), RunReport(infra_error=infra))
    else:
        verdict = grade(task.id, task.type, task.tests, RunReport(infra_error=infra))
    write_verdict(verdict, trial / "verifier" / "verdict.json")
    agent_result = AgentResult("error", message="not run: the trial could not be prepared")
    timings = {"agent_s": 0.0, "verifier_s": 0.0, "total_s": seconds}
    result = _record(spec, task, verdict, 0, agent_result, timings, {})
    atomic_write_json(trial / RESULT_FILE, result)
    return result


def _record(
    spec: TrialSpec,
    task: Task | None,
    verdict: Verdict,
    tries: int,
    agent_result: AgentResult,
    timings: dict[str, float],
    sandbox: dict[str, Any],
) -> dict[str, Any]:
    """The `result.json` record (task fields are null when the task did not load)."""
    return {
        "trial": spec.trial_id,
        "task": task.id if task else Path(spec.task_dir).name,
        "task_type": task.type.value if task else None,
        "difficulty": task.spec.difficulty.value if task else None,
        "capabilities": [c.value for c in task.spec.capabilities] if task else [],
        "agent": spec.agent.name,
        "model": agent_result.settings.get("model") or spec.agent.provider.get("model"),
        "model_settings": {**{k: v for k, v in spec.agent.provider.items() if v is not None}, **agent_result.settings},
        "attempt": spec.attempt,
        "reward": verdict.reward,
        "passed": verdict.passed,
        "infra_error": verdict.infra_error,
        "verifier_tries": tries,
        "failed_tests": [t.id for t in verdict.tests if not t.ok],
        "failure_categories": failure_categories(task, verdict) if task else [],
        "agent_result": agent_result.to_json(),
        "timings": {k: round(v, 3) for k, v in timings.items()},
        "limits": asdict(spec.limits),
        "sandbox": sandbox,
    }
