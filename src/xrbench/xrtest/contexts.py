"""Browser contexts kept between the sessions of one test process, with a reset that is proven.

Opening every session in a new browser context starts a new renderer process each time, which
loads and compiles three.js and XR Blocks again. The pytest plugin therefore gives every test
variant of a candidate a *new page* in a context it reuses: with `--process-per-site` (see
`browser.py`) and an inert page of the app's origin kept open (`_open_anchor`), the renderer
process, and what it compiled, survives from one session to the next (`benchmarks/bench_verify.py`).

A new page is a new document: nothing of the previous session's JavaScript survives it (module
instances, globals, WebGL and audio contexts, timers, `sessionStorage`, `window.name` and history
belong to the page). What a context would carry over is storage: `release` closes the earlier
pages (popups too), removes the routes, cookies and permissions, and `Lease.clear_storage` empties
every origin a document could have used (local storage, IndexedDB, Cache Storage, file systems)
before the next page navigates. Each session installs its own server (with its own harness
token). A context whose page hung or crashed is closed, never reused. `tests/redteam/test_reuse.py`
proves the reset with an app that tries to carry state from one session to the next, and that a
reused context reads the same as a fresh one.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, WebSocketRoute
from playwright.sync_api import Error as PlaywrightError

from xrbench.procs import owned_tempdir
from xrbench.xrtest.server import APP_ORIGIN

# Documents that can run script and keep storage: the app's origin (also the origin of its blob:,
# about:blank and srcdoc frames). Routed CDN files are never documents that run script, but their
# origins are emptied too, at no cost.
STORAGE_ORIGINS = (APP_ORIGIN, "https://cdn.jsdelivr.net", "https://unpkg.com", "https://esm.sh")


@dataclass
class Lease:
    """A context handed to one session: `fresh` when just created; `video_dir` where its pages' videos go."""

    context: BrowserContext
    fresh: bool
    video_dir: Path | None
    key: str = field(repr=False, default="")
    # The holder's WebSocket handler: `unroute_all` keeps WebSocket routes, so a context routes
    # them once, here, and each session that holds it sets its own (see `routing.Router`).
    websocket_handler: Callable[[WebSocketRoute], None] | None = field(repr=False, default=None)
    anchor: Page | None = field(repr=False, default=None)

    def handle_websocket(self, ws: WebSocketRoute) -> None:
        """Hand a WebSocket to the holder's handler; refuse it when nobody holds the context."""
        handler = self.websocket_handler
        if handler is None:
            ws.close(code=1008, reason="blocked by xrtest")
        else:
            handler(ws)

    def clear_storage(self, cdp: Any) -> None:
        """Empty every origin's storage through `cdp` (a CDP session of a page of this context).

        Called by the session on its new page before it navigates: cookies, local storage,
        IndexedDB, Cache Storage and file systems of the origins a document could have used.
        """
        if self.fresh:
            return
        for origin in STORAGE_ORIGINS:
            cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})


class ContextPool:
    """Idle browser contexts by their options; `acquire` lends one, `release` takes it back.

    `options` are `Browser.new_context` keyword arguments. A `record_video_dir` among them is
    replaced by a folder of the pool's (the pages of one context share it; each page has its own
    file, see `recording.py`), so contexts that differ only in where a test wanted its video are
    reused too. Use one pool per thread, like the browser itself.
    """

    def __init__(self) -> None:
        self._idle: list[Lease] = []
        self._busy: dict[int, Lease] = {}
        self._lock = threading.Lock()
        self._root: Path | None = None
        self.created = 0
        self.reused = 0

    def acquire(self, browser: Browser, options: dict[str, Any]) -> Lease:
        """A context with `options`: an idle one that matches, or a new one."""
        options = dict(options)
        wants_video = options.pop("record_video_dir", None) is not None
        key = json.dumps([id(browser), options], sort_keys=True, default=str)
        with self._lock:
            for i, idle in enumerate(self._idle):
                if idle.key == key:
                    del self._idle[i]
                    lease = Lease(idle.context, False, idle.video_dir, key)
                    self._busy[id(lease.context)] = lease
                    self.reused += 1
                    return lease
        video_dir = None
        if wants_video:
            if self._root is None:
                self._root = owned_tempdir("xrtest-contexts-")
            video_dir = Path(tempfile.mkdtemp(prefix="video-", dir=self._root))
            options["record_video_dir"] = str(video_dir)
        lease = Lease(browser.new_context(**options), True, video_dir, key)
        lease.anchor = _open_anchor(lease.context)
        with self._lock:
            self._busy[id(lease.context)] = lease
            self.created += 1
        return lease

    def release(self, lease: Lease, *, reusable: bool) -> None:
        """Take a lease back: its context is emptied of pages, routes, cookies and permissions
        and kept when `reusable` (and all of that worked), otherwise closed."""
        with self._lock:
            self._busy.pop(id(lease.context), None)
        lease.websocket_handler = None
        context = lease.context
        if reusable:
            try:
                for page in list(context.pages):
                    if page is not lease.anchor:
                        page.close(run_before_unload=False)
                context.unroute_all(behavior="ignoreErrors")
                context.clear_cookies()
                context.clear_permissions()
            except PlaywrightError:  # a context that cannot be emptied is not reused
                reusable = False
        if not reusable:
            # Its videos stay until the pool closes: the test's recording may still keep one.
            with contextlib.suppress(Exception):
                context.close()
            return
        with self._lock:
            self._idle.append(lease)

    def close(self) -> None:
        """Close every context of the pool and delete its folders."""
        with self._lock:
            leases = [*self._idle, *self._busy.values()]
            self._idle, self._busy = [], {}
        for lease in leases:
            with contextlib.suppress(Exception):
                lease.context.close()
        if self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)
            self._root = None


ANCHOR_URL = f"{APP_ORIGIN}/__xrtest__/anchor.html"


def _open_anchor(context: BrowserContext) -> Page | None:
    """Keep the app site's renderer process alive between sessions: an inert page of the app's origin.

    A renderer process ends with its last page; the next session's page would then start a new
    one and compile three.js and XR Blocks again. This page runs no script (its CSP forbids it)
    and no session holds a reference to it, so an app cannot reach or use it.
    """
    page = context.new_page()
    try:
        page.route(
            ANCHOR_URL,
            lambda route: route.fulfill(
                body="<!doctype html><title>xrtest</title>",
                headers={"content-type": "text/html", "content-security-policy": "default-src 'none'"},
            ),
        )
        page.goto(ANCHOR_URL)
        page.unroute_all(behavior="ignoreErrors")
    except PlaywrightError:
        with contextlib.suppress(Exception):
            page.close()
        return None
    return page
