"""Gemini through the `google-genai` SDK (Gemini API, API-key auth)."""

from __future__ import annotations

import os
import re
import time
from typing import Any

from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from xrbench.llm.base import Completion, GenerationSettings, Message, Usage
from xrbench.llm.errors import (
    AuthError,
    BadRequestError,
    NotConfigured,
    ProviderError,
    RateLimitError,
    TransientError,
)

DEFAULT_MODEL = "gemini-2.5-flash"

# google-genai 3.x defaults to the v1 REST surface; v1beta is the one documented for
# systemInstruction, thinkingConfig and responseMimeType on every current model.
DEFAULT_API_VERSION = "v1beta"

# Gemini 2.x models take a token budget, not a level; these are the budgets Google's own
# OpenAI-compatibility layer uses for reasoning_effort.
_LEVEL_BUDGETS: dict[str, int] = {
    "none": 0,
    "off": 0,
    "minimal": 1024,
    "low": 1024,
    "medium": 8192,
    "high": 24576,
}
_BUDGET_MODELS = re.compile(r"^(models/)?gemini-(1|2)\.", re.IGNORECASE)


def _transport_errors() -> tuple[type[BaseException], ...]:
    # The SDK sends through httpx2 (or httpx when that is what is installed); accept either.
    found: list[type[BaseException]] = []
    for mod_name in ("httpx2", "httpx"):
        try:
            mod = __import__(mod_name)
        except ImportError:
            continue
        found.append(mod.TransportError)
    return tuple(found)


_TRANSPORT_ERRORS = _transport_errors()


def gemini_api_key() -> str | None:
    """The Gemini API key from GEMINI_API_KEY, else GOOGLE_API_KEY."""
    return os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY") or None


class GeminiProvider:
    """Gemini `generate_content` through `google.genai.Client`.

    `base_url` (an ``http://`` URL is fine) redirects the client, e.g. to a proxy or a local test
    server; the SDK's own retries stay off (no ``retry_options``) since `xrbench.llm.LLM` retries.
    """

    name = "gemini"

    def __init__(
        self,
        *,
        api_key: str | None = None,
        base_url: str | None = None,
        api_version: str = DEFAULT_API_VERSION,
        timeout_s: float = 300.0,
    ) -> None:
        """Create the client; raises `NotConfigured` when no API key is available.

        With a custom `base_url` and no key, a placeholder key is sent (local servers ignore it).
        """
        self.base_url: str | None = base_url.rstrip("/") if base_url else None
        key = api_key or gemini_api_key()
        if not key:
            if not self.base_url:
                raise NotConfigured("provider gemini needs GEMINI_API_KEY or GOOGLE_API_KEY")
            key = "not-needed"
        http_options = types.HttpOptions(
            base_url=self.base_url,
            api_version=api_version,
            timeout=int(timeout_s * 1000),  # milliseconds
        )
        # vertexai=False: GOOGLE_GENAI_USE_VERTEXAI in the environment must not switch backends.
        self._client = genai.Client(api_key=key, vertexai=False, http_options=http_options)

    def build_request(
        self, messages: list[Message], *, model: str, settings: GenerationSettings
    ) -> tuple[list[types.Content], types.GenerateContentConfig]:
        """The ``contents`` and ``config`` passed to ``models.generate_content``."""
        system: list[str] = []
        contents: list[types.Content] = []
        for m in messages:
            if m.role == "system":
                if m.images:
                    raise BadRequestError("images are not supported on system messages", provider=self.name)
                system.append(m.content)
                continue
            parts: list[types.Part] = []
            if m.content:
                parts.append(types.Part(text=m.content))
            parts.extend(types.Part.from_bytes(data=img.data, mime_type=img.mime_type) for img in m.images)
            contents.append(types.Content(role="user" if m.role == "user" else "model", parts=parts))
        if not contents:
            raise BadRequestError("at least one user or assistant message is required", provider=self.name)

        config = types.GenerateContentConfig(
            system_instruction="\n\n".join(system) if system else None,
            temperature=settings.temperature,
            max_output_tokens=settings.max_output_tokens,
            thinking_config=thinking_config(model, settings.reasoning),
            response_mime_type="application/json" if settings.json_output else None,
            seed=settings.seed,
        )
        return contents, config

    def complete(self, messages: list[Message], *, model: str, settings: GenerationSettings) -> Completion:
        """Run one `generate_content` call; raises the typed errors of `xrbench.llm.errors`."""
        contents, config = self.build_request(messages, model=model, settings=settings)
        start = time.perf_counter()
        try:
            resp = self._client.models.generate_content(model=model, contents=contents, config=config)
        except genai_errors.APIError as exc:
            raise map_genai_error(exc) from exc
        except _TRANSPORT_ERRORS as exc:
            raise TransientError(f"{type(exc).__name__}: {exc}", provider=self.name) from exc
        except genai_errors.UnknownApiResponseError as exc:
            raise ProviderError(str(exc), provider=self.name) from exc
        latency = time.perf_counter() - start

        text, finish = _text_and_finish(resp)
        return Completion(
            text=text,
            provider=self.name,
            model=resp.model_version or model,
            settings=settings,
            usage=_usage(resp.usage_metadata),
            latency_s=latency,
            finish_reason=finish,
        )


def thinking_config(model: str, reasoning: str | int | None) -> types.ThinkingConfig | None:
    """Map `GenerationSettings.reasoning` onto Gemini's thinking config.

    An int is a token budget. A level ("minimal" | "low" | "medium" | "high") becomes
    ``thinking_level`` on Gemini 3+ and a token budget on Gemini 2.x, which only takes budgets.
    """
    if reasoning is None:
        return None
    if isinstance(reasoning, bool):
        raise BadRequestError(f"invalid reasoning setting {reasoning!r}", provider="gemini")
    if isinstance(reasoning, int):
        return types.ThinkingConfig(thinking_budget=reasoning)
    level = reasoning.strip().lower()
    if re.fullmatch(r"-?\d+", level):
        return types.ThinkingConfig(thinking_budget=int(level))
    if _BUDGET_MODELS.match(model):
        if level not in _LEVEL_BUDGETS:
            raise BadRequestError(f"unknown reasoning level {reasoning!r} for {model}", provider="gemini")
        return types.ThinkingConfig(thinking_budget=_LEVEL_BUDGETS[level])
    # ThinkingLevel accepts unknown strings with only a warning; reject them here instead.
    levels = {m.value for m in types.ThinkingLevel} - {"THINKING_LEVEL_UNSPECIFIED"}
    if level.upper() not in levels:
        raise BadRequestError(f"unknown reasoning level {reasoning!r}", provider="gemini")
    return types.ThinkingConfig(thinking_level=types.ThinkingLevel(level.upper()))


def _text_and_finish(resp: types.GenerateContentResponse) -> tuple[str, str | None]:
    if not resp.candidates:
        feedback = resp.prompt_feedback
        block = feedback.block_reason if feedback is not None else None
        return "", (f"blocked:{_enum_str(block)}" if block is not None else None)
    cand = resp.candidates[0]
    parts = cand.content.parts if cand.content is not None and cand.content.parts else []
    # Thought summaries are not part of the answer.
    text = "".join(p.text for p in parts if p.text and not p.thought)
    return text, (_enum_str(cand.finish_reason) if cand.finish_reason is not None else None)


def _enum_str(value: Any) -> str:
    return str(getattr(value, "value", value)).lower()


def _usage(meta: types.GenerateContentResponseUsageMetadata | None) -> Usage:
    if meta is None:
        return Usage()
    return Usage(
        input_tokens=meta.prompt_token_count or 0,
        output_tokens=meta.candidates_token_count or 0,
        reasoning_tokens=meta.thoughts_token_count or 0,
    )


def _error_body(exc: genai_errors.APIError) -> dict[str, Any]:
    details = exc.details
    if isinstance(details, list) and len(details) == 1:
        details = details[0]
    if not isinstance(details, dict):
        return {}
    inner = details.get("error")
    return inner if isinstance(inner, dict) else details


def _retry_delay(exc: genai_errors.APIError) -> float | None:
    for item in _error_body(exc).get("details") or []:
        if isinstance(item, dict) and str(item.get("@type", "")).endswith("google.rpc.RetryInfo"):
            match = re.fullmatch(r"\s*([\d.]+)s\s*", str(item.get("retryDelay", "")))
            if match:
                return float(match.group(1))
    headers = getattr(exc.response, "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def map_genai_error(exc: genai_errors.APIError, provider: str = "gemini") -> ProviderError:
    """Translate a `google.genai.errors.APIError` into the layer's typed errors."""
    code = exc.code if isinstance(exc.code, int) else 0
    msg = exc.message or str(exc)
    if code == 429:
        return RateLimitError(msg, provider=provider, status=code, retry_after=_retry_delay(exc))
    if code in (401, 403):
        return AuthError(msg, provider=provider, status=code)
    # The Gemini API answers a bad API key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID.
    if code == 400 and ("API_KEY_INVALID" in str(exc.details) or "API key not valid" in msg):
        return AuthError(msg, provider=provider, status=code)
    if code in (408, 409) or code >= 500:
        return TransientError(msg, provider=provider, status=code)
    if 400 <= code < 500:
        return BadRequestError(msg, provider=provider, status=code)
    return ProviderError(msg, provider=provider, status=code or None)
