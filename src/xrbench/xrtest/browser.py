"""Find and launch headless Chromium for XR tests, one browser per process.

Chromium is the distribution's (`/usr/bin/chromium`) or the one named by `$XRBENCH_CHROMIUM`; a
browser already installed by Playwright is used as a last resort. Nothing is ever downloaded.

Rendering is software-only (ANGLE on SwiftShader), which works on machines without a GPU. The
browser keeps Chromium's own sandbox unless the process runs as root, where Chromium refuses to
start sandboxed; there the whole browser runs inside bubblewrap instead (see `sandbox.py`).

Playwright records videos with an ffmpeg of its own that it would download; nothing is downloaded
here, so the driver is pointed at a local ffmpeg instead when one exists (see `find_ffmpeg`).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import threading
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import psutil
from playwright.sync_api import Browser, Error, Playwright, sync_playwright

from xrbench.procs import owned_tempdir
from xrbench.xrtest.errors import BrowserLaunchError
from xrbench.xrtest.sandbox import SandboxPlan, SandboxWarning, plan_sandbox

ENV_VAR = "XRBENCH_CHROMIUM"
FFMPEG_ENV_VAR = "XRBENCH_FFMPEG"
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
    # Pages of one site share a renderer process, so a session in a reused context (contexts.py)
    # does not start a new one and compile three.js and XR Blocks again.
    "--process-per-site",
    # WebRTC would otherwise open UDP sockets that no request routing sees.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    # Belt and braces next to request routing: nothing but loopback resolves, so a request that
    # escapes routing (a WebSocket, a worker fetch) fails instead of reaching the network.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
)

# Chrome 137-144 removed the automatic SwiftShader fallback, so ask for it explicitly.
GL_ARGS: tuple[str, ...] = ("--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist")

# Playwright's own `--disable-features` list (1.65). Chromium keeps only the last
# `--disable-features` on its command line, so ours repeats it; a Playwright that disables more
# is caught at launch (`dropped_features`) and the browser relaunched with the union.
PLAYWRIGHT_DISABLED_FEATURES: tuple[str, ...] = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
# Every Playwright page is a browser window, and Chromium 156 builds each window's omnibox popup
# as a WebUI page in a renderer of its own (about 400 chrome:// modules): two thirds of the
# renderer CPU of opening an app page (benchmarks/bench_page_open.py, docs/validation/HISTORY.md).
BROWSER_UI_FEATURES_OFF: tuple[str, ...] = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
# Features Playwright disabled that PLAYWRIGHT_DISABLED_FEATURES lacked, learned at launch.
_learned_features: list[str] = []


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
    features = (*PLAYWRIGHT_DISABLED_FEATURES, *_learned_features, *BROWSER_UI_FEATURES_OFF)
    args = [*BASE_ARGS, *GL_ARGS, "--disable-features=" + ",".join(features)]
    if not sandbox:
        args.append("--no-sandbox")
    return args


# Playwright's sync API allows one driver per thread (a second `sync_playwright().start()` fails
# with "Sync API inside the asyncio loop"), so every browser of this process shares one driver,
# started on first use and stopped when the last browser closes.
_driver: Playwright | None = None
_driver_users = 0
_driver_lock = threading.Lock()


def find_ffmpeg() -> Path | None:
    """An ffmpeg that can encode Playwright's videos (VP9 in WebM), or None.

    In order: `$XRBENCH_FFMPEG`, the one shipped by the `imageio-ffmpeg` package, `ffmpeg` on PATH.
    """
    env = os.environ.get(FFMPEG_ENV_VAR)
    if env:
        return Path(env) if os.access(env, os.X_OK) else None
    try:
        import imageio_ffmpeg  # type: ignore[import-not-found]

        return Path(imageio_ffmpeg.get_ffmpeg_exe())
    except Exception:  # not installed, or its binary is missing for this platform
        pass
    found = shutil.which("ffmpeg")
    return Path(found) if found else None


def _ffmpeg_revision() -> str | None:
    """The ffmpeg build the installed Playwright expects (its registry folder is `ffmpeg-<rev>`)."""
    import playwright

    try:
        data = json.loads((Path(playwright.__file__).parent / "driver/package/browsers.json").read_text())
    except (OSError, ValueError):
        return None
    return next((b["revision"] for b in data.get("browsers", []) if b.get("name") == "ffmpeg"), None)


def _default_registry() -> Path:
    """Playwright's default browser registry on Linux (where `playwright install` puts things)."""
    xdg = os.environ.get("XDG_CACHE_HOME")
    try:
        base = Path(xdg) if xdg else Path.home() / ".cache"
    except RuntimeError:  # no home directory at all
        base = Path("/nonexistent")
    return base / "ms-playwright"


def playwright_has_ffmpeg() -> bool:
    """Whether Playwright finds its own ffmpeg (in `$PLAYWRIGHT_BROWSERS_PATH` or the default registry)."""
    rev = _ffmpeg_revision()
    registry = Path(os.environ["PLAYWRIGHT_BROWSERS_PATH"]) if os.environ.get("PLAYWRIGHT_BROWSERS_PATH") else None
    return rev is not None and ((registry or _default_registry()) / f"ffmpeg-{rev}" / "ffmpeg-linux").exists()


def video_supported() -> bool:
    """Whether `record_video_dir` will work: Playwright's own ffmpeg, or a local one to hand it."""
    return playwright_has_ffmpeg() or (
        not os.environ.get("PLAYWRIGHT_BROWSERS_PATH") and find_ffmpeg() is not None and _ffmpeg_revision() is not None
    )


@contextlib.contextmanager
def _driver_environment() -> Iterator[None]:
    """Point the driver about to start at a local ffmpeg, when Playwright has none of its own.

    Playwright looks for ffmpeg only in its browser registry (`$PLAYWRIGHT_BROWSERS_PATH`, else
    ~/.cache/ms-playwright). A temporary registry holds links to everything of the default one plus
    `ffmpeg-<rev>/ffmpeg-linux` -> the local ffmpeg. The variable is set only while the driver
    starts (the driver copies the environment), so the rest of the process is unaffected.
    """
    rev, ffmpeg = _ffmpeg_revision(), find_ffmpeg()
    if playwright_has_ffmpeg() or os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or rev is None or ffmpeg is None:
        yield
        return
    registry = owned_tempdir("xrbench-playwright-")
    atexit.register(shutil.rmtree, registry, True)
    default = _default_registry()
    if default.is_dir():
        for entry in default.iterdir():
            with contextlib.suppress(OSError):
                (registry / entry.name).symlink_to(entry)
    (registry / f"ffmpeg-{rev}").mkdir(exist_ok=True)
    (registry / f"ffmpeg-{rev}" / "ffmpeg-linux").symlink_to(ffmpeg)
    os.environ["PLAYWRIGHT_BROWSERS_PATH"] = str(registry)
    try:
        yield
    finally:
        os.environ.pop("PLAYWRIGHT_BROWSERS_PATH", None)


def _acquire_driver() -> Playwright:
    global _driver, _driver_users
    with _driver_lock:
        if _driver is None:
            try:
                with _driver_environment():
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
    sandboxed: bool  # confined at all: by bubblewrap, by Chromium's own sandbox, or both
    plan: SandboxPlan | None = None  # how (None: launched before sandbox planning existed)
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


def launch_browser(
    *, executable: str | Path | None = None, sandbox: bool | None = None, isolation: str | None = None
) -> BrowserHandle:
    """Launch headless Chromium with the harness flags, confined as `sandbox.plan_sandbox` decides.

    `isolation`: "auto", "bwrap" or "off" (default `$XRBENCH_XR_SANDBOX`, else auto). `sandbox`
    forces Chromium's own sandbox on or off (default: as planned). Raises `BrowserLaunchError`
    with Chromium's own message when it cannot start.
    """
    pw = _acquire_driver()
    exe: Path | str = executable or "chromium"
    plan: SandboxPlan | None = None
    try:
        exe = Path(executable) if executable else find_chromium(pw)
        plan = plan_sandbox(Path(exe), mode=isolation, root=running_as_root())
        inner = plan.chromium_sandbox if sandbox is None else sandbox
        try:
            browser = _launch(pw, plan.executable, inner)
        except Error as first:
            if not (plan.kind == "bwrap" and inner and sandbox is None):
                raise
            # Chromium's sandbox needs user namespaces inside bubblewrap's; some kernels and
            # container profiles forbid nesting them. Bubblewrap alone still confines the browser.
            try:
                browser = _launch(pw, plan.executable, False)
            except Error:
                raise first from None  # not the sandbox's doing: report the first failure
            inner = False
            warnings.warn(
                "xrtest: Chromium's own sandbox did not start inside bubblewrap; running it with "
                "--no-sandbox inside bubblewrap",
                SandboxWarning,
                stacklevel=2,
            )
    except BrowserLaunchError:
        _release_driver()
        raise
    except Error as e:
        _release_driver()
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        where = f"{exe} in bubblewrap" if plan is not None and plan.kind == "bwrap" else str(exe)
        raise BrowserLaunchError(f"Chromium failed to launch ({where}): {first}") from e
    if plan.chromium_sandbox != inner:
        plan = SandboxPlan(plan.kind, plan.executable, plan.chromium, inner, plan.reason)
    return BrowserHandle(
        playwright=pw, browser=browser, executable=Path(exe), sandboxed=plan.kind != "none" or inner, plan=plan
    )


def dropped_features(argv: Sequence[str]) -> list[str]:
    """Features an earlier `--disable-features` of a command line names and the last one lacks.

    Chromium reads only the last `--disable-features`, so these are silently enabled.
    """
    lists = [a.split("=", 1)[1].split(",") for a in argv if a.startswith("--disable-features=")]
    if len(lists) < 2:
        return []
    kept = set(lists[-1])
    return sorted({f for earlier in lists[:-1] for f in earlier if f and f not in kept})


def browser_command_lines() -> list[list[str]]:
    """The command lines of the browsers Playwright started for this process (not their children)."""
    lines = []
    for proc in psutil.Process().children(recursive=True):
        try:
            argv = proc.cmdline()
        except psutil.Error:
            continue
        # Playwright talks to its browsers over a pipe; their child processes carry a --type.
        if "--remote-debugging-pipe" in argv and not any(a.startswith("--type=") for a in argv):
            lines.append(argv)
    return lines


def _launch(pw: Playwright, executable: Path, sandbox: bool) -> Browser:
    def launch() -> Browser:
        return pw.chromium.launch(
            executable_path=str(executable),
            headless=True,
            args=launch_args(sandbox=sandbox),
            # Playwright adds --no-sandbox unless told the sandbox is wanted.
            chromium_sandbox=sandbox,
            timeout=60_000,
        )

    browser = launch()
    dropped = {f for argv in browser_command_lines() for f in dropped_features(argv)}
    new = sorted(dropped - set(_learned_features))
    if new:
        # A newer Playwright disables more than PLAYWRIGHT_DISABLED_FEATURES says: keep its list.
        _learned_features.extend(new)
        browser.close()
        browser = launch()
    return browser


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
