"""The agent protocol: what a GenXR trial asks of a coding agent, and what it gets back.

An agent gets a `TrialContext` (the instruction, the workspace it may change, its limits, a log
folder of its own) and returns an `AgentResult`. It never sees the task's tests or solutions:
the trial copies the tests in only after the agent has finished, into a fresh copy of the
workspace. Agents that run processes run them through `ctx.sandbox` (bubblewrap).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

if TYPE_CHECKING:
    from xrbench.genxr.sandbox import Sandbox
    from xrbench.genxr.task import Task

ExitStatus = Literal["submitted", "completed", "timeout", "limits_exceeded", "format_error", "error"]


@dataclass(frozen=True)
class AgentLimits:
    """Bounds of one agent run; `None` means unbounded (the wall-clock bound always has a value)."""

    wall_time_s: float = 1800.0
    steps: int | None = 50
    cost_usd: float | None = 3.0
    action_timeout_s: float = 120.0


@dataclass(frozen=True)
class TrialContext:
    """Everything an agent may use for one trial."""

    task: Task
    instruction: str
    workspace: Path
    log_dir: Path
    limits: AgentLimits
    sandbox: Sandbox
    attempt: int = 0
    seed: int = 0


@dataclass
class AgentResult:
    """What an agent run produced besides the workspace.

    `tool_usage` counts actions by kind ('edit', 'test', 'inspect', 'other'); `usage` holds token
    counts and a best-effort `cost_usd` (cost is metadata, never a gate); `settings` what the agent
    ran with (the model as resolved, its generation settings, its own version and config).
    """

    exit_status: ExitStatus
    message: str = ""
    steps: int = 0
    usage: dict[str, float] = field(default_factory=dict)
    tool_usage: dict[str, int] = field(default_factory=dict)
    trajectory: str | None = None  # path relative to the trial folder
    settings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@runtime_checkable
class Agent(Protocol):
    """A coding agent: changes `ctx.workspace` to solve `ctx.instruction`."""

    name: str

    def run(self, ctx: TrialContext) -> AgentResult: ...
