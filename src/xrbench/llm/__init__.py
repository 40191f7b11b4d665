"""The provider layer shared by the toolkit: one `LLM` client over Gemini, OpenAI-compatible
endpoints and recorded replays, with a disk cache, retries and typed errors.

Typical use::

    from xrbench.llm import GenerationSettings, Message, resolve_llm

    llm = resolve_llm()  # from flags / environment; raises NotConfigured if nothing is set
    out = llm.complete([Message("user", "Hello")], GenerationSettings(temperature=0))
"""

from xrbench.llm.base import Completion, GenerationSettings, Image, Message, Provider, Usage
from xrbench.llm.client import LLM
from xrbench.llm.config import resolve_llm, skip_reason
from xrbench.llm.errors import (
    AuthError,
    BadRequestError,
    NotConfigured,
    ProviderError,
    RateLimitError,
    ReplayMiss,
    TransientError,
)
from xrbench.llm.keys import request_key
from xrbench.llm.replay import RecordingProvider, ReplayProvider

__all__ = [
    "LLM",
    "AuthError",
    "BadRequestError",
    "Completion",
    "GenerationSettings",
    "Image",
    "Message",
    "NotConfigured",
    "Provider",
    "ProviderError",
    "RateLimitError",
    "RecordingProvider",
    "ReplayMiss",
    "ReplayProvider",
    "TransientError",
    "Usage",
    "request_key",
    "resolve_llm",
    "skip_reason",
]
