"""Recorded responses: replay them offline, or record them from a live provider.

A recordings file is JSONL, one request per line::

    {"key": <request_key>, "request": <request_dict>, "response": <Completion.to_dict()>}

Keys come from `xrbench.llm.keys.request_key` with the *recording* provider's name and base URL,
so replay looks a request up under every (provider, base_url) present in the file.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

from xrbench.llm.base import Completion, GenerationSettings, Message, Provider
from xrbench.llm.errors import ProviderError, ReplayMiss
from xrbench.llm.keys import completion_from_dict, key_of, preview_last_user, request_dict, request_key

log = logging.getLogger(__name__)


def load_recordings(path: str | Path) -> list[dict[str, Any]]:
    """Read a recordings file. A truncated last line (an interrupted append) is skipped."""
    path = Path(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    records: list[dict[str, Any]] = []
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            if lineno == len(lines):
                log.warning("%s: line %d is not valid JSON (interrupted write?); ignored", path, lineno)
                continue
            raise ProviderError(f"{path}: line {lineno}: invalid JSON: {exc.msg}", provider="replay") from exc
        if not isinstance(rec, dict) or "key" not in rec or "response" not in rec:
            raise ProviderError(f"{path}: line {lineno}: expected an object with key and response", provider="replay")
        records.append(rec)
    return records


class ReplayProvider:
    """Answers requests from a recordings file; a request not recorded raises `ReplayMiss`."""

    name = "replay"
    # Replay is already offline and free; caching it on disk would only duplicate the file.
    cacheable = False

    def __init__(self, path: str | Path) -> None:
        """Load the recordings at `path` (raises FileNotFoundError when it does not exist)."""
        self.path = Path(path)
        self.base_url: str | None = None
        self._responses: dict[str, dict[str, Any]] = {}
        identities: set[tuple[str, str | None]] = set()
        models: set[str] = set()
        for rec in load_recordings(self.path):
            self._responses[rec["key"]] = rec["response"]
            req = rec.get("request") or {}
            if "provider" in req:
                identities.add((req["provider"], req.get("base_url")))
            if "model" in req:
                models.add(req["model"])
        self._identities = sorted(identities, key=lambda i: (i[0], i[1] or ""))
        self.models: list[str] = sorted(models)

    def __len__(self) -> int:
        return len(self._responses)

    def complete(self, messages: list[Message], *, model: str, settings: GenerationSettings) -> Completion:
        """Return the recorded completion for this request, or raise `ReplayMiss`."""
        first_key: str | None = None
        for name, base_url in self._identities:
            key = request_key(name, model, messages, settings, base_url=base_url)
            first_key = first_key or key
            data = self._responses.get(key)
            if data is not None:
                completion = completion_from_dict(data)
                completion.provider = self.name
                completion.cached = False
                return completion
        raise ReplayMiss(
            first_key or request_key(self.name, model, messages, settings),
            preview_last_user(messages),
            recordings=str(self.path),
        )


class RecordingProvider:
    """Wraps a live provider and appends every new request/response pair to a recordings file.

    Keys are computed with the wrapped provider's name and base URL, so the file replays with
    `ReplayProvider`. Requests already in the file are not appended again.
    """

    def __init__(self, inner: Provider, path: str | Path) -> None:
        """Wrap `inner`; `path` is created on the first recording."""
        self.inner = inner
        self.path = Path(path)
        self.name = inner.name
        self.base_url: str | None = getattr(inner, "base_url", None)
        self._lock = threading.Lock()
        self._keys: set[str] = set()
        if self.path.exists():
            self._keys = {rec["key"] for rec in load_recordings(self.path)}

    def complete(self, messages: list[Message], *, model: str, settings: GenerationSettings) -> Completion:
        """Call the wrapped provider and record the answer."""
        completion = self.inner.complete(messages, model=model, settings=settings)
        self.record(messages, model=model, settings=settings, completion=completion)
        return completion

    def record(
        self, messages: list[Message], *, model: str, settings: GenerationSettings, completion: Completion
    ) -> bool:
        """Append one request/response pair unless its key is already recorded; True if written."""
        request = request_dict(self.name, model, messages, settings, base_url=self.base_url)
        key = key_of(request)
        response = completion.to_dict()
        response["cached"] = False
        line = json.dumps({"key": key, "request": request, "response": response}, ensure_ascii=False)
        with self._lock:
            if key in self._keys:
                return False
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as f:
                f.write(line + "\n")
                f.flush()
            self._keys.add(key)
        return True
