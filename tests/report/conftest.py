"""Fixtures of the report tests: a fake GenXR job, a fake `xrbench run` directory around real
ContextXR output, and (for the browser tests) one headless Chromium."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from job_fakes import make_job, make_trial, write_json

PROVIDER_VARS = (
    "XRBENCH_PROVIDER",
    "XRBENCH_MODEL",
    "XRBENCH_BASE_URL",
    "XRBENCH_REPLAY",
    "XRBENCH_RECORD",
    "OPENAI_BASE_URL",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
)
NO_PROVIDER = "no provider configured: set XRBENCH_PROVIDER / GEMINI_API_KEY / OPENAI_API_KEY / XRBENCH_BASE_URL"


@pytest.fixture(scope="session")
def context_output(tmp_path_factory) -> Path:
    """What `xrbench context run` writes, for real, on the bundled data (cheap methods, 2 folds), once
    per session; an LLM method is listed so that its skip shows."""
    from xrbench.cli.context_cmd import run_context

    out = tmp_path_factory.mktemp("context-run") / "context"
    with pytest.MonkeyPatch.context() as mp:  # session fixtures run before the per-test env isolation
        for var in PROVIDER_VARS:
            mp.delenv(var, raising=False)
        mp.setenv("XRBENCH_CACHE_DIR", "off")
        run_context(out, methods=["manual", "popularity", "oracle", "zeroshot-llm"], folds=2)
    return out


@pytest.fixture(scope="session")
def job_template(tmp_path_factory) -> Path:
    """A fake job, built once (its videos take a few seconds to encode); tests get copies."""
    return make_job(tmp_path_factory.mktemp("job-template"))


@pytest.fixture
def job(tmp_path, job_template) -> Path:
    return Path(shutil.copytree(job_template, tmp_path / "jobs" / job_template.name))


def validation_report() -> dict:
    """A `genxr validate` report in its FIXED shape: one task, four candidates, a flaky one and a wrong verdict."""
    passed = {"id": "tests/test_app.py::test_button[right-empty]", "outcome": "passed", "message": ""}
    failed = {"id": "tests/test_app.py::test_counter[left-empty]", "outcome": "failed", "message": "count 2"}

    def run(i: int, outcome: str, tests: list, infra: str | None = None) -> dict:
        return {
            "repeat": i,
            "outcome": outcome,
            "passed": outcome == "pass",
            "infra_error": infra,
            "seconds": 4.0,
            "tests": tests,
        }

    candidates = {
        "valid/ok": {
            "kind": "valid",
            "expected": "pass",
            "note": "",
            "runs": [run(0, "pass", [passed]), run(1, "pass", [passed])],
        },
        "adversarial/counts-twice": {
            "kind": "adversarial",
            "expected": "fail",
            "note": "Counts each press twice.",
            "runs": [run(0, "fail", [passed, failed]), run(1, "pass", [passed])],
        },
        "adversarial/no-panel": {
            "kind": "adversarial",
            "expected": "fail",
            "note": "No panel.",
            "runs": [run(0, "fail", [failed]), run(1, "infra_error", [], "browser_launch_failed: x")],
        },
        "empty": {
            "kind": "empty",
            "expected": "fail",
            "note": "the untouched starting workspace",
            "runs": [run(0, "fail", [failed]), run(1, "fail", [failed])],
        },
    }
    for c in candidates.values():
        outcomes = [r["outcome"] for r in c["runs"]]
        c["flaky"] = len(set(outcomes)) > 1
        c["correct"] = all(o == c["expected"] for o in outcomes)
    return {
        "summary": {
            "tasks": 1,
            "candidates": 4,
            "runs": 8,
            "accuracy": 0.75,
            "flaky_candidates": ["app-counter/adversarial/counts-twice", "app-counter/adversarial/no-panel"],
            "tasks_by_type": {"app": 1},
            "difficulty": {"easy": 1},
            "capabilities": {"ui": 1},
            "confusion": {
                "valid": {"pass": 2, "fail": 0, "infra_error": 0},
                "adversarial": {"pass": 1, "fail": 2, "infra_error": 1},
                "empty": {"pass": 0, "fail": 2, "infra_error": 0},
            },
            "candidate_seconds": 32.0,
        },
        "repeats": 2,
        "tasks": {
            "app-counter": {
                "type": "app",
                "difficulty": "easy",
                "capabilities": ["ui"],
                "fingerprint": "f" * 64,
                "candidates": candidates,
            }
        },
    }


def guidance_check() -> dict:
    """A guidance check report shaped like `xrbench.guidance.check.check_tasks` returns."""
    return {
        "ok": False,
        "tasks_root": "/x/tasks",
        "xrblocks": {"root": "/x/node_modules/xrblocks", "version": "0.21.1"},
        "counts": {
            "tasks": 2,
            "engineer": 1,
            "casual": 1,
            "templates": 1,
            "with_reference": 1,
            "with_runtime_tests": 0,
        },
        "tasks": [
            {
                "id": "ui-button",
                "style": "engineer",
                "skill": "ui",
                "template": "basic",
                "references": 2,
                "runtime_tests": False,
                "noop": {"composite": 0.25, "api_hits": 1, "api_total": 4, "parse_errors": 0},
            },
            {
                "id": "hands-pinch",
                "style": "casual",
                "skill": "hands",
                "template": "basic",
                "references": 1,
                "runtime_tests": False,
                "noop": {"composite": 0.1, "api_hits": 0, "api_total": 3, "parse_errors": 0},
                "reference": {"composite": 1.0},
            },
        ],
        "templates": {"basic": {"path": "/x/templates/basic", "expected_broken": False, "smoke_ok": 1.0}},
        "smoke": "ran",
        "problems": ["hands-pinch: reference/main.js scores 0.9 <check>"],
    }


def make_run(root: Path, context_output: Path | None, job_template: Path | None = None) -> Path:
    """A whole `xrbench run` directory: every part present, some provider-dependent parts skipped."""
    run = root / "20260101-120000-quick"
    write_json(run / "config.json", {"kind": "run", "quick": True, "provider": None})
    write_json(
        run / "lock.json", {"xrbench": "0.1.0", "web_dependencies": {"xrblocks": "0.21.1"}, "data": {"context": "ab12"}}
    )
    if context_output is not None:
        shutil.copytree(context_output, run / "context")
    write_json(run / "genxr" / "validate.json", validation_report())
    mini = run / "genxr" / "jobs" / "20260101-120100-mini"
    if job_template is not None:
        shutil.copytree(job_template, mini)
    else:
        make_job(mini.parent, mini.name)
    oracle = run / "genxr" / "jobs" / "20260101-120200-oracle"
    make_trial(oracle, "app-counter", agent="oracle")
    write_json(oracle / "config.json", {"agent": "oracle"})
    write_json(run / "guidance" / "check.json", guidance_check())
    write_json(
        run / "skipped.json",
        [
            {"part": "genxr.design_score", "reason": NO_PROVIDER},
            {"part": "context.llm_methods", "reason": NO_PROVIDER},
            {"part": "xrtest.vlm", "reason": NO_PROVIDER},
        ],
    )
    return run


@pytest.fixture
def run_dir(tmp_path, context_output, job_template) -> Path:
    return make_run(tmp_path, context_output, job_template)


@pytest.fixture(scope="session")
def report_browser() -> Iterator:
    """Headless Chromium that may open file:// pages (see `xrbench.report.check.report_browser`)."""
    from xrbench.report.check import report_browser as open_report_browser

    with open_report_browser() as browser:
        yield browser
