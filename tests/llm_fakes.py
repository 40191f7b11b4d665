"""Local stand-ins for the OpenAI and Gemini REST APIs, served on 127.0.0.1 from a thread.

The real SDK clients talk to these over HTTP, so the tests cover request building, response
parsing and error mapping end to end without any network access.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from xrbench.llm import GenerationSettings, Image, Message


@dataclass
class Seen:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any


Responder = Callable[[str, Any], tuple[int, Any]]


@dataclass
class FakeServer:
    """A scripted HTTP server: queued responses first, then `default` for everything else."""

    default: Responder
    requests: list[Seen] = field(default_factory=list)
    script: deque[tuple[int, Any, dict[str, str]]] = field(default_factory=deque)
    url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def queue(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        """Answer the next request with `status` and JSON `body`."""
        self.script.append((status, body, headers or {}))

    @property
    def last(self) -> Seen:
        return self.requests[-1]

    def respond(self, seen: Seen) -> tuple[int, Any, dict[str, str]]:
        with self.lock:
            self.requests.append(seen)
            if self.script:
                return self.script.popleft()
        status, body = self.default(seen.path, seen.body)
        return status, body, {}


def serve(server: FakeServer, port: int = 0) -> Iterator[FakeServer]:
    """Run `server` on 127.0.0.1 (a free port by default) until the generator is closed."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode("utf-8", "replace")
            seen = Seen("POST", self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            status, out, headers = server.respond(seen)
            data = json.dumps(out).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in headers.items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    server.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        yield server
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


# -- OpenAI chat completions ---------------------------------------------------------------------


def _last_user_text(messages: list[dict[str, Any]]) -> str:
    for m in reversed(messages):
        if m["role"] == "user":
            content = m["content"]
            if isinstance(content, str):
                return content
            return " ".join(p.get("text", "") for p in content if p.get("type") == "text")
    return ""


def chat_completion(
    content: str,
    model: str = "test-model",
    prompt_tokens: int = 11,
    completion_tokens: int = 5,
    reasoning_tokens: int | None = None,
) -> dict[str, Any]:
    """A response body shaped like the real ``POST /v1/chat/completions`` answer."""
    usage: dict[str, Any] = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }
    if reasoning_tokens is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": reasoning_tokens}
    return {
        "id": "chatcmpl-test123",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": usage,
    }


def openai_error(message: str, type_: str, code: str | None = None) -> dict[str, Any]:
    """An error body shaped like OpenAI's."""
    return {"error": {"message": message, "type": type_, "param": None, "code": code}}


def openai_default(path: str, body: Any) -> tuple[int, Any]:
    if path != "/v1/chat/completions":
        return 404, openai_error(f"no route {path}", "invalid_request_error")
    return 200, chat_completion(f"echo: {_last_user_text(body['messages'])}", model=body["model"])


# -- Gemini generateContent ----------------------------------------------------------------------


def gemini_response(
    text: str,
    *,
    prompt_tokens: int = 7,
    output_tokens: int = 3,
    thoughts_tokens: int | None = None,
    thought: str | None = None,
) -> dict[str, Any]:
    """A response body shaped like the real ``generateContent`` answer."""
    parts: list[dict[str, Any]] = []
    if thought is not None:
        parts.append({"text": thought, "thought": True})
    parts.append({"text": text})
    usage: dict[str, Any] = {
        "promptTokenCount": prompt_tokens,
        "candidatesTokenCount": output_tokens,
        "totalTokenCount": prompt_tokens + output_tokens + (thoughts_tokens or 0),
    }
    if thoughts_tokens is not None:
        usage["thoughtsTokenCount"] = thoughts_tokens
    return {
        "candidates": [{"content": {"parts": parts, "role": "model"}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": usage,
        "modelVersion": "gemini-2.5-flash",
        "responseId": "resp-test",
    }


def gemini_error(code: int, status: str, message: str, details: list[Any] | None = None) -> dict[str, Any]:
    """An error body shaped like Google's."""
    return {"error": {"code": code, "message": message, "status": status, "details": details or []}}


def gemini_default(path: str, body: Any) -> tuple[int, Any]:
    if not (path.startswith("/v1beta/models/") and path.endswith(":generateContent")):
        return 404, gemini_error(404, "NOT_FOUND", f"no route {path}")
    user = [c for c in body["contents"] if c.get("role") == "user"]
    text = " ".join(p["text"] for p in user[-1]["parts"] if "text" in p) if user else ""
    return 200, gemini_response(f"echo: {text}")


# -- the requests recorded in fixtures/recordings.jsonl (see fixtures/make_recordings.py) ----------

FIXTURE_MODEL = "local-model"
FIXTURE_REQUESTS: list[tuple[list[Message], GenerationSettings]] = [
    (
        [Message("system", "Answer briefly."), Message("user", "Name one XR headset.")],
        GenerationSettings(seed=1),
    ),
    (
        [Message("user", "What is in this image?", (Image(b"\x89PNG\r\n\x1a\nfixture"),))],
        GenerationSettings(temperature=0.0, max_output_tokens=32),
    ),
]
