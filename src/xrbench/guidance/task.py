"""Guidance tasks: `<tasks root>/<task_id>/prompt.md` + `spec.json`, discovered by globbing `*/spec.json`.

`spec.json` has the seven FIXED keys of the upstream harness (`skill`, `reference_files`, `template`,
`edit_file`, `expected_imports`, `expected_apis`, `forbidden_patterns`) and one optional, documented
extra key, `style` (`"engineer"` or `"casual"`, the voice of `prompt.md`). Without `style` the voice
comes from the id: `canvas-*` / `casual-*` ids are casual (upstream's naming), every other id is an
engineer's. Any other key is a typo and is reported.

Where a task's files come from:

- `skill`: a bare name (`xb-add-spatial-ui`) is `skills/<name>/SKILL.md` of the pinned `xrblocks`
  package; anything else is a path, resolved like a reference.
- `reference_files`: a relative path is looked up in the `xrblocks` package first
  (`skills/.../references/*.md`, `src/addons/<name>/README.md`), then in the task directory; an
  absolute path is used as it is.
- `template`: a relative path is looked up in the guidance data folder first
  (`templates/<name>`, the project's own templates), then in the task directory.

`resolve_tasks` reports every problem of every selected task (one line each: file, line, field)
before anything calls a model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic import ValidationError as PydanticValidationError

from xrbench.errors import Problem, UserError, ValidationError

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "guidance"
TASKS_DIR = DATA_DIR / "tasks"
TEMPLATES_DIR = DATA_DIR / "templates"
CONTRACT_FILE = DATA_DIR / "CONTEXT.md"
TASK_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
SKILL_NAME_RE = re.compile(r"[a-z0-9][a-z0-9-]*")
CASUAL_PREFIXES = ("canvas-", "casual-")
# Runtime tests (optional): pytest files using the xrtest `xr` fixture, like GenXR's.
RUNTIME_TESTS_DIR = "tests"
# Optional known-good answer, `<task>/reference/<edit_file>`; `guidance check` scores it.
REFERENCE_DIR = "reference"

Style = Literal["engineer", "casual"]


class GuidanceSpec(BaseModel):
    """The FIXED `spec.json` schema (plus the optional `style`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    skill: str = Field(min_length=1)
    reference_files: list[str] = Field(default_factory=list)
    template: str = Field(min_length=1)
    edit_file: str = Field(min_length=1)
    expected_imports: list[str] = Field(default_factory=list)
    expected_apis: list[str] = Field(default_factory=list)
    forbidden_patterns: list[str] = Field(default_factory=list)
    style: Style | None = None


def validate_task_id(task_id: str) -> str:
    """Return `task_id` when it matches `[A-Za-z0-9][A-Za-z0-9._-]*`; raise `UserError` otherwise."""
    if not TASK_ID_RE.fullmatch(task_id):
        raise UserError(f"invalid task id {task_id!r}: must match [A-Za-z0-9][A-Za-z0-9._-]*")
    return task_id


def style_of(task_id: str, declared: str | None = None) -> Style:
    """A task's prompt style: the declared one, else casual for `canvas-*`/`casual-*` ids, else engineer."""
    if declared in ("engineer", "casual"):
        return declared  # type: ignore[return-value]
    return "casual" if task_id.startswith(CASUAL_PREFIXES) else "engineer"


@dataclass(frozen=True)
class Task:
    """A loaded task: its spec, prompt and where its files are (resolved by `resolve_tasks`)."""

    id: str
    dir: Path
    spec: GuidanceSpec
    prompt: str
    skill_file: Path | None = None
    reference_paths: tuple[tuple[str, Path], ...] = ()
    template_dir: Path | None = None
    forbidden_regexes: tuple[re.Pattern[str], ...] = field(default=(), compare=False)

    @property
    def style(self) -> Style:
        return style_of(self.id, self.spec.style)

    @property
    def runtime_tests(self) -> Path | None:
        """The task's `tests/` folder when it carries XR runtime tests."""
        d = self.dir / RUNTIME_TESTS_DIR
        return d if d.is_dir() and any(d.glob("test_*.py")) else None

    @property
    def reference_solution(self) -> Path | None:
        """`reference/<edit_file>` when the task ships a known-good answer."""
        f = self.dir / REFERENCE_DIR / self.spec.edit_file
        return f if f.is_file() else None

    def skill_text(self) -> str:
        assert self.skill_file is not None, "resolve the task first"
        return self.skill_file.read_text(encoding="utf-8")


def _key_line(text: str, key: str) -> int | None:
    """Line (1-based) of the first `"key":` in a JSON text, to point errors at it."""
    m = re.search(r'"' + re.escape(key) + r'"\s*:', text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def _where(text: str, key: str | None) -> str:
    line = _key_line(text, key) if key else None
    return f"line {line}" if line else ""


def load_spec(spec_file: Path) -> tuple[GuidanceSpec | None, list[Problem]]:
    """Parse and validate one `spec.json`; problems name the file, line and field."""
    name = str(spec_file)
    try:
        text = spec_file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None, [Problem(name, "", "", "file not found")]
    except UnicodeDecodeError as e:
        return None, [Problem(name, "", "", f"not UTF-8 text ({e.reason})")]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return None, [Problem(name, f"line {e.lineno}", "", f"invalid JSON: {e.msg}")]
    if not isinstance(data, dict):
        return None, [Problem(name, "line 1", "", "expected a JSON object")]
    try:
        return GuidanceSpec.model_validate(data), []
    except PydanticValidationError as e:
        problems = []
        for err in e.errors():
            loc = [str(p) for p in err["loc"]]
            top = loc[0] if loc else None
            fld = loc[0] + "".join(f"[{p}]" for p in loc[1:]) if loc else ""
            msg = (
                "unknown key (allowed: the seven spec keys and 'style')"
                if err["type"] == "extra_forbidden"
                else err["msg"]
            )
            # A missing key has no line of its own: point at the object that lacks it.
            where = _where(text, top) or f"line {text.count(chr(10), 0, max(text.find('{'), 0)) + 1}"
            problems.append(Problem(name, where, fld, msg))
        return None, problems


def discover(root: Path = TASKS_DIR) -> list[Path]:
    """Task directories under `root`: every `*/spec.json`, sorted by id (never a fixed list)."""
    if not root.is_dir():
        raise UserError(f"{root}: tasks root is not a directory")
    return sorted(p.parent for p in root.glob("*/spec.json"))


def load_task(task_dir: Path) -> tuple[Task | None, list[Problem]]:
    """Load one task directory (spec and prompt, not yet resolved)."""
    problems: list[Problem] = []
    task_id = task_dir.name
    if not TASK_ID_RE.fullmatch(task_id):
        problems.append(Problem(str(task_dir), "", "task id", "must match [A-Za-z0-9][A-Za-z0-9._-]*"))
    spec, spec_problems = load_spec(task_dir / "spec.json")
    problems += spec_problems
    prompt_file = task_dir / "prompt.md"
    prompt = ""
    try:
        prompt = prompt_file.read_text(encoding="utf-8")
        if not prompt.strip():
            problems.append(Problem(str(prompt_file), "", "", "prompt is empty"))
    except FileNotFoundError:
        problems.append(Problem(str(prompt_file), "", "", "file not found"))
    except UnicodeDecodeError as e:
        problems.append(Problem(str(prompt_file), "", "", f"not UTF-8 text ({e.reason})"))
    if spec is None or problems:
        return None, problems
    return Task(id=task_id, dir=task_dir, spec=spec, prompt=prompt), []


def _safe_relative(path: str) -> bool:
    p = PurePosixPath(path)
    return not p.is_absolute() and ".." not in p.parts


def _lookup(path: str, bases: Sequence[Path], *, want_dir: bool) -> Path | None:
    p = Path(path).expanduser()
    candidates = [p] if p.is_absolute() else [b / p for b in bases]
    for c in candidates:
        if c.is_dir() if want_dir else c.is_file():
            return c
    return None


def resolve(task: Task, xrblocks_root: Path, text: str = "") -> tuple[Task, list[Problem]]:
    """Find the task's skill, references and template, and compile its forbidden patterns."""
    spec_file = task.dir / "spec.json"
    text = text or spec_file.read_text(encoding="utf-8")
    name = str(spec_file)
    problems: list[Problem] = []
    spec = task.spec

    if SKILL_NAME_RE.fullmatch(spec.skill):
        skill_file: Path | None = xrblocks_root / "skills" / spec.skill / "SKILL.md"
        if not skill_file.is_file():
            problems.append(
                Problem(name, _where(text, "skill"), "skill", f"no skill {spec.skill!r}: {skill_file} not found")
            )
            skill_file = None
    else:
        skill_file = _lookup(spec.skill, (xrblocks_root, task.dir), want_dir=False)
        if skill_file is None:
            problems.append(
                Problem(
                    name, _where(text, "skill"), "skill", f"{spec.skill!r} not found in {xrblocks_root} or {task.dir}"
                )
            )

    refs: list[tuple[str, Path]] = []
    for i, ref in enumerate(spec.reference_files):
        found = _lookup(ref, (xrblocks_root, task.dir), want_dir=False)
        if found is None:
            problems.append(
                Problem(
                    name,
                    _where(text, "reference_files"),
                    f"reference_files[{i}]",
                    f"{ref!r} not found in {xrblocks_root} or {task.dir}",
                )
            )
        else:
            refs.append((ref, found))

    template = _lookup(spec.template, (DATA_DIR, task.dir), want_dir=True)
    if template is None:
        problems.append(
            Problem(
                name, _where(text, "template"), "template", f"{spec.template!r} not found in {DATA_DIR} or {task.dir}"
            )
        )
    elif not (template / "index.html").is_file():
        problems.append(Problem(name, _where(text, "template"), "template", f"{template} has no index.html"))

    if not _safe_relative(spec.edit_file):
        problems.append(
            Problem(name, _where(text, "edit_file"), "edit_file", "must be a relative path inside the workspace")
        )

    regexes: list[re.Pattern[str]] = []
    for i, pattern in enumerate(spec.forbidden_patterns):
        try:
            regexes.append(re.compile(pattern))
        except re.error as e:
            problems.append(
                Problem(name, _where(text, "forbidden_patterns"), f"forbidden_patterns[{i}]", f"invalid regex: {e}")
            )

    resolved = Task(
        id=task.id,
        dir=task.dir,
        spec=spec,
        prompt=task.prompt,
        skill_file=skill_file,
        reference_paths=tuple(refs),
        template_dir=template,
        forbidden_regexes=tuple(regexes),
    )
    return resolved, problems


def default_xrblocks_root() -> Path:
    """The pinned `xrblocks` package (`node_modules/xrblocks`); raises `UserError` when it is missing."""
    from xrbench.xrtest.webdeps import find_web_deps

    return find_web_deps().node_modules / "xrblocks"


def resolve_tasks(
    root: Path = TASKS_DIR,
    task_ids: Iterable[str] | None = None,
    *,
    xrblocks_root: Path | None = None,
) -> list[Task]:
    """Discover, load and resolve tasks; raise one `ValidationError` listing every problem.

    `task_ids` selects tasks (in the given order); unknown or malformed ids are problems too.
    """
    xrblocks_root = xrblocks_root or default_xrblocks_root()
    if not (xrblocks_root / "package.json").is_file():
        raise UserError(f"{xrblocks_root}: not an xrblocks package (no package.json)")
    dirs = {d.name: d for d in discover(root)}
    problems: list[Problem] = []
    if task_ids is None:
        selected = sorted(dirs)
    else:
        selected = []
        for tid in task_ids:
            if not TASK_ID_RE.fullmatch(tid):
                problems.append(Problem("--tasks", "", tid, "invalid task id: must match [A-Za-z0-9][A-Za-z0-9._-]*"))
            elif tid not in dirs:
                problems.append(Problem("--tasks", "", tid, f"no such task in {root}"))
            elif tid in selected:
                problems.append(Problem("--tasks", "", tid, "listed twice"))
            else:
                selected.append(tid)
    if not dirs:
        problems.append(Problem(str(root), "", "", "no tasks found (no */spec.json)"))
    tasks: list[Task] = []
    for tid in selected:
        task, load_problems = load_task(dirs[tid])
        problems += load_problems
        if task is None:
            continue
        task, resolve_problems = resolve(task, xrblocks_root)
        problems += resolve_problems
        tasks.append(task)
    if problems:
        raise ValidationError(problems)
    return tasks
