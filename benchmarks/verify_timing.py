"""A pytest plugin for `bench_verify.py`: when the verifier's pytest loads it, it appends a JSON
line per phase to `$XRBENCH_VERIFY_TIMING` (wall-clock seconds since the epoch, so the benchmark
can line them up with its own clock): plugin load, session start, collection end, every fixture
set-up (by name), every test phase (setup, call, teardown) and session end.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

_OUT = os.environ.get("XRBENCH_VERIFY_TIMING")


def _emit(**record: Any) -> None:
    if _OUT:
        with open(_OUT, "a", encoding="utf-8") as f:
            f.write(json.dumps({"t": time.time(), **record}) + "\n")


_emit(event="plugin_loaded")


def pytest_sessionstart(session: pytest.Session) -> None:
    _emit(event="session_start")


def pytest_collection_finish(session: pytest.Session) -> None:
    _emit(event="collected", tests=len(session.items))


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef, request: pytest.FixtureRequest) -> Iterator[None]:
    t0 = time.time()
    yield
    _emit(event="fixture", name=fixturedef.argname, seconds=time.time() - t0)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _emit(event="phase", test=report.nodeid, when=report.when, seconds=report.duration, outcome=report.outcome)


def pytest_sessionfinish(session: pytest.Session) -> None:
    _emit(event="session_finish")
