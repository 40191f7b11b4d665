"""A GenXR job: every selected task x attempt for one agent, run by an executor, summarized.

    <out>/<YYYYmmdd-HHMMSS>-<agent>/
      config.json       the resolved job configuration (enough to resume it)
      lock.json         task checksums, toolkit and web-dependency versions, python, platform
      <task>__<agent>__<attempt>/   one folder per trial (see `trial.py`)
      summary.json      metrics (see `summarize`), rewritten as trials finish
      summary.md        the same as tables

`resume_job(dir)` reruns only the trials without a `result.json`; its summary equals that of an
uninterrupted run. `summary.json` holds no wall-clock figures, so two runs of the same trials
(on the local executor or on Ray) give identical summaries; timings stay in each `result.json`.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from xrbench.errors import UserError
from xrbench.exec import make_executor
from xrbench.genxr import metrics
from xrbench.genxr.agents.base import AgentLimits
from xrbench.genxr.task import DEFAULT_TASKS_DIR, Task, find_task, load_tasks
from xrbench.genxr.trial import RESULT_FILE, AgentSpec, TrialSpec, run_trial, trial_name
from xrbench.genxr.validate import task_fingerprint
from xrbench.store.atomic import atomic_write_json, atomic_write_text
from xrbench.store.provenance import environment_info
from xrbench.store.read import read_json

CONFIG_FILE, LOCK_FILE, SUMMARY_FILE = "config.json", "lock.json", "summary.json"


class JobConfig(BaseModel):
    """What `xrbench genxr run` was asked to do (written to config.json)."""

    model_config = ConfigDict(extra="forbid")

    agent: str
    agent_args: dict[str, str] = Field(default_factory=dict)
    provider: dict[str, Any] = Field(default_factory=dict)  # provider, model, base_url, replay
    tasks_dir: str = str(DEFAULT_TASKS_DIR)
    only: list[str] = Field(default_factory=list)
    attempts: int = Field(1, ge=1)
    workers: int | None = None
    executor: str = "local"
    address: str | None = None
    limits: dict[str, Any] = Field(default_factory=dict)  # AgentLimits fields
    network: bool = False
    env_pass: list[str] = Field(default_factory=list)
    verifier_retries: int = Field(2, ge=0)
    record: bool = False
    # Stop each verification at the first failing test: the reward is the same, only per-test
    # outcomes after it are not known (what a job whose failures are expected wants, e.g. nop).
    fail_fast: bool = False
    seed: int = 0

    @property
    def agent_spec(self) -> AgentSpec:
        return AgentSpec(self.agent, dict(self.agent_args), dict(self.provider))


def select_tasks(config: JobConfig) -> list[Task]:
    """The job's tasks: `only` (ids or task folders) or every non-example task of `tasks_dir`."""
    if config.only:
        return [find_task(i, config.tasks_dir) for i in dict.fromkeys(config.only)]
    return [t for t in load_tasks(config.tasks_dir) if not t.spec.example]


def lock_info(tasks: Sequence[Task]) -> dict[str, Any]:
    """Checksums and versions that pin what a job ran on."""
    return {
        **environment_info(),
        "tasks": {t.id: {"dir": str(t.dir), "sha256": task_fingerprint(t)} for t in tasks},
    }


def trial_specs(config: JobConfig, job_dir: Path, tasks: Sequence[Task]) -> list[TrialSpec]:
    """One spec per task x attempt, attempt-major (every task gets attempt 1 before any gets 2)."""
    # Absolute paths: a trial's processes run elsewhere (the verifier in a temporary copy of the
    # task, a Ray worker in its own folder), where a relative path would lose what they write.
    job_dir = job_dir.resolve()

    def limits(task: Task) -> AgentLimits:
        # The task's own agent timeout (task.toml [agent] timeout_sec) unless the job sets one.
        return AgentLimits(**{"wall_time_s": task.spec.agent.timeout_sec, **config.limits})

    hidden = sorted({str(Path(config.tasks_dir).resolve()), str(DEFAULT_TASKS_DIR), str(job_dir)})
    hidden += [str(t.dir.resolve()) for t in tasks]
    agent = config.agent_spec
    return [
        TrialSpec(
            task_dir=str(t.dir.resolve()),
            agent=agent,
            attempt=a,
            trial_dir=str(job_dir / trial_name(t.id, agent, a)),
            limits=limits(t),
            hidden=tuple(dict.fromkeys(hidden)),
            network=config.network,
            env_pass=tuple(config.env_pass),
            verifier_retries=config.verifier_retries,
            record=config.record,
            fail_fast=config.fail_fast,
            seed=config.seed,
        )
        for a in range(config.attempts)
        for t in tasks
    ]


def load_results(job_dir: Path) -> list[dict[str, Any]]:
    """Every finished trial's result.json, in a stable order."""
    out = []
    for path in sorted(job_dir.glob(f"*/{RESULT_FILE}")):
        try:
            out.append(read_json(path))
        except Exception as e:
            raise UserError(f"{path}: unreadable trial result ({e}); delete the trial folder to rerun it") from None
    return sorted(out, key=lambda r: (r["task"], r["attempt"]))


def summarize(config: JobConfig, results: Sequence[dict[str, Any]], expected_trials: int) -> dict[str, Any]:
    """summary.json: scores overall and by type, difficulty and capability, tool usage, statuses."""
    tools: Counter[str] = Counter()
    statuses: Counter[str] = Counter()
    categories: Counter[str] = Counter()
    for r in results:
        tools.update(r["agent_result"].get("tool_usage", {}))
        statuses[r["agent_result"]["exit_status"]] += 1
        categories.update(r.get("failure_categories", []))
    n = len(results)
    scores = metrics.score(results)
    return {
        "agent": config.agent,
        "model": config.provider.get("model"),
        "attempts": config.attempts,
        "trials_expected": expected_trials,
        "trials_finished": n,
        **scores,
        "by_type": metrics.breakdown(results, "task_type"),
        "by_difficulty": metrics.breakdown(results, "difficulty"),
        "by_capability": metrics.breakdown(results, "capabilities"),
        "infra_error_trials": sorted(r["trial"] for r in results if r.get("infra_error")),
        "agent_exit_status": dict(sorted(statuses.items())),
        # failed trials per failure category (a trial counts once per category its failed tests name)
        "failure_categories": dict(sorted(categories.items())),
        "tool_usage": {
            "total": dict(sorted(tools.items())),
            "per_trial": {k: round(v / n, 3) for k, v in sorted(tools.items())} if n else {},
        },
        "rewards": {r["trial"]: r["reward"] for r in results},
    }


def _fmt(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def summary_markdown(summary: dict[str, Any]) -> str:
    """The summary as Markdown tables (shaped like the seed's Table 3)."""
    head = f"# GenXR-Bench: {summary['agent']}" + (f" ({summary['model']})" if summary.get("model") else "")
    ci = summary.get("pass_at_1_ci95")
    lines = [
        head,
        "",
        f"{summary['trials_finished']} of {summary['trials_expected']} trials, "
        f"{summary['attempts']} attempt(s) per task; infrastructure errors: {summary.get('infra_errors', 0)}.",
        "",
        "| agent | model | Pass@1 | 95% CI | app | sdk-feature | sdk-repair |",
        "|---|---|---|---|---|---|---|",
    ]
    by_type = summary.get("by_type", {})
    cells = [_fmt(by_type.get(t, {}).get("pass_at_1")) for t in ("app", "sdk-feature", "sdk-repair")]
    ci_txt = f"[{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "–"
    lines.append(
        f"| {summary['agent']} | {summary.get('model') or '–'} | {_fmt(summary.get('pass_at_1'))} | {ci_txt} | "
        + " | ".join(cells)
        + " |"
    )
    if summary.get("pass_at_k"):
        lines += ["", "| k | pass@k | pass^k |", "|---|---|---|"]
        for k, v in summary["pass_at_k"].items():
            lines.append(f"| {k} | {_fmt(v['value'])} | {_fmt(summary['pass_hat_k'][k]['value'])} |")
    for title, key in (("Difficulty", "by_difficulty"), ("Capability", "by_capability")):
        lines += ["", f"| {title.lower()} | trials | Pass@1 |", "|---|---|---|"]
        for name, s in summary.get(key, {}).items():
            lines.append(f"| {name} | {s['trials']} | {_fmt(s['pass_at_1'])} |")
    if summary.get("failure_categories"):
        lines += ["", "| failure category | failed trials |", "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in summary["failure_categories"].items()]
    tools = summary.get("tool_usage", {})
    if tools.get("total"):
        lines += ["", "| action | total | per trial |", "|---|---|---|"]
        for k, v in tools["total"].items():
            lines.append(f"| {k} | {v} | {_fmt(tools['per_trial'][k])} |")
    return "\n".join(lines) + "\n"


def write_summary(job_dir: Path, config: JobConfig, expected: int) -> dict[str, Any]:
    summary = summarize(config, load_results(job_dir), expected)
    atomic_write_json(job_dir / SUMMARY_FILE, summary)
    atomic_write_text(job_dir / "summary.md", summary_markdown(summary))
    return summary


def _execute(
    config: JobConfig,
    job_dir: Path,
    tasks: Sequence[Task],
    on_plan: Callable[[int, int], None] | None,
    on_trial: Callable[[dict[str, Any]], None] | None,
) -> dict[str, Any]:
    specs = trial_specs(config, job_dir, tasks)
    todo = [s for s in specs if not (Path(s.trial_dir) / RESULT_FILE).is_file()]
    if on_plan:
        on_plan(len(specs), len(todo))
    executor = make_executor(config.executor, workers=config.workers, address=config.address)
    try:
        for _spec, result in executor.map(run_trial, todo):
            write_summary(job_dir, config, len(specs))
            if on_trial:
                on_trial(result)
    finally:
        shutdown = getattr(executor, "shutdown", None)
        if shutdown:
            shutdown()
        # Written however the loop ended (no trial to run, every trial failed, an error, Ctrl-C):
        # a job folder always says what finished.
        summary = write_summary(job_dir, config, len(specs))
    return summary


def new_job_dir(out: Path, config: JobConfig) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = out / f"{stamp}-{config.agent_spec.label}"
    job_dir, i = base, 1
    while job_dir.exists():
        i += 1
        job_dir = base.with_name(f"{base.name}-{i}")
    return job_dir


def run_job(
    config: JobConfig,
    out: str | Path,
    *,
    on_plan: Callable[[int, int], None] | None = None,
    on_trial: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[Path, dict[str, Any]]:
    """Start a job under `out`; returns (job folder, summary)."""
    tasks = select_tasks(config)
    job_dir = new_job_dir(Path(out), config)
    job_dir.mkdir(parents=True)
    atomic_write_json(job_dir / CONFIG_FILE, config.model_dump())
    atomic_write_json(job_dir / LOCK_FILE, lock_info(tasks))
    return job_dir, _execute(config, job_dir, tasks, on_plan, on_trial)


def load_config(job_dir: str | Path) -> JobConfig:
    """The job's config.json (a folder without one is not a job)."""
    path = Path(job_dir) / CONFIG_FILE
    if not path.is_file():
        raise UserError(f"{job_dir}: not a GenXR job folder (no {CONFIG_FILE})")
    try:
        return JobConfig.model_validate(read_json(path))
    except Exception as e:
        raise UserError(f"{path}: invalid job config: {str(e).splitlines()[0]}") from None


def resume_job(
    job_dir: str | Path,
    *,
    on_plan: Callable[[int, int], None] | None = None,
    on_trial: Callable[[dict[str, Any]], None] | None = None,
    **overrides: Any,
) -> dict[str, Any]:
    """Finish an interrupted job: runs only trials without a result. `overrides` (e.g. `executor`,
    `workers`) change how, never what; tasks whose files changed since the job started are refused."""
    job_dir = Path(job_dir)
    config = load_config(job_dir)
    config = config.model_copy(update={k: v for k, v in overrides.items() if v is not None})
    tasks = select_tasks(config)
    lock = read_json(job_dir / LOCK_FILE) if (job_dir / LOCK_FILE).is_file() else {}
    for t in tasks:
        pinned = lock.get("tasks", {}).get(t.id, {}).get("sha256")
        if pinned and pinned != task_fingerprint(t):
            raise UserError(f"{t.dir}: the task changed since the job started; start a new job")
    return _execute(config, job_dir, tasks, on_plan, on_trial)


def regrade_job(job_dir: str | Path, *, repeats: int = 1) -> dict[str, Any]:
    """Re-run only the verifier on every finished trial's recorded workspace, `repeats` times.

    Writes `verifier-regrade-<i>/` beside each trial's verifier output and `regrade.json` with the
    agreement of each regrade with the original reward (verifier flakiness, agent held fixed).
    """
    from xrbench.genxr.grading import verify, write_verdict

    job_dir = Path(job_dir)
    config = load_config(job_dir)
    rows = []
    for r in load_results(job_dir):
        trial = job_dir / r["trial"]
        task = find_task(json.loads((job_dir / LOCK_FILE).read_text())["tasks"][r["task"]]["dir"], config.tasks_dir)
        rewards = []
        for i in range(repeats):
            out = trial / f"verifier-regrade-{i + 1}"
            verdict = verify(task, trial / "workspace", out)
            write_verdict(verdict, out / "verdict.json")
            rewards.append(verdict.reward)
        rows.append({"trial": r["trial"], "reward": r["reward"], "regrades": rewards})
    disagreeing = [row["trial"] for row in rows if any(x != row["reward"] for x in row["regrades"])]
    report = {"repeats": repeats, "trials": rows, "disagreeing_trials": disagreeing}
    atomic_write_json(job_dir / "regrade.json", report)
    return report


def limits_from(**values: Any) -> dict[str, Any]:
    """AgentLimits fields that were given (for JobConfig.limits)."""
    known = set(asdict(AgentLimits()))
    return {k: v for k, v in values.items() if k in known and v is not None}
