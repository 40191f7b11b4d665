"""GenXR-Bench task format: one directory per task, validated on load.

A task lives in `<tasks root>/<task_id>/`::

    <task_id>/
      task.toml             the spec (below); `id` must equal the directory name
      instruction.md        what the agent is told; mentions every required tag, nothing about the tests
      workspace/            (optional) the starting app, when `[workspace] dir = "workspace"`
      setup.py              (SDK tasks, optional) transforms the pinned SDK sources
      tests/                pytest files (held out: the agent never sees them)
      solutions/
        valid/<name>/       at least one; each a workspace folder or a folder holding one `*.patch`
        adversarial/<name>/ at least two; same forms, plus a one-line NOTE.md (or `note` in solution.toml)
        mutants/<requirement-id>-<name>.patch
                            a valid solution with one minimal edit that breaks that requirement (below)

`task.toml` (JSON Schema: `task_json_schema()`, committed as `data/genxr/task.schema.json`)::

    schema_version = 1
    id = "example-cube-color"            # ^[a-z0-9][a-z0-9-]*$, = directory name
    title = "Cube that changes colour"   # optional, for tables
    type = "app"                         # app | sdk-feature | sdk-repair
    difficulty = "easy"                  # easy | medium | hard
    capabilities = ["interaction"]       # >= 1 of: interaction ui hands manipulation depth placement
                                         #          perception drawing audio head-tracking
    scenes = ["empty"]                   # >= 1 of: empty living_room kitchen office
    example = false                      # true: a format example, not a benchmark task
    focus = ["bimanual"]                 # optional: bimanual room-geometry physical-alignment
    flow_steps = 3                       # user actions in its longest state-carrying sequence (default 1)

    [agent]
    timeout_sec = 3600                   # agent time limit (default 3600)

    [verifier]
    timeout_sec = 600                    # wall-clock limit of the whole pytest run (default 600)

    [workspace]                          # required for app tasks, optional for SDK tasks
    template = "basic"                   # a folder of data/genxr/templates/ ...
    # dir = "workspace"                  # ... or a folder of the task (exactly one of the two)

    [sdk]                                # required for sdk-* tasks, forbidden for app tasks
    version = "0.21.1"                   # the pinned xrblocks the transformation was written for
    subsystems = ["ui"]                  # XR Blocks src/ folders it is about (required by `genxr check`)
    setup = "setup.py"                   # optional: `python setup.py <workspace>/sdk/src`, cwd = workspace
    [[sdk.edits]]                        # optional: literal edits, applied before setup.py
    file = "core/Core.ts"                # relative to sdk/src
    find = "old text"                    # must occur exactly `count` times (default 1) ...
    replace = "new text"                 # ... and is replaced by this (or by the text of `replace_file`)
    # no `find`: `replace_file` replaces/creates the whole file; `delete = true` removes it

    [[tags]]                             # semantic tags the instruction asks the agent to assign
    tag = "color-cube"
    role = "The cube whose colour changes when the user selects it."

    [[requirements]]                     # what the instruction asks for, and the tests that check it
    id = "changes-colour"                # ^[a-z0-9]+(-[a-z0-9]+)*$, unique in the task
    text = "Selecting the cube changes its colour."   # the instruction's words
    tests = ["test_select_changes_colour"]            # test functions (`name`, `Class::name` or node id)

    [metadata]                           # free-form (author, source issue, ...)

SDK tasks start from the pinned `xrblocks` 0.21.1 sources of the installed npm package
(`node_modules/xrblocks/src`); the repository stores no copy of SDK source. See
`xrbench.genxr.sdk` for the workspace path contract (`sdk/src`, `sdk/build/xrblocks.js`).

Tests: app tasks' tests are all required. SDK tasks mark every test `@pytest.mark.fail_to_pass` or
`@pytest.mark.pass_to_pass` (on the function, its class, or a module-level `pytestmark`); the marks
are read statically here, so they must be written literally. Tests get the candidate through the
harness's `xr` fixture (browser) or `workspace_dir` (files; `xrbench.genxr.pytest_plugin`). The
instruction must not mention pytest, the marks, or any test file or function name.

Solutions: a folder's files are copied over the starting workspace (NOTE.md and solution.toml are
metadata); a folder holding one `*.patch` is applied with `git apply` from the workspace root. SDK
task solutions are patches (`a/sdk/src/...`), since the repository stores no SDK source.

Requirements and mutants: every sentence of the instruction that states a behaviour, a number or an
"only/either/never" is a requirement. A task that declares `[[requirements]]` must cover all of
its tests with them (every requirement names at least one test, every test serves at least one
requirement), and prove each requirement with at least one mutant: a patch
`solutions/mutants/<requirement-id>-<name>.patch` against one of its valid solutions, which the
tests must fail. The patch starts with two header lines, which `git apply` ignores::

    Mutates: valid/<name>
    Note: the box jumps onto the fingertip when grabbed (one line: what the edit breaks)
    diff --git a/main.js b/main.js
    ...

A valid solution written from the instruction and the starting workspace alone, without sight of
the tests or the other solutions, says so with `blind = true` in its `solution.toml`. Tasks
without `[[requirements]]` still load (the suite is being converted); `genxr check` lists them.
A requirement without a mutant yet, and fewer than two adversarial solutions, are refused by
`genxr check` only, so that a task being written can be prepared, verified and validated while its
mutants and wrong solutions are written.

Symlinks in `tests/` and `solutions/` must stay inside the task folder and resolve: one that loops
(itself, or back into a folder it sits in), dangles or leads outside is an authoring error that
`xrbench genxr check` reports (`link_problems`, `load_task(..., strict=True)`). Loading for a run
does not refuse such a task: its verification fails as a `setup_failed` infrastructure error.

Every problem found on load is reported as one line naming the file and the field
(`xrbench.errors.Problem`); `load_task`/`load_tasks` raise one `ValidationError` with all of them.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import errno
import os
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal, cast

import pydantic
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from xrbench.errors import Problem, ValidationError

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "genxr"
TEMPLATES_DIR = DATA_DIR / "templates"
DEFAULT_TASKS_DIR = DATA_DIR / "tasks"
SCHEMA_FILE = DATA_DIR / "task.schema.json"

SDK_VERSION = "0.21.1"
SCHEMA_VERSION = 1

TASK_FILE = "task.toml"
INSTRUCTION_FILE = "instruction.md"
TESTS_DIR = "tests"
SOLUTIONS_DIR = "solutions"
SOLUTION_META_FILES = frozenset({"NOTE.md", "solution.toml"})


class TaskType(StrEnum):
    """What the agent is asked to do."""

    APP = "app"
    SDK_FEATURE = "sdk-feature"
    SDK_REPAIR = "sdk-repair"

    @property
    def is_sdk(self) -> bool:
        """True for tasks that start from the (transformed) SDK sources."""
        return self is not TaskType.APP


class Difficulty(StrEnum):
    """Expert rating: subsystem breadth, interaction length, expected effort."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


class Subsystem(StrEnum):
    """XR Blocks subsystems, named as the folders of its `src/` (what an SDK task touches)."""

    ADDONS = "addons"
    AGENT = "agent"
    AI = "ai"
    CAMERA = "camera"
    CORE = "core"
    DEPTH = "depth"
    INPUT = "input"  # controllers, hands, gestures
    INTERACTION = "interaction"
    LIGHTING = "lighting"
    PHYSICS = "physics"
    PLACEMENT = "placement"
    SIMULATOR = "simulator"
    SOUND = "sound"
    STEREO = "stereo"
    UI = "ui"
    UTILS = "utils"  # placement math, model loading, disposal shared by the others
    VIDEO = "video"
    WORLD = "world"  # planes, meshes, objects of the room


class FocusArea(StrEnum):
    """Where the seed found frontier models failing (a task may target several)."""

    BIMANUAL = "bimanual"  # both hands coordinated
    ROOM_GEOMETRY = "room-geometry"  # visualising planes, walls, meshes of the room
    PHYSICAL_ALIGNMENT = "physical-alignment"  # placing or snapping virtual objects against real ones


class Capability(StrEnum):
    """The paper's core XR capability labels (a task may carry several)."""

    INTERACTION = "interaction"
    UI = "ui"
    HANDS = "hands"
    MANIPULATION = "manipulation"
    DEPTH = "depth"
    PLACEMENT = "placement"
    PERCEPTION = "perception"
    DRAWING = "drawing"
    AUDIO = "audio"
    HEAD_TRACKING = "head-tracking"


class SceneName(StrEnum):
    """Simulator rooms the harness provides (`xrbench.xrtest.scenes`)."""

    EMPTY = "empty"
    LIVING_ROOM = "living_room"
    KITCHEN = "kitchen"
    OFFICE = "office"


class TestKind(StrEnum):
    """SWE-bench roles of an SDK task's tests. Both are required for a pass."""

    __test__ = False  # not a pytest test class, despite the name

    FAIL_TO_PASS = "fail_to_pass"
    PASS_TO_PASS = "pass_to_pass"


TaskId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=64)]
TagName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$", max_length=64)]
OneLine = Annotated[str, StringConstraints(pattern=r"^[^\r\n]+$", strip_whitespace=True, min_length=1, max_length=200)]
RelPath = Annotated[str, StringConstraints(min_length=1, max_length=300)]


class _Model(BaseModel):
    # Unknown keys are errors: a typo such as `timout_sec` must not silently fall back to a default.
    model_config = ConfigDict(extra="forbid", frozen=True)


class AgentConfig(_Model):
    """`[agent]`: limits of the agent phase."""

    timeout_sec: float = Field(3600, gt=0, le=86400, description="Agent wall-clock limit in seconds")


class VerifierConfig(_Model):
    """`[verifier]`: limits of the verification (one pytest run)."""

    timeout_sec: float = Field(600, gt=0, le=7200, description="Wall-clock limit of the pytest run in seconds")


class TagSpec(_Model):
    """`[[tags]]`: a semantic tag the agent must assign, and what it marks."""

    tag: TagName = Field(description="Value of object.userData.xrblocksDevtools.tag")
    role: OneLine = Field(description="One line: which object carries the tag")


class WorkspaceSpec(_Model):
    """`[workspace]`: the starting app (exactly one of `template` and `dir`)."""

    template: str | None = Field(None, pattern=r"^[a-z0-9][a-z0-9_-]*$", description="data/genxr/templates/<name>")
    dir: RelPath | None = Field(None, description="A folder of the task directory")


class SdkEdit(_Model):
    """`[[sdk.edits]]`: one literal edit of the pinned SDK sources (paths relative to sdk/src)."""

    file: RelPath
    find: str | None = Field(None, min_length=1, description="Literal text that must occur `count` times")
    replace: str | None = Field(None, description="Replacement text for `find`")
    replace_file: RelPath | None = Field(None, description="Task-relative file whose text is the replacement")
    count: int = Field(1, ge=1, description="Expected number of occurrences of `find` (all are replaced)")
    delete: bool = Field(False, description="Delete `file` (no find/replace)")


class SdkSpec(_Model):
    """`[sdk]`: how the starting SDK is derived from the pinned sources."""

    version: str = Field(SDK_VERSION, description="The pinned xrblocks version the transformation targets")
    subsystems: list[Subsystem] = Field(
        default_factory=list, description="The XR Blocks subsystems (src/ folders) the task is about"
    )
    setup: RelPath | None = Field(None, description="Python script run as `python setup.py <sdk/src>`")
    edits: list[SdkEdit] = Field(default_factory=list)


RequirementId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=60)]


class RequirementSpec(_Model):
    """`[[requirements]]`: one requirement the instruction states, and the tests that check it."""

    id: RequirementId
    text: str = Field(min_length=1, description="The instruction's words for it")
    tests: list[str] = Field(
        min_length=1, description="Test functions that check it: `test_x`, `TestC::test_x` or a node id"
    )


class TaskSpec(_Model):
    """The contents of `task.toml`."""

    schema_version: Literal[1] = SCHEMA_VERSION
    id: TaskId
    title: str | None = Field(None, max_length=120)
    type: TaskType
    difficulty: Difficulty
    capabilities: list[Capability] = Field(min_length=1)
    scenes: list[SceneName] = Field(min_length=1)
    example: bool = Field(False, description="A format example, not a benchmark task")
    focus: list[FocusArea] = Field(default_factory=list, description="The seed's frontier failure areas it targets")
    flow_steps: int = Field(
        1, ge=1, le=100, description="User actions in the longest sequence, state carried between them, it asks for"
    )
    agent: AgentConfig = Field(default_factory=AgentConfig)
    verifier: VerifierConfig = Field(default_factory=VerifierConfig)
    workspace: WorkspaceSpec | None = None
    sdk: SdkSpec | None = None
    tags: list[TagSpec] = Field(default_factory=list)
    requirements: list[RequirementSpec] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class DeclaredTest:
    """A test function found (statically) in a task's `tests/` folder."""

    __test__ = False

    id: str  # pytest node id relative to the verification dir, e.g. "tests/test_app.py::TestX::test_y"
    file: str  # "tests/test_app.py"
    line: int
    kind: TestKind | None  # None for app tasks
    categories: tuple[str, ...] = ()  # `@pytest.mark.failure_category(...)`: what a failure of it means


SolutionKind = Literal["valid", "adversarial", "mutant"]


@dataclass(frozen=True)
class Solution:
    """A reference candidate: valid ones must pass, adversarial ones and mutants must not.

    A mutant is `base` (a valid solution's name) with `patch` applied on top; it breaks
    `requirement`.
    """

    name: str
    kind: SolutionKind
    path: Path  # the solution folder (a mutant: its patch file)
    patch: Path | None  # set when the solution is a patch instead of workspace files
    note: str | None  # what an adversarial solution or a mutant gets wrong
    blind: bool = False  # a valid solution written from the instruction alone
    base: str | None = None  # mutants: the valid solution they edit
    requirement: str | None = None  # mutants: the requirement they break


@dataclass(frozen=True)
class Task:
    """A loaded, validated task."""

    spec: TaskSpec
    dir: Path
    instruction: str
    tests: tuple[DeclaredTest, ...] = ()
    solutions: tuple[Solution, ...] = field(default=())

    @property
    def id(self) -> str:
        """The task id (= its directory name)."""
        return self.spec.id

    @property
    def type(self) -> TaskType:
        """app, sdk-feature or sdk-repair."""
        return self.spec.type

    @property
    def tests_dir(self) -> Path:
        """The held-out pytest files."""
        return self.dir / TESTS_DIR

    @property
    def valid_solutions(self) -> list[Solution]:
        """Reference solutions that must pass."""
        return [s for s in self.solutions if s.kind == "valid"]

    @property
    def adversarial_solutions(self) -> list[Solution]:
        """Reference solutions that must not pass."""
        return [s for s in self.solutions if s.kind == "adversarial"]

    @property
    def mutants(self) -> list[Solution]:
        """Valid solutions with one requirement broken: they must not pass."""
        return [s for s in self.solutions if s.kind == "mutant"]

    def solution(self, kind: str, name: str) -> Solution | None:
        """The solution `kind/name`, or None."""
        return next((s for s in self.solutions if s.kind == kind and s.name == name), None)


def task_json_schema() -> dict:
    """JSON Schema (draft 2020-12) of `task.toml`, as parsed by tomllib."""
    schema = TaskSpec.model_json_schema()
    schema.pop("title", None)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "GenXR-Bench task.toml",
        **schema,
    }


def list_templates() -> list[str]:
    """Names of the bundled app templates."""
    if not TEMPLATES_DIR.is_dir():
        return []
    return sorted(p.name for p in TEMPLATES_DIR.iterdir() if (p / "index.html").is_file())


# --- TOML parsing and pydantic errors as Problems -------------------------------------------------


def _format_loc(loc: Iterable[Any]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\-]+)\s*\]\]?\s*(#.*)?$")


def _locate(text: str, loc: tuple[Any, ...]) -> str:
    """Best-effort "line N" of the key named by a pydantic `loc` in a TOML text ("" if not found)."""
    lines = text.splitlines()
    keys = [p for p in loc if isinstance(p, str)]
    if not keys:
        return ""
    # Find the table the key lives in: the n-th [[array]] header or the [table] header.
    section = ".".join(keys[:-1]) if len(keys) > 1 else ""
    index = next((p for p in loc if isinstance(p, int)), 0)
    start, seen = 0, -1
    if section:
        for i, line in enumerate(lines):
            m = _HEADER.match(line)
            if m and m.group(1) == section:
                seen += 1
                if seen == index or not line.lstrip().startswith("[["):
                    start = i
                    break
        else:
            # The key may be written inline (`agent = {...}`) or the table itself may be the loc.
            key = keys[0]
            for i, line in enumerate(lines):
                if re.match(rf"^\s*{re.escape(key)}\s*=", line):
                    return f"line {i + 1}"
            return ""
    key = keys[-1]
    for i in range(start, len(lines)):
        line = lines[i]
        if i > start and _HEADER.match(line) and section:
            break
        if not section and _HEADER.match(line):
            break  # top-level keys come before the first table
        if re.match(rf"^\s*{re.escape(key)}\s*=", line):
            return f"line {i + 1}"
    if section:
        return f"line {start + 1}"
    return ""


def problems_from_pydantic(err: pydantic.ValidationError, file: str, text: str = "") -> list[Problem]:
    """One `Problem` per pydantic error, naming the field as `section.key` / `tags[1].role`."""
    problems = []
    for e in err.errors():
        loc = tuple(e.get("loc", ()))
        msg = e.get("msg", "invalid")
        if e.get("type") == "extra_forbidden":
            msg = "unknown field"
        elif e.get("type") == "missing":
            msg = "required field is missing"
        problems.append(Problem(file, _locate(text, loc) if text else "", _format_loc(loc), msg))
    return problems


def read_text(path: Path) -> tuple[str | None, Problem | None]:
    """The UTF-8 text of a task file, or None and one `Problem` saying why it cannot be read."""
    try:
        return path.read_text(encoding="utf-8"), None
    except FileNotFoundError:
        return None, Problem(str(path), "", "", "file not found")
    except UnicodeDecodeError as e:
        return None, Problem(str(path), "", "", f"not UTF-8 text ({e.reason})")
    except OSError as e:  # a link loop, a folder, no permission: one line, never a traceback
        return None, Problem(str(path), "", "", f"cannot read: {e.strerror or e}")


def parse_task_toml(path: Path) -> tuple[TaskSpec | None, list[Problem]]:
    """Parse and validate one `task.toml`; returns the spec (None when invalid) and the problems."""
    name = str(path)
    text, problem = read_text(path)
    if text is None:
        return None, [problem] if problem else []
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+)", str(e))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e))
        return None, [Problem(name, f"line {m.group(1)}" if m else "", "", f"invalid TOML: {msg}")]
    try:
        return TaskSpec.model_validate(data), []
    except pydantic.ValidationError as e:
        return None, problems_from_pydantic(e, name, text)


# --- cross-field and file-system checks -----------------------------------------------------------


def _safe_rel(task_dir: Path, rel: str) -> Path | None:
    """`task_dir / rel` when it stays inside the task directory, else None."""
    p = Path(rel)
    if p.is_absolute() or ".." in p.parts:
        return None
    return task_dir / p


def _spec_problems(spec: TaskSpec, task_dir: Path, toml_name: str) -> list[Problem]:
    problems: list[Problem] = []

    def add(field_name: str, message: str) -> None:
        problems.append(Problem(toml_name, "", field_name, message))

    if spec.id != task_dir.name:
        add("id", f"must equal the task directory name {task_dir.name!r}")
    for name, values in (("capabilities", spec.capabilities), ("scenes", spec.scenes), ("focus", spec.focus)):
        dupes = sorted({v.value for v in values if values.count(v) > 1})
        if dupes:
            add(name, f"duplicate values: {', '.join(dupes)}")
    tags = [t.tag for t in spec.tags]
    dupes = sorted({t for t in tags if tags.count(t) > 1})
    if dupes:
        add("tags", f"duplicate tags: {', '.join(dupes)}")

    ws = spec.workspace
    if spec.type is TaskType.APP and ws is None:
        add("workspace", "app tasks need a [workspace] with `template` or `dir`")
    if ws is not None:
        if (ws.template is None) == (ws.dir is None):
            add("workspace", "set exactly one of `template` and `dir`")
        elif ws.template is not None and not (TEMPLATES_DIR / ws.template / "index.html").is_file():
            known = ", ".join(list_templates()) or "none"
            add("workspace.template", f"unknown template {ws.template!r} (known: {known})")
        elif ws.dir is not None:
            d = _safe_rel(task_dir, ws.dir)
            if d is None:
                add("workspace.dir", "must be a relative path inside the task directory")
            elif not d.is_dir():
                add("workspace.dir", f"folder {ws.dir!r} does not exist")
            elif not (d / "index.html").is_file():
                add("workspace.dir", f"folder {ws.dir!r} has no index.html")

    if spec.type is TaskType.APP and spec.sdk is not None:
        add("sdk", "app tasks must not have an [sdk] section")
    if spec.type.is_sdk:
        if spec.sdk is None:
            add("sdk", f"{spec.type.value} tasks need an [sdk] section with `setup` and/or `edits`")
        else:
            problems += _sdk_problems(spec.sdk, task_dir, toml_name)
    return problems


def _sdk_problems(sdk: SdkSpec, task_dir: Path, toml_name: str) -> list[Problem]:
    problems: list[Problem] = []

    def add(field_name: str, message: str) -> None:
        problems.append(Problem(toml_name, "", field_name, message))

    if sdk.version != SDK_VERSION:
        add("sdk.version", f"tasks target the pinned xrblocks {SDK_VERSION}, not {sdk.version}")
    if sdk.setup is None and not sdk.edits:
        add("sdk", "set `setup` (a Python script) and/or `edits`; otherwise the SDK is unchanged")
    dupes = sorted({v.value for v in sdk.subsystems if sdk.subsystems.count(v) > 1})
    if dupes:
        add("sdk.subsystems", f"duplicate values: {', '.join(dupes)}")
    if sdk.subsystems:
        # The folders the edits touch must be among the declared subsystems (a setup script is not read).
        touched = {Path(e.file).parts[0] for e in sdk.edits if len(Path(e.file).parts) > 1}
        missing = sorted(touched - {v.value for v in sdk.subsystems})
        if missing:
            add("sdk.subsystems", f"the edits change {', '.join(missing)}/, which is not declared")
    if sdk.setup is not None:
        p = _safe_rel(task_dir, sdk.setup)
        if p is None:
            add("sdk.setup", "must be a relative path inside the task directory")
        elif not p.is_file():
            add("sdk.setup", f"file {sdk.setup!r} does not exist")
    for i, edit in enumerate(sdk.edits):
        where = f"sdk.edits[{i}]"
        rel = Path(edit.file)
        if rel.is_absolute() or ".." in rel.parts:
            add(f"{where}.file", "must be a relative path inside sdk/src")
        if edit.delete:
            if edit.find is not None or edit.replace is not None or edit.replace_file is not None:
                add(where, "`delete = true` takes no find/replace/replace_file")
            continue
        if edit.replace is not None and edit.replace_file is not None:
            add(where, "set only one of `replace` and `replace_file`")
        if edit.find is not None and edit.replace is None and edit.replace_file is None:
            add(where, "`find` needs `replace` or `replace_file`")
        if edit.find is None and edit.replace_file is None:
            add(where, "without `find`, set `replace_file` (whole-file replacement) or `delete = true`")
        if edit.replace_file is not None:
            p = _safe_rel(task_dir, edit.replace_file)
            if p is None:
                add(f"{where}.replace_file", "must be a relative path inside the task directory")
            elif not p.is_file():
                add(f"{where}.replace_file", f"file {edit.replace_file!r} does not exist")
    return problems


def _leak_problems(instruction: str, tests: Iterable[DeclaredTest], file: str) -> list[Problem]:
    """The instruction must say nothing about the held-out tests."""
    problems = []
    lowered = instruction.lower()
    for word in ("pytest", "fail_to_pass", "pass_to_pass"):
        if word in lowered:
            problems.append(Problem(file, "", "", f"mentions {word!r}: the instruction must not describe the tests"))
    names = {t.id.rsplit("::", 1)[-1] for t in tests} | {Path(t.file).name for t in tests}
    for name in sorted(names):
        if name in instruction:
            problems.append(Problem(file, "", "", f"mentions the test {name!r}: the tests are held out"))
    return problems


def _tag_problems(instruction: str, spec: TaskSpec, file: str) -> list[Problem]:
    problems = []
    for i, t in enumerate(spec.tags):
        # A whole-token match: "cube" must not be satisfied by "cube-base".
        if not re.search(rf"(?<![\w-]){re.escape(t.tag)}(?![\w-])", instruction):
            problems.append(Problem(file, "", f"tags[{i}].tag", f"tag {t.tag!r} is not mentioned in the instruction"))
    return problems


# --- declared tests (static) ----------------------------------------------------------------------


def _mark_names(expr: ast.expr) -> list[str]:
    """Marker names in `pytest.mark.x`, `pytest.mark.x(...)`, `mark.x` or a list/tuple of those."""
    if isinstance(expr, ast.List | ast.Tuple):
        return [n for e in expr.elts for n in _mark_names(e)]
    if isinstance(expr, ast.Call):
        expr = expr.func
    if isinstance(expr, ast.Attribute):
        base = expr.value
        if (isinstance(base, ast.Attribute) and base.attr == "mark") or (
            isinstance(base, ast.Name) and base.id == "mark"
        ):
            return [expr.attr]
    return []


# What a failing test says about the candidate (the seed's failure modes); tests name them with
# `@pytest.mark.failure_category("hand-asymmetry", ...)` and job summaries count them.
FAILURE_CATEGORIES = (
    "startup-race",  # sensing or state read once at start-up, before the world is ready
    "coordinate-frame",  # positions compared across local and world frames
    "hand-asymmetry",  # works with one hand only, or the wrong hand accepted
    "reach-ergonomics",  # UI or objects out of comfortable reach, behind the user, wrong height
    "input-model",  # touch as a box test, select vs hover, events firing every frame
    "spatial-placement",  # floating, interpenetrating, not resting on the surface, wrong facing
)


def _category_args(decorators: Iterable[ast.expr]) -> list[tuple[str | None, int]]:
    """String arguments of `failure_category(...)` marks (None for a non-literal argument)."""
    out: list[tuple[str | None, int]] = []
    for d in decorators:
        if isinstance(d, ast.Call) and "failure_category" in _mark_names(d):
            for a in d.args:
                value = a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                out.append((value, d.lineno))
    return out


def _module_marks(tree: ast.Module) -> list[str]:
    marks: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            marks += _mark_names(node.value)
    return marks


def _kind_of(marks: list[str]) -> list[TestKind]:
    return [k for k in TestKind if k.value in marks]


def _iwer_problems(tree: ast.Module, shown: str) -> list[Problem]:
    """Uses of the IWER backend in a task's tests: it cannot grade candidates.

    IWER's page harness is not behind the kernel (xrtest/js/kernel.js) yet, so a candidate could
    forge what it reads; verdicts go through the XR Blocks simulator's `xr` fixture only.
    """

    def uses_iwer(node: ast.AST) -> bool:
        if isinstance(node, ast.Attribute):
            return node.attr in ("xr_backend", "IWERSession")
        if isinstance(node, ast.Name):
            return node.id == "IWERSession"
        return isinstance(node, ast.ImportFrom) and (node.module or "").endswith("xrtest.iwer")

    found = [node.lineno for node in ast.walk(tree) if uses_iwer(node)]
    why = "the IWER backend cannot grade candidates yet (its page harness is not forgery-proof): use the `xr` fixture"
    return [Problem(shown, f"line {line}", "", why) for line in sorted(set(found))]


def _is_test_file(name: str) -> bool:
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def declared_tests(task_dir: Path, task_type: TaskType) -> tuple[list[DeclaredTest], list[Problem]]:
    """Find the test functions of `task_dir/tests` and their kinds, without importing them."""
    tests_dir = task_dir / TESTS_DIR
    found: list[DeclaredTest] = []
    problems: list[Problem] = []
    if not tests_dir.is_dir():
        return [], [Problem(str(tests_dir), "", "", "the task has no tests/ folder")]
    sources = sorted(p for p in tests_dir.rglob("*.py") if "__pycache__" not in p.parts)
    for path in sources:
        if not _is_test_file(path.name) and not path.is_symlink():  # conftest.py, helpers
            text, _ = read_text(path)
            with contextlib.suppress(SyntaxError, ValueError):
                problems += _iwer_problems(ast.parse(text or "", filename=str(path)), str(path))
    files = [p for p in sources if _is_test_file(p.name)]
    for path in files:
        rel = path.relative_to(task_dir).as_posix()
        shown = str(path)
        text, problem = read_text(path)
        if text is None:
            # A broken link is left to the link rules of `check` (`link_problems`); loading for a
            # run must not refuse the task over it: its verification fails as setup_failed.
            if problem and not path.is_symlink():
                problems.append(problem)
            continue
        try:
            tree = ast.parse(text, filename=shown)
        except SyntaxError as e:
            problems.append(Problem(shown, f"line {e.lineno}", "", f"syntax error: {e.msg}"))
            continue
        problems += _iwer_problems(tree, shown)
        module_marks = _module_marks(tree)
        candidates: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, list[str]]] = []
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                marks = [m for d in node.decorator_list for m in _mark_names(d)]
                candidates.append((node.name, node, module_marks + marks))
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                class_marks = [m for d in node.decorator_list for m in _mark_names(d)]
                for sub in node.body:
                    if isinstance(sub, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == "pytestmark" for t in sub.targets
                    ):
                        class_marks += _mark_names(sub.value)
                for sub in node.body:
                    if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef) and sub.name.startswith("test"):
                        marks = [m for d in sub.decorator_list for m in _mark_names(d)]
                        candidates.append((f"{node.name}::{sub.name}", sub, module_marks + class_marks + marks))
        for name, node, marks in candidates:
            kinds = _kind_of(marks)
            where = f"line {node.lineno}"
            categories: list[str] = []
            for value, line in _category_args(node.decorator_list):
                if value in FAILURE_CATEGORIES:
                    categories.append(value)
                else:
                    known = ", ".join(FAILURE_CATEGORIES)
                    problems.append(Problem(shown, f"line {line}", name, f"failure_category {value!r}: use {known}"))
            kind: TestKind | None = None
            if task_type.is_sdk:
                if len(kinds) == 1:
                    kind = kinds[0]
                elif not kinds:
                    problems.append(
                        Problem(shown, where, name, "SDK task tests need @pytest.mark.fail_to_pass or pass_to_pass")
                    )
                else:
                    problems.append(Problem(shown, where, name, "marked both fail_to_pass and pass_to_pass"))
            elif kinds:
                problems.append(
                    Problem(shown, where, name, "app task tests are all required: drop fail_to_pass/pass_to_pass")
                )
            found.append(
                DeclaredTest(
                    id=f"{rel}::{name}",
                    file=rel,
                    line=node.lineno,
                    kind=kind,
                    categories=tuple(dict.fromkeys(categories)),
                )
            )
    if not found and not problems:
        problems.append(Problem(str(tests_dir), "", "", "no test functions found (test_*.py files, test* functions)"))
    if task_type.is_sdk and found and not any(t.kind is TestKind.FAIL_TO_PASS for t in found):
        problems.append(Problem(str(tests_dir), "", "", "SDK tasks need at least one fail_to_pass test"))
    return found, problems


# --- solutions ------------------------------------------------------------------------------------


class _SolutionMeta(_Model):
    note: OneLine | None = None
    blind: bool = Field(False, description="Written from the instruction and starting workspace alone")


def _read_note(folder: Path) -> tuple[str | None, bool, list[Problem]]:
    """A solution folder's note (NOTE.md or solution.toml) and whether it is a blind solution."""
    note: str | None = None
    blind = False
    problems: list[Problem] = []
    meta = folder / "solution.toml"
    if meta.is_file():
        name = str(meta)
        text, problem = read_text(meta)
        try:
            if text is None:
                problems += [problem] if problem else []
            else:
                meta_spec = _SolutionMeta.model_validate(tomllib.loads(text))
                note, blind = meta_spec.note, meta_spec.blind
        except tomllib.TOMLDecodeError as e:
            problems.append(Problem(name, "", "", f"invalid TOML: {e}"))
        except pydantic.ValidationError as e:
            problems += problems_from_pydantic(e, name)
    md = folder / "NOTE.md"
    if md.is_file():
        text, problem = read_text(md)
        lines = [ln for ln in (text or "").splitlines() if ln.strip()]
        if problem is not None:
            problems.append(problem)
        elif len(lines) != 1:
            problems.append(Problem(str(md), "", "", f"must be exactly one line (found {len(lines)})"))
        else:
            note = note or lines[0].strip()
    return note, blind, problems


def find_solutions(task_dir: Path, *, complete: bool = True) -> tuple[list[Solution], list[Problem]]:
    """Discover `solutions/valid/*`, `solutions/adversarial/*` and `solutions/mutants/*.patch`.

    Their form is checked here; what a mutant refers to (its requirement, its valid solution) is
    checked against the spec in `requirement_problems`. `complete=False` (everything but `genxr
    check`) does not ask for the second adversarial solution yet, so that an author can prepare and
    verify a valid solution before writing the wrong ones, as mutants may come one at a time.
    """
    solutions: list[Solution] = []
    problems: list[Problem] = []
    root = task_dir / SOLUTIONS_DIR
    for kind, minimum in (("valid", 1), ("adversarial", 2 if complete else 0)):
        base = root / kind
        folders = sorted(p for p in base.iterdir() if not p.name.startswith(".")) if base.is_dir() else []
        count = 0
        for folder in folders:
            shown = str(folder)
            if not folder.is_dir():
                problems.append(
                    Problem(shown, "", "", "each solution must be a folder (workspace files or one .patch)")
                )
                continue
            note, blind, note_problems = _read_note(folder)
            problems += note_problems
            content = [p for p in folder.iterdir() if p.name not in SOLUTION_META_FILES]
            patches = [p for p in content if p.is_file() and p.suffix == ".patch"]
            patch: Path | None = None
            if not content:
                problems.append(Problem(shown, "", "", "empty solution (no workspace files and no .patch)"))
                continue
            if patches:
                if len(content) != 1:
                    problems.append(Problem(shown, "", "", "a patch solution holds exactly one .patch file"))
                    continue
                patch = patches[0]
            # A NOTE.md that is there but malformed was reported already.
            if kind == "adversarial" and not note and not note_problems:
                problems.append(Problem(shown, "", "note", "adversarial solutions need a one-line NOTE.md"))
            solution_kind = cast(Literal["valid", "adversarial"], kind)
            solutions.append(
                Solution(name=folder.name, kind=solution_kind, path=folder, patch=patch, note=note, blind=blind)
            )
            count += 1
        if count < minimum:
            problems.append(Problem(str(base), "", "", f"needs at least {minimum} {kind} solution(s), found {count}"))
    mutants, mutant_problems = find_mutants(task_dir)
    return solutions + mutants, problems + mutant_problems


MUTANTS_DIR = "mutants"
_PATCH_HEADER = re.compile(r"^(?P<key>[A-Za-z]+):[ \t]*(?P<value>.*?)\s*$")


def find_mutants(task_dir: Path) -> tuple[list[Solution], list[Problem]]:
    """`solutions/mutants/*.patch`, each with its `Mutates:` and `Note:` header lines."""
    base = task_dir / SOLUTIONS_DIR / MUTANTS_DIR
    if not base.is_dir():
        return [], []
    mutants: list[Solution] = []
    problems: list[Problem] = []
    for path in sorted(p for p in base.iterdir() if not p.name.startswith(".")):
        shown = str(path)
        if path.suffix != ".patch" or not path.is_file():
            problems.append(Problem(shown, "", "", "a mutant is one <requirement-id>-<name>.patch file"))
            continue
        text, problem = read_text(path)
        if text is None:
            problems += [problem] if problem else []
            continue
        header: dict[str, str] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            if line.startswith(("diff ", "--- ")):
                break
            m = _PATCH_HEADER.match(line)
            if m and m["key"].lower() in ("mutates", "note"):
                header[m["key"].lower()] = m["value"]
            elif line.strip():
                problems.append(Problem(shown, f"line {number}", "", "expected `Mutates:` or `Note:` before the diff"))
        mutates = header.get("mutates", "")
        if not mutates:
            problems.append(
                Problem(shown, "", "Mutates", "names the valid solution it edits (`Mutates: valid/<name>`)")
            )
        if not header.get("note"):
            problems.append(Problem(shown, "", "Note", "says in one line what the edit breaks (`Note: ...`)"))
        mutants.append(
            Solution(
                name=path.stem,
                kind="mutant",
                path=path,
                patch=path,
                note=header.get("note") or None,
                base=mutates.removeprefix("valid/") or None,
            )
        )
    return mutants, problems


def _test_matches(test: DeclaredTest, ref: str) -> bool:
    """Whether a requirement's test reference (`name`, `Class::name`, node id) names `test`."""
    return test.id == ref or test.id.endswith(f"::{ref}")


def requirement_problems(
    spec: TaskSpec, tests: Sequence[DeclaredTest], solutions: Sequence[Solution], file: str, *, complete: bool = True
) -> tuple[list[Problem], list[Solution]]:
    """Check `[[requirements]]` against the tests and mutants; returns problems and the mutants
    with their requirement filled in.

    Without requirements (a task not converted yet) there are no rules, and mutants cannot name
    one. `complete` adds the rule that every requirement has a mutant: a task whose mutants are
    still being written can be prepared, verified and validated, but `genxr check` refuses it.
    """
    problems: list[Problem] = []
    mutants = [s for s in solutions if s.kind == "mutant"]
    ids = [r.id for r in spec.requirements]
    for i, req in enumerate(spec.requirements):
        where = f"requirements[{i}]"
        if ids.count(req.id) > 1:
            problems.append(Problem(file, where, "id", f"duplicate requirement id {req.id!r}"))
        for ref in req.tests:
            if not any(_test_matches(t, ref) for t in tests):
                problems.append(Problem(file, where, "tests", f"{ref!r} names no test function in tests/"))
    if spec.requirements:
        for test in tests:
            if not any(_test_matches(test, ref) for req in spec.requirements for ref in req.tests):
                problems.append(Problem(file, "requirements", "tests", f"{test.id} checks no requirement"))
    valid = {s.name for s in solutions if s.kind == "valid"}
    linked: list[Solution] = []
    for mutant in mutants:
        # The longest id wins: `grab-offset-x` belongs to `grab-offset`, not to `grab`.
        owner = max((r for r in ids if mutant.name.startswith(f"{r}-")), key=len, default=None)
        if owner is None:
            problems.append(Problem(str(mutant.path), "", "", "the file name must start with a requirement id and `-`"))
        if mutant.base is not None and mutant.base not in valid:
            problems.append(Problem(str(mutant.path), "", "Mutates", f"no valid solution named {mutant.base!r}"))
        linked.append(dataclasses.replace(mutant, requirement=owner))
    killed_by = {m.requirement for m in linked}
    for i, req in enumerate(spec.requirements):
        if complete and req.id not in killed_by:
            problems.append(
                Problem(file, f"requirements[{i}]", "id", f"{req.id!r} has no mutant in solutions/mutants/")
            )
    return problems, linked


# --- symlinks -------------------------------------------------------------------------------------

# Folders whose links are checked: the verifier copies tests/ following links, and solutions/ are
# copied into candidate workspaces.
LINKED_DIRS = (TESTS_DIR, SOLUTIONS_DIR)


def _link_target(link: Path, root: Path) -> tuple[Path | None, str | None]:
    """Where `link` resolves to (inside `root`), or None and why it is not acceptable."""
    shown = f"-> {os.readlink(link)}"
    try:
        target = link.resolve(strict=True)
    except RuntimeError:  # Python < 3.13 reports a loop met while resolving this way
        return None, f"symlink loop ({shown}): it cannot be resolved"
    except FileNotFoundError:
        return None, f"dangling symlink ({shown}): the target does not exist"
    except OSError as e:
        if e.errno == errno.ELOOP:
            return None, f"symlink loop ({shown}): it cannot be resolved"
        return None, f"unresolvable symlink ({shown}): {e.strerror or e}"
    if not target.is_relative_to(root):
        return None, f"symlink leads outside the task folder ({shown})"
    return target, None


class _LinkWalk:
    """A depth-first walk of folders that follows links, as a copy that follows them would.

    Real folders are the nodes. Reaching a folder that is still being walked (the task folder, or
    one on the current path) means the last link followed closes a loop: following it never ends.
    """

    def __init__(self, task_dir: Path):
        self.task_dir = task_dir
        self.root = task_dir.resolve()
        self.active: set[Path] = {self.root}  # real folders on the current path
        self.done: set[Path] = set()  # real folders walked to the end (their links are checked)
        self.links: list[Path] = []  # the links followed on the current path
        self.reported: set[Path] = set()  # real places of the links reported
        self.problems: list[Problem] = []

    def report(self, link: Path, message: str) -> None:
        """One problem per link, named by where it really is (task folder + relative path)."""
        try:
            place = link.parent.resolve() / link.name
            shown = self.task_dir / place.relative_to(self.root)
        except (OSError, RuntimeError, ValueError):
            place = shown = link
        if place not in self.reported:
            self.reported.add(place)
            self.problems.append(Problem(str(shown), "", "", message))

    def entry(self, path: Path) -> None:
        """Check `path` if it is a link, and walk into it if it leads to a folder."""
        if not path.is_symlink():
            if path.is_dir():
                self.folder(path, path.resolve())
            return
        target, why = _link_target(path, self.root)
        if target is None:
            self.report(path, why or "unusable symlink")
        elif target.is_dir():
            self.links.append(path)
            self.folder(path, target)
            self.links.pop()

    def folder(self, path: Path, real: Path) -> None:
        """Walk one folder (reached as `path`, really `real`) unless it was walked already."""
        if real in self.active:
            if self.links:  # without a link on the path, a real tree has no loops
                link = self.links[-1]
                rel = real.relative_to(self.root).as_posix()
                where = "the task folder" if rel == "." else rel
                self.report(link, f"symlink loop (-> {os.readlink(link)}): following it leads back into {where}")
            return
        if real in self.done:
            return
        self.active.add(real)
        try:
            children = sorted(path.iterdir())
        except OSError as e:
            children = []
            self.problems.append(Problem(str(path), "", "", f"cannot list the folder: {e.strerror or e}"))
        for child in children:
            self.entry(child)
        self.active.discard(real)
        self.done.add(real)


def link_problems(task_dir: str | Path) -> list[Problem]:
    """Symlinks in the task's `tests/` and `solutions/` that loop, dangle or lead outside the task
    folder, one `Problem` each. Links that stay inside the task folder are fine (and are followed).
    """
    walk = _LinkWalk(Path(task_dir))
    for name in LINKED_DIRS:
        path = walk.task_dir / name
        if path.is_symlink() or path.exists():
            walk.entry(path)
    return walk.problems


# --- loading --------------------------------------------------------------------------------------


VERIFIER_COPY_FILE = "VERIFIER_COPY"  # marks a task copy made for a verifier: no solutions expected


def load_task(task_dir: str | Path, *, strict: bool = False, solutions: bool = True) -> Task:
    """Load and validate one task directory; raises `ValidationError` listing every problem.

    `strict` adds the authoring rules that only `xrbench genxr check` enforces (`link_problems`):
    running a task never depends on them, so a run reports such a task as an infrastructure error.
    `solutions=False` leaves the reference solutions unread (the task then has none): what an
    agent's starting workspace needs, so no problem in them (nor their names) reaches whoever
    prepares one.
    """
    task_dir = Path(task_dir)
    if not task_dir.is_dir():
        raise ValidationError([Problem(str(task_dir), "", "", "task directory not found")])
    toml_path = task_dir / TASK_FILE
    spec, problems = parse_task_toml(toml_path)
    instruction_path = task_dir / INSTRUCTION_FILE
    text, problem = read_text(instruction_path)
    instruction = text or ""
    if problem is not None:
        problems.append(problem)
    elif not instruction.strip():
        problems.append(Problem(str(instruction_path), "", "", "the instruction is empty"))
    tests: list[DeclaredTest] = []
    found: list[Solution] = []
    if spec is not None:
        problems += _spec_problems(spec, task_dir, str(toml_path))
        tests, test_problems = declared_tests(task_dir, spec.type)
        problems += test_problems
        if instruction:
            problems += _tag_problems(instruction, spec, str(instruction_path))
            problems += _leak_problems(instruction, tests, str(instruction_path))
    # A verifier's copy (e.g. a Harbor export's tests/task/) carries no solutions on purpose.
    if solutions and not (task_dir / VERIFIER_COPY_FILE).is_file():
        found, solution_problems = find_solutions(task_dir, complete=strict)
        problems += solution_problems
    if spec is not None:
        req_problems, mutants = requirement_problems(spec, tests, found, str(toml_path), complete=strict and solutions)
        problems += req_problems
        found = [s for s in found if s.kind != "mutant"] + mutants
    if strict:
        problems += link_problems(task_dir)
        if spec is not None and spec.sdk is not None and not spec.sdk.subsystems and not spec.example:
            problems.append(
                Problem(
                    str(toml_path), "", "sdk.subsystems", "name the XR Blocks subsystems (src/ folders) it is about"
                )
            )
    if problems:
        raise ValidationError(problems)
    assert spec is not None
    return Task(spec=spec, dir=task_dir, instruction=instruction, tests=tuple(tests), solutions=tuple(found))


def task_dirs(root: str | Path) -> list[Path]:
    """Task directories under `root` (those holding a task.toml), sorted by name."""
    return sorted(p.parent for p in Path(root).glob(f"*/{TASK_FILE}"))


def load_tasks(root: str | Path = DEFAULT_TASKS_DIR, *, strict: bool = False) -> list[Task]:
    """Load every `<root>/*/task.toml`; raises one `ValidationError` with the problems of all tasks.

    `strict`: as for `load_task` (what `xrbench genxr check` uses).
    """
    root = Path(root)
    if not root.is_dir():
        raise ValidationError([Problem(str(root), "", "", "tasks directory not found")])
    dirs = task_dirs(root)
    if not dirs:
        raise ValidationError([Problem(str(root), "", "", f"no tasks found (no */{TASK_FILE})")])
    tasks: list[Task] = []
    problems: list[Problem] = []
    for d in dirs:
        try:
            tasks.append(load_task(d, strict=strict))
        except ValidationError as e:
            problems += e.problems
    if problems:
        raise ValidationError(problems)
    return tasks


def find_task(id_or_dir: str | Path, root: str | Path = DEFAULT_TASKS_DIR, *, solutions: bool = True) -> Task:
    """A task given as a directory (holding task.toml) or as an id under `root` (see `load_task`)."""
    p = Path(id_or_dir)
    if (p / TASK_FILE).is_file():
        return load_task(p, solutions=solutions)
    candidate = Path(root) / str(id_or_dir)
    if (candidate / TASK_FILE).is_file():
        return load_task(candidate, solutions=solutions)
    known = ", ".join(d.name for d in task_dirs(root)) if Path(root).is_dir() else "none"
    raise ValidationError([Problem(str(id_or_dir), "", "", f"no such task directory or task id (known: {known})")])
