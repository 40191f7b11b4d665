"""`mini-swe-agent`: the real mini-swe-agent (PyPI `mini-swe-agent`) as GenXR's model agent.

mini-swe-agent runs its own loop (`DefaultAgent`: templates, step/cost/time limits, format
errors, `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT` to submit) with its text-based action
format, and saves its own trajectory format (`agent/trajectory.json`, written atomically after
every step). Two adapters connect it to xrbench, through mini-swe-agent's protocols:

- `ProviderModel` (its `Model`): every call goes through `xrbench.llm`, so `--model`,
  `--base-url`, keys by name, the disk cache, recording and offline replay work as for every
  other model call in the toolkit;
- `SandboxEnvironment` (its `Environment`): every action runs as a fresh process in the trial's
  bubblewrap sandbox (`xrbench.genxr.sandbox`), never on the host.

The prompts and templates are a mini-swe-agent YAML config shipped for GenXR tasks
(`data/genxr/mini-swe-agent.yaml`); `--agent-arg config=PATH` replaces it. The trial's limits
override the config's: steps and cost from the job, wall time from the task's agent timeout,
the per-action timeout from the job.
"""

from __future__ import annotations

import math
import os
import platform
import shlex
import time
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from xrbench.errors import UserError
from xrbench.genxr.agents import trajectory
from xrbench.genxr.agents.base import AgentResult, ExitStatus, TrialContext
from xrbench.genxr.sandbox import Sandbox
from xrbench.llm import GenerationSettings, Message
from xrbench.store.atomic import atomic_write_json

os.environ.setdefault("MSWEA_SILENT_STARTUP", "1")  # read at import: no banner on every trial
try:
    from minisweagent import __version__ as MINI_VERSION
    from minisweagent.agents.default import AgentConfig, DefaultAgent
    from minisweagent.environments.local import LocalEnvironment
    from minisweagent.exceptions import FormatError
    from minisweagent.models.utils.actions_text import format_observation_messages, parse_regex_actions
    from minisweagent.utils.serialize import recursive_merge
except ImportError as e:  # pragma: no cover - a dependency of the package
    raise UserError(f"--agent mini-swe-agent needs the mini-swe-agent package: pip install mini-swe-agent ({e})") from e

DEFAULT_CONFIG = "mini-swe-agent.yaml"
TRAJECTORY = "trajectory.json"
# mini-swe-agent's exit statuses, as the trial records them.
EXIT_STATUS: dict[str, ExitStatus] = {
    "Submitted": "submitted",
    "LimitsExceeded": "limits_exceeded",
    "TimeExceeded": "timeout",
    "RepeatedFormatError": "format_error",
}


class ProviderModelConfig(BaseModel):
    """The `model:` section: the text-based action format and the generation settings."""

    model_name: str = ""
    action_regex: str = r"```mswea_bash_command\s*\n(.*?)\n```"
    observation_template: str = "<returncode>{{output.returncode}}</returncode>\n<output>\n{{output.output}}</output>"
    format_error_template: str = "{{ error }}"
    temperature: float = 0.0
    max_output_tokens: int | None = None
    seed: int | None = None


class ProviderModel:
    """mini-swe-agent's `Model` protocol on an `xrbench.llm.LLM`."""

    def __init__(self, llm: Any, **kwargs: Any):
        self.llm = llm
        self.config = ProviderModelConfig(**{"model_name": getattr(llm, "model", "") or "", **kwargs})

    def query(self, messages: list[dict[str, Any]], **kwargs: Any) -> dict[str, Any]:
        conversation = [
            Message(m["role"], trajectory.text(m.get("content")))
            for m in messages
            if m.get("role") in ("system", "user", "assistant")
        ]
        settings = GenerationSettings(
            temperature=self.config.temperature,
            max_output_tokens=self.config.max_output_tokens,
            seed=self.config.seed,
        )
        completion = self.llm.complete(conversation, settings)
        extra = {"usage": completion.usage.to_dict(), "cached": completion.cached, "timestamp": time.time()}
        try:
            actions = parse_regex_actions(
                completion.text,
                action_regex=self.config.action_regex,
                format_error_template=self.config.format_error_template,
                template_kwargs={"finish_reason": completion.finish_reason},
            )
        except FormatError as e:
            e.messages[0]["extra"].update(extra)  # the call happened: keep its usage in the trajectory
            raise
        return {"role": "assistant", "content": completion.text, "extra": {"actions": actions, **extra}}

    def format_message(self, **kwargs: Any) -> dict[str, Any]:
        return dict(kwargs)

    def format_observation_messages(
        self, message: dict[str, Any], outputs: list[dict[str, Any]], template_vars: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        return format_observation_messages(
            outputs, observation_template=self.config.observation_template, template_vars=template_vars
        )

    def get_template_vars(self, **kwargs: Any) -> dict[str, Any]:
        return recursive_merge(self.config.model_dump(), kwargs)

    def serialize(self) -> dict[str, Any]:
        provider = getattr(getattr(self.llm, "provider", None), "name", None)
        return {
            "info": {
                "config": {
                    "model": {**self.config.model_dump(mode="json"), "provider": provider},
                    "model_type": f"{type(self).__module__}.{type(self).__name__}",
                }
            }
        }


class SandboxEnvironmentConfig(BaseModel):
    """The `environment:` section: the per-action timeout and extra variables for the commands."""

    timeout: float = 120.0
    env: dict[str, str] = {}


class SandboxEnvironment(LocalEnvironment):
    """mini-swe-agent's `Environment` protocol on the trial's sandbox.

    Submission is mini-swe-agent's own rule (inherited): the first output line reads
    `COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT` and the command exits 0. No command outlives the
    trial's wall-clock deadline.
    """

    def __init__(self, sandbox: Sandbox, *, deadline: float | None = None, **kwargs: Any):
        super().__init__(config_class=SandboxEnvironmentConfig, **kwargs)
        self.sandbox = sandbox
        self.deadline = deadline
        if self.config.env:
            sandbox.extra_env = {**sandbox.extra_env, **self.config.env}

    def execute(self, action: dict[str, Any], cwd: str = "", *, timeout: float | None = None) -> dict[str, Any]:
        command = str(action.get("command", ""))
        if cwd:
            command = f"cd {shlex.quote(cwd)} && {command}"
        limit = float(timeout or self.config.timeout)
        if self.deadline is not None:
            limit = max(1.0, min(limit, self.deadline - time.monotonic()))
        result = self.sandbox.run(command, timeout_s=limit)
        output: dict[str, Any] = {
            "output": result.output,
            "returncode": result.returncode if not result.timed_out else -1,
            "exception_info": f"The command was killed after {limit:g} s." if result.timed_out else "",
            "extra": {"seconds": round(result.seconds, 3), "timed_out": result.timed_out},
        }
        self._check_finished(output)
        return output

    def get_template_vars(self, **kwargs: Any) -> dict[str, Any]:
        # What the commands see (the sandbox's environment), never the host's.
        env = self.sandbox.environment()
        resources_ = {k: env.get(k, "(not available)") for k in ("XRBLOCKS_DIR", "XRBENCH_EXAMPLES")}
        return recursive_merge(self.config.model_dump(), platform.uname()._asdict(), env, resources_, kwargs)

    def serialize(self) -> dict[str, Any]:
        return {
            "info": {
                "config": {
                    "environment": {**self.config.model_dump(mode="json"), "sandbox": self.sandbox.describe()},
                    "environment_type": f"{type(self).__module__}.{type(self).__name__}",
                }
            }
        }


class _AtomicSaveAgent(DefaultAgent):
    """mini-swe-agent's default agent, saving its trajectory atomically (an interrupted run keeps the last step)."""

    def save(self, path: Path | None, *extra_dicts: dict) -> dict:
        data = self.serialize(*extra_dicts)
        if path:
            atomic_write_json(path, data)
        return data


def load_config(path: str | Path | None = None) -> dict[str, dict[str, Any]]:
    """A mini-swe-agent YAML config (the shipped one by default), checked section by section.

    Problems raise `UserError` naming the file and the field.
    """
    if path is None:
        source = resources.files("xrbench") / "data" / "genxr" / DEFAULT_CONFIG
        name, text = DEFAULT_CONFIG, source.read_text(encoding="utf-8")
    else:
        name = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise UserError(f"{name}: cannot read the mini-swe-agent config ({e.strerror})") from None
    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        raise UserError(f"{name}:{where} not valid YAML: {getattr(e, 'problem', e)}") from None
    if not isinstance(data, dict):
        raise UserError(f"{name}: expected a mapping with agent, environment and model sections")
    sections = {"agent": AgentConfig, "environment": SandboxEnvironmentConfig, "model": ProviderModelConfig}
    unknown = set(data) - set(sections)
    if unknown:
        raise UserError(f"{name}: unknown section {sorted(unknown)[0]!r} (expected {', '.join(sections)})")
    out: dict[str, dict[str, Any]] = {}
    for key, model in sections.items():
        section = data.get(key) or {}
        if not isinstance(section, dict):
            raise UserError(f"{name}: {key}: expected a mapping")
        try:
            model(**section)
        except ValidationError as e:
            err = e.errors()[0]
            field = ".".join(str(p) for p in (key, *err["loc"]))
            raise UserError(f"{name}: {field}: {err['msg']}") from None
        out[key] = section
    return out


class MiniSweAgent:
    """The xrbench `Agent` that runs mini-swe-agent on a trial (see the module docstring)."""

    name = "mini-swe-agent"

    def __init__(self, llm: Any, *, temperature: float = 0.0, config: str | Path | None = None):
        self.llm = llm
        self.temperature = float(temperature)
        self.config_path = config
        self.config = load_config(config)  # checked now: a bad config fails before any trial

    def settings(self, seed: int) -> dict[str, Any]:
        """What a trial ran with: the model as resolved, generation settings, version and config."""
        provider = getattr(self.llm, "provider", None)
        return {
            "provider": getattr(provider, "name", None),
            "model": getattr(self.llm, "model", None),
            "base_url": getattr(provider, "base_url", None),
            "temperature": self.temperature,
            "seed": seed,
            "mini_swe_agent": MINI_VERSION,
            "config": str(self.config_path) if self.config_path else DEFAULT_CONFIG,
        }

    def run(self, ctx: TrialContext) -> AgentResult:
        limits = ctx.limits
        wall = max(1, math.ceil(limits.wall_time_s))
        path = ctx.log_dir / TRAJECTORY
        agent_config = {
            **self.config["agent"],
            "step_limit": limits.steps or 0,
            "cost_limit": limits.cost_usd or 0.0,
            "wall_time_limit_seconds": wall,
            "output_path": path,
        }
        env = SandboxEnvironment(
            ctx.sandbox,
            deadline=time.monotonic() + wall,
            **{**self.config["environment"], "timeout": limits.action_timeout_s},
        )
        model = ProviderModel(self.llm, **{**self.config["model"], "temperature": self.temperature, "seed": ctx.seed})
        agent = _AtomicSaveAgent(model, env, **agent_config)
        message = ""
        try:
            info = agent.run(ctx.instruction)
            status = EXIT_STATUS.get(str(info.get("exit_status")), "error")
            if status != "submitted":
                message = str(info.get("exit_status") or "")
        except Exception as e:  # a provider error, a broken template: recorded (trajectory saved), graded as is
            status, message = "error", f"{type(e).__name__}: {e}"
        data = agent.serialize()
        usage: Counter[str] = Counter()
        for m in data["messages"]:
            for k, v in ((m.get("extra") or {}).get("usage") or {}).items():
                usage[k] += v
        usage["api_calls"] = agent.n_calls
        return AgentResult(
            status,
            message=message,
            steps=agent.n_calls,
            usage={k: float(v) for k, v in usage.items()},
            tool_usage=trajectory.tool_usage(data),
            trajectory=str(path.relative_to(ctx.log_dir.parent)),
            settings=self.settings(ctx.seed),
        )
