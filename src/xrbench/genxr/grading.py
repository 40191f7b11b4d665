"""Grading a candidate: per-test outcomes in, one pass/fail verdict out.

Rules (FIXED by the project issue, hardened as SWE-bench does):

- A candidate passes only when every required test passes. Every test is required: app tasks'
  tests, and both kinds of SDK task tests: `fail_to_pass` tests must pass and `pass_to_pass` tests
  must still pass.
- Only `passed` counts as passing. A skipped test is a failure, for both kinds: unlike SWE-bench,
  which lets a PASS_TO_PASS test be skipped, the issue says "must still pass". An expected failure
  (xfail) is a failure too: a held-out required test is never expected to fail.
- A declared test that never reports (its file did not collect, the run was cut short, pytest never
  selected it) is a failure (`missing`).
- Infrastructure errors are reported apart (`infra_error`) and are never a pass: the browser did not
  start, the app did not initialise, no test ran at all (zero collected, or every test skipped),
  the verifier timed out, pytest itself failed (exit status 2-5) or its exit status contradicts
  its report (status 0 with failures, status 1 with none: something printed a fake report).
- An SDK whose sources do not build is the candidate's failure, not infrastructure: every test is
  reported as an `error` with the build message.

`grade()` is a pure function of the task's type and declared tests and a `RunReport`;
`run_task_tests()` produces the report (pytest in a subprocess, JUnit XML parsed), `verify()` does
both, and `write_verdict()` writes the FIXED `genxr verify` JSON, `reward.json` (`{"reward": 0|1}`,
the only file a Harbor-style runner aggregates) and `details.json` beside it.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import traceback
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from importlib.util import find_spec
from pathlib import Path

from xrbench.genxr.sdk import SDK_DIR, SdkBuildError, SdkError, SdkToolError, build_sdk
from xrbench.genxr.task import TESTS_DIR, DeclaredTest, Task, TaskType, TestKind
from xrbench.genxr.workspace import IGNORED_NAMES, copy_app, copy_tree
from xrbench.procs import owned_tempdir, wait_group
from xrbench.store.atomic import atomic_write_json, atomic_write_text


class Outcome(StrEnum):
    """What happened to one test."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"  # setup/teardown error, collection error, SDK build failure
    SKIPPED = "skipped"
    XFAILED = "xfailed"
    MISSING = "missing"  # declared or collected, but never reported


class InfraClass(StrEnum):
    """Kinds of infrastructure error (after SWE-bench's infra_failure classes)."""

    BROWSER_LAUNCH_FAILED = "browser_launch_failed"
    APP_INIT_FAILED = "app_init_failed"
    NO_TESTS_RAN = "no_tests_ran"
    TIMEOUT = "timeout"
    RUNNER_ERROR = "runner_error"
    REPORT_MISSING = "report_missing"
    INCONSISTENT_EXIT = "inconsistent_exit_code"
    SDK_TOOLCHAIN = "sdk_toolchain_unavailable"
    SETUP_FAILED = "setup_failed"


# Failure text that means the harness, not the candidate's behaviour, failed. The harness raises
# these exception types (xrbench.xrtest.errors); Playwright says "Failed to launch" on its own.
INFRA_PATTERNS: tuple[tuple[re.Pattern[str], InfraClass], ...] = (
    (re.compile(r"\bBrowserLaunchError\b|Failed to launch|BrowserType\.launch"), InfraClass.BROWSER_LAUNCH_FAILED),
    (re.compile(r"\bAppInitError\b"), InfraClass.APP_INIT_FAILED),
)
# The harness caught the page changing what it observes with (xrbench.xrtest.errors.TamperingError).
TAMPERING_PATTERN = re.compile(r"\bTamperingError\b|tampering detected")

_WORST = [Outcome.MISSING, Outcome.ERROR, Outcome.FAILED, Outcome.XFAILED, Outcome.SKIPPED, Outcome.PASSED]


@dataclass(frozen=True)
class TestResult:
    """One reported test case."""

    __test__ = False

    id: str  # pytest node id, e.g. "tests/test_app.py::test_color[red]"
    outcome: Outcome
    message: str = ""
    duration: float | None = None
    kind: TestKind | None = None  # from the run (plugin property); the declaration wins when both exist


@dataclass(frozen=True)
class RunReport:
    """What one verification run produced, before grading."""

    results: tuple[TestResult, ...] = ()
    exit_code: int | None = None  # None: unknown (e.g. a report parsed on its own)
    timed_out: bool = False
    collected: tuple[str, ...] | None = None  # node ids pytest collected, when known
    collection_errors: tuple[tuple[str, str], ...] = ()  # (test file, message)
    infra_error: str | None = None  # "<class>: <reason>" found by the runner itself
    build_error: str | None = None  # the candidate's SDK did not build
    duration_sec: float | None = None
    output_tail: str = ""
    exit_first: bool = False  # pytest was told to stop at the first failure (`-x`)
    extra: dict = field(default_factory=dict)  # runner metadata for details.json (paths, args, build time)


@dataclass(frozen=True)
class TestVerdict:
    """The graded outcome of one test."""

    __test__ = False

    id: str
    outcome: Outcome
    message: str
    kind: TestKind | None
    required: bool

    @property
    def ok(self) -> bool:
        """Passed, or not required (every test is required today)."""
        return self.outcome is Outcome.PASSED or not self.required


@dataclass(frozen=True)
class Verdict:
    """The verdict on one candidate."""

    task: str
    task_type: TaskType
    passed: bool
    infra_error: str | None
    infra_class: InfraClass | None
    tests: tuple[TestVerdict, ...]
    run: RunReport = field(default_factory=RunReport)

    @property
    def reward(self) -> int:
        """1 for a pass, else 0 (infra errors included)."""
        return 1 if self.passed else 0

    @property
    def failure_category(self) -> str | None:
        """Why the candidate did not pass: `tampering`, `infrastructure` or `tests_failed` (None: passed)."""
        if self.passed:
            return None
        if any(_tampered(t) for t in self.tests):
            return "tampering"
        return "infrastructure" if self.infra_error else "tests_failed"

    def to_json(self) -> dict:
        """The FIXED `genxr verify` JSON: task, passed, infra_error, tests[{id, outcome, message}]."""
        return {
            "task": self.task,
            "passed": self.passed,
            "infra_error": self.infra_error,
            "tests": [{"id": t.id, "outcome": t.outcome.value, "message": t.message} for t in self.tests],
        }

    def details(self) -> dict:
        """Everything else worth keeping (details.json): kinds, counts, exit status, timings."""

        def count(kind: TestKind | None) -> dict:
            ts = [t for t in self.tests if t.kind is kind]
            return {"passed": sum(t.outcome is Outcome.PASSED for t in ts), "total": len(ts)}

        by_outcome: dict[str, int] = {}
        for t in self.tests:
            by_outcome[t.outcome.value] = by_outcome.get(t.outcome.value, 0) + 1
        return {
            **self.to_json(),
            "reward": self.reward,
            "failure_category": self.failure_category,
            "task_type": self.task_type.value,
            "infra_class": self.infra_class.value if self.infra_class else None,
            "counts": by_outcome,
            "fail_to_pass": count(TestKind.FAIL_TO_PASS),
            "pass_to_pass": count(TestKind.PASS_TO_PASS),
            "tests": [
                {**asdict(t), "outcome": t.outcome.value, "kind": t.kind.value if t.kind else None} for t in self.tests
            ],
            "exit_code": self.run.exit_code,
            "timed_out": self.run.timed_out,
            "build_error": self.run.build_error,
            "duration_sec": self.run.duration_sec,
            "output_tail": self.run.output_tail,
            **self.run.extra,
        }


# --- pure grading ---------------------------------------------------------------------------------


def base_id(node_id: str) -> str:
    """The node id without its parametrization: "f.py::test_x[a-1]" -> "f.py::test_x"."""
    return re.sub(r"\[.*\]$", "", node_id)


def _worst(outcomes: Iterable[Outcome]) -> Outcome:
    return min(outcomes, key=_WORST.index)


def _merge(results: Iterable[TestResult]) -> dict[str, TestResult]:
    """One result per node id; a test reported twice keeps its worst outcome."""
    merged: dict[str, TestResult] = {}
    for r in results:
        old = merged.get(r.id)
        if old is None or _WORST.index(r.outcome) < _WORST.index(old.outcome):
            merged[r.id] = r
    return merged


def _tampered(test: TestVerdict) -> bool:
    return test.outcome in (Outcome.FAILED, Outcome.ERROR) and bool(TAMPERING_PATTERN.search(test.message))


def _infra_from_messages(tests: Iterable[TestVerdict]) -> tuple[InfraClass, str] | None:
    for t in tests:
        if t.outcome not in (Outcome.FAILED, Outcome.ERROR):
            continue
        for pattern, cls in INFRA_PATTERNS:
            if pattern.search(t.message):
                return cls, f"{t.id}: {t.message.splitlines()[0] if t.message else cls.value}"
    return None


def _parse_infra(text: str) -> tuple[InfraClass, str]:
    head = text.partition(":")[0]
    try:
        return InfraClass(head.strip()), text
    except ValueError:
        return InfraClass.RUNNER_ERROR, text


def _why_missing(run: RunReport, results: Iterable[TestResult], default: str = "declared but never reported") -> str:
    if run.timed_out:
        return "did not finish before the timeout"
    if run.exit_first and any(r.outcome in (Outcome.FAILED, Outcome.ERROR) for r in results):
        return "not run: the run stopped at its first failure"
    return default


def grade(task_id: str, task_type: TaskType, declared: Sequence[DeclaredTest], run: RunReport) -> Verdict:
    """The verdict for one candidate, from the task's declared tests and what the run reported."""
    tests: list[TestVerdict] = []
    declared_by_id = {d.id: d for d in declared}
    results = _merge(run.results)

    if run.build_error is not None:
        # The candidate's SDK does not compile: no test could run, and that is the candidate's doing.
        msg = f"SDK build failed: {run.build_error}"
        tests = [TestVerdict(d.id, Outcome.ERROR, msg, d.kind, True) for d in declared]
    else:
        by_base: dict[str, list[TestResult]] = {}
        for r in results.values():
            by_base.setdefault(base_id(r.id), []).append(r)
        collection_errors = dict(run.collection_errors)
        seen: set[str] = set()
        for d in declared:
            variants = by_base.get(d.id, [])
            if not variants:
                if d.file in collection_errors:
                    msg = f"test file did not collect: {collection_errors[d.file]}"
                    tests.append(TestVerdict(d.id, Outcome.ERROR, msg, d.kind, True))
                else:
                    tests.append(TestVerdict(d.id, Outcome.MISSING, _why_missing(run, results.values()), d.kind, True))
                continue
            for r in sorted(variants, key=lambda r: r.id):
                seen.add(r.id)
                tests.append(TestVerdict(r.id, r.outcome, r.message, d.kind or r.kind, True))
        for r in results.values():
            if r.id in seen:
                continue
            # Reported but not declared (generated tests): still required, whatever their kind.
            d = declared_by_id.get(base_id(r.id))
            tests.append(TestVerdict(r.id, r.outcome, r.message, (d.kind if d else None) or r.kind, True))
            seen.add(r.id)
        for node_id in run.collected or ():
            if node_id not in seen and base_id(node_id) not in declared_by_id:
                why = _why_missing(run, results.values(), "collected but never reported")
                tests.append(TestVerdict(node_id, Outcome.MISSING, why, None, True))
                seen.add(node_id)
        for file, message in run.collection_errors:
            if not any(d.file == file for d in declared):
                tests.append(TestVerdict(file, Outcome.ERROR, f"test file did not collect: {message}", None, True))

    # Tampering is the candidate's doing: it fails the candidate and is never retried as an
    # infrastructure error, whatever else the run reported.
    infra = None if any(_tampered(t) for t in tests) else _infra(run, tests, list(results.values()))
    infra_class, infra_error = infra if infra else (None, None)
    passed = infra is None and bool(tests) and all(t.ok for t in tests)
    return Verdict(task_id, task_type, passed, infra_error, infra_class, tuple(tests), run)


def _infra(run: RunReport, tests: list[TestVerdict], results: list[TestResult]) -> tuple[InfraClass, str] | None:
    """The first infrastructure error of a run, if any (checked in order of certainty)."""
    if run.infra_error:
        return _parse_infra(run.infra_error)
    if run.timed_out:
        return InfraClass.TIMEOUT, "timeout: the test run did not finish within the verifier time limit"
    if run.build_error is not None:
        return None
    if run.exit_code in (2, 3, 4):
        meaning = {2: "interrupted", 3: "internal error", 4: "usage error"}[run.exit_code]
        tail = run.output_tail.strip().splitlines()[-1:] if run.output_tail.strip() else []
        return InfraClass.RUNNER_ERROR, f"runner_error: pytest exited {run.exit_code} ({meaning})" + (
            f": {tail[0]}" if tail else ""
        )
    found = _infra_from_messages(tests)
    if found:
        cls, msg = found
        return cls, f"{cls.value}: {msg}"
    ran = [r for r in results if r.outcome in (Outcome.PASSED, Outcome.FAILED, Outcome.ERROR, Outcome.XFAILED)]
    if run.exit_code == 5 or not ran:
        # SWE-bench's SUITE_RAN guard: a suite that never ran must not score its tests as anything.
        what = "pytest collected no tests" if run.exit_code == 5 or not results else "every test was skipped"
        return InfraClass.NO_TESTS_RAN, f"no_tests_ran: {what}"
    bad = [r for r in results if r.outcome in (Outcome.FAILED, Outcome.ERROR)]
    if run.exit_code == 0 and bad:
        return InfraClass.INCONSISTENT_EXIT, f"inconsistent_exit_code: pytest exited 0 but {len(bad)} test(s) failed"
    if run.exit_code == 1 and not bad and not run.collection_errors:
        return InfraClass.INCONSISTENT_EXIT, "inconsistent_exit_code: pytest exited 1 but no test failed"
    return None


# --- reports --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JUnitReport:
    """Test cases parsed from a pytest JUnit XML file."""

    results: tuple[TestResult, ...]
    collection_errors: tuple[tuple[str, str], ...]


def _first_line(text: str | None) -> str:
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()
    return ""


def _node_id(case: ET.Element, known_files: Sequence[str]) -> str:
    props = {p.get("name"): p.get("value") for p in case.iter("property")}
    if props.get("nodeid"):
        return str(props["nodeid"])
    classname, name = case.get("classname", ""), case.get("name", "")
    file = case.get("file")
    parts = classname.split(".")
    if not file:
        # xunit2 has no file attribute: find the longest classname prefix that is a known test file.
        for i in range(len(parts), 0, -1):
            candidate = "/".join(parts[:i]) + ".py"
            if candidate in known_files:
                file = candidate
                break
    if file:
        module = file[:-3].replace("/", ".")
        inner = classname[len(module) + 1 :].split(".") if classname.startswith(module + ".") else []
        return "::".join([file, *[p for p in inner if p], name])
    return "/".join(parts) + ".py::" + name


def parse_junit(source: str | Path, known_files: Sequence[str] = ()) -> JUnitReport:
    """Parse a pytest `--junitxml` file (or its text) into results and collection errors.

    Raises `ValueError` when the text is not JUnit XML.
    """
    text = Path(source).read_text(encoding="utf-8") if isinstance(source, Path) else source
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise ValueError(f"not valid JUnit XML: {e}") from None
    if root.tag not in ("testsuites", "testsuite"):
        raise ValueError(f"not JUnit XML (root element <{root.tag}>)")
    results: list[TestResult] = []
    collection_errors: list[tuple[str, str]] = []
    for case in root.iter("testcase"):
        failure, error, skipped = case.find("failure"), case.find("error"), case.find("skipped")
        if not case.get("classname") and error is not None and error.get("message") == "collection failure":
            file = case.get("file") or case.get("name", "").replace(".", "/") + ".py"
            collection_errors.append((file, _collection_reason(error.text)))
            continue
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        kind = TestKind(props["genxr_kind"]) if props.get("genxr_kind") in tuple(TestKind) else None
        if error is not None:
            outcome, message = Outcome.ERROR, error.get("message") or _first_line(error.text)
        elif failure is not None:
            outcome, message = Outcome.FAILED, failure.get("message") or _first_line(failure.text)
        elif skipped is not None:
            xfail = skipped.get("type") == "pytest.xfail"
            outcome = Outcome.XFAILED if xfail else Outcome.SKIPPED
            message = skipped.get("message") or _first_line(skipped.text)
        else:
            outcome, message = Outcome.PASSED, ""
        try:
            duration = float(case.get("time", ""))
        except ValueError:
            duration = None
        results.append(TestResult(_node_id(case, known_files), outcome, message or "", duration, kind))
    return JUnitReport(tuple(results), tuple(collection_errors))


def _collection_reason(text: str | None) -> str:
    lines = [ln.strip() for ln in (text or "").splitlines() if ln.strip()]
    errors = [ln[1:].strip() for ln in lines if ln.startswith("E ")]
    return (errors[-1] if errors else lines[-1] if lines else "collection failure")[:500]


def read_result_log(path: Path) -> tuple[tuple[TestResult, ...], tuple[str, ...] | None]:
    """Results and collected ids from the plugin's JSON-lines log (partial when the run was killed)."""
    if not path.is_file():
        return (), None
    collected: list[str] | None = None
    phases: dict[str, list[dict]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue  # the last line of a killed run may be cut
        if rec.get("event") == "collected":
            collected = list(rec.get("nodeids", []))
        elif rec.get("event") == "report":
            phases.setdefault(rec["nodeid"], []).append(rec)
    results = []
    for node_id, recs in phases.items():
        whens = {r["when"] for r in recs}
        failed = [r for r in recs if r["outcome"] == "failed"]
        skipped = [r for r in recs if r["outcome"] == "skipped"]
        if failed:
            r = failed[0]
            outcome = Outcome.FAILED if r["when"] == "call" else Outcome.ERROR
            message = r.get("message", "")
        elif skipped:
            r = skipped[0]
            outcome = Outcome.XFAILED if r.get("xfail") else Outcome.SKIPPED
            message = r.get("message", "")
        elif "call" in whens:
            outcome, message = Outcome.PASSED, ""
        else:
            continue  # setup passed, the call never reported: the run was cut short
        duration = sum(float(r.get("duration") or 0) for r in recs)
        results.append(TestResult(node_id, outcome, message, duration))
    return tuple(results), tuple(collected) if collected is not None else None


# --- running --------------------------------------------------------------------------------------

HARNESS_PLUGIN = "xrbench.xrtest.pytest_plugin"
PLUGIN = "xrbench.genxr.pytest_plugin"
PYTEST_INI = """[pytest]
# Written by xrbench.genxr: the verification run ignores any other configuration.
junit_family = xunit1
addopts =
"""


def default_pytest_args() -> list[str]:
    """Extra pytest arguments: the harness plugin, `--xr-app {workspace}` and `--xr-scenes {scenes}`.

    `{workspace}` and `{scenes}` (the task's scenes, comma-separated) are substituted per run, so
    a test without an `xr_scenes` marker runs in the rooms the task lists.
    """
    try:
        available = find_spec(HARNESS_PLUGIN) is not None
    except ModuleNotFoundError:
        available = False
    return ["-p", HARNESS_PLUGIN, "--xr-app", "{workspace}", "--xr-scenes", "{scenes}"] if available else []


def _squeeze(text: str, limit: int) -> str:
    """`text` cut in the middle to `limit` characters (a path keeps its start and its end)."""
    if len(text) <= limit:
        return text
    if limit < 10:
        return text[:limit]
    head = (limit - 3) // 2
    return text[:head] + "..." + text[len(text) - (limit - 3 - head) :]


def error_line(error: BaseException, limit: int = 300) -> str:
    """An exception as one short line (shutil.Error lists every file that failed)."""
    if isinstance(error, shutil.Error) and error.args and isinstance(error.args[0], list) and error.args[0]:
        src, _, why = error.args[0][0]
        more = len(error.args[0]) - 1
        # str(OSError) ends with the quoted file name, which `src` already gives.
        why = re.sub(r": '[^']*'$", "", str(why))
        reason = " ".join(f": {why}".split()) + (f" (and {more} more)" if more else "")
        # A link loop makes the path hundreds of characters long; the reason must survive the cut.
        text = _squeeze(" ".join(str(src).split()), max(limit // 2, limit - len(reason))) + reason
    else:
        text = " ".join((str(error) or type(error).__name__).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def _prepare_candidate(task: Task, workspace: Path, dest: Path, out_dir: Path, extra: dict) -> str | None:
    """Fill `dest` with the candidate under test; returns the SDK build error, if any.

    App tasks: the candidate workspace as it is. SDK tasks: the task's own app (held out, so a
    candidate cannot fake behaviour through it) plus the candidate's `sdk/src`, rebuilt here.
    """
    if not task.type.is_sdk:
        copy_tree(workspace, dest)
        return None
    copy_app(task, dest)
    src = workspace / SDK_DIR / "src"
    if not src.is_dir():
        return f"the workspace has no {SDK_DIR}/src folder"
    copy_tree(src, dest / SDK_DIR / "src")
    try:
        build = build_sdk(dest)
    except SdkBuildError as e:
        atomic_write_text(out_dir / "sdk-build.txt", e.log)
        return str(e)
    extra["sdk_build"] = {"seconds": round(build.seconds, 3), "outputs": build.outputs, "addons": build.addons}
    if build.warnings:
        atomic_write_text(out_dir / "sdk-build.txt", build.warnings + "\n")
    return None


# The harness's recording options; with none of them it records every test and keeps failed ones'.
_RECORDING_OPTIONS = frozenset({"--xr-record", "--xr-trace", "--xr-no-recording"})
ARTIFACTS_DIR = "artifacts"
RERUN_OUTPUT = "pytest-output-rerun.txt"


def _option_names(args: Sequence[str]) -> set[str]:
    return {a.partition("=")[0] for a in args if a.startswith("--")}


def unrecorded(args: Sequence[str]) -> list[str]:
    """`args` with `--xr-no-recording` added unless they ask for recordings (`--xr-record`, `--xr-trace`).

    For runs whose recordings nobody keeps (validation, the solutions gate).
    """
    names = _option_names(args)
    if "--xr-app" in names and not names & _RECORDING_OPTIONS:
        return [*args, "--xr-no-recording"]
    return list(args)


def _pytest_run(
    cmd: list[str], vdir: Path, junit: Path, log: Path, output: Path, timeout: float, task: Task
) -> RunReport:
    """Run one verification pytest command (writing `junit`, `log` and `output`) and read its report."""
    # Pinned hash seed and time zone: the same candidate must grade the same on every machine.
    env = {**os.environ, "PYTHONHASHSEED": "0", "TZ": "UTC", "PYTHONDONTWRITEBYTECODE": "1"}
    t0 = time.perf_counter()
    try:
        with open(output, "wb") as out:
            exit_code = wait_group(cmd, timeout_s=timeout, cwd=vdir, stdout=out, stderr=subprocess.STDOUT, env=env)
    except OSError as e:
        return RunReport(infra_error=f"runner_error: could not start pytest: {e}")
    timed_out = exit_code is None
    logged, collected = read_result_log(log)
    base = RunReport(
        results=logged,
        collected=collected,
        exit_code=exit_code,
        timed_out=timed_out,
        duration_sec=round(time.perf_counter() - t0, 3),
        output_tail=_tail(output),
        exit_first="-x" in cmd or "--exitfirst" in cmd,
    )
    if not junit.is_file():
        # A killed run writes no JUnit XML: grade what the plugin's log saw finish.
        if timed_out:
            return base
        return replace(base, infra_error=f"report_missing: pytest wrote no JUnit report (exit status {exit_code})")
    try:
        report = parse_junit(junit, sorted({d.file for d in task.tests}))
    except ValueError as e:
        return base if timed_out else replace(base, infra_error=f"report_missing: {e}")
    return replace(base, results=report.results, collection_errors=report.collection_errors)


def _record_failures(first: RunReport, run: Callable[..., RunReport], timeout: float) -> dict | None:
    """Rerun failed tests of an unrecorded `first` run with recording on; None when none is worth it.

    Each failed test function is rerun once, in its first failed variant (hand, scene).

    The first run's verdict stands whatever the rerun does. The harness is deterministic, so a
    failed test that passes when rerun is a flake finding in itself (`flaky`).
    """
    if first.timed_out or first.infra_error or first.build_error:
        return None
    targets: list[TestResult] = []
    left_out: dict[str, str] = {}
    recorded: dict[str, str] = {}  # test function -> the variant recorded
    for r in first.results:
        if r.outcome not in (Outcome.FAILED, Outcome.ERROR):
            continue
        if "XRTimeoutError" in r.message:  # recording it would take its whole time limit again
            left_out[r.id] = "not rerun: it ran out of time"
        elif base_id(r.id) in recorded:
            # One recording shows how a test fails; its other hand and scene variants would
            # double a failing candidate's cost.
            left_out[r.id] = f"not rerun: {recorded[base_id(r.id)]} is recorded"
        else:
            recorded[base_id(r.id)] = r.id
            targets.append(r)
    if not targets:
        return None
    # Bounded by what the failures took unrecorded (recording draws more): a slow rerun costs
    # artifacts, never the verdict.
    spent = sum(r.duration or 0.0 for r in targets)
    rerun = run([r.id for r in targets], min(timeout, 60.0 + 3.0 * spent))
    outcomes = {r.id: r.outcome.value for r in rerun.results}
    return {
        "tests": [r.id for r in targets],
        "outcomes": outcomes,
        "flaky": [r.id for r in targets if outcomes.get(r.id) == Outcome.PASSED.value],
        "left_out": left_out,
        "exit_code": rerun.exit_code,
        "timed_out": rerun.timed_out,
        "infra_error": rerun.infra_error,
        "duration_sec": rerun.duration_sec,
    }


def run_task_tests(
    task: Task,
    workspace: str | Path,
    out_dir: str | Path,
    *,
    pytest_args: Sequence[str] | None = None,
    timeout_sec: float | None = None,
    keep_workdir: bool = False,
    python: str | None = None,
    record_by_rerun: bool = True,
) -> RunReport:
    """Run the task's held-out tests against a candidate workspace; never modifies the workspace.

    A fresh verification dir gets a copy of `tests/`, a fresh copy of the candidate (see
    `_prepare_candidate`) in `workspace/`, and its own pytest.ini. pytest then runs in a subprocess
    (own process group, killed at `timeout_sec`, default the task's `[verifier] timeout_sec`) with
    `-p xrbench.genxr.pytest_plugin`, `--junitxml` and `pytest_args` (default
    `default_pytest_args()`). `out_dir` receives junit.xml, results.jsonl and pytest-output.txt,
    and the XR harness's recordings of failed tests in `artifacts/` (unless the arguments name
    `--xr-artifacts` or a recording option).

    Recording failed tests, the harness's default, is done by rerunning them (`record_by_rerun`):
    the graded run records nothing, so every one of its frames is thin (see xrbench.xrtest's
    kernel.js), and only the failed tests run again, recorded, into the artifacts. The report is
    the first run's; the rerun is summarised in `extra["recording_rerun"]` and its output goes to
    pytest-output-rerun.txt. With `record_by_rerun=False` one run records every test, keeping failed ones.
    """
    workspace = Path(workspace).resolve()
    out_dir = Path(out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    timeout = float(timeout_sec if timeout_sec is not None else task.spec.verifier.timeout_sec)
    junit, log, output = out_dir / "junit.xml", out_dir / "results.jsonl", out_dir / "pytest-output.txt"
    for stale in (junit, log, output, out_dir / RERUN_OUTPUT, out_dir / "sdk-build.txt"):
        stale.unlink(missing_ok=True)
    if not workspace.is_dir():
        return RunReport(infra_error=f"setup_failed: workspace {workspace} is not a directory")

    # Named after this process, so that a folder left by a killed run is removed by the next one.
    vdir = owned_tempdir(f"genxr-verify-{task.id}-")
    extra: dict = {"verification_dir": str(vdir) if keep_workdir else None}
    try:
        candidate = vdir / "workspace"
        candidate.mkdir()
        try:
            # Links are followed (a test may link a helper of the task); one that loops or dangles
            # makes the copy fail, which is the task's problem, never the candidate's.
            shutil.copytree(task.tests_dir, vdir / TESTS_DIR, ignore=shutil.ignore_patterns(*IGNORED_NAMES))
        except (OSError, RecursionError) as e:
            return RunReport(infra_error=f"setup_failed: cannot copy the task's tests: {error_line(e)}", extra=extra)
        (vdir / "pytest.ini").write_text(PYTEST_INI, encoding="utf-8")
        try:
            build_error = _prepare_candidate(task, workspace, candidate, out_dir, extra)
        except SdkToolError as e:
            return RunReport(infra_error=f"sdk_toolchain_unavailable: {e}", extra=extra)
        except (OSError, SdkError, RecursionError) as e:
            return RunReport(infra_error=f"setup_failed: {error_line(e)}", extra=extra)
        extra["flags"] = harness_references(candidate)
        if build_error is not None:
            return RunReport(build_error=build_error, extra=extra)

        subst = {"workspace": str(candidate), "scenes": ",".join(s.value for s in task.spec.scenes)}
        args = list(default_pytest_args() if pytest_args is None else pytest_args)
        args = [a.format(**subst) if "{" in a else a for a in args]
        names = _option_names(args)
        harness = "--xr-app" in names
        if harness and "--xr-no-recording" not in names and "--xr-artifacts" not in names:
            # The default would be inside the verification dir, deleted below.
            shutil.rmtree(out_dir / ARTIFACTS_DIR, ignore_errors=True)
            args += ["--xr-artifacts", str(out_dir / ARTIFACTS_DIR)]
        by_rerun = record_by_rerun and harness and not names & _RECORDING_OPTIONS

        def command(targets: Sequence[str], junit: Path, log: Path, more: Sequence[str] = ()) -> list[str]:
            return [
                python or sys.executable,
                "-m",
                "pytest",
                *targets,
                "-c",
                str(vdir / "pytest.ini"),
                "--rootdir",
                str(vdir),
                "-p",
                PLUGIN,
                "-p",
                "no:cacheprovider",
                "--import-mode=importlib",
                "--continue-on-collection-errors",
                f"--junitxml={junit}",
                f"--genxr-log={log}",
                f"--genxr-workspace={candidate}",
                "-q",
                "-rA",
                *args,
                *more,
            ]

        cmd = command([TESTS_DIR], junit, log, ["--xr-no-recording"] if by_rerun else [])
        extra.update(pytest_command=shlex.join(cmd), timeout_sec=timeout)
        first = replace(_pytest_run(cmd, vdir, junit, log, output, timeout, task), extra=extra)
        if by_rerun:

            def rerun(targets: list[str], limit: float) -> RunReport:
                rjunit, rlog = vdir / "rerun-junit.xml", vdir / "rerun-results.jsonl"
                return _pytest_run(
                    command(targets, rjunit, rlog), vdir, rjunit, rlog, out_dir / RERUN_OUTPUT, limit, task
                )

            recorded = _record_failures(first, rerun, timeout)
            if recorded is not None:
                return replace(first, extra={**extra, "recording_rerun": recorded})
        return first
    finally:
        if not keep_workdir:
            shutil.rmtree(vdir, ignore_errors=True)


# Names of the harness's in-page internals: an app has no business mentioning them.
HARNESS_NAMES = re.compile(r"__xrtest|__XRTEST_|xrtestConfig")
_SOURCE_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".html", ".htm", ".json")


def harness_references(root: Path, limit: int = 20) -> list[dict]:
    """Lines of the candidate's sources that name the harness's internals (flagged in details.json).

    A flag is not a verdict: the runtime checks decide (see xrbench.xrtest's kernel.js); it tells a
    reader where a candidate went looking for the grader.
    """
    found: list[dict] = []
    for path in sorted(root.rglob("*")):
        if len(found) >= limit:
            break
        if path.suffix not in _SOURCE_SUFFIXES or path.is_symlink() or not path.is_file():
            continue
        if any(part in IGNORED_NAMES or part == "node_modules" for part in path.relative_to(root).parts):
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if HARNESS_NAMES.search(line):
                found.append({"file": str(path.relative_to(root)), "line": number, "text": line.strip()[:200]})
                if len(found) >= limit:
                    break
    return found


def verify(task: Task, workspace: str | Path, out_dir: str | Path, **kwargs) -> Verdict:
    """Run the task's tests on `workspace` (see `run_task_tests`) and grade the result.

    An unforeseen error of the run is a `runner_error` infrastructure error (its traceback goes to
    details.json): it says nothing about the candidate, and must not stop a job or a check.
    """
    try:
        run = run_task_tests(task, workspace, out_dir, **kwargs)
    except Exception as e:
        infra = f"runner_error: {type(e).__name__}: {error_line(e)}"
        run = RunReport(infra_error=infra, extra={"traceback": traceback.format_exc()})
    return grade(task.id, task.type, task.tests, run)


def write_verdict(verdict: Verdict, out_file: str | Path) -> None:
    """Write the FIXED JSON to `out_file`, and reward.json and details.json beside it."""
    out_file = Path(out_file)
    atomic_write_json(out_file.parent / "details.json", verdict.details())
    atomic_write_json(out_file.parent / "reward.json", {"reward": verdict.reward})
    atomic_write_json(out_file, verdict.to_json())
