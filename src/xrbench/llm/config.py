"""Resolve which provider and model to use, from explicit arguments (CLI flags) or environment.

Environment variables:
    XRBENCH_PROVIDER   gemini | openai | replay
    XRBENCH_MODEL      model name (required for openai)
    XRBENCH_BASE_URL   custom endpoint (OPENAI_BASE_URL is honoured for openai)
    XRBENCH_REPLAY     recordings file to replay
    XRBENCH_RECORD     recordings file to append live answers to
    XRBENCH_CACHE_DIR  disk cache (default ~/.cache/xrbench/llm; "off" disables it)
    GEMINI_API_KEY / GOOGLE_API_KEY, OPENAI_API_KEY
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from xrbench.llm.base import Provider
from xrbench.llm.client import LLM
from xrbench.llm.errors import NotConfigured

PROVIDERS = ("gemini", "openai", "replay")
DEFAULT_MODELS: dict[str, str] = {"gemini": "gemini-2.5-flash"}
DEFAULT_CACHE_DIR = "~/.cache/xrbench/llm"
NO_PROVIDER_REASON = (
    "no provider configured: set XRBENCH_PROVIDER / GEMINI_API_KEY / OPENAI_API_KEY / XRBENCH_BASE_URL, "
    "or pass --provider"
)
_CACHE_OFF = {"off", "none", "0", "false", "no"}


def _env(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def _gemini_key() -> str | None:
    return _env("GEMINI_API_KEY") or _env("GOOGLE_API_KEY")


def infer_provider(
    *, provider: str | None = None, replay: str | Path | None = None, base_url: str | None = None
) -> str:
    """Pick a provider name by the documented precedence; raises `NotConfigured` when none applies."""
    name = provider or _env("XRBENCH_PROVIDER")
    if name:
        name = name.strip().lower()
        if name not in PROVIDERS:
            raise NotConfigured(f"unknown provider {name!r}: expected one of {', '.join(PROVIDERS)}")
        return name
    if replay or _env("XRBENCH_REPLAY"):
        return "replay"
    if base_url or _env("XRBENCH_BASE_URL") or _env("OPENAI_BASE_URL"):
        return "openai"
    if _gemini_key():
        return "gemini"
    if _env("OPENAI_API_KEY"):
        return "openai"
    raise NotConfigured(NO_PROVIDER_REASON)


def make_provider(name: str, *, base_url: str | None = None, replay: str | Path | None = None) -> Provider:
    """Build a provider by name; credentials come from the environment.

    Raises `NotConfigured` when the provider's key, endpoint or recordings file is missing.
    """
    if name == "gemini":
        from xrbench.llm.gemini import GeminiProvider

        url = base_url or _env("XRBENCH_BASE_URL") or _env("GOOGLE_GEMINI_BASE_URL")
        return GeminiProvider(base_url=url)
    if name == "openai":
        from xrbench.llm.openai_compat import OpenAICompatProvider

        url = base_url or _env("XRBENCH_BASE_URL") or _env("OPENAI_BASE_URL")
        return OpenAICompatProvider(base_url=url)
    if name == "replay":
        from xrbench.llm.replay import ReplayProvider

        path = replay or _env("XRBENCH_REPLAY")
        if not path:
            raise NotConfigured("provider replay needs a recordings file: set XRBENCH_REPLAY or pass --replay")
        path = Path(path).expanduser()
        if not path.is_file():
            raise NotConfigured(f"replay recordings file not found: {path}")
        return ReplayProvider(path)
    raise NotConfigured(f"unknown provider {name!r}: expected one of {', '.join(PROVIDERS)}")


def _cache_dir(cache_dir: str | Path | None) -> Path | None:
    value = str(cache_dir) if cache_dir is not None else (_env("XRBENCH_CACHE_DIR") or DEFAULT_CACHE_DIR)
    if value.strip().lower() in _CACHE_OFF:
        return None
    return Path(value).expanduser()


def resolve_llm(
    provider: str | None = None,
    model: str | None = None,
    base_url: str | None = None,
    replay: str | Path | None = None,
    cache_dir: str | Path | None = None,
    *,
    record: str | Path | None = None,
    **llm_kwargs: Any,
) -> LLM:
    """Build the `LLM` selected by the arguments, falling back to environment variables.

    Precedence: an explicit provider (argument, then XRBENCH_PROVIDER); else a replay file -> replay;
    else a base URL -> openai; else a Gemini key -> gemini; else an OpenAI key -> openai.
    Raises `NotConfigured` (with a `.reason`) when nothing usable is configured. Extra keyword
    arguments (``max_retries``, ``retry_wait``) go to `LLM`.
    """
    name = infer_provider(provider=provider, replay=replay, base_url=base_url)
    model = model or _env("XRBENCH_MODEL")
    prov = make_provider(name, base_url=base_url, replay=replay)

    if model is None:
        if name == "replay":
            models: list[str] = getattr(prov, "models", [])
            if len(models) != 1:
                found = ", ".join(models) if models else "none"
                raise NotConfigured(
                    f"replay needs a model: the recordings hold {found}; set XRBENCH_MODEL or pass --model"
                )
            model = models[0]
        elif name in DEFAULT_MODELS:
            model = DEFAULT_MODELS[name]
        else:
            raise NotConfigured(f"provider {name} needs a model: set XRBENCH_MODEL or pass --model")

    record = record or _env("XRBENCH_RECORD")
    if record and name == "replay":
        record = None  # re-recording replayed answers would only copy the file
    return LLM(prov, model, cache_dir=_cache_dir(cache_dir), record=record, **llm_kwargs)


def skip_reason(**kwargs: Any) -> str | None:
    """The `NotConfigured` reason `resolve_llm(**kwargs)` would raise, or None when a model is usable."""
    try:
        resolve_llm(**kwargs)
    except NotConfigured as exc:
        return exc.reason
    return None
