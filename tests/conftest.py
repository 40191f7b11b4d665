from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "context" / "fixtures"


@pytest.fixture(autouse=True)
def _isolated_caches(tmp_path_factory, monkeypatch):
    # Tests never read or write the user's caches, and never see a configured provider.
    cache = tmp_path_factory.getbasetemp() / "xrbench-cache"
    monkeypatch.setenv("XRBENCH_CACHE_DIR", str(cache))
    for var in (
        "XRBENCH_PROVIDER",
        "XRBENCH_MODEL",
        "XRBENCH_BASE_URL",
        "XRBENCH_REPLAY",
        "XRBENCH_RECORD",
        "OPENAI_BASE_URL",
        "OPENAI_API_KEY",
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
    ):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def tiny_dir() -> Path:
    return FIXTURES / "tiny"
