"""Grading as a pure function: the F2P/P2P truth table, infra errors, and report parsing."""

from __future__ import annotations

import json

import pytest

from xrbench.genxr.grading import (
    InfraClass,
    Outcome,
    RunReport,
    TestResult,
    grade,
    parse_junit,
    read_result_log,
    write_verdict,
)
from xrbench.genxr.task import DeclaredTest, TaskType, TestKind

F2P, P2P = TestKind.FAIL_TO_PASS, TestKind.PASS_TO_PASS
P, F, E, S, X = Outcome.PASSED, Outcome.FAILED, Outcome.ERROR, Outcome.SKIPPED, Outcome.XFAILED


def declared(*kinds: TestKind | None) -> list[DeclaredTest]:
    return [DeclaredTest(f"tests/test_t.py::test_{i}", "tests/test_t.py", i + 1, k) for i, k in enumerate(kinds)]


def run_of(*outcomes: Outcome, exit_code: int | None = None, **kw) -> RunReport:
    results = tuple(
        TestResult(f"tests/test_t.py::test_{i}", o, "" if o is P else "why") for i, o in enumerate(outcomes)
    )
    if exit_code is None:
        exit_code = 0 if all(o in (P, S, X) for o in outcomes) else 1
    return RunReport(results=results, exit_code=exit_code, **kw)


SDK = TaskType.SDK_REPAIR


@pytest.mark.parametrize(
    ("f2p", "p2p", "passed"),
    [
        (P, P, True),
        (F, P, False),  # the target behaviour is still broken
        (P, F, False),  # the fix broke related behaviour
        (E, P, False),
        (S, P, False),  # a skipped F2P test is a failure (SWE-bench)
        (P, S, False),  # ... and so is a skipped P2P test (the issue: "must still pass")
        (X, P, False),  # xfail is not a pass for a held-out required test
        (P, X, False),
    ],
)
def test_sdk_truth_table(f2p, p2p, passed):
    v = grade("t", SDK, declared(F2P, P2P), run_of(f2p, p2p))
    assert v.passed is passed
    assert v.infra_error is None  # one test still ran: failures here are the candidate's
    assert [(t.kind, t.outcome) for t in v.tests] == [(F2P, f2p), (P2P, p2p)]
    assert v.reward == int(passed)


@pytest.mark.parametrize(
    ("outcomes", "passed"),
    [((P, P, P), True), ((P, F, P), False), ((P, S, P), False), ((P, P, E), False), ((X, P, P), False)],
)
def test_app_tasks_require_every_test(outcomes, passed):
    v = grade("t", TaskType.APP, declared(None, None, None), run_of(*outcomes))
    assert v.passed is passed and all(t.required for t in v.tests)


def test_declared_test_that_never_reports_is_a_failure():
    v = grade("t", TaskType.APP, declared(None, None), run_of(P))
    assert not v.passed and v.infra_error is None
    assert [t.outcome for t in v.tests] == [P, Outcome.MISSING]
    assert v.tests[1].message == "declared but never reported"


def test_tests_after_the_first_failure_of_a_fail_fast_run_say_they_were_not_run():
    fast = run_of(F, exit_first=True)
    v = grade("t", TaskType.APP, declared(None, None), fast)
    assert not v.passed and v.infra_error is None
    assert [(t.outcome, t.message) for t in v.tests][1] == (
        Outcome.MISSING,
        "not run: the run stopped at its first failure",
    )
    # Without a failure a fail-fast run has no reason to stop: a missing test is still unexplained.
    v = grade("t", TaskType.APP, declared(None, None), run_of(P, exit_first=True))
    assert v.tests[1].message == "declared but never reported"


def test_collection_error_fails_the_file_tests():
    d = [*declared(None), DeclaredTest("tests/test_b.py::test_x", "tests/test_b.py", 1, None)]
    run = run_of(P, exit_code=1, collection_errors=(("tests/test_b.py", "ImportError: nope"),))
    v = grade("t", TaskType.APP, d, run)
    assert not v.passed and v.infra_error is None
    assert v.tests[1].outcome is E and "did not collect: ImportError: nope" in v.tests[1].message


def test_parametrized_variants_are_all_required():
    results = (
        TestResult("tests/test_t.py::test_0[a]", P),
        TestResult("tests/test_t.py::test_0[b]", F, "bad b"),
    )
    v = grade("t", TaskType.APP, declared(None), RunReport(results=results, exit_code=1))
    assert [(t.id, t.outcome) for t in v.tests] == [
        ("tests/test_t.py::test_0[a]", P),
        ("tests/test_t.py::test_0[b]", F),
    ]
    assert not v.passed


def test_undeclared_reported_tests_count_too():
    results = (TestResult("tests/test_t.py::test_0", P), TestResult("tests/test_gen.py::test_dyn", F, "x"))
    v = grade("t", TaskType.APP, declared(None), RunReport(results=results, exit_code=1))
    assert not v.passed and v.tests[-1].id == "tests/test_gen.py::test_dyn"


def test_duplicate_reports_keep_the_worst_outcome():
    results = (TestResult("tests/test_t.py::test_0", P), TestResult("tests/test_t.py::test_0", E, "teardown"))
    v = grade("t", TaskType.APP, declared(None), RunReport(results=results, exit_code=1))
    assert [t.outcome for t in v.tests] == [E] and not v.passed


@pytest.mark.parametrize(
    ("run", "cls"),
    [
        (RunReport(results=(), exit_code=5), InfraClass.NO_TESTS_RAN),  # zero collected is never a pass
        (RunReport(results=(), exit_code=0), InfraClass.NO_TESTS_RAN),
        (run_of(S, S), InfraClass.NO_TESTS_RAN),  # e.g. the plugin skipped everything: no browser
        (RunReport(results=(), exit_code=None, timed_out=True), InfraClass.TIMEOUT),
        (run_of(P, P, timed_out=True, exit_code=None), InfraClass.TIMEOUT),  # even if all finished
        (run_of(P, P, exit_code=2), InfraClass.RUNNER_ERROR),
        (run_of(P, P, exit_code=3), InfraClass.RUNNER_ERROR),
        (run_of(P, P, exit_code=4), InfraClass.RUNNER_ERROR),
        (run_of(P, P, exit_code=1), InfraClass.INCONSISTENT_EXIT),  # a fake "all passed" report
        (run_of(P, F, exit_code=0), InfraClass.INCONSISTENT_EXIT),
        (run_of(P, P, infra_error="report_missing: no JUnit"), InfraClass.REPORT_MISSING),
        (run_of(P, P, infra_error="something odd"), InfraClass.RUNNER_ERROR),
    ],
)
def test_infra_errors_are_never_a_pass(run, cls):
    v = grade("t", SDK, declared(F2P, P2P), run)
    assert not v.passed and v.reward == 0
    assert v.infra_class is cls and v.infra_error


@pytest.mark.parametrize(
    ("message", "cls"),
    [
        ("xrbench.xrtest.errors.BrowserLaunchError: chromium not found", InfraClass.BROWSER_LAUNCH_FAILED),
        ('failed on setup with "AppInitError: xb.init rejected"', InfraClass.APP_INIT_FAILED),
        ("playwright: BrowserType.launch: Failed to launch chromium", InfraClass.BROWSER_LAUNCH_FAILED),
    ],
)
def test_harness_failures_in_test_messages_are_infra(message, cls):
    results = (TestResult("tests/test_t.py::test_0", P), TestResult("tests/test_t.py::test_1", E, message))
    v = grade("t", TaskType.APP, declared(None, None), RunReport(results=results, exit_code=1))
    assert not v.passed and v.infra_class is cls and message.split(":")[0] in v.infra_error


def test_sdk_build_failure_is_the_candidates_failure():
    v = grade("t", SDK, declared(F2P, P2P), RunReport(build_error="src/core/Core.ts:3:1: ERROR: Expected ';'"))
    assert not v.passed and v.infra_error is None
    assert all(t.outcome is E and t.message.startswith("SDK build failed: ") for t in v.tests)


def test_timeout_reports_unfinished_tests_as_missing():
    run = RunReport(
        results=(TestResult("tests/test_t.py::test_0", P),),
        collected=("tests/test_t.py::test_0", "tests/test_t.py::test_1", "tests/test_t.py::test_2[x]"),
        timed_out=True,
    )
    v = grade("t", TaskType.APP, declared(None, None), run)
    assert [(t.id, t.outcome) for t in v.tests] == [
        ("tests/test_t.py::test_0", P),
        ("tests/test_t.py::test_1", Outcome.MISSING),
        ("tests/test_t.py::test_2[x]", Outcome.MISSING),
    ]
    assert v.tests[1].message == "did not finish before the timeout"


def test_verdict_json_is_the_fixed_shape(tmp_path):
    v = grade("my-task", SDK, declared(F2P, P2P), run_of(P, F))
    out = tmp_path / "verdict.json"
    write_verdict(v, out)
    doc = json.loads(out.read_text())
    assert list(doc) == ["task", "passed", "infra_error", "tests"]
    assert doc["task"] == "my-task" and doc["passed"] is False and doc["infra_error"] is None
    assert doc["tests"] == [
        {"id": "tests/test_t.py::test_0", "outcome": "passed", "message": ""},
        {"id": "tests/test_t.py::test_1", "outcome": "failed", "message": "why"},
    ]
    assert json.loads((tmp_path / "reward.json").read_text()) == {"reward": 0}
    details = json.loads((tmp_path / "details.json").read_text())
    assert details["fail_to_pass"] == {"passed": 1, "total": 1} and details["pass_to_pass"] == {"passed": 0, "total": 1}
    assert details["tests"][0]["kind"] == "fail_to_pass" and details["exit_code"] == 1

    write_verdict(grade("my-task", SDK, declared(F2P), run_of(P)), out)
    assert json.loads((tmp_path / "reward.json").read_text()) == {"reward": 1}


JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites name="pytest tests"><testsuite name="pytest" errors="2" failures="1" skipped="2" tests="7">
<testcase classname="" name="tests.test_broken" file="tests/test_broken.py" time="0.000">
  <error message="collection failure">ImportError while importing test module
E   ModuleNotFoundError: No module named 'nope'</error></testcase>
<testcase classname="tests.test_a" name="test_ok" file="tests/test_a.py" line="1" time="0.010">
  <properties><property name="nodeid" value="tests/test_a.py::test_ok"/>
  <property name="genxr_kind" value="pass_to_pass"/></properties></testcase>
<testcase classname="tests.test_a" name="test_fail" time="0.001">
  <failure message="AssertionError: boom">long text</failure></testcase>
<testcase classname="tests.test_a" name="test_skip" time="0"><skipped type="pytest.skip" message="nah"/></testcase>
<testcase classname="tests.test_a" name="test_xf" time="0"><skipped type="pytest.xfail" message="known"/></testcase>
<testcase classname="tests.test_a" name="test_err" time="0">
  <error message="failed on setup with &quot;RuntimeError: fixture broke&quot;">...</error></testcase>
<testcase classname="tests.sub.test_c.TestK" name="test_m[1-a]" time="0"/>
</testsuite></testsuites>
"""


def test_parse_junit():
    report = parse_junit(JUNIT, known_files=["tests/test_a.py", "tests/sub/test_c.py"])
    assert report.collection_errors == (("tests/test_broken.py", "ModuleNotFoundError: No module named 'nope'"),)
    got = {r.id: (r.outcome, r.message, r.kind) for r in report.results}
    assert got == {
        "tests/test_a.py::test_ok": (P, "", P2P),
        "tests/test_a.py::test_fail": (F, "AssertionError: boom", None),
        "tests/test_a.py::test_skip": (S, "nah", None),
        "tests/test_a.py::test_xf": (X, "known", None),
        "tests/test_a.py::test_err": (E, 'failed on setup with "RuntimeError: fixture broke"', None),
        "tests/sub/test_c.py::TestK::test_m[1-a]": (P, "", None),
    }
    with pytest.raises(ValueError, match="not valid JUnit XML"):
        parse_junit("<testsuites>")
    with pytest.raises(ValueError, match="root element <html>"):
        parse_junit("<html/>")


def test_read_result_log(tmp_path):
    log = tmp_path / "results.jsonl"
    lines = [
        {"event": "collected", "nodeids": ["t.py::a", "t.py::b", "t.py::c", "t.py::d"]},
        {"event": "report", "nodeid": "t.py::a", "when": "setup", "outcome": "passed", "duration": 0.1},
        {"event": "report", "nodeid": "t.py::a", "when": "call", "outcome": "passed", "duration": 0.2},
        {"event": "report", "nodeid": "t.py::a", "when": "teardown", "outcome": "passed", "duration": 0},
        {"event": "report", "nodeid": "t.py::b", "when": "setup", "outcome": "failed", "message": "AppInitError: x"},
        {"event": "report", "nodeid": "t.py::c", "when": "setup", "outcome": "skipped", "xfail": False, "message": "s"},
        {"event": "report", "nodeid": "t.py::d", "when": "setup", "outcome": "passed"},
    ]
    log.write_text("\n".join(json.dumps(x) for x in lines) + '\n{"event": "rep')  # cut by a kill
    results, collected = read_result_log(log)
    assert collected == ("t.py::a", "t.py::b", "t.py::c", "t.py::d")
    assert {r.id: r.outcome for r in results} == {"t.py::a": P, "t.py::b": E, "t.py::c": S}  # d never finished
    assert read_result_log(tmp_path / "none.jsonl") == ((), None)
