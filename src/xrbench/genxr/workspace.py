"""Starting workspaces of tasks, and reference solutions applied to them.

`prepare_workspace(task, dest)` creates what the agent starts from:

- the app (every app task; SDK tasks when they name one): the named template
  (`data/genxr/templates/<name>/`) or the task's own `[workspace] dir`, copied to `dest/`;
- for SDK tasks, the pinned xrblocks sources copied to `dest/sdk/src` (docs beside them) and
  transformed: `[[sdk.edits]]` first, then `setup.py`. With `build=True` the SDK is also rebuilt
  into `dest/sdk/build/` (see `xrbench.genxr.sdk` for the path contract).

A solution folder is copied over a fresh starting workspace (its files replace or add; NOTE.md and
solution.toml are metadata and are not copied); a `.patch` solution is applied with `git apply`
(paths relative to the workspace root, e.g. `a/main.js` or `a/sdk/src/core/Core.ts`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from xrbench.errors import UserError
from xrbench.genxr.sdk import (
    SDK_DIR,
    SdkBuild,
    SdkError,
    apply_edits,
    build_sdk,
    copy_pinned_sdk,
    run_setup_script,
)
from xrbench.genxr.task import SOLUTION_META_FILES, TEMPLATES_DIR, Solution, Task
from xrbench.procs import owned_temporary_directory
from xrbench.xrtest.errors import WebDepsError

# Never part of a workspace copy: dependencies are served from the pinned node_modules, and VCS or
# cache folders only add size.
IGNORED_NAMES = ("node_modules", ".git", "__pycache__", ".pytest_cache", ".DS_Store")


class WorkspaceError(UserError):
    """The destination is unusable or a solution does not apply."""


def _ensure_empty(dest: Path) -> None:
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise WorkspaceError(f"{dest} already exists and is not an empty directory")
    dest.mkdir(parents=True, exist_ok=True)


def copy_tree(src: Path, dest: Path, *, ignore_extra: tuple[str, ...] = ()) -> None:
    """Copy `src` into `dest` (merging), keeping symlinks as links and skipping caches and VCS folders."""
    shutil.copytree(
        src, dest, symlinks=True, dirs_exist_ok=True, ignore=shutil.ignore_patterns(*IGNORED_NAMES, *ignore_extra)
    )


def copy_app(task: Task, dest: Path) -> bool:
    """Copy the task's starting app (template or dir) into `dest`; False when the task has none."""
    ws = task.spec.workspace
    if ws is None:
        return False
    src = TEMPLATES_DIR / ws.template if ws.template is not None else task.dir / str(ws.dir)
    copy_tree(src, dest)
    return True


def transform_sdk(task: Task, workspace: Path) -> None:
    """Apply the task's edits, then its setup script, to `workspace/sdk/src`."""
    sdk = task.spec.sdk
    if sdk is None:
        return
    if sdk.edits:
        apply_edits(workspace / SDK_DIR / "src", sdk.edits, task.dir)
    if sdk.setup is not None:
        run_setup_script(task.dir / sdk.setup, workspace, task.dir)


def prepare_workspace(
    task: Task, dest: str | Path, *, build: bool = False, node_modules: str | Path | None = None
) -> SdkBuild | None:
    """Create the starting workspace of `task` in `dest` (new or empty); returns the SDK build if any."""
    dest = Path(dest)
    _ensure_empty(dest)
    copy_app(task, dest)
    if not task.type.is_sdk:
        return None
    try:
        copy_pinned_sdk(dest / SDK_DIR, node_modules)
        transform_sdk(task, dest)
    except SdkError as e:
        raise SdkError(f"task {task.id}: {e}") from None
    return build_sdk(dest, node_modules=node_modules) if build else None


def apply_solution(solution: Solution, workspace: Path, *, check: bool = False) -> None:
    """Apply a solution (folder overlay or patch) to a starting workspace in place.

    `check=True` only checks that a patch applies (`git apply --check`), changing nothing.
    """
    if solution.patch is None:
        if not check:
            copy_tree(solution.path, workspace, ignore_extra=tuple(SOLUTION_META_FILES))
        return
    # `git apply` works outside a repository too; --unsafe-paths is never passed, so a patch
    # cannot write outside the workspace. The ceiling stops git from finding an enclosing
    # repository, whose root would otherwise become the base of the patch's paths.
    workspace = workspace.resolve()
    env = {**os.environ, "GIT_CEILING_DIRECTORIES": str(workspace.parent)}
    proc = subprocess.run(
        ["git", "apply", *(["--check"] if check else []), "--whitespace=nowarn", str(solution.patch.resolve())],
        cwd=workspace,
        env=env,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        msg = " | ".join(proc.stderr.strip().splitlines()[:3]) or f"exit status {proc.returncode}"
        onto = f"valid/{solution.base}" if solution.kind == "mutant" else "the starting workspace"
        raise WorkspaceError(f"{solution.patch}: does not apply to {onto}: {msg}")


def unappliable_patches(task: Task) -> list[str]:
    """Why each patch solution of `task` (a mutant onto its valid solution) does not apply; [] when all do.

    One starting workspace per base is made and every patch is checked against it, so a suite's
    hundreds of mutants cost a few workspaces and one `git apply --check` each.
    """
    bases: dict[str | None, list[Solution]] = {}
    for sol in task.solutions:
        if sol.patch is not None:
            bases.setdefault(sol.base if sol.kind == "mutant" else None, []).append(sol)
    problems: list[str] = []
    with owned_temporary_directory(f"genxr-patches-{task.id}-") as tmp:
        for i, (base_name, patches) in enumerate(bases.items()):
            ws = Path(tmp) / str(i)
            try:
                prepare_workspace(task, ws)
                if base_name is not None:
                    apply_solution(mutated_solution(task, patches[0]), ws)
            except WebDepsError:
                raise  # the machine lacks the pinned packages: one error for the suite, not one per task
            except UserError as e:
                problems.append(f"{task.dir}: {e}")
                continue
            for sol in patches:
                try:
                    apply_solution(sol, ws, check=True)
                except WorkspaceError as e:
                    problems.append(str(e))
    return problems


def materialize_solution(
    task: Task, solution: Solution, dest: str | Path, *, node_modules: str | Path | None = None
) -> Path:
    """A candidate workspace for `solution`: the starting workspace with the solution applied."""
    dest = Path(dest)
    prepare_workspace(task, dest, node_modules=node_modules)
    if solution.kind == "mutant":  # a valid solution with one edit on top
        apply_solution(mutated_solution(task, solution), dest)
    apply_solution(solution, dest)
    return dest


def mutated_solution(task: Task, mutant: Solution) -> Solution:
    """The valid solution a mutant edits (its `Mutates:` line)."""
    base = task.solution("valid", mutant.base or "")
    if base is None:
        raise WorkspaceError(f"{mutant.path}: no valid solution named {mutant.base!r} to mutate")
    return base
