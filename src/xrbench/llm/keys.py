"""Request identity: the canonical request description and its sha256 key.

The disk cache (`client.py`) and replay recordings (`replay.py`) share this key, so a recording made
with a live provider is found again by replay, and a cached answer by a rerun.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from xrbench.llm.base import Completion, GenerationSettings, Message, Provider, Usage


def _normalize_base_url(base_url: str | None) -> str | None:
    if not base_url:
        return None
    return base_url.rstrip("/")


def provider_identity(provider: Provider | str, base_url: str | None = None) -> tuple[str, str | None]:
    """Return ``(name, base_url)`` identifying a provider instance or name for keying."""
    if isinstance(provider, str):
        return provider, _normalize_base_url(base_url)
    return provider.name, _normalize_base_url(base_url or getattr(provider, "base_url", None))


def message_to_dict(message: Message) -> dict[str, Any]:
    """Describe a message for keys and recordings; images are represented by their sha256."""
    return {
        "role": message.role,
        "content": message.content,
        "images": [
            {"sha256": hashlib.sha256(img.data).hexdigest(), "mime_type": img.mime_type} for img in message.images
        ],
    }


def request_dict(
    provider: Provider | str,
    model: str,
    messages: Sequence[Message],
    settings: GenerationSettings,
    *,
    base_url: str | None = None,
) -> dict[str, Any]:
    """The canonical description of one request (what `request_key` hashes)."""
    name, url = provider_identity(provider, base_url)
    out: dict[str, Any] = {"provider": name, "model": model}
    if url:
        out["base_url"] = url
    out["messages"] = [message_to_dict(m) for m in messages]
    out["settings"] = settings.to_dict()
    return out


def canonical_json(obj: Any) -> str:
    """Deterministic JSON: sorted keys, no whitespace, UTF-8 kept as is."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def key_of(request: dict[str, Any]) -> str:
    """sha256 hex digest of a request dict as built by `request_dict`."""
    return hashlib.sha256(canonical_json(request).encode("utf-8")).hexdigest()


def request_key(
    provider: Provider | str,
    model: str,
    messages: Sequence[Message],
    settings: GenerationSettings,
    *,
    base_url: str | None = None,
) -> str:
    """The cache / recording key of a request.

    `provider` is a provider name or instance; for an instance its ``base_url`` attribute (if any)
    is part of the key, as is an explicit `base_url`.
    """
    return key_of(request_dict(provider, model, messages, settings, base_url=base_url))


def settings_from_dict(data: dict[str, Any]) -> GenerationSettings:
    """Rebuild `GenerationSettings`, ignoring keys this version does not know."""
    known = GenerationSettings.__dataclass_fields__
    return GenerationSettings(**{k: v for k, v in data.items() if k in known})


def completion_from_dict(data: dict[str, Any]) -> Completion:
    """Rebuild a `Completion` from `Completion.to_dict()` output."""
    usage = data.get("usage") or {}
    return Completion(
        text=data.get("text", ""),
        provider=data.get("provider", ""),
        model=data.get("model", ""),
        settings=settings_from_dict(data.get("settings") or {}),
        usage=Usage(
            input_tokens=int(usage.get("input_tokens", 0)),
            output_tokens=int(usage.get("output_tokens", 0)),
            reasoning_tokens=int(usage.get("reasoning_tokens", 0)),
        ),
        cached=bool(data.get("cached", False)),
        latency_s=float(data.get("latency_s", 0.0)),
        finish_reason=data.get("finish_reason"),
    )


def preview_last_user(messages: Sequence[Message], limit: int = 80) -> str:
    """A one-line preview of the last user message, for error messages."""
    for m in reversed(messages):
        if m.role == "user":
            text = " ".join(m.content.split())
            return text if len(text) <= limit else text[: limit - 1] + "…"
    return ""
