"""The arms of a guidance sweep and the system prompt each one sends.

- `with-skill`: the app contract, the task's skill and its references, in this FIXED order, each
  part with a heading and parts joined by `PART_SEPARATOR`:

      # XR Blocks app contract\\n\\n<CONTEXT.md>
      ---
      # Task skill: <skill>\\n\\n<SKILL.md>
      ---
      # Reference: <path as written in spec.json>\\n\\n<file>      (one per reference, spec order)

- `without-skill`: no system prompt at all (logged as an empty `system_prompt.md`).
- `with-baseline`: the pinned published prompt with its output instructions adapted
  (`baseline.py`); nothing is appended to it.

Every arm sends the same user message (`runner.user_message`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from xrbench.errors import UserError
from xrbench.guidance.baseline import BaselinePrompt
from xrbench.guidance.task import CONTRACT_FILE, Task

WITH_SKILL = "with-skill"
WITHOUT_SKILL = "without-skill"
WITH_BASELINE = "with-baseline"
MODES = (WITH_SKILL, WITHOUT_SKILL, WITH_BASELINE)
DEFAULT_MODES = (WITH_SKILL, WITHOUT_SKILL)
MODE_LABELS = {
    WITH_SKILL: "with skill",
    WITHOUT_SKILL: "without skill",
    WITH_BASELINE: "output-adapted baseline",
}
PART_SEPARATOR = "\n\n---\n\n"
CONTRACT_HEADING = "# XR Blocks app contract"


def parse_modes(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """An ordered, duplicate-free selection of arms from `a,b` or a list; default: the two original arms."""
    if value is None:
        return DEFAULT_MODES
    items = value.split(",") if isinstance(value, str) else [p for v in value for p in v.split(",")]
    modes = tuple(m.strip() for m in items if m.strip())
    if not modes:
        raise UserError("--modes: no mode given")
    for m in modes:
        if m not in MODES:
            raise UserError(f"--modes: unsupported mode {m!r}; choose from {', '.join(MODES)}")
    if len(set(modes)) != len(modes):
        raise UserError("--modes: a mode is listed twice")
    return modes


def check_baseline_selection(modes: Sequence[str], baseline_file: str | Path | None) -> None:
    """`--baseline-file` is required with `with-baseline` and rejected without it."""
    if WITH_BASELINE in modes and baseline_file is None:
        raise UserError("--baseline-file is required when the with-baseline mode is selected")
    if WITH_BASELINE not in modes and baseline_file is not None:
        raise UserError("--baseline-file is only accepted together with --modes ...,with-baseline")


def contract_text(path: Path = CONTRACT_FILE) -> str:
    """The project's app contract."""
    return path.read_text(encoding="utf-8")


def skill_system_prompt(task: Task, *, skill_text: str | None = None, contract: str | None = None) -> str:
    """The `with-skill` system prompt (see the module docstring for the order).

    `skill_text` replaces the skill file's text (ablation variants use this).
    """
    parts = [
        f"{CONTRACT_HEADING}\n\n{contract if contract is not None else contract_text()}",
        f"# Task skill: {task.spec.skill}\n\n{skill_text if skill_text is not None else task.skill_text()}",
    ]
    for label, path in task.reference_paths:
        parts.append(f"# Reference: {label}\n\n{path.read_text(encoding='utf-8')}")
    return PART_SEPARATOR.join(parts)


@dataclass(frozen=True)
class Arm:
    """One arm as the runner uses it: its name and the system prompt for a task."""

    mode: str
    baseline: BaselinePrompt | None = None

    def system_prompt(self, task: Task) -> str:
        """The exact system prompt ('' for none)."""
        if self.mode == WITH_SKILL:
            return skill_system_prompt(task)
        if self.mode == WITHOUT_SKILL:
            return ""
        if self.mode == WITH_BASELINE:
            if self.baseline is None:
                raise UserError("the with-baseline arm needs a validated baseline file")
            return self.baseline.system_prompt
        raise UserError(f"unsupported mode {self.mode!r}")
