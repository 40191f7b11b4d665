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
from xrbench.genxr.grading import Verdict, default_pytest_args, verify, write_verdict
from xrbench.genxr.sandbox import Sandbox
from xrbench.genxr.task import load_task
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

    A trial folder left by an interrupted run (no result.json) is started over.
    """
    from xrbench.genxr.agents.registry import make_agent

    trial = Path(spec.trial_dir)
    if trial.exists():
        shutil.rmtree(trial)
    agent_dir, ws = trial / "agent", trial / "workspace"
    agent_dir.mkdir(parents=True)
    task = load_task(spec.task_dir)
    t0 = time.perf_counter()
    prepare_workspace(task, ws)
    sandbox = Sandbox(ws, hidden=[Path(p) for p in spec.hidden], network=spec.network, env_pass=spec.env_pass)
    sandbox.extra_env = _resources()
    # Bound explicitly: a checkout under /tmp would otherwise vanish behind the sandbox's private /tmp.
    sandbox.readable = [Path(p) for p in sandbox.extra_env.values()]
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
    t_agent = time.perf_counter()
    try:
        agent = make_agent(spec.agent.name, spec.agent.args, spec.agent.provider)
        agent_result = agent.run(ctx)
    except Exception as e:  # the agent's failure: recorded, graded as it stands, never retried
        atomic_write_text(agent_dir / "error.txt", traceback.format_exc())
        agent_result = AgentResult("error", message=f"{type(e).__name__}: {e}")
    agent_s = time.perf_counter() - t_agent

    t_verify = time.perf_counter()
    verdict, tries = _verify(spec, task, ws, trial / "verifier")
    write_verdict(verdict, trial / "verifier" / "verdict.json")
    verifier_s = time.perf_counter() - t_verify

    result = {
        "trial": spec.trial_id,
        "task": task.id,
        "task_type": task.type.value,
        "difficulty": task.spec.difficulty.value,
        "capabilities": [c.value for c in task.spec.capabilities],
        "agent": spec.agent.name,
        "model": spec.agent.provider.get("model"),
        "attempt": spec.attempt,
        "reward": verdict.reward,
        "passed": verdict.passed,
        "infra_error": verdict.infra_error,
        "verifier_tries": tries,
        "failed_tests": [t.id for t in verdict.tests if not t.ok],
        "failure_categories": failure_categories(task, verdict),
        "agent_result": agent_result.to_json(),
        "timings": {
            "agent_s": round(agent_s, 3),
            "verifier_s": round(verifier_s, 3),
            "total_s": round(time.perf_counter() - t0, 3),
        },
        "limits": asdict(spec.limits),
        "sandbox": sandbox.describe(),
    }
    if interrupted():  # the agent or the verifier was killed by Ctrl-C: leave the trial unfinished
        raise KeyboardInterrupt
    atomic_write_json(trial / RESULT_FILE, result)
    return result
