"""Network policy for a test session: known CDN files are served locally, everything else is aborted.

Every request that does not go to the session's own server passes through `Router`:
- the WebXR input-profile hand models, three.js files on jsDelivr/unpkg (Draco, Basis, fonts)
  and the XR Blocks SDK build are fulfilled from the pinned `node_modules`;
- XR Blocks' default simulator environments (scene GLB, `_planes.json`, `_navmesh.glb`) are
  fulfilled from the harness's own scenes;
- anything else (other CDNs, APIs, other loopback ports, WebSockets) is aborted and recorded.

`SessionLog` collects what a session's pages reported: console messages, uncaught page errors,
failed requests (aborted, network errors, HTTP >= 400) and every remote request with its outcome.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import (
    BrowserContext,
    ConsoleMessage,
    Error,
    Page,
    Request,
    Response,
    Route,
    WebError,
    WebSocketRoute,
)

from xrbench.xrtest.scenes import DEFAULT_ENVIRONMENTS_CDN, default_environment_asset
from xrbench.xrtest.server import mime_type
from xrbench.xrtest.webdeps import WebDeps

# URL prefix -> folder inside node_modules. Only exact pinned versions are mapped: serving a
# different version than the app asked for would hide version bugs.
CDN_PREFIXES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"^https://cdn\.jsdelivr\.net/npm/@webxr-input-profiles/assets@1(?:\.0(?:\.\d+)?)?/dist/profiles/"),
        "@webxr-input-profiles/assets/dist/profiles/",
    ),
    (re.compile(r"^https://cdn\.jsdelivr\.net/npm/three@0\.184\.0/"), "three/"),
    (re.compile(r"^https://unpkg\.com/three@0\.184\.0/"), "three/"),
    (re.compile(r"^https://cdn\.jsdelivr\.net/npm/xrblocks@0\.21\.1/"), "xrblocks/"),
    (re.compile(r"^https://cdn\.jsdelivr\.net/gh/google/xrblocks@build/"), "xrblocks/build/"),
)

ABORT_REASON = "blockedbyclient"
STREAMING_RESOURCES = frozenset({"media", "websocket", "eventsource"})


@dataclass(frozen=True)
class ConsoleEntry:
    """One console message: its type ('log', 'error', 'warning', ...), text and source location."""

    type: str
    text: str
    location: str = ""


@dataclass(frozen=True)
class FailedRequest:
    """A request that did not succeed: aborted by the harness, a network error, or HTTP >= 400."""

    url: str
    reason: str
    method: str = "GET"
    resource_type: str = ""

    def __str__(self) -> str:
        return f"{self.method} {self.url} ({self.reason})"


@dataclass(frozen=True)
class RemoteRequest:
    """A request to anywhere but the session server, and what the router did with it."""

    url: str
    action: str  # 'fulfilled' or 'aborted'
    local: str | None = None  # the file (or scene stand-in) served, when fulfilled


@dataclass
class SessionLog:
    """Everything a session's pages reported, in arrival order."""

    console: list[ConsoleEntry] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[FailedRequest] = field(default_factory=list)
    remote_requests: list[RemoteRequest] = field(default_factory=list)
    pending_requests: set[Request] = field(default_factory=set, repr=False)

    @property
    def in_flight(self) -> int:
        """Requests sent and not yet finished or failed (streams such as media are not counted)."""
        return len(self.pending_requests)

    @property
    def console_errors(self) -> list[str]:
        """Text of console messages of type 'error'."""
        return [c.text for c in self.console if c.type == "error"]

    @property
    def aborted(self) -> list[str]:
        """URLs the router refused."""
        return [r.url for r in self.remote_requests if r.action == "aborted"]

    @property
    def fulfilled(self) -> list[RemoteRequest]:
        """Remote URLs answered from local files."""
        return [r for r in self.remote_requests if r.action == "fulfilled"]

    def summary(self, limit: int = 10) -> str:
        """A few lines for error messages: page errors, failed requests, console errors."""
        lines: list[str] = []
        for title, items in (
            ("page errors", self.page_errors),
            ("failed requests", [str(f) for f in self.failed_requests]),
            ("console errors", self.console_errors),
        ):
            if items:
                lines.append(f"{title} ({len(items)}):")
                lines.extend(f"  - {_first_line(i, 300)}" for i in items[:limit])
                if len(items) > limit:
                    lines.append(f"  ... {len(items) - limit} more")
        return "\n".join(lines)


def _first_line(text: str, width: int) -> str:
    lines = text.strip().splitlines() or [""]
    line = lines[0] + (" ..." if len(lines) > 1 else "")
    return line if len(line) <= width else line[: width - 3] + "..."


class Router:
    """Routes every non-session request of a browser context (see the module docstring)."""

    def __init__(self, deps: WebDeps, origin: str, log: SessionLog, *, scene: str | None = None):
        if not re.fullmatch(r"http://127\.0\.0\.1:\d+", origin):
            raise ValueError(f"origin must be http://127.0.0.1:<port>, got {origin!r}")
        self.deps = deps
        self.origin = origin
        self.log = log
        self.scene = scene
        # Evaluated by the driver, so requests to the session server never round-trip to Python.
        self.pattern = re.compile("^(?!" + re.escape(origin + "/") + ")")

    def resolve(self, url: str) -> tuple[bytes | Path, str, str] | None:
        """The local stand-in for a remote URL as (bytes or file, content type, description), or None."""
        bare = url.split("#", 1)[0].split("?", 1)[0]
        m = DEFAULT_ENVIRONMENTS_CDN.match(bare)
        if m:
            asset = default_environment_asset(m["file"], self.scene)
            if asset is not None:
                data, ctype = asset
                return data, ctype, f"scene:{self.scene or 'default'}:{m['file']}"
            return None
        for pattern, folder in CDN_PREFIXES:
            pm = pattern.match(bare)
            if not pm:
                continue
            rel = bare[pm.end() :]
            if not rel or any(seg in ("", ".", "..") for seg in rel.split("/")) or "%" in rel:
                return None
            root = (self.deps.node_modules / folder).resolve()
            path = (root / rel).resolve()
            if path.is_file() and path.is_relative_to(root):
                return path, mime_type(path), str(path)
            return None
        return None

    def _handle(self, route: Route) -> None:
        request = route.request
        url = request.url
        local = self.resolve(url) if request.method in ("GET", "HEAD") else None
        if local is None:
            self.log.remote_requests.append(RemoteRequest(url, "aborted"))
            route.abort(ABORT_REASON)
            return
        body, ctype, description = local
        headers = {"access-control-allow-origin": "*", "content-type": ctype, "cache-control": "no-cache"}
        self.log.remote_requests.append(RemoteRequest(url, "fulfilled", description))
        if isinstance(body, Path):
            route.fulfill(status=200, path=str(body), headers=headers)
        else:
            route.fulfill(status=200, body=body, headers=headers)

    def handle_websocket(self, ws: WebSocketRoute) -> None:
        """Refuse a WebSocket (the browser has no network), and log it."""
        self.log.remote_requests.append(RemoteRequest(ws.url, "aborted"))
        self.log.failed_requests.append(FailedRequest(ws.url, "websocket blocked", "GET", "websocket"))
        ws.close(code=1008, reason="blocked by xrtest")

    def install(self, context: BrowserContext, *, websockets: bool = True) -> None:
        """Route the context's requests (and WebSockets, unless told not to); call before opening pages.

        `unroute_all` does not remove WebSocket routes, so a reused context (`contexts.py`)
        routes them once, to whichever session holds it (`Lease.handle_websocket`).
        """
        context.route(self.pattern, self._handle)
        if websockets:
            context.route_web_socket(self.pattern, self.handle_websocket)


def attach_log(
    target: BrowserContext | Page, log: SessionLog, *, ignore_url: Callable[[str], bool] | None = None
) -> None:
    """Record console messages, page errors and failed requests of every page in a context, or of one page.

    A session in a reused context (`contexts.py`) logs its own page (and the popups it opens),
    not the context, whose earlier pages belonged to other sessions.
    """

    def on_console(msg: ConsoleMessage) -> None:
        loc = msg.location or {}
        where = f"{loc.get('url', '')}:{loc.get('lineNumber', '')}" if loc.get("url") else ""
        log.console.append(ConsoleEntry(msg.type, msg.text, where))

    def on_weberror(err: WebError) -> None:
        e = err.error
        log.page_errors.append((e.stack or f"{e.name}: {e.message}") if e else "unknown page error")

    def on_request(request: Request) -> None:
        # A video or an event stream may stay open for the whole session: not pending work.
        if request.resource_type not in STREAMING_RESOURCES:
            log.pending_requests.add(request)

    def on_requestfinished(request: Request) -> None:
        log.pending_requests.discard(request)

    def on_requestfailed(request: Request) -> None:
        log.pending_requests.discard(request)
        if ignore_url and ignore_url(request.url):
            return
        log.failed_requests.append(
            FailedRequest(request.url, request.failure or "failed", request.method, request.resource_type)
        )

    def on_response(response: Response) -> None:
        if response.status >= 400 and not (ignore_url and ignore_url(response.url)):
            req = response.request
            log.failed_requests.append(
                FailedRequest(response.url, f"HTTP {response.status}", req.method, req.resource_type)
            )

    if isinstance(target, Page):

        def on_pageerror(error: Error) -> None:
            log.page_errors.append(error.stack or f"{error.name}: {error.message}")

        target.on("pageerror", on_pageerror)
        target.on("popup", lambda popup: attach_log(popup, log, ignore_url=ignore_url))
    else:
        target.on("weberror", on_weberror)
    target.on("console", on_console)
    target.on("request", on_request)
    target.on("requestfinished", on_requestfinished)
    target.on("requestfailed", on_requestfailed)
    target.on("response", on_response)
