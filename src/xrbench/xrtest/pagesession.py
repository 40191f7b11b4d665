"""What every harness session (XR Blocks simulator, IWER) shares: its page, its log, its teardown."""

from __future__ import annotations

import contextlib
from typing import Any

from playwright.sync_api import BrowserContext, Page

from xrbench.xrtest.contexts import ContextPool, Lease
from xrbench.xrtest.errors import SessionClosedError
from xrbench.xrtest.routing import FailedRequest, RemoteRequest, SessionLog
from xrbench.xrtest.server import AppServer
from xrbench.xrtest.workspace import Workspace


class PageSession:
    """Base of `XRSession` and `IWERSession`: one app page in its own browser context.

    Subclasses open the workspace, server and context; this class reads what the page reported
    and tears everything down again.
    """

    log: SessionLog
    hooks: list[Any]
    workspace: Workspace | None
    server: AppServer | None
    context: BrowserContext | None
    _page: Page | None
    _closed: bool
    # False when the page may be stuck (a test timed out in it): its context is then not reused.
    reusable: bool = True
    _crashed: bool = False
    _contexts: ContextPool | None = None
    _lease: Lease | None = None

    def close(self) -> None:
        """Close the page's context and delete the workspace (idempotent)."""
        self._closed = True
        for hook in self.hooks:
            # A failing hook (e.g. a trace that cannot be written) must not stop the cleanup.
            with contextlib.suppress(Exception):
                hook.closing(self)
        context, self.context, page, self._page = self.context, None, self._page, None
        lease, self._lease = self._lease, None
        if lease is not None and self._contexts is not None:
            # A reused context (contexts.py) goes back to its pool, unless this session's page
            # hung or crashed: then it is closed with everything in it.
            healthy = self.reusable and page is not None and not page.is_closed() and not self._crashed
            if healthy:
                try:
                    page.close(run_before_unload=False)
                except Exception:
                    healthy = False
            self._contexts.release(lease, reusable=healthy)
        elif context is not None:
            # The browser may be gone already; cleanup must still finish.
            with contextlib.suppress(Exception):
                context.close()
        self.server = None
        workspace, self.workspace = self.workspace, None
        if workspace is not None:
            workspace.cleanup()

    @property
    def page(self) -> Page:
        """The Playwright page of the app (for things the harness does not wrap yet)."""
        if self._page is None:
            raise SessionClosedError("session is closed" if self._closed else "session is not open")
        return self._page

    def evaluate(self, expression: str, arg: Any = None) -> Any:
        """`page.evaluate` on the app page."""
        return self.page.evaluate(expression, arg)

    @property
    def console_errors(self) -> list[str]:
        """Console messages of type 'error'."""
        return self.log.console_errors

    @property
    def page_errors(self) -> list[str]:
        """Uncaught exceptions and unhandled rejections in the page."""
        return list(self.log.page_errors)

    @property
    def failed_requests(self) -> list[FailedRequest]:
        """Aborted or failed requests and HTTP errors."""
        return list(self.log.failed_requests)

    @property
    def remote_requests(self) -> list[RemoteRequest]:
        """Every request that was not for the session server, with what the router did."""
        return list(self.log.remote_requests)
