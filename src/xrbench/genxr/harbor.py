"""GenXR-Bench as a Harbor dataset: each task in Harbor's task format.

`export_task` writes, for one task, the folder Harbor runs (`harbor run -p OUT/<id> -a AGENT -m
MODEL`): `task.toml` (Harbor's: the agent's and verifier's time limits come from ours),
`instruction.md`, `environment/` (a Dockerfile on Debian with Debian's Chromium, xrbench at this
version without the suite's tests and solutions, its pinned web dependencies, and the task's
starting workspace in /workspace), `tests/` (Harbor uploads it only after the agent finished:
`test.sh` runs the task's XR tests on /workspace with xrbench's own verifier and writes Harbor's
`/logs/verifier/reward.txt`; the task itself, without solutions, under `tests/<id>/`) and
`solution/` (`solve.sh` and the files of the task's first valid solution: Harbor's oracle).

`test.sh` reads its paths from the environment when set (`XRBENCH_TESTS_DIR`, `XRBENCH_WORKSPACE`,
`XRBENCH_LOGS_DIR`, `XRBENCH_BIN`), so it also runs outside a container, as the tests do: the
verdict is the same as `xrbench genxr verify` gives, because it is that verifier.
"""

from __future__ import annotations

import filecmp
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from xrbench import __version__
from xrbench.genxr.task import VERIFIER_COPY_FILE, Task
from xrbench.genxr.workspace import materialize_solution, prepare_workspace
from xrbench.store.atomic import atomic_write_text

REPO = Path(__file__).resolve().parents[3]  # a source checkout: pyproject.toml, src/
# What the image must not hold: an agent would read every file it can reach (the suite's tests and
# solutions, and the guidance tasks' reference answers and tests, some close to GenXR tasks).
HIDDEN = ("data/genxr/tasks", "data/guidance/tasks")

DOCKERFILE = """\
# GenXR-Bench task {task_id} (exported by xrbench {version}).
FROM debian:bookworm-slim
RUN apt-get update \\
 && apt-get install -y --no-install-recommends chromium bubblewrap python3 python3-venv nodejs npm \\
    ca-certificates fonts-dejavu-core \\
 && rm -rf /var/lib/apt/lists/*
# xrbench without the suite's tests and solutions (the verifier's copy of this task arrives with
# tests/, after the agent has finished), and its pinned web dependencies (npm ci at build time:
# nothing is fetched while the app runs).
COPY xrbench/ /opt/xrbench-src/
RUN python3 -m venv /opt/xrbench && /opt/xrbench/bin/pip install --no-cache-dir /opt/xrbench-src \\
 && /opt/xrbench/bin/xrbench setup --web-dir /opt/xrbench-web
ENV XRBENCH_WEB_DIR=/opt/xrbench-web PATH=/opt/xrbench/bin:$PATH
COPY workspace/ /workspace/
WORKDIR /workspace
"""

TEST_SH = """\
#!/usr/bin/env bash
# Harbor verifier of GenXR-Bench task {task_id}: the task's XR tests on the agent's workspace, run
# by xrbench's own verifier (the same verdict as `xrbench genxr verify`). Reward 1 when every test
# passed, 0 when one failed; an infrastructure error (the verifier could not judge) writes no
# reward, so Harbor reports the verifier's failure instead of a score.
set -u
here="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
tests_dir="${{XRBENCH_TESTS_DIR:-$here}}"
workspace="${{XRBENCH_WORKSPACE:-/workspace}}"
logs="${{XRBENCH_LOGS_DIR:-/logs/verifier}}"
xrbench="${{XRBENCH_BIN:-xrbench}}"
mkdir -p "$logs"
"$xrbench" genxr verify --task "$tests_dir/{task_id}" --workspace "$workspace" --out "$logs/verdict.json"
status=$?
case "$status" in
  0) echo 1 > "$logs/reward.txt" ;;
  1) echo 0 > "$logs/reward.txt" ;;
  *) echo "xrbench verifier: infrastructure error (exit $status), see $logs/verdict.json" >&2; exit "$status" ;;
esac
"""

SOLVE_SH = """\
#!/usr/bin/env bash
# Harbor oracle of GenXR-Bench task {task_id}: the files of its first valid solution ({solution}),
# copied over the starting workspace{removal_note}.
set -eu
here="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
workspace="${{XRBENCH_WORKSPACE:-/workspace}}"
cp -a "$here/files/." "$workspace/"
{removals}"""


def _task_toml(task: Task) -> str:
    spec = task.spec
    tags = [task.type.value, *(c.value for c in spec.capabilities)]
    quoted = ", ".join(f'"{t}"' for t in tags)
    return f"""\
# Harbor task (exported from xrbench {__version__}'s GenXR-Bench task {task.id}).
version = "1.0"

[metadata]
author_name = "xrbench"
difficulty = "{spec.difficulty.value}"
category = "xr-development"
tags = [{quoted}]
xrbench_task = "{task.id}"
xrbench_version = "{__version__}"

[verifier]
timeout_sec = {float(spec.verifier.timeout_sec) + 120.0}

[agent]
timeout_sec = {float(spec.agent.timeout_sec)}

[environment]
build_timeout_sec = 1800.0
cpus = 2
memory_mb = 4096
storage_mb = 10240
allow_internet = false
"""


def _copy_package(dest: Path) -> None:
    """This xrbench's source (pyproject, README, src/) without what an agent must not see."""
    if not (REPO / "pyproject.toml").is_file():
        raise FileNotFoundError("harbor export needs xrbench's source checkout (pyproject.toml and src/)")
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, dest / name)
    hidden = {(REPO / "src" / "xrbench" / h).resolve() for h in HIDDEN}

    def ignore(folder: str, names: list[str]) -> list[str]:
        skip = [n for n in names if (Path(folder) / n).resolve() in hidden]
        return skip + [n for n in names if n in ("__pycache__", "node_modules") or n.endswith(".egg-info")]

    shutil.copytree(REPO / "src", dest / "src", ignore=ignore)


def _changed_files(start: Path, solved: Path) -> tuple[list[Path], list[Path]]:
    """Files of `solved` that are new or differ from `start`, and files of `start` it removed."""
    changed = [
        p.relative_to(solved)
        for p in sorted(solved.rglob("*"))
        if p.is_file()
        and not (
            (start / p.relative_to(solved)).is_file() and filecmp.cmp(p, start / p.relative_to(solved), shallow=False)
        )
    ]
    removed = [
        p.relative_to(start)
        for p in sorted(start.rglob("*"))
        if p.is_file() and not (solved / p.relative_to(start)).exists()
    ]
    return changed, removed


def export_task(task: Task, out: Path, package: Path | None = None) -> Path:
    """Write `task` as a Harbor task folder `out/<id>`; `package`: an xrbench source copy to reuse."""
    folder = out / task.id
    if folder.exists():
        shutil.rmtree(folder)
    env = folder / "environment"
    env.mkdir(parents=True)
    atomic_write_text(folder / "task.toml", _task_toml(task))
    atomic_write_text(folder / "instruction.md", task.instruction.rstrip() + "\n\nYour workspace is `/workspace`.\n")
    atomic_write_text(env / "Dockerfile", DOCKERFILE.format(task_id=task.id, version=__version__))
    if package is not None:
        shutil.copytree(package, env / "xrbench")
    else:
        _copy_package(env / "xrbench")
    with tempfile.TemporaryDirectory(prefix="xrbench-harbor-") as tmp:
        start, solved = Path(tmp) / "start", Path(tmp) / "solved"
        prepare_workspace(task, start)
        shutil.copytree(start, env / "workspace")
        tests = folder / "tests"
        shutil.copytree(task.dir, tests / task.id, ignore=shutil.ignore_patterns("solutions", "__pycache__"))
        atomic_write_text(tests / task.id / VERIFIER_COPY_FILE, "The task without its solutions, for its verifier.\n")
        _write_script(tests / "test.sh", TEST_SH.format(task_id=task.id))
        valid = task.valid_solutions
        if valid:
            materialize_solution(task, valid[0], solved)
            changed, removed = _changed_files(start, solved)
            files = folder / "solution" / "files"
            files.mkdir(parents=True)
            for rel in changed:
                (files / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(solved / rel, files / rel)
            removals = "".join(f'rm -f "$workspace/{rel.as_posix()}"\n' for rel in removed)
            note = ", less the files it removes" if removed else ""
            script = SOLVE_SH.format(task_id=task.id, solution=valid[0].name, removals=removals, removal_note=note)
            _write_script(folder / "solution" / "solve.sh", script)
    return folder


def _write_script(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, text)
    path.chmod(0o755)


def export_harbor(
    tasks: Sequence[Task] | Iterable[Task], out: str | Path, on_task: Callable[[Path], None] | None = None
) -> list[Path]:
    """Export every task to `out` (one Harbor task folder each); returns the folders.

    `on_task(folder)` is called after each (progress display)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    folders = []
    with tempfile.TemporaryDirectory(prefix="xrbench-harbor-pkg-") as tmp:
        package = Path(tmp) / "xrbench"
        _copy_package(package)
        for task in tasks:
            folders.append(export_task(task, out, package))
            if on_task is not None:
                on_task(folders[-1])
    return folders
