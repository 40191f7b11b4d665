"""Any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama, llama.cpp server, ...)."""

from __future__ import annotations

import base64
import logging
import os
import time
from typing import Any, Literal

import openai

from xrbench.llm.base import Completion, GenerationSettings, Message, Usage
from xrbench.llm.errors import (
    AuthError,
    BadRequestError,
    NotConfigured,
    ProviderError,
    RateLimitError,
    TransientError,
)

log = logging.getLogger(__name__)

MaxTokensParam = Literal["max_tokens", "max_completion_tokens"]

# Local servers (vLLM, Ollama, llama.cpp) accept any key, but the openai client insists on one.
DUMMY_API_KEY = "not-needed"


class OpenAICompatProvider:
    """Chat completions through the official `openai` client.

    `base_url` points the client at any compatible server. The client's own retries are disabled
    (``max_retries=0``): `xrbench.llm.LLM` owns the retry policy.
    """

    name = "openai"

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout_s: float = 300.0,
        max_tokens_param: MaxTokensParam | None = None,
    ) -> None:
        """Create the client; raises `NotConfigured` when no API key and no base URL are available.

        `max_tokens_param` picks the request field for `max_output_tokens`; by default
        ``max_completion_tokens`` for api.openai.com (its reasoning models reject ``max_tokens``)
        and ``max_tokens`` for other servers, which do not all know the newer name.
        """
        url = base_url or os.environ.get("OPENAI_BASE_URL")
        self.base_url: str | None = url.rstrip("/") if url else None
        key = api_key or os.environ.get("OPENAI_API_KEY")
        if not key:
            if not self.base_url:
                raise NotConfigured("provider openai needs OPENAI_API_KEY (or XRBENCH_BASE_URL for a local server)")
            key = DUMMY_API_KEY
        self.max_tokens_param: MaxTokensParam = max_tokens_param or (
            "max_tokens" if self.base_url else "max_completion_tokens"
        )
        kwargs: dict[str, Any] = {"api_key": key, "max_retries": 0, "timeout": timeout_s}
        if self.base_url:
            kwargs["base_url"] = self.base_url
        self._client = openai.OpenAI(**kwargs)

    def build_request(self, messages: list[Message], *, model: str, settings: GenerationSettings) -> dict[str, Any]:
        """The keyword arguments for ``chat.completions.create`` (exposed for inspection and tests)."""
        body: dict[str, Any] = {"model": model, "messages": [_message_param(m) for m in messages]}
        if settings.temperature is not None:
            body["temperature"] = settings.temperature
        if settings.max_output_tokens is not None:
            body[self.max_tokens_param] = settings.max_output_tokens
        if isinstance(settings.reasoning, str):
            body["reasoning_effort"] = settings.reasoning
        elif settings.reasoning is not None:
            log.warning(
                "openai: reasoning=%r ignored; chat completions only take an effort level (low/medium/high)",
                settings.reasoning,
            )
        if settings.json_output:
            body["response_format"] = {"type": "json_object"}
        if settings.seed is not None:
            body["seed"] = settings.seed
        return body

    def complete(self, messages: list[Message], *, model: str, settings: GenerationSettings) -> Completion:
        """Run one chat completion; raises the typed errors of `xrbench.llm.errors`."""
        body = self.build_request(messages, model=model, settings=settings)
        start = time.perf_counter()
        try:
            resp = self._client.chat.completions.create(**body)
        except openai.OpenAIError as exc:
            raise map_openai_error(exc) from exc
        latency = time.perf_counter() - start

        if not resp.choices:
            raise ProviderError("response has no choices", provider=self.name)
        choice = resp.choices[0]
        text = choice.message.content or ""
        return Completion(
            text=text,
            provider=self.name,
            model=resp.model or model,
            settings=settings,
            usage=_usage(resp.usage),
            latency_s=latency,
            finish_reason=choice.finish_reason,
        )


def _message_param(message: Message) -> dict[str, Any]:
    if not message.images:
        return {"role": message.role, "content": message.content}
    if message.role != "user":
        raise BadRequestError(f"images are only supported on user messages, not {message.role}", provider="openai")
    parts: list[dict[str, Any]] = []
    if message.content:
        parts.append({"type": "text", "text": message.content})
    for img in message.images:
        data = base64.b64encode(img.data).decode("ascii")
        parts.append({"type": "image_url", "image_url": {"url": f"data:{img.mime_type};base64,{data}"}})
    return {"role": "user", "content": parts}


def _usage(usage: Any) -> Usage:
    if usage is None:
        return Usage()
    completion = usage.completion_tokens or 0
    details = getattr(usage, "completion_tokens_details", None)
    reasoning = (getattr(details, "reasoning_tokens", None) or 0) if details is not None else 0
    # completion_tokens already includes reasoning tokens; Usage counts them separately.
    return Usage(
        input_tokens=usage.prompt_tokens or 0,
        output_tokens=max(completion - reasoning, 0),
        reasoning_tokens=reasoning,
    )


def _retry_after(response: Any) -> float | None:
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return float(value) * scale
        except ValueError:
            continue
    return None


def map_openai_error(exc: Exception, provider: str = "openai") -> ProviderError:
    """Translate an `openai` exception into the layer's typed errors."""
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        msg = exc.message
        if isinstance(exc, openai.RateLimitError) or status == 429:
            body = exc.body if isinstance(exc.body, dict) else {}
            if body.get("code") == "insufficient_quota" or body.get("type") == "insufficient_quota":
                # An exhausted quota is reported as 429 but never clears by waiting.
                return ProviderError(msg, provider=provider, status=status)
            retry_after = _retry_after(exc.response)
            return RateLimitError(msg, provider=provider, status=status, retry_after=retry_after)
        if status in (401, 403):
            return AuthError(msg, provider=provider, status=status)
        if status in (408, 409) or status >= 500:
            return TransientError(msg, provider=provider, status=status)
        if 400 <= status < 500:
            return BadRequestError(msg, provider=provider, status=status)
        return ProviderError(msg, provider=provider, status=status)
    if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
        return TransientError(str(exc) or type(exc).__name__, provider=provider)
    return ProviderError(f"{type(exc).__name__}: {exc}", provider=provider)
