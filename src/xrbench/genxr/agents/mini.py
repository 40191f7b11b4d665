"""`mini`: a minimal coding-agent loop on the provider layer (after mini-swe-agent).

Each turn the model answers with one ```bash block; the harness runs it as a fresh process in
the sandbox (working directory: the workspace; no shell state carries over) and replies with
`<returncode>` and `<output>`. The run ends when a command prints `XRBENCH_SUBMIT` as the first
line of its output with exit status 0, or at a limit (steps, cost when the provider reports one,
wall time), or after three malformed answers in a row. The trajectory is saved after every step,
so an interrupted run leaves everything up to its last step on disk.

Actions are classified as `edit`, `test`, `inspect` or `other` for the tool-usage table.
"""

from __future__ import annotations

import re
import time
from typing import Any

from xrbench.genxr.agents.base import AgentResult, ExitStatus, TrialContext
from xrbench.llm import GenerationSettings, Message
from xrbench.llm.errors import ProviderError
from xrbench.store.atomic import atomic_write_json

SUBMIT = "XRBENCH_SUBMIT"
MAX_FORMAT_ERRORS = 3
BASH_BLOCK = re.compile(r"```(?:bash|sh)\s*\n(.*?)```", re.DOTALL)

SYSTEM_PROMPT = """\
You are a careful software engineer working on an XR app built with the XR Blocks SDK (npm
`xrblocks` 0.21.1 on three.js 0.184.0). You work in a Linux shell, in the app's workspace folder
(your working directory). You have no network.

Every answer you give contains a short thought and then exactly ONE shell command in a single
```bash code block. It runs as a fresh bash process in the workspace: `cd` and variables do not
carry over to the next command. You will see its exit status and output. Edit files with shell
tools (cat with a heredoc, sed, python3).

Resources (read-only): $XRBLOCKS_DIR holds the SDK (src/, build/*.d.ts type declarations,
skills/ with the SDK's own guides); $XRBENCH_EXAMPLES holds example XR Blocks apps with their
runtime tests. To see your app run headless, `xrbench xr open . --screenshot /tmp/shot.png`;
to run XR tests of your own, `xrbench xr test . YOUR_TESTS.py`.

When the task is done, submit with this command and nothing else:

```bash
echo XRBENCH_SUBMIT
```
"""

FORMAT_ERROR = (
    "Your answer must contain exactly one ```bash code block with one command (found {n}). "
    "To finish, run `echo XRBENCH_SUBMIT`."
)

_EDIT = re.compile(r"(^|[;&|]\s*)(sed\s+-i|tee\b|cp\b|mv\b|rm\b|mkdir\b|touch\b|patch\b|git\s+apply)|>>?\s*\S|<<")
_TEST = re.compile(r"\b(xrbench\s+xr|pytest|node\s+--check|npm\s+test|npx\b)")
_INSPECT = re.compile(r"^\s*(ls|cat|head|tail|grep|rg|find|sed\s+-n|wc|tree|less|more|file|diff|pwd|stat)\b")


def classify(command: str) -> str:
    """'test', 'edit', 'inspect' or 'other' (first match in that order)."""
    if _TEST.search(command):
        return "test"
    if _EDIT.search(command):
        return "edit"
    if _INSPECT.search(command):
        return "inspect"
    return "other"


def observation(returncode: int | None, output: str, timed_out: bool, timeout_s: float) -> str:
    """What the model sees after an action."""
    if timed_out:
        return f"<returncode>timeout</returncode>\n<output>\n{output}\n[killed after {timeout_s:g} s]\n</output>"
    return f"<returncode>{returncode}</returncode>\n<output>\n{output}\n</output>"


class MiniAgent:
    """The loop described in the module docstring. `llm` is an `xrbench.llm.LLM`."""

    name = "mini"

    def __init__(self, llm: Any, *, temperature: float = 0.0, system_prompt: str = SYSTEM_PROMPT):
        self.llm = llm
        self.temperature = float(temperature)
        self.system_prompt = system_prompt

    def run(self, ctx: TrialContext) -> AgentResult:
        limits = ctx.limits
        settings = GenerationSettings(temperature=self.temperature, seed=ctx.seed)
        messages = [Message("system", self.system_prompt), Message("user", ctx.instruction)]
        steps: list[dict[str, Any]] = []
        usage = {"input_tokens": 0, "output_tokens": 0, "api_calls": 0}
        tools: dict[str, int] = {}
        status: ExitStatus = "limits_exceeded"
        message = ""
        format_errors = 0
        t0 = time.monotonic()
        path = ctx.log_dir / "trajectory.json"

        def save() -> None:
            atomic_write_json(
                path,
                {
                    "format": "xrbench-mini-1",
                    "agent": self.name,
                    "model": getattr(self.llm, "model", None),
                    "exit_status": status,
                    "message": message,
                    "usage": usage,
                    "tool_usage": tools,
                    "messages": [{"role": m.role, "content": m.content} for m in messages],
                    "steps": steps,
                },
            )

        try:
            while True:
                if limits.steps is not None and usage["api_calls"] >= limits.steps:
                    status, message = "limits_exceeded", f"step limit {limits.steps}"
                    break
                if time.monotonic() - t0 > limits.wall_time_s:
                    status, message = "timeout", f"wall-time limit {limits.wall_time_s:g} s"
                    break
                try:
                    completion = self.llm.complete(messages, settings)
                except ProviderError as e:
                    status, message = "error", f"{type(e).__name__}: {e}"
                    break
                usage["api_calls"] += 1
                usage["input_tokens"] += completion.usage.input_tokens
                usage["output_tokens"] += completion.usage.output_tokens
                messages.append(Message("assistant", completion.text))
                blocks = BASH_BLOCK.findall(completion.text)
                if len(blocks) != 1:
                    format_errors += 1
                    messages.append(Message("user", FORMAT_ERROR.format(n=len(blocks))))
                    steps.append({"action": None, "kind": "format_error"})
                    if format_errors >= MAX_FORMAT_ERRORS:
                        status, message = "format_error", f"{MAX_FORMAT_ERRORS} malformed answers in a row"
                        break
                    continue
                format_errors = 0
                command = blocks[0].strip()
                kind = classify(command)
                result = ctx.sandbox.run(command, timeout_s=min(limits.action_timeout_s, limits.wall_time_s))
                first = result.output.lstrip().splitlines()[0] if result.output.strip() else ""
                steps.append(
                    {
                        "action": command,
                        "kind": kind,
                        "returncode": result.returncode,
                        "seconds": round(result.seconds, 3),
                    }
                )
                if first.strip() == SUBMIT and result.returncode == 0:
                    status, message = "submitted", ""
                    break
                tools[kind] = tools.get(kind, 0) + 1
                obs = observation(result.returncode, result.output, result.timed_out, limits.action_timeout_s)
                messages.append(Message("user", obs))
                save()
        finally:
            save()
        return AgentResult(
            status,
            message=message,
            steps=len(steps),
            usage={k: float(v) for k, v in usage.items()},
            tool_usage=tools,
            trajectory=str(path.relative_to(ctx.log_dir.parent)),
        )
