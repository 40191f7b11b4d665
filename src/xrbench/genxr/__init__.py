"""GenXR-Bench task suite: task format and loader, SDK workspaces, verification and grading.

- `task`: the task directory format (`task.toml` spec, instruction, tests, solutions) and its loader.
- `sdk`: the pinned xrblocks sources, their transformation and the esbuild rebuild (path contract).
- `workspace`: starting workspaces and reference solutions.
- `grading`: running a task's held-out tests and the pass/fail verdict (F2P/P2P, infra errors).
- `stats`: suite composition (type, difficulty, capability).
- `pytest_plugin`: loaded into each verification run (markers, JUnit properties, `workspace_dir`).
"""

from xrbench.genxr.grading import (
    InfraClass,
    Outcome,
    RunReport,
    TestResult,
    TestVerdict,
    Verdict,
    grade,
    parse_junit,
    run_task_tests,
    verify,
    write_verdict,
)
from xrbench.genxr.sdk import SDK_ENTRY, SdkBuild, SdkBuildError, SdkError, SdkToolError, build_sdk
from xrbench.genxr.task import (
    DEFAULT_TASKS_DIR,
    TEMPLATES_DIR,
    Capability,
    DeclaredTest,
    Difficulty,
    SceneName,
    Solution,
    Task,
    TaskSpec,
    TaskType,
    TestKind,
    find_task,
    load_task,
    load_tasks,
    task_json_schema,
)
from xrbench.genxr.workspace import apply_solution, materialize_solution, prepare_workspace

__all__ = [
    "DEFAULT_TASKS_DIR",
    "SDK_ENTRY",
    "TEMPLATES_DIR",
    "Capability",
    "DeclaredTest",
    "Difficulty",
    "InfraClass",
    "Outcome",
    "RunReport",
    "SceneName",
    "SdkBuild",
    "SdkBuildError",
    "SdkError",
    "SdkToolError",
    "Solution",
    "Task",
    "TaskSpec",
    "TaskType",
    "TestKind",
    "TestResult",
    "TestVerdict",
    "Verdict",
    "apply_solution",
    "build_sdk",
    "find_task",
    "grade",
    "load_task",
    "load_tasks",
    "materialize_solution",
    "parse_junit",
    "prepare_workspace",
    "run_task_tests",
    "task_json_schema",
    "verify",
    "write_verdict",
]
