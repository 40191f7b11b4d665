"""`LLM`: a provider plus an on-disk cache, bounded retries and optional recording.

Every benchmark calls models through `LLM.complete`. A call is keyed by `request_key` (sha256 of the
canonical request: provider, model, base URL, messages with image hashes, settings); a rerun with
the same key is answered from the cache at no cost, with ``cached=True``.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import tenacity

from xrbench.llm.base import Completion, GenerationSettings, Message, Provider
from xrbench.llm.errors import RateLimitError, TransientError
from xrbench.llm.keys import completion_from_dict, request_dict, request_key
from xrbench.llm.replay import RecordingProvider, ReplayProvider
from xrbench.store.atomic import atomic_write_json

log = logging.getLogger(__name__)

DEFAULT_RETRY_WAIT: tuple[float, float] = (1.0, 60.0)

__all__ = ["LLM", "request_key"]


class _KeyLocks:
    """One lock per in-flight key, so concurrent identical requests reach the provider once."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, tuple[threading.Lock, int]] = {}

    @contextlib.contextmanager
    def hold(self, key: str) -> Iterator[None]:
        with self._guard:
            lock, users = self._locks.get(key, (threading.Lock(), 0))
            self._locks[key] = (lock, users + 1)
        try:
            with lock:
                yield
        finally:
            with self._guard:
                lock, users = self._locks[key]
                if users <= 1:
                    del self._locks[key]
                else:
                    self._locks[key] = (lock, users - 1)


class LLM:
    """A model behind a provider, with disk cache, retries and optional recording.

    Safe to share between the threads of a small pool.
    """

    def __init__(
        self,
        provider: Provider | str,
        model: str,
        *,
        cache_dir: str | Path | None = None,
        max_retries: int = 5,
        retry_wait: tuple[float, float] = DEFAULT_RETRY_WAIT,
        base_url: str | None = None,
        record: str | Path | None = None,
    ) -> None:
        """Create a client.

        `provider` is a `Provider` or a provider name ("gemini" | "openai"), built with `base_url`.
        `cache_dir=None` disables the disk cache (`resolve_llm` always sets one). `max_retries` is
        the number of retries after the first attempt, on `RateLimitError` / `TransientError` only;
        waits grow exponentially from ``retry_wait[0]`` up to ``retry_wait[1]`` seconds. `record`
        appends every answer (cached or not) to a recordings file for `ReplayProvider`.
        """
        if isinstance(provider, str):
            from xrbench.llm.config import make_provider

            provider = make_provider(provider, base_url=base_url)
        if max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        lo, hi = retry_wait
        if lo < 0 or hi < lo:
            raise ValueError(f"retry_wait must be (min, max) with 0 <= min <= max, got {retry_wait!r}")
        if record is not None and not isinstance(provider, RecordingProvider):
            provider = RecordingProvider(provider, record)
        self.provider: Provider = provider
        self.model = model
        self.max_retries = max_retries
        self.retry_wait = (float(lo), float(hi))
        cacheable = getattr(provider, "cacheable", True)
        self.cache_dir: Path | None = Path(cache_dir).expanduser() if cache_dir is not None and cacheable else None
        self._key_locks = _KeyLocks()

    @property
    def base_url(self) -> str | None:
        """The provider's custom endpoint, if any."""
        return getattr(self.provider, "base_url", None)

    def describe(self) -> dict[str, Any]:
        """Provider name, model, and base URL / cache / recordings paths where they apply."""
        out: dict[str, Any] = {"provider": self.provider.name, "model": self.model}
        if self.base_url:
            out["base_url"] = self.base_url
        if isinstance(self.provider, ReplayProvider):
            out["replay"] = str(self.provider.path)
        if isinstance(self.provider, RecordingProvider):
            out["record"] = str(self.provider.path)
        if self.cache_dir is not None:
            out["cache_dir"] = str(self.cache_dir)
        return out

    def __repr__(self) -> str:
        return f"LLM({self.describe()!r})"

    def key(self, messages: Sequence[Message], settings: GenerationSettings = GenerationSettings()) -> str:
        """The cache / recording key this client uses for a request."""
        return request_key(self.provider, self.model, list(messages), settings)

    def complete(self, messages: Sequence[Message], settings: GenerationSettings = GenerationSettings()) -> Completion:
        """One completion: from the cache if this exact request was made before, else from the provider.

        Raises the typed errors of `xrbench.llm.errors` once retries are exhausted.
        """
        messages = list(messages)
        if not messages:
            raise ValueError("messages must not be empty")
        if self.cache_dir is None:
            return self._call(messages, settings)

        key = self.key(messages, settings)
        with self._key_locks.hold(key):
            hit = self._read_cache(key)
            if hit is not None:
                if isinstance(self.provider, RecordingProvider):
                    self.provider.record(messages, model=self.model, settings=settings, completion=hit)
                return hit
            completion = self._call(messages, settings)
            request = request_dict(self.provider, self.model, messages, settings)
            self._write_cache(key, request, completion)
            return completion

    # -- internals -----------------------------------------------------------------------------

    def _call(self, messages: list[Message], settings: GenerationSettings) -> Completion:
        lo, hi = self.retry_wait
        backoff = tenacity.wait_exponential_jitter(initial=lo, max=hi, jitter=lo)

        def wait(state: tenacity.RetryCallState) -> float:
            delay = backoff(state)
            exc = state.outcome.exception() if state.outcome is not None else None
            if isinstance(exc, RateLimitError) and exc.retry_after:
                delay = max(delay, exc.retry_after)
            return min(delay, hi)

        retrying = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(self.max_retries + 1),
            wait=wait,
            retry=tenacity.retry_if_exception_type((RateLimitError, TransientError)),
            reraise=True,
            before_sleep=tenacity.before_sleep_log(log, logging.WARNING),
        )
        return retrying(self.provider.complete, messages, model=self.model, settings=settings)

    def _cache_path(self, key: str) -> Path:
        assert self.cache_dir is not None
        return self.cache_dir / key[:2] / f"{key}.json"

    def _read_cache(self, key: str) -> Completion | None:
        path = self._cache_path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("ignoring unreadable cache entry %s: %s", path, exc)
            return None
        if not isinstance(data, dict) or data.get("key") != key or not isinstance(data.get("response"), dict):
            log.warning("ignoring malformed cache entry %s", path)
            return None
        completion = completion_from_dict(data["response"])
        completion.cached = True
        return completion

    def _write_cache(self, key: str, request: dict[str, Any], completion: Completion) -> None:
        response = completion.to_dict()
        response["cached"] = False
        atomic_write_json(self._cache_path(key), {"key": key, "request": request, "response": response})
