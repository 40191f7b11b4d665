"""Typed errors raised by the provider layer.

Providers translate their SDK's exceptions into these, so callers (and the retry policy in
`client.py`) never depend on a particular SDK. Only `RateLimitError` and `TransientError` are
retried.
"""

from __future__ import annotations


class ProviderError(Exception):
    """Base class of every error raised by `xrbench.llm`."""

    def __init__(self, message: str, *, provider: str | None = None, status: int | None = None) -> None:
        self.message = message
        self.provider = provider
        self.status = status
        prefix = f"{provider}: " if provider else ""
        super().__init__(f"{prefix}{message}")


class RateLimitError(ProviderError):
    """The provider throttled the request (HTTP 429); retried with backoff."""

    def __init__(
        self,
        message: str,
        *,
        provider: str | None = None,
        status: int | None = 429,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message, provider=provider, status=status)
        self.retry_after = retry_after


class TransientError(ProviderError):
    """A failure that may succeed on a retry: 5xx, timeouts, dropped connections."""


class AuthError(ProviderError):
    """The credentials were missing, invalid or not allowed to use the model."""


class BadRequestError(ProviderError):
    """The provider rejected the request itself (bad parameters, unknown model, ...)."""


class ReplayMiss(ProviderError):
    """A replayed request has no recorded response."""

    def __init__(self, key: str, preview: str, *, recordings: str | None = None) -> None:
        self.key = key
        self.preview = preview
        self.recordings = recordings
        where = f" in {recordings}" if recordings else ""
        super().__init__(
            f"no recorded response{where} for request {key} (last user message: {preview!r})",
            provider="replay",
        )


class NotConfigured(ProviderError):
    """No usable provider is configured; `.reason` says what is missing.

    Callers that can run without a model (tests, optional benchmark steps) report
    ``f"skipped: {err.reason}"``.
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


__all__ = [
    "AuthError",
    "BadRequestError",
    "NotConfigured",
    "ProviderError",
    "RateLimitError",
    "ReplayMiss",
    "TransientError",
]
