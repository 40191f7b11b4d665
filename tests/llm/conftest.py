"""Fixtures for the provider-layer tests: a clean environment and local fake API servers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from llm_fakes import FakeServer, gemini_default, openai_default, serve

# Variables that would change provider resolution or route localhost through a proxy.
_ENV_VARS = (
    "XRBENCH_PROVIDER",
    "XRBENCH_MODEL",
    "XRBENCH_BASE_URL",
    "XRBENCH_REPLAY",
    "XRBENCH_RECORD",
    "XRBENCH_CACHE_DIR",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "GOOGLE_GEMINI_BASE_URL",
    "GOOGLE_GENAI_USE_VERTEXAI",
    "GOOGLE_GENAI_API_VERSION",
    "GOOGLE_CLOUD_PROJECT",
    "GOOGLE_CLOUD_LOCATION",
    "OPENAI_ORG_ID",
    "OPENAI_PROJECT_ID",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Start every test from an environment with no provider configured."""
    for name in _ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    # Never let a test write to the user's real cache.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))


@pytest.fixture
def openai_server() -> Iterator[FakeServer]:
    """An OpenAI-compatible server; ``.url + "/v1"`` is the client's base URL."""
    yield from serve(FakeServer(openai_default))


@pytest.fixture
def gemini_server() -> Iterator[FakeServer]:
    """A Gemini REST server; ``.url`` is the client's base URL."""
    yield from serve(FakeServer(gemini_default))
