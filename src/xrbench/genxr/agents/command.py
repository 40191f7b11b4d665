"""`command`: any command-line coding agent, run once in the sandbox.

    xrbench genxr run --agent command \\
        --agent-arg 'template=my-agent --task-file {instruction_file} --dir {workspace}' \\
        --agent-arg env=OPENAI_API_KEY,OPENAI_BASE_URL --allow-network

Placeholders: `{workspace}` (the writable trial workspace, also the working directory),
`{instruction_file}` (the instruction as a Markdown file, outside the workspace) and
`{instruction}` (the text itself, shell-quoted). Environment variables reach the agent only when
named in `env`. The process group is killed at the agent's wall-clock limit.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from xrbench.errors import UserError
from xrbench.genxr.agents.base import AgentResult, TrialContext
from xrbench.store.atomic import atomic_write_text

PLACEHOLDERS = ("workspace", "instruction_file", "instruction")


class CommandAgent:
    """Runs a command template (see the module docstring)."""

    name = "command"

    def __init__(self, template: str, env: Sequence[str] | str = ()):
        if not template.strip():
            raise UserError("command agent: template is empty")
        try:
            template.format(**{p: "" for p in PLACEHOLDERS})
        except (KeyError, IndexError, ValueError) as e:
            raise UserError(
                f"command agent: template {template!r}: bad placeholder {e}; use {', '.join(PLACEHOLDERS)}"
            ) from None
        self.template = template
        self.env = tuple(v for v in (env.split(",") if isinstance(env, str) else env) if v)

    def command(self, ctx: TrialContext) -> str:
        """The shell command for this trial, placeholders filled in."""
        instruction_file = ctx.log_dir / "instruction.md"
        atomic_write_text(instruction_file, ctx.instruction)
        instruction_file.chmod(0o644)  # the agent may run as another (unprivileged) user
        return self.template.format(
            workspace=shlex.quote(str(ctx.workspace)),
            instruction_file=shlex.quote(str(instruction_file)),
            instruction=shlex.quote(ctx.instruction),
        )

    def run(self, ctx: TrialContext) -> AgentResult:
        cmd = self.command(ctx)
        sandbox = ctx.sandbox
        # The instruction file lives in the (hidden) job folder: let the agent read that one file.
        sandbox.readable = [*sandbox.readable, ctx.log_dir / "instruction.md"]
        sandbox.env_pass = tuple(dict.fromkeys([*sandbox.env_pass, *self.env]))
        result = sandbox.run(cmd, timeout_s=ctx.limits.wall_time_s)
        atomic_write_text(ctx.log_dir / "agent-output.txt", result.output)
        if result.timed_out:
            return AgentResult("timeout", message=f"killed after {ctx.limits.wall_time_s:g} s", steps=1)
        status = "completed" if result.returncode == 0 else "error"
        return AgentResult(status, message=f"exit status {result.returncode}", steps=1)
