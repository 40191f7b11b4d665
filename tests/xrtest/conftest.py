"""Fixtures for the XR runtime harness tests: one Chromium per test run, a fresh session per test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from xrbench.xrtest import XRSession, launch_browser

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_APP = REPO / "examples" / "tap_to_light"
TEST_APPS = Path(__file__).resolve().parent / "apps"


@pytest.fixture(scope="session")
def xr_browser() -> Iterator:
    """One headless Chromium for the whole run (each test still gets its own context)."""
    handle = launch_browser()
    try:
        yield handle.browser
    finally:
        handle.close()


@pytest.fixture
def open_session(xr_browser) -> Iterator[Callable[..., XRSession]]:
    """`open_session(app_dir, **kwargs)` opens an XRSession on the shared browser; closed after the test."""
    sessions: list[XRSession] = []

    def factory(app_dir: str | Path = EXAMPLE_APP, **kwargs) -> XRSession:
        kwargs.setdefault("browser", xr_browser)
        session = XRSession(app_dir, **kwargs)
        sessions.append(session)
        return session.open()

    yield factory
    for session in sessions:
        session.close()


@pytest.fixture
def example_app() -> Path:
    return EXAMPLE_APP


@pytest.fixture
def test_apps() -> Path:
    return TEST_APPS


class InitScript:
    """A `SessionHook` that runs `source` in every page of the session's context before the harness
    (tests use it to make the machine slower than it is: a late WebAssembly compile, a slow GPU)."""

    def __init__(self, source: str):
        self.source = source

    def context_options(self, session: XRSession) -> dict:
        return {}

    def context_created(self, session: XRSession) -> None:
        session.context.add_init_script(self.source)

    def closing(self, session: XRSession) -> None:
        pass
