"""pytest plugin loaded into every GenXR verification run (`-p xrbench.genxr.pytest_plugin`).

- registers the `fail_to_pass` and `pass_to_pass` markers of SDK tasks;
- adds `nodeid` and `genxr_kind` properties to each test case of the JUnit XML, so that grading
  does not have to reconstruct node ids from JUnit class names;
- appends one JSON line per collected set and per test phase to `--genxr-log`, flushed as it goes,
  so that a run killed by the verifier timeout still shows which tests finished;
- `--genxr-first TEST` (repeatable) runs those tests first (`name`, `Class::name` or a node id,
  any parametrization): validation runs a mutant's own requirement's tests first, so with `-x` a
  killed mutant costs the tests that check what it broke, not the whole suite;
- provides the `workspace_dir` fixture: the fresh copy of the candidate workspace (`--genxr-workspace`),
  for file-level checks. Browser tests use the harness's `xr` fixture instead.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

KINDS = ("fail_to_pass", "pass_to_pass")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("genxr", "GenXR-Bench verification")
    group.addoption("--genxr-workspace", default=None, help="The candidate workspace copy under test")
    group.addoption("--genxr-log", default=None, help="Append per-test results here as JSON lines")
    group.addoption("--genxr-first", action="append", default=[], help="Run this test first (repeatable)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "fail_to_pass: SDK task test that fails before the change and must pass")
    config.addinivalue_line("markers", "pass_to_pass: SDK task test of related behaviour that must keep passing")
    config.addinivalue_line(
        "markers", "failure_category(*names): what a failure of this test means (xrbench.genxr.task.FAILURE_CATEGORIES)"
    )


def _log(config: pytest.Config, record: dict[str, Any]) -> None:
    path = config.getoption("--genxr-log")
    if not path:
        return
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")
        f.flush()


def _kind(item: pytest.Item) -> str | None:
    found = [k for k in KINDS if item.get_closest_marker(k) is not None]
    return found[0] if len(found) == 1 else None


def _named(item: pytest.Item, refs: list[str]) -> bool:
    base = item.nodeid.split("[", 1)[0]
    return any(base == ref or base.endswith(f"::{ref}") for ref in refs)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    first = config.getoption("--genxr-first")
    if first:  # a stable sort: the named tests first, each group in collection order
        items.sort(key=lambda item: not _named(item, first))
    for item in items:
        item.user_properties.append(("nodeid", item.nodeid))
        kind = _kind(item)
        if kind:
            item.user_properties.append(("genxr_kind", kind))


def pytest_collection_finish(session: pytest.Session) -> None:
    _log(session.config, {"event": "collected", "nodeids": [i.nodeid for i in session.items]})


def _message(report: pytest.TestReport) -> str:
    """The one-line reason of a failed or skipped phase."""
    longrepr = report.longrepr
    if report.skipped and isinstance(longrepr, tuple):
        return str(longrepr[2])
    crash = getattr(longrepr, "reprcrash", None)
    if crash is not None and getattr(crash, "message", ""):
        return str(crash.message)
    lines = str(longrepr or "").strip().splitlines()
    return lines[-1] if lines else ""


# pytest_runtest_logreport gets no `config`; keep the one pytest configured this plugin with.
_CONFIG: dict[str, pytest.Config] = {}


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    _CONFIG["config"] = session.config


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    config = _CONFIG.get("config")
    if config is None:
        return
    _log(
        config,
        {
            "event": "report",
            "nodeid": report.nodeid,
            "when": report.when,
            "outcome": report.outcome,
            "xfail": getattr(report, "wasxfail", None) is not None,
            "message": _message(report)[:2000] if report.outcome != "passed" else "",
            "duration": report.duration,
        },
    )


@pytest.fixture
def workspace_dir(request: pytest.FixtureRequest) -> Path:
    """The candidate workspace under test (a fresh copy; tests may read it freely)."""
    value = request.config.getoption("--genxr-workspace")
    if not value:
        raise RuntimeError("no --genxr-workspace given: run task tests through `xrbench genxr verify`")
    return Path(value)
