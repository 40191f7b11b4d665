"""Find and launch headless Chromium for XR tests, one browser per process.

Chromium is the distribution's (`/usr/bin/chromium`) or the one named by `$XRBENCH_CHROMIUM`; a
browser already installed by Playwright is used as a last resort. Nothing is ever downloaded.

Rendering is software-only (ANGLE on SwiftShader), which works on machines without a GPU. The
browser keeps Chromium's own sandbox unless the process runs as root, where Chromium refuses to
start sandboxed and `--no-sandbox` is the only option. Wrapping the whole browser in an outer
sandbox (bubblewrap) for untrusted apps is a later milestone.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import threading
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, Error, Playwright, sync_playwright

from xrbench.xrtest.errors import BrowserLaunchError

ENV_VAR = "XRBENCH_CHROMIUM"
SYSTEM_CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")

# Keep the browser quiet on the network (no updaters, no sync, no QUIC probes) and stop it from
# throttling timers of a page nobody looks at: headless pages are always "in the background".
BASE_ARGS: tuple[str, ...] = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-quic",
    "--disable-breakpad",
    "--metrics-recording-only",
    "--mute-audio",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-renderer-backgrounding",
    "--autoplay-policy=no-user-gesture-required",
    # WebRTC would otherwise open UDP sockets that no request routing sees.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    # Belt and braces next to request routing: nothing but loopback resolves, so a request that
    # escapes routing (a WebSocket, a worker fetch) fails instead of reaching the network.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
)

# Chrome 137-144 removed the automatic SwiftShader fallback, so ask for it explicitly.
GL_ARGS: tuple[str, ...] = ("--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist")


def running_as_root() -> bool:
    """Whether this process has uid 0 (Chromium's sandbox cannot run then)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def find_chromium(playwright: Playwright | None = None) -> Path:
    """Path of the Chromium to use: `$XRBENCH_CHROMIUM`, the system one, else a Playwright-installed one.

    Raises `BrowserLaunchError` when none exists; never downloads a browser.
    """
    env = os.environ.get(ENV_VAR)
    if env:
        p = Path(env).expanduser()
        if not p.is_file() or not os.access(p, os.X_OK):
            raise BrowserLaunchError(f"${ENV_VAR}={env} is not an executable file")
        return p
    for candidate in SYSTEM_CHROMIUM:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return Path(candidate)
    found = shutil.which("chromium")
    if found:
        return Path(found)
    if playwright is not None:
        try:
            managed = Path(playwright.chromium.executable_path)
        except Error:
            managed = None
        if managed and managed.is_file():
            return managed
    raise BrowserLaunchError(
        "no Chromium found: install Debian's chromium (`make chromium`, i.e. apt-get install chromium) "
        f"or set ${ENV_VAR} to a Chromium executable"
    )


def launch_args(*, sandbox: bool | None = None) -> list[str]:
    """Command-line flags for headless XR testing (network-quiet, SwiftShader WebGL2)."""
    sandbox = (not running_as_root()) if sandbox is None else sandbox
    args = [*BASE_ARGS, *GL_ARGS]
    if not sandbox:
        args.append("--no-sandbox")
    return args


# Playwright's sync API allows one driver per thread (a second `sync_playwright().start()` fails
# with "Sync API inside the asyncio loop"), so every browser of this process shares one driver,
# started on first use and stopped when the last browser closes.
_driver: Playwright | None = None
_driver_users = 0
_driver_lock = threading.Lock()


def _acquire_driver() -> Playwright:
    global _driver, _driver_users
    with _driver_lock:
        if _driver is None:
            try:
                _driver = sync_playwright().start()
            except Error as e:
                raise BrowserLaunchError(f"could not start the Playwright driver: {e}") from e
        _driver_users += 1
        return _driver


def _release_driver() -> None:
    global _driver, _driver_users
    with _driver_lock:
        _driver_users = max(0, _driver_users - 1)
        if _driver_users == 0 and _driver is not None:
            driver, _driver = _driver, None
            # The driver may already be gone after a crash.
            with contextlib.suppress(Exception):
                driver.stop()


@dataclass
class BrowserHandle:
    """One launched Chromium (on the process's shared Playwright driver); `close()` ends it."""

    playwright: Playwright
    browser: Browser
    executable: Path
    sandboxed: bool
    _closed: bool = False

    def close(self) -> None:
        """Close the browser, and the driver if no other browser uses it (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            if self.browser.is_connected():
                self.browser.close()
        except Error:
            pass
        finally:
            _release_driver()


def launch_browser(*, executable: str | Path | None = None, sandbox: bool | None = None) -> BrowserHandle:
    """Launch headless Chromium with the harness flags.

    Raises `BrowserLaunchError` with Chromium's own message when it cannot start.
    """
    sandbox = (not running_as_root()) if sandbox is None else sandbox
    pw = _acquire_driver()
    exe: Path | str = executable or "chromium"
    try:
        exe = Path(executable) if executable else find_chromium(pw)
        browser = pw.chromium.launch(
            executable_path=str(exe),
            headless=True,
            args=launch_args(sandbox=sandbox),
            # Playwright adds --no-sandbox unless told the sandbox is wanted.
            chromium_sandbox=sandbox,
            timeout=60_000,
        )
    except BrowserLaunchError:
        _release_driver()
        raise
    except Error as e:
        _release_driver()
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise BrowserLaunchError(f"Chromium failed to launch ({exe}): {first}") from e
    return BrowserHandle(playwright=pw, browser=browser, executable=Path(exe), sandboxed=sandbox)


_shared: BrowserHandle | None = None
_shared_lock = threading.Lock()
_atexit_registered = False


def shared_browser() -> Browser:
    """The process-wide browser, launched on first use and closed at exit.

    Playwright's sync API is bound to the thread that started it, so use this from one thread.
    """
    global _shared, _atexit_registered
    with _shared_lock:
        if _shared is None or not _shared.browser.is_connected():
            if _shared is not None:
                _shared.close()
            _shared = launch_browser()
            if not _atexit_registered:
                atexit.register(close_shared_browser)
                _atexit_registered = True
        return _shared.browser


def close_shared_browser() -> None:
    """Close the process-wide browser if one was launched."""
    global _shared
    with _shared_lock:
        if _shared is not None:
            _shared.close()
            _shared = None
