"""Provider resolution from arguments and environment variables, and the request key."""

from __future__ import annotations

from pathlib import Path

import pytest

from xrbench.llm import (
    LLM,
    GenerationSettings,
    Image,
    Message,
    NotConfigured,
    request_key,
    resolve_llm,
    skip_reason,
)
from xrbench.llm.config import NO_PROVIDER_REASON

FIXTURE = Path(__file__).parent / "fixtures" / "recordings.jsonl"


def test_nothing_configured() -> None:
    with pytest.raises(NotConfigured) as info:
        resolve_llm()
    assert info.value.reason == NO_PROVIDER_REASON
    assert info.value.reason.startswith("no provider configured: set XRBENCH_PROVIDER")
    assert skip_reason() == NO_PROVIDER_REASON


def test_gemini_key_selects_gemini(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "g")
    llm = resolve_llm()
    assert llm.describe()["provider"] == "gemini"
    assert llm.model == "gemini-2.5-flash"
    assert skip_reason() is None


def test_google_api_key_selects_gemini(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", "g")
    monkeypatch.setenv("XRBENCH_MODEL", "gemini-3-flash-preview")
    llm = resolve_llm()
    assert (llm.provider.name, llm.model) == ("gemini", "gemini-3-flash-preview")


def test_gemini_wins_over_openai_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "o")
    monkeypatch.setenv("GEMINI_API_KEY", "g")
    assert resolve_llm().provider.name == "gemini"


def test_openai_key_needs_a_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "o")
    with pytest.raises(NotConfigured, match="needs a model"):
        resolve_llm()
    monkeypatch.setenv("XRBENCH_MODEL", "gpt-test")
    llm = resolve_llm()
    assert (llm.provider.name, llm.model, llm.base_url) == ("openai", "gpt-test", None)
    assert resolve_llm(model="other").model == "other"


def test_base_url_selects_openai_without_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "g")  # a base URL outranks a Gemini key
    monkeypatch.setenv("XRBENCH_BASE_URL", "http://127.0.0.1:8000/v1/")
    monkeypatch.setenv("XRBENCH_MODEL", "qwen")
    llm = resolve_llm()
    assert llm.describe()["provider"] == "openai"
    assert llm.describe()["base_url"] == "http://127.0.0.1:8000/v1"


def test_openai_base_url_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://localhost:11434/v1")
    llm = resolve_llm(model="llama3")
    assert (llm.provider.name, llm.base_url) == ("openai", "http://localhost:11434/v1")


def test_replay_wins_over_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "g")
    monkeypatch.setenv("XRBENCH_BASE_URL", "http://127.0.0.1:8000/v1")
    monkeypatch.setenv("XRBENCH_REPLAY", str(FIXTURE))
    assert resolve_llm().provider.name == "replay"


def test_explicit_provider_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XRBENCH_REPLAY", str(FIXTURE))
    monkeypatch.setenv("GEMINI_API_KEY", "g")
    assert resolve_llm(provider="gemini").provider.name == "gemini"
    monkeypatch.setenv("XRBENCH_PROVIDER", "gemini")
    assert resolve_llm().provider.name == "gemini"
    assert resolve_llm(provider="replay").provider.name == "replay"


def test_explicit_provider_missing_credentials() -> None:
    with pytest.raises(NotConfigured, match="GEMINI_API_KEY"):
        resolve_llm(provider="gemini")
    with pytest.raises(NotConfigured, match="OPENAI_API_KEY"):
        resolve_llm(provider="openai", model="m")
    with pytest.raises(NotConfigured, match="XRBENCH_REPLAY"):
        resolve_llm(provider="replay")
    with pytest.raises(NotConfigured, match="unknown provider"):
        resolve_llm(provider="anthropic")


def test_missing_replay_file(tmp_path: Path) -> None:
    reason = skip_reason(replay=tmp_path / "nope.jsonl")
    assert reason is not None and "not found" in reason


def test_cache_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "g")
    assert resolve_llm().cache_dir == Path.home() / ".cache" / "xrbench" / "llm"
    monkeypatch.setenv("XRBENCH_CACHE_DIR", str(tmp_path / "c"))
    assert resolve_llm().cache_dir == tmp_path / "c"
    assert resolve_llm(cache_dir=tmp_path / "d").cache_dir == tmp_path / "d"
    monkeypatch.setenv("XRBENCH_CACHE_DIR", "off")
    assert resolve_llm().cache_dir is None


def test_llm_from_provider_name(monkeypatch: pytest.MonkeyPatch) -> None:
    llm = LLM("openai", "m", base_url="http://127.0.0.1:9/v1")
    assert llm.describe() == {"provider": "openai", "model": "m", "base_url": "http://127.0.0.1:9/v1"}


# -- request_key -------------------------------------------------------------------------------

MSGS = [Message("user", "hi", (Image(b"a"),))]


def test_request_key_is_stable_and_sensitive() -> None:
    s = GenerationSettings()
    base = request_key("openai", "m", MSGS, s)
    assert base == request_key("openai", "m", list(MSGS), GenerationSettings())
    assert len(base) == 64
    assert base != request_key("gemini", "m", MSGS, s)
    assert base != request_key("openai", "m2", MSGS, s)
    assert base != request_key("openai", "m", MSGS, s, base_url="http://x/v1")
    assert base != request_key("openai", "m", [Message("user", "hi", (Image(b"b"),))], s)
    assert base != request_key("openai", "m", [Message("user", "hi", (Image(b"a", "image/jpeg"),))], s)
    assert base != request_key("openai", "m", [Message("system", "hi", (Image(b"a"),))], s)
    assert base != request_key("openai", "m", MSGS, GenerationSettings(seed=0))
    assert request_key("openai", "m", MSGS, s, base_url="http://x/v1/") == request_key(
        "openai", "m", MSGS, s, base_url="http://x/v1"
    )
