"""`XRSession`: one XR Blocks app, running headless in its own browser context, stepped in virtual time.

    with XRSession("examples/tap_to_light", scene="living_room") as s:
        s.step(10)
        lamp = s.find_by_tag("lamp")
        print(lamp.position, lamp.state)

Opening a session copies the app into a temporary workspace (import map pointed at the pinned
node_modules), serves it through the context's request routing (`server.py`; the browser has
no network), opens it in a fresh context of the shared browser with
`?xrAutomation=1&debug=1`, waits for `window.xbReady`, and pauses the core. From then on time
only moves when the test calls `step()`/`advance()`, so results do not depend on how fast the
machine renders. Closing (or leaving the `with` block, also on KeyboardInterrupt) closes the
context and deletes the workspace.

A session also carries the simulated user and what the harness reads (see `actors.py`,
`readers.py`, `assertions.py`): `head`, `hand(role)`, `controller(role)`, `gesture()`,
`objects`, `plane_detection` and `wait(ms)` act; `events()`, `tagged()`, `find()`, `planes()`, `depth()`,
`locations()` and `hand_state()` read. Hand roles ('dominant', 'non_dominant') follow the
session's `dominant_hand`.
"""

from __future__ import annotations

import functools
import json
import math
import secrets
import shutil
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlencode

from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

from xrbench.xrtest.browser import shared_browser
from xrbench.xrtest.contexts import ContextPool
from xrbench.xrtest.errors import AppInitError, SessionClosedError, TagNotFoundError, TamperingError, XRTestError
from xrbench.xrtest.pagesession import PageSession
from xrbench.xrtest.routing import Router, SessionLog, attach_log
from xrbench.xrtest.scenes import Scene, get_scene
from xrbench.xrtest.server import AppServer
from xrbench.xrtest.webdeps import WebDeps, find_web_deps
from xrbench.xrtest.workspace import HARNESS_DIR, Workspace, create_workspace

if TYPE_CHECKING:
    import numpy as np

    from xrbench.xrtest import actors, readers

JS_DIR = Path(__file__).resolve().parent / "js"
DEFAULT_DT_MS = 1000.0 / 60.0
DEFAULT_VIEWPORT = (640, 360)
HANDS = ("left", "right")
UI_IMPORT_GRACE_S = 0.25  # how long `settle` waits for the request of a module that UI imports

# The modules each app loaded while starting, in request order, keyed by (app dir, entry). Later
# sessions of the same app preload them all at once: the import graph is a dozen levels deep, and
# fetching it one level at a time was half of a session's start-up. Only timing changes, never
# what runs.
_PRELOADS: dict[tuple[Path, str], tuple[str, ...]] = {}


def _loaded_modules(server: AppServer) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for r in server.requests:
        path = r.path.split("?", 1)[0]
        own = path.startswith(f"/{HARNESS_DIR}/")  # the harness module is a <script> of its own already
        if r.method == "GET" and r.status == 200 and path.endswith((".js", ".mjs")) and not own:
            seen[path] = None
    return tuple(seen)


@functools.cache
def load_js(name: str) -> str:
    """The source of `js/<name>.js` (a function expression for `page.evaluate`, or a script)."""
    return (JS_DIR / f"{name}.js").read_text(encoding="utf-8")


# Harness operations defined by a function-expression file each (js/<name>.js).
_OPERATIONS = ("step", "snapshot", "status", "wait_ready", "settle", "camera_pose", "hand_joints", "webgl")
TAMPERING_MARK = "XRTEST_TAMPERING: "


@functools.cache
def _harness_body() -> str:
    parts = [load_js("kernel"), load_js("read_lib"), load_js("actor_lib")]
    parts += [f"H.ops.{name} = (\n{load_js(name)}\n);" for name in _OPERATIONS]
    return "\n".join(parts)


def harness_script(config: dict[str, Any], token: str) -> str:
    """The one init script of a session: the kernel with readers, actors and operations (js/)."""
    return (
        "(() => {\n'use strict';\n"
        f"const CONFIG = {json.dumps(config)};\nconst TOKEN = {json.dumps(token)};\n"
        f"{_harness_body()}\n}})();\n"
    )


Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]


@dataclass(frozen=True)
class UIRect:
    """The laid-out rectangle of an XR Blocks UI element, in the world frame (metres).

    `corners` run bottom-left, bottom-right, top-right, top-left as seen from the front;
    `normal` points out of the front face.
    """

    center: Vec3
    width: float
    height: float
    corners: tuple[Vec3, Vec3, Vec3, Vec3]
    normal: Vec3

    @classmethod
    def from_js(cls, d: dict | None) -> UIRect | None:
        if not d:
            return None
        return cls(
            center=tuple(d["center"]),  # type: ignore[arg-type]
            width=float(d["width"]),
            height=float(d["height"]),
            corners=tuple(tuple(c) for c in d["corners"]),  # type: ignore[arg-type]
            normal=tuple(d["normal"]),  # type: ignore[arg-type]
        )


@dataclass(frozen=True)
class SceneNode:
    """One object of the scene graph, in the world frame.

    `tag` and `state` come from `object.userData.xrblocksDevtools = {tag, state}`. `visible` is the
    effective visibility (the object and all its ancestors); `own_visible` is the object's flag.
    `bbox` is the world-space box of the object's subtree (geometry within its draw range, and
    laid-out UI rectangles), or None when it has neither. `ui_rect` is the rendered rectangle of
    an XR Blocks UI element (UICard, UIButton, ...) once laid out, else None.
    `uuid` and `parents` differ between sessions and are left out of comparisons.
    """

    name: str
    type: str
    path: tuple[str, ...]
    tag: str | None
    state: Any
    position: Vec3
    quaternion: Quat
    scale: Vec3
    bbox: tuple[Vec3, Vec3] | None
    visible: bool
    own_visible: bool
    color: str | None
    emissive: str | None
    is_mesh: bool
    is_script: bool
    uuid: str = field(compare=False)
    parents: tuple[str, ...] = field(compare=False)
    root: str = field(default="scene", compare=False)  # 'scene' (the app's) or 'simulator' (the room)
    ui_rect: UIRect | None = None

    @classmethod
    def from_js(cls, d: dict) -> SceneNode:
        bbox = d.get("bbox")
        return cls(
            name=d["name"],
            type=d["type"],
            path=tuple(d["path"]),
            tag=d.get("tag"),
            state=d.get("state"),
            position=tuple(d["position"]),  # type: ignore[arg-type]
            quaternion=tuple(d["quaternion"]),  # type: ignore[arg-type]
            scale=tuple(d["scale"]),  # type: ignore[arg-type]
            bbox=(tuple(bbox[0]), tuple(bbox[1])) if bbox else None,  # type: ignore[arg-type]
            visible=bool(d["visible"]),
            own_visible=bool(d["ownVisible"]),
            color=d.get("color"),
            emissive=d.get("emissive"),
            is_mesh=bool(d.get("isMesh")),
            is_script=bool(d.get("isScript")),
            uuid=d["uuid"],
            parents=tuple(d["parents"]),
            root=d.get("root") or "scene",
            ui_rect=UIRect.from_js(d.get("uiRect")),
        )

    @property
    def size(self) -> Vec3 | None:
        """World bounding-box extent (x, y, z) in metres, or None."""
        if self.bbox is None:
            return None
        lo, hi = self.bbox
        return (hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2])


@dataclass(frozen=True)
class Pose:
    """A world-frame pose; `forward` is the -Z axis of the rotated frame (where a camera looks)."""

    position: Vec3
    quaternion: Quat
    forward: Vec3 | None = None


@dataclass(frozen=True)
class Joint:
    """One hand joint in the world frame."""

    position: Vec3
    quaternion: Quat
    radius: float | None = None


def rotate(q: Sequence[float], v: Sequence[float]) -> Vec3:
    """`v` rotated by the unit quaternion `q` = (x, y, z, w)."""
    x, y, z, w = q
    # t = 2 * cross(q.xyz, v); v' = v + w * t + cross(q.xyz, t)
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return (
        v[0] + w * tx + (y * tz - z * ty),
        v[1] + w * ty + (z * tx - x * tz),
        v[2] + w * tz + (x * ty - y * tx),
    )


def distance(a: Sequence[float], b: Sequence[float]) -> float:
    """Euclidean distance between two points."""
    return math.dist(a, b)


class SessionHook(Protocol):
    """Extension point for recording and similar concerns (see `recording.py`).

    `context_options` adds keyword arguments to `browser.new_context` (e.g. `record_video_dir`);
    `context_created` runs right after the context exists (e.g. start a trace); `closing` runs
    first thing in `close()`, while the page is still open (e.g. a last screenshot, stop the trace).
    """

    def context_options(self, session: XRSession) -> dict[str, Any]: ...

    def context_created(self, session: XRSession) -> None: ...

    def closing(self, session: XRSession) -> None: ...


class XRSession(PageSession):
    """An XR Blocks app under test (see the module docstring).

    Parameters:
        app_dir: folder with the app's `index.html` (and its modules and assets).
        scene: a bundled scene (`empty`, `living_room`, `kitchen`, `office`) to use as the simulator
            environment, or None to keep the app's own environments (XR Blocks' defaults are then
            served from the bundled scenes too).
        browser: a Playwright browser to open the context in; default: the process-wide one.
        viewport: page size in CSS pixels; small sizes keep software rendering fast.
        init_timeout_s: wall-clock bound for loading the page and `xbReady`.
        fast_render: set `antialias = false` and `simulator.renderToRenderTexture = false`.
        pause_at_start: pause the core when the app calls `xb.init`, before the first frame, so
            frame times are identical between runs. Otherwise the core is paused once ready.
        options: plain data deep-assigned onto the app's `xb.Options` at `xb.init`
            (e.g. `{"simulator": {"defaultMode": "Hands"}}`); applied after the app's own settings.
        url_params: extra query parameters for the page URL.
        hooks: `SessionHook`s (recording, tracing) called around the browser context's life.
        automation: load with `?xrAutomation=1` (XR Blocks' automation preset: desktop simulator,
            Navigation mode, right hand, simulator panels hidden, simulated camera on).
        dominant_hand: the simulated user's dominant hand, 'right' (default) or 'left'; actors
            and assertions resolve the roles 'dominant' / 'non_dominant' with it.
        dt_ms: virtual milliseconds per frame for actors and `wait()` (default 60 Hz).
        contexts: open the page in a browser context of this pool (reused between sessions,
            emptied in between; see `contexts.py`) instead of a new context of its own.
        full_frames: draw every stepped frame on the canvas. By default stepped frames are
            "thin" (kernel.js): every render call and hook runs, but the canvas is drawn only where
            someone could see it: the last frame of each harness call while a hook (recording,
            trace) watches the page, otherwise only before a `screenshot()`. Verdicts are the same
            at a fraction of the software-rendering cost.
        debug_globals: leave XR Blocks' debug globals (`window.xb`, `window.xbReady`, installed
            for `?debug=1`) on the page. False loads the app as a user's browser would: an app
            that uses `xb` without importing it fails, as it would there.
    """

    def __init__(
        self,
        app_dir: str | Path,
        *,
        scene: str | None = None,
        browser: Browser | None = None,
        viewport: tuple[int, int] = DEFAULT_VIEWPORT,
        init_timeout_s: float = 30.0,
        entry: str = "index.html",
        fast_render: bool = True,
        pause_at_start: bool = True,
        options: dict[str, Any] | None = None,
        url_params: dict[str, str] | None = None,
        automation: bool = True,
        deps: WebDeps | None = None,
        hooks: Sequence[SessionHook] = (),
        dominant_hand: str = "right",
        dt_ms: float = DEFAULT_DT_MS,
        contexts: ContextPool | None = None,
        full_frames: bool = False,
        debug_globals: bool = True,
    ):
        if dominant_hand not in HANDS:
            raise ValueError(f"dominant_hand must be 'left' or 'right', not {dominant_hand!r}")
        if dt_ms <= 0:
            raise ValueError("dt_ms must be > 0")
        self.dominant_hand = dominant_hand
        self.dt_ms = float(dt_ms)
        self.app_dir = Path(app_dir)
        self.scene: Scene | None = get_scene(scene) if scene else None
        self.viewport = viewport
        self.init_timeout_s = init_timeout_s
        self.entry = entry
        self.fast_render = fast_render
        self.pause_at_start = pause_at_start
        self.options = options or {}
        self.url_params = url_params or {}
        self.automation = automation
        self._browser_arg = browser
        self._deps = deps
        self.hooks = list(hooks)
        self.log = SessionLog()
        self.init_status: dict[str, Any] = {}
        self.install_info: dict[str, Any] = {}
        self.workspace: Workspace | None = None
        self.server: AppServer | None = None
        self.context: BrowserContext | None = None
        self._page: Page | None = None
        self._closed = False
        self._opened = False
        self._actors: dict[str, Any] = {}
        self._cdp: Any = None
        self._harness_module = ""
        self._contexts = contexts
        self.full_frames = full_frames
        self.debug_globals = debug_globals

    # --- lifecycle -----------------------------------------------------------------------------

    def __enter__(self) -> XRSession:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def url(self) -> str:
        """The page URL (only while open)."""
        if self.server is None:
            raise SessionClosedError("session is not open")
        params = {"xrAutomation": "1"} if self.automation else {}
        params.update({"debug": "1", **self.url_params})
        return f"{self.server.base_url}/{self.entry}?{urlencode(params)}"

    def _config(self) -> dict[str, Any]:
        cfg: dict[str, Any] = {
            "pauseAtStart": self.pause_at_start,
            "options": self.options,
            "fullFrames": self.full_frames,
            # A hook (recording, trace) sees the page between calls; otherwise only screenshots do.
            "canvasWatched": bool(self.hooks),
            "debugGlobals": self.debug_globals,
        }
        if self.fast_render:
            cfg.update(antialias=False, renderToRenderTexture=False)
        if self.scene is not None:
            cfg["scene"] = {
                "name": self.scene.name,
                "title": self.scene.title,
                "manifestPath": f"/{HARNESS_DIR}/scenes/{self.scene.name}/manifest.json",
            }
        return cfg

    def open(self) -> XRSession:
        """Start everything and wait for the app; raises `AppInitError` or `BrowserLaunchError`."""
        if self._closed:
            raise SessionClosedError("a closed session cannot be reopened; create a new XRSession")
        if self._opened:
            return self
        self._opened = True
        try:
            self._open()
        except BaseException:
            self.close()
            raise
        return self

    def _open(self) -> None:
        deps = self._deps or find_web_deps()
        preload_key = (self.app_dir.resolve(), self.entry)
        # The harness page module lives at a URL the page learns only when the parser reaches its
        # tag (its request is then already on the way) and carries a secret the page never sees:
        # the server answers it once, so a page that asks for it again is caught (js/kernel.js).
        token = secrets.token_hex(16)
        self._harness_module = f"/{HARNESS_DIR}/harness-{secrets.token_hex(8)}.js"
        self.workspace = create_workspace(
            self.app_dir,
            deps,
            entry=self.entry,
            preload=_PRELOADS.get(preload_key, ()),
            harness_token=token,
            harness_module=self._harness_module,
        )
        if self.scene is not None:
            shutil.copytree(self.scene.dir, self.workspace.path / HARNESS_DIR / "scenes" / self.scene.name)
        self.server = AppServer(
            self.workspace.path, deps.node_modules, once=[self._harness_module], app=self.workspace.app_dir
        )
        browser = self._browser_arg or shared_browser()
        options: dict[str, Any] = {
            "viewport": {"width": self.viewport[0], "height": self.viewport[1]},
            "device_scale_factor": 1,
            "service_workers": "block",
        }
        for hook in self.hooks:
            options.update(hook.context_options(self))
        router = Router(deps, self.server.base_url, self.log, scene=self.scene.name if self.scene else None)
        if self._contexts is None:
            self.context = browser.new_context(**options)
            for hook in self.hooks:
                hook.context_created(self)
            attach_log(self.context, self.log)
            router.install(self.context)
        else:
            # A context reused from an earlier session (see contexts.py): this session's page, logs
            # and routes are its own, and storage is emptied before the page navigates.
            self._lease = self._contexts.acquire(browser, options)
            self.context = self._lease.context
            if self._lease.fresh:
                self.context.route_web_socket(router.pattern, self._lease.handle_websocket)
            self._lease.websocket_handler = router.handle_websocket
            router.install(self.context, websockets=False)
        self.context.set_default_timeout(self.init_timeout_s * 1000)
        self.server.install(self.context)
        self._page = self.context.new_page()
        if self._lease is not None:
            attach_log(self._page, self.log)
            self._page.on("crash", lambda _page: setattr(self, "_crashed", True))
        # The harness (kernel, readers, actors), before any page script; see js/kernel.js.
        self._page.add_init_script(script=harness_script(self._config(), token))
        self._cdp = self.context.new_cdp_session(self._page)
        if self._lease is not None:
            self._lease.clear_storage(self._cdp)
        try:
            self._page.goto(self.url, wait_until="load", timeout=self.init_timeout_s * 1000)
        except PlaywrightError as e:
            raise self._init_error(f"the page did not load: {str(e).splitlines()[0]}") from e
        try:
            status = self.call("wait_ready", {"timeoutMs": self.init_timeout_s * 1000})
        except PlaywrightError as e:  # the page crashed, navigated away or was closed
            raise self._init_error(f"the page failed while starting: {str(e).splitlines()[0]}") from e
        self.init_status = status
        refetched = [r for r in self.server.requests if r.path.split("?", 1)[0] == self._harness_module][1:]
        if refetched or status["status"] == "harness-missing":
            raise TamperingError(
                f"{self.app_dir}: the harness page module did not run before the app "
                + ("(the page requested it itself)" if refetched else "(the page kept it from loading)")
            )
        if status["status"] != "ready" or status.get("lifecycle") != "running":
            raise self._init_error(_describe_init_failure(status, self.init_timeout_s))
        self.call("pause")
        _PRELOADS.setdefault(preload_key, _loaded_modules(self.server))
        # Record the app's interaction events from the first frame on (see readers.py).
        self.install_info = self.call("read.install")

    def call(self, name: str, args: Any = None) -> Any:
        """Run harness operation `name` in the page (see js/kernel.js); its JSON result, parsed.

        The call goes over CDP to the kernel's frozen gateway and comes back as a JSON string, so
        no function the page can replace takes part in it. Raises `TamperingError` when the kernel
        found the page changing what the harness relies on, `XRTestError` for other page errors.
        """
        if self._cdp is None or self._page is None:
            raise SessionClosedError("session is closed" if self._closed else "session is not open")
        arg = "undefined" if args is None else json.dumps(json.dumps(args))
        reply = self._cdp.send(
            "Runtime.evaluate",
            {
                "expression": f"window.__xrtest.run({json.dumps(name)}, {arg})",
                "awaitPromise": True,
                "returnByValue": True,
            },
        )
        failure = reply.get("exceptionDetails")
        if failure:
            exc = failure.get("exception") or {}
            text = str(exc.get("description") or exc.get("value") or failure.get("text") or "error")
            first = text.splitlines()[0] if text.strip() else "error"
            if TAMPERING_MARK in text:
                raise TamperingError(f"tampering detected: {text.split(TAMPERING_MARK, 1)[1].splitlines()[0]}")
            raise XRTestError(f"harness operation {name} failed in the page: {first}")
        value = (reply.get("result") or {}).get("value")
        if not isinstance(value, str):
            raise TamperingError(f"tampering detected: harness operation {name} returned {type(value).__name__}")
        return json.loads(value)

    def probe(self, source: str, arg: Any = None) -> Any:
        """Run a test's own JavaScript probe inside the harness; its JSON result, parsed.

        `source` is a function `(h, arg) => value`. It gets what the harness captured before the
        app ran, not the page's globals (the app could replace those): `h.THREE`, `h.xb`,
        `h.core`, `h.frames`, `h.audio` (every sound the page started: kind, frame, oscillator
        frequency) and `h.guard(object, what)`, which flags an object that shadows a method the
        probe calls on it. Like every harness operation it fails with `TamperingError` when the
        page changed what the harness relies on. Prefer it to `evaluate` in task tests.
        """
        return self.call("probe", {"source": source, "arg": arg})

    def audio(self) -> list[dict[str, Any]]:
        """Every sound the page started, in order (see `probe`): {'kind', 'frame', 'frequency',
        'duration', 'start_delay', 'stop_frame', 'stop_delay'}.

        `kind` is 'oscillator', 'buffer', 'source' (another Web Audio source node) or 'media' (an
        audio element's `play()`); `frequency` is an oscillator's, in Hz, when it started.
        `duration` (seconds) is how long the sound plays when that was fixed in the frame it
        started: a `stop(when)` in that frame (as XR Blocks' `playTone` does), a buffer's length
        or `start`'s duration argument; None for one that plays until stopped later. Such a later
        `stop()` sets `stop_frame` (the frame it was called in) and `stop_delay` (seconds after
        that call the sound ends); the last such call counts, as in Web Audio, and a sound whose
        length was fixed ends at whichever comes first. `start_delay` is how long after the
        `start()` call (in `frame`) the sound begins: 0, or the wait of a `start(when)` in the
        future. Audio-clock times come from the browser's audio clock, which runs in wall-clock
        time and moves on between two reads of one frame: expect a few tens of milliseconds of
        jitter under load, and compare lengths with a tolerance.
        """
        return self.probe("(h) => h.audio")

    def _init_error(self, headline: str) -> AppInitError:
        details = {
            "status": self.init_status,
            "page_errors": list(self.log.page_errors),
            "failed_requests": [str(f) for f in self.log.failed_requests],
            "console_errors": self.log.console_errors,
        }
        summary = self.log.summary()
        return AppInitError(f"{self.app_dir}: {headline}" + (f"\n{summary}" if summary else ""), details=details)

    # --- time -----------------------------------------------------------------------------------

    def step(self, frames: int = 1, dt_ms: float = DEFAULT_DT_MS) -> int:
        """Advance `frames` frames of `dt_ms` virtual milliseconds each; returns the frame counter."""
        if frames < 0 or dt_ms <= 0:
            raise ValueError("frames must be >= 0 and dt_ms > 0")
        if frames == 0:
            return self.frame
        try:
            result = self.call("step", {"frames": int(frames), "dtMs": float(dt_ms)})
        except TamperingError:
            raise
        except (PlaywrightError, XRTestError) as e:
            summary = self.log.summary()
            raise XRTestError(
                f"stepping {frames} frame(s) failed: {str(e).splitlines()[0]}" + (f"\n{summary}" if summary else "")
            ) from e
        return int(result["frames"])

    def advance(self, ms: float, dt_ms: float = DEFAULT_DT_MS) -> int:
        """Advance `ms` virtual milliseconds in steps of `dt_ms` (at least one frame)."""
        return self.step(max(1, round(ms / dt_ms)), dt_ms)

    def wait(self, ms: float) -> int:
        """Let `ms` virtual milliseconds pass (frames of `dt_ms`, at least one); returns the frame counter."""
        return self.advance(ms, self.dt_ms)

    def settle(self, *, max_frames: int = 300, timeout_s: float = 30.0) -> int:
        """Step frames until the app has finished starting up; returns the frames stepped (>= 1).

        Started up means: no Script still initialising (XR Blocks finds Scripts added to the scene
        on a frame and initialises them asynchronously), no fetch or request in flight, every
        visible UI element laid out (it has a `ui_rect`) and no page timer already due (work a
        font load or a layout pass queued while virtual time stood still). Between frames the harness waits for
        that pending work in wall-clock time while virtual time stands still, so the app sees the
        same frames on a fast or a slow machine. Raises `XRTestError` naming what is still pending
        after `max_frames` frames or `timeout_s` seconds.
        """
        deadline = time.monotonic() + timeout_s
        frames = 0
        while True:
            self.step(1)
            frames += 1
            status = self._quiesce(deadline)
            if status["ui"] and self.log.in_flight <= 0:
                # UI waiting for a module it imports (fonts are ES modules): an import() is not a
                # fetch the page can count, and the browser reports its request a moment later.
                grace = min(deadline, time.monotonic() + UI_IMPORT_GRACE_S)
                while self.log.in_flight <= 0 and time.monotonic() < grace:
                    self.page.wait_for_timeout(10)
                if self.log.in_flight > 0:
                    status = self._quiesce(deadline)
            pending = [
                f"{status['scripts']} Script(s) initialising" if status["scripts"] else "",
                f"{status['fetching']} fetch(es) running" if status["fetching"] else "",
                f"{self.log.in_flight} request(s) in flight" if self.log.in_flight > 0 else "",
                f"UI not laid out: {', '.join(status['ui'][:5])}" if status["ui"] else "",
                f"{status['timers']} timer(s) due" if status.get("timers") else "",
            ]
            if not any(pending):
                return frames
            if frames >= max_frames or time.monotonic() >= deadline:
                raise XRTestError(
                    f"the app did not settle within {frames} frame(s) and {timeout_s:g} s: "
                    + "; ".join(p for p in pending if p)
                )

    def _quiesce(self, deadline: float) -> dict[str, Any]:
        # Wait until no Script is initialising and nothing is being fetched (or the deadline).
        while True:
            remaining_ms = max(0.0, (deadline - time.monotonic()) * 1000)
            status = self.call("settle", {"timeoutMs": remaining_ms})
            busy = status["scripts"] or status["fetching"] or self.log.in_flight > 0
            if not busy or time.monotonic() >= deadline:
                return status
            self.page.wait_for_timeout(10)  # also delivers the browser's request events

    @property
    def frame(self) -> int:
        """Frames the app's core has run so far (real frames before pausing plus steps)."""
        return int(self.call("status")["frames"])

    def status(self) -> dict[str, Any]:
        """The harness's view of the page: frames, lifecycle, errors, options it applied."""
        return self.call("status")

    # --- readers --------------------------------------------------------------------------------

    def snapshot(self, *, root: str = "scene", include_private: bool = False) -> list[SceneNode]:
        """The scene graph (`root`: 'scene' for the app's, 'simulator' for the simulated room)."""
        nodes = self.call("snapshot", {"root": root, "includePrivate": include_private})
        return [SceneNode.from_js(n) for n in nodes]

    def find_all_by_tag(self, tag: str) -> list[SceneNode]:
        """Every node tagged `tag` (possibly none)."""
        return [n for n in self.snapshot(include_private=True) if n.tag == tag]

    def find_by_tag(self, tag: str) -> SceneNode:
        """The first node tagged `tag`; `TagNotFoundError` names the tags that do exist."""
        nodes = self.snapshot(include_private=True)
        for n in nodes:
            if n.tag == tag:
                return n
        tags = sorted({n.tag for n in nodes if n.tag})
        known = ", ".join(tags) if tags else "none"
        raise TagNotFoundError(
            f"no object tagged {tag!r} in the scene (tags present: {known}); tag objects with "
            "object.userData.xrblocksDevtools = {tag: '...', state: {...}}"
        )

    def camera_pose(self) -> Pose:
        """World pose of the main camera (the user's head)."""
        d = self.call("camera_pose")
        return Pose(tuple(d["position"]), tuple(d["quaternion"]), tuple(d["forward"]))  # type: ignore[arg-type]

    def hand_joints(self, hand: str) -> dict[str, Joint]:
        """The 25 joints of the 'left' or 'right' hand in the world frame."""
        if hand not in HANDS:
            raise ValueError(f"hand must be 'left' or 'right', not {hand!r}")
        d = self.call("hand_joints", {"hand": hand})
        if not d["available"]:
            raise XRTestError(f"the {hand} hand has no joints (are hands enabled and the simulator running?)")
        return {
            name: Joint(tuple(j["position"]), tuple(j["quaternion"]), j.get("radius"))  # type: ignore[arg-type]
            for name, j in d["joints"].items()
        }

    def webgl_info(self) -> dict[str, Any]:
        """WebGL context details: alive, version, renderer string, canvas size."""
        return self.call("webgl")

    def webgl_alive(self) -> bool:
        """Whether the renderer's WebGL context exists and is not lost."""
        return bool(self.webgl_info().get("alive"))

    def screenshot(self, path: str | Path | None = None) -> bytes:
        """A PNG of the page as rendered now (step a frame first after changing the scene)."""
        self.call("draw")  # the last stepped frame, if it was thin
        return self.page.screenshot(path=str(path) if path else None)

    # --- the simulated user (see actors.py) --------------------------------------------------------

    def handedness(self, role: str) -> str:
        """'left' or 'right' for a hand role: 'dominant', 'non_dominant', 'left' or 'right'."""
        if role in HANDS:
            return role
        if role == "dominant":
            return self.dominant_hand
        if role in ("non_dominant", "non-dominant", "nondominant"):
            return "left" if self.dominant_hand == "right" else "right"
        raise ValueError(f"hand role must be 'dominant', 'non_dominant', 'left' or 'right', not {role!r}")

    @property
    def head(self) -> actors.Head:
        """The user's head (the main camera): teleport_to, look_at, move, rotate, walk."""
        from xrbench.xrtest import actors

        if "head" not in self._actors:
            self._actors["head"] = actors.Head(self)
        return self._actors["head"]

    def hand(self, role: str = "dominant") -> actors.Hand:
        """A simulated hand by role ('dominant', 'non_dominant', 'left', 'right')."""
        from xrbench.xrtest import actors

        return actors.Hand(self, self.handedness(role), role)

    def controller(self, role: str = "dominant") -> actors.Controller:
        """A simulated controller by role: select, squeeze, move_to, point_to."""
        from xrbench.xrtest import actors

        return actors.Controller(self, self.handedness(role), role)

    def gesture(self, hand: str, name: str, **kwargs: Any) -> None:
        """Perform a hand gesture ('thumbs-up', 'fist', 'pinch', ...); see `actors.gesture`."""
        from xrbench.xrtest import actors

        actors.gesture(self, hand, name, **kwargs)

    @property
    def plane_detection(self) -> actors.PlaneDetection:
        """When the app's plane detection finds the room's planes: withhold, deliver."""
        from xrbench.xrtest import actors

        if "plane_detection" not in self._actors:
            self._actors["plane_detection"] = actors.PlaneDetection(self)
        return self._actors["plane_detection"]

    @property
    def depth_sensing(self) -> actors.DepthSensing:
        """When the app's depth sensing knows the room: withhold (every depth reads 0), deliver."""
        from xrbench.xrtest import actors

        if "depth_sensing" not in self._actors:
            self._actors["depth_sensing"] = actors.DepthSensing(self)
        return self._actors["depth_sensing"]

    @property
    def objects(self) -> actors.PhysicalObjects:
        """Labelled physical objects in the simulated room: add, get, list, remove, clear."""
        from xrbench.xrtest import actors

        if "objects" not in self._actors:
            self._actors["objects"] = actors.PhysicalObjects(self)
        return self._actors["objects"]

    # --- more readers (see readers.py) ------------------------------------------------------------

    def events(
        self,
        event_type: str | None = None,
        *,
        hand: str | None = None,
        target: str | None = None,
        name: str | None = None,
        since_frame: int | None = None,
    ) -> list[readers.XREvent]:
        """Interaction events the app received (recorded by the harness), filtered.

        `hand` may be a role ('dominant', ...). `target` matches the event's tag or object name.
        """
        from xrbench.xrtest import readers

        h = self.handedness(hand) if hand not in (None, "none") else hand
        return readers.filter_events(
            readers.read_events(self), event_type, hand=h, target=target, name=name, since_frame=since_frame
        )

    def tagged(self, tag: str | None = None) -> list[SceneNode]:
        """Tagged nodes of the app's scene and of the simulated room (one round trip, no untagged nodes)."""
        from xrbench.xrtest import readers

        return readers.read_tagged(self, tag)

    def drawn(self, kinds: Iterable[str] = ("mesh", "line", "points", "sprite")) -> list[readers.Drawn]:
        """Shown meshes, lines, points and sprites of the app's scene (XR Blocks' own systems left out)."""
        from xrbench.xrtest import readers

        return readers.read_drawn(self, kinds)

    def picture(
        self,
        centre: Sequence[float],
        right: Sequence[float],
        up: Sequence[float],
        size: tuple[float, float],
        pixels: tuple[int, int] = (96, 64),
        distance: float = 0.3,
    ) -> np.ndarray:
        """A `size` (metres) rectangle of the scene centred on `centre`, seen straight on from
        `distance` in front (along right x up), drawn by the app's own renderer at `pixels`
        (width, height): an RGB array, rows from the top. For what a face of an object shows (a
        score, a label) when the scene graph does not say it; what the harness uses to draw it
        was pinned before the app ran."""
        from xrbench.xrtest import readers

        return readers.read_picture(self, centre, right, up, size, pixels, distance)

    def find(self, target: Any) -> readers.Target:
        """Resolve a tag, location, plane label, point, node or actor to world coordinates."""
        from xrbench.xrtest import readers

        return readers.resolve(self, target)

    def planes(self, label: str | None = None) -> list[readers.Plane]:
        """Planes the app's plane detection found (`xb.world.planes`), optionally by label."""
        from xrbench.xrtest import readers

        planes = readers.read_world(self).planes
        return [p for p in planes if label is None or p.label == label]

    def depth(self) -> readers.DepthInfo:
        """Whether depth sensing is enabled and a depth frame is available."""
        from xrbench.xrtest import readers

        return readers.read_world(self).depth

    def room_ray(
        self,
        origin: Sequence[float],
        direction: Sequence[float],
        *,
        view_point: Sequence[float] | None = None,
        pixels: float = 1.5,
    ) -> readers.RoomRay:
        """The simulated room's truth along a ray, to compare depth-based placement with.

        `hit`: where the ray from `origin` along `direction` first meets the room the simulator
        shows (its meshes, not the app's objects or hands), with the surface's normal. With
        `view_point`, `view`: that point's depth along the viewing direction and the range of
        depths the room shows at its place in the view and `pixels` depth pixels around it, which
        is what the app's depth data can tell it there.
        """
        from xrbench.xrtest import readers

        return readers.read_room_ray(self, origin, direction, view_point, pixels)

    def locations(self) -> dict[str, Vec3]:
        """Named points of the active environment's manifest ("table", "wall", ...)."""
        from xrbench.xrtest import readers

        return readers.read_locations(self)

    def hand_state(self, role: str = "dominant") -> readers.HandState:
        """What the simulator knows about a hand: visible, connected, pose, ray, fingertip."""
        from xrbench.xrtest import readers

        return readers.read_hand(self, self.handedness(role))

    def errors(self) -> dict[str, list[str]]:
        """Everything that went wrong in the page so far, by kind (empty lists when healthy)."""
        return {
            "page_errors": self.page_errors,
            "console_errors": self.console_errors,
            "failed_requests": [str(f) for f in self.failed_requests],
            "script_errors": [
                f"{e.get('script')} [{e.get('context')}]: {e.get('message')}" for e in self.script_errors
            ],
        }

    # --- what the page reported ------------------------------------------------------------------

    @property
    def script_errors(self) -> list[dict[str, Any]]:
        """Exceptions XR Blocks caught in Script hooks (it logs them and carries on)."""
        return list(self.status()["scriptErrors"])


def _describe_init_failure(status: dict[str, Any], timeout_s: float) -> str:
    kind = status.get("status")
    if kind == "rejected":
        error = (str(status.get("error") or "").strip().splitlines() or ["unknown error"])[0]
        return f"xb.init failed (core {status.get('lifecycle')}): {error}"
    if kind == "script-init-failed":
        error = (str(status.get("error") or "").strip().splitlines() or ["unknown error"])[0]
        return f"a Script failed to initialise (XR Blocks ignores this; the app is broken): {error}"
    if kind == "app-error":
        return "the app threw before calling xb.init"
    if kind == "no-xrblocks":
        return "the page loaded but window.xbReady never appeared (XR Blocks not imported, or ?debug=1 ignored)"
    if kind == "timeout":
        phase = "xb.init was called but did not finish" if status.get("initCalled") else "xb.init was never called"
        return f"timed out after {timeout_s:g} s waiting for window.xbReady ({phase})"
    if kind == "ready":
        return f"xbReady resolved but the core is {status.get('lifecycle')}"
    return f"unexpected init status {kind!r}"
