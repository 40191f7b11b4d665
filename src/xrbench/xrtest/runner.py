"""Run XR test files against an app in a pytest subprocess and classify the outcome.

    result = run_xr_tests("examples/tap_to_light", ["tests/test_lamp.py"], junit="out/junit.xml")
    result.passed, result.infra_error, result.to_json()

pytest runs in its own process group with the harness plugin (`--xr-app`, `--xr-report`),
`--junitxml` and `--continue-on-collection-errors`, and is killed (browser included) at the
wall-clock bound. The outcome is one of:

- passed: pytest exited 0, at least one XR test ran, and nothing failed or errored;
- failed: some test failed or errored (a broken test file counts as an errored test);
- an infrastructure error (`infra_error` = "<class>: <reason>", never a pass), checked in this
  order: `timeout` (the bound was hit), `runner_error` (pytest could not run: usage error,
  internal error, interrupted, no report), `browser_launch_failed` (a test's error names
  `BrowserLaunchError`), `app_init_failed` (`AppInitError`), `no_tests_ran` (nothing executed: no
  test collected or selected, every test skipped, or no test used the `xr` fixture, so the app
  was never opened). The classes are those of `xrbench.genxr.grading.InfraClass`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xrbench.procs import owned_tempdir, wait_group

PLUGIN = "xrbench.xrtest.pytest_plugin"
DEFAULT_TIMEOUT_S = 900.0
RAN = ("passed", "failed", "error", "xfailed", "xpassed")
BAD = ("failed", "error")

# Failure text that means the harness, not the app's behaviour, failed (as in genxr grading).
INFRA_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bBrowserLaunchError\b|Failed to launch|BrowserType\.launch"), "browser_launch_failed"),
    (re.compile(r"\bAppInitError\b"), "app_init_failed"),
)


@dataclass(frozen=True)
class TestOutcome:
    """One test (or one test file that did not collect) and what happened to it."""

    __test__ = False

    id: str
    outcome: str  # passed, failed, error, skipped, xfailed, xpassed
    message: str = ""
    duration: float | None = None
    xr: bool = False  # it opened (or tried to open) the app
    hand: str | None = None
    scene: str | None = None
    artifacts: str | None = None  # the kept recording's folder


@dataclass(frozen=True)
class RunResult:
    """The classified outcome of one `run_xr_tests` call."""

    app: str
    passed: bool
    infra_error: str | None
    tests: tuple[TestOutcome, ...]
    exit_code: int | None
    timed_out: bool = False
    duration: float = 0.0
    junit: str | None = None
    command: tuple[str, ...] = ()
    output_tail: str = ""
    xr_tests_ran: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def infra_class(self) -> str | None:
        """The class part of `infra_error` (e.g. "app_init_failed"), or None."""
        return self.infra_error.partition(":")[0] if self.infra_error else None

    def summary(self) -> dict[str, Any]:
        """Counts per outcome, plus totals, XR tests run, exit status and timing."""
        counts = {k: 0 for k in ("passed", "failed", "error", "skipped", "xfailed", "xpassed")}
        for t in self.tests:
            counts[t.outcome] = counts.get(t.outcome, 0) + 1
        return {
            "total": len(self.tests),
            **counts,
            "xr_tests_ran": self.xr_tests_ran,
            "exit_code": self.exit_code,
            "timed_out": self.timed_out,
            "duration": round(self.duration, 3),
        }

    def to_json(self) -> dict[str, Any]:
        """{app, passed, infra_error, tests: [{id, outcome, message, duration}], summary}, plus details."""
        return {
            "app": self.app,
            "passed": self.passed,
            "infra_error": self.infra_error,
            "infra_class": self.infra_class,
            "tests": [
                {
                    "id": t.id,
                    "outcome": t.outcome,
                    "message": t.message,
                    "duration": t.duration,
                    "hand": t.hand,
                    "scene": t.scene,
                    "artifacts": t.artifacts,
                }
                for t in self.tests
            ],
            "summary": self.summary(),
            "junit": self.junit,
        }


def classify(
    tests: Sequence[TestOutcome], *, exit_code: int | None, timed_out: bool, report_found: bool, output_tail: str = ""
) -> str | None:
    """The infrastructure error of a run, or None (see the module docstring for the order)."""
    if timed_out:
        return "timeout: the test run did not finish within its time limit"
    if exit_code in (2, 3, 4) or not report_found:
        meaning = {2: "interrupted", 3: "internal error", 4: "usage error"}.get(exit_code or 0)
        last = [ln for ln in output_tail.strip().splitlines() if ln.strip()][-1:]
        why = f"pytest exited {exit_code}" + (f" ({meaning})" if meaning else "")
        if not report_found:
            why += " without writing its report"
        return f"runner_error: {why}" + (f": {last[0].strip()}" if last else "")
    for t in tests:
        if t.outcome not in BAD:
            continue
        for pattern, cls in INFRA_PATTERNS:
            if pattern.search(t.message):
                first = t.message.strip().splitlines()[0] if t.message.strip() else cls
                return f"{cls}: {t.id}: {first}"
    if exit_code == 5 or not any(t.outcome in RAN for t in tests):
        what = "pytest collected no tests" if exit_code == 5 or not tests else "every test was skipped"
        return f"no_tests_ran: {what}"
    if not any(t.xr and t.outcome in RAN for t in tests):
        return "no_tests_ran: no XR test ran (no test used the xr fixture, so the app was never opened)"
    return None


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.splitlines()[-lines:])


def run_xr_tests(
    app_dir: str | Path,
    tests: Sequence[str | Path],
    *,
    junit: str | Path | None = None,
    record: bool = False,
    trace: bool = False,
    artifacts: str | Path | None = None,
    scenes: Sequence[str] = (),
    timeout_s: float = DEFAULT_TIMEOUT_S,
    test_timeout_s: float | None = None,
    backend: str | None = None,
    pytest_args: Sequence[str] = (),
    cwd: str | Path | None = None,
    python: str | None = None,
    env: dict[str, str] | None = None,
) -> RunResult:
    """Run pytest on `tests` against `app_dir` in a subprocess and classify the result.

    `junit`: keep the JUnit XML here (default: a temporary file). `record`/`trace`/`artifacts`/
    `scenes`/`test_timeout_s`/`backend` map to the plugin's `--xr-record`, `--xr-trace`,
    `--xr-artifacts`, `--xr-scenes`, `--xr-timeout` and `--xr-backend`. `timeout_s` bounds the whole
    run (wall clock).
    """
    app = Path(app_dir).resolve()
    cwd = Path(cwd) if cwd is not None else Path.cwd()
    work = owned_tempdir("xrtest-run-")
    try:
        junit_path = Path(junit).resolve() if junit else work / "junit.xml"
        report = work / "report.json"
        junit_path.parent.mkdir(parents=True, exist_ok=True)
        junit_path.unlink(missing_ok=True)
        # `--opt=value` forms throughout: pytest takes a bare path argument for a test path when
        # it determines the rootdir, which would make the app folder the rootdir.
        cmd = [
            python or sys.executable,
            "-m",
            "pytest",
            *[str(t) for t in tests],
            "-p",
            PLUGIN,
            f"--xr-app={app}",
            f"--xr-report={report}",
            f"--junitxml={junit_path}",
            "-p",
            "no:cacheprovider",
            "--continue-on-collection-errors",
            "-q",
            "-rA",
        ]
        if record:
            cmd.append("--xr-record")
        if trace:
            cmd.append("--xr-trace")
        if artifacts is not None:
            cmd.append(f"--xr-artifacts={Path(artifacts).resolve()}")
        if scenes:
            cmd.append(f"--xr-scenes={','.join(scenes)}")
        if test_timeout_s is not None:
            cmd.append(f"--xr-timeout={test_timeout_s:g}")
        if backend is not None:
            cmd.append(f"--xr-backend={backend}")
        cmd += list(pytest_args)
        output = work / "output.txt"
        t0 = time.monotonic()
        try:
            with open(output, "wb") as out:
                exit_code = wait_group(
                    cmd,
                    timeout_s=timeout_s,
                    cwd=cwd,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env={**os.environ, **(env or {})},
                )
        except OSError as e:
            return RunResult(str(app), False, f"runner_error: could not start pytest: {e}", (), None)
        timed_out = exit_code is None
        duration = time.monotonic() - t0
        text = output.read_text(encoding="utf-8", errors="replace")
        data = _read_report(report)
        results = tuple(_outcome(r) for r in data.get("tests", [])) if data else ()
        results += tuple(_collection_errors(data))
        infra = classify(
            results, exit_code=exit_code, timed_out=timed_out, report_found=data is not None, output_tail=_tail(text)
        )
        bad = any(t.outcome in BAD for t in results)
        return RunResult(
            app=str(app),
            passed=infra is None and exit_code == 0 and not bad,
            infra_error=infra,
            tests=results,
            exit_code=exit_code,
            timed_out=timed_out,
            duration=duration,
            junit=str(junit_path) if junit and junit_path.is_file() else None,
            command=tuple(cmd),
            output_tail=_tail(text),
            xr_tests_ran=int(data.get("xr_tests_ran", 0)) if data else 0,
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _read_report(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _outcome(r: dict[str, Any]) -> TestOutcome:
    return TestOutcome(
        id=str(r.get("id", "")),
        outcome=str(r.get("outcome", "error")),
        message=str(r.get("message", "")),
        duration=r.get("duration"),
        xr=bool(r.get("xr")),
        hand=r.get("hand"),
        scene=r.get("scene"),
        artifacts=r.get("artifacts"),
    )


def _collection_errors(data: dict[str, Any] | None) -> list[TestOutcome]:
    return [
        TestOutcome(id=str(e.get("id", "")), outcome="error", message=f"did not collect: {e.get('message', '')}")
        for e in (data or {}).get("collection_errors", [])
    ]
