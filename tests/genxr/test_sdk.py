"""SDK tasks: pinned sources, edits and setup scripts, the esbuild rebuild, and verification end to end."""

from __future__ import annotations

import difflib
import json
import shutil
import subprocess
import sys
import time

import pytest

from xrbench.genxr.grading import Outcome, verify
from xrbench.genxr.sdk import (
    SDK_ENTRY,
    SdkBuildError,
    SdkError,
    SdkToolError,
    addon_entry_points,
    apply_edits,
    build_sdk,
    copy_pinned_sdk,
    find_node_modules,
    pinned_sdk_dir,
    published_exports,
)
from xrbench.genxr.task import SdkEdit, TestKind, load_task
from xrbench.genxr.workspace import materialize_solution, prepare_workspace
from xrbench.xrtest.errors import WebDepsError

from .builders import write

try:
    PKG = pinned_sdk_dir()
except (SdkToolError, WebDepsError) as e:  # pragma: no cover - only without `make web`
    pytest.skip(f"pinned xrblocks sources not installed: {e}", allow_module_level=True)

BUG = ("export const HAND_JOINT_COUNT = 25;", "export const HAND_JOINT_COUNT = 24;")


def test_pinned_sources_and_version(tmp_path):
    assert (PKG / "src" / "entry.ts").is_file()
    fake = tmp_path / "node_modules" / "xrblocks"
    write(fake / "package.json", json.dumps({"name": "xrblocks", "version": "0.17.0"}))
    with pytest.raises(SdkToolError, match=r"is xrblocks 0\.17\.0, but the tasks need 0\.21\.1"):
        pinned_sdk_dir(tmp_path / "node_modules")
    with pytest.raises(SdkToolError, match="does not exist"):
        find_node_modules(tmp_path / "nope")


def test_addon_selection_matches_the_published_build():
    ours = {f"{e}.js" for e in addon_entry_points(PKG / "src")}
    published = {p.relative_to(PKG / "build").as_posix() for p in (PKG / "build" / "addons").rglob("*.js")}
    published = {p for p in published if not p.endswith(".min.js")}
    assert ours == published


def test_apply_edits(tmp_path):
    src = tmp_path / "src"
    write(src / "a.ts", "const x = 1;\nconst y = 1;\n")
    write(src / "gone.ts", "x")
    write(tmp_path / "task" / "new.ts", "export const z = 3;\n")
    edits = [
        SdkEdit(file="a.ts", find="= 1;", replace="= 2;", count=2),
        SdkEdit(file="gone.ts", delete=True),
        SdkEdit(file="sub/new.ts", replace_file="new.ts"),
    ]
    apply_edits(src, edits, tmp_path / "task")
    assert (src / "a.ts").read_text() == "const x = 2;\nconst y = 2;\n"
    assert not (src / "gone.ts").exists() and (src / "sub" / "new.ts").read_text() == "export const z = 3;\n"
    with pytest.raises(SdkError, match=r"sdk.edits\[0\] \(a.ts\): `find` occurs 0 time\(s\), expected 1"):
        apply_edits(src, [SdkEdit(file="a.ts", find="= 1;", replace="")], tmp_path)
    with pytest.raises(SdkError, match="escapes"):
        apply_edits(src, [SdkEdit(file="../x.ts", find="a", replace="b")], tmp_path)


def _node_check_module(path) -> None:
    node = shutil.which("node")
    if node is None:
        return
    proc = subprocess.run(
        [node, "--experimental-default-type=module", "--check", str(path)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr


def test_build_untouched_pinned_sources(tmp_path):
    ws = tmp_path / "ws"
    copy_pinned_sdk(ws / "sdk")
    assert (ws / "sdk" / "skills").is_dir() and (ws / "sdk" / "README.md").is_file()
    write(ws / "sdk" / "build" / "stale.js", "old")  # removed by the build
    t0 = time.perf_counter()
    build = build_sdk(ws)
    wall = time.perf_counter() - t0
    entry = ws / SDK_ENTRY
    assert build.entry == entry and entry.is_file() and not (ws / "sdk" / "build" / "stale.js").exists()
    text = entry.read_text()
    assert "export {" in text and "require(" not in text  # an ES module
    _node_check_module(entry)
    # Same public interface as the published bundle.
    assert build.exports == published_exports() and {"Script", "Options", "init", "core"} <= set(build.exports)
    addon = ws / "sdk" / "build" / "addons" / "embodied-control" / "EmbodiedControl.js"
    assert addon.is_file() and build.addons == len(addon_entry_points(ws / "sdk" / "src"))
    # Addons share the SDK through the import map: `xrblocks` stays a bare import.
    built = "\n".join(p.read_text() for p in (ws / "sdk" / "build").rglob("*.js"))
    assert 'from "xrblocks"' in built and 'from "three"' in built
    print(f"SDK build: esbuild {build.seconds:.2f} s, build_sdk() {wall:.2f} s, {build.outputs} files")
    assert build.seconds < 60


def test_build_failure_is_reported_with_the_log(tmp_path):
    ws = tmp_path / "ws"
    copy_pinned_sdk(ws / "sdk")
    path = ws / "sdk" / "src" / "constants.ts"
    path.write_text(path.read_text().replace(BUG[0], "export const HAND_JOINT_COUNT = ;"))
    with pytest.raises(SdkBuildError, match="the SDK does not build") as e:
        build_sdk(ws)
    assert "constants.ts" in e.value.log and "ERROR" in e.value.log
    with pytest.raises(SdkToolError, match="not an SDK workspace"):
        build_sdk(tmp_path / "empty")


SDK_TESTS = """\
import pytest


def _bundle(workspace_dir):
    return "\\n".join(p.read_text() for p in sorted((workspace_dir / "sdk" / "build").rglob("*.js")))


@pytest.mark.fail_to_pass
def test_joint_count(workspace_dir):
    assert "HAND_JOINT_COUNT = 25" in _bundle(workspace_dir)


@pytest.mark.pass_to_pass
def test_num_hands(workspace_dir):
    assert "NUM_HANDS = 2" in _bundle(workspace_dir)
"""


def make_repair_task(tmp_path, *, with_setup: bool = False):
    """An sdk-repair task that reproduces a wrong joint count, with real patches as solutions."""
    d = tmp_path / "tasks" / "joint-count"
    sdk = f'[[sdk.edits]]\nfile = "constants.ts"\nfind = "{BUG[0]}"\nreplace = "{BUG[1]}"\n'
    if with_setup:
        sdk = 'setup = "setup.py"\n'
        write(
            d / "setup.py",
            "import os\nimport sys\nfrom pathlib import Path\n\n"
            "src = Path(sys.argv[1])\nassert src == Path(os.environ['GENXR_SDK_SRC'])\n"
            "p = src / 'constants.ts'\n"
            f"p.write_text(p.read_text().replace({BUG[0]!r}, {BUG[1]!r}))\n"
            "Path('setup-ran.txt').write_text(os.environ['GENXR_TASK_DIR'])\n",
        )
    write(
        d / "task.toml",
        'id = "joint-count"\ntype = "sdk-repair"\ndifficulty = "easy"\ncapabilities = ["hands"]\n'
        f'scenes = ["empty"]\n\n[verifier]\ntimeout_sec = 120\n\n[workspace]\ntemplate = "basic"\n\n'
        f'[sdk]\nsubsystems = ["core"]\n{sdk}',
    )
    write(d / "instruction.md", "Hands report 24 joints instead of the 25 WebXR joints. Fix the SDK.\n")
    write(d / "tests" / "test_joints.py", SDK_TESTS)
    original = (PKG / "src" / "constants.ts").read_text()
    broken = original.replace(BUG[0], BUG[1])
    fix = difflib.unified_diff(
        broken.splitlines(True), original.splitlines(True), "a/sdk/src/constants.ts", "b/sdk/src/constants.ts"
    )
    write(d / "solutions" / "valid" / "fix" / "fix.patch", "".join(fix))
    syntax = difflib.unified_diff(
        broken.splitlines(True),
        broken.replace(BUG[1], "export const HAND_JOINT_COUNT = ;").splitlines(True),
        "a/sdk/src/constants.ts",
        "b/sdk/src/constants.ts",
    )
    write(d / "solutions" / "adversarial" / "syntax" / "bad.patch", "".join(syntax))
    write(d / "solutions" / "adversarial" / "syntax" / "NOTE.md", "Deletes the value: the SDK no longer builds.\n")
    fake = d / "solutions" / "adversarial" / "fake-build"
    write(fake / "sdk" / "build" / "xrblocks.js", "var HAND_JOINT_COUNT = 25; var NUM_HANDS = 2;\n")
    write(fake / "NOTE.md", "Ships a hand-written sdk/build instead of fixing sdk/src.\n")
    return load_task(d)


def test_prepare_sdk_workspace_with_setup_script(tmp_path, monkeypatch):
    task = make_repair_task(tmp_path, with_setup=True)
    monkeypatch.chdir(tmp_path)  # a relative workspace: the script runs with the workspace as cwd
    assert prepare_workspace(task, "ws") is None
    ws = tmp_path / "ws"
    assert (ws / "index.html").is_file() and (ws / "main.js").is_file()  # the template app at the root
    assert BUG[1] in (ws / "sdk" / "src" / "constants.ts").read_text()
    assert (ws / "setup-ran.txt").read_text() == str(task.dir)
    assert not (ws / "sdk" / "build").exists()  # built on demand (prepare --build, or by the verifier)
    with pytest.raises(Exception, match="not an empty directory"):
        prepare_workspace(task, ws)


def test_setup_script_failure_names_the_script(tmp_path):
    task = make_repair_task(tmp_path, with_setup=True)
    (task.dir / "setup.py").write_text("raise SystemExit('cannot find the target code')\n")
    with pytest.raises(SdkError, match=r"joint-count: .*setup.py: exited with status 1: cannot find the target code"):
        prepare_workspace(task, tmp_path / "ws")


def test_edit_that_no_longer_matches_is_an_error(tmp_path):
    task = make_repair_task(tmp_path)
    toml = task.dir / "task.toml"
    toml.write_text(toml.read_text().replace("= 25;", "= 26;"))
    with pytest.raises(SdkError, match=r"sdk.edits\[0\] \(constants.ts\): `find` occurs 0 time"):
        prepare_workspace(load_task(task.dir), tmp_path / "ws")


@pytest.mark.slow
def test_sdk_task_verification_end_to_end(tmp_path):
    task = make_repair_task(tmp_path)
    assert {t.kind for t in task.tests} == {TestKind.FAIL_TO_PASS, TestKind.PASS_TO_PASS}

    start = tmp_path / "start"
    prepare_workspace(task, start)
    v = verify(task, start, tmp_path / "o-start", pytest_args=[])
    # SWE-bench validation of the task: on the starting SDK, F2P fails and P2P passes.
    assert not v.passed and v.infra_error is None
    assert {t.kind: t.outcome for t in v.tests} == {
        TestKind.FAIL_TO_PASS: Outcome.FAILED,
        TestKind.PASS_TO_PASS: Outcome.PASSED,
    }
    assert v.run.extra["sdk_build"]["seconds"] > 0

    results = {}
    for s in task.solutions:
        ws = materialize_solution(task, s, tmp_path / s.name)
        results[s.name] = verify(task, ws, tmp_path / f"o-{s.name}", pytest_args=[])
    assert results["fix"].passed and results["fix"].infra_error is None
    # A hand-written build is ignored: the verifier rebuilds from sdk/src.
    assert not results["fake-build"].passed and results["fake-build"].infra_error is None
    # Sources that do not compile: every test errors, and it is the candidate's failure.
    bad = results["syntax"]
    assert not bad.passed and bad.infra_error is None
    assert all(t.outcome is Outcome.ERROR and "SDK build failed" in t.message for t in bad.tests)
    assert (tmp_path / "o-syntax" / "sdk-build.txt").read_text().count("ERROR") >= 1


def test_cli_prepare_and_build(tmp_path):
    task = make_repair_task(tmp_path)
    dest = tmp_path / "ws"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "xrbench.cli.genxr_cmd",
            "prepare",
            "--task",
            str(task.dir),
            "--dest",
            str(dest),
            "--solution",
            "valid/fix",
            "--build",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert "built" in proc.stdout and (dest / SDK_ENTRY).is_file()
    assert BUG[0] in (dest / "sdk" / "src" / "constants.ts").read_text()


@pytest.mark.slow
def test_check_solutions_gate_on_an_sdk_task(tmp_path):
    from typer.testing import CliRunner

    from xrbench.cli.genxr_cmd import app

    task = make_repair_task(tmp_path)
    r = CliRunner().invoke(app, ["check", "--tasks", str(task.dir.parent), "--solutions", "--pytest-args", ""])
    assert r.exit_code == 0, r.output
    # A P2P test that fails on the starting SDK breaks the SWE-bench validation of the task.
    tests = task.dir / "tests" / "test_joints.py"
    tests.write_text(tests.read_text().replace("NUM_HANDS = 2", "NUM_HANDS = 3"))
    r = CliRunner().invoke(app, ["check", "--tasks", str(task.dir.parent), "--solutions", "--pytest-args", ""])
    assert r.exit_code == 2
    assert "on the starting SDK, F2P must fail and P2P must pass: tests/test_joints.py::test_num_hands" in r.stderr


def test_check_build_keeps_the_public_interface(tmp_path):
    from typer.testing import CliRunner

    from xrbench.cli.genxr_cmd import app

    task = make_repair_task(tmp_path)
    r = CliRunner().invoke(app, ["check", "--tasks", str(task.dir.parent), "--build"])
    assert r.exit_code == 0, r.output
    assert "joint-count: starting SDK builds in" in r.output

    # A transformation that drops an export gives the interface away: a problem on [sdk].
    toml = task.dir / "task.toml"
    edit = '\n[[sdk.edits]]\nfile = "constants.ts"\nfind = "export const VIEW_DEPTH_GAP"\n'
    edit += 'replace = "const VIEW_DEPTH_GAP"\n'
    toml.write_text(toml.read_text() + edit)
    r = CliRunner().invoke(app, ["check", "--tasks", str(task.dir.parent), "--build"])
    assert r.exit_code == 2
    assert (
        f"error: {toml}: sdk: the starting SDK no longer exports VIEW_DEPTH_GAP (keep the public interface)" in r.stderr
    )
