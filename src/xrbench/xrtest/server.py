"""Serve one session's app to its browser context through request routing: no socket at all.

The browser runs with no network (see `sandbox.py`), so the app is not served over TCP: every
request to the app's origin (`APP_ORIGIN`) is answered by `AppServer` from Playwright's request
routing. The app is untrusted, so the server is deliberately narrow:
- it answers GET and HEAD only (405 otherwise);
- it serves regular files from its roots and nothing else: no directory listings, no `..` (raw
  or percent-encoded), no backslashes or NUL bytes, and no symlink that resolves outside its root;
- the roots: the session's own files (its rewritten entry page and `/__xrtest__/`), then the app
  folder read in place, except its own `__xrtest__`, `node_modules` and `.git` folders, and the
  pinned `node_modules` at `/node_modules/`;
- it sends explicit MIME types (`text/javascript` for modules, `application/wasm`, glTF types)
  because module scripts and `WebAssembly.instantiateStreaming` refuse wrong ones;
- paths named `once` (the harness page module, which carries the session's token) are served a
  single time: a later request is a 404, so the page cannot read the token the harness uses.

The origin is the same for every session (each has a browser context of its own), so URLs in
page errors and stack traces are the same from run to run. It is a loopback origin because
WebXR needs a secure context, and `http://127.0.0.1` is one without certificates.
"""

from __future__ import annotations

import os
import posixpath
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from urllib.parse import unquote, urlsplit

from playwright.sync_api import BrowserContext, Route

from xrbench.xrtest.workspace import HARNESS_DIR

APP_ORIGIN = "http://127.0.0.1:8000"

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


# Folders of an app that are never served: the harness's own namespace (a session's files live
# there), packages (the pinned ones are served at /node_modules/) and version control.
HIDDEN_APP_FOLDERS = frozenset({HARNESS_DIR, "node_modules", ".git"})


def resolve_request_path(raw_path: str, workspace: Path, node_modules: Path | None, app: Path | None = None) -> Path:
    """Map a request path to a regular file under one of the roots, or raise `Refused`.

    `workspace` is the session's own folder; `app`, when given, the app folder behind it: a path
    the workspace has no file for is looked up there, except under `/__xrtest__/`, which only the
    workspace answers, and in the app's `HIDDEN_APP_FOLDERS`.

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
        return _resolve_in(node_modules, decoded[len(NODE_MODULES_PREFIX) :], index=False)
    rel = decoded[1:]
    if app is None or rel.split("/", 1)[0] == HARNESS_DIR:
        return _resolve_in(workspace, rel, index=True)
    try:
        return _resolve_in(workspace, rel, index=True)
    except Refused as e:
        if e.status != HTTPStatus.NOT_FOUND:
            raise
    found = _resolve_in(app, rel, index=True)
    if HIDDEN_APP_FOLDERS.intersection(Path(os.path.relpath(found, os.path.realpath(app))).parts):
        raise Refused(HTTPStatus.NOT_FOUND, "not served")
    return found


def _resolve_in(root: Path, rel: str, *, index: bool) -> Path:
    """The regular file `rel` (decoded, '/'-separated) names under `root`, or raise `Refused`."""
    rel = posixpath.normpath(rel) if rel else ""
    if rel.startswith(("/", "..")) or posixpath.isabs(rel) or (len(rel) > 1 and rel[1] == ":"):
        raise Refused(HTTPStatus.FORBIDDEN, "absolute path")
    target = root if rel in ("", ".") else root.joinpath(*rel.split("/"))

    real_root = os.path.realpath(root)
    real = os.path.realpath(target)
    if not _within(real, real_root):
        raise Refused(HTTPStatus.FORBIDDEN, "path resolves outside the served root")
    if os.path.isdir(real):
        index_file = os.path.join(real, "index.html")
        if index and os.path.isfile(index_file) and _within(os.path.realpath(index_file), real_root):
            return Path(index_file)
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


@dataclass(frozen=True)
class Response:
    """What `AppServer.respond` answers: a status, headers and either a file or a short body."""

    status: int
    headers: dict[str, str]
    file: Path | None = None
    body: bytes = b""


class AppServer:
    """Serves `workspace` at `/` (with `app` behind it) and `node_modules` at `/node_modules/` of `APP_ORIGIN`.

    `install(context)` routes the context's requests for the origin here; `respond` is the whole
    policy, as a plain function of method and path. `once`: request paths answered a single time
    (see the module docstring). `app`: the app folder, read in place for every path the
    workspace (the session's own files) does not have; see `resolve_request_path`.
    """

    base_url = APP_ORIGIN

    def __init__(
        self,
        workspace: str | Path,
        node_modules: str | Path | None = None,
        *,
        once: Iterable[str] = (),
        app: str | Path | None = None,
    ):
        self.workspace = Path(workspace).resolve()
        self.node_modules = Path(node_modules).resolve() if node_modules else None
        self.app = Path(app).resolve() if app else None
        self.once = frozenset(once)
        self._served_once: set[str] = set()
        self._log: list[ServedRequest] = []
        self._lock = threading.Lock()

    @property
    def requests(self) -> list[ServedRequest]:
        """A copy of every request answered so far."""
        with self._lock:
            return list(self._log)

    def respond(self, method: str, raw_path: str) -> Response:
        """The answer to `method raw_path` (path and query, as sent), recorded in `requests`."""
        response = self._answer(method, raw_path)
        with self._lock:
            self._log.append(ServedRequest(method, raw_path, response.status))
        return response

    def _answer(self, method: str, raw_path: str) -> Response:
        if method not in ("GET", "HEAD"):
            return _refusal(HTTPStatus.METHOD_NOT_ALLOWED, "only GET and HEAD are allowed", allow="GET, HEAD")
        path = urlsplit(raw_path).path
        if path in self.once:
            with self._lock:
                served = path in self._served_once
                self._served_once.add(path)
            if served:
                return _refusal(HTTPStatus.NOT_FOUND, "served once")
        try:
            file = resolve_request_path(raw_path, self.workspace, self.node_modules, self.app)
        except Refused as e:
            return _refusal(e.status, e.reason)
        except (UnicodeDecodeError, ValueError):
            return _refusal(HTTPStatus.BAD_REQUEST, "malformed path")
        headers = {"content-type": mime_type(file), "cache-control": "no-cache", "x-content-type-options": "nosniff"}
        return Response(int(HTTPStatus.OK), headers, file=file)

    def install(self, context: BrowserContext) -> None:
        """Answer every request of `context` for `APP_ORIGIN`; call before opening pages."""
        context.route(re.compile("^" + re.escape(APP_ORIGIN + "/")), self._handle)

    def _handle(self, route: Route) -> None:
        request = route.request
        raw = request.url[len(APP_ORIGIN) :]
        response = self.respond(request.method, raw)
        if response.file is not None:
            try:
                body = response.file.read_bytes()
            except OSError:  # removed or unreadable since it was resolved
                response = _refusal(HTTPStatus.NOT_FOUND, "not found")
                body = response.body
        else:
            body = response.body
        route.fulfill(status=response.status, headers=response.headers, body=body)


def _refusal(status: HTTPStatus, reason: str, *, allow: str | None = None) -> Response:
    headers = {"content-type": "text/plain; charset=utf-8"}
    if allow:
        headers["allow"] = allow
    return Response(int(status), headers, body=f"{int(status)} {reason}\n".encode())
