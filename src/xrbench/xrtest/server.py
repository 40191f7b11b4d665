"""A static HTTP server for one test session: the app workspace at `/`, node_modules at `/node_modules/`.

The app under test is untrusted, so the server is deliberately narrow:
- it binds 127.0.0.1 on a free port and answers GET and HEAD only (405 otherwise);
- it serves regular files from exactly two roots and nothing else: no directory listings, no
  `..` (raw or percent-encoded), no backslashes or NUL bytes, and no symlink that resolves
  outside its root;
- it sends explicit MIME types (`text/javascript` for modules, `application/wasm`, glTF types)
  because module scripts and `WebAssembly.instantiateStreaming` refuse wrong ones;
- paths named `once` (the harness page module, which carries the session's token) are served a
  single time: a later request is a 404, so the page cannot read the token the harness uses.
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import shutil
import sys
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

MIME_TYPES: dict[str, str] = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".cjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".wasm": "application/wasm",
    ".glb": "model/gltf-binary",
    ".gltf": "model/gltf+json",
    ".bin": "application/octet-stream",
    ".ktx2": "image/ktx2",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
    ".gif": "image/gif",
    ".svg": "image/svg+xml",
    ".ico": "image/x-icon",
    ".hdr": "application/octet-stream",
    ".webm": "video/webm",
    ".mp4": "video/mp4",
    ".mp3": "audio/mpeg",
    ".wav": "audio/wav",
    ".ogg": "audio/ogg",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
}

NODE_MODULES_PREFIX = "/node_modules/"


def mime_type(path: str | Path) -> str:
    """The Content-Type the harness serves for `path` (by extension; octet-stream if unknown)."""
    return MIME_TYPES.get(Path(path).suffix.lower(), "application/octet-stream")


class Refused(Exception):
    """A request path that must not be served; `status` is the HTTP status to answer with."""

    def __init__(self, status: HTTPStatus, reason: str):
        self.status = status
        self.reason = reason
        super().__init__(f"{int(status)} {reason}")


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def resolve_request_path(raw_path: str, workspace: Path, node_modules: Path | None) -> Path:
    """Map a request path to a regular file under one of the two roots, or raise `Refused`.

    Traversal checks run on the raw path, on the percent-decoded path and, finally, on the real
    path after symlinks are resolved, so no encoding or link trick reaches outside a root.
    """
    path = urlsplit(raw_path).path
    if not path.startswith("/") or path.startswith("//"):
        raise Refused(HTTPStatus.BAD_REQUEST, "path must be absolute and not start with //")
    decoded = unquote(path, errors="strict")
    for candidate in (path, decoded):
        if "\\" in candidate or "\x00" in candidate:
            raise Refused(HTTPStatus.BAD_REQUEST, "backslash or NUL in path")
        if any(seg in ("..", ".") for seg in candidate.split("/")):
            raise Refused(HTTPStatus.FORBIDDEN, "dot segment in path")
    # A second round of decoding must not reveal anything new either (%252e%252e).
    if unquote(decoded) != decoded and ".." in unquote(decoded):
        raise Refused(HTTPStatus.FORBIDDEN, "encoded dot segment in path")

    if node_modules is not None and (decoded + "/").startswith(NODE_MODULES_PREFIX):
        root = node_modules
        rel = decoded[len(NODE_MODULES_PREFIX) :]
    else:
        root = workspace
        rel = decoded[1:]
    rel = posixpath.normpath(rel) if rel else ""
    if rel.startswith(("/", "..")) or posixpath.isabs(rel) or (len(rel) > 1 and rel[1] == ":"):
        raise Refused(HTTPStatus.FORBIDDEN, "absolute path")
    target = root if rel in ("", ".") else root.joinpath(*rel.split("/"))

    real_root = os.path.realpath(root)
    real = os.path.realpath(target)
    if not _within(real, real_root):
        raise Refused(HTTPStatus.FORBIDDEN, "path resolves outside the served root")
    if os.path.isdir(real):
        index = os.path.join(real, "index.html")
        if root == workspace and os.path.isfile(index) and _within(os.path.realpath(index), real_root):
            return Path(index)
        raise Refused(HTTPStatus.NOT_FOUND, "directory listings are disabled")
    if not os.path.isfile(real):
        raise Refused(HTTPStatus.NOT_FOUND, "not found")
    return Path(real)


@dataclass(frozen=True)
class ServedRequest:
    """One request the server answered: method, raw path and status."""

    method: str
    path: str
    status: int


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    server_version = "xrtest"
    sys_version = ""

    def log_message(self, format: str, *args: object) -> None:
        pass  # requests are recorded in `server.log` instead of printed

    def _record(self, status: int) -> None:
        with self.server.log_lock:
            self.server.log.append(ServedRequest(self.command, self.path, status))

    def _refuse(self, status: HTTPStatus, reason: str, *, allow: str | None = None) -> None:
        body = f"{int(status)} {reason}\n".encode()
        self._record(int(status))  # before answering: a client may look at the log right after
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        if allow:
            self.send_header("Allow", allow)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _serve(self, with_body: bool) -> None:
        path = urlsplit(self.path).path
        if path in self.server.once:
            with self.server.log_lock:
                served = path in self.server.served_once
                self.server.served_once.add(path)
            if served:
                self._refuse(HTTPStatus.NOT_FOUND, "served once")
                return
        try:
            file = resolve_request_path(self.path, self.server.workspace, self.server.node_modules)
        except Refused as e:
            self._refuse(e.status, e.reason)
            return
        except (UnicodeDecodeError, ValueError):
            self._refuse(HTTPStatus.BAD_REQUEST, "malformed path")
            return
        try:
            f = open(file, "rb")  # noqa: SIM115 - closed below, after streaming
        except OSError:
            self._refuse(HTTPStatus.NOT_FOUND, "not found")
            return
        with f:
            size = os.fstat(f.fileno()).st_size
            self._record(200)
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", mime_type(file))
            self.send_header("Content-Length", str(size))
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            if with_body:
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    shutil.copyfileobj(f, self.wfile, 256 * 1024)

    def do_GET(self) -> None:
        self._serve(with_body=True)

    def do_HEAD(self) -> None:
        self._serve(with_body=False)

    def _not_allowed(self) -> None:
        self._refuse(HTTPStatus.METHOD_NOT_ALLOWED, "only GET and HEAD are allowed", allow="GET, HEAD")

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_CONNECT = do_TRACE = _not_allowed


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, workspace: Path, node_modules: Path | None, once: frozenset[str]):
        self.workspace = workspace
        self.node_modules = node_modules
        self.once = once
        self.served_once: set[str] = set()
        self.log: list[ServedRequest] = []
        self.log_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Handler)

    def handle_error(self, request: object, client_address: object) -> None:
        # A browser closing its context mid-request resets the connection: not worth a traceback.
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionResetError, BrokenPipeError, TimeoutError)):
            return
        super().handle_error(request, client_address)


class StaticServer:
    """Serves `workspace` at `/` and `node_modules` at `/node_modules/` on 127.0.0.1.

    Use as a context manager, or call `start()` and `stop()`. `base_url` is `http://127.0.0.1:<port>`.
    `once`: request paths answered a single time (see the module docstring).
    """

    def __init__(self, workspace: str | Path, node_modules: str | Path | None = None, *, once: Iterable[str] = ()):
        self.workspace = Path(workspace).resolve()
        self.node_modules = Path(node_modules).resolve() if node_modules else None
        self.once = frozenset(once)
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The bound port (only while running)."""
        if self._server is None:
            raise RuntimeError("server is not running")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """`http://127.0.0.1:<port>` (only while running)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def requests(self) -> list[ServedRequest]:
        """A copy of every request answered so far."""
        if self._server is None:
            return []
        with self._server.log_lock:
            return list(self._server.log)

    def start(self) -> StaticServer:
        """Bind a free port and serve in a daemon thread."""
        if self._server is not None:
            return self
        self._server = _Server(self.workspace, self.node_modules, self.once)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="xrtest-http", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket (idempotent)."""
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> StaticServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def serve(workspace: str | Path, node_modules: str | Path | None = None) -> Iterator[StaticServer]:
    """Context manager form of `StaticServer(...)`."""
    with StaticServer(workspace, node_modules) as server:
        yield server
