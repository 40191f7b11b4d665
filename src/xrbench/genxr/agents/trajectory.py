"""Reading a mini-swe-agent trajectory: its steps, and what kind of tool use each was.

mini-swe-agent saves a trajectory as `{"info": ..., "messages": [...], "trajectory_format":
"mini-swe-agent-1.1"}`: the model's replies carry their parsed actions in `extra.actions`, each
observation its `extra.returncode`, a malformed reply's answer `extra.interrupt_type ==
"FormatError"`, and the last message (role `exit`) the exit status. The tool-usage table and the
trial report both read steps from here, so they agree; nothing here imports mini-swe-agent.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

_EDIT = re.compile(r"(^|[;&|]\s*)(sed\s+-i|tee\b|cp\b|mv\b|rm\b|mkdir\b|touch\b|patch\b|git\s+apply)|>>?\s*\S|<<")
_TEST = re.compile(r"\b(xrbench\s+xr|pytest|node\s+--check|npm\s+test|npx\b)")
_INSPECT = re.compile(r"^\s*(ls|cat|head|tail|grep|rg|find|sed\s+-n|nl|wc|tree|less|more|file|diff|pwd|stat)\b")
SUBMIT = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"


def classify(command: str) -> str:
    """'submit', 'test', 'edit', 'inspect' or 'other' (first match in that order)."""
    if SUBMIT in command:
        return "submit"
    if _TEST.search(command):
        return "test"
    if _EDIT.search(command):
        return "edit"
    if _INSPECT.search(command):
        return "inspect"
    return "other"


def text(content: Any) -> str:
    """A message's text (mini-swe-agent may hold multimodal content as a list of parts)."""
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return "" if content is None else str(content)


def steps(trajectory: dict[str, Any]) -> list[dict[str, Any]]:
    """One entry per model reply: `action` (None for a malformed reply), `kind`, `returncode`, `seconds`."""
    out: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []  # this reply's actions still waiting for their observations
    for m in trajectory.get("messages") or []:
        if not isinstance(m, dict):
            continue
        extra = m.get("extra") if isinstance(m.get("extra"), dict) else {}
        role = m.get("role")
        if role == "assistant":
            pending = []
            for a in extra.get("actions") or []:
                command = str(a.get("command", "")) if isinstance(a, dict) else str(a)
                step = {"action": command, "kind": classify(command), "returncode": None, "seconds": None}
                out.append(step)
                pending.append(step)
        elif role == "user" and extra.get("interrupt_type") == "FormatError":
            out.append({"action": None, "kind": "format_error", "returncode": None, "seconds": None})
        elif role == "user" and "returncode" in extra and pending:
            step = pending.pop(0)
            step["returncode"] = extra.get("returncode")
            step["seconds"] = extra.get("seconds")
        elif role == "exit" and pending and extra.get("exit_status") == "Submitted":
            pending.pop(0)["returncode"] = 0  # the submitting command ended the run before its observation
    return out


def tool_usage(trajectory: dict[str, Any]) -> dict[str, int]:
    """Counts of edit / test / inspect / other actions (submitting and malformed replies not counted)."""
    counts = Counter(s["kind"] for s in steps(trajectory) if s["kind"] not in ("submit", "format_error"))
    return dict(sorted(counts.items()))


def exit_status(trajectory: dict[str, Any]) -> str:
    """mini-swe-agent's exit status (`Submitted`, `LimitsExceeded`, ...), '' when the run did not end."""
    messages = trajectory.get("messages") or []
    last = messages[-1] if messages and isinstance(messages[-1], dict) else {}
    if last.get("role") != "exit":
        return ""
    return str((last.get("extra") or {}).get("exit_status") or "")
