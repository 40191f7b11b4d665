"""The OpenAI-compatible provider, through the real `openai` client, against a local server."""

from __future__ import annotations

import base64
import json
import socket
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from llm_fakes import FakeServer, chat_completion, openai_error

from xrbench.llm import (
    LLM,
    AuthError,
    BadRequestError,
    GenerationSettings,
    Image,
    Message,
    ProviderError,
    RateLimitError,
    TransientError,
    request_key,
)
from xrbench.llm.openai_compat import OpenAICompatProvider

FAST = (0.0, 0.0)
HELLO = [Message("system", "Be brief."), Message("user", "Hello there")]


def make_llm(server: FakeServer, *, cache_dir: Path | None = None, max_retries: int = 3, **kw: object) -> LLM:
    provider = OpenAICompatProvider(api_key="sk-test", base_url=server.url + "/v1", **kw)  # type: ignore[arg-type]
    return LLM(provider, "test-model", cache_dir=cache_dir, max_retries=max_retries, retry_wait=FAST)


def test_settings_and_messages_reach_the_server(openai_server: FakeServer) -> None:
    llm = make_llm(openai_server)
    settings = GenerationSettings(temperature=0.3, max_output_tokens=64, reasoning="low", json_output=True, seed=7)
    out = llm.complete(HELLO, settings)

    seen = openai_server.last
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["authorization"] == "Bearer sk-test"
    body = seen.body
    assert body["model"] == "test-model"
    assert body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hello there"},
    ]
    assert body["temperature"] == 0.3
    assert body["max_tokens"] == 64
    assert "max_completion_tokens" not in body
    assert body["response_format"] == {"type": "json_object"}
    assert body["seed"] == 7
    assert body["reasoning_effort"] == "low"

    assert out.text == "echo: Hello there"
    assert out.provider == "openai"
    assert out.model == "test-model"
    assert out.finish_reason == "stop"
    assert out.cached is False
    assert out.settings == settings
    assert out.usage.input_tokens == 11
    assert out.usage.output_tokens == 5
    assert out.latency_s > 0


def test_optional_settings_are_omitted(openai_server: FakeServer) -> None:
    make_llm(openai_server).complete(HELLO, GenerationSettings())
    body = openai_server.last.body
    assert body["temperature"] == 0.2
    for absent in ("max_tokens", "max_completion_tokens", "response_format", "seed", "reasoning_effort"):
        assert absent not in body


def test_max_completion_tokens_param(openai_server: FakeServer) -> None:
    llm = make_llm(openai_server, max_tokens_param="max_completion_tokens")
    llm.complete(HELLO, GenerationSettings(max_output_tokens=10))
    assert openai_server.last.body["max_completion_tokens"] == 10
    assert "max_tokens" not in openai_server.last.body


def test_reasoning_tokens_are_split_from_output(openai_server: FakeServer) -> None:
    openai_server.queue(200, chat_completion("ok", prompt_tokens=20, completion_tokens=9, reasoning_tokens=4))
    out = make_llm(openai_server).complete(HELLO)
    assert (out.usage.input_tokens, out.usage.output_tokens, out.usage.reasoning_tokens) == (20, 5, 4)
    assert out.usage.total_tokens == 29


def test_images_are_sent_as_data_urls(openai_server: FakeServer) -> None:
    png = b"\x89PNG\r\n\x1a\nfake"
    msg = Message("user", "What is this?", (Image(png), Image(b"jpeg-bytes", "image/jpeg")))
    make_llm(openai_server).complete([msg])
    content = openai_server.last.body["messages"][0]["content"]
    assert content[0] == {"type": "text", "text": "What is this?"}
    assert content[1]["type"] == "image_url"
    assert content[1]["image_url"]["url"] == "data:image/png;base64," + base64.b64encode(png).decode()
    assert content[2]["image_url"]["url"].startswith("data:image/jpeg;base64,")


def test_dummy_key_for_local_server(openai_server: FakeServer) -> None:
    provider = OpenAICompatProvider(base_url=openai_server.url + "/v1")
    LLM(provider, "m").complete(HELLO)
    assert openai_server.last.headers["authorization"] == "Bearer not-needed"


def test_rate_limit_is_retried(openai_server: FakeServer) -> None:
    # retry-after is honoured only up to retry_wait's max, which is 0 here.
    openai_server.queue(429, openai_error("slow down", "rate_limit_error"), {"retry-after": "30"})
    out = make_llm(openai_server).complete(HELLO)
    assert out.text == "echo: Hello there"
    assert len(openai_server.requests) == 2


def test_auth_error_is_not_retried(openai_server: FakeServer) -> None:
    body = openai_error("Incorrect API key provided", "invalid_request_error", "invalid_api_key")
    openai_server.queue(401, body)
    with pytest.raises(AuthError) as info:
        make_llm(openai_server).complete(HELLO)
    assert info.value.status == 401
    assert len(openai_server.requests) == 1


def test_bad_request_is_not_retried(openai_server: FakeServer) -> None:
    openai_server.queue(400, openai_error("bad temperature", "invalid_request_error"))
    with pytest.raises(BadRequestError):
        make_llm(openai_server).complete(HELLO)
    assert len(openai_server.requests) == 1


def test_insufficient_quota_is_not_retried(openai_server: FakeServer) -> None:
    openai_server.queue(429, openai_error("quota", "insufficient_quota", "insufficient_quota"))
    with pytest.raises(ProviderError) as info:
        make_llm(openai_server).complete(HELLO)
    assert not isinstance(info.value, RateLimitError)
    assert len(openai_server.requests) == 1


def test_server_errors_exhaust_retries(openai_server: FakeServer) -> None:
    for _ in range(10):
        openai_server.queue(500, openai_error("boom", "server_error"))
    with pytest.raises(TransientError) as info:
        make_llm(openai_server, max_retries=2).complete(HELLO)
    assert info.value.status == 500
    assert len(openai_server.requests) == 3  # first attempt + 2 retries


def test_connection_refused_is_transient() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    provider = OpenAICompatProvider(base_url=f"http://127.0.0.1:{port}/v1", timeout_s=5)
    with pytest.raises(TransientError):
        LLM(provider, "m", max_retries=1, retry_wait=FAST).complete(HELLO)


def test_images_on_assistant_messages_are_rejected(openai_server: FakeServer) -> None:
    msgs = [Message("user", "hi"), Message("assistant", "see", (Image(b"x"),)), Message("user", "ok")]
    with pytest.raises(BadRequestError):
        make_llm(openai_server).complete(msgs)
    assert openai_server.requests == []


# -- cache -------------------------------------------------------------------------------------


def test_second_identical_call_is_cached(openai_server: FakeServer, tmp_path: Path) -> None:
    llm = make_llm(openai_server, cache_dir=tmp_path / "cache")
    first = llm.complete(HELLO, GenerationSettings(seed=1))
    second = llm.complete(HELLO, GenerationSettings(seed=1))
    assert len(openai_server.requests) == 1
    assert first.cached is False
    assert second.cached is True
    assert second.text == first.text
    assert second.usage == first.usage

    # A rerun (fresh client, same cache) costs nothing either.
    third = make_llm(openai_server, cache_dir=tmp_path / "cache").complete(HELLO, GenerationSettings(seed=1))
    assert third.cached is True
    assert len(openai_server.requests) == 1

    key = llm.key(HELLO, GenerationSettings(seed=1))
    entry = json.loads((tmp_path / "cache" / key[:2] / f"{key}.json").read_text())
    assert entry["key"] == key
    assert entry["request"]["base_url"] == openai_server.url + "/v1"
    assert entry["response"]["text"] == first.text


def test_different_settings_are_a_different_key(openai_server: FakeServer, tmp_path: Path) -> None:
    llm = make_llm(openai_server, cache_dir=tmp_path)
    llm.complete(HELLO, GenerationSettings(temperature=0.0))
    llm.complete(HELLO, GenerationSettings(temperature=0.7))
    llm.complete(HELLO, GenerationSettings(temperature=0.0, json_output=True))
    assert len(openai_server.requests) == 3
    keys = {llm.key(HELLO, GenerationSettings(temperature=t)) for t in (0.0, 0.7)}
    assert len(keys) == 2


def test_errors_are_not_cached(openai_server: FakeServer, tmp_path: Path) -> None:
    openai_server.queue(400, openai_error("nope", "invalid_request_error"))
    llm = make_llm(openai_server, cache_dir=tmp_path)
    with pytest.raises(BadRequestError):
        llm.complete(HELLO)
    assert llm.complete(HELLO).cached is False
    assert llm.complete(HELLO).cached is True


def test_corrupt_cache_entry_is_a_miss(openai_server: FakeServer, tmp_path: Path) -> None:
    llm = make_llm(openai_server, cache_dir=tmp_path)
    key = llm.key(HELLO)
    path = tmp_path / key[:2] / f"{key}.json"
    path.parent.mkdir(parents=True)
    path.write_text("{truncated")
    assert llm.complete(HELLO).cached is False
    assert llm.complete(HELLO).cached is True


def test_key_matches_request_key(openai_server: FakeServer) -> None:
    llm = make_llm(openai_server)
    settings = GenerationSettings(seed=3)
    assert llm.key(HELLO, settings) == request_key(llm.provider, "test-model", HELLO, settings)
    assert llm.key(HELLO, settings) == request_key(
        "openai", "test-model", HELLO, settings, base_url=openai_server.url + "/v1/"
    )


def test_thread_pool(openai_server: FakeServer, tmp_path: Path) -> None:
    llm = make_llm(openai_server, cache_dir=tmp_path)
    prompts = [f"question {i % 8}" for i in range(32)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        outs = list(pool.map(lambda p: llm.complete([Message("user", p)]), prompts))
    assert [o.text for o in outs] == [f"echo: {p}" for p in prompts]
    # Concurrent identical requests wait for the first one instead of all hitting the server.
    assert len(openai_server.requests) == 8
