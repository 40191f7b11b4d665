"""Runtime score: a task's own XR tests run against the generated app (`runtime_pass`).

A task may carry `tests/test_*.py`, pytest files written like GenXR's (the xrtest `xr` fixture,
semantic tags, actors and assertions). They run in a subprocess on a copy of the tests, with
`--xr-app <workspace>`, in a fresh root directory (so no other pytest configuration applies);
the JUnit report is parsed with GenXR's parser.

`runtime_pass` is 1.0 when every test passed, 0.0 when any failed or errored (a missing tag, a
wrong behaviour, an app that fails to initialise), and None with `runtime_error` when nothing
could be judged: the browser did not start, no test ran, pytest crashed or timed out.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

PYTEST_INI = "[pytest]\njunit_family = xunit1\naddopts =\n"
DEFAULT_TIMEOUT_S = 600.0


def run_runtime_tests(
    tests_dir: Path, workspace: str | Path, *, timeout_s: float = DEFAULT_TIMEOUT_S
) -> dict[str, Any]:
    """Run the task's XR tests on `workspace`; returns `runtime_pass` and per-test outcomes."""
    from xrbench.genxr.grading import INFRA_PATTERNS, Outcome, parse_junit

    workspace = Path(workspace).resolve()
    vdir = Path(tempfile.mkdtemp(prefix="guidance-runtime-"))
    try:
        shutil.copytree(tests_dir, vdir / "tests", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        (vdir / "pytest.ini").write_text(PYTEST_INI, encoding="utf-8")
        junit = vdir / "junit.xml"
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "tests",
            "-c",
            str(vdir / "pytest.ini"),
            "--rootdir",
            str(vdir),
            "-p",
            "no:cacheprovider",
            "--import-mode=importlib",
            f"--junitxml={junit}",
            "--xr-app",
            str(workspace),
            "-q",
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0", "TZ": "UTC", "PYTHONDONTWRITEBYTECODE": "1"}
        try:
            proc = subprocess.run(cmd, cwd=vdir, capture_output=True, text=True, timeout=timeout_s, env=env)
        except subprocess.TimeoutExpired:
            return {"runtime_pass": None, "runtime_error": f"timeout: the XR tests ran past {timeout_s:g} s"}
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        if not junit.is_file():
            return {
                "runtime_pass": None,
                "runtime_error": f"pytest wrote no report (exit {proc.returncode})",
                "output_tail": tail,
            }
        report = parse_junit(junit)
    finally:
        shutil.rmtree(vdir, ignore_errors=True)

    tests = [{"id": r.id, "outcome": str(r.outcome), "message": r.message[:300]} for r in report.results]
    out: dict[str, Any] = {"tests": tests}
    for r in report.results:
        for pattern, infra in INFRA_PATTERNS:
            # The app failing to start is the candidate's failure; the browser failing is not.
            if infra.value == "browser_launch_failed" and pattern.search(r.message or ""):
                return {**out, "runtime_pass": None, "runtime_error": f"{infra.value}: {r.message[:200]}"}
    if report.collection_errors:
        files = ", ".join(f for f, _ in report.collection_errors)
        return {**out, "runtime_pass": None, "runtime_error": f"collection failed: {files}"}
    ran = [r for r in report.results if r.outcome is not Outcome.SKIPPED]
    if not ran:
        return {**out, "runtime_pass": None, "runtime_error": "no XR test ran"}
    passed = sum(1 for r in report.results if r.outcome is Outcome.PASSED)
    out.update(runtime_pass=1.0 if passed == len(report.results) else 0.0, passed=passed, total=len(report.results))
    return out
