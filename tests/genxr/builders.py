"""Builders for small GenXR task directories (valid by default; tests break one thing at a time)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from xrbench.genxr.task import DEFAULT_TASKS_DIR

EXAMPLE_TASK = DEFAULT_TASKS_DIR / "example-cube-color"

APP_TOML = """\
schema_version = 1
id = "{id}"
type = "app"
difficulty = "easy"
capabilities = ["interaction", "ui"]
scenes = ["empty"]

[agent]
timeout_sec = 600

[verifier]
timeout_sec = 60

[workspace]
template = "basic"

[[tags]]
tag = "red-button"
role = "The button that turns the light red."
"""

APP_INSTRUCTION = "Add a button tagged `red-button` that turns the light red.\n"

# Plain pytest tests that read the candidate workspace (no browser), like the example task's.
APP_TESTS = """\
def test_has_button(workspace_dir):
    assert "red-button" in (workspace_dir / "main.js").read_text()


def test_turns_red(workspace_dir):
    assert "0xff0000" in (workspace_dir / "main.js").read_text()
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text) if text.startswith("\n") else text, encoding="utf-8")
    return path


def make_app_task(
    root: Path,
    task_id: str = "red-button",
    *,
    toml: str | None = None,
    instruction: str = APP_INSTRUCTION,
    tests: dict[str, str] | None = None,
    valid: dict[str, str] | None = None,
    adversarial: int = 2,
) -> Path:
    """A complete, valid app task under `root/task_id` (override any part)."""
    d = root / task_id
    write(d / "task.toml", (toml if toml is not None else APP_TOML).format(id=task_id))
    write(d / "instruction.md", instruction)
    for name, text in (tests if tests is not None else {"test_app.py": APP_TESTS}).items():
        write(d / "tests" / name, text)
    base = (DEFAULT_TASKS_DIR.parent / "templates" / "basic" / "main.js").read_text()
    good = base + "\n// red-button 0xff0000\n"
    for name, text in (valid if valid is not None else {"main.js": good}).items():
        write(d / "solutions" / "valid" / "ok" / name, text)
    for i in range(adversarial):
        adv = d / "solutions" / "adversarial" / f"bad{i}"
        write(adv / "main.js", base + ("\n// red-button\n" if i == 0 else "\n// 0xff0000\n"))
        write(adv / "NOTE.md", f"Adversarial {i}: misses half of the task.\n")
    return d
