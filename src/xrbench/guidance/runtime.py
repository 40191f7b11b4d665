"""Runtime score: a task's own XR tests run against the generated app (`runtime_pass`).

A task may carry `tests/test_*.py`, pytest files written like GenXR's (the xrtest `xr` fixture,
semantic tags, actors and assertions). They run through the harness's runner
(`xrtest.runner.run_xr_tests`: its own process group, a wall-clock bound, the outcome classified)
on a copy of the tests in a fresh root directory, so no other pytest configuration applies.

`runtime_pass` is 1.0 when every test passed, 0.0 when any failed or errored (a missing tag, a
wrong behaviour, an app that fails to initialise), and None with `runtime_error` when nothing
could be judged: the task's tests did not import, the browser did not start, no test ran, pytest
crashed or timed out.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from xrbench.procs import owned_tempdir
from xrbench.xrtest.runner import run_xr_tests

PYTEST_INI = "[pytest]\naddopts =\n"
DEFAULT_TIMEOUT_S = 600.0
COLLECTION_ERROR = "did not collect: "  # how run_xr_tests reports a test file that failed to import


def run_runtime_tests(
    tests_dir: Path, workspace: str | Path, *, timeout_s: float = DEFAULT_TIMEOUT_S
) -> dict[str, Any]:
    """Run the task's XR tests on `workspace`; returns `runtime_pass` and per-test outcomes."""
    vdir = owned_tempdir("guidance-runtime-")
    try:
        shutil.copytree(tests_dir, vdir / "tests", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        ini = vdir / "pytest.ini"
        ini.write_text(PYTEST_INI, encoding="utf-8")
        res = run_xr_tests(
            workspace,
            [vdir / "tests"],
            cwd=vdir,
            timeout_s=timeout_s,
            pytest_args=["-c", str(ini), f"--rootdir={vdir}", "--import-mode=importlib"],
            env={"PYTHONHASHSEED": "0", "TZ": "UTC", "PYTHONDONTWRITEBYTECODE": "1"},
        )
    finally:
        shutil.rmtree(vdir, ignore_errors=True)

    tests = [{"id": t.id, "outcome": t.outcome, "message": t.message[:300]} for t in res.tests]
    out: dict[str, Any] = {"tests": tests}
    broken = [t.id for t in res.tests if t.message.startswith(COLLECTION_ERROR)]
    if broken:  # the task's own tests are broken: nothing about the app can be judged
        return {**out, "runtime_pass": None, "runtime_error": f"collection failed: {', '.join(broken)}"}
    # The generated app failing to start is its own failure; every other infrastructure error
    # (browser, timeout, pytest, no test ran) leaves it unjudged.
    if res.infra_error and res.infra_class != "app_init_failed":
        return {**out, "runtime_pass": None, "runtime_error": res.infra_error, "output_tail": res.output_tail}
    passed = sum(1 for t in res.tests if t.outcome == "passed")
    out.update(runtime_pass=1.0 if res.passed else 0.0, passed=passed, total=len(res.tests))
    return out
