"""Error types of the XR runtime harness.

Infrastructure failures (the browser did not start, the app did not initialise, the pinned web
dependencies are missing) have their own types so that callers can keep them apart from test
failures: an app that never initialised must never count as a pass.
"""

from __future__ import annotations

from xrbench.errors import UserError


class XRTestError(Exception):
    """Base class of every error raised by `xrbench.xrtest`."""


class WebDepsError(XRTestError, UserError):
    """The pinned web dependencies (node_modules) are missing or have the wrong versions."""


class BrowserLaunchError(XRTestError):
    """Chromium could not be found or did not start."""


class AppInitError(XRTestError):
    """The app under test did not initialise: `xbReady` rejected, the core was disposed, or a timeout.

    `details` carries what the page reported (page errors, failed requests, console errors) so
    that the message explains the failure without rerunning.
    """

    def __init__(self, message: str, *, details: dict | None = None):
        self.details = details or {}
        super().__init__(message)


class SceneError(XRTestError, UserError):
    """An unknown scene name or a malformed scene directory."""


class TagNotFoundError(XRTestError, LookupError):
    """No object in the scene graph carries the requested semantic tag."""


class SessionClosedError(XRTestError):
    """The session was used after it was closed."""


class TamperingError(XRTestError):
    """The page changed what the harness relies on to observe it (see `js/kernel.js`).

    A candidate app that does this fails with the failure category `tampering`; it is never an
    infrastructure error (which would be retried) and never a pass.
    """
