"""The provider layer's core types: messages, generation settings, completions, the Provider protocol.

Every benchmark talks to models through `xrbench.llm.LLM` (see `client.py`), which adds the disk
cache, retries and recording on top of a `Provider`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True)
class Image:
    """An image attached to a message (PNG or JPEG bytes)."""

    data: bytes
    mime_type: str = "image/png"


@dataclass(frozen=True)
class Message:
    role: Role
    content: str
    images: tuple[Image, ...] = ()


@dataclass(frozen=True)
class GenerationSettings:
    """Generation parameters; recorded with every call and part of the cache key."""

    temperature: float = 0.2
    max_output_tokens: int | None = None
    # Reasoning / thinking level where the API has one ("low" | "medium" | "high" | a token budget).
    reasoning: str | int | None = None
    json_output: bool = False
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens + self.reasoning_tokens

    def to_dict(self) -> dict[str, int]:
        return {**asdict(self), "total_tokens": self.total_tokens}


@dataclass
class Completion:
    text: str
    provider: str
    model: str
    settings: GenerationSettings
    usage: Usage = field(default_factory=Usage)
    cached: bool = False
    latency_s: float = 0.0
    finish_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "provider": self.provider,
            "model": self.model,
            "settings": self.settings.to_dict(),
            "usage": self.usage.to_dict(),
            "cached": self.cached,
            "latency_s": self.latency_s,
            "finish_reason": self.finish_reason,
        }


@runtime_checkable
class Provider(Protocol):
    """A model backend. Implementations raise the typed errors in `xrbench.llm.errors`."""

    name: str

    def complete(self, messages: list[Message], *, model: str, settings: GenerationSettings) -> Completion: ...
