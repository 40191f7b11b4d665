"""GenXR-Bench exported as Harbor tasks: the layout, what the agent's image may hold, and the
exported verifier run directly (outside a container) against candidates of two tasks."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from xrbench.genxr.grading import verify
from xrbench.genxr.harbor import export_harbor
from xrbench.genxr.task import DEFAULT_TASKS_DIR, load_task
from xrbench.genxr.workspace import materialize_solution

TASKS = ("example-cube-color", "sdk-repair-placement-normal")
XRBENCH = str(Path(sys.executable).with_name("xrbench"))


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("harbor")
    export_harbor([load_task(DEFAULT_TASKS_DIR / t) for t in TASKS], out)
    return out


def run_exported_verifier(folder: Path, workspace: Path, logs: Path) -> tuple[int, dict]:
    env = {**os.environ, "XRBENCH_WORKSPACE": str(workspace), "XRBENCH_LOGS_DIR": str(logs), "XRBENCH_BIN": XRBENCH}
    proc = subprocess.run(["bash", str(folder / "tests" / "test.sh")], env=env, capture_output=True, text=True)
    return proc.returncode, json.loads((logs / "verdict.json").read_text())


def test_the_export_has_harbors_layout_and_our_limits(exported):
    for task_id in TASKS:
        task = load_task(DEFAULT_TASKS_DIR / task_id)
        folder = exported / task_id
        for name in ("task.toml", "instruction.md", "environment/Dockerfile", "tests/test.sh", "solution/solve.sh"):
            assert (folder / name).is_file(), name
        config = tomllib.loads((folder / "task.toml").read_text())
        assert config["agent"]["timeout_sec"] == task.spec.agent.timeout_sec
        assert config["verifier"]["timeout_sec"] >= task.spec.verifier.timeout_sec
        assert config["environment"]["allow_internet"] is False
        assert (folder / "instruction.md").read_text().startswith(task.instruction.rstrip())
        dockerfile = (folder / "environment" / "Dockerfile").read_text()
        assert (
            "chromium" in dockerfile and "xrbench setup" in dockerfile and "COPY workspace/ /workspace/" in dockerfile
        )


def test_the_agents_image_holds_no_test_and_no_solution(exported):
    for task_id in TASKS:
        env = exported / task_id / "environment"
        names = {p.name for p in env.rglob("*")}
        assert "solutions" not in names and not list(env.rglob("test_*.py")), task_id
        data = env / "xrbench" / "src" / "xrbench" / "data"
        assert not (data / "genxr" / "tasks").exists() and not (data / "guidance" / "tasks").exists()
        assert not list(env.rglob("reference"))
        # The verifier's copy of the task (uploaded after the agent) has the tests, not the solutions.
        copy = exported / task_id / "tests" / task_id
        assert list(copy.glob("tests/test_*.py")) and not (copy / "solutions").exists()


@pytest.mark.xr
@pytest.mark.parametrize("task_id", TASKS)
def test_the_exported_verifier_gives_genxr_verifys_verdict(exported, tmp_path, task_id):
    task = load_task(DEFAULT_TASKS_DIR / task_id)
    folder = exported / task_id
    # The oracle: solve.sh over the image's starting workspace, then the exported tests.
    oracle = tmp_path / "oracle"
    shutil.copytree(folder / "environment" / "workspace", oracle)
    subprocess.run(
        ["bash", str(folder / "solution" / "solve.sh")],
        env={**os.environ, "XRBENCH_WORKSPACE": str(oracle)},
        check=True,
    )
    code, verdict = run_exported_verifier(folder, oracle, tmp_path / "logs-oracle")
    assert code == 0 and verdict["passed"] and (tmp_path / "logs-oracle" / "reward.txt").read_text().strip() == "1"
    # An adversarial candidate: reward 0, and the same per-test outcomes as `genxr verify`.
    bad = tmp_path / "bad"
    materialize_solution(task, task.adversarial_solutions[0], bad)
    code, exported_verdict = run_exported_verifier(folder, bad, tmp_path / "logs-bad")
    assert code == 0 and (tmp_path / "logs-bad" / "reward.txt").read_text().strip() == "0"
    ours = verify(task, bad, tmp_path / "ours").to_json()
    assert exported_verdict["passed"] is ours["passed"] is False
    assert {t["id"]: t["outcome"] for t in exported_verdict["tests"]} == {t["id"]: t["outcome"] for t in ours["tests"]}


HARBOR = "harbor==0.26.0"
HARBOR_VENV = Path(__file__).resolve().parents[2] / ".venv-harbor"  # reused between runs (ignored by git)


def _runs_3_12(python: str) -> bool:
    try:
        proc = subprocess.run([python, "-c", "import sys; print(sys.version_info >= (3, 12))"], capture_output=True)
    except OSError:
        return False
    return proc.returncode == 0 and proc.stdout.strip() == b"True"


def newer_python() -> str | None:
    """A Python >= 3.12 that runs (Harbor needs one; xrbench's venv is 3.11), or None.

    Looked for on PATH, then among pyenv's installed versions (a pyenv shim on PATH does not run
    a version that is not selected).
    """
    found = [p for name in ("python3.14", "python3.13", "python3.12") if (p := shutil.which(name))]
    if shutil.which("pyenv"):
        root = subprocess.run(["pyenv", "root"], capture_output=True, text=True).stdout.strip()
        found += sorted((str(p) for p in Path(root).glob("versions/3.1[2-9]*/bin/python3")), reverse=True)
    return next((p for p in found if _runs_3_12(p)), None)


@pytest.mark.skipif(newer_python() is None, reason="no Python >= 3.12 on this machine (Harbor's own loader needs it)")
def test_harbors_own_task_loader_reads_the_export(exported):
    # Harbor in a venv of its own (installed from PyPI once, then reused), loading our export
    # with its own task model.
    python = HARBOR_VENV / "bin" / "python"
    marker = HARBOR_VENV / f".installed-{HARBOR}"
    if not marker.is_file():
        shutil.rmtree(HARBOR_VENV, ignore_errors=True)
        subprocess.run([newer_python(), "-m", "venv", str(HARBOR_VENV)], check=True)
        pip = subprocess.run([str(python), "-m", "pip", "install", "-q", HARBOR], capture_output=True, text=True)
        assert pip.returncode == 0, pip.stderr[-2000:]
        marker.touch()
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from harbor.models.task.task import Task\n"
        "for d in sys.argv[1:]:\n"
        "    t = Task(Path(d))\n"
        "    print(Path(d).name, len(t.instruction), t.config.agent.timeout_sec, t.config.verifier.timeout_sec)\n"
    )
    folders = [str(exported / t) for t in TASKS]
    proc = subprocess.run([str(python), "-c", script, *folders], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for line, task_id in zip(proc.stdout.splitlines(), TASKS, strict=True):
        name, chars, agent_timeout, _ = line.split()
        task = load_task(DEFAULT_TASKS_DIR / task_id)
        assert name == task_id and int(chars) >= len(task.instruction.strip())
        assert float(agent_timeout) == task.spec.agent.timeout_sec
