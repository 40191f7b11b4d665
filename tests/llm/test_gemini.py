"""The Gemini provider, through the real `google-genai` client pointed at a local REST server."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from llm_fakes import FakeServer, gemini_error, gemini_response

from xrbench.llm import (
    LLM,
    AuthError,
    BadRequestError,
    GenerationSettings,
    Image,
    Message,
    TransientError,
)
from xrbench.llm.gemini import GeminiProvider, thinking_config

FAST = (0.0, 0.0)
CHAT = [
    Message("system", "You are terse."),
    Message("system", "Answer in English."),
    Message("user", "Hi"),
    Message("assistant", "Hello."),
    Message("user", "What is XR?"),
]


def make_llm(server: FakeServer, model: str = "gemini-2.5-flash", **kw: object) -> LLM:
    provider = GeminiProvider(api_key="g-test", base_url=server.url)
    return LLM(provider, model, retry_wait=FAST, **kw)  # type: ignore[arg-type]


def test_request_body_and_response(gemini_server: FakeServer) -> None:
    settings = GenerationSettings(temperature=0.4, max_output_tokens=128, json_output=True, seed=5)
    out = make_llm(gemini_server).complete(CHAT, settings)

    seen = gemini_server.last
    assert seen.path == "/v1beta/models/gemini-2.5-flash:generateContent"
    assert seen.headers["x-goog-api-key"] == "g-test"
    body = seen.body
    assert body["systemInstruction"]["parts"] == [{"text": "You are terse.\n\nAnswer in English."}]
    assert body["contents"] == [
        {"role": "user", "parts": [{"text": "Hi"}]},
        {"role": "model", "parts": [{"text": "Hello."}]},
        {"role": "user", "parts": [{"text": "What is XR?"}]},
    ]
    gen = body["generationConfig"]
    assert gen["temperature"] == 0.4
    assert gen["maxOutputTokens"] == 128
    assert gen["responseMimeType"] == "application/json"
    assert gen["seed"] == 5
    assert "thinkingConfig" not in gen

    assert out.text == "echo: What is XR?"
    assert out.provider == "gemini"
    assert out.finish_reason == "stop"
    assert (out.usage.input_tokens, out.usage.output_tokens, out.usage.reasoning_tokens) == (7, 3, 0)


def test_plain_text_settings_omit_json(gemini_server: FakeServer) -> None:
    make_llm(gemini_server).complete([Message("user", "x")])
    gen = gemini_server.last.body["generationConfig"]
    assert gen == {"temperature": 0.2}
    assert "systemInstruction" not in gemini_server.last.body


def test_thoughts_are_counted_but_not_returned(gemini_server: FakeServer) -> None:
    gemini_server.queue(
        200,
        gemini_response("42", prompt_tokens=9, output_tokens=2, thoughts_tokens=30, thought="Let me think..."),
    )
    out = make_llm(gemini_server).complete([Message("user", "6*7?")])
    assert out.text == "42"
    assert (out.usage.input_tokens, out.usage.output_tokens, out.usage.reasoning_tokens) == (9, 2, 30)
    assert out.usage.total_tokens == 41


def test_images_are_inline_bytes(gemini_server: FakeServer) -> None:
    png = b"\x89PNG\r\n\x1a\npixels"
    make_llm(gemini_server).complete([Message("user", "Describe", (Image(png),))])
    parts = gemini_server.last.body["contents"][0]["parts"]
    assert parts[0] == {"text": "Describe"}
    inline = parts[1]["inlineData"]
    # google-genai 3.x writes this one field in snake_case; the API's proto JSON accepts both spellings.
    assert inline.get("mimeType", inline.get("mime_type")) == "image/png"
    assert base64.b64decode(inline["data"]) == png


@pytest.mark.parametrize(
    ("model", "reasoning", "expected"),
    [
        ("gemini-2.5-flash", 2048, {"thinkingBudget": 2048}),
        ("gemini-2.5-flash", "low", {"thinkingBudget": 1024}),
        ("gemini-2.5-pro", "high", {"thinkingBudget": 24576}),
        ("gemini-2.5-flash", "none", {"thinkingBudget": 0}),
        ("gemini-3-pro-preview", "low", {"thinkingLevel": "LOW"}),
        ("gemini-3-flash-preview", "high", {"thinkingLevel": "HIGH"}),
        ("gemini-3-flash-preview", 512, {"thinkingBudget": 512}),
    ],
)
def test_reasoning_maps_to_thinking_config(
    gemini_server: FakeServer, model: str, reasoning: str | int, expected: dict[str, object]
) -> None:
    llm = make_llm(gemini_server, model=model)
    llm.complete([Message("user", "x")], GenerationSettings(reasoning=reasoning))
    assert gemini_server.last.path == f"/v1beta/models/{model}:generateContent"
    sent = gemini_server.last.body["generationConfig"]["thinkingConfig"]
    # google-genai 3.x writes nested config fields in snake_case; the API's proto JSON accepts both.
    assert {_camel(k): v for k, v in sent.items()} == expected


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(w.title() for w in rest)


def test_unknown_reasoning_level_is_rejected() -> None:
    with pytest.raises(BadRequestError):
        thinking_config("gemini-2.5-flash", "extreme")
    with pytest.raises(BadRequestError):
        thinking_config("gemini-3-pro-preview", "extreme")


def test_rate_limit_is_retried(gemini_server: FakeServer) -> None:
    retry_info = [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "30s"}]
    gemini_server.queue(429, gemini_error(429, "RESOURCE_EXHAUSTED", "Quota exceeded", retry_info))
    out = make_llm(gemini_server).complete([Message("user", "again")])
    assert out.text == "echo: again"
    assert len(gemini_server.requests) == 2


def test_invalid_api_key_is_auth_error(gemini_server: FakeServer) -> None:
    details = [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"}]
    message = "API key not valid. Please pass a valid API key."
    gemini_server.queue(400, gemini_error(400, "INVALID_ARGUMENT", message, details))
    with pytest.raises(AuthError):
        make_llm(gemini_server).complete([Message("user", "x")])
    assert len(gemini_server.requests) == 1


def test_permission_denied_is_auth_error(gemini_server: FakeServer) -> None:
    gemini_server.queue(403, gemini_error(403, "PERMISSION_DENIED", "denied"))
    with pytest.raises(AuthError):
        make_llm(gemini_server).complete([Message("user", "x")])


def test_unknown_model_is_bad_request(gemini_server: FakeServer) -> None:
    gemini_server.queue(404, gemini_error(404, "NOT_FOUND", "models/nope is not found"))
    with pytest.raises(BadRequestError):
        make_llm(gemini_server, model="nope").complete([Message("user", "x")])
    assert len(gemini_server.requests) == 1


def test_server_errors_exhaust_retries(gemini_server: FakeServer) -> None:
    for _ in range(10):
        gemini_server.queue(503, gemini_error(503, "UNAVAILABLE", "The model is overloaded."))
    with pytest.raises(TransientError) as info:
        make_llm(gemini_server, max_retries=3).complete([Message("user", "x")])
    assert info.value.status == 503
    assert len(gemini_server.requests) == 4


def test_api_key_from_env(gemini_server: FakeServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", "from-google")
    LLM(GeminiProvider(base_url=gemini_server.url), "gemini-2.5-flash").complete([Message("user", "x")])
    assert gemini_server.last.headers["x-goog-api-key"] == "from-google"
    monkeypatch.setenv("GEMINI_API_KEY", "from-gemini")
    LLM(GeminiProvider(base_url=gemini_server.url), "gemini-2.5-flash").complete([Message("user", "y")])
    assert gemini_server.last.headers["x-goog-api-key"] == "from-gemini"


def test_cache(gemini_server: FakeServer, tmp_path: Path) -> None:
    llm = make_llm(gemini_server, cache_dir=tmp_path)
    assert llm.complete(CHAT).cached is False
    assert llm.complete(CHAT).cached is True
    assert len(gemini_server.requests) == 1
    assert llm.describe() == {
        "provider": "gemini",
        "model": "gemini-2.5-flash",
        "base_url": gemini_server.url,
        "cache_dir": str(tmp_path),
    }
